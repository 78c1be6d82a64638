// C5: the causal switch. In a causal MyTransformer(14, 32, 2, 2) the logits at the first three positions of
// "the cat is alive" and "the cat is empty" are identical and only the last differs; without the switch all
// four differ. Causal attention rows still sum to one.
import { Msg } from '../shared/protocol.js';
import { heatmap, slice } from '../widgets/heatmap.js';
import { el, button, field, verdict, fmt, grid } from '../widgets/ui.js';

const A = 'the cat is alive', B = 'the cat is empty';

function positionGaps(x, y) {
  const [, T, V] = x.shape;
  return Array.from({ length: T }, (_, t) => {
    let gap = 0;
    for (let v = 0; v < V; v++) gap = Math.max(gap, Math.abs(x.data[t * V + v] - y.data[t * V + v]));
    return gap;
  });
}

async function check(ctx, causal, seed) {
  const slot = causal ? 'c5-causal' : 'c5-full';
  await ctx.client.request(Msg.CREATE_RUN, { slot, config: { task: 'toy', seed, model: { dim: 32, heads: 2, layers: 2, causal } } });
  const [x, y, att] = await Promise.all([ctx.client.call(slot, 'logits', A), ctx.client.call(slot, 'logits', B), ctx.client.call(slot, 'attention', A)]);
  return { gaps: positionGaps(x, y), att };
}

export default {
  id: 'C5',
  title: 'Flipping one switch: causal attention',
  text: 'When site i listens it may only listen to sites j ≤ i. What comes out at position i can then only ' +
    'depend on what is at or before i.',
  mount(card, ctx) {
    const seed = field('seed', { value: 0, min: 0 });
    const draw = () => card.busy(async () => {
      const s = seed.whole();
      const [causal, full] = [await check(ctx, true, s), await check(ctx, false, s)];
      // One row per position (a phone's width holds two columns of numbers, not four).
      const cell = (g, same) => el('td', { class: 'num' }, fmt(g), ' ', verdict(same ? g < 1e-6 : g > 1e-6, same ? 'same' : 'differs', same ? 'differs' : 'same'));
      const row = (t) => el('tr', {}, el('th', { scope: 'row' }, `${t + 1}: ${A.split(' ')[t]} / ${B.split(' ')[t]}`),
        cell(causal.gaps[t], t < 3), cell(full.gaps[t], false));
      const layer = causal.att.layers[0];
      const rowSums = [];
      const [, T] = layer.shape;
      for (let i = 0; i < T; i++) rowSums.push(slice(layer, 0).data.subarray(i * T, (i + 1) * T).reduce((a, b) => a + b, 0));
      card.output.replaceChildren(el('div', { class: 'table-wrap' }, el('table', {},
        el('caption', {}, `MyTransformer(14, 32, 2, 2): largest logit difference per position, "${A}" vs "${B}"`),
        el('thead', {}, el('tr', {}, el('th', {}, 'position'), el('th', { class: 'num' }, 'causal=True'), el('th', { class: 'num' }, 'causal=False'))),
        el('tbody', {}, ...causal.gaps.map((_, t) => row(t))))),
      grid(heatmap(slice(layer, 0), 'causal attention, block 0 head 0', { vmin: 0, vmax: 1, xLabels: causal.att.tokens, yLabels: causal.att.tokens, maxCell: 56 }),
        el('p', {}, 'row sums: ', rowSums.map((v) => fmt(v, 6)).join('  '), ' ', verdict(rowSums.every((v) => Math.abs(v - 1) < 1e-5)))));
    }, 'Comparing…');
    card.controls.append(seed.wrap, button('Check', draw));
    draw();
  },
};
