// One training run on the page: its settings (kept in the URL), start / pause / resume / stop, live step,
// loss, tokens/s, GFLOP/s and threads, a progress bar, the loss curve on a shared LossChart, automatic
// checkpoints in IndexedDB (restored on reload or after a worker restart: the run resumes where it was; a
// run the core refuses to save, having diverged, is reported with the last good save offered), download / upload
// of .safetensors checkpoints with their loss history (one trained by the CLI on a GPU is used at once: its
// settings show in the fields; before any story text is chosen it loads as weights only, its vocabulary
// being in the file) and the loss log as JSON Lines with the CLI's --log fields. The worker does the work.
import { Msg } from '../shared/protocol.js';
import { store } from '../page/store.js';
import { readSetting, writeSetting } from '../page/url-state.js';
import { el, button, field, intOf, readField, showError, fmt, saveFile } from './ui.js';

// A training run is saved every 2 s, or every 20 saves' time where a save is slow (a large model), so a
// reload or a closed tab loses a few seconds of steps at most while saving takes 5 % of the time at most
// (the worker's share of other requests stays in its budget: README, live views).
const AUTOSAVE_MS = 2000;
const AUTOSAVE_SHARE = 20;
const REFUSALS = ['skipped-step', 'not-finite'];  // TinyformerError kinds: the core refused a diverged run

// Settings the panel can show: label, where the value lives in a TrainConfig, input kind.
const FIELDS = {
  dim: { label: 'dim', get: (c) => c.model.dim, set: (c, v) => (c.model.dim = v), min: 2, step: 2 },
  heads: { label: 'heads', get: (c) => c.model.heads, set: (c, v) => (c.model.heads = v), min: 1 },
  layers: { label: 'blocks', get: (c) => c.model.layers, set: (c, v) => (c.model.layers = v), min: 1 },
  length: { label: 'max length', get: (c) => c.model.maxLength, set: (c, v) => (c.model.maxLength = v), min: 2 },
  sorterLayers: {
    label: 'blocks (enc = dec)', get: (c) => c.model.encoderLayers,
    set: (c, v) => ((c.model.encoderLayers = v), (c.model.decoderLayers = v)), min: 1,
  },
  // The maxima of steps, batch and lr are the core's (TrainConfig::validate): a field says so as it is changed.
  steps: { label: 'steps', get: (c) => c.steps, set: (c, v) => (c.steps = v), min: 1, max: 100_000_000 },
  lr: { label: 'learning rate', get: (c) => Number(c.lr.toPrecision(6)), set: (c, v) => (c.lr = v), min: 0, max: 10, step: 'any' },
  batch: { label: 'batch', get: (c) => c.batch, set: (c, v) => (c.batch = v), min: 1, max: 65536 },
  seed: { label: 'seed', get: (c) => c.seed, set: (c, v) => (c.seed = v), min: 0 },
  causal: { label: 'causal (left to right)', kind: 'checkbox', get: (c) => c.model.causal, set: (c, v) => (c.model.causal = v) },
  rotary: { label: 'rotary positions', kind: 'checkbox', get: (c) => c.model.rotary, set: (c, v) => (c.model.rotary = v) },
};

// A field's value within its own bounds, else a readable error naming them (the same on a change and at
// Start); the input is marked invalid until it is right. Whole numbers but for a field of step 'any'
// (the learning rate: a number strictly between its bounds).
function fieldValue(key, input) {
  const f = FIELDS[key];
  if (input.type !== 'number') return readField(input);
  if (f.step !== 'any') return intOf(input, f.label, f.min, f.max ?? 2 ** 31);
  const v = readField(input);
  if (!(v > f.min && v < f.max)) {
    input.setAttribute('aria-invalid', 'true');
    throw new Error(`${f.label} must be a number above ${f.min} and below ${f.max}`);
  }
  input.removeAttribute('aria-invalid');
  return v;
}

// Seconds as the reader says them: "40 s", "12 min 5 s", "1 h 25 min".
function duration(seconds) {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export class TrainingPanel {
  // options: slot, name (legend), task, kind, fields, overrides (changes to the course defaults), urlKey,
  // chart (LossChart), needsCorpus, causalRequired (uploads), adjustConfig(config) and afterCreate(info)
  // (course C10: a run that starts from another model's weights).
  constructor(ctx, options) {
    this.ctx = ctx;
    this.o = options;
    this.state = 'empty';  // empty | starting | training | paused | done | stopped | loaded (weights only)
    this.losses = [];
    this.log = new Map();  // step -> {lr, tokens_per_s} of the chunk it was in (steps trained in this tab)
    this.lastSave = 0;
    this.savedStep = null;  // the step of the run as last saved, null when nothing of it is saved
    this.poison = null;     // {step, why} while the core refuses to save the run in memory (it diverged)
    this.node = el('div', { class: 'trainer', dataset: { slot: options.slot } });
    ctx.models.addEventListener('worker-restart', (event) => this.afterRestart(event.detail.resume.includes(options.slot)));
    ctx.storage.addEventListener('forget', () => this.markSaved(null));
    window.addEventListener('beforeunload', (event) => {
      if (!this.unsaved()) return;
      event.preventDefault();
      event.returnValue = 'This tab has training that is not saved.';  // browsers without preventDefault here
    });
  }

  // Training happened since the last save (a closing tab would lose it).
  unsaved() {
    if (this.poison) return false;  // nothing of a diverged run is worth keeping
    if (this.state === 'empty' || this.state === 'loaded') return false;  // nothing trained here (a file's weights)
    return this.state === 'training' || (this.stepsDone > 0 && this.stepsDone !== this.savedStep);
  }

  // The step last saved shows in the stats (a run training on WebGPU saves between two chunks of steps).
  markSaved(step) {
    this.savedStep = step;
    if (step === null) delete this.node.dataset.saved;
    else this.node.dataset.saved = String(step);
    if (this.stats) this.showStats(this.lastProgress || {});
  }

  // Builds the controls from the course defaults, then restores a saved run if there is one.
  async init() {
    const defaults = await this.ctx.client.request(Msg.DEFAULT_CONFIG, { task: this.o.task, kind: this.o.kind });
    (this.o.overrides || (() => {}))(defaults);
    this.defaults = defaults;
    this.render();
    await this.restore({ resumeTraining: true });
  }

  render() {
    this.inputs = {};
    const settings = el('fieldset', { class: 'settings' }, el('legend', {}, `${this.o.name}: settings`));
    for (const key of this.o.fields) {
      const f = FIELDS[key];
      const fromUrl = readSetting(`${this.o.urlKey}.${key}`);
      const base = f.get(this.defaults);
      const value = fromUrl === null ? base : f.kind === 'checkbox' ? fromUrl === '1' : Number(fromUrl);
      const { wrap, input } = field(f.label, { kind: f.kind || 'number', value, min: f.min, max: f.max, step: f.step, name: key });
      input.addEventListener('change', () => this.settingChanged(key, input));
      this.inputs[key] = input;
      settings.append(wrap);
    }
    this.buttons = {
      start: button('Start', () => this.start(), { class: 'primary' }),
      pause: button('Pause', () => this.pause()),
      resume: button('Resume', () => this.resume()),
      stop: button('Stop', () => this.stop()),
      download: button('Download .safetensors', () => this.download()),
      lossLog: button('Save the loss log (.jsonl)', () => this.downloadLog()),
      upload: button('Upload .safetensors…', () => this.filePicker.click()),
    };
    this.filePicker = el('input', { type: 'file', accept: '.safetensors', hidden: true, 'aria-label': 'checkpoint file' });
    this.filePicker.addEventListener('change', () => this.upload(this.filePicker.files[0]));
    this.stats = el('dl', { class: 'stats' });
    this.progress = el('progress', { max: 1, value: 0, 'aria-label': `${this.o.name} training progress` });
    this.status = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.node.replaceChildren(settings, el('div', { class: 'buttons' }, ...Object.values(this.buttons), this.filePicker),
      this.progress, this.stats, this.status);
    this.showStats({});
    this.setState(this.state);
  }

  settingChanged(key, input) {
    let value;
    try {
      value = fieldValue(key, input);
    } catch (error) {
      showError(this.status, error);
      return;
    }
    this.status.replaceChildren();
    this.status.classList.remove('error');
    const shown = input.type === 'checkbox' ? (value ? '1' : '0') : value;
    const base = FIELDS[key].get(this.defaults);
    writeSetting(`${this.o.urlKey}.${key}`, shown, input.type === 'checkbox' ? (base ? '1' : '0') : base);
    if (key === 'steps') this.setState(this.state);
  }

  // The TrainConfig the settings describe (throws a readable error for a bad value).
  config() {
    const c = structuredClone(this.defaults);
    for (const [key, input] of Object.entries(this.inputs)) FIELDS[key].set(c, fieldValue(key, input));
    return c;
  }

  targetSteps() {
    const steps = this.inputs.steps ? readField(this.inputs.steps) : this.defaults.steps;
    return Number.isFinite(steps) && steps >= 1 ? Math.floor(steps) : this.defaults.steps;
  }

  setState(state, info = {}) {
    this.state = state;
    const b = this.buttons;
    if (b) {
      b.start.disabled = state === 'training' || state === 'starting';
      b.start.textContent = state === 'empty' ? 'Start' : 'New run';
      b.pause.disabled = state !== 'training';
      b.stop.disabled = state !== 'training' && state !== 'paused';
      b.resume.disabled = !(state === 'paused' || (state === 'done' && this.stepsDone < this.targetSteps()));
      b.download.disabled = state === 'empty';
      b.lossLog.disabled = this.losses.length === 0;
      b.upload.disabled = state === 'training' || state === 'starting';
      this.node.dataset.state = state;
    }
    this.ctx.models.set(this.o.slot, { state, stepsDone: this.stepsDone, ...info });
  }

  showStats(p) {
    const avg = this.o.chart.lastAverage(this.o.name);
    const items = [
      ['step', this.stepsDone == null ? '–' : `${this.stepsDone} / ${this.targetSteps()}`],
      [`loss (last ${this.o.chart.window})`, fmt(avg, 4)], ['tokens/s', fmt(p.tokensPerSecond, 3)],
      ['GFLOP/s', fmt(p.gflopsPerSecond, 3)], ['threads', p.threads ?? this.ctx.module?.threads ?? '–'],
      ['time left', this.timeLeft()], ['saved', this.savedStep === null ? 'not yet' : `step ${this.savedStep}`],
    ];
    if (p.skippedSteps !== undefined) items.push(['skipped steps', String(p.skippedSteps)]);
    this.stats.replaceChildren(...items.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]));
    this.node.dataset.loss = avg === null ? '' : String(avg);
    this.node.dataset.step = String(this.stepsDone ?? 0);
    this.progress.max = this.targetSteps();
    this.progress.value = this.stepsDone ?? 0;
  }

  async guard(work) {
    this.status.classList.remove('error');
    try {
      return await work();
    } catch (error) {
      showError(this.status, error);
      return undefined;
    }
  }

  async start() {
    await this.guard(async () => {
      const config = this.o.adjustConfig ? this.o.adjustConfig(this.config()) : this.config();
      if (this.o.needsCorpus) await this.ctx.corpus.ready();
      let info = await this.ctx.client.request(Msg.CREATE_RUN, { slot: this.o.slot, config });
      if (this.o.afterCreate) info = await this.o.afterCreate(info);
      this.clearPoison();
      this.clearLosses();
      this.stepsDone = 0;
      this.lastProgress = null;  // nothing of the run before stays on show while the first steps run
      this.status.textContent = `New run: ${info.parameters.toLocaleString('en')} parameters.`;
      this.setState('starting', info);
      this.showStats({});
      await this.store();
      await this.train();
    });
  }

  async resume() {
    this.status.replaceChildren();
    await this.guard(() => this.train());
  }

  async train() {
    this.setState('training');
    this.started = { at: performance.now(), step: this.stepsDone ?? 0 };
    const restarts = this.ctx.client.restarts;
    try {
      const result = await this.ctx.client.request(Msg.TRAIN, { slot: this.o.slot, until: this.targetSteps() },
        { onProgress: (p) => this.onProgress(p) });
      this.stepsDone = result.step ?? this.stepsDone;
      if (this.asked) this.status.textContent = `${this.asked === 'stop' ? 'Stopped' : 'Paused'} at step ${this.stepsDone}.`;
      this.setState(result.state === 'finished' ? 'done' : result.state);
    } catch (error) {
      this.setState('paused');
      throw error;
    } finally {
      this.asked = null;
      this.showStats(this.lastProgress || {});
      if (this.ctx.client.restarts === restarts) await this.store();
    }
  }

  onProgress(p) {
    const first = p.step - p.losses.length + 1;
    p.losses.forEach((v, i) => this.log.set(first + i, { lr: p.lr, tokens_per_s: p.tokensPerSecond }));
    for (const v of p.losses) this.losses.push(v);
    this.o.chart.addLosses(this.o.name, p.losses);
    this.stepsDone = p.step;
    this.lastProgress = p;
    // Live views show the step they drew and keep their share of the worker's time in bounds.
    this.ctx.models.set(this.o.slot, { stepsDone: p.step, workerOtherSeconds: p.otherSeconds });
    this.showStats(p);
    this.buttons.lossLog.disabled = false;
    if (performance.now() - this.lastSave > Math.max(AUTOSAVE_MS, AUTOSAVE_SHARE * (this.saveMs ?? 0))) this.store();
  }

  async pause() {
    this.askToEnd('pause');
    await this.guard(() => this.ctx.client.request(Msg.PAUSE, { slot: this.o.slot }));
  }

  async stop() {
    if (this.state === 'paused') {
      this.setState('stopped');
      await this.store();
      return;
    }
    this.askToEnd('stop');
    await this.guard(() => this.ctx.client.request(Msg.STOP, { slot: this.o.slot }));
  }

  // The worker ends a run between two chunks of steps, which can take seconds: the panel says it is on its
  // way at once, and the buttons wait.
  askToEnd(what) {
    this.asked = what;
    this.status.textContent = `${what === 'stop' ? 'Stopping' : 'Pausing'} after the steps under way…`;
    this.buttons.pause.disabled = this.buttons.stop.disabled = true;
  }

  // Time left at the rate measured since this training began (steps per second, the first chunk included).
  timeLeft() {
    if (this.state !== 'training' || !this.started || !(this.stepsDone > this.started.step)) return this.state === 'training' ? 'measuring…' : '–';
    const rate = (this.stepsDone - this.started.step) / ((performance.now() - this.started.at) / 1000);
    return duration((this.targetSteps() - this.stepsDone) / rate);
  }

  // Saves the run (checkpoint bytes and loss history) so a reload resumes it. The core refuses a run that
  // diverged (right after a skipped step, or with NaN or infinity in it): that is reported with a way back
  // to the last good save. A failed save (a full quota) is said in the panel and the storage line; the run
  // in memory goes on.
  async store() {
    const began = (this.lastSave = performance.now());
    await this.guard(async () => {
      let bytes, step;
      try {
        ({ bytes, step } = await this.ctx.client.request(Msg.CHECKPOINT, { slot: this.o.slot }));
      } catch (error) {
        if (!REFUSALS.includes(error.kind)) throw error;
        this.poison = { step: this.stepsDone ?? 0, why: error.message };
        await this.diverged();
        return;
      }
      step ??= this.stepsDone ?? 0;  // a model loaded as weights only: the step its file says
      this.clearPoison();
      try {
        await store.put('runs', this.o.slot, {
          bytes, step, losses: Float32Array.from(this.losses), log: [...this.log], state: this.state, savedAt: Date.now(),
        });
      } catch (error) {
        this.showNotSaved(this.ctx.storage.failed(`${this.o.name} at step ${step}`, error));
        return;
      }
      this.saveMs = performance.now() - began;
      this.markSaved(step);
      this.node.querySelector('.not-saved')?.remove();
      this.ctx.storage.saved();
    });
  }

  showNotSaved(message) {
    this.node.querySelector('.not-saved')?.remove();
    this.node.append(el('p', { class: 'notice error not-saved', role: 'alert' }, message));
  }

  // The run holds NaN or infinity, or its loss became so: it is not saved; the last good save (if any) is
  // one click away.
  async diverged() {
    const { step, why } = this.poison;
    const saved = await store.get('runs', this.o.slot).catch(() => null);
    this.node.dataset.diverged = String(step);
    const back = saved ? button(`Go back to the last good checkpoint (step ${saved.step})`, () => this.restore()) : '';
    this.showNotSaved(`The run diverged at step ${step} (${why}), so it was not saved. ` +
      (saved ? 'Go back to the last good checkpoint, or start a new run with a smaller learning rate.'
        : 'Start a new run with a smaller learning rate.'));
    this.node.querySelector('.not-saved').append(' ', back);
  }

  // A new run, a restored one or an uploaded one starts clean.
  clearPoison() {
    this.poison = null;
    this.node.querySelector('.not-saved')?.remove();
    delete this.node.dataset.diverged;
  }

  // A restarted worker holds no run: the last save comes back (or the panel says the run was lost); `resume`
  // trains it on (it was training on WebGPU when the device failed).
  async afterRestart(resume) {
    const message = this.status.textContent;
    const restored = await this.restore();
    if (restored && resume && this.state === 'paused') {
      this.status.append(' Training goes on from there.');
      await this.guard(() => this.train());
    }
    if (restored === false && this.state !== 'empty') {
      this.stepsDone = undefined;
      this.setState('empty');
      this.showStats({});
      this.status.textContent = `${message} Nothing of this run was saved yet: start it again.`;
    }
  }

  // Loads the saved run into the worker; false when there is none. `resumeTraining` (a page load): a run
  // that was training when the page went away trains on, as a reload should; after a worker restart the
  // caller decides.
  async restore({ resumeTraining = false } = {}) {
    const saved = await store.get('runs', this.o.slot).catch(() => null);
    if (!saved) return false;
    const note = this.status.classList.contains('error') ? `${this.status.textContent} ` : '';
    // A model saved as weights only (uploaded before any story text) comes back so, without the text.
    const weightsOnly = saved.state === 'loaded';
    return this.guard(async () => {
      this.clearPoison();
      if (this.o.needsCorpus && !weightsOnly) {
        this.status.textContent = `A saved run (step ${saved.step}) waits for the story text…`;
        await this.ctx.corpus.ready();
      }
      const info = await this.ctx.client.request(Msg.LOAD_RUN, { slot: this.o.slot, bytes: saved.bytes, weightsOnly });
      this.clearLosses(saved.losses, saved.log);
      this.stepsDone = info.stepsDone ?? saved.step;
      const state = !info.isRun ? 'loaded' : ['stopped', 'done'].includes(saved.state) ? saved.state
        : this.stepsDone >= this.targetSteps() ? 'done' : 'paused';
      this.status.textContent = `${note}Restored the run saved at step ${this.stepsDone}.`;
      this.markSaved(saved.step);
      this.setState(state, info);
      this.showStats({});
      if (resumeTraining && saved.state === 'training' && state === 'paused') {
        this.status.append(' Training goes on from there.');
        this.guard(() => this.train());  // not awaited: the page goes on loading while it trains
      }
      return true;
    });
  }

  // The loss history, with each step's lr and tokens/s where they are known (`log`: [step, {lr, tokens_per_s}]).
  clearLosses(losses = [], log = []) {
    this.losses = Array.from(losses);
    this.log = new Map(log);
    this.o.chart.setLosses(this.o.name, this.losses);
  }

  async download() {
    await this.guard(async () => {
      const { bytes, step } = await this.ctx.client.request(Msg.CHECKPOINT, { slot: this.o.slot });
      // The module's checkpoint carries the run's loss history itself (a typed part of the run in the core).
      saveFile(new Blob([bytes], { type: 'application/octet-stream' }), `${this.o.slot}${step !== null ? `-step${step}` : ''}.safetensors`);
    });
  }

  // One JSON object per step, as the CLI's --log writes them: step, loss, lr, tokens_per_s (the last two
  // for steps trained on this page, kept with its saves; an uploaded file's history has its losses alone).
  downloadLog() {
    const lines = this.losses.map((loss, i) => JSON.stringify({ step: i + 1, loss, ...this.log.get(i + 1) }));
    saveFile(new Blob([lines.join('\n') + '\n'], { type: 'application/jsonl' }), `${this.o.slot}-loss.jsonl`);
  }

  async upload(file) {
    this.filePicker.value = '';
    if (!file) return;
    await this.guard(async () => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const info = await this.ctx.client.request(Msg.INSPECT, { bytes: bytes.slice() });
      this.checkKind(info, file.name);
      // Story runs train on the chosen text; before there is one the file still loads, as weights only.
      const weightsOnly = Boolean(this.o.needsCorpus && this.ctx.corpus.state.status !== 'ready');
      const loaded = await this.ctx.client.request(Msg.LOAD_RUN, { slot: this.o.slot, bytes, weightsOnly });
      this.clearPoison();
      this.clearLosses(info.losses);  // the loss curve the file carries (empty when it has none)
      this.showSettings(info);
      this.stepsDone = loaded.stepsDone ?? info.step;
      this.status.textContent = `Loaded ${file.name}: ${loaded.parameters.toLocaleString('en')} parameters, step ${info.step}` +
        (loaded.isRun ? ' (training can go on).' : weightsOnly && info.resumable
          ? ' as weights only, with its own vocabulary: look inside it and write with it. To train it on, choose the story text first and upload it again.'
          : ' (weights only: look inside it and write with it).');
      this.setState(loaded.isRun ? (this.stepsDone >= this.targetSteps() ? 'done' : 'paused') : 'loaded', loaded);
      this.showStats({});
      await this.store();
    });
  }

  // The fields show the loaded file's settings (and keep them in the URL), so what is shown is what runs.
  showSettings(info) {
    const c = structuredClone(this.defaults);
    c.model = { ...c.model, ...info.config };
    if (info.train) Object.assign(c, info.train, { model: c.model });
    for (const [key, input] of Object.entries(this.inputs)) {
      const value = FIELDS[key].get(c);
      if (value === undefined) continue;
      if (input.type === 'checkbox') input.checked = Boolean(value);
      else input.value = String(value);
      this.settingChanged(key, input);
    }
  }

  checkKind(info, name) {
    const kind = info.config.kind;
    const want = this.o.kind || (this.o.task === 'sort' ? 'sorter' : 'transformer');
    const task = info.task || (info.train && info.train.task);
    if (kind !== want || (task && task !== this.o.task)) {
      throw new Error(`${name} holds a ${kind}${task ? ` trained on ${task}` : ''}; this panel needs a ${want} for ${this.o.task}`);
    }
    if (this.o.causalRequired !== undefined && info.config.causal !== this.o.causalRequired) {
      throw new Error(`${name} is ${info.config.causal ? 'a causal' : 'a diffusion'} model; load it in the ${info.config.causal ? 'left-to-right' : 'diffusion'} panel`);
    }
  }
}

