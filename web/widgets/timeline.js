// E1, the training timeline on the page: the worker keeps a run's weights at steps that thin with time (worker.js
// keepSnapshot); a scrubber under each training panel picks one of those steps, or the model now, shows the
// picked step beside the model now or alone, and Play walks through the steps. The views that look inside a
// model read the picked step's model (Msg.CALL with `at`, through timeline-sides.js) and redraw when the
// pick changes; Play waits for their redraws, so every step is drawn once.
import { Msg } from '../shared/protocol.js';
import { el, button, field } from './ui.js';
import { readSetting, writeSetting } from '../page/url-state.js';

const PLAY_MS = 700;  // one snapshot shown at least this long while playing
const MODES = [['beside', 'beside now'], ['alone', 'alone']];
const KEPT = 64;      // past results remembered (timeline-sides.js): a snapshot's results never change

// Which step each slot shows (a step of its timeline, or null for the model now) and how: beside the model
// now or alone. A past step's results are remembered by what was read (`remember`) while the slot's run
// trains on; anything else (a new run, an upload, a restore, the end of training) forgets them, since the
// slot may then hold another run with the same steps.
export class Timeline {
  constructor(models) {
    this.picked = new Map();
    this.modes = new Map();
    this.listeners = [];  // [slot, listener(step) -> promise]
    this.past = new Map();
    models?.addEventListener('change', ({ detail: { slot, info } }) => info.state !== 'training' && this.forget(slot));
    models?.addEventListener('worker-restart', () => this.past.clear());
  }

  at(slot) {
    return this.picked.get(slot) ?? null;
  }

  mode(slot) {
    return this.modes.get(slot) ?? (readSetting(`tl.${slot}`) === 'alone' ? 'alone' : 'beside');
  }

  // The steps to show for `slot`: the model now alone, or the picked step and, beside it, now.
  shown(slot) {
    const at = this.at(slot);
    return at === null ? [null] : this.mode(slot) === 'alone' ? [at] : [at, null];
  }

  // Resolves when every view following `slot` has redrawn.
  pick(slot, step) {
    if (this.at(slot) === step) return Promise.resolve();
    this.picked.set(slot, step);
    return this.changed(slot);
  }

  setMode(slot, mode) {
    this.modes.set(slot, mode);
    writeSetting(`tl.${slot}`, mode, 'beside');
    return this.at(slot) === null ? Promise.resolve() : this.changed(slot);
  }

  changed(slot) {
    const step = this.at(slot);
    return Promise.allSettled(this.listeners.filter(([s]) => s === slot).map(([, listener]) => listener(step)));
  }

  // Calls listener(step) when the step shown for `slot`, or how it is shown, changes.
  onPick(slot, listener) {
    this.listeners.push([slot, listener]);
  }

  // read()'s promise for `slot` at past step `at`, made once per `key` (what is read, with its inputs).
  remember(slot, at, key, read) {
    const id = JSON.stringify([slot, at, key]);
    if (!this.past.has(id)) {
      this.past.set(id, read().catch((error) => (this.past.delete(id), Promise.reject(error))));
      if (this.past.size > KEPT) this.past.delete(this.past.keys().next().value);
    }
    return this.past.get(id);
  }

  forget(slot) {
    for (const id of this.past.keys()) if (JSON.parse(id)[0] === slot) this.past.delete(id);
  }
}

// `method` of the model in `slot` at timeline step `at` (null: now).
export const callAt = (ctx, slot, at, method, ...args) => ctx.client.request(Msg.CALL, { slot, method, args, at });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The scrubber of one slot: a slider over its timeline's steps and one more place for "now", beside/alone, Play.
export function timelineScrubber(ctx, slot, name) {
  let steps = [];
  const slider = el('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, 'aria-label': `${name}: timeline step` });
  const label = el('span', { class: 'timeline-step' }, 'now');
  const mode = field('show', { kind: 'select', value: ctx.timeline.mode(slot), options: MODES });
  mode.input.addEventListener('change', () => ctx.timeline.setMode(slot, mode.input.value));
  const node = el('div', { class: 'timeline', dataset: { slot } }, el('span', {}, 'timeline '), slider, ' ', label);
  let playing = false;
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
  // Every step in turn, then now; each shown until its views have redrawn, and at least PLAY_MS.
  const play = button('Play', async () => {
    if (playing) return (playing = false);
    playing = true;
    play.textContent = 'Stop playing';
    node.dataset.playing = '1';
    for (let i = 0; playing && i <= steps.length; i++) await Promise.all([pickIndex(i), sleep(PLAY_MS)]);
    playing = false;
    play.textContent = 'Play';
    delete node.dataset.playing;
  });
  node.append(' ', play, ' ', mode.wrap);
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
