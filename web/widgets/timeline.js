// E1, the training timeline on the page: the worker keeps a run's weights at steps that thin with time (worker.js
// keepSnapshot); a scrubber under each training panel picks one of those steps, or the model now, and Play
// walks through them. The views that look inside a model ask the worker for the picked step's model
// (Msg.CALL with `at`) and redraw when the pick changes.
import { Msg } from '../shared/protocol.js';
import { el, button } from './ui.js';

const PLAY_MS = 700;  // one snapshot shown this long while playing

// Which step each slot shows: a step of its timeline, or null for the model now.
export class Timeline extends EventTarget {
  constructor() {
    super();
    this.picked = new Map();
  }

  at(slot) {
    return this.picked.get(slot) ?? null;
  }

  pick(slot, step) {
    if (this.at(slot) === step) return;
    this.picked.set(slot, step);
    this.dispatchEvent(new CustomEvent('change', { detail: { slot, step } }));
  }

  // Calls listener(step) when the step shown for `slot` changes.
  onPick(slot, listener) {
    this.addEventListener('change', (event) => event.detail.slot === slot && listener(event.detail.step));
  }
}

// `method` of the model in `slot` as the timeline shows it: {result, at: the snapshot's step or null}.
export async function callShown(ctx, slot, method, ...args) {
  const at = ctx.timeline.at(slot);
  return { result: await ctx.client.request(Msg.CALL, { slot, method, args, at }), at };
}

// The scrubber of one slot: a slider over its timeline's steps and one more place for "now", with Play.
export function timelineScrubber(ctx, slot, name) {
  let steps = [];
  const slider = el('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, 'aria-label': `${name}: timeline step` });
  const label = el('span', { class: 'timeline-step' }, 'now');
  const node = el('div', { class: 'timeline', dataset: { slot } }, el('span', {}, 'timeline '), slider, ' ', label);
  let playing = null;
  const show = () => {
    const at = ctx.timeline.at(slot);
    slider.max = String(steps.length);
    slider.value = String(at === null ? steps.length : steps.indexOf(at));
    label.textContent = at === null ? `now (snapshots at ${steps.length} steps)` : `step ${at}`;
    node.dataset.at = at === null ? '' : String(at);
    node.dataset.steps = steps.join(' ');
  };
  const pickIndex = (i) => ctx.timeline.pick(slot, i >= steps.length ? null : steps[i]);
  slider.addEventListener('input', () => pickIndex(Number(slider.value)));
  const play = button('Play', () => {
    if (playing) return stop();
    let i = 0;
    playing = setInterval(() => (i > steps.length ? stop() : pickIndex(i++)), PLAY_MS);
    play.textContent = 'Stop playing';
  });
  const stop = () => {
    clearInterval(playing);
    playing = null;
    play.textContent = 'Play';
  };
  node.append(' ', play);
  ctx.models.addEventListener('change', (event) => {
    if (event.detail.slot !== slot || !event.detail.info.timeline) return;
    steps = event.detail.info.timeline;
    if (!steps.includes(ctx.timeline.at(slot))) ctx.timeline.pick(slot, null);  // a new run: its own timeline
    show();
  });
  ctx.timeline.onPick(slot, show);
  show();
  return node;
}
