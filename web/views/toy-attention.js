// B4: who listens to whom. The trained transformer's attention weights for "the _ is alive",
// "the _ is empty" and "_ _ _ _", one matrix per head with the words as tick labels.
import { heatmap, slice } from '../widgets/heatmap.js';
import { el, button, field, grid } from '../widgets/ui.js';
import { showsModel } from '../page/model-slots.js';

const SLOT = 'toy-transformer';

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
      const figures = [];
      for (const s of sentences.input.value.split(',').map((x) => x.trim()).filter(Boolean)) {
        const a = await ctx.client.call(SLOT, 'attention', s);
        a.layers.forEach((layer, l) => {
          for (let h = 0; h < layer.shape[0]; h++) {
            const where = a.layers.length > 1 || layer.shape[0] > 1 ? ` (block ${l}, head ${h})` : '';
            figures.push(heatmap(slice(layer, h), `"${s}"${where}`, { vmin: 0, vmax: 1, xLabels: a.tokens, yLabels: a.tokens, maxCell: 56 }));
          }
        });
      }
      card.output.replaceChildren(el('p', { class: 'story-meta' }, `MyTransformer at step ${info.stepsDone}`), grid(...figures));
      showsModel(card, SLOT, info.stepsDone);
    }, 'Reading the attention…');
    card.controls.append(sentences.wrap, button('Show', draw));
    ctx.models.onReady(SLOT, draw);
    draw();
  },
};
