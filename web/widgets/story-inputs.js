// What the views that look inside a trained story model (C4 and its sources view) share: the model picker,
// the sentence they start from (one word masked, kept in the URL), and a redraw when the picked model is
// ready.
import { field } from './ui.js';
import { urlField } from '../page/url-state.js';
import { STORY_MODELS } from '../page/model-slots.js';

const DEFAULT_SENTENCE = 'lily went to the _ to play with her ball .';

// {model, sentence}: the two fields, the sentence kept in the URL under `sentenceKey`.
export function storyInputs(sentenceKey) {
  const model = field('model', { kind: 'select', value: STORY_MODELS[0].slot, options: STORY_MODELS.map((m) => [m.slot, m.name]) });
  const sentence = urlField(sentenceKey, 'sentence (_ = masked word)', DEFAULT_SENTENCE);
  return { model, sentence };
}

export function storyModelName(slot) {
  return STORY_MODELS.find((m) => m.slot === slot).name;
}

// Calls draw() whenever the model picked in `model` finishes loading or training.
export function drawWhenReady(ctx, model, draw) {
  for (const m of STORY_MODELS) ctx.models.onReady(m.slot, () => model.input.value === m.slot && draw());
}
