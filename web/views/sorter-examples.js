// D2: greedy decoding, one digit at a time: the fully correct rate and the per-digit accuracy on 2000
// fresh inputs, four of them shown with ✓ / ✗, and any ten digits of your own (decoded again by itself
// while the sorter trains: live views).
import { el, button, field, facts, percent } from '../widgets/ui.js';
import { SORTER } from '../page/model-slots.js';

const example = (e) => el('div', { class: 'mono' }, `in  [${e.input.join(' ')}]`, el('br'), `out [${e.output.join(' ')}] `,
  el('span', { class: e.correct ? 'ok' : 'bad' }, e.correct ? '✓' : '✗'));

export default {
  id: 'D2',
  title: 'Greedy decoding',
  text: 'Autoregressive: start from <sos>, take the most likely digit, append it, repeat ten times.',
  mount(card, ctx) {
    const digits = field('your digits', { kind: 'text', value: '7 2 9 0 4 4 1 8 3 6' });
    const evaluate = () => card.busy(async () => {
      const info = ctx.models.get(SORTER);
      if (!info || info.state === 'empty') throw new Error('train the sorter in D1 first (or upload one)');
      const r = await ctx.client.call(SORTER, 'evaluate', 123);
      card.output.replaceChildren(facts([
        ['fully correct sequences', percent(r.accuracy)], ['per-digit accuracy', percent(r.digitAccuracy, 2)],
        ['of', `${r.sequences} fresh inputs, sorter at step ${info.stepsDone ?? '?'}`],
      ]), ...r.examples.map(example));
    }, 'Sorting 2000 inputs…');
    const yours = el('div', { class: 'your-digits' });  // the last "Sort mine", replaced by the next
    const mine = () => card.busy(async () => {
      yours.replaceChildren();
      const r = await ctx.client.call(SORTER, 'sortDigits', digits.input.value);
      yours.replaceChildren(example(r));
    }, 'Sorting…');
    const live = el('div', { class: 'mono live-sample' });
    card.controls.append(button('Evaluate', evaluate), digits.wrap, button('Sort mine', mine));
    card.node.insertBefore(live, card.output);
    card.node.insertBefore(yours, card.output);
    ctx.models.onReady(SORTER, evaluate);
    ctx.live.watch([SORTER], async () => {
      const r = await ctx.client.call(SORTER, 'sortDigits', digits.input.value);
      live.dataset.step = String(ctx.models.get(SORTER).stepsDone);
      live.replaceChildren(`live, step ${live.dataset.step}: `, example(r));
    });
  },
};
