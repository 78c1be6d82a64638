// C4: a story sentence with one word masked, and the attention of every head in the first and in the last
// block of a trained story model. Do the heads look at different things?
import { heatmap, slice } from '../heatmap.js';
import { el, button, field } from '../ui.js';
import { STORY_MODELS } from './story-training.js';

export default {
  id: 'C4',
  title: 'Attention of a story sentence',
  text: 'One word masked; every head of the first and of the last block. You do not need to explain what you see.',
  mount(card, ctx) {
    const model = field('model', { kind: 'select', value: STORY_MODELS[0].slot, options: STORY_MODELS.map((m) => [m.slot, m.name]) });
    const sentence = field('sentence (_ = masked word)', { kind: 'text', value: 'lily went to the _ to play with her ball .' });
    const draw = () => card.busy(async () => {
      const slot = model.input.value;
      const info = ctx.models.get(slot);
      if (!info || info.state === 'empty') throw new Error('train a story model above first (or upload one)');
      const a = await ctx.client.call(slot, 'attention', sentence.input.value);
      const blocks = a.layers.length > 1 ? [0, a.layers.length - 1] : [0];
      const sections = blocks.map((b) => {
        const layer = a.layers[b];
        const maps = Array.from({ length: layer.shape[0] }, (_, h) =>
          heatmap(slice(layer, h), `head ${h}`, { vmin: 0, xLabels: a.tokens, yLabels: a.tokens, maxCell: 24 }));
        return el('div', {}, el('h4', {}, b === 0 ? 'First block' : `Last block (${b})`), el('div', { class: 'grid wide' }, ...maps));
      });
      card.output.replaceChildren(el('p', { class: 'story-meta' }, `${STORY_MODELS.find((m) => m.slot === slot).name} model at step ${info.stepsDone ?? '?'}`), ...sections);
    }, 'Reading the attention…');
    card.controls.append(model.wrap, sentence.wrap, button('Show', draw));
    for (const m of STORY_MODELS) ctx.models.onReady(m.slot, () => model.input.value === m.slot && draw());
  },
};
