// Live views: while a model trains, the views that look inside it refresh by themselves every few
// seconds (the learner picks the cadence, or off; kept in the URL as ?live=). The worker answers a refresh
// between two training chunks, so its time there is time not spent training: the next round waits the
// cadence, and at least 1/SHARE times what the last round took from request to answer (an upper bound on
// the worker's share, as it includes waiting for the chunk to end), so a big model is watched less often.
import { readSetting, writeSetting } from './url-state.js';
import { field } from './ui.js';

export const LIVE_CHOICES = [[0, 'off'], [1, 'every 1 s'], [2, 'every 2 s'], [5, 'every 5 s'], [10, 'every 10 s']];
const DEFAULT_SECONDS = 2;
const SHARE = 0.1;  // the most of the wall time a round of refreshes may take, answer waits included

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

  // refresh(slot) redraws the view from the model in `slot`; it is called only while that slot trains.
  watch(slots, refresh) {
    this.watchers.push({ slots: new Set(slots), refresh });
  }

  changed(slot, info) {
    if (info.state !== 'training' || this.seconds === 0 || this.running.has(slot)) return;
    if (!this.watchers.some((w) => w.slots.has(slot))) return;
    this.loop(slot);
  }

  async loop(slot) {
    this.running.add(slot);
    try {
      let took = 0;
      for (;;) {
        await sleep(Math.max(this.seconds * 1000, took / SHARE));
        if (this.seconds === 0 || this.models.get(slot)?.state !== 'training') return;
        const start = performance.now();
        for (const w of this.watchers) {
          if (w.slots.has(slot)) await w.refresh(slot).catch(() => {});  // a failed refresh: the next round tries again
        }
        took = performance.now() - start;
      }
    } finally {
      this.running.delete(slot);
    }
  }
}
