// C2, C3, C7, C8: writing with a trained story model. Undiffusing is shown as an animation of the reveal
// order (which position was filled at which step); infilling keeps a prefix and a suffix fixed; the causal
// model writes left to right with a temperature. Each story says how many network calls it took; top-k
// shows only where the sampler uses it (left to right); the inputs live in the URL; while the chosen model
// trains, a one-story sample refreshes by itself with the step it came from (live views), beside (or
// instead of) one written by the model at the step its timeline picks.
import { urlField } from '../page/url-state.js';
import { el, button, intOf } from '../widgets/ui.js';
import { STORY_MODELS } from '../page/model-slots.js';
import { followTimeline, readSides, sidesFigure, sidesText } from '../widgets/timeline-sides.js';

const PRESETS = [
  ['C2: five stories', { prompt: '', suffix: '', count: 5 }],
  ['C3: fill in the middle', { prompt: 'one day , lily went to the park .', suffix: 'and they were all happy .', count: 3 }],
  ['C7: once upon a time', { prompt: 'once upon a time', suffix: '', count: 5 }],
];
const FIXED_END = 'Fill in the middle needs an undiffusing sampler: writing left to right cannot keep a fixed ending. ' +
  'Choose the diffusion model, or an undiffuse sampler.';

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
      `${story.networkCalls} network call${story.networkCalls === 1 ? '' : 's'} for ${story.tokens.length} tokens`)));
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

const SAMPLERS = [['', 'the model\'s own'], ['undiffuse', 'undiffuse'], ['greedy', 'undiffuse, most confident first'], ['left-to-right', 'left to right']];
const LIVE_STEPS = 8;  // undiffusing steps of the live sample: a few network calls between training chunks

export default {
  id: 'C2, C3, C7, C8',
  key: 'C-write',
  title: 'Write stories',
  text: 'Undiffusing starts from all masks and fills a few positions each step; fixed words at the start and ' +
    'the end make it fill in the middle. The causal model writes one word at a time, left to right.',
  mount(card, ctx) {
    const model = urlField('c2.model', 'model', STORY_MODELS[0].slot, { kind: 'select', options: STORY_MODELS.map((m) => [m.slot, m.name]) });
    const sampler = urlField('c2.sampler', 'sampler', '', { kind: 'select', options: SAMPLERS });
    const prompt = urlField('c2.prompt', 'starts with', '');
    const suffix = urlField('c2.suffix', 'ends with (diffusion only)', '');
    const nums = {
      length: urlField('c2.length', 'tokens', 32, { kind: 'number', min: 2, max: 64 }),
      count: urlField('c2.count', 'stories', 5, { kind: 'number', min: 1, max: 20 }),
      steps: urlField('c2.steps', 'steps T (0 = tokens)', 0, { kind: 'number', min: 0, max: 1000 }),
      temperature: urlField('c2.temperature', 'temperature', 1, { kind: 'number', min: 0.05, step: 0.05 }),
      topK: urlField('c2.topk', 'top-k (0 = all)', 0, { kind: 'number', min: 0, max: 2002 }),
      seed: urlField('c2.seed', 'seed', 0, { kind: 'number', min: 0 }),
    };
    const result = el('div', { class: 'stories', 'aria-live': 'polite' });
    const sample = el('div', { class: 'live-sample', 'aria-live': 'off' });
    const modelInfo = () => {
      const slot = model.input.value;
      const info = ctx.models.get(slot);
      if (!info || info.state === 'empty') throw new Error(`the ${STORY_MODELS.find((m) => m.slot === slot).name} model is not trained yet (train it above, or upload a checkpoint)`);
      return info;
    };
    // The sampler the worker will use, the length limit of the model, top-k only where it counts.
    const fit = () => {
      const info = ctx.models.get(model.input.value);
      const causal = Boolean(info && info.config && info.config.causal);
      const used = sampler.input.value || (causal ? 'left-to-right' : 'undiffuse');
      nums.topK.wrap.hidden = used !== 'left-to-right';
      suffix.wrap.hidden = used === 'left-to-right';
      // A preset with a fixed ending is not offered to a sampler that would drop it; the card says why.
      presets.forEach((b, i) => (b.disabled = used === 'left-to-right' && Boolean(PRESETS[i][1].suffix)));
      presetNote.hidden = used !== 'left-to-right';
      if (info && info.config) nums.length.input.max = String(info.config.maxLength);
    };
    const options = () => {
      const temperature = Number(nums.temperature.input.value);
      if (!(temperature > 0)) throw new Error('temperature must be a number above 0');
      const maxLength = Number(nums.length.input.max);
      const o = {
        prompt: prompt.input.value.trim(), suffix: suffix.wrap.hidden ? '' : suffix.input.value.trim(), temperature,
        length: intOf(nums.length.input, `tokens (this model reads at most ${maxLength})`, 2, maxLength),
        count: intOf(nums.count.input, 'stories', 1, 20), steps: intOf(nums.steps.input, 'steps', 0, 1000) || undefined,
        topK: nums.topK.wrap.hidden ? 0 : intOf(nums.topK.input, 'top-k', 0, 2002), seed: intOf(nums.seed.input, 'seed', 0, 2 ** 31),
      };
      if (sampler.input.value) o.sampler = sampler.input.value;
      return o;
    };
    const write = () => card.busy(async () => {
      card.node.dataset.written = 'writing';
      try {
        fit();
        const o = options();
        const slot = model.input.value;
        const info = modelInfo();
        const fixed = o.prompt ? (await ctx.client.call(slot, 'encode', o.prompt)).length : 0;
        const written = await ctx.client.call(slot, 'write', o);
        const calls = written.stories.reduce((n, st) => n + st.networkCalls, 0);
        result.replaceChildren(el('p', { class: 'story-meta' }, `${written.sampler}, model at step ${info.stepsDone ?? '?'} ` +
          `(${info.parameters.toLocaleString('en')} parameters), ` +
          `${calls} network calls for ${written.stories.length} stor${written.stories.length === 1 ? 'y' : 'ies'}:`));
        await animate(result, written.stories, fixed);
        card.node.dataset.written = 'done';
      } catch (error) {
        result.replaceChildren();  // no story from an older request may stand beside the error
        card.node.dataset.written = 'failed';
        throw error;
      }
    }, 'Writing…');
    // One story (the seed field's, so the steps compare) from the model now and, beside it or alone, from
    // the step its timeline picks: by itself while the model trains and whenever the pick changes.
    const liveSample = async (slot) => {
      if (slot !== model.input.value) return;
      const o = { ...options(), count: 1 };
      if (!o.steps) o.steps = Math.min(LIVE_STEPS, o.length);
      const sides = await readSides(ctx, slot, ['C-sample', o], (call) => call('write', o));
      const { sampler, stories: [story] } = sides[0].result;
      sample.dataset.step = String(sides[0].step);
      sample.replaceChildren(el('p', { class: 'story-meta' }, `Live sample at ${sidesText(sides)} (${sampler}, ${story.networkCalls} network calls):`),
        sidesFigure(sides, (w) => el('p', { class: 'sample-story', dataset: { text: w.stories[0].text } }, w.stories[0].text)));
    };
    const presetNote = el('p', { class: 'notice preset-note' }, FIXED_END);
    const presets = PRESETS.map(([label, p]) => button(label, () => {
      prompt.input.value = p.prompt;
      suffix.input.value = p.suffix;
      nums.count.input.value = String(p.count);
      for (const input of [prompt.input, suffix.input, nums.count.input]) input.dispatchEvent(new Event('change'));
      write();
    }));
    model.input.addEventListener('change', fit);
    sampler.input.addEventListener('change', fit);
    ctx.models.addEventListener('change', (event) => event.detail.slot === model.input.value && fit());
    fit();
    card.controls.append(model.wrap, sampler.wrap, prompt.wrap, suffix.wrap, ...Object.values(nums).map((f) => f.wrap));
    card.output.append(el('div', { class: 'buttons' }, button('Write', write, { class: 'primary' }), ...presets), presetNote, sample, result);
    ctx.live.watch(STORY_MODELS.map((m) => m.slot), liveSample);
    followTimeline(ctx, STORY_MODELS.map((m) => m.slot), (slot) => card.busy(() => liveSample(slot), 'Writing…'));
  },
};
