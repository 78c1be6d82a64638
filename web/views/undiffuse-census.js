// B2, B3: undiffuse 1000 sentences with T = 20 and with T = 100 steps and count them: the four bars of the
// masked-diffusion page (two sentences, two kinds of nonsense) and the fraction of nonsense. WithPosition
// makes about 2·p·(1 − p) = 32 % nonsense whatever T; the transformer almost none.
import { el, button, field, barChart, grid, percent } from '../widgets/ui.js';
import { TOY_RUNS } from '../page/model-slots.js';

const SENTENCES = [
  ['the cat is alive', '#2f9e44'], ['the box is empty', '#2f9e44'], ['the cat is empty', '#c2255c'], ['the box is alive', '#c2255c'],
];

function bars(census, title) {
  const other = census.sentences - SENTENCES.reduce((s, [w]) => s + (census.counts[w] || 0), 0);
  const items = SENTENCES.map(([w, colour]) => ({ label: w, value: (census.counts[w] || 0) / census.sentences, colour }));
  if (other > 0) items.push({ label: 'anything else', value: other / census.sentences, colour: '#6b6b6b' });
  return el('div', { dataset: { nonsense: String(census.nonsenseFraction) } },
    barChart(items, { caption: title }),
    el('p', { class: 'story-meta' }, `nonsense: ${percent(census.nonsenseFraction)}; ${census.networkCalls} network calls`));
}

export default {
  id: 'B2–B3',
  key: 'B-census',
  title: '1000 undiffused sentences',
  text: 'Undiffusing slowly only helps if the guess changes once a word is written. WithPosition cannot hear ' +
    'the other positions, so more steps do not help it.',
  mount(card, ctx) {
    const count = field('sentences', { value: 1000, min: 10, max: 10000 });
    const draw = () => card.busy(async () => {
      const n = count.whole();
      const figures = [];
      for (const run of TOY_RUNS.slice(1)) {
        const info = ctx.models.get(run.slot);
        if (!info || info.state === 'empty') {
          figures.push(el('p', {}, `${run.name}: not trained yet.`));
          continue;
        }
        for (const steps of [20, 100]) {
          const census = await ctx.client.call(run.slot, 'undiffuseCensus', { count: n, steps, seed: 0 });
          figures.push(bars(census, `${run.name} (step ${info.stepsDone}), T = ${steps}`));
        }
      }
      card.output.replaceChildren(el('div', { class: 'grid wide' }, ...figures));
    }, 'Undiffusing…');
    card.controls.append(count.wrap, button('Undiffuse', draw));
    for (const r of TOY_RUNS.slice(1)) ctx.models.onReady(r.slot, draw);
    draw();
  },
};
