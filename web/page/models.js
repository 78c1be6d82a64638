// What the page knows about the models in the worker's slots (config, steps done, training state), with a
// 'change' event so the views that look inside a model refresh when it is trained, restored or loaded.
export class Models extends EventTarget {
  constructor() {
    super();
    this.map = new Map();
  }

  get(slot) {
    return this.map.get(slot) || null;
  }

  set(slot, info) {
    this.map.set(slot, { ...this.map.get(slot), ...info });
    this.dispatchEvent(new CustomEvent('change', { detail: { slot, info: this.map.get(slot) } }));
  }

  // The worker was replaced: its slots are empty until each panel restores its saved run ('worker-restart');
  // the slots in `resume` (runs that were training when WebGPU failed) train on after their restore.
  workerRestarted(resume = []) {
    this.dispatchEvent(new CustomEvent('worker-restart', { detail: { resume } }));
  }

  // Whether the model in `slot` is ready to look at (there, and not in the middle of training).
  isReady(slot) {
    const info = this.get(slot);
    return Boolean(info) && !['training', 'starting', 'empty'].includes(info.state);
  }

  // Calls `listener(info)` whenever the model in `slot` becomes ready to look at.
  onReady(slot, listener) {
    this.addEventListener('change', (event) => {
      if (event.detail.slot === slot && this.isReady(slot)) listener(event.detail.info);
    });
  }
}
