// D6: gradient saliency. For each output step, the size of the gradient of the chosen logit with respect
// to each input embedding, normalised per row, beside the last layer's cross-attention (mean of heads).
import { heatmap, meanOver } from '../widgets/heatmap.js';
import { button, grid } from '../widgets/ui.js';
import { SORTER, requireSorter, showsModel } from '../page/model-slots.js';
import { sorterInputField } from '../widgets/sorter-inputs.js';

export default {
  id: 'D6',
  title: 'Gradient saliency',
  text: 'Attention says where a layer looked; the gradient says which inputs the answer actually depends on.',
  mount(card, ctx) {
    const digits = sorterInputField();
    const draw = () => card.busy(async () => {
      showsModel(card, SORTER, requireSorter(ctx).stepsDone);
      const [s, a] = await Promise.all([ctx.client.call(SORTER, 'saliency', digits.input.value), ctx.client.call(SORTER, 'sorterAttention', digits.input.value)]);
      const src = a.input.map(String), out = s.output.map((d) => `→${d}`);
      card.output.replaceChildren(grid(
        heatmap(s.saliency, 'gradient saliency (normalised per row)', { cmap: 'oranges', vmin: 0, xLabels: src, yLabels: out, maxCell: 30 }),
        heatmap(meanOver(a.cross.at(-1)), 'last-layer cross-attention (mean of heads)', { cmap: 'greens', vmin: 0, xLabels: src, yLabels: out, maxCell: 30 })));
    }, 'Taking gradients…');
    card.controls.append(digits.wrap, button('Show', draw));
    ctx.models.onReady(SORTER, draw);
  },
};
