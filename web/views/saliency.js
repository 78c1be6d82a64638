// D6: gradient saliency. For each output step, the size of the gradient of the chosen logit with respect
// to each input embedding, normalised per row, beside the last layer's cross-attention (mean of heads). It
// follows the sorter's timeline (the picked step beside now, or alone) and redraws while the sorter trains.
import { heatmap, meanOver } from '../widgets/heatmap.js';
import { button, el, grid } from '../widgets/ui.js';
import { SORTER, requireSorter } from '../page/model-slots.js';
import { sorterInputField } from '../widgets/sorter-inputs.js';
import { followTimeline, readSides, showsSides, sidesFigure, sidesText } from '../widgets/timeline-sides.js';

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
    const digits = sorterInputField();
    const render = async () => {
      requireSorter(ctx);
      const input = digits.input.value;
      const sides = await readSides(ctx, SORTER, ['D6', input], async (call) => {
        const [s, a] = await Promise.all([call('saliency', input), call('sorterAttention', input)]);
        return { s, a };
      });
      card.output.replaceChildren(el('p', { class: 'story-meta' }, `sorter at ${sidesText(sides)}`), sidesFigure(sides, saliency));
      showsSides(card, SORTER, sides);
    };
    const draw = () => card.busy(render, 'Taking gradients…');
    card.controls.append(digits.wrap, button('Show', draw));
    ctx.models.onReady(SORTER, draw);
    followTimeline(ctx, [SORTER], draw);
    ctx.live.watch([SORTER], render);
  },
};
