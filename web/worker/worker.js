// The lab's Web Worker: it alone owns the Tinyformer wasm module, its Models and Runs (kept by slot name),
// the story text and, on WebGPU, the GPUDevice (probed here, handed to the module's WebGPU build:
// wasm-module.js); it answers the page by the protocol in protocol.js. Training runs in chunks of steps sized to about half
// a second, yielding to the event loop between them so pause, stop and other requests (attention
// maps, writing) are answered while a run trains. A WebGPU failure (device lost, GPU memory, a shader) is
// told to the page (DEVICE_FAILED), which starts a wasm worker and resumes the runs from their checkpoints.
// The profiler runs during training chunks only (never while other requests are answered; one chunk in
// four), for the last slot that trained. A run on WebGPU trains with trainChunk (one asynchronous read per
// chunk); its views (CALL, embedding rows) use a CPU copy refreshed from the device when the run has moved
// on, and its checkpoints are read asynchronously (readCheckpoint). Those reads and the chunks take turns
// (inTurn, run-slots.js), so a save asked for while a chunk is in flight waits for it, then saves.
import { Msg, MODEL_METHODS, FIGURES, reply, failure, transferables } from '../shared/protocol.js';
import { Device } from '../shared/device-choice.js';
import { dropView, inTurn, inTurns, newSlot, onTurnWait, release, slotOf, slots, viewOf } from './run-slots.js';
import { device, deviceFailed, init, loseDevice, moduleInfo, needModule, probeFacts, tf } from './wasm-module.js';
import { isDeviceFailure } from './webgpu-device.js';
import { checkpointOf, keepSnapshot, nextMark, pastOf, setTimeline, snapshotAt, timelineSteps } from './timeline.js';

const CHUNK_SECONDS = 0.5;
const PROFILED_CHUNK_EVERY = 4;  // the profiler times one training chunk in this many (chunkSteps)

let corpus = null;             // {text, source}: what stories train on
let otherSeconds = 0;          // time spent answering requests other than TRAIN (they delay a training run)
let snapshotSeconds = 0;       // of which keeping the timeline's snapshots (they delay it too)
onTurnWait((seconds) => (otherSeconds -= seconds));  // waiting for a run's turn delays no training
let profiledSlot = null;       // the slot whose training the profile holds
let chunksTrained = 0;         // training chunks since profiledSlot changed (one in PROFILED_CHUNK_EVERY is profiled)

function describe(name) {
  const { handle, isRun } = slotOf(name);
  const params = handle.parameters();
  return {
    slot: name, isRun, config: handle.config, parameters: params.total, groups: params.groups,
    vocabularySize: handle.vocabulary.length, task: isRun ? handle.task : null,
    trainConfig: isRun ? handle.trainConfig : null, stepsDone: isRun ? handle.stepsDone : null,
    corpusSource: isRun && handle.task === 'stories' ? corpus && corpus.source : null, timeline: timelineSteps(slotOf(name)),
  };
}

function place(name, handle, isRun) {
  const old = slots.get(name);
  if (name === profiledSlot) profiledSlot = null;  // the profile was the old run's
  if (old) release(old);
  slots.set(name, newSlot(handle, isRun));
  return describe(name);
}

function storyText() {
  if (!corpus) throw new Error('no story text yet: fetch the corpus, or choose the built-in stories or a file');
  return { train: corpus.text };
}

// The CPU copy of a WebGPU run that its views read (run-slots.js viewOf).
const loadView = (bytes, task) => tf.loadRun(bytes, task === 'stories' ? storyText() : undefined, { device: 'cpu' });
const loadPast = (bytes) => tf.loadModel(bytes);  // a CPU model for the timeline's snapshots
const timelineOf = ({ slot, snapshots }) => setTimeline(slotOf(slot), snapshots, loadPast, loadView);

function createRun({ slot, config }) {
  const m = needModule();
  const run = m.createRun(config, config.task === 'stories' ? storyText() : undefined);
  return place(slot, run, true);
}

// A resumable file becomes a run, any other a model to view; the checkpoint says which, and its task.
// weightsOnly: load a run's file as a model (a story run before any story text is chosen). The file's
// timeline (if any) becomes the slot's.
async function loadRun({ slot, bytes, weightsOnly = false }) {
  const m = needModule();
  const info = m.inspectCheckpoint(bytes);
  if (!info.resumable || weightsOnly) place(slot, m.loadModel(bytes), false);
  else place(slot, m.loadRun(bytes, info.task === 'stories' ? storyText() : undefined), true);
  if (info.timeline.length) await timelineOf({ slot, snapshots: m.readTimeline(bytes) });
  return describe(slot);
}

// Course C10: a diffusion run started from a trained causal model's weights, attention switched to full.
// The run refuses weights whose vocabulary differs from its own (Session::load_weights checks). Weights on
// WebGPU are read asynchronously (snapshotTo).
async function loadWeights({ slot, from }) {
  const source = slotOf(from);
  const target = slotOf(slot);
  if (!target.isRun) throw new Error(`${slot} is not a training run`);
  if (source.handle.device === 'webgpu' || target.handle.device === 'webgpu') {
    await inTurns([source, target], () => source.handle.snapshotTo(target.handle));
  } else {
    target.handle.copyWeightsFrom(source.handle);
  }
  target.handle.setCausal(false);
  dropView(target);  // its attention changed, not only its weights
  return describe(slot);
}

const nextTick = () => new Promise((resolve) => setTimeout(resolve, 0));

// The run's weights join its timeline; the time counts with the requests' (otherSeconds): the live views'
// budget (page/live.js) holds the snapshots too.
async function snapshot(s) {
  const start = performance.now();
  await keepSnapshot(s);
  const seconds = (performance.now() - start) / 1000;
  otherSeconds += seconds;
  snapshotSeconds += seconds;
}

// Trains the slot's run until `until` steps are done (or it is paused or stopped), posting progress.
async function train({ slot, until }, id) {
  const s = slotOf(slot);
  if (!s.isRun) throw new Error(`${slot} holds a model without optimizer state: it cannot train`);
  for (const [other, o] of slots) {
    if (other !== slot && o.control === 'run') throw new Error(`${other} is training: pause or stop it first`);
  }
  s.control = 'run';
  if (profiledSlot !== slot) {
    tf.resetProfile();
    profiledSlot = slot;
    chunksTrained = 0;  // its first chunk is profiled, so the view shows the new run at once
  }
  let chunk = 1;
  try {
    if (s.timeline.length === 0) await snapshot(s);
    while (s.control === 'run' && s.handle.stepsDone < until) {
      if (device.lost) throw new Error(device.lost);
      const mark = nextMark(s.handle.stepsDone);  // a chunk ends at the timeline's next step
      const n = Math.min(chunk, until - s.handle.stepsDone, mark - s.handle.stepsDone);
      const result = await inTurn(s, () => chunkSteps(s.handle, n), { training: true });
      if (s.handle.stepsDone === mark) await snapshot(s);
      const progress = { ...result, threads: tf.threads(), memoryBytes: tf.memoryBytes(), otherSeconds, snapshotSeconds, timeline: timelineSteps(s) };
      self.postMessage(reply(Msg.PROGRESS, id, progress), transferables(result));
      chunk = Math.max(1, Math.min(500, Math.round(CHUNK_SECONDS / Math.max(result.seconds / n, 1e-6))));
      await nextTick();
    }
    if (s.handle.deleted) return { state: 'stopped', step: null };
    const state = s.control === 'run' ? 'finished' : s.control === 'pause' ? 'paused' : 'stopped';
    return { state, step: s.handle.stepsDone };
  } finally {
    if (slots.get(slot) === s) s.control = null;
  }
}

// n steps: on WebGPU one chunk read once (its per-step stats stay here), elsewhere train(n). The profiler
// times one chunk in PROFILED_CHUNK_EVERY: its shares and its milliseconds per step are the same as if it
// timed them all, and its clock reads (a call out to JavaScript each, 2-4 % of a 2-thread step in
// Chromium) are paid on a quarter of the steps.
async function chunkSteps(run, n) {
  const profiled = chunksTrained++ % PROFILED_CHUNK_EVERY === 0;
  if (profiled) tf.startProfile();
  try {
    if (run.device !== 'webgpu') return run.train(n);
    const { stats, ...totals } = await run.trainChunk(n);
    return totals;
  } finally {
    if (profiled) tf.stopProfile();
    if (profiled && run.device === 'webgpu') await tf.webgpuTimesSettled();  // the chunk's GPU kernel times
  }
}

function control({ slot }, value) {
  const s = slots.get(slot);
  const wasRunning = Boolean(s && s.control === 'run');
  if (wasRunning) s.control = value;
  return { [value === 'pause' ? 'paused' : 'stopped']: wasRunning };
}

// at: a step of the slot's timeline (the model as it was then), or null for the model now.
async function callMethod({ slot, method, args = [], at = null }) {
  if (!MODEL_METHODS.includes(method)) throw new Error(`${method} is not a model method the page may call`);
  const s = slotOf(slot);
  if (typeof s.handle[method] !== 'function') throw new Error(`${slot} has no ${method}`);
  const handle = at === null ? await viewOf(s, loadView) : await pastOf(s, at, loadPast, loadView);
  return handle[method](...args);
}

// Course A2: the token table's rows for a sentence (repeated words give repeated rows).
// table[x] for one input ([T, dim]) or a batch of inputs of one length ([B, T, dim]).
async function embeddingRows({ slot, input }) {
  const handle = await viewOf(slotOf(slot), loadView);
  const batch = Array.isArray(input);
  const ids = (batch ? input : [input]).map((x) => handle.encode(x));
  if (ids.some((x) => x.length !== ids[0].length)) throw new Error('every sentence of a batch must have the same number of tokens');
  const table = handle.parameter('embed.weight');
  const dim = table.shape[1];
  const rows = new Float32Array(ids.length * ids[0].length * dim);
  ids.flat().forEach((id, i) => rows.set(table.data.subarray(id * dim, (id + 1) * dim), i * dim));
  const shape = batch ? [ids.length, ids[0].length, dim] : [ids[0].length, dim];
  return { tokens: handle.decode(ids.flat()), ids: ids.flat(), rows: { data: rows, shape }, table: table.shape };
}

function setCorpus({ text, source }) {
  if (typeof text !== 'string' || text.length === 0) throw new Error('the story text is empty');
  corpus = { text, source };
  return { bytes: new TextEncoder().encode(text).length, source };
}

const handlers = {
  [Msg.PROBE]: probeFacts,
  [Msg.INIT]: init,
  [Msg.SET_THREADS]: ({ threads }) => (needModule().setThreads(threads), moduleInfo()),
  [Msg.FIGURE]: ({ name, options }) => {
    if (!FIGURES.includes(name)) throw new Error(`unknown figure ${name}`);
    return needModule()[name](options || {});
  },
  [Msg.ESTIMATE]: ({ layers, dim }) => needModule().blockParameterEstimate(layers, dim),
  [Msg.PARAMETER_REPORT]: ({ model }) => needModule().parameterReport(model),
  [Msg.DEFAULT_CONFIG]: ({ task, kind }) => needModule().defaultConfig(task, kind),
  [Msg.TRAIN_BOUNDS]: () => needModule().trainBounds(),
  [Msg.SET_CORPUS]: setCorpus,
  [Msg.BUILTIN_CORPUS]: ({ bytes }) => ({ text: needModule().builtinStories(1, bytes) }),
  [Msg.CREATE_RUN]: createRun,
  [Msg.LOAD_RUN]: loadRun,
  [Msg.LOAD_WEIGHTS]: loadWeights,
  [Msg.INSPECT]: ({ bytes }) => needModule().inspectCheckpoint(bytes),
  [Msg.DROP]: ({ slot }) => {
    const s = slots.get(slot);
    if (s) release(s);
    return { dropped: slots.delete(slot) };
  },
  [Msg.TRAIN]: train,
  [Msg.PAUSE]: (m) => control(m, 'pause'),
  [Msg.STOP]: (m) => control(m, 'stop'),
  [Msg.CHECKPOINT]: ({ slot, timeline = false }) => checkpointOf(slotOf(slot), timeline),
  [Msg.SNAPSHOT]: ({ slot, step }) => snapshotAt(slotOf(slot), step),
  [Msg.SET_TIMELINE]: timelineOf,
  [Msg.CALL]: callMethod,
  [Msg.EMBEDDING_ROWS]: embeddingRows,
  [Msg.GPU_COUNTS]: ({ reset = false }) => {
    const counts = needModule().webgpuCounts();
    if (reset) tf.resetWebgpuCounts();
    return counts;
  },
  [Msg.PROFILE]: () => (profiledSlot && slots.has(profiledSlot) ? { slot: profiledSlot, profile: needModule().profile() } : null),
  [Msg.PING]: () => ({}),
  [Msg.LOSE_DEVICE]: loseDevice,
};

self.onmessage = async (event) => {
  const { type, id, ...payload } = event.data;
  const handler = handlers[type];
  try {
    if (!handler) throw new Error(`unknown message type ${type}`);
    const start = performance.now();
    const result = await handler(payload, id);
    if (type !== Msg.TRAIN) otherSeconds += (performance.now() - start) / 1000;
    self.postMessage(reply(type, id, result), transferables(result));
  } catch (error) {
    if (device && device.device === Device.WEBGPU && isDeviceFailure(error)) deviceFailed(error.message);
    self.postMessage(failure(type, id, error));
  }
};
