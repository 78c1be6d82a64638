// E1, the training timeline in the worker: a run's weights kept in memory at steps that thin with time (every
// 50 steps up to 1000, every 100 up to 5000, then every 500), at most TIMELINE_MAX snapshots and
// TIMELINE_BYTES per run; past either, the snapshot whose neighbours lie closest together goes (the oldest
// first: early snapshots are the densest). The views read a snapshot through a CPU model of the run that
// takes its weights (pastOf). A saved run's timeline is also kept by the page (widgets/timeline-saves.js),
// and a checkpoint file may carry one (setTimeline).
import { inTurn, viewOf } from './run-slots.js';
import { tf } from './wasm-module.js';
import { thin, snapshotsWithin, TIMELINE_BYTES, TIMELINE_MAX } from '../shared/timeline-thinning.js';

const markEvery = (step) => (step < 1000 ? 50 : step < 5000 ? 100 : 500);

// The step after `step` at which the timeline keeps the run (a training chunk ends there).
export const nextMark = (step) => (Math.floor(step / markEvery(step)) + 1) * markEvery(step);

export const timelineSteps = (s) => s.timeline.map((k) => k.step);

// The run's weights now join its timeline (read in its turn: on WebGPU between two chunks).
export async function keepSnapshot(s) {
  const step = s.handle.stepsDone;
  const weights = await inTurn(s, () => s.handle.readWeights(), { training: true });
  fit(s, s.timeline.filter((k) => k.step !== step).concat({ step, weights }));
}

// The bytes of one snapshot's weights.
export const snapshotBytes = (weights) => weights.reduce((sum, w) => sum + w.data.byteLength, 0);

// `timeline` ([{step, weights}]) becomes the slot's, by step and thinned to the memory's limits.
function fit(s, timeline) {
  timeline.sort((a, b) => a.step - b.step);
  s.timeline = timeline.length ? thin(timeline, snapshotsWithin(TIMELINE_BYTES, snapshotBytes(timeline[0].weights), TIMELINE_MAX)) : [];
  s.pastStep = -1;  // the past model may hold a snapshot that is gone
}

// A timeline that comes with the run (a checkpoint file's, a saved run's), checked by the model itself: a
// snapshot of other names or shapes is refused and nothing changes.
export async function setTimeline(s, timeline, loadModel, loadView) {
  for (const k of timeline) {
    if (!(k.step <= (s.isRun ? s.handle.stepsDone : Infinity))) throw new Error(`a snapshot at step ${k.step} is past the run's ${s.handle.stepsDone} steps`);
  }
  s.pastStep = -1;
  const past = await pastModel(s, loadModel, loadView);
  for (const k of timeline) past.setWeights(k.weights);
  fit(s, [...timeline]);
  return timelineSteps(s);
}

// The slot's checkpoint {bytes, step, readMs} (step: null for a model; readMs: the time it took, not the
// wait for its turn), carrying its timeline when `timeline` is set.
export function checkpointOf(s, timeline) {
  return inTurn(s, async () => {
    const began = performance.now();
    const bytes = await s.handle.readCheckpoint();
    const file = timeline ? tf.withTimeline(bytes, s.timeline) : bytes;
    return { bytes: file, step: s.isRun ? s.handle.stepsDone : null, readMs: performance.now() - began };
  });
}

// The slot's snapshot at `step`, which its timeline must have.
function snapshotOf(s, step) {
  const snapshot = s.timeline.find((k) => k.step === step);
  if (!snapshot) throw new Error(`the timeline has no step ${step}: it keeps ${timelineSteps(s).join(', ') || 'none yet'}`);
  return snapshot;
}

// A copy of the snapshot at `step` (the slot keeps its own: the copy may be moved to the page).
export function snapshotAt(s, step) {
  const snapshot = snapshotOf(s, step);
  return snapshot.weights.map((w) => ({ ...w, data: w.data.slice() }));
}

// A CPU model with the weights the run had at `step` (a step of its timeline), made once per slot by
// loadModel(bytes) from the run's checkpoint.
export async function pastOf(s, step, loadModel, loadView) {
  const snapshot = snapshotOf(s, step);
  if (s.pastStep === step && s.past) return s.past;
  const past = await pastModel(s, loadModel, loadView);
  past.setWeights(snapshot.weights);
  s.pastStep = step;
  return past;
}

async function pastModel(s, loadModel, loadView) {
  s.past ||= loadModel((await viewOf(s, loadView)).checkpoint());
  return s.past;
}
