// The page's side of the worker protocol: request() posts {type, id, ...payload} and resolves with the
// reply's result (or rejects with its error); progress messages for the same id go to onProgress.
import { Msg } from './protocol.js';

export class LabClient {
  constructor(workerUrl = new URL('./worker.js', import.meta.url)) {
    this.worker = new Worker(workerUrl, { type: 'module' });
    this.pending = new Map();
    this.nextId = 1;
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.failAll(new Error(`the lab's worker failed: ${event.message || 'could not start'}`));
    };
  }

  receive(message) {
    const entry = this.pending.get(message.id);
    if (!entry) return;
    if (message.type === Msg.PROGRESS) {
      if (entry.onProgress) entry.onProgress(message.result);
      return;
    }
    this.pending.delete(message.id);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(new Error(message.error));
  }

  failAll(error) {
    for (const entry of this.pending.values()) entry.reject(error);
    this.pending.clear();
  }

  request(type, payload = {}, { onProgress, transfer = [] } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
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
