// E2: the logit lens. For a sentence, what the residual stream entering each block (and leaving the last)
// would predict if it went straight to the final LayerNorm and the output layer: the likeliest word per
// position and block, coloured by its probability, and beside it the probability and rank of the word to
// predict there (the next word for a left-to-right model, the masked word for a diffusion model). Story
// models and the toy; redrawn by itself while the model trains (live views), at the step its timeline picks
// (beside the model now, or alone); inputs kept in the URL.
import { heatmap } from '../widgets/heatmap.js';
import { readSetting, urlField, writeSetting } from '../page/url-state.js';
import { el, button, field, grid } from '../widgets/ui.js';
import { LOOKABLE_MODELS, lookableModel } from '../page/model-slots.js';
import { followTimeline, readSides, showsSides, sidesFigure, sidesText } from '../widgets/timeline-sides.js';

const DEFAULTS = {
  story: { sentence: 'lily went to the park to play with her ball .', mask: '4' },
  toy: { sentence: 'the cat is alive', mask: '1' },
};

// "4 7" -> [4, 7]: the positions (from 0) read as "_".
function positions(text) {
  const words = text.trim().split(/[\s,]+/).filter(Boolean);
  if (words.some((w) => !/^\d+$/.test(w))) throw new Error('masked positions: whole numbers from 0, separated by spaces');
  return words.map(Number);
}

// The lens's rows as the reader names them: what each block reads, then what the last one writes.
const rowLabels = (rows) => Array.from({ length: rows }, (_, r) => (r === 0 ? 'embeddings' : `after block ${r - 1}`));

function lensFigures(lens, title) {
  const [rows, T, top] = lens.probs.shape;
  const best = new Float32Array(rows * T), words = [], ranks = [];
  for (let r = 0; r < rows; r++) {
    for (let t = 0; t < T; t++) {
      best[r * T + t] = lens.probs.data[(r * T + t) * top];
      words.push(lens.topWords[r][t][0]);
      ranks.push(lens.targetRank[r][t] < 0 ? '' : `#${lens.targetRank[r][t]}`);
    }
  }
  const x = lens.input.map((w, t) => (lens.targets[t] && w === '_' ? `_ (${lens.targets[t]})` : w));
  const common = { xLabels: x, yLabels: rowLabels(rows), vmin: 0, vmax: 1, maxCell: 72, cellHeight: 26 };
  return grid(
    heatmap({ data: best, shape: [rows, T] }, `${title}: likeliest word and its probability`, { ...common, cmap: 'blues', cellText: words }),
    heatmap(lens.targetProb, `${title}: probability and rank of the word to predict`, { ...common, cmap: 'greens', cellText: ranks }));
}

export default {
  id: 'E2',
  title: 'The logit lens: what each block would say',
  text: 'Send the residual stream straight to the output layer after each block: where does the right word ' +
    'first come out on top? The last row is the model itself. Beyond the course.',
  mount(card, ctx) {
    const model = field('model', { kind: 'select', value: readSetting('e2.model') || LOOKABLE_MODELS[0].slot, options: LOOKABLE_MODELS.map((m) => [m.slot, m.name]) });
    const family = () => (model.input.value.startsWith('toy') ? 'toy' : 'story');
    const sentence = urlField('e2.sentence', 'sentence', DEFAULTS[family()].sentence);
    const mask = urlField('e2.mask', 'masked positions (from 0; diffusion models fill them in)', DEFAULTS[family()].mask);
    model.input.addEventListener('change', () => {
      writeSetting('e2.model', model.input.value, LOOKABLE_MODELS[0].slot);
      const other = DEFAULTS[family() === 'toy' ? 'story' : 'toy'];
      if (sentence.input.value === other.sentence) sentence.input.value = DEFAULTS[family()].sentence;
      if (mask.input.value === other.mask) mask.input.value = DEFAULTS[family()].mask;
    });
    const render = async () => {
      const { slot, name } = lookableModel(ctx, model.input.value);
      const [text, masked] = [sentence.input.value, positions(mask.input.value)];
      const sides = await readSides(ctx, slot, ['E2', text, masked], (call) => call('logitLens', text, { masked, top: 3 }));
      card.output.replaceChildren(el('p', { class: 'story-meta', dataset: { step: sides[0].step } }, `${name} at ${sidesText(sides)}`),
        sidesFigure(sides, (lens, { at, step }) => lensFigures(lens, at === null ? name : `${name}, step ${step}`)));
      showsSides(card, slot, sides);
    };
    const draw = () => card.busy(render, 'Reading the lens…');
    for (const input of [model.input, sentence.input, mask.input]) input.addEventListener('change', draw);
    card.controls.append(model.wrap, sentence.wrap, mask.wrap, button('Show', draw));
    for (const m of LOOKABLE_MODELS) ctx.models.onReady(m.slot, () => model.input.value === m.slot && draw());
    followTimeline(ctx, LOOKABLE_MODELS.map((m) => m.slot), (slot) => model.input.value === slot && draw());
    ctx.live.watch(LOOKABLE_MODELS.map((m) => m.slot), (slot) => (slot === model.input.value ? render() : Promise.resolve()));
    if (ctx.models.isReady(model.input.value)) draw();  // a model trained before the section was opened
  },
};
