// D5: attention rollout. Average the heads, add the residual path (0.5·A + 0.5·I, rows renormalised) and
// multiply through the encoder layers: how much each input position ends up feeding each position.
import { heatmap, meanOver } from '../widgets/heatmap.js';
import { button, grid } from '../widgets/ui.js';
import { SORTER, requireSorter, showsModel } from '../page/model-slots.js';
import { digitLabels, sorterInputField } from '../widgets/sorter-inputs.js';

export default {
  id: 'D5',
  title: 'Attention rollout',
  text: 'One layer\'s map says who listens to whom in that layer. Rolled out through both layers (with the ' +
    'residual path counted) it says where the information came from.',
  mount(card, ctx) {
    const digits = sorterInputField();
    const draw = () => card.busy(async () => {
      showsModel(card, SORTER, requireSorter(ctx).stepsDone);
      const r = await ctx.client.call(SORTER, 'sorterAttention', digits.input.value);
      const { src } = digitLabels(r);
      const opts = { cmap: 'purples', vmin: 0, xLabels: src, yLabels: src, maxCell: 30 };
      card.output.replaceChildren(grid(
        ...r.encoder.map((layer, l) => heatmap(meanOver(layer), `layer ${l} (mean over heads)`, opts)),
        heatmap(r.rollout, `rollout through ${r.encoder.length === 2 ? 'both layers' : 'the layers'}`, opts)));
    }, 'Rolling out…');
    card.controls.append(digits.wrap, button('Show', draw));
    ctx.models.onReady(SORTER, draw);
  },
};
