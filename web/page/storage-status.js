// The header's storage line: how much the saved runs and corpora take of what the browser allows
// (navigator.storage.estimate), whether the browser promised to keep them (persist, asked at the first save,
// when there is something worth keeping: some browsers ask the reader), a button that forgets
// them all, and the last failed save (a full quota) said plainly in an alert while the run goes on in
// memory. Events: 'forget' after the saved data was cleared (panels then know nothing is saved).
import { askPersistence, store, storageEstimate, storageFailure } from './store.js';
import { button, el } from '../widgets/ui.js';
import { TIMELINE_BYTES, TIMELINE_MAX } from '../shared/timeline-thinning.js';

const megabytes = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;

export class StorageStatus extends EventTarget {
  constructor() {
    super();
    this.text = el('span', { class: 'storage-text' }, 'Saved runs: …');
    this.alert = el('div', { class: 'notice error storage-alert', role: 'alert', hidden: true });
    this.forgetButton = button('Forget saved runs and corpus', () => this.forget());
    this.node = el('div', { id: 'storage-status', class: 'module-status' }, this.text, this.forgetButton, this.alert);
  }

  start() {
    return this.refresh();
  }

  async refresh() {
    const e = await storageEstimate().catch(() => null);
    if (!e) {
      this.text.textContent = 'Saved runs and corpus: this browser does not say how much storage it allows.';
      return;
    }
    const kept = e.persisted ? 'kept by the browser' : 'the browser may clear them when space is short';
    this.text.textContent = `Saved runs and corpus: ${megabytes(e.usage)} of ${megabytes(e.quota)} (${kept}); ` +
      `each saved run keeps its timeline (${TIMELINE_MAX} snapshots at most) in ${TIMELINE_BYTES / 2 ** 20} MiB at most.`;
    this.node.dataset.usage = String(e.usage);
  }

  // Shows why `what` was not saved; returns the message for the caller's own status line.
  failed(what, error) {
    const message = storageFailure(what, error);
    this.alert.textContent = message;
    this.alert.hidden = false;
    return message;
  }

  async saved() {
    this.alert.hidden = true;
    if (!this.askedToPersist) {
      this.askedToPersist = true;
      await askPersistence().catch(() => false);
    }
    await this.refresh();
  }

  async forget() {
    if (!confirm('Forget every saved run and the saved story text? What is open in this tab stays until it closes.')) return;
    try {
      await store.clear();
      this.alert.hidden = true;
      this.dispatchEvent(new Event('forget'));
      await this.refresh();
      this.text.textContent = `Forgot the saved runs and corpus. ${this.text.textContent}`;
    } catch (error) {
      this.alert.textContent = `Could not forget the saved runs: ${error.message}`;
      this.alert.hidden = false;
    }
  }
}
