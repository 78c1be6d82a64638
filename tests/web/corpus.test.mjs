// The story corpus in the browser: fetched from a local test server with a Range request for the first
// 4,000,000 bytes, with a progress bar, kept in IndexedDB so a reload does not fetch again; a failing
// fetch says so plainly and offers the built-in stories. A file that is not text (an image renamed .txt,
// random bytes) is refused with what was seen; a text file's own size is shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withLab, waitForModule, smallStories } from './lab-browser.mjs';

const corpusState = (page) => page.locator('#exp-C-corpus').getAttribute('data-corpus');

test('the corpus is fetched with a Range request and a progress bar, and a reload uses the cached copy', () => withLab({ corpus: smallStories(), textServer: { chunks: 12, delayMs: 250 } }, async ({ page, errors, lab, corpus: server }) => {
  await page.goto(`${lab.url}?corpus=${encodeURIComponent(server.url)}#C`);
  await waitForModule(page);
  const seen = await page.waitForFunction(() => {
    const p = document.querySelector('#exp-C-corpus .output progress');
    return p && p.value > 0 && p.value < p.max && { value: p.value, max: p.max };
  }, null, { timeout: 30_000 });
  const { value, max } = await seen.jsonValue();
  assert.ok(value > 0 && value < max, `progress ${value} / ${max}`);
  await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'ready', null, { timeout: 30_000 });
  const gets = server.log.filter((r) => r.method === 'GET');
  assert.equal(gets.length, 1);
  assert.equal(gets[0].range, 'bytes=0-3999999');
  await page.reload();
  await waitForModule(page);
  await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'ready', null, { timeout: 30_000 });
  assert.match(await page.locator('#exp-C-corpus .output p.ok').textContent(), /kept from an earlier visit/);
  assert.equal(server.log.filter((r) => r.method === 'GET').length, 1, 'the reload fetched again');
  assert.deepEqual(errors, []);
}));

test('a failing fetch says so plainly and offers a dropped file or the built-in stories instead', () => withLab({ corpus: 'unused' }, async ({ page, errors, lab, corpus: server }) => {
  await page.goto(`${lab.url}?corpus=${encodeURIComponent(`${server.base}/missing.txt`)}#C`);
  await waitForModule(page);
  await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'failed', null, { timeout: 30_000 });
  const alert = await page.locator('#exp-C-corpus [role="alert"]').textContent();
  assert.match(alert, /Could not download the stories .*404/);
  assert.equal(await corpusState(page), 'failed');
  const file = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'mine.txt', { type: 'text/plain' }));
    return dt;
  }, smallStories(20));
  await page.dispatchEvent('#exp-C-corpus .dropzone', 'drop', { dataTransfer: file });
  await page.waitForFunction(() => /Using your file mine.txt/.test(document.querySelector('#exp-C-corpus .output p.ok')?.textContent));
  await page.locator('#exp-C-corpus button', { hasText: 'Use the built-in stories' }).click();
  await page.waitForFunction(() => /Using built-in stories/.test(document.querySelector('#exp-C-corpus .output p.ok')?.textContent), null, { timeout: 60_000 });
  assert.deepEqual(errors.filter((e) => !/404 \(Not Found\)/.test(e)), []);
}));

// Drops `bytes` (an array of byte values) on the corpus card as a file named `name`.
async function dropFile(page, name, bytes) {
  const file = await page.evaluateHandle(([n, b]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(b)], n, { type: 'text/plain' }));
    return dt;
  }, [name, bytes]);
  await page.dispatchEvent('#exp-C-corpus .dropzone', 'drop', { dataTransfer: file });
}

// n bytes from a fixed linear congruential sequence: no structure, mostly invalid as UTF-8.
function noise(n, seed = 7) {
  const out = new Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) out[i] = (x = (x * 1103515245 + 12345) % 2 ** 31) >> 23;
  return out;
}

test('a file that is not text is refused, saying what was seen; a text file is used, with its own size', () => withLab({ corpus: 'unused' }, async ({ page, errors, lab, corpus: server }) => {
  await page.goto(`${lab.url}?corpus=${encodeURIComponent(`${server.base}/missing.txt`)}#C`);
  await waitForModule(page);
  await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'failed', null, { timeout: 30_000 });
  const alert = () => page.locator('#exp-C-corpus > .status [role="alert"]').textContent();

  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...noise(247_000 - 8)];
  await dropFile(page, 'picture.txt', png);
  await page.waitForSelector('#exp-C-corpus > .status [role="alert"]');
  assert.match(await alert(), /^picture\.txt is not text: it starts like a PNG image, and \d+ % of its bytes are not valid UTF-8\.$/);
  assert.equal(await corpusState(page), 'failed', 'the image was not taken as the corpus');

  await dropFile(page, 'noise.txt', noise(100_000, 3));
  await page.waitForFunction(() => /^noise\.txt/.test(document.querySelector('#exp-C-corpus > .status [role="alert"]')?.textContent));
  assert.match(await alert(), /^noise\.txt is not text: \d+ % of its bytes are not valid UTF-8 \(the first at byte \d+: 0x[0-9a-f]{2}\)\.$/);
  assert.equal(await corpusState(page), 'failed');

  const text = new TextEncoder().encode(smallStories(1200)).subarray(0, 247_000);
  await dropFile(page, 'mine.txt', Array.from(text));
  await page.waitForFunction(() => /Using your file mine.txt/.test(document.querySelector('#exp-C-corpus .output p.ok')?.textContent));
  assert.equal(await page.locator('#exp-C-corpus .output p.ok').textContent(), 'Using your file mine.txt: 247 KB.');
  assert.deepEqual(errors.filter((e) => !/404 \(Not Found\)/.test(e)), []);
}));
