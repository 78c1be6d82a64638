// The worker's models and runs by slot name, and the turns each run's device work takes. A slot is
// {handle: Model | Run, isRun, control: 'run' | 'pause' | 'stop' | null, view: a CPU copy of a WebGPU run |
// null, viewStep: the step it was read at, turn: the run's last device work (inTurn), timeline: [{step,
// weights}] (timeline.js), past: a CPU model holding a snapshot's weights | null, pastStep}.

export const slots = new Map();

export function slotOf(name) {
  const slot = slots.get(name);
  if (!slot) throw new Error(`no model in ${name} yet: train or load one first`);
  return slot;
}

export const newSlot = (handle, isRun) => ({
  handle, isRun, control: null, view: null, viewStep: -1, turn: Promise.resolve(), timeline: [], past: null, pastStep: -1,
});

export function release(s) {
  s.control = 'stop';
  s.handle.delete();
  dropView(s);
}

export function dropView(s) {
  for (const m of [s.view, s.past]) if (m) m.delete();
  s.view = s.past = null;
}

// A run's device work takes turns: each chunk of steps and each read of the run (a save, a view, its
// weights copied) starts when the one before has ended. On WebGPU a chunk is in flight across awaits, and
// the core refuses to read a run with a chunk pending; a read between two chunks sees one step's state. A
// request's wait for its turn takes no time from training: it is told to onTurnWait (the worker takes it out
// of the live views' share of its time again).
let waited = () => {};
export const onTurnWait = (tell) => (waited = tell);

export function inTurn(s, work, { training = false } = {}) {
  const asked = performance.now();
  const done = s.turn.then(() => {
    if (!training) waited((performance.now() - asked) / 1000);
    return work();
  });
  s.turn = done.catch(() => {});
  return done;
}

// The same in the turns of several slots (each once), taken one after the other.
export function inTurns([first, ...rest], work) {
  return first ? inTurn(first, () => inTurns(rest.filter((s) => s !== first), work)) : work();
}

// What the views read: the slot's own handle, or for a run on WebGPU a CPU copy (a Run, so evaluate and
// validationLoss work) read from the device when the run has trained since; load(bytes, task) makes the
// copy from the run's checkpoint.
export async function viewOf(s, load) {
  if (s.handle.device !== 'webgpu') return s.handle;
  return inTurn(s, () => refreshView(s, load));
}

async function refreshView(s, load) {
  const step = s.handle.stepsDone;
  if (s.view && s.viewStep === step) return s.view;
  if (s.view) {
    await s.handle.snapshotTo(s.view);
  } else {
    const bytes = await s.handle.readCheckpoint();
    s.view = load(bytes, s.handle.task);
  }
  s.viewStep = step;
  return s.view;
}
