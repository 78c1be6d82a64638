// A5: why divide by √d. The entropy of the attention weights over 32 random keys as d_k grows: raw dot
// products collapse to one-hot, scaled ones stay near the uniform log 32.
import { lineChart } from '../widgets/charts.js';
import { el, button, field, facts, fmt } from '../widgets/ui.js';

export default {
  id: 'A5',
  title: 'Why 1/√d',
  text: 'The dot product of two random vectors grows like √d. Without scaling, bigger vectors mean a lower ' +
    'temperature and attention freezes onto one key.',
  mount(card, ctx) {
    const queries = field('queries', { value: 1000, min: 10, max: 5000 });
    const seed = field('seed', { value: 0, min: 0 });
    const draw = () => card.busy(async () => {
      const dims = [4, 16, 64, 256, 1024];
      const f = await ctx.client.figure('entropyVsDk', {
        dims, keys: 32, queries: queries.whole(), seed: seed.whole(),
      });
      const chart = el('div', { class: 'chart' });
      card.output.replaceChildren(chart, facts([
        ['uniform over 32 keys', `log 32 = ${fmt(f.values.uniform, 4)}`],
        ['d_k = 1024', `raw ${fmt(f.arrays.raw.data.at(-1), 3)}, scaled ${fmt(f.arrays.scaled.data.at(-1), 3)}`],
      ]));
      lineChart(chart, Array.from(f.arrays.dims.data), [
        { label: 'raw q·k', values: Array.from(f.arrays.raw.data), points: true },
        { label: 'scaled q·k/√d', values: Array.from(f.arrays.scaled.data), points: true },
      ], {
        title: 'Without scaling, attention collapses to one-hot as d grows', xLabel: 'd_k', yLabel: 'entropy',
        logX: true, xRange: [dims[0] / 1.4, dims.at(-1) * 1.4], lines: [{ value: f.values.uniform, label: 'uniform over 32 keys' }], yRange: [0, 4], height: 280,
      });
    }, 'Sampling queries and keys…');
    card.controls.append(queries.wrap, seed.wrap, button('Compute', draw));
    draw();
  },
};
