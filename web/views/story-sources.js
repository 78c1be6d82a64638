// C4 beside the attention: where a written word of a story model comes from. For the position you pick,
// three rows over the input words: the last block's attention (mean of heads), the attention rolled out
// through every block (residual path counted) and the gradient saliency of the word the model writes
// there; then the full rollout and saliency maps. The sorter's D5 and D6 tools, on stories.
import { heatmap, meanOver } from '../widgets/heatmap.js';
import { el, button, field, grid } from '../widgets/ui.js';
import { storyModelInfo, showsModel } from '../page/model-slots.js';
import { storyInputs, storyModelName, drawWhenReady } from '../widgets/story-inputs.js';

const row = (matrix, r) => matrix.data.subarray(r * matrix.shape[1], (r + 1) * matrix.shape[1]);

// The position to explain: the one picked, else the first masked word, else the last word.
function chosenPosition(picked, tokens) {
  if (picked !== '' && Number(picked) < tokens.length) return Number(picked);
  const masked = tokens.indexOf('_');
  return masked >= 0 ? masked : tokens.length - 1;
}

// The sentence checked in the reader's words before the model sees it: not empty, and no longer than the
// model reads (the core's own messages name tensor shapes and positions).
async function checkSentence(ctx, slot, text) {
  const ids = await ctx.client.call(slot, 'encode', text);
  if (ids.length === 0) throw new Error('the sentence is empty: write a few words, with _ for a masked word');
  const max = ctx.models.get(slot)?.config?.maxLength;
  if (max && ids.length > max) {
    throw new Error(`the sentence has ${ids.length} words and marks; the ${storyModelName(slot)} model reads at most ${max}`);
  }
}

export default {
  id: 'C4',
  key: 'C-sources',
  title: 'Where a written word comes from: rollout and saliency',
  text: 'Attention says where one layer looked. Rolled out through all blocks it says where the information ' +
    'came from; the gradient says which input words the written word actually depends on.',
  mount(card, ctx) {
    const { model, sentence } = storyInputs('c4s.sentence');
    const position = field('written word at', { kind: 'select', value: '', options: [['', 'the first masked word']] });
    const render = async () => {
      const slot = model.input.value;
      storyModelInfo(ctx, slot);
      await checkSentence(ctx, slot, sentence.input.value);
      const [a, s] = await Promise.all([ctx.client.call(slot, 'attention', sentence.input.value), ctx.client.call(slot, 'tokenSaliency', sentence.input.value)]);
      const step = ctx.models.get(slot).stepsDone;
      if (position.input.dataset.tokens !== a.tokens.join(' ')) {
        position.input.dataset.tokens = a.tokens.join(' ');
        position.input.replaceChildren(el('option', { value: '' }, 'the first masked word'),
          ...a.tokens.map((t, i) => el('option', { value: i }, `${i}: ${t}`)));
      }
      const k = chosenPosition(position.input.value, a.tokens);
      const last = meanOver(a.layers.at(-1));
      const T = a.tokens.length;
      const rows = new Float32Array(3 * T);
      [row(last, k), row(a.rollout, k), row(s.saliency, k)].forEach((r, i) => rows.set(r, i * T));
      const opts = { vmin: 0, xLabels: a.tokens, maxCell: 30 };
      card.node.dataset.written = s.written[k];
      showsModel(card, slot, step);
      card.output.replaceChildren(
        el('p', { class: 'story-meta' }, `At position ${k} ("${a.tokens[k]}") the ${storyModelName(slot)} model (step ${step ?? '?'}) writes `,
          el('strong', { class: 'written-word' }, s.written[k]), '.'),
        heatmap({ data: rows, shape: [3, T] }, `what "${s.written[k]}" at position ${k} draws on`,
          { ...opts, cmap: 'purples', yLabels: ['attention, last block', 'rollout', 'saliency'], maxCell: 40 }),
        grid(heatmap(a.rollout, `rollout through ${a.layers.length} block${a.layers.length > 1 ? 's' : ''}`, { ...opts, cmap: 'purples', yLabels: a.tokens }),
          heatmap(s.saliency, 'gradient saliency (rows: the word written there)', { ...opts, cmap: 'oranges', yLabels: s.written.map((w, i) => `${i}→${w}`) })));
    };
    // A sentence that fails leaves no maps of an earlier one under its message.
    const draw = () => card.busy(() => render().catch((error) => {
      card.output.replaceChildren();
      throw error;
    }), 'Taking gradients…');
    position.input.addEventListener('change', draw);
    card.controls.append(model.wrap, sentence.wrap, position.wrap, button('Show', draw));
    drawWhenReady(ctx, model, draw);
  },
};
