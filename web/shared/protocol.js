// The lab's worker protocol: the page posts {type, id, ...payload}; the worker answers every request with
// exactly one reply {type, id, ok, result | error} and, for training, any number of progress messages
// {type: PROGRESS, id, result} before it. Models and runs live in the worker under a `slot` name chosen by
// the page ("toy-transformer", "stories-causal", ...), so wasm handles never cross the thread boundary.

export const Msg = Object.freeze({
  PROBE: 'probe',               // {} -> the facts auto chooses from (device-choice.js): {webgpu: {adapter,
                                //   device: boolean, why}, gpuBuild, gpuTraining, threads, builds}
  INIT: 'init',                 // {device?: Device (device-choice.js), timing?: device-race.js's, poolSize?}
                                //   -> module info, with the device chosen, why (another was not, or auto's
                                //   timing), the WebGPU adapter's name and whether it is software, and the
                                //   builds' states (web/wasm/builds.json)
  SET_THREADS: 'set-threads',   // {threads} -> module info
  FIGURE: 'figure',             // {name, options} -> {values, arrays}; name from FIGURES
  ESTIMATE: 'estimate',         // {layers, dim} -> 12 * layers * dim^2
  PARAMETER_REPORT: 'parameter-report', // {model} -> a model config's parameters by piece, unbuilt
  DEFAULT_CONFIG: 'default-config',  // {task, kind?} -> TrainConfig
  TRAIN_BOUNDS: 'train-bounds', // {} -> TrainBounds: the core's bounds of a TrainConfig's numbers
  SET_CORPUS: 'set-corpus',     // {text, source} -> {bytes, source}; the text stories train on
  BUILTIN_CORPUS: 'builtin-corpus',  // {bytes?} -> {text}; the embedded stories (seed 1)
  CREATE_RUN: 'create-run',     // {slot, config} -> run info; stories use the corpus set before
  LOAD_RUN: 'load-run',         // {slot, bytes, weightsOnly?} -> run info; a file without optimizer state
                                //   (or with weightsOnly) loads as a model; the file's timeline comes too
  LOAD_WEIGHTS: 'load-weights', // {slot, from} -> run info; slot's run takes from's weights, attention full (C10)
  INSPECT: 'inspect',           // {bytes} -> CheckpointInfo
  DROP: 'drop',                 // {slot} -> {dropped}; deletes the slot's Model/Run
  TRAIN: 'train',               // {slot, until} -> {state: finished|paused|stopped, step}; PROGRESS per chunk
                                //   (StepResult of the chunk + threads, memoryBytes, otherSeconds: the
                                //   worker's total time so far answering requests other than TRAIN and
                                //   keeping snapshots, snapshotSeconds: of it the snapshots', timeline)
  PAUSE: 'pause',               // {slot} -> {paused}; the TRAIN request then answers {state: 'paused'}
  STOP: 'stop',                 // {slot} -> {stopped}; the TRAIN request then answers {state: 'stopped'}
  CHECKPOINT: 'checkpoint',     // {slot, timeline?} -> {bytes: Uint8Array, step, readMs}; timeline: the file carries the
                                //   slot's timeline (its snapshots under step_<N>/, docs/checkpoints.md)
  SNAPSHOT: 'snapshot',         // {slot, step} -> the weights [{name, shape, data}] of the timeline at step
  SET_TIMELINE: 'set-timeline', // {slot, snapshots: [{step, weights}]} -> the steps kept (a saved run's
                                //   timeline back; each snapshot checked against the model, thinned as in memory)
  CALL: 'call',                 // {slot, method, args, at} -> the method's result; method from MODEL_METHODS; at: a timeline step
  EMBEDDING_ROWS: 'embedding-rows',  // {slot, input} -> {tokens, rows: TensorData} (course A2)
  GPU_COUNTS: 'gpu-counts',     // {reset?} -> what the WebGPU build sent the device since the last reset
                                //   (tf.webgpuCounts(): per phase and in total dispatches, submits, writes,
                                //   writeBytes...), null on wasm; reset: count from zero again after reading
  PROFILE: 'profile',           // {} -> {slot, profile: Profile} of the run that trained last since it started
                                //   training in this worker, or null before any run trained
  PING: 'ping',                 // {} -> {}; the page's check that a silent worker is alive
  LOSE_DEVICE: 'lose-device',   // {} -> {destroyed}; destroys the WebGPU device in use (the test hook for a loss)
  PROGRESS: 'progress',         // worker -> page only
  DEVICE_FAILED: 'device-failed',  // worker -> page only, id 0: {reason}; WebGPU is gone, the page goes to wasm
});

// The Model / Run methods the page may call through Msg.CALL (everything else stays inside the worker).
export const MODEL_METHODS = Object.freeze([
  'encode', 'decode', 'logits', 'attention', 'sorterAttention', 'saliency', 'tokenSaliency', 'sortDigits', 'toyGuesses',
  'undiffuseCensus', 'write', 'parameters', 'validationLoss', 'evaluate', 'logitLens', 'patching', 'sorterPatching',
]);

// The Tinyformer figure functions the page may ask for through Msg.FIGURE.
export const FIGURES = Object.freeze([
  'positionalEncoding', 'attentionWalkthrough', 'entropyVsDk', 'feedForwardCheck', 'layerNormCheck',
  'residualStream',
]);

// A reply: ok with a result, or not ok with an error message (never both) and, for an error a page acts on
// (TinyformerError.kind: a refused checkpoint), its kind.
export function reply(type, id, result) {
  return { type, id, ok: true, result };
}

export function failure(type, id, error) {
  const message = error && error.message ? error.message : String(error);
  return { type, id, ok: false, error: message, ...(error && error.kind ? { kind: error.kind } : {}) };
}

// Every ArrayBuffer inside a result, so postMessage can move instead of copy (Float32Array results of
// figures and attention maps can be megabytes).
export function transferables(value, found = new Set()) {
  if (value instanceof ArrayBuffer) found.add(value);
  else if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);  // never a SharedArrayBuffer
  } else if (Array.isArray(value)) value.forEach((v) => transferables(v, found));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => transferables(v, found));
  return [...found];
}

