// A10: LayerNorm is (x − mean) / std with the biased std, and in a pre-norm block each sub-layer adds an
// update to the residual stream instead of replacing it: the size of each block's update.
import { button, field, facts, verdict, fmt, barChart, el } from '../widgets/ui.js';

export default {
  id: 'A10',
  title: 'LayerNorm and the residual stream',
  text: 'x = x + attention(norm1(x)); x = x + mlp(norm2(x)). Each block only adds a correction to what the ' +
    'positions already know, and the norms keep the vectors a sensible size.',
  mount(card, ctx) {
    const blocks = field('blocks', { value: 3, min: 1, max: 12 });
    const seed = field('seed', { value: 0, min: 0 });
    const draw = () => card.busy(async () => {
      const s = seed.whole();
      const [ln, rs] = await Promise.all([
        ctx.client.figure('layerNormCheck', { seed: s }),
        ctx.client.figure('residualStream', { positions: 6, dModel: 8, heads: 4, blocks: blocks.whole(), seed: s }),
      ]);
      const norms = rs.values.updateNorms;
      const max = Math.max(...norms);
      card.output.replaceChildren(facts([
        ['LayerNorm == (x − mean) / std (biased)', el('span', {}, verdict(ln.values.gap < 1e-4), ` (largest gap ${fmt(ln.values.gap)} on a [64, 5, 32] batch)`)],
      ]), barChart(norms.map((v, i) => ({ label: `block ${i}`, value: v })), {
        max, format: (v) => `‖Δ‖ = ${v.toFixed(2)}`, caption: 'Size of the update each block adds to the residual stream',
      }));
    }, 'Normalising…');
    card.controls.append(blocks.wrap, seed.wrap, button('Compute', draw));
    draw();
  },
};
