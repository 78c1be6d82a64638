// The Tinyformer WebAssembly module for the page, its worker and Node: the only JS that imports the emcc
// output. It picks the threaded, single-threaded or WebGPU build (the last for `{webgpu: GPUDevice}`), owns every Embind object (Model / Run wrap one
// Handle each and free it in delete(); liveHandles() counts what is left), copies arrays out of wasm
// memory, and rethrows C++ errors as TinyformerError. Types: tinyformer.d.ts. Node needs three things
// emcc 3.1.6 does not do for an ES module: require/__dirname globals, the .wasm bytes read with fs (its
// fetch() cannot read files), and the pthread worker script as .cjs (a .js file under a package.json with
// "type": "module" would be loaded as an ES module and fail).

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';

// kind: what a caller may act on, or null. A refused checkpoint (the run diverged; its last good save is the
// one to keep): 'skipped-step' (its last step was skipped) or 'not-finite' (NaN or infinity in its numbers).
export class TinyformerError extends Error {
  constructor(message, kind = null) {
    super(message);
    this.name = 'TinyformerError';
    this.kind = kind;
  }
}

// Calls into wasm: a C++ error comes back as the module's pending error (the bindings never throw through
// Embind's glue, which would skip freeing the call's arguments) and is thrown here as a TinyformerError.
function guard(wasm, fn) {
  const result = fn();
  const error = wasm.takeError();
  if (error !== null) throw new TinyformerError(error.message, error.kind);
  return result;
}

// Bytes copied into wasm memory for one call (fn(pointer, length)) and freed after it, however it ends: one
// copy, and a clear error when wasm memory cannot hold them.
function withBytes(wasm, bytes, fn) {
  const b = bytesOf(bytes);
  const pointer = wasm._malloc(Math.max(1, b.length));
  if (!pointer) fail(`out of memory: wasm memory cannot hold these ${b.length} bytes`);
  try {
    wasm.HEAPU8.set(b, pointer);
    return fn(pointer, b.length);
  } finally {
    wasm._free(pointer);
  }
}

function fail(message) {
  throw new TinyformerError(message);
}

function threadsPossible() {
  if (isNode) return true;
  return typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated === true;
}

function chooseThreaded(choice) {
  if (choice === 'auto' || choice === undefined) return threadsPossible();
  if (choice === true && !threadsPossible())
    fail('the threaded build needs SharedArrayBuffer: serve the page cross-origin isolated (COOP/COEP headers)');
  if (typeof choice !== 'boolean') fail(`threads must be 'auto', true or false, got ${String(choice)}`);
  return choice;
}

function hardwareThreads() {
  return (typeof navigator === 'object' && navigator.hardwareConcurrency) || 4;
}

function folderUrl(baseUrl) {
  const url = new URL(/* webpackIgnore: true */ baseUrl, import.meta.url);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

// The builds' files beside this module, written as literal `new URL('./file', import.meta.url)` and
// import('./file') so that bundlers see them and ship them (checked with webpack 5); every other URL and
// import is marked for bundlers to leave alone (runtime folders, Node's modules).
const BESIDE = {
  'tinyformer-st': () => ({
    factory: () => import('./tinyformer-st.mjs'),
    files: { 'tinyformer-st.wasm': new URL('./tinyformer-st.wasm', import.meta.url) },
  }),
  'tinyformer-mt': () => ({
    factory: () => import('./tinyformer-mt.mjs'),
    files: {
      'tinyformer-mt.wasm': new URL('./tinyformer-mt.wasm', import.meta.url),
      'tinyformer-mt.worker.js': new URL('./tinyformer-mt.worker.js', import.meta.url),
      'tinyformer-mt.mjs': new URL('./tinyformer-mt.mjs', import.meta.url),  // what each pthread worker imports
    },
  }),
  'tinyformer-gpu': () => ({
    factory: () => import('./tinyformer-gpu.mjs'),
    files: { 'tinyformer-gpu.wasm': new URL('./tinyformer-gpu.wasm', import.meta.url) },
  }),
};

// Build `name`: its factory and url(file) for each file emcc asks for; beside this module, or in baseUrl.
function buildFiles(name, baseUrl) {
  if (baseUrl == null) {
    const { factory, files } = BESIDE[name]();
    return { factory, url: (file) => files[file] ?? new URL(/* webpackIgnore: true */ file, import.meta.url) };
  }
  const base = folderUrl(baseUrl);
  const factory = () => import(/* webpackIgnore: true */ /* @vite-ignore */ new URL(`${name}.mjs`, base).href);
  return { factory, url: (file) => new URL(file, base) };
}

// What the emcc factory needs in Node (see the header).
async function nodeModuleOptions(build, name) {
  const { createRequire } = await import(/* webpackIgnore: true */ 'node:module');
  const { fileURLToPath } = await import(/* webpackIgnore: true */ 'node:url');
  const { readFile } = await import(/* webpackIgnore: true */ 'node:fs/promises');
  const wasm = build.url(`${name}.wasm`);
  globalThis.require ??= createRequire(wasm);
  globalThis.__dirname ??= fileURLToPath(new URL('.', wasm));
  globalThis.__filename ??= fileURLToPath(new URL(`${name}.mjs`, wasm));
  return {
    locateFile: (path) => fileURLToPath(build.url(path).href.replace(/\.worker\.js$/, '.worker.cjs')),
    wasmBinary: await readFile(wasm),
  };
}

// In a browser each pthread worker imports the build's .mjs itself: by this URL (a bundled copy of the
// glue would not do, so a bundler ships the .mjs as a file too).
function browserModuleOptions(build, name, threaded) {
  const options = { locateFile: (path) => build.url(path).href };
  if (threaded) options.mainScriptUrlOrBlob = build.url(`${name}.mjs`).href;
  return options;
}

// The WebGPU build is single-threaded and takes the caller's GPUDevice (contract: the caller asks for the
// adapter's buffer limits); every failure to start says "WebGPU" so the page's fallback rule catches it.
function checkWebGpuOptions(options) {
  if (!options.webgpu || typeof options.webgpu.createBuffer !== 'function') fail('webgpu must be a GPUDevice (from adapter.requestDevice())');
  if (options.threads === true) fail('the WebGPU build is single-threaded: threads must be false or left out with webgpu');
  const bytes = options.webgpuArenaBytes;
  if (bytes !== undefined && !(Number.isInteger(bytes) && bytes >= 256)) fail(`webgpuArenaBytes must be an integer >= 256, got ${bytes}`);
}

// Starts the WebGPU backend (the arena on the device), waits for its pipelines (all compiled now, none at
// the first step) and reads one word of the arena back, so a device that was lost, cannot hold the arena or
// cannot compile a shader fails here rather than at the first training step.
async function startWebGpu(wasm) {
  try {
    guard(wasm, () => wasm.checkDevice('webgpu'));
    await wasm.webgpuReady();
    await wasm.webgpuRead(256, 4);
  } catch (e) {
    fail(`the WebGPU build did not start: ${e.message}`);
  }
}

export async function loadTinyformer(options = {}) {
  const webgpu = options.webgpu != null;
  if (webgpu) checkWebGpuOptions(options);
  const threaded = webgpu ? false : chooseThreaded(options.threads ?? 'auto');
  const name = webgpu ? 'tinyformer-gpu' : threaded ? 'tinyformer-mt' : 'tinyformer-st';
  const build = buildFiles(name, options.baseUrl);
  const poolSize = threaded ? Math.max(1, Math.floor(options.poolSize ?? Math.min(8, Math.max(2, hardwareThreads())))) : 0;
  const moduleOptions = isNode ? await nodeModuleOptions(build, name) : browserModuleOptions(build, name, threaded);
  if (options.locateFile) moduleOptions.locateFile = options.locateFile;
  if (options.wasmBinary) moduleOptions.wasmBinary = options.wasmBinary;
  moduleOptions.poolSize = poolSize;
  if (webgpu) Object.assign(moduleOptions, { webgpu: options.webgpu, webgpuArenaBytes: options.webgpuArenaBytes });
  const { default: factory } = await build.factory();
  const wasm = await factory(moduleOptions);
  if (webgpu) await startWebGpu(wasm);
  if (isNode && threaded) {
    // Idle pthread workers must not keep Node's event loop (and a test run) alive.
    for (const w of wasm.PThread.unusedWorkers) w.unref();
  }
  const lab = new Tinyformer(wasm, threaded, poolSize, webgpu);
  if (threaded) lab.setThreads(Math.min(lab.maxThreads, hardwareThreads()));
  return lab;
}

// ---------------------------------------------------------------- helpers

function parseFigure(raw) {
  const arrays = {};
  for (const [name, array] of Object.entries(raw.arrays)) arrays[camelName(name)] = array;
  return { values: parseJson(raw.values), arrays };
}

function layersOf(figure, prefix) {
  const out = [];
  for (let i = 0; figure.arrays[`${prefix}.${i}`]; ++i) out.push(figure.arrays[`${prefix}.${i}`]);
  return out;
}

// The sorter's input as int32s for the core, which checks the digits' range and count. What is not a whole
// number within int32 is refused here, quoted as written: Int32Array would read "x" as 0 and wrap
// 9876543210 to another number.
function digitsOf(digits) {
  let items;
  if (typeof digits === 'string') items = digits.trim().split(/[\s,]+/).filter(Boolean);
  else if (Array.isArray(digits) || ArrayBuffer.isView(digits)) items = Array.from(digits);
  else fail('digits must be a string like "7 2 9 0 4 4 1 8 3 6" or an array of numbers');
  const bad = items.find((x) => !Number.isInteger(Number(x)) || Math.abs(Number(x)) >= 2 ** 31 || (typeof x === 'string' && !/^-?\d+$/.test(x)));
  if (bad !== undefined) fail(`digits must be whole numbers like "7 2 9 0 4 4 1 8 3 6": "${bad}" is not a digit`);
  return Int32Array.from(items, Number);
}

function bytesOf(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  fail('checkpoint bytes must be a Uint8Array or an ArrayBuffer');
}

// A device range {pointer, bytes} of float32 numbers, copied out: WebGPU memory with the module's
// asynchronous read (Module.webgpuRead, see the WebGPU contract), anything else straight out of wasm memory.
// trainChunk and snapshotTo read through it on every device, so Node's CPU tests run the WebGPU path.
async function readFloats(wasm, device, { pointer, bytes }) {
  if (device === 'webgpu') {
    try {
      return new Float32Array(await wasm.webgpuRead(pointer, bytes));
    } catch (e) {  // e.g. mapAsync rejected by a device lost mid-read (its lost promise settles just after)
      const lost = await Promise.race([wasm.webgpu.lost, new Promise((resolve) => setTimeout(resolve, 200))]);
      fail(lost ? `the WebGPU device was lost: ${lost.message || lost.reason}` : `the WebGPU read failed: ${e.message}`);
    }
  }
  return new Float32Array(wasm.HEAPU8.slice(pointer, pointer + bytes).buffer);
}

function mergeConfig(defaults, input) {
  const { model = {}, ...rest } = input;
  return { ...defaults, ...rest, model: { ...defaults.model, ...model } };
}

// The JS API names every field in camelCase; the core's JSON (the same JSON checkpoints store) in
// snake_case. Results are converted here on the way out and configs on the way in, so nothing above this
// file sees a snake_case field. Records whose keys are data, not fields (a census's counts per sentence, a
// file's raw metadata), keep their keys.
const DATA_RECORDS = new Set(['counts', 'metadata']);
const camelName = (key) => key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const snakeName = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function renameKeys(value, rename) {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, rename));
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) out[rename(key)] = DATA_RECORDS.has(key) ? v : renameKeys(v, rename);
  return out;
}
const camelKeys = (value) => renameKeys(value, camelName);
const snakeKeys = (value) => renameKeys(value, snakeName);
const parseJson = (text) => camelKeys(JSON.parse(text));

// The core's profile JSON as the JS API's Profile: camelCase, with the phases (an ordered array in the
// JSON) as one record in step order.
function profileOf(p) {
  const { phases, ...rest } = camelKeys(p);
  return { ...rest, phasesMs: Object.fromEntries(phases.map(({ phase, ms }) => [phase, ms])) };
}

// ---------------------------------------------------------------- the module facade

class Tinyformer {
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

// ---------------------------------------------------------------- models and runs

class Model {
  #handle;
  #wasm;

  constructor(handle, wasm) {
    this.#handle = handle;
    this.#wasm = wasm;
    this.config = parseJson(handle.configJson());
    this.vocabulary = JSON.parse(handle.vocabularyJson());
    this.device = handle.device();
  }

  get deleted() {
    return this.#handle === null;
  }
  delete() {
    if (this.#handle) this.#handle.delete();
    this.#handle = null;
  }

  get _wasm() {
    return this.#wasm;
  }

  // The live Embind handle, or an error once delete() was called.
  get _h() {
    if (!this.#handle) fail('this model was deleted');
    return this.#handle;
  }

  _ids(input) {
    if (typeof input === 'string') return guard(this._wasm, () => this._h.encode(input));
    if (Array.isArray(input) || input instanceof Int32Array) return Int32Array.from(input);
    fail('token input must be a string or an array of ids');
  }

  encode(input) {
    return Array.from(this._ids(input));
  }
  decode(ids) {
    return JSON.parse(guard(this._wasm, () => this._h.decode(Int32Array.from(ids))));
  }
  logits(input) {
    const many = Array.isArray(input) && input.length > 0 && typeof input[0] !== 'number';
    const rows = (many ? input : [input]).map((x) => this._ids(x));
    const T = rows[0].length;
    if (rows.some((r) => r.length !== T)) fail('logits: every input must have the same number of tokens');
    const flat = new Int32Array(rows.length * T);
    rows.forEach((r, i) => flat.set(r, i * T));
    return guard(this._wasm, () => this._h.logits(flat, rows.length));
  }
  probabilities(input, { temperature = 1, forbidden = [] } = {}) {
    const ids = this._ids(input);
    return guard(this._wasm, () => this._h.probabilities(ids, temperature, Int32Array.from(forbidden)));
  }
  attention(input) {
    const ids = this._ids(input);
    const f = parseFigure(guard(this._wasm, () => this._h.attention(ids)));
    return { tokens: this.decode(ids), layers: layersOf(f, 'layer'), rollout: f.arrays.rollout ?? null, logits: f.arrays.logits };
  }
  sorterAttention(digits) {
    const d = digitsOf(digits);
    const f = parseFigure(guard(this._wasm, () => this._h.sorterAttention(d)));
    return {
      input: f.values.input, output: f.values.output, correct: f.values.correct,
      encoder: layersOf(f, 'encoder'), decoderSelf: layersOf(f, 'decoderSelf'), cross: layersOf(f, 'cross'),
      rollout: f.arrays.rollout,
    };
  }
  saliency(digits) {
    const d = digitsOf(digits);
    const f = parseFigure(guard(this._wasm, () => this._h.saliency(d)));
    return { output: f.values.output, saliency: f.arrays.saliency };
  }
  // Story and toy models: per position, how much each input word's embedding moves the logit of the word
  // the model would write there (rows sum to one).
  tokenSaliency(input) {
    const ids = this._ids(input);
    const f = parseFigure(guard(this._wasm, () => this._h.tokenSaliency(ids)));
    return { tokens: this.decode(ids), written: this.decode(f.values.written), saliency: f.arrays.saliency };
  }
  // Story and toy models: what the residual stream entering each block (row 0: the embeddings) and leaving
  // the last predicts through the final norm and output layer; the last row is the model's own prediction.
  logitLens(input, { masked = [], top = 5 } = {}) {
    const ids = this._ids(input);
    const f = parseFigure(guard(this._wasm, () => this._h.logitLens(ids, Int32Array.from(masked), top)));
    const word = (id) => (id < 0 ? null : this.vocabulary[id]);
    return { words: this.decode(ids), input: this.decode(f.values.input), targets: f.values.targets.map(word),
      topWords: f.values.topWords.map((row) => row.map((ws) => ws.map(word))), probs: f.arrays.probs, targetProb: f.arrays.targetProb, targetRank: f.values.targetRank };
  }
  // Token models: activation patching of `corrupted` with the clean run's heads and residuals, for the
  // probability of `target` (a word or id; default: the clean run's likeliest) at `position` (default: last).
  patching({ clean, corrupted, position = -1, target = -1 } = {}) {
    const a = this._ids(clean), b = this._ids(corrupted);
    const t = typeof target === 'string' ? this.vocabulary.indexOf(target) : target;
    if (!Number.isInteger(t) || (typeof target === 'string' && t < 0)) fail(`patching: '${target}' is not a word of this model`);
    const { values: v, arrays } = parseFigure(guard(this._wasm, () => this._h.patching(a, b, position, t)));
    return { tokens: this.decode(a), corruptedTokens: this.decode(b), position: v.position, target: this.vocabulary[v.target], clean: v.clean, corrupted: v.corrupted, ...arrays };
  }
  // Sorter: activation patching of every cross-attention head, per output step (which head carries which digit).
  sorterPatching(clean, corrupted) {
    const f = parseFigure(guard(this._wasm, () => this._h.sorterPatching(digitsOf(clean), digitsOf(corrupted))));
    return { answer: f.values.answer, clean: f.values.clean, corrupted: f.values.corrupted, ...f.arrays };
  }
  sortDigits(digits) {
    const r = this.sorterAttention(digits);
    return { input: r.input, output: r.output, correct: r.correct };
  }
  toyGuesses() {
    return parseJson(guard(this._wasm, () => this._h.toyGuesses()));
  }
  undiffuseCensus({ count = 1000, steps = 20, seed = 0 } = {}) {
    return parseJson(guard(this._wasm, () => this._h.undiffuseCensus(count, steps, seed)));
  }
  write(options = {}) {
    // The write request is the one input the core reads in camelCase (topK), as the page sends it.
    return parseJson(guard(this._wasm, () => this._h.write(JSON.stringify(options))));
  }
  parameters() {
    return parseJson(guard(this._wasm, () => this._h.parameters()));
  }
  // One parameter by its name ('embed.weight'), copied out: {data: Float32Array, shape}.
  parameter(name) {
    return guard(this._wasm, () => this._h.parameter(String(name)));
  }
  // Every parameter of another model or run in memory, copied in by name (names and shapes are checked
  // first; on an error nothing changes). A run keeps its optimizer state.
  copyWeightsFrom(other) {
    if (!(other instanceof Model)) fail('copyWeightsFrom needs a Model or Run of this module');
    guard(this._wasm, () => this._h.copyWeightsFrom(other._h));
  }
  // Every parameter copied into `target` (a Model or Run of this module) through readFloats: the page keeps
  // a CPU copy of a model that trains on WebGPU for its views and for saving checkpoints.
  async snapshotTo(target) {
    if (!(target instanceof Model) || target._wasm !== this._wasm) fail('snapshotTo needs a Model or Run of this module');
    target.setWeights(await this.readWeights(), this.vocabulary);
    return target;
  }
  // Every parameter, copied out on every device (read asynchronously on WebGPU): [{name, shape, data}].
  async readWeights() {
    const blocks = JSON.parse(guard(this._wasm, () => this._h.parameterBlocks()));
    const weights = [];
    for (const b of blocks) weights.push({ name: b.name, shape: b.shape, data: await readFloats(this._wasm, this.device, b) });
    return weights;
  }
  // Parameters as readWeights gives them, of a model with `vocabulary` (default: this one's), copied in by
  // name: every name, shape and the vocabulary are checked first, and on an error nothing changes.
  setWeights(weights, vocabulary = this.vocabulary) {
    guard(this._wasm, () => this._h.loadWeights(Array.isArray(weights) ? weights : fail('setWeights needs [{name, shape, data}]'), JSON.stringify(vocabulary)));
  }
  // The checkpoint's bytes; a model on WebGPU is read asynchronously: readCheckpoint().
  checkpoint() {
    if (this.device === 'webgpu') fail('checkpoint() cannot read a model on the GPU synchronously: use await readCheckpoint()');
    return guard(this._wasm, () => this._h.checkpoint());
  }
  // The same on every device: the tensors that lie on the device (weights, optimizer moments) read through
  // readFloats, the file written by the core from them.
  async readCheckpoint() {
    const blocks = JSON.parse(guard(this._wasm, () => this._h.checkpointBlocks()));
    const read = [];
    for (const b of blocks) read.push(await readFloats(this._wasm, this.device, b));
    return guard(this._wasm, () => this._h.checkpointRead(read));
  }
}

// `using model = ...` (explicit resource management) frees the handle as delete() does. Defined only where
// the runtime has Symbol.dispose (Node 20 does; older browsers do not), never polyfilled onto Symbol.
if (typeof Symbol.dispose === 'symbol') Model.prototype[Symbol.dispose] = Model.prototype.delete;

// A StepResult from the core's totals of some steps (the bindings' step and finishChunk), timed `seconds`.
function stepResult(t, seconds = t.seconds) {
  return {
    losses: t.losses, step: t.step, lr: t.lr, seconds, skipped: t.skipped, skippedSteps: t.skippedSteps,
    tokensPerSecond: seconds > 0 ? t.tokens / seconds : 0,
    gflopsPerSecond: seconds > 0 ? (t.flops / seconds) * 1e-9 : 0,
  };
}

class Run extends Model {
  constructor(handle, wasm) {
    super(handle, wasm);
    this.trainConfig = parseJson(guard(wasm, () => handle.trainConfigJson()));
    this.task = this.trainConfig.task;
  }

  get stepsDone() {
    return this._h.stepsDone();
  }
  train(n = 1) {
    return stepResult(guard(this._wasm, () => this._h.train(n)));
  }
  // n steps queued without a read; their step log read once afterwards (readFloats) and settled: the
  // core's totals as train(n) gives them (seconds: from queueing to the read), and each step's stats.
  async trainChunk(n = 1) {
    if (!Number.isInteger(n)) fail(`trainChunk: n must be an integer, got ${n}`);
    const start = performance.now();
    const log = guard(this._wasm, () => this._h.startChunk(n));
    const rows = await readFloats(this._wasm, this.device, log);
    const { steps, totals } = guard(this._wasm, () => this._h.finishChunk(rows));
    return { ...stepResult(totals, (performance.now() - start) / 1000), stats: steps };
  }
  validationLoss() {
    return guard(this._wasm, () => this._h.validationLoss());
  }
  evaluate(seed = 123) {
    return parseJson(guard(this._wasm, () => this._h.evaluate(seed)));
  }
  // The parameters of a checkpoint's bytes (a Model opened for the moment, copied in, released).
  loadWeights(bytes) {
    const source = new Model(withBytes(this._wasm, bytes, (p, n) => guard(this._wasm, () => this._wasm.loadModel(p, n))), this._wasm);
    try {
      this.copyWeightsFrom(source);
    } finally {
      source.delete();
    }
  }
  setCausal(causal) {
    guard(this._wasm, () => this._h.setCausal(Boolean(causal)));
    this.config = parseJson(this._h.configJson());
  }
}

// What this version of the wrapper can do, for callers that choose a device before loading. webgpuTraining:
// the WebGPU build places runs on the device (createRun / loadRun default to 'webgpu' there), they train
// with trainChunk and are read asynchronously (snapshotTo, readCheckpoint).
const RUNS_ON_WEBGPU = true;
export const features = Object.freeze({
  webgpuTraining: RUNS_ON_WEBGPU && ['trainChunk', 'snapshotTo', 'readCheckpoint'].every((m) => typeof Run.prototype[m] === 'function'),
});
