// The lab loads in Chromium with no console errors and no failed request, cross-origin isolated (threaded
// wasm build) and not (single-threaded build), from web/ as it is and from the static build; every section
// draws its views. The header says what to do first before anything technical; A2 computes a batch's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';

import { build } from '../../scripts/build-page.mjs';
import { startLab, launch, openPage, waitForModule, waitForViews, startTextServer, smallStories } from './lab-browser.mjs';

async function visitEverySection(page) {
  for (const section of ['A', 'B', 'C', 'D', 'E']) {
    await page.evaluate((s) => (location.hash = `#${s}`), section);
    await waitForViews(page, section);
    const errors = await page.$$eval(`#section-${section} .card .status.error`, (nodes) => nodes.map((n) => n.textContent));
    assert.deepEqual(errors, [], `section ${section} shows errors`);
  }
}

async function loads({ isolation, dir }) {
  const corpus = await startTextServer(smallStories());
  const lab = await startLab({ isolation, dir });
  const browser = await launch();
  try {
    const { page, errors, failedRequests } = await openPage(browser.context);
    await page.goto(`${lab.url}?corpus=${encodeURIComponent(corpus.url)}#A`);
    const info = await waitForModule(page);
    const header = await page.$$eval('header > *', (nodes) => nodes.map((n) => n.className || n.tagName));
    assert.ok(header.indexOf('first-steps') >= 0 && header.indexOf('first-steps') < header.indexOf('module-status'), header.join(' '));
    assert.match(await page.locator('.first-steps').textContent(), /^New here\? Start with A, the pieces, then train the toy language in\s+B;/);
    assert.equal(info.crossOriginIsolated, isolation);
    assert.equal(info.build, isolation ? 'threaded' : 'single-threaded', info.banner);
    assert.equal(info.module.threaded, isolation);
    if (isolation) assert.ok(info.module.threads >= 2, `threads: ${info.module.threads}`);
    await visitEverySection(page);
    assert.match(await page.locator('#exp-A2 .facts').textContent(),
      /a batch x of 64 toy sentences of 4 tokenstable\[x\] is \[64, 4, 8\]; sentence 0's rows ✓ are its rows alone/);
    assert.deepEqual(errors, []);
    assert.deepEqual(failedRequests, []);
  } finally {
    await browser.close();
    await lab.close();
    await corpus.close();
  }
}

test('the lab loads cross-origin isolated and runs the threaded build, with no console errors', () => loads({ isolation: true }));

test('the lab loads without isolation and runs the single-threaded build, with no console errors', () => loads({ isolation: false }));

test('the static build (npm run build) works without COOP/COEP headers', async () => {
  const out = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-dist-'));
  try {
    await build(out);
    await loads({ isolation: false, dir: out });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
