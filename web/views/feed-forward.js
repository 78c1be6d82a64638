// A9: the feed-forward net (GELU, tanh form) thinks about each position on its own: applied to the whole
// sentence or to one position at a time it gives the same answer. And it holds most of a block's weights.
import { lineChart } from '../widgets/charts.js';
import { el, button, field, facts, verdict, fmt } from '../widgets/ui.js';

export default {
  id: 'A9',
  title: 'The feed-forward net',
  text: 'A linear layer four times wider, GELU, and back down: applied to every position separately. Nobody talks here.',
  mount(card, ctx) {
    const dModel = field('d_model', { value: 8, min: 1, max: 512 });
    const seed = field('seed', { value: 0, min: 0 });
    const draw = () => card.busy(async () => {
      const d = dModel.whole();
      const f = await ctx.client.figure('feedForwardCheck', { dModel: d, positions: 6, seed: seed.whole() });
      const chart = el('div', { class: 'chart' });
      const ffn = f.values.ffnParameters, attn = f.values.attentionParameters;
      card.output.replaceChildren(facts([
        ['FFN on the sequence == FFN on each position', el('span', {}, verdict(f.values.perPositionGap < 1e-5), ` (largest gap ${fmt(f.values.perPositionGap)})`)],
        ['parameters', `FFN ${ffn.toLocaleString('en')} vs attention 4·d² = ${attn.toLocaleString('en')} (FFN ${((100 * ffn) / (ffn + attn)).toFixed(0)} % of the two)`],
      ]), chart);
      const x = Array.from(f.arrays.geluX.data);
      lineChart(chart, x, [
        { label: 'GELU, tanh form (GPT-2)', values: Array.from(f.arrays.geluTanh.data) },
        { label: 'GELU, exact (erf)', values: Array.from(f.arrays.geluErf.data), dash: [5, 4] },
      ], { title: 'GELU: close to 0 for negative x, close to x for positive x', xLabel: 'x', height: 240 });
    }, 'Checking…');
    card.controls.append(dModel.wrap, seed.wrap, button('Check', draw));
    draw();
  },
};
