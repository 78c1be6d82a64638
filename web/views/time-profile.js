// Where the time goes: the kernel stems of the model training now (or trained last), as milliseconds per
// step with their forward and backward parts, and the step's phases. The worker profiles its training
// chunks only; this view asks for the profile and redraws while the run trains, and keeps the last one
// for the next visit (a reload starts a worker with no profile).
import { Msg } from '../shared/protocol.js';
import { store } from '../page/store.js';
import { el, button, facts, barChart, fmt } from '../widgets/ui.js';
import { TOY_RUNS, STORY_MODELS, SORTER } from '../page/model-slots.js';

const RUN_SLOTS = [...TOY_RUNS.map((r) => r.slot), ...STORY_MODELS.map((m) => m.slot), SORTER];
const TOP_STEMS = 12;

const ms = (v) => `${fmt(v, 3)} ms`;

// On WebGPU with timestamp-query the bars are GPU time (the forward and backward parts stay enqueue times).
function stemChart(profile, perStep) {
  const stepMs = profile.stepMs / perStep;
  const gpu = profile.gpuTimed;
  const stems = gpu ? [...profile.stems].sort((a, b) => b.gpuMs - a.gpuMs) : profile.stems;
  return barChart(stems.slice(0, TOP_STEMS).map((s) => ({
    label: s.stem,
    value: (gpu ? s.gpuMs : s.forwardMs + s.backwardMs + s.otherMs) / perStep,
    note: `${gpu ? 'enqueue: ' : ''}forward ${ms(s.forwardMs / perStep)} · backward ${ms(s.backwardMs / perStep)}`,
  })), { max: stepMs, format: ms, caption: gpu ? 'GPU time per step, by kernel stem (timestamp queries; bar: share of the step)' : 'Kernel time per step, by kernel stem (bar: share of the step)' });
}

function phaseChart(profile, perStep) {
  const phases = Object.entries(profile.phasesMs).map(([label, v]) => ({ label, value: v / perStep }));
  return barChart(phases, { max: profile.stepMs / perStep, format: ms, caption: 'The step, by phase' });
}

// The backends in the reader's words: on the page the CPU backend is WebAssembly (its SSE4.1 kernels are
// compiled to wasm SIMD128), which its native name "cpu-sse4.1" hides.
const backendWords = (names) => names.replace(/\bcpu-sse4\.1\b/g, 'WebAssembly SIMD (the CPU kernels, compiled to wasm)');

function render(output, { slot, profile, savedAt }) {
  const perStep = Math.max(profile.steps, 1);
  const kernelMs = profile.stems.reduce((sum, s) => sum + s.forwardMs + s.backwardMs + s.otherMs, 0);
  output.replaceChildren(el('div', { class: 'time-profile', dataset: { slot, steps: String(profile.steps) } },
    facts([
      ['model', savedAt ? `${slot}, as profiled on ${new Date(savedAt).toLocaleString('en')} (before this page was loaded)` : slot],
      ['steps profiled', profile.steps.toLocaleString('en')],
      ['time per step', ms(profile.stepMs / perStep)],
      ['in kernels', `${fmt((100 * kernelMs) / Math.max(profile.stepMs, 1e-9), 3)} %`],
      ['backend', backendWords(profile.backends)],
    ]),
    profile.gpuTimed ? el('p', {}, 'Kernel times are GPU times, from timestamp queries around each kernel (timed one at a time, so the profiled steps run slower than the others).')
      : profile.enqueueOnly ? el('p', {}, 'The device runs asynchronously and offers no timestamp queries: kernel times are the time to enqueue the work.') : null,
    stemChart(profile, perStep), phaseChart(profile, perStep)));
}

export default {
  id: 'C',
  key: 'C-time',
  title: 'Where the time goes',
  text: 'While a model trains, every kernel call is timed: which kernels cost the step, forward and backward, and ' +
    'how the step splits into drawing the batch, the forward pass, the backward pass and the optimizer. Train ' +
    'any model on this page and watch; change the width or the vocabulary and see the bars move.',
  mount(card, ctx) {
    // The worker's profile, kept for the next visit; after a reload (a new worker) the kept one is shown.
    const draw = () => card.busy(async () => {
      const reply = await ctx.client.request(Msg.PROFILE, {});
      if (reply && reply.profile.steps > 0) {
        render(card.output, reply);
        await store.put('meta', 'time-profile', { ...reply, savedAt: Date.now() }).catch(() => {});
        return;
      }
      const kept = await store.get('meta', 'time-profile').catch(() => null);
      if (kept) render(card.output, kept);
      else card.output.replaceChildren(el('p', {}, 'No model has trained yet: train one (here, in B or in D) and its profile appears here.'));
    }, 'Reading the profile…');
    card.controls.append(button('Refresh', draw));
    for (const slot of RUN_SLOTS) ctx.models.onReady(slot, draw);
    ctx.live.watch(RUN_SLOTS, draw);
    draw();
  },
};
