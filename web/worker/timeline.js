// E1, the training timeline in the worker: a run's weights kept in memory at steps that thin with time (every
// 50 steps up to 1000, every 100 up to 5000, then every 500), at most TIMELINE_MAX snapshots and
// TIMELINE_BYTES per run; past either, the snapshot whose neighbours lie closest together goes (the oldest
// first: early snapshots are the densest). The views read a snapshot through a CPU model of the run that
// takes its weights (pastOf).
import { inTurn, viewOf } from './run-slots.js';

const TIMELINE_MAX = 40;
const TIMELINE_BYTES = 64 * 1024 * 1024;
const markEvery = (step) => (step < 1000 ? 50 : step < 5000 ? 100 : 500);

// The step after `step` at which the timeline keeps the run (a training chunk ends there).
export const nextMark = (step) => (Math.floor(step / markEvery(step)) + 1) * markEvery(step);

export const timelineSteps = (s) => s.timeline.map((k) => k.step);

// The run's weights now join its timeline (read in its turn: on WebGPU between two chunks).
export async function keepSnapshot(s) {
  const step = s.handle.stepsDone;
  const weights = await inTurn(s, () => s.handle.readWeights(), { training: true });
  s.timeline = s.timeline.filter((k) => k.step !== step).concat({ step, weights });
  const bytes = weights.reduce((sum, w) => sum + w.data.byteLength, 0);
  thin(s.timeline, Math.max(2, Math.min(TIMELINE_MAX, Math.floor(TIMELINE_BYTES / bytes))));
}

// Drops snapshots, never the first or the last, where the steps lie closest together (earliest first).
export function thin(timeline, most) {
  while (timeline.length > most) {
    let drop = 1;
    for (let i = 2; i < timeline.length - 1; i++) {
      if (timeline[i + 1].step - timeline[i - 1].step < timeline[drop + 1].step - timeline[drop - 1].step) drop = i;
    }
    timeline.splice(drop, 1);
  }
}

// A CPU model with the weights the run had at `step` (a step of its timeline), made once per slot by
// loadModel(bytes) from the run's checkpoint.
export async function pastOf(s, step, loadModel, loadView) {
  const snapshot = s.timeline.find((k) => k.step === step);
  if (!snapshot) throw new Error(`the timeline has no step ${step}: it keeps ${timelineSteps(s).join(', ') || 'none yet'}`);
  if (s.pastStep === step) return s.past;
  s.past ||= loadModel((await viewOf(s, loadView)).checkpoint());
  s.past.setWeights(snapshot.weights);
  s.pastStep = step;
  return s.past;
}
