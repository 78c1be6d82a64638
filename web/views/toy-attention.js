// B4: who listens to whom. The trained transformer's attention weights for "the _ is alive",
// "the _ is empty" and "_ _ _ _", one matrix per head with the words as tick labels; the model at the step
// its timeline picks, beside the model now or alone.
import { heatmap, slice } from '../widgets/heatmap.js';
import { el, button, field, grid } from '../widgets/ui.js';
import { followTimeline, readSides, showsSides, sidesFigure, sidesText } from '../widgets/timeline-sides.js';

const SLOT = 'toy-transformer';

// One map per sentence, block and head.
const figures = (maps) => grid(...maps.flatMap(({ s, a }) => a.layers.flatMap((layer, l) => Array.from({ length: layer.shape[0] }, (_, h) => {
  const where = a.layers.length > 1 || layer.shape[0] > 1 ? ` (block ${l}, head ${h})` : '';
  return heatmap(slice(layer, h), `"${s}"${where}`, { vmin: 0, vmax: 1, xLabels: a.tokens, yLabels: a.tokens, maxCell: 56 });
}))));

export default {
  id: 'B4',
  title: 'Who listens to whom',
  text: 'Row i shows how much position i listens to each position. To fill the blank at position 2 the ' +
    'network needs position 4: is it listening there? And when everything is masked?',
  mount(card, ctx) {
    const sentences = field('sentences (comma separated)', { kind: 'text', value: 'the _ is alive, the _ is empty, _ _ _ _' });
    const draw = () => card.busy(async () => {
      const info = ctx.models.get(SLOT);
      if (!info || info.state === 'empty') {
        card.output.replaceChildren(el('p', {}, 'Train MyTransformer in B1–B3 first.'));
        return;
      }
      const list = sentences.input.value.split(',').map((x) => x.trim()).filter(Boolean);
      const sides = await readSides(ctx, SLOT, ['B4', list], (call) => Promise.all(list.map(async (s) => ({ s, a: await call('attention', s) }))));
      card.output.replaceChildren(el('p', { class: 'story-meta' }, `MyTransformer at ${sidesText(sides)}`), sidesFigure(sides, figures));
      showsSides(card, SLOT, sides);
    }, 'Reading the attention…');
    card.controls.append(sentences.wrap, button('Show', draw));
    ctx.models.onReady(SLOT, draw);
    followTimeline(ctx, [SLOT], draw);
    draw();
  },
};
