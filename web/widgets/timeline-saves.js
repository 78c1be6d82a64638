// E1's timeline kept with a saved run: its snapshots in IndexedDB ('snapshots', key [slot, run, step]; run is
// the save's own id, so a new run in the panel never takes an old run's snapshot of the same step). Each
// snapshot is written once and deleted when the timeline thins it: the autosave every 2 s writes only what
// is new. A saved run's timeline keeps to the memory's budget (TIMELINE_BYTES, TIMELINE_MAX), thinned as the
// worker thins its memory (shared/timeline-thinning.js: the first and last stay, the densest stretch goes). When storage refuses (a
// full quota) the timeline goes, never the run: the run is saved first, and made room for by dropping
// every saved timeline.
import { Msg } from '../shared/protocol.js';
import { thin, snapshotsWithin, TIMELINE_BYTES, TIMELINE_MAX } from '../shared/timeline-thinning.js';
import { isQuotaError } from '../page/store.js';

// The steps of `steps` a saved run keeps, with snapshots of `snapshotBytes` each, within `budget`.
const stepsToSave = (steps, snapshotBytes, budget = TIMELINE_BYTES) =>
  thin(steps.map((step) => ({ step })), snapshotsWithin(budget, snapshotBytes, TIMELINE_MAX)).map((k) => k.step);

export class TimelineSaves {
  // store: page/store.js's (a test's with the same calls); request: the worker's (LabClient.request).
  constructor(slot, { store, request, budget = TIMELINE_BYTES }) {
    Object.assign(this, { slot, store, request, budget });
  }

  // Brings the stored snapshots in line with the worker's timeline (`steps`) of run `run`: the thinned ones and
  // any other run's are deleted first, then the new ones written (a step once thinned never comes back). Returns the steps stored. A refused write
  // drops the run's stored timeline and throws; a step the worker thinned meanwhile waits for the next call.
  async sync(run, steps, snapshotBytes) {
    const stored = await this.store.keysFrom('snapshots', [this.slot]);
    const mine = stored.filter((key) => key[1] === run).map((key) => key[2]);
    const newest = Math.max(-1, ...mine);  // thinned as the memory is: what is stored, and what came since
    const keep = stepsToSave(steps.filter((s) => mine.includes(s) || s > newest), snapshotBytes, this.budget);
    for (const key of stored) if (key[1] !== run || !keep.includes(key[2])) await this.store.delete('snapshots', key);
    const have = new Set(mine);
    for (const step of keep.filter((s) => !have.has(s))) {
      const weights = await this.request(Msg.SNAPSHOT, { slot: this.slot, step }).catch(() => null);
      if (!weights) continue;
      try {
        await this.store.put('snapshots', [this.slot, run, step], { step, weights });
      } catch (error) {
        await this.forget(run).catch(() => {});
        throw error;
      }
      have.add(step);
    }
    return keep.filter((s) => have.has(s));
  }

  // The saved timeline of run `run` back in the worker: the steps it keeps, or null when none was saved.
  async restore(run) {
    const snapshots = await this.store.valuesFrom('snapshots', [this.slot, run]);
    return snapshots.length ? this.request(Msg.SET_TIMELINE, { slot: this.slot, snapshots }) : null;
  }

  // Deletes the stored snapshots of run `run`, or of every run of this slot.
  forget(run) {
    return this.store.deleteFrom('snapshots', run === undefined ? [this.slot] : [this.slot, run]);
  }

  // Runs `put` (a run's save); when storage refuses it and saved timelines take room, they all go and it
  // runs again. Returns true when timelines went.
  async roomFor(put) {
    try {
      await put();
      return false;
    } catch (error) {
      if (!isQuotaError(error) || (await this.store.keysFrom('snapshots', [])).length === 0) throw error;
      await this.store.deleteFrom('snapshots', []);  // every array key starts with []
      await put();
      return true;
    }
  }
}
