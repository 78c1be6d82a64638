// B1–B3: each network's guess at position 2 for "_ _ _ _", "_ _ is alive" and "the _ _ empty", top four
// tokens beside the exact posterior GuessX0. Refreshes whenever a toy model finishes or pauses training,
// by itself while one trains (live views), and when its timeline's pick changes (that step beside now, or
// alone).
import { el, button, fmt } from '../widgets/ui.js';
import { TOY_RUNS } from '../page/model-slots.js';
import { followTimeline, readSides, sidesFigure } from '../widgets/timeline-sides.js';

// The four most probable tokens, leaving out those below half a percent (but never all of them).
function topFour(probabilities, vocabulary) {
  const top = Array.from(probabilities, (p, i) => [vocabulary[i], p]).sort((a, b) => b[1] - a[1]).slice(0, 4);
  return top.filter(([, p], i) => i === 0 || p >= 0.005);
}

const cell = (pairs) => el('td', {}, pairs.map(([w, p]) => `${w} ${(100 * p).toFixed(0)} %`).join(', '));

const guessTable = (name) => ({ guesses, vocabulary }, { at, step }) => el('table', {},
  el('caption', {}, `${name} at step ${step}${at === null ? '' : ' (timeline)'} (largest gap to GuessX0: ${fmt(guesses.maxAbsDifference, 2)})`),
  el('thead', {}, el('tr', {}, el('th', {}, 'sentence'), el('th', {}, 'network at position 2'), el('th', {}, 'exact GuessX0'))),
  el('tbody', {}, ...guesses.prompts.map((g) => el('tr', {}, el('td', { class: 'mono' }, g.prompt),
    cell(topFour(g.network, vocabulary)), cell(topFour(g.exact, vocabulary))))));

async function table(ctx, run) {
  const info = ctx.models.get(run.slot);
  if (!info || info.state === 'empty') return el('p', { dataset: { model: run.slot } }, `${run.name}: not trained yet.`);
  const sides = await readSides(ctx, run.slot, 'B-guesses', async (call) => {
    const [guesses, vocabulary] = await Promise.all([call('toyGuesses'), call('decode', Array.from({ length: 14 }, (_, i) => i))]);
    return { guesses, vocabulary };
  });
  return el('div', { class: 'table-wrap', dataset: { model: run.slot, sides: sides.map((s) => s.step).join(' ') } },
    sidesFigure(sides, guessTable(run.name)));
}

export default {
  id: 'B1–B3',
  key: 'B-guesses',
  title: 'Guesses at position 2',
  text: 'NoTalking guesses the same for all three (word frequencies). WithPosition says cat 80 % / box 20 % ' +
    'whatever the context. The transformer changes its mind when it sees "empty".',
  mount(card, ctx) {
    const draw = () => card.busy(async () => {
      card.output.replaceChildren(...(await Promise.all(TOY_RUNS.map((r) => table(ctx, r)))));
    }, 'Asking the networks…');
    const redraw = async (slot) => {
      const fresh = await table(ctx, TOY_RUNS.find((r) => r.slot === slot));
      const old = card.output.querySelector(`[data-model="${slot}"]`);
      if (old) old.replaceWith(fresh);
      else card.output.append(fresh);
    };
    card.controls.append(button('Refresh', draw));
    for (const r of TOY_RUNS) ctx.models.onReady(r.slot, draw);
    followTimeline(ctx, TOY_RUNS.map((r) => r.slot), (slot) => card.busy(() => redraw(slot), 'Asking the networks…'));
    ctx.live.watch(TOY_RUNS.map((r) => r.slot), redraw);
    draw();
  },
};
