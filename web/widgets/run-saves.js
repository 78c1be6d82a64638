// Where a training panel's run is kept: automatic saves in IndexedDB (checkpoint bytes and loss history,
// restored on reload or after a worker restart), a diverged run that the core refuses to save (reported,
// with the last good save one click away), and files: download / upload of .safetensors checkpoints with
// their loss history (one trained by the CLI is used at once: its settings show in the fields; before any
// story text is chosen it loads as weights only, its vocabulary being in the file) and the loss log as JSON
// Lines with the CLI's --log fields. A saved run keeps its timeline too (timeline-saves.js), and a file
// downloaded with its timeline brings it back. It works on its panel (run state, status line, loss curve).
import { Msg } from '../shared/protocol.js';
import { store, storageFailure } from '../page/store.js';
import { el, button, saveFile } from './ui.js';
import { TimelineSaves } from './timeline-saves.js';

const REFUSALS = ['skipped-step', 'not-finite'];  // TinyformerError kinds: the core refused a diverged run

export class RunSaves {
  constructor(panel) {
    this.panel = panel;
    this.lastSave = 0;
    this.saveMs = 0;        // how long the last save took: a slow one (a large model) makes them rarer
    this.savedStep = null;  // the step of the run as last saved, null when nothing of it is saved
    this.poison = null;     // {step, why} while the core refuses to save the run in memory (it diverged)
    this.timeline = new TimelineSaves(panel.o.slot, { store, request: (...a) => panel.ctx.client.request(...a) });
    this.runId = null;      // the saved run's id: its timeline's snapshots are stored under it
    this.timelineRefused = null;  // the run whose timeline storage refused (not tried again)
  }

  // A new run (started or uploaded) in the panel: its timeline is stored apart from the last one's.
  newRun() {
    this.runId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    this.panel.node.querySelector('.timeline-not-saved')?.remove();
  }

  // Training happened since the last save (a closing tab would lose it).
  unsaved() {
    const p = this.panel;
    if (this.poison) return false;  // nothing of a diverged run is worth keeping
    if (p.state === 'empty' || p.state === 'loaded') return false;  // nothing trained here (a file's weights)
    return p.state === 'training' || (p.stepsDone > 0 && p.stepsDone !== this.savedStep);
  }

  // The step last saved shows in the stats (a run training on WebGPU saves between two chunks of steps).
  markSaved(step) {
    const p = this.panel;
    this.savedStep = step;
    if (step === null) delete p.node.dataset.saved;
    else p.node.dataset.saved = String(step);
    if (p.stats) p.showStats(p.lastProgress || {});
  }

  // Saves the run (checkpoint bytes and loss history) so a reload resumes it. The core refuses a run that
  // diverged (right after a skipped step, or with NaN or infinity in it): that is reported with a way back
  // to the last good save. A failed save (a full quota) is said in the panel and the storage line; the run
  // in memory goes on.
  async store() {
    const p = this.panel;
    this.lastSave = performance.now();
    await p.guard(async () => {
      let bytes, step, readMs;
      try {
        ({ bytes, step, readMs } = await p.ctx.client.request(Msg.CHECKPOINT, { slot: p.o.slot }));
      } catch (error) {
        if (!REFUSALS.includes(error.kind)) throw error;
        this.poison = { step: p.stepsDone ?? 0, why: error.message };
        await this.diverged();
        return;
      }
      step ??= p.stepsDone ?? 0;  // a model loaded as weights only: the step its file says
      this.clearPoison();
      const record = {
        bytes, step, losses: Float32Array.from(p.losses), log: [...p.log], state: p.state, savedAt: Date.now(), runId: this.runId,
      };
      const written = performance.now();
      try {
        if (await this.timeline.roomFor(() => store.put('runs', p.o.slot, record))) {
          this.showTimelineNote('Storage was full: the saved timelines went to make room for this run.');
        }
      } catch (error) {
        this.showNotSaved(p.ctx.storage.failed(`${p.o.name} at step ${step}`, error));
        return;
      }
      // A save's own cost paces the autosaves: the checkpoint's reading and writing, not the wait for the
      // worker's chunk of steps under way (nor the timeline's snapshots, which wait for it too).
      this.saveMs = readMs + performance.now() - written;
      await this.saveTimeline();
      this.markSaved(step);
      p.node.querySelector('.not-saved')?.remove();
      p.ctx.storage.saved();
    });
  }

  // The run's timeline joins its save: only new snapshots are written, thinned ones deleted.
  async saveTimeline() {
    const p = this.panel;
    const info = p.ctx.models.get(p.o.slot);
    if (!this.runId || this.timelineRefused === this.runId || !info || !info.parameters) return;
    try {
      p.node.dataset.savedTimeline = (await this.timeline.sync(this.runId, info.timeline || [], 4 * info.parameters)).join(' ');
    } catch (error) {
      this.timelineRefused = this.runId;
      delete p.node.dataset.savedTimeline;
      this.showTimelineNote(`${storageFailure(`The timeline of ${p.o.name}`, error)} The run itself is saved.`);
    }
  }

  showTimelineNote(message) {
    this.panel.node.querySelector('.timeline-not-saved')?.remove();
    this.panel.node.append(el('p', { class: 'notice timeline-not-saved', role: 'status' }, message));
  }

  showNotSaved(message) {
    this.panel.node.querySelector('.not-saved')?.remove();
    this.panel.node.append(el('p', { class: 'notice error not-saved', role: 'alert' }, message));
  }

  // The run holds NaN or infinity, or its loss became so: it is not saved; the last good save (if any) is
  // one click away.
  async diverged() {
    const { step, why } = this.poison;
    const saved = await store.get('runs', this.panel.o.slot).catch(() => null);
    this.panel.node.dataset.diverged = String(step);
    const back = saved ? button(`Go back to the last good checkpoint (step ${saved.step})`, () => this.restore()) : '';
    this.showNotSaved(`The run diverged at step ${step} (${why}), so it was not saved. ` +
      (saved ? 'Go back to the last good checkpoint, or start a new run with a smaller learning rate.'
        : 'Start a new run with a smaller learning rate.'));
    this.panel.node.querySelector('.not-saved').append(' ', back);
  }

  // A new run, a restored one or an uploaded one starts clean.
  clearPoison() {
    this.poison = null;
    this.panel.node.querySelector('.not-saved')?.remove();
    delete this.panel.node.dataset.diverged;
  }

  // A restarted worker holds no run: the last save comes back (or the panel says the run was lost); `resume`
  // trains it on (it was training on WebGPU when the device failed).
  async afterRestart(resume) {
    const p = this.panel;
    const message = p.status.textContent;
    const restored = await this.restore();
    if (restored && resume && p.state === 'paused') {
      p.status.append(' Training goes on from there.');
      await p.guard(() => p.train());
    }
    if (restored === false && p.state !== 'empty') {
      p.stepsDone = undefined;
      p.setState('empty');
      p.showStats({});
      p.status.textContent = `${message} Nothing of this run was saved yet: start it again.`;
    }
  }

  // Loads the saved run into the worker; false when there is none. `resumeTraining` (a page load): a run
  // that was training when the page went away trains on, as a reload should; after a worker restart the
  // caller decides.
  async restore({ resumeTraining = false } = {}) {
    const p = this.panel;
    const saved = await store.get('runs', p.o.slot).catch(() => null);
    if (!saved) return false;
    const note = p.status.classList.contains('error') ? `${p.status.textContent} ` : '';
    // A model saved as weights only (uploaded before any story text) comes back so, without the text.
    const weightsOnly = saved.state === 'loaded';
    return p.guard(async () => {
      this.clearPoison();
      if (p.o.needsCorpus && !weightsOnly) {
        p.status.textContent = `A saved run (step ${saved.step}) waits for the story text…`;
        await p.ctx.corpus.ready();
      }
      const info = await p.ctx.client.request(Msg.LOAD_RUN, { slot: p.o.slot, bytes: saved.bytes, weightsOnly });
      this.runId = saved.runId ?? null;
      info.timeline = (this.runId && (await this.timeline.restore(this.runId).catch(() => null))) || info.timeline;
      p.clearLosses(saved.losses, saved.log);
      p.stepsDone = info.stepsDone ?? saved.step;
      const state = !info.isRun ? 'loaded' : ['stopped', 'done'].includes(saved.state) ? saved.state
        : p.stepsDone >= p.targetSteps() ? 'done' : 'paused';
      p.status.textContent = `${note}Restored the run saved at step ${p.stepsDone}.`;
      this.markSaved(saved.step);
      p.setState(state, info);
      p.showStats({});
      if (resumeTraining && saved.state === 'training' && state === 'paused') {
        p.status.append(' Training goes on from there.');
        p.guard(() => p.train());  // not awaited: the page goes on loading while it trains
      }
      return true;
    });
  }

  // timeline: the file carries the run's timeline too (its snapshots under step_<N>/ names).
  async download({ timeline = false } = {}) {
    const p = this.panel;
    await p.guard(async () => {
      const { bytes, step } = await p.ctx.client.request(Msg.CHECKPOINT, { slot: p.o.slot, timeline });
      // The module's checkpoint carries the run's loss history itself (a typed part of the run in the core).
      const name = `${p.o.slot}${step !== null ? `-step${step}` : ''}${timeline ? '-timeline' : ''}.safetensors`;
      saveFile(new Blob([bytes], { type: 'application/octet-stream' }), name);
    });
  }

  // One JSON object per step, as the CLI's --log writes them: step, loss, lr, tokens_per_s (the last two
  // for steps trained on this page, kept with its saves; an uploaded file's history has its losses alone).
  downloadLog() {
    const p = this.panel;
    const lines = p.losses.map((loss, i) => JSON.stringify({ step: i + 1, loss, ...p.log.get(i + 1) }));
    saveFile(new Blob([lines.join('\n') + '\n'], { type: 'application/jsonl' }), `${p.o.slot}-loss.jsonl`);
  }

  async upload(file) {
    const p = this.panel;
    p.filePicker.value = '';
    if (!file) return;
    await p.guard(async () => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const info = await p.ctx.client.request(Msg.INSPECT, { bytes: bytes.slice() });
      this.checkKind(info, file.name);
      // Story runs train on the chosen text; before there is one the file still loads, as weights only.
      const weightsOnly = Boolean(p.o.needsCorpus && p.ctx.corpus.state.status !== 'ready');
      const loaded = await p.ctx.client.request(Msg.LOAD_RUN, { slot: p.o.slot, bytes, weightsOnly });
      this.clearPoison();
      this.newRun();
      p.clearLosses(info.losses);  // the loss curve the file carries (empty when it has none)
      p.settings.show(info);
      p.stepsDone = loaded.stepsDone ?? info.step;
      p.status.textContent = `Loaded ${file.name}: ${loaded.parameters.toLocaleString('en')} parameters, step ${info.step}` +
        (loaded.timeline.length ? `, with its timeline of ${loaded.timeline.length} steps` : '') +
        (loaded.isRun ? ' (training can go on).' : weightsOnly && info.resumable
          ? ' as weights only, with its own vocabulary: look inside it and write with it. To train it on, choose the story text first and upload it again.'
          : ' (weights only: look inside it and write with it).');
      p.setState(loaded.isRun ? (p.stepsDone >= p.targetSteps() ? 'done' : 'paused') : 'loaded', loaded);
      p.showStats({});
      await this.store();
    });
  }

  checkKind(info, name) {
    const o = this.panel.o;
    const kind = info.config.kind;
    const want = o.kind || (o.task === 'sort' ? 'sorter' : 'transformer');
    const task = info.task || (info.train && info.train.task);
    if (kind !== want || (task && task !== o.task)) {
      throw new Error(`${name} holds a ${kind}${task ? ` trained on ${task}` : ''}; this panel needs a ${want} for ${o.task}`);
    }
    if (o.causalRequired !== undefined && info.config.causal !== o.causalRequired) {
      throw new Error(`${name} is ${info.config.causal ? 'a causal' : 'a diffusion'} model; load it in the ${info.config.causal ? 'left-to-right' : 'diffusion'} panel`);
    }
  }
}
