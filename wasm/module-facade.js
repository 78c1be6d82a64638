// The module facade that loadTinyformer returns: the module's threads, memory, profiler and WebGPU counts,
// the course's figures that need no model, and the calls that make Models and Runs.
import { fail, guard, withBytes } from './calls.js';
import { camelKeys, parseFigure, parseJson, profileOf, snakeKeys } from './json-names.js';
import { Model } from './model.js';
import { Run } from './run.js';

function mergeConfig(defaults, input) {
  const { model = {}, ...rest } = input;
  return { ...defaults, ...rest, model: { ...defaults.model, ...model } };
}

export class Tinyformer {
  #wasm;
  #gpuBase = {};      // GPU ns per kernel stem when the profile was reset
  #gpuTimed = false;  // whether the profile's kernels were timed on the GPU (timestamp-query)

  constructor(wasm, threaded, poolSize, webgpu) {
    this.#wasm = wasm;
    this.version = wasm.version();
    this.threaded = threaded;
    this.webgpu = webgpu;  // the WebGPU build, its backend started on the caller's device
    this.simd = true;
    this.maxThreads = threaded ? poolSize : 1;
  }

  setThreads(n) {
    if (!Number.isInteger(n) || n < 1 || n > this.maxThreads)
      fail(`setThreads: n must be an integer in 1..${this.maxThreads} (${this.threaded ? 'the worker pool' : 'single-threaded build'}), got ${n}`);
    guard(this.#wasm, () => this.#wasm.setThreads(n));
  }
  threads() {
    return this.#wasm.threads();
  }
  liveHandles() {
    return this.#wasm.liveHandles();
  }
  memoryBytes() {
    return this.#wasm.HEAPU8.length;
  }
  poolBytes() {
    return this.#wasm.poolBytes();
  }

  // The profiler is the module's, not a run's: it times every kernel call while it runs; on WebGPU with
  // timestamp-query also on the GPU: gpuMs per stem, gpuTimed (await webgpuTimesSettled() before profile()).
  startProfile() {
    this.#wasm.profileStart();
    if (this.webgpu && this.#wasm.webgpuTimeKernels(true)) this.#gpuTimed = true;
  }
  stopProfile() {
    this.#wasm.profileStop();
    if (this.webgpu) this.#wasm.webgpuTimeKernels(false);
  }
  resetProfile() {
    this.#wasm.profileReset();
    this.#gpuBase = this.#gpuNsByStem();
    this.#gpuTimed = false;
  }
  profiling() {
    return this.#wasm.profiling();
  }
  profile() {
    const profile = profileOf(JSON.parse(this.#wasm.profileJson()));
    if (!this.#gpuTimed) return profile;
    const now = this.#gpuNsByStem(), gpuMs = (stem) => Math.max(0, (now[stem] || 0) - (this.#gpuBase[stem] || 0)) / 1e6;
    return { ...profile, gpuTimed: true, stems: profile.stems.map((s) => ({ ...s, gpuMs: gpuMs(s.stem) })) };
  }
  #gpuNsByStem(byStem = {}) {
    for (const p of (this.webgpu && this.#wasm.webgpuCounts()?.pipelines) || []) byStem[p.stem] = (byStem[p.stem] || 0) + p.gpuNs;
    return byStem;
  }

  // The WebGPU build's counts since the last reset (null elsewhere): per step phase (batch, forward,
  // backward, optimizer, copies, other) and in total, dispatches, workgroups, queue submits, queue writes
  // and their bytes, uploads through the ring and theirs; per pipeline its dispatches and workgroups, the most rows of a reduction one invocation
  // walked, its GEMM calls and the fewest workgroups of one; syncPipelines (made late: 0 when all were ready).
  webgpuCounts() {
    return this.webgpu ? this.#wasm.webgpuCounts() : null;
  }
  resetWebgpuCounts() {
    if (this.webgpu) this.#wasm.webgpuResetCounts();
  }
  // GPU time per pipeline (webgpuCounts().pipelines[].gpuNs) where the device has timestamp-query: true
  // when kernels are now timed (each dispatch in a pass of its own: for profiling only). webgpuTimesSettled
  // resolves once the GPU times of the work submitted so far are in webgpuCounts().
  timeWebgpuKernels(on) {
    return this.webgpu ? this.#wasm.webgpuTimeKernels(on) : false;
  }
  async webgpuTimesSettled() {
    if (this.webgpu) await this.#wasm.webgpuTimesSettled();
  }

  defaultConfig(task, kind = '') {
    return parseJson(guard(this.#wasm, () => this.#wasm.defaultConfig(String(task), String(kind))));
  }
  // TrainConfig::validate's bounds of the numeric settings, by field: front ends take their own from here.
  trainBounds() {
    return parseJson(this.#wasm.trainBounds());
  }
  builtinStories(seed = 1, bytes = 4_000_000) {
    return guard(this.#wasm, () => this.#wasm.builtinStories(seed, bytes));
  }
  tokenize(text, mode = 'corpus') {
    if (mode !== 'corpus' && mode !== 'prompt') fail(`tokenize: mode must be 'corpus' or 'prompt', got ${mode}`);
    return JSON.parse(guard(this.#wasm, () => this.#wasm.tokenize(String(text), mode === 'prompt')));
  }

  // A run's model and optimizer state live on `device`: by default the WebGPU device in the WebGPU build
  // (train it with trainChunk; snapshotTo / readCheckpoint read it), the CPU otherwise.
  createRun(config, text, { device = this.#runDevice() } = {}) {
    if (!config || typeof config.task !== 'string') fail('createRun needs a config with a task: toy, sort or stories');
    const merged = mergeConfig(this.defaultConfig(config.task, config.model?.kind ?? ''), camelKeys(config));
    return new Run(guard(this.#wasm, () => this.#wasm.createRun(JSON.stringify(snakeKeys(merged)), text ?? null, this.#deviceName(device))), this.#wasm);
  }
  loadRun(bytes, text, { device = this.#runDevice() } = {}) {
    const name = this.#deviceName(device);
    return new Run(withBytes(this.#wasm, bytes, (p, n) => guard(this.#wasm, () => this.#wasm.loadRun(p, n, text ?? null, name))), this.#wasm);
  }
  #runDevice() {
    return this.webgpu ? 'webgpu' : 'cpu';
  }
  #deviceName(device) {
    if (device === 'cpu' || (device === 'webgpu' && this.webgpu)) return device;
    fail(`a run's device is 'cpu'${this.webgpu ? " or 'webgpu'" : ' (this is not the WebGPU build)'}, got ${String(device)}`);
  }
  loadModel(bytes) {
    return new Model(withBytes(this.#wasm, bytes, (p, n) => guard(this.#wasm, () => this.#wasm.loadModel(p, n))), this.#wasm);
  }
  inspectCheckpoint(bytes) {
    const info = parseJson(withBytes(this.#wasm, bytes, (p, n) => guard(this.#wasm, () => this.#wasm.inspectCheckpoint(p, n))));
    info.losses = info.losses.map((l) => l ?? NaN);  // JSON's null: a skipped step's loss
    return info;
  }
  // A checkpoint's training timeline, by step: [{step, weights}] ([] when the file has none).
  readTimeline(bytes) {
    return withBytes(this.#wasm, bytes, (p, n) => guard(this.#wasm, () => this.#wasm.timelineOf(p, n)));
  }
  // The checkpoint's bytes again, carrying `timeline` ([{step, weights}], as readTimeline gives it).
  withTimeline(bytes, timeline) {
    if (!Array.isArray(timeline)) fail('withTimeline needs [{step, weights}]');
    return withBytes(this.#wasm, bytes, (p, n) => guard(this.#wasm, () => this.#wasm.withTimeline(p, n, timeline)));
  }

  positionalEncoding({ positions = 32, dim = 64 } = {}) {
    return parseFigure(guard(this.#wasm, () => this.#wasm.positionalEncoding(positions, dim)));
  }
  attentionWalkthrough({ sentence = 'the cat sat on the mat', dModel = 16, dK = 8, heads = 4, seed = 0 } = {}) {
    const tokens = Array.isArray(sentence) ? sentence : String(sentence).trim().split(/\s+/);
    return parseFigure(guard(this.#wasm, () => this.#wasm.attentionWalkthrough(JSON.stringify(tokens), dModel, dK, heads, seed)));
  }
  entropyVsDk({ dims = [4, 8, 16, 32, 64, 128, 256, 512, 1024], queries = 256, keys = 32, seed = 0 } = {}) {
    return parseFigure(guard(this.#wasm, () => this.#wasm.entropyVsDk(JSON.stringify(dims), queries, keys, seed)));
  }
  feedForwardCheck({ dModel = 32, positions = 5, seed = 0 } = {}) {
    return parseFigure(guard(this.#wasm, () => this.#wasm.feedForwardCheck(dModel, positions, seed)));
  }
  layerNormCheck({ seed = 0 } = {}) {
    return parseFigure(guard(this.#wasm, () => this.#wasm.layerNormCheck(seed)));
  }
  residualStream({ positions = 8, dModel = 32, heads = 4, blocks = 6, seed = 0 } = {}) {
    return parseFigure(guard(this.#wasm, () => this.#wasm.residualStream(positions, dModel, heads, blocks, seed)));
  }
  blockParameterEstimate(layers, dim) {
    return this.#wasm.blockParameterEstimate(layers, dim);
  }
  // A model config's parameters by piece, as Run.parameters() reports them, without building the model.
  parameterReport(model) {
    return parseJson(guard(this.#wasm, () => this.#wasm.parameterReport(JSON.stringify(snakeKeys(model)))));
  }
}
