// A8: multi-head attention, one map per head, and the parameter count of MultiHead(32, 4) worked out by
// hand beside the module's count.
import { heatmap, slice } from '../widgets/heatmap.js';
import { el, button, facts, verdict, grid } from '../widgets/ui.js';
import { walkthroughControls, words } from '../page/walkthrough.js';

export default {
  id: 'A8',
  title: 'Many heads',
  text: 'Several heads side by side, each with its own Q, K and V, each free to look for a different thing. ' +
    'Their outputs are stuck together and mixed by one more linear layer.',
  mount(card, ctx) {
    const { read } = walkthroughControls(card, { dModel: 8, dK: 4, heads: 4 });
    const draw = () => card.busy(async () => {
      const options = read();
      const [f, f32] = await Promise.all([
        ctx.client.figure('attentionWalkthrough', options),
        ctx.client.figure('attentionWalkthrough', { ...options, dModel: 32, dK: 8, heads: 4 }),
      ]);
      const t = words(options.sentence);
      const maps = Array.from({ length: options.heads }, (_, h) =>
        heatmap(slice(f.arrays.heads, h), `head ${h}`, { vmin: 0, vmax: 1, xLabels: t, yLabels: t }));
      const byHand = 3 * 32 * 32 + 32 * 32 + 32;
      card.output.replaceChildren(el('p', {}, `attention maps [${f.arrays.heads.shape.join(', ')}] (heads, query, key)`),
        grid(...maps), facts([
          ['MultiHead(32, 4) parameters', String(f32.values.multiheadParameters)],
          ['by hand', `4 heads × 3 matrices 32×8 (no bias) = ${3 * 32 * 32}, mix 32×32 + 32 = ${32 * 32 + 32}: ${byHand}`],
          ['they agree', el('span', {}, verdict(f32.values.multiheadParameters === byHand))],
        ]));
    }, 'Attending with every head…');
    card.controls.append(button('Compute', draw));
    draw();
  },
};
