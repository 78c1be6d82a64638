// C4 beside the attention: where a written word of a story model comes from. For the position you pick,
// three rows over the input words: the last block's attention (mean of heads), the attention rolled out
// through every block (residual path counted) and the gradient saliency of the word the model writes
// there; then the full rollout and saliency maps. The sorter's D5 and D6 tools, on stories; at the step the
// model's timeline picks, beside the model now or alone.
import { heatmap, meanOver } from '../widgets/heatmap.js';
import { el, button, field, grid } from '../widgets/ui.js';
import { STORY_MODELS, storyModelInfo } from '../page/model-slots.js';
import { storyInputs, storyModelName, drawWhenReady } from '../widgets/story-inputs.js';
import { followTimeline, readSides, showsSides, sidesFigure } from '../widgets/timeline-sides.js';

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

// The maps of one model: the three rows for position k, then the full rollout and saliency.
function sources({ a, s }, k) {
  const last = meanOver(a.layers.at(-1));
  const T = a.tokens.length;
  const rows = new Float32Array(3 * T);
  [row(last, k), row(a.rollout, k), row(s.saliency, k)].forEach((r, i) => rows.set(r, i * T));
  const opts = { vmin: 0, xLabels: a.tokens, maxCell: 30 };
  return el('div', {},
    heatmap({ data: rows, shape: [3, T] }, `what "${s.written[k]}" at position ${k} draws on`,
      { ...opts, cmap: 'purples', yLabels: ['attention, last block', 'rollout', 'saliency'], maxCell: 40 }),
    grid(heatmap(a.rollout, `rollout through ${a.layers.length} block${a.layers.length > 1 ? 's' : ''}`, { ...opts, cmap: 'purples', yLabels: a.tokens }),
      heatmap(s.saliency, 'gradient saliency (rows: the word written there)', { ...opts, cmap: 'oranges', yLabels: s.written.map((w, i) => `${i}→${w}`) })));
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
      const text = sentence.input.value;
      await checkSentence(ctx, slot, text);
      const sides = await readSides(ctx, slot, ['C4s', text], async (call) => {
        const [a, s] = await Promise.all([call('attention', text), call('tokenSaliency', text)]);
        return { a, s };
      });
      const { tokens } = sides[0].result.a;
      if (position.input.dataset.tokens !== tokens.join(' ')) {
        position.input.dataset.tokens = tokens.join(' ');
        position.input.replaceChildren(el('option', { value: '' }, 'the first masked word'),
          ...tokens.map((t, i) => el('option', { value: i }, `${i}: ${t}`)));
      }
      const k = chosenPosition(position.input.value, tokens);
      const word = ({ result, at, step }) => [el('strong', { class: 'written-word' }, result.s.written[k]), at === null ? (sides.length > 1 ? ` now (step ${step ?? '?'})` : '') : ` at step ${at} (timeline)`];
      card.node.dataset.written = sides[0].result.s.written[k];
      showsSides(card, slot, sides);
      card.output.replaceChildren(
        el('p', { class: 'story-meta' }, `At position ${k} ("${tokens[k]}") the ${storyModelName(slot)} model${sides.length > 1 || sides[0].at !== null ? '' : ` (step ${sides[0].step ?? '?'})`} writes `,
          ...sides.flatMap((side, i) => [i ? ' and ' : '', ...word(side)]), '.'),
        sidesFigure(sides, (r) => sources(r, k)));
    };
    // A sentence that fails leaves no maps of an earlier one under its message.
    const draw = () => card.busy(() => render().catch((error) => {
      card.output.replaceChildren();
      throw error;
    }), 'Taking gradients…');
    position.input.addEventListener('change', draw);
    card.controls.append(model.wrap, sentence.wrap, position.wrap, button('Show', draw));
    drawWhenReady(ctx, model, draw);
    followTimeline(ctx, STORY_MODELS.map((m) => m.slot), (slot) => slot === model.input.value && draw());
  },
};
