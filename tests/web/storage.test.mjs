// Storage in the browser: with a small IndexedDB quota (an init script makes writes past 64 KB abort with
// QuotaExceededError, as a full disk does) the downloaded corpus is still used, a story run still trains
// and says plainly that it was not saved, and its checkpoint can still be downloaded; the storage line
// shows what is used, asks for persistent storage, forgets saved runs and corpus, and a tab with unsaved
// training asks before closing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { withLab, waitForModule, waitForViews, waitForPanel, smallStories } from './lab-browser.mjs';

const QUOTA_BYTES = 64 * 1024;

// Runs in the page before its own scripts: IndexedDB puts that would take the stored total past the quota
// abort their transaction with a QuotaExceededError; navigator.storage.estimate reports the same quota.
function limitStorage(quota) {
  const sizes = new Map();
  const sizeOf = (v) => {
    if (v === null || v === undefined) return 0;
    if (typeof v === 'string') return 2 * v.length;
    if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return v.byteLength;
    if (typeof v === 'object') return Object.values(v).reduce((sum, x) => sum + sizeOf(x), 0);
    return 8;
  };
  const total = () => [...sizes.values()].reduce((a, b) => a + b, 0);
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function limitedPut(value, key) {
    const name = `${this.name}/${key}`;
    const size = sizeOf(value);
    const request = put.call(this, value, key);
    if (total() - (sizes.get(name) || 0) + size > quota) {
      const error = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      Object.defineProperty(this.transaction, 'error', { get: () => error });
      this.transaction.abort();
      window.refusedWrites = (window.refusedWrites || 0) + 1;
    } else {
      sizes.set(name, size);
    }
    return request;
  };
  navigator.storage.estimate = async () => ({ usage: total(), quota });
}

const corpusState = (page) => page.locator('#exp-C-corpus').getAttribute('data-corpus');
const panel = (page, slot) => page.locator(`.trainer[data-slot="${slot}"]`);

test('with the storage quota full the corpus is used, the run trains and says it was not saved', () => withLab({ corpus: smallStories() }, async ({ page, errors, lab, corpus: server, browser }) => {
  await page.addInitScript(limitStorage, QUOTA_BYTES);
  await page.goto(`${lab.url}?corpus=${encodeURIComponent(server.url)}&c1.dim=32&c1.heads=2&c1.layers=1&c1.steps=30#C`);
  await waitForModule(page);
  await page.waitForFunction(() => ['ready', 'failed'].includes(document.querySelector('#exp-C-corpus')?.dataset.corpus), null, { timeout: 30_000 });
  assert.equal(await corpusState(page), 'ready', await page.locator('#exp-C-corpus .output').textContent());
  assert.match(await page.locator('#exp-C-corpus .output').textContent(),
    /The story text was not saved: the browser's storage for this page is full\. Nothing in memory is lost/);
  assert.match(await page.locator('#storage-status [role="alert"]').textContent(), /storage for this page is full/);

  await panel(page, 'stories-diffusion').locator('button', { hasText: 'Start' }).click();
  await waitForPanel(page, 'stories-diffusion', { state: 'done', minStep: 30 });
  await page.waitForFunction(() => /step 30 was not saved/.test(document.querySelector('.trainer[data-slot="stories-diffusion"] .not-saved')?.textContent));
  assert.match(await panel(page, 'stories-diffusion').locator('.not-saved').textContent(),
    /diffusion at step 30 was not saved: the browser's storage for this page is full/);
  assert.equal(await panel(page, 'stories-diffusion').getAttribute('data-saved'), null);
  assert.ok(await page.evaluate(() => window.refusedWrites) >= 2);
  assert.match(await page.locator('#storage-status .storage-text').textContent(), /of 0\.1 MB/);

  // the run in memory is whole: its checkpoint downloads
  const [download] = await Promise.all([page.waitForEvent('download'),
    panel(page, 'stories-diffusion').locator('button', { hasText: 'Download .safetensors' }).click()]);
  const bytes = await readFile(await download.path());
  assert.ok(bytes.length > QUOTA_BYTES, `${bytes.length} bytes`);
  assert.equal(download.suggestedFilename(), 'stories-diffusion-step30.safetensors');
  assert.deepEqual(errors, []);
}));

// Counts the page's requests for persistent storage (the browser's own answer is kept).
function countPersistRequests() {
  const persist = navigator.storage.persist.bind(navigator.storage);
  navigator.storage.persist = () => {
    window.persistRequests = (window.persistRequests || 0) + 1;
    return persist();
  };
}

// The keys of one IndexedDB store of the lab: 'runs' (by slot), 'snapshots' ([slot, run, step]).
const storedKeys = (page, name) => page.evaluate((store) => new Promise((resolve, reject) => {
  const open = indexedDB.open('tinyformer-lab');
  open.onsuccess = () => {
    const request = open.result.transaction(store).objectStore(store).getAllKeys();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  };
}), name);
const savedRuns = (page) => storedKeys(page, 'runs');

// Section B opened with `query`, its panel `slot` started and trained until `until` (waitForPanel's); the panel.
async function trainInB(page, lab, query, slot, until) {
  await page.goto(`${lab.url}?${query}#B`);
  await waitForModule(page);
  await waitForViews(page, 'B');
  const trainer = panel(page, slot);
  await trainer.locator('button', { hasText: 'Start' }).click();
  await waitForPanel(page, slot, until);
  return trainer;
}

test('the storage line shows what is used, forgets saved runs, and unsaved training asks before the tab closes', () => withLab({}, async ({ page, errors, lab, browser }) => {
  await page.addInitScript(countPersistRequests);
  const toy = await trainInB(page, lab, 'b1.steps=100000', 'toy-notalking', { state: 'training', minStep: 100 });
  await toy.locator('button', { hasText: 'Pause' }).click();
  await waitForPanel(page, 'toy-notalking', { state: 'paused' });
  await page.waitForFunction(() => {
    const p = document.querySelector('.trainer[data-slot="toy-notalking"]');
    return p.dataset.saved === p.dataset.step;
  });
  assert.deepEqual(await savedRuns(page), ['toy-notalking']);
  await page.waitForFunction(() => document.querySelector('.trainer[data-slot="toy-notalking"]').dataset.savedTimeline?.startsWith('0 50 100'));
  assert.ok((await storedKeys(page, 'snapshots')).length >= 3, 'the saved run\'s timeline is stored');
  assert.equal(await page.evaluate(() => window.persistRequests), 1, 'persistent storage asked for once, at the first save');
  await page.waitForFunction(() => Number(document.getElementById('storage-status').dataset.usage) > 0);
  assert.match(await page.locator('#storage-status .storage-text').textContent(),
    /^Saved runs and corpus: \d+(\.\d)? MB of \d+(\.\d)? MB \((kept by the browser|the browser may clear them when space is short)\); each saved run keeps its timeline \(40 snapshots at most\) in 64 MiB at most\.$/);

  page.once('dialog', (dialog) => dialog.accept());
  await page.locator('#storage-status button', { hasText: 'Forget saved runs and corpus' }).click();
  await page.waitForFunction(() => /^Forgot the saved runs and corpus/.test(document.querySelector('#storage-status .storage-text').textContent));
  assert.deepEqual(await savedRuns(page), []);
  assert.deepEqual(await storedKeys(page, 'snapshots'), [], 'forgetting the saves forgets their timelines');
  assert.equal(await toy.getAttribute('data-saved'), null);

  // the paused run is no longer saved anywhere: closing the tab asks first
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  assert.equal(dialog.type(), 'beforeunload');
  await dialog.dismiss();
  assert.equal(page.isClosed(), false);
  assert.deepEqual(errors, []);
}));

test('when storage cannot hold a run and its timeline, the run is saved and the timeline said not to be', () => withLab({}, async ({ page, errors, lab }) => {
  // The toy transformer's save takes 200 KB once it trains (weights and Adam's two moments), each snapshot
  // 63 KB: 240 KB hold the run alone.
  await page.addInitScript(limitStorage, 240 * 1024);
  const toy = await trainInB(page, lab, 'b3.steps=100', 'toy-transformer', { state: 'done', minStep: 100 });
  await page.waitForFunction(() => document.querySelector('.trainer[data-slot="toy-transformer"]').dataset.saved === '100');
  assert.match(await toy.locator('.timeline-not-saved').textContent(),
    /^The timeline of MyTransformer was not saved: the browser's storage for this page is full\..* The run itself is saved\.$/);
  assert.deepEqual(await storedKeys(page, 'snapshots'), []);
  assert.equal(await toy.locator('.not-saved').count(), 0, 'the run\'s own save went through');
  assert.equal(await page.locator('.timeline[data-slot="toy-transformer"]').getAttribute('data-steps'), '0 50 100', 'the timeline stays in memory');
  assert.deepEqual(errors, []);
}));
