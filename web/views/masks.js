// A7: masks forbid some pairs before the softmax. Causal: a position hears only itself and the positions
// before it (lower-triangular weights). Padding: the last two tokens are ignored by every query.
import { heatmap } from '../widgets/heatmap.js';
import { el, facts, verdict, grid } from '../widgets/ui.js';
import { mountWalkthrough } from '../page/walkthrough.js';

function upperIsZero(w) {
  const n = w.shape[0];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (w.data[i * n + j] !== 0) return false;
  return true;
}

export default {
  id: 'A7',
  title: 'Masks',
  text: 'A mask gives forbidden pairs an infinite energy, so their weight is exactly zero and the rest still sum to one.',
  mount(card, ctx) {
    mountWalkthrough(card, ctx, (f, t) => {
      const opts = { vmin: 0, vmax: 1, xLabels: t, yLabels: t };
      return [grid(
        heatmap(f.arrays.causalMask, 'causal mask (1 = allowed)', { ...opts, cmap: 'greys' }),
        heatmap(f.arrays.weightsCausal, 'causal attention: lower-triangular', opts),
        heatmap(f.arrays.weightsPadding, 'padding mask: last 2 columns ignored', opts),
      ), facts([['nothing above the diagonal', el('span', {}, verdict(upperIsZero(f.arrays.weightsCausal)))]])];
    }, { heads: 0, busyText: 'Masking…' });
  },
};
