// Types of the Tinyformer WebAssembly module as the page, its worker and the Node tests see it: the
// hand-written wrapper wasm/tinyformer.js and its modules (copied to web/wasm/ when npm packs) over the Embind
// bindings. Everything returned is plain JS data copied out of wasm memory (fresh Float32Arrays, never
// views that go stale when memory grows); the only objects that hold wasm memory are Model and Run, which
// must be released with delete(). C++ errors arrive as TinyformerError carrying the C++ message; the
// object that threw stays usable. Every field is camelCase (the wrapper converts the core's snake_case JSON,
// the JSON that checkpoints store, both ways), so a config read from a checkpoint can be passed back
// unchanged; a config given with snake_case fields is still accepted.

// TypeScript before 5.2 has no Symbol.dispose in its lib; this declares it (5.2+ declares the same).
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

// ---------------------------------------------------------------- loading

// The part of a GPUDevice the wrapper relies on (no dependency on @webgpu/types; a GPUDevice fits).
export interface WebGpuDevice {
  createBuffer(descriptor: object): unknown;
  readonly lost: Promise<unknown>;
  destroy(): void;
}

export interface LoadOptions {
  // 'auto' (default): the pthreads build when the page is cross-origin isolated (SharedArrayBuffer
  // available) or in Node; else the single-threaded build. true / false force one (true throws when
  // threads are impossible here).
  threads?: 'auto' | boolean;
  // Folder holding tinyformer-st.mjs/.wasm and tinyformer-mt.mjs/.wasm/.worker.js. Default: the files beside
  // the wrapper module itself (web/wasm/ after scripts/build-wasm.sh; a bundler that follows
  // `new URL('./file', import.meta.url)` ships them). Set it where the files are served from elsewhere.
  baseUrl?: string | URL;
  // The .wasm bytes, when the caller already has them (Node reads them with fs itself when absent).
  wasmBinary?: ArrayBuffer | Uint8Array;
  // Emscripten's hook: where a file the module asks for (e.g. "tinyformer-mt.wasm") lives.
  locateFile?: (path: string, prefix: string) => string;
  // Threaded build: worker threads started up front (default min(hardwareConcurrency, 8), at least 2).
  poolSize?: number;
  // A GPUDevice (from adapter.requestDevice(), asking for the adapter's maxBufferSize and
  // maxStorageBufferBindingSize): loads the single-threaded WebGPU build (tinyformer-gpu.*) on it. Throws a
  // TinyformerError naming WebGPU when the build or its backend does not start (lost device, no arena).
  webgpu?: WebGpuDevice;
  // WebGPU build: the starting size in bytes of the one device buffer all tensors live in (default 32 MiB);
  // it grows as runs need, up to the device's buffer limits.
  webgpuArenaBytes?: number;
}

// Loads and starts one build. Each call makes a new, independent module instance.
export function loadTinyformer(options?: LoadOptions): Promise<Tinyformer>;

// What this wrapper can do before a build is loaded: webgpuTraining is true when the WebGPU build places
// runs on the device (createRun / loadRun), trains them with Run.trainChunk and reads them asynchronously.
export const features: { readonly webgpuTraining: boolean };

// A C++ tf::Error (or other C++ exception) crossing into JS: `message` is the C++ what(). `kind` names what a
// caller may act on: a checkpoint refused because the run diverged ('skipped-step': its last step was skipped,
// its loss or gradient norm not finite; 'not-finite': NaN or infinity in its numbers), else null.
export type TinyformerErrorKind = 'skipped-step' | 'not-finite';
export class TinyformerError extends Error {
  name: 'TinyformerError';
  kind: TinyformerErrorKind | null;
}

// ---------------------------------------------------------------- plain data

// A copied array with its shape, row-major (e.g. attention of one layer: shape [heads, T, T]).
export interface TensorData {
  data: Float32Array;
  shape: number[];
}

// A course figure (section A and friends): named arrays to draw and named numbers / JSON to print.
export interface Figure {
  values: Record<string, any>;
  arrays: Record<string, TensorData>;
}

export type TaskName = 'toy' | 'sort' | 'stories';
export type ModelKind = 'notalking' | 'withposition' | 'transformer' | 'sorter';

export interface ModelConfig {
  kind: ModelKind;
  vocab: number;
  dim: number;
  heads: number;
  layers: number;          // MyTransformer blocks
  maxLength: number;
  causal: boolean;         // left-to-right (GPT-style) attention
  rotary: boolean;         // rotary positions instead of a learned position table
  encoderLayers: number;  // sorter only
  decoderLayers: number;  // sorter only
}

export interface TrainConfig {
  task: TaskName;
  model: ModelConfig;
  steps: number;       // the run's planned length (one-cycle is defined over it; train() may go past it)
  batch: number;
  seqLen: number;     // stories: tokens per window
  optimizer: 'adam' | 'adamw' | 'sgd';
  lr: number;
  weightDecay: number;
  momentum: number;
  schedule: 'constant' | 'onecycle' | 'cosine';
  pctStart: number;
  warmup: number;
  clip: number;        // max gradient norm, 0 = none
  seed: number;
  maxSkips: number;   // non-finite steps in a row (each skipped) after which train() throws; default 20
}

// The values a numeric setting may take, as the core checks them: min to max, an end excluded where it is
// open; whole: a count (an integer).
export interface Bounds {
  min: number;
  max: number;
  minOpen: boolean;
  maxOpen: boolean;
  whole: boolean;
}
export type TrainBounds = Record<'steps' | 'batch' | 'lr' | 'weightDecay' | 'momentum' | 'pctStart' | 'maxSkips', Bounds>;

// What createRun accepts: the task's course defaults (Tinyformer.defaultConfig) overlaid with the fields
// given, model fields included. For stories, model.vocab is set from the corpus's vocabulary.
export type TrainConfigInput = { task: TaskName; model?: Partial<ModelConfig> } & Partial<Omit<TrainConfig, 'task' | 'model'>>;

// Story text for the stories task: vocabulary and training windows from `train`; validation windows from
// `valid`, or from the last 5 % of `train` when absent. topWords: vocabulary size before <unk> and _.
export interface StoryText {
  train: string;
  valid?: string;
  topWords?: number;
}

// Token input: a string in the model's vocabulary ("the _ is alive", "once upon a _", "7 2 9 0 4 4 1 8 3 6";
// "_" is the mask; story words outside the vocabulary become <unk>, toy/sort words must exist) or ids.
export type TokenInput = string | number[] | Int32Array;

// What a checkpoint holds, read without building its model (the sizes were checked against its config).
export interface CheckpointInfo {
  config: ModelConfig;
  train: TrainConfig | null; // null in a weights-only file
  task: TaskName;            // stored in the file (older files: from the training config or the model)
  step: number;
  vocab: string[];           // empty when the file stores none
  parameters: number;        // total parameter count
  table: ParameterReport;    // a row per stored parameter, totals per group
  resumable: boolean;        // holds a training config and optimizer state (loadRun works)
  losses: number[];          // the loss of every step the run took (NaN: skipped); empty when not stored
  timeline: number[];        // the steps of the training timeline it carries (docs/checkpoints.md), by step
  metadata: Record<string, string>;  // the file's other metadata
}

// What the WebGPU backend sent to the device (Tinyformer.webgpuCounts): per step phase and in total.
export interface WebGpuPhaseCounts {
  dispatches: number;
  workgroups: number;   // of all those dispatches together
  submits: number;      // queue submits (a chunk of steps and its step log take one)
  writes: number;       // queue writes (the ring once per submit; an upload too large for the ring)
  writeBytes: number;
  uploads: number;      // host-to-device copies through the ring (their bytes ride in its queue write)
  uploadBytes: number;
}
export interface WebGpuPipelineCounts {
  stem: string;         // the shader file (the profiler's row)
  entry: string;        // the entry point
  dispatches: number;
  workgroups: number;
  maxRows: number;      // the most rows of a reduction one invocation walked (0: none)
  gemmCalls: number;    // GEMM calls whose product this pipeline computed
  minGemmWorkgroups: number;  // the fewest workgroups one of them had (Infinity when none)
  gpuNs: number;        // GPU time of its dispatches while kernels were timed (timeWebgpuKernels), else 0
}
export interface WebGpuCounts {
  phases: Record<'batch' | 'forward' | 'backward' | 'optimizer' | 'copies' | 'other', WebGpuPhaseCounts>;
  total: WebGpuPhaseCounts;
  pipelines: WebGpuPipelineCounts[];
  syncPipelines: number;  // pipelines made at a dispatch rather than while loading (0 when all were ready)
  arena: { bytes: number; limit: number; growths: number };  // its size now, the device's limit, growths so far
}

// ---------------------------------------------------------------- the module

export interface Tinyformer {
  readonly version: string;
  readonly threaded: boolean;  // the pthreads build is running
  readonly webgpu: boolean;    // the WebGPU build is running, its backend started on the given device
  readonly simd: boolean;      // wasm SIMD (always true: both builds use it)
  readonly maxThreads: number; // the most setThreads accepts (1 in the single-threaded build)

  setThreads(n: number): void;  // 1..maxThreads; kernels split work over this many threads
  threads(): number;

  liveHandles(): number;   // Model/Run objects (C++ side) not yet deleted; back to its old value after delete()
  memoryBytes(): number;   // wasm linear memory size (HEAPU8.length)
  poolBytes(): { live: number; cached: number };  // the core's tensor allocator

  // Where the time goes: every kernel call is timed while the profiler runs (module-wide, all runs).
  startProfile(): void;
  stopProfile(): void;    // what was recorded stays readable
  resetProfile(): void;   // clears what was recorded
  profiling(): boolean;
  profile(): Profile;

  // The WebGPU build's counts since the last reset (null in the other builds).
  webgpuCounts(): WebGpuCounts | null;
  // Times every kernel on the GPU (timestamp-query; each dispatch its own pass): true when on, false where
  // the device lacks the feature or this is not the WebGPU build.
  timeWebgpuKernels(on: boolean): boolean;
  webgpuTimesSettled(): Promise<void>;  // the times of the work submitted so far are in webgpuCounts()
  resetWebgpuCounts(): void;

  // The course's settings for a task and model family (toy: MyTransformer(14, 32, 1, 1), Adam 1e-3,
  // batch 64, 1500 steps; sort: the sorter, AdamW, one-cycle; stories: MyTransformer(2002)).
  defaultConfig(task: TaskName, kind?: ModelKind): TrainConfig;
  // The bounds createRun checks a TrainConfig's numbers against (lr in (0, 10), batch 1 to 65536, ...):
  // a front end's fields take theirs from here.
  trainBounds(): TrainBounds;

  // The built-in story corpus (deterministic for a seed): whole stories until at least `bytes` bytes.
  // Seed 1 is the default training text, seed 2 the validation text.
  builtinStories(seed?: number, bytes?: number): string;
  // The course's word tokenizer. 'corpus' (default): <|endoftext|> separates; 'prompt': "_" is a token.
  tokenize(text: string, mode?: 'corpus' | 'prompt'): string[];

  // A new training run (parameters drawn from config.seed). Stories need their text. The model and
  // optimizer state live on `device`: 'webgpu' by default in the WebGPU build, else 'cpu'.
  createRun(config: TrainConfigInput, text?: StoryText, options?: { device?: 'cpu' | 'webgpu' }): Run;
  // Resumes a run from a checkpoint with optimizer state: the same losses it would have had. Stories need
  // the text it was trained on (the vocabulary comes from the checkpoint).
  loadRun(bytes: Uint8Array, text?: StoryText, options?: { device?: 'cpu' | 'webgpu' }): Run;
  // A model from any checkpoint (weights only is enough), for viewing and writing.
  loadModel(bytes: Uint8Array): Model;
  inspectCheckpoint(bytes: Uint8Array): CheckpointInfo;
  // A checkpoint's training timeline (its snapshots under step_<N>/ names), by step; [] when it has none.
  readTimeline(bytes: Uint8Array): Snapshot[];
  // The checkpoint's bytes again, carrying `timeline` (at most 64 steps, none past the file's step, each
  // snapshot with exactly the file's parameter names and shapes: refused otherwise).
  withTimeline(bytes: Uint8Array, timeline: Snapshot[]): Uint8Array;

  // ---- section A figures (small random pieces with the project's generator) ----
  // A1: arrays encoding [positions, dim], similarity [positions, positions].
  positionalEncoding(options?: { positions?: number; dim?: number }): Figure;
  // A3, A4, A6, A7, A8: arrays x, scores, weights, output, weightsCold, weightsHot, causalMask,
  // weightsCausal, weightsPadding, heads [heads, T, T]; values rowSums, permutation, permutationGap,
  // fusedKernelGap, multiheadParameters. Default sentence "the cat sat on the mat".
  attentionWalkthrough(options?: { sentence?: string | string[]; dModel?: number; dK?: number; heads?: number; seed?: number }): Figure;
  // A5: arrays dims, raw, scaled; value uniform = log(keys).
  entropyVsDk(options?: { dims?: number[]; queries?: number; keys?: number; seed?: number }): Figure;
  // A9: values perPositionGap, ffnParameters, attentionParameters; arrays geluX, geluTanh, geluErf.
  feedForwardCheck(options?: { dModel?: number; positions?: number; seed?: number }): Figure;
  // A10: value gap (LayerNorm vs (x - mean) / std).
  layerNormCheck(options?: { seed?: number }): Figure;
  // A10: value updateNorms (size of each block's residual update).
  residualStream(options?: { positions?: number; dModel?: number; heads?: number; blocks?: number; seed?: number }): Figure;
  // D7: 12 * layers * d^2.
  blockParameterEstimate(layers: number, dim: number): number;
  // B5: a model config's parameters by piece (fields not given take ModelConfig's defaults), unbuilt.
  parameterReport(model: Partial<ModelConfig>): ParameterReport;
}

// ---------------------------------------------------------------- models and runs

export interface AttentionResult {
  tokens: string[];                        // labels of the positions
  layers: TensorData[];                    // per layer [heads, T, T] (rows: query position)
  rollout: TensorData | null;              // [T, T] (course D5); null for models without attention
  logits: TensorData;                      // [T, V] of the same forward pass
}

export interface SorterAttention {
  input: number[];                         // the 10 digits
  output: number[];                        // the greedy answer
  correct: boolean;
  encoder: TensorData[];                   // per encoder layer [heads, S, S]
  decoderSelf: TensorData[];               // per decoder layer [heads, T, T]
  cross: TensorData[];                     // per decoder layer [heads, T, S] (rows: output step)
  rollout: TensorData;                     // encoder rollout [S, S]
}

// A model's parameters by name (Model.readWeights, Model.setWeights).
export type NamedWeights = { name: string; shape: number[]; data: Float32Array }[];
// A model's parameters at one step of its training timeline.
export type Snapshot = { step: number; weights: NamedWeights };

// The logit lens (Model.logitLens): rows are the embeddings (0) and each block's output (i + 1).
export interface LogitLens {
  words: string[];                         // the sentence
  input: string[];                         // what the model read: masked positions as "_"
  targets: (string | null)[];              // per position the word to predict: the next (causal) or its own
  topWords: string[][][];                  // [rows][T][top], likeliest first
  probs: TensorData;                       // [rows, T, top], their probabilities
  targetProb: TensorData;                  // [rows, T] (0 without a target)
  targetRank: number[][];                  // [rows][T]: 0 = likeliest, -1 without a target
}

// Activation patching of a token model (Model.patching): the target's probability with one head's output
// (all positions) or one block's output (one position) copied from the clean run into the corrupted one.
export interface Patching {
  tokens: string[];
  corruptedTokens: string[];
  position: number;
  target: string;
  clean: number;                           // the target's probability on each input
  corrupted: number;
  heads: TensorData;                       // [L, heads]
  residuals: TensorData;                   // [L, T]
  headsRestored: TensorData;               // (p - corrupted) / (clean - corrupted); NaN where those are within 0.01
  residualsRestored: TensorData;
}

// The sorter's cross-attention heads patched one at a time (Model.sorterPatching): per output step, the
// probability of the clean answer's digit.
export interface SorterPatching {
  answer: number[];                        // the clean input's greedy answer, decoded in both runs
  clean: number[];                         // [S] per step on each input
  corrupted: number[];
  heads: TensorData;                       // [decoder layers, heads, S]
  headsRestored: TensorData;               // as Patching's
}

export interface WriteOptions {
  prompt?: string;       // fixed tokens at the start
  suffix?: string;       // fixed tokens at the end (infilling; diffusion models only)
  sampler?: 'undiffuse' | 'greedy' | 'left-to-right';  // default: left-to-right for causal models, else undiffuse
  steps?: number;        // undiffusing: T (default: length)
  temperature?: number;  // default 1
  topK?: number;         // left-to-right: 0 = whole vocabulary
  length?: number;       // total tokens, prompt and suffix included (default 32, at most maxLength)
  count?: number;        // stories (default 5)
  seed?: number;         // default 0
}

export interface WrittenStory {
  text: string;
  tokens: string[];
  revealStep?: number[];  // undiffusing: per position, the step that revealed it (1 = first), 0 = fixed
  networkCalls: number;
}

export interface ParameterReport {
  rows: { name: string; shape: string; group: string; count: number }[];
  groups: { group: string; count: number }[];  // embedding, attention, ffn, layernorm, output
  total: number;
}

// A model held in wasm memory. delete() releases it; any call after delete() throws.
export interface Model {
  readonly config: ModelConfig;
  readonly vocabulary: string[];   // token strings by id (empty when the checkpoint stored none)
  readonly deleted: boolean;

  encode(input: TokenInput): number[];          // ids in this model's vocabulary
  decode(ids: number[] | Int32Array): string[];
  // Token models: logits [B, T, V] for one input ([1, T, V]) or several of equal length.
  logits(input: TokenInput | TokenInput[]): TensorData;
  // Token models: softmax probabilities [T, V] for one input (the masked-diffusion page's guess).
  probabilities(input: TokenInput, options?: { temperature?: number; forbidden?: number[] }): TensorData;
  // Token models: the attention of every layer on one input, with the rollout.
  attention(input: TokenInput): AttentionResult;
  // Sorter: greedy decoding of ten digits with every attention map (course D2-D5).
  sorterAttention(digits: number[] | string): SorterAttention;
  // Sorter: gradient saliency [steps, S] of the greedy answer (course D6), rows summing to one.
  saliency(digits: number[] | string): { output: number[]; saliency: TensorData };
  // MyTransformer: per position, gradient saliency [T, T] of the word it would write there (rows sum to one).
  tokenSaliency(input: string | number[]): { tokens: string[]; written: string[]; saliency: TensorData };
  // MyTransformer: the logit lens on a sentence; `masked` positions are read as "_" (default top 5).
  logitLens(input: TokenInput, options?: { masked?: number[]; top?: number }): LogitLens;
  // MyTransformer: activation patching; clean and corrupted of equal length; position -1 (default): the last;
  // target: a word or id, -1 (default): the clean run's likeliest word there.
  patching(options: { clean: TokenInput; corrupted: TokenInput; position?: number; target?: string | number }): Patching;
  // Sorter: two digit sequences of equal length.
  sorterPatching(clean: number[] | string, corrupted: number[] | string): SorterPatching;
  sortDigits(digits: number[] | string): { input: number[]; output: number[]; correct: boolean };
  // Toy models: the network's guess at position 2 for the page's three prompts beside GuessX0 (B1-B3).
  toyGuesses(): { prompts: { prompt: string; network: number[]; exact: number[] }[]; maxAbsDifference: number };
  // Toy models: `count` sentences undiffused in `steps` steps: counts per sentence, nonsense fraction (B2, B3).
  undiffuseCensus(options?: { count?: number; steps?: number; seed?: number }): {
    sentences: number; steps: number; counts: Record<string, number>; nonsenseFraction: number; networkCalls: number;
  };
  // Token models with a vocabulary: stories by undiffusing or left to right (course C2, C3, C7, C8).
  write(options?: WriteOptions): { sampler: string; stories: WrittenStory[] };
  parameters(): ParameterReport;
  // One parameter by its name (docs/checkpoints.md lists them), copied out of wasm memory.
  parameter(name: string): TensorData;
  // Copies every parameter of another Model or Run in memory into this one, by name; names and shapes are
  // checked first and on an error nothing changes (course C10). A Run keeps its optimizer state.
  copyWeightsFrom(other: Model): void;
  // The device this model's parameters live on: 'cpu' (wasm memory) or, in a WebGPU build, 'webgpu'.
  readonly device: string;
  // Copies this model's parameters into `target` (a Model or Run of this module, e.g. one on the CPU for
  // the views and checkpoint saving while this one trains on WebGPU), read asynchronously from the device
  // one parameter at a time; vocabularies, names and shapes are checked first. Resolves to `target`.
  snapshotTo<T extends Model>(target: T): Promise<T>;
  // Every parameter copied out (read asynchronously on WebGPU), by name: what a training timeline keeps.
  readWeights(): Promise<NamedWeights>;
  // Parameters as readWeights gives them, of a model with `vocabulary` (default: this model's), copied in by
  // name; names, shapes and the vocabulary are checked first and on an error nothing changes.
  setWeights(weights: NamedWeights, vocabulary?: string[]): void;
  // A safetensors checkpoint (weights, config, vocabulary, task, the loss history; a Run adds optimizer
  // state, step and RNG). A Run's history goes on from the checkpoint it was loaded from. Throws for a
  // model on WebGPU, which is read asynchronously: readCheckpoint(). A run that diverged is refused with a
  // TinyformerError of kind 'skipped-step' (right after a skipped step) or 'not-finite'.
  checkpoint(): Uint8Array;
  // The same bytes on every device, the weights and optimizer moments read asynchronously.
  readCheckpoint(): Promise<Uint8Array>;
  delete(): void;
  // The same as delete(), for `using` (explicit resource management); present where the runtime has
  // Symbol.dispose (Node 20 does).
  [Symbol.dispose](): void;
}

// Kernel time by file stem of core/backend/kernels.hpp ("gemm", "softmax", "attention", "memory", ...).
export interface StemTime {
  stem: string;
  forwardMs: number;   // calls outside the backward pass and the optimizer
  backwardMs: number;  // calls while the autograd engine runs backward
  otherMs: number;     // calls in the optimizer phase (Adam, gradient norm, zero_grad)
  calls: number;
  gpuMs?: number;      // WebGPU with timestamp-query: the stem's GPU time (device copies count as elementwise)
}

export interface Profile {
  steps: number;       // training steps recorded
  stepMs: number;      // their wall time together
  stems: StemTime[];   // most time first
  // Each moment of a step is in one phase, so these add up to stepMs.
  phasesMs: { batch: number; forward: number; backward: number; optimizer: number; copies: number; other: number };
  enqueueOnly: boolean;  // an asynchronous device: kernel times are enqueue times
  gpuTimed?: boolean;    // WebGPU with timestamp-query: each stem has gpuMs
  backends: string;      // e.g. "cpu-wasm-simd"
}

export interface StepResult {
  losses: Float32Array;     // one per step taken, the course's figure (per token on stories); NaN/inf: skipped
  step: number;             // steps done after these (skipped ones included)
  skipped: number;          // of these steps, how many had a non-finite loss or gradient norm (no update made)
  skippedSteps: number;     // skipped by this Run since it was created or loaded
  lr: number;               // learning rate of the last step
  seconds: number;          // wall time of these steps
  tokensPerSecond: number;
  gflopsPerSecond: number;  // matrix and attention work (the core's flop count) per second
}

// A chunk's figures (Run.trainChunk): the totals train(n) gives, seconds being from queueing to the read,
// and each step's stats.
export interface ChunkResult extends StepResult {
  stats: StepStats[];
}

// One step of a chunk (Run.trainChunk).
export interface StepStats {
  step: number;          // steps done after this one
  loss: number;          // the course's figure (per token on stories); NaN/inf when skipped
  lr: number;
  gradNorm: number;      // global 2-norm of the gradients before clipping (NaN when the loss was not finite)
  skipped: boolean;      // the loss or gradient norm was not finite: no update was made
  skippedSteps: number;  // skipped by this Run so far, this one included
  seconds: number;       // host time spent queueing the step (on the CPU: the step's wall time)
  tokens: number;
  flops: number;         // matrix and attention work of this step
}

export interface Run extends Model {
  readonly trainConfig: TrainConfig;
  readonly task: TaskName;
  readonly stepsDone: number;
  // n >= 1 (default 1). A non-finite step is skipped and counted; trainConfig.maxSkips of them in a row
  // throw ("training stopped ..."), leaving the parameters of the last good step.
  train(n?: number): StepResult;
  // n >= 1 steps that read nothing back while they run (on WebGPU nothing may be read synchronously); the
  // losses and norms stay on the device and are read once, asynchronously, afterwards. Skips are settled
  // then: max_skips in a row reject the promise with "training stopped ...". Inside one chunk, steps after
  // a skipped one use Adam step counts one too high (the skip is learnt at the chunk's end). One chunk at a
  // time: another call before this one resolves throws.
  trainChunk(n?: number): Promise<ChunkResult>;
  validationLoss(): number | null;           // stories: fixed held-out windows; null for other tasks, or when the held-out text is too short for one window
  // The task's end-of-run figures, from a generator seeded with `seed`: toy guesses and census, sorter
  // accuracy on 2000 fresh inputs, stories validation loss.
  evaluate(seed?: number): any;
  // Parameters from a checkpoint's bytes (copyWeightsFrom a model opened for the moment); the optimizer
  // state stays as it is.
  loadWeights(bytes: Uint8Array): void;
  // Course C10: switch the transformer's attention between causal and full.
  setCausal(causal: boolean): void;
}
