// Live views: while a model trains, the views that look inside it refresh by themselves every few
// seconds (the learner picks the cadence, or off; kept in the URL as ?live=). The worker answers a refresh
// between two training chunks, so its time there is time not spent training. It reports how long it has
// spent on requests other than training and on the timeline's snapshots; the next round waits the cadence
// and, when needed, longer, so that since the run started those never took more than SHARE of the time: a
// big model is watched less often instead of trained more slowly. Each view registers what to redraw.
import { readSetting, writeSetting } from './url-state.js';
import { field } from '../widgets/ui.js';

export const LIVE_CHOICES = [[0, 'off'], [1, 'every 1 s'], [2, 'every 2 s'], [5, 'every 5 s'], [10, 'every 10 s']];
const DEFAULT_SECONDS = 2;
const SHARE = 0.04;  // the most of the worker's time, since a run started, that other requests may take

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class LiveViews {
  constructor(models) {
    this.models = models;
    const stored = readSetting('live');
    this.seconds = stored !== null && LIVE_CHOICES.some(([s]) => s === Number(stored)) ? Number(stored) : DEFAULT_SECONDS;
    this.watchers = [];   // {slots: Set, refresh}
    this.running = new Set();  // slots with a refresh loop
    models.addEventListener('change', (event) => this.changed(event.detail.slot, event.detail.info));
  }

  // The cadence picker (one for the whole page).
  control() {
    const { wrap, input } = field('live views while training', { kind: 'select', value: this.seconds, options: LIVE_CHOICES, name: 'live' });
    input.addEventListener('change', () => this.setSeconds(Number(input.value)));
    this.select = input;
    return wrap;
  }

  setSeconds(seconds) {
    this.seconds = seconds;
    if (this.select) this.select.value = String(seconds);
    writeSetting('live', seconds, DEFAULT_SECONDS);
    for (const [slot, info] of this.models.map) this.changed(slot, info);
  }

  // refresh(slot) redraws the view from the model in `slot`; it is called only while that slot trains, in
  // one round of `every` (a view that costs the worker several times the others' time: E3's patching).
  watch(slots, refresh, { every = 1 } = {}) {
    this.watchers.push({ slots: new Set(slots), refresh, every });
  }

  changed(slot, info) {
    if (info.state !== 'training' || this.seconds === 0 || this.running.has(slot)) return;
    if (!this.watchers.some((w) => w.slots.has(slot))) return;
    this.loop(slot);
  }

  async loop(slot) {
    this.running.add(slot);
    const busy = () => this.models.get(slot)?.workerOtherSeconds ?? 0;
    let since = null;  // {time, busy} at the first round, when the run's progress reports have begun
    let round = 0;
    try {
      for (;;) {
        const owed = since ? (busy() - since.busy) / SHARE - (performance.now() - since.time) / 1000 : 0;
        await sleep(1000 * Math.max(this.seconds, owed));
        if (this.seconds === 0 || this.models.get(slot)?.state !== 'training') return;
        since ??= { time: performance.now(), busy: busy() };
        for (const w of this.watchers) {
          if (w.slots.has(slot) && round % w.every === 0) await w.refresh(slot).catch(() => {});  // a failed refresh: the next round tries again
        }
        round += 1;
      }
    } finally {
      this.running.delete(slot);
    }
  }
}
