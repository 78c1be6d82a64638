// A run: a Model with its optimizer, data and schedule, trained step by step (train) or in chunks read once
// (trainChunk, the way every device trains), evaluated, and given weights from a checkpoint.
import { fail, guard, readFloats, withBytes } from './calls.js';
import { parseJson } from './json-names.js';
import { Model } from './model.js';

// A StepResult from the core's totals of some steps (the bindings' step and finishChunk), timed `seconds`.
function stepResult(t, seconds = t.seconds) {
  return {
    losses: t.losses, step: t.step, lr: t.lr, seconds, skipped: t.skipped, skippedSteps: t.skippedSteps,
    tokensPerSecond: seconds > 0 ? t.tokens / seconds : 0,
    gflopsPerSecond: seconds > 0 ? (t.flops / seconds) * 1e-9 : 0,
  };
}

export class Run extends Model {
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
