// D6: gradient saliency. For each output step, the size of the gradient of the chosen logit with respect
// to each input embedding, normalised per row, beside the last layer's cross-attention (mean of heads). It
// follows the sorter's timeline (the picked step beside now, or alone) and redraws while the sorter trains.
import { heatmap, meanOver } from '../widgets/heatmap.js';
import { grid } from '../widgets/ui.js';
import { mountSorterView } from '../widgets/sorter-inputs.js';

function saliency({ s, a }) {
  const src = a.input.map(String), out = s.output.map((d) => `→${d}`);
  return grid(
    heatmap(s.saliency, 'gradient saliency (normalised per row)', { cmap: 'oranges', vmin: 0, xLabels: src, yLabels: out, maxCell: 30 }),
    heatmap(meanOver(a.cross.at(-1)), 'last-layer cross-attention (mean of heads)', { cmap: 'greens', vmin: 0, xLabels: src, yLabels: out, maxCell: 30 }));
}

export default {
  id: 'D6',
  title: 'Gradient saliency',
  text: 'Attention says where a layer looked; the gradient says which inputs the answer actually depends on.',
  mount(card, ctx) {
    const read = async (call, input) => {
      const [s, a] = await Promise.all([call('saliency', input), call('sorterAttention', input)]);
      return { s, a };
    };
    mountSorterView(card, ctx, { key: 'D6', busy: 'Taking gradients…', read, figure: saliency });
  },
};
