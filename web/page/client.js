// The page's side of the worker protocol: request() posts {type, id, ...payload} and resolves with the
// reply's result (or rejects with its error); progress messages for the same id go to onProgress.
// A worker that crashes (an uncaught error) or stops answering (silent for `unresponsiveMs` while requests
// wait, pings included) is replaced by a fresh one: its pending requests fail with a message saying so and
// a 'restart' event tells the page to load the module and its saved runs again. A worker whose WebGPU
// device failed says so (DEVICE_FAILED): a 'device-failed' event, on which the page restarts it on wasm.
import { Msg } from '../shared/protocol.js';

const PING_MS = 2_000;
const MAX_RESTARTS = 5;

export class LabClient extends EventTarget {
  constructor(workerUrl = new URL('../worker/worker.js', import.meta.url), { unresponsiveMs = 90_000 } = {}) {
    super();
    this.workerUrl = workerUrl;
    this.unresponsiveMs = unresponsiveMs;
    this.pending = new Map();
    this.nextId = 1;
    this.restarts = 0;
    this.spawn();
    this.watchdog = setInterval(() => this.watch(), PING_MS);
  }

  spawn() {
    const worker = new Worker(this.workerUrl, { type: 'module' });
    this.worker = worker;
    this.answered = false;  // true once this worker has said anything: before that an error means it cannot start
    this.lastHeard = performance.now();
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      if (worker !== this.worker) return;
      const what = event.message || 'an error without a message';
      if (this.answered) this.restart(`crashed (${what})`);
      else this.failAll(new Error(`the lab's worker failed: ${event.message || 'could not start'}`));
    };
  }

  receive(message) {
    this.lastHeard = performance.now();
    this.answered = true;
    if (message.type === Msg.DEVICE_FAILED) {
      this.dispatchEvent(new CustomEvent('device-failed', { detail: message.result }));
      return;
    }
    const entry = this.pending.get(message.id);
    if (!entry) return;
    if (message.type === Msg.PROGRESS) {
      if (entry.onProgress) entry.onProgress(message.result);
      return;
    }
    this.pending.delete(message.id);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(Object.assign(new Error(message.error), message.kind ? { kind: message.kind } : {}));
  }

  // While requests wait, a silent worker is pinged; one silent for unresponsiveMs is replaced.
  watch() {
    if (this.pending.size === 0) return;
    const silent = performance.now() - this.lastHeard;
    if (silent > this.unresponsiveMs) this.restart(`did not answer for ${Math.round(silent / 1000)} s`);
    else if (silent >= PING_MS) this.worker.postMessage({ type: Msg.PING, id: 0 });
  }

  // detail travels with the 'restart' event (the page's fallback to wasm says which runs to resume).
  restart(reason, detail = {}) {
    this.worker.terminate();
    if (this.restarts >= MAX_RESTARTS) {
      this.failAll(new Error(`The lab's worker ${reason} too often; reload the page to start it again.`));
      return;
    }
    this.restarts += 1;
    this.failAll(new Error(`The lab's worker ${reason}; it was restarted, so this request was lost.`));
    this.spawn();
    this.dispatchEvent(new CustomEvent('restart', { detail: { ...detail, reason } }));
  }

  // Ends the worker for good (a benchmark's own worker): its pending requests fail.
  close() {
    clearInterval(this.watchdog);
    this.worker.terminate();
    this.failAll(new Error("the lab's worker was closed"));
  }

  failAll(error) {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) entry.reject(error);
  }

  request(type, payload = {}, { onProgress, transfer = [] } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.lastHeard = performance.now();
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ ...payload, type, id }, transfer);
    });
  }

  call(slot, method, ...args) {
    return this.request(Msg.CALL, { slot, method, args });
  }

  figure(name, options = {}) {
    return this.request(Msg.FIGURE, { name, options });
  }
}
