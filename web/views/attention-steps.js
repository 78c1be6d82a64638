// A3: scaled dot-product attention step by step on one sentence: the scores QKᵀ/√d_k, the softmax
// weights (every row sums to one) and the output A·V, with the gap to the core's fused attention kernel.
import { heatmap } from '../heatmap.js';
import { el, button, field, intOf, facts, verdict, fmt, grid } from '../ui.js';

export function walkthroughControls(card, { dModel = 8, dK = 4, heads = 4 } = {}) {
  const f = {
    sentence: field('sentence', { kind: 'text', value: 'the cat sat on the mat' }),
    dModel: field('d_model', { value: dModel, min: 2, max: 256 }),
    dK: field('d_k', { value: dK, min: 1, max: 256 }),
    seed: field('seed', { value: 0, min: 0 }),
  };
  if (heads) f.heads = field('heads', { value: heads, min: 1, max: 16 });
  card.controls.append(...Object.values(f).map((x) => x.wrap));
  const read = () => {
    const options = {
      sentence: f.sentence.input.value.trim(), dModel: intOf(f.dModel.input, 'd_model', 2, 256),
      dK: intOf(f.dK.input, 'd_k', 1, 256), seed: intOf(f.seed.input, 'seed', 0, 2 ** 31),
    };
    if (f.heads) options.heads = intOf(f.heads.input, 'heads', 1, 16);
    if (options.sentence.split(/\s+/).length < 3) throw new Error('the sentence needs at least three words');
    return options;
  };
  return { read, fields: f };
}

// The shared life of the walkthrough views: controls, a Compute button, and on each press the core's
// walkthrough figure for the sentence, handed to `render(figure, words, options)` for the card's output.
export function mountWalkthrough(card, ctx, render, { busyText = 'Attending…', ...controls } = {}) {
  const { read } = walkthroughControls(card, controls);
  const draw = () => card.busy(async () => {
    const options = read();
    const figure = await ctx.client.figure('attentionWalkthrough', options);
    card.output.replaceChildren(...render(figure, words(options.sentence), options));
  }, busyText);
  card.controls.append(button('Compute', draw));
  draw();
}

export const words = (sentence) => sentence.trim().split(/\s+/);

export default {
  id: 'A3',
  title: 'Attention, step by step',
  text: 'Every query is compared with every key (scores), the softmax turns each row into weights that sum ' +
    'to one, and each position hears the weighted average of the values.',
  mount(card, ctx) {
    mountWalkthrough(card, ctx, (f, t, options) => {
      const vLabels = Array.from({ length: options.dK }, (_, i) => `v${i}`);
      const sums = f.values.row_sums;
      return [grid(
        heatmap(f.arrays.scores, '1) scores QKᵀ/√d_k', { cmap: 'diverging', symmetric: true, xLabels: t, yLabels: t }),
        heatmap(f.arrays.weights, '2) weights softmax(scores) (row = query)', { vmin: 0, vmax: 1, xLabels: t, yLabels: t }),
        heatmap(f.arrays.output, '3) output A·V', { cmap: 'diverging', symmetric: true, xLabels: vLabels, yLabels: t }),
      ), facts([
        ['shapes', `X [${f.arrays.x.shape}], scores [${f.arrays.scores.shape}], output [${f.arrays.output.shape}]`],
        ['row sums of the weights', el('span', {}, sums.map((s) => fmt(s, 6)).join('  '), ' ', verdict(sums.every((s) => Math.abs(s - 1) < 1e-5)))],
        ['same as the fused attention kernel', el('span', {}, verdict(f.values.fused_kernel_gap < 1e-5), ` (largest gap ${fmt(f.values.fused_kernel_gap)})`)],
      ])];
    }, { heads: 0 });
  },
};
