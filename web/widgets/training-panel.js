// One training run on the page: start / pause / resume / stop, live step, loss, tokens/s, GFLOP/s and
// threads, a progress bar and the loss curve on a shared LossChart. Its settings (kept in the URL) are a
// RunSettings (run-settings.js); where the run is kept (saves in IndexedDB, a diverged run the core refuses
// to save, checkpoint and loss-log files) is its RunSaves (run-saves.js). The worker does the work.
import { Msg } from '../shared/protocol.js';
import { RunSaves } from './run-saves.js';
import { RunSettings } from './run-settings.js';
import { el, button, showError, fmt } from './ui.js';
import { timelineScrubber } from './timeline.js';

// A training run is saved every 2 s, or every 20 saves' time where a save is slow (a large model), so a
// reload or a closed tab loses a few seconds of steps at most while saving takes 5 % of the time at most
// (the worker's share of other requests stays in its budget: README, live views).
const AUTOSAVE_MS = 2000;
const AUTOSAVE_SHARE = 20;

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
    this.saves = new RunSaves(this);
    this.node = el('div', { class: 'trainer', dataset: { slot: options.slot } });
    ctx.models.addEventListener('worker-restart', (event) => this.saves.afterRestart(event.detail.resume.includes(options.slot)));
    ctx.storage.addEventListener('forget', () => this.saves.markSaved(null));
    window.addEventListener('beforeunload', (event) => {
      if (!this.saves.unsaved()) return;
      event.preventDefault();
      event.returnValue = 'This tab has training that is not saved.';  // browsers without preventDefault here
    });
  }

  // Builds the controls from the course defaults, then restores a saved run if there is one.
  async init() {
    const [defaults, bounds] = await Promise.all([
      this.ctx.client.request(Msg.DEFAULT_CONFIG, { task: this.o.task, kind: this.o.kind }),
      this.ctx.client.request(Msg.TRAIN_BOUNDS, {}),
    ]);
    (this.o.overrides || (() => {}))(defaults);
    this.settings = new RunSettings({ name: this.o.name, keys: this.o.fields, urlKey: this.o.urlKey, defaults, bounds }, {
      report: (error) => (error ? showError(this.status, error) : (this.status.replaceChildren(), this.status.classList.remove('error'))),
      changed: (key) => key === 'steps' && this.setState(this.state),
    });
    this.render();
    await this.saves.restore({ resumeTraining: true });
  }

  render() {
    const settings = this.settings.render();
    const saves = this.saves;
    this.buttons = {
      start: button('Start', () => this.start(), { class: 'primary' }),
      pause: button('Pause', () => this.pause()),
      resume: button('Resume', () => this.resume()),
      stop: button('Stop', () => this.stop()),
      download: button('Download .safetensors', () => saves.download()),
      downloadTimeline: button('Download with its timeline', () => saves.download({ timeline: true })),
      lossLog: button('Save the loss log (.jsonl)', () => saves.downloadLog()),
      upload: button('Upload .safetensors…', () => this.filePicker.click()),
    };
    this.filePicker = el('input', { type: 'file', accept: '.safetensors', hidden: true, 'aria-label': 'checkpoint file' });
    this.filePicker.addEventListener('change', () => saves.upload(this.filePicker.files[0]));
    this.stats = el('dl', { class: 'stats' });
    this.progress = el('progress', { max: 1, value: 0, 'aria-label': `${this.o.name} training progress` });
    this.status = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.node.replaceChildren(settings, el('div', { class: 'buttons' }, ...Object.values(this.buttons), this.filePicker),
      this.progress, this.stats, timelineScrubber(this.ctx, this.o.slot, this.o.name), this.status);
    this.showStats({});
    this.setState(this.state);
  }

  config() {
    return this.settings.config();
  }

  targetSteps() {
    return this.settings.targetSteps();
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
      b.download.disabled = b.downloadTimeline.disabled = state === 'empty';
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
      ['time left', this.timeLeft()], ['saved', this.saves.savedStep === null ? 'not yet' : `step ${this.saves.savedStep}`],
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
      this.saves.clearPoison();
      this.saves.newRun();
      this.clearLosses();
      this.stepsDone = 0;
      this.lastProgress = null;  // nothing of the run before stays on show while the first steps run
      this.status.textContent = `New run: ${info.parameters.toLocaleString('en')} parameters.`;
      this.setState('starting', info);
      this.showStats({});
      await this.saves.store();
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
      if (this.ctx.client.restarts === restarts) await this.saves.store();
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
    this.ctx.models.set(this.o.slot, { stepsDone: p.step, workerOtherSeconds: p.otherSeconds, workerSnapshotSeconds: p.snapshotSeconds, timeline: p.timeline });
    this.showStats(p);
    this.buttons.lossLog.disabled = false;
    if (performance.now() - this.saves.lastSave > Math.max(AUTOSAVE_MS, AUTOSAVE_SHARE * this.saves.saveMs)) this.saves.store();
  }

  async pause() {
    this.askToEnd('pause');
    await this.guard(() => this.ctx.client.request(Msg.PAUSE, { slot: this.o.slot }));
  }

  async stop() {
    if (this.state === 'paused') {
      this.setState('stopped');
      await this.saves.store();
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

  // The loss history, with each step's lr and tokens/s where they are known (`log`: [step, {lr, tokens_per_s}]).
  clearLosses(losses = [], log = []) {
    this.losses = Array.from(losses);
    this.log = new Map(log);
    this.o.chart.setLosses(this.o.name, this.losses);
  }
}
