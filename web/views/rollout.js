// D5: attention rollout. Average the heads, add the residual path (0.5·A + 0.5·I, rows renormalised) and
// multiply through the encoder layers: how much each input position ends up feeding each position. It
// follows the sorter's timeline (the picked step beside now, or alone) and redraws while the sorter trains.
import { heatmap, meanOver } from '../widgets/heatmap.js';
import { grid } from '../widgets/ui.js';
import { digitLabels, mountSorterView } from '../widgets/sorter-inputs.js';

function rollout(r) {
  const { src } = digitLabels(r);
  const opts = { cmap: 'purples', vmin: 0, xLabels: src, yLabels: src, maxCell: 30 };
  return grid(...r.encoder.map((layer, l) => heatmap(meanOver(layer), `layer ${l} (mean over heads)`, opts)),
    heatmap(r.rollout, `rollout through ${r.encoder.length === 2 ? 'both layers' : 'the layers'}`, opts));
}

export default {
  id: 'D5',
  title: 'Attention rollout',
  text: 'One layer\'s map says who listens to whom in that layer. Rolled out through both layers (with the ' +
    'residual path counted) it says where the information came from.',
  mount(card, ctx) {
    mountSorterView(card, ctx, { key: 'D5', busy: 'Rolling out…', read: (call, input) => call('sorterAttention', input), figure: rollout });
  },
};
