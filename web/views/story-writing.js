// C2, C3, C7, C8: writing with a trained story model. Undiffusing is shown as an animation of the reveal
// order (which position was filled at which step); infilling keeps a prefix and a suffix fixed; the causal
// model writes left to right with a temperature. Each story says how many network calls it took.
import { el, button, field, intOf } from '../ui.js';
import { STORY_MODELS } from './story-training.js';

const PRESETS = [
  ['C2: five stories', { prompt: '', suffix: '', count: 5 }],
  ['C3: fill in the middle', { prompt: 'one day , lily went to the park .', suffix: 'and they were all happy .', count: 3 }],
  ['C7: once upon a time', { prompt: 'once upon a time', suffix: '', count: 5 }],
];

// Per position, the frame at which it appears (0 = there from the start).
function revealFrames(story, fixedPrefix) {
  if (story.revealStep) return story.revealStep;
  return story.tokens.map((_, i) => (i < fixedPrefix ? 0 : i - fixedPrefix + 1));
}

function animate(container, stories, fixedPrefix) {
  const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const rows = stories.map((story) => {
    const frames = revealFrames(story, fixedPrefix);
    const spans = story.tokens.map((t, i) => el('span', { class: `tok${frames[i] === 0 ? ' fixed' : ''}` }, t));
    const text = el('p', { class: 'story', dataset: { text: story.text } }, ...spans.flatMap((s) => [s, ' ']));
    container.append(el('div', {}, text, el('p', { class: 'story-meta' },
      `${story.networkCalls} network calls for ${story.tokens.length} tokens`)));
    return { spans, frames, tokens: story.tokens };
  });
  const last = Math.max(0, ...rows.flatMap((r) => r.frames));
  let frame = reduced ? last : 0;
  const show = () => {
    for (const r of rows) r.spans.forEach((s, i) => {
      const f = r.frames[i];
      s.textContent = f <= frame ? r.tokens[i] : '_';
      s.classList.toggle('masked', f > frame);
      s.classList.toggle('new', f === frame && f > 0 && frame < last);
    });
  };
  show();
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (frame >= last) {
        clearInterval(timer);
        show();
        resolve();
        return;
      }
      frame++;
      show();
    }, Math.max(30, Math.min(150, 3000 / Math.max(1, last))));
  });
}

export default {
  id: 'C2, C3, C7, C8',
  key: 'C-write',
  title: 'Write stories',
  text: 'Undiffusing starts from all masks and fills a few positions each step; fixed words at the start and ' +
    'the end make it fill in the middle. The causal model writes one word at a time, left to right.',
  mount(card, ctx) {
    const model = field('model', { kind: 'select', value: STORY_MODELS[0].slot, options: STORY_MODELS.map((m) => [m.slot, m.name]) });
    const sampler = field('sampler', { kind: 'select', value: '', options: [['', 'the model\'s own'], ['undiffuse', 'undiffuse'], ['greedy', 'undiffuse, most confident first'], ['left-to-right', 'left to right']] });
    const prompt = field('starts with', { kind: 'text', value: '' });
    const suffix = field('ends with (diffusion only)', { kind: 'text', value: '' });
    const nums = {
      length: field('tokens', { value: 32, min: 2, max: 64 }), count: field('stories', { value: 5, min: 1, max: 20 }),
      steps: field('steps T (0 = tokens)', { value: 0, min: 0, max: 1000 }), temperature: field('temperature', { value: 1, min: 0.05, step: 0.05 }),
      topK: field('top-k (0 = all)', { value: 0, min: 0, max: 2002 }), seed: field('seed', { value: 0, min: 0 }),
    };
    const result = el('div', { class: 'stories', 'aria-live': 'polite' });
    const write = () => card.busy(async () => {
      card.node.dataset.written = 'writing';
      const temperature = Number(nums.temperature.input.value);
      if (!(temperature > 0)) throw new Error('temperature must be a number above 0');
      const options = {
        prompt: prompt.input.value.trim(), suffix: suffix.input.value.trim(), temperature,
        length: intOf(nums.length.input, 'tokens', 2, 64), count: intOf(nums.count.input, 'stories', 1, 20),
        steps: intOf(nums.steps.input, 'steps', 0, 1000) || undefined, topK: intOf(nums.topK.input, 'top-k', 0, 2002),
        seed: intOf(nums.seed.input, 'seed', 0, 2 ** 31),
      };
      if (sampler.input.value) options.sampler = sampler.input.value;
      const slot = model.input.value;
      const info = ctx.models.get(slot);
      if (!info || info.state === 'empty') throw new Error(`the ${STORY_MODELS.find((m) => m.slot === slot).name} model is not trained yet (train it above, or upload a checkpoint)`);
      const fixed = options.prompt ? (await ctx.client.call(slot, 'encode', options.prompt)).length : 0;
      const written = await ctx.client.call(slot, 'write', options);
      result.replaceChildren(el('p', { class: 'story-meta' }, `${written.sampler}, model at step ${info.stepsDone ?? '?'}:`));
      await animate(result, written.stories, fixed);
      card.node.dataset.written = 'done';
    }, 'Writing…');
    const presets = PRESETS.map(([label, p]) => button(label, () => {
      prompt.input.value = p.prompt;
      suffix.input.value = p.suffix;
      nums.count.input.value = String(p.count);
      write();
    }));
    card.controls.append(model.wrap, sampler.wrap, prompt.wrap, suffix.wrap, ...Object.values(nums).map((f) => f.wrap));
    card.output.append(el('div', { class: 'buttons' }, button('Write', write, { class: 'primary' }), ...presets), result);
  },
};
