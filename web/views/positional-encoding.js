// A1: the sinusoidal positional encoding as a heatmap (dimension x position), three of its dimensions as
// waves, and PE·PEᵀ, whose entries depend only on the distance between the two positions (checked here).
import { heatmap, transpose } from '../widgets/heatmap.js';
import { lineChart } from '../widgets/charts.js';
import { el, button, field, facts, verdict, fmt, grid } from '../widgets/ui.js';

// The largest |S[i][j] - S[0][|i - j|]| of the similarity matrix: 0 when it depends on distance only.
function distanceGap(sim) {
  const n = sim.shape[0];
  let gap = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    gap = Math.max(gap, Math.abs(sim.data[i * n + j] - sim.data[Math.abs(i - j)]));
  }
  return gap;
}

export default {
  id: 'A1',
  title: 'Sinusoidal positional encoding',
  text: 'Each position gets a vector of waves, a different frequency in each pair of dimensions. ' +
    'The dot product of two such vectors depends only on how far apart the positions are.',
  mount(card, ctx) {
    const positions = field('positions', { value: 64, min: 2, max: 512 });
    const dim = field('dimensions', { value: 64, min: 2, max: 512, step: 2 });
    const draw = () => card.busy(async () => {
      const options = { positions: positions.whole(), dim: dim.whole() };
      const f = await ctx.client.figure('positionalEncoding', options);
      const pe = f.arrays.encoding;
      const waves = el('div', { class: 'chart' });
      const picked = [0, 10, 30].filter((d) => d < options.dim);
      const gap = distanceGap(f.arrays.similarity);
      card.output.replaceChildren(grid(
        heatmap(transpose(pe), 'Positional encoding', { cmap: 'diverging', symmetric: true, xTitle: 'position', yTitle: 'dimension' }),
        el('figure', {}, el('figcaption', {}, 'Each dimension is a wave of a different frequency'), waves),
        heatmap(f.arrays.similarity, 'PE · PEᵀ: similarity depends on distance only', { cmap: 'viridis', xTitle: 'position', yTitle: 'position' }),
      ), facts([['PE·PEᵀ[i][j] depends on |i − j| only', el('span', {}, verdict(gap < 1e-3), ` (largest gap ${fmt(gap)})`)]]));
      const x = Array.from({ length: options.positions }, (_, i) => i);
      const series = picked.map((d) => ({ label: `dim ${d}`, values: x.map((p) => pe.data[p * options.dim + d]) }));
      lineChart(waves, x, series, { xLabel: 'position', wholeX: true, height: 240 });
    }, 'Computing the encoding…');
    card.controls.append(positions.wrap, dim.wrap, button('Draw', draw));
    draw();
  },
};
