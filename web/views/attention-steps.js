// A3: scaled dot-product attention step by step on one sentence: the scores QKᵀ/√d_k, the softmax
// weights (every row sums to one) and the output A·V, with the gap to the core's fused attention kernel.
import { heatmap } from '../widgets/heatmap.js';
import { el, facts, verdict, fmt, grid } from '../widgets/ui.js';
import { mountWalkthrough } from '../page/walkthrough.js';

export default {
  id: 'A3',
  title: 'Attention, step by step',
  text: 'Every query is compared with every key (scores), the softmax turns each row into weights that sum ' +
    'to one, and each position hears the weighted average of the values.',
  mount(card, ctx) {
    mountWalkthrough(card, ctx, (f, t, options) => {
      const vLabels = Array.from({ length: options.dK }, (_, i) => `v${i}`);
      const sums = f.values.rowSums;
      return [grid(
        heatmap(f.arrays.scores, '1) scores QKᵀ/√d_k', { cmap: 'diverging', symmetric: true, xLabels: t, yLabels: t }),
        heatmap(f.arrays.weights, '2) weights softmax(scores) (row = query)', { vmin: 0, vmax: 1, xLabels: t, yLabels: t }),
        heatmap(f.arrays.output, '3) output A·V', { cmap: 'diverging', symmetric: true, xLabels: vLabels, yLabels: t }),
      ), facts([
        ['shapes', `X [${f.arrays.x.shape}], scores [${f.arrays.scores.shape}], output [${f.arrays.output.shape}]`],
        ['row sums of the weights', el('span', {}, sums.map((s) => fmt(s, 6)).join('  '), ' ', verdict(sums.every((s) => Math.abs(s - 1) < 1e-5)))],
        ['same as the fused attention kernel', el('span', {}, verdict(f.values.fusedKernelGap < 1e-5), ` (largest gap ${fmt(f.values.fusedKernelGap)})`)],
      ])];
    }, { heads: 0 });
  },
};
