// How E1's timeline thins, shared by the worker's memory (worker/timeline.js) and the saved runs' storage
// (widgets/timeline-saves.js), so both drop the same snapshots: never the first or the last, and where the
// steps lie closest together (the oldest first: early snapshots are the densest). One budget holds a run's
// timeline in the worker's memory and a saved run's in the browser's storage, so a reload brings back what
// was shown.

export const TIMELINE_MAX = 40;                  // snapshots per run at most
export const TIMELINE_BYTES = 64 * 1024 * 1024;  // their weights' bytes per run at most (64 MiB)

// Drops entries of `timeline` ([{step, ...}] by step) until at most `most` remain.
export function thin(timeline, most) {
  while (timeline.length > most) {
    let drop = 1;
    for (let i = 2; i < timeline.length - 1; i++) {
      if (timeline[i + 1].step - timeline[i - 1].step < timeline[drop + 1].step - timeline[drop - 1].step) drop = i;
    }
    timeline.splice(drop, 1);
  }
  return timeline;
}

// How many snapshots of `snapshotBytes` each a budget of `bytes` holds (two at least: the first and the last).
export const snapshotsWithin = (bytes, snapshotBytes, most = Infinity) =>
  Math.max(2, Math.min(most, Math.floor(bytes / Math.max(1, snapshotBytes))));
