// What the attention walkthrough views (A3, A4, A6, A7, A8) share: the sentence and size fields, and the
// life of a walkthrough card (controls, a Compute button, the core's walkthrough figure on each press).
// Kept out of web/views/ so that a view only ever imports shared code, never another view.
import { button, field } from '../widgets/ui.js';

export function walkthroughControls(card, { dModel = 8, dK = 4, heads = 4 } = {}) {
  const f = {
    sentence: field('sentence', { kind: 'text', value: 'the cat sat on the mat' }),
    dModel: field('d_model', { value: dModel, min: 2, max: 256 }),
    dK: field('d_k', { value: dK, min: 1, max: 256 }),
    seed: field('seed', { value: 0, min: 0 }),
  };
  if (heads) f.heads = field('heads', { value: heads, min: 1, max: 16 });
  card.controls.append(...Object.values(f).map((x) => x.wrap));
  const read = () => {
    const options = {
      sentence: f.sentence.input.value.trim(), dModel: f.dModel.whole(), dK: f.dK.whole(), seed: f.seed.whole(),
    };
    if (f.heads) options.heads = f.heads.whole();
    if (options.sentence.split(/\s+/).length < 3) throw new Error('the sentence needs at least three words');
    return options;
  };
  return { read, fields: f };
}

// The shared life of the walkthrough views: controls, a Compute button, and on each press the core's
// walkthrough figure for the sentence, handed to `render(figure, words, options)` for the card's output.
export function mountWalkthrough(card, ctx, render, { busyText = 'Attending…', ...controls } = {}) {
  const { read } = walkthroughControls(card, controls);
  const draw = () => card.busy(async () => {
    const options = read();
    const figure = await ctx.client.figure('attentionWalkthrough', options);
    card.output.replaceChildren(...render(figure, words(options.sentence), options));
  }, busyText);
  card.controls.append(button('Compute', draw));
  draw();
}

export const words = (sentence) => sentence.trim().split(/\s+/);
