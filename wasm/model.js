// A model in wasm memory, which owns its Embind handle (delete() frees it; the module's liveHandles()
// counts what is left): encoding, logits, the views' figures, weights in and out, checkpoints.
import { fail, guard, readFloats } from './calls.js';
import { layersOf, parseFigure, parseJson } from './json-names.js';

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

export class Model {
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
