// A run trained by the native CLI, opened in the page: its checkpoint carries the loss of every step (the
// CLI holds a Session, as the page's worker does), so the toy panel draws the CLI's curve at once, with
// the average the CLI's log gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { ROOT, withLab, waitForModule, waitForViews, panelState } from './lab-browser.mjs';

const CLI = process.env.TINYFORMER_CLI ?? path.join(ROOT, 'build', 'native', 'cli', 'tinyformer');
const BUILT = existsSync(CLI) && existsSync(path.join(ROOT, 'web', 'wasm', 'tinyformer-st.wasm'));
const SLOT = 'toy-transformer';
const STEPS = 40;

test('a checkpoint trained by the CLI draws its loss curve in the page',
  { skip: !BUILT && 'needs build/native/cli/tinyformer and bash scripts/build-wasm.sh' }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-cli-curve-'));
    const file = path.join(dir, 'cli-toy.safetensors'), log = path.join(dir, 'cli-toy.jsonl');
    const r = spawnSync(CLI, ['train', '--task', 'toy', '--steps', String(STEPS), '--seed', '2', '--save', file,
      '--log', log, '--no-eval'], { encoding: 'utf8', timeout: 300_000 });
    assert.equal(r.status, 0, r.stderr);
    const losses = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l).loss);
    assert.equal(losses.length, STEPS);
    try {
      await withLab({}, async ({ page, errors, lab }) => {
        await page.goto(`${lab.url}#B`);
        await waitForModule(page);
        await waitForViews(page, 'B');
        await page.locator(`.trainer[data-slot="${SLOT}"] input[type=file]`).setInputFiles(file);
        await page.waitForFunction((s) => document.querySelector(`.trainer[data-slot="${s}"]`).dataset.saved, SLOT, { timeout: 120_000 })
          .catch(async (e) => assert.fail(`${e.message}; the panel says: ${await page.locator(`.trainer[data-slot="${SLOT}"] .status`).textContent()}`));
        const chart = page.locator(`.trainer[data-slot="${SLOT}"]`).locator('xpath=..').locator('.chart');
        await page.waitForFunction((n) => [...document.querySelectorAll('.chart')].some((c) => c.dataset.steps === String(n)), STEPS, { timeout: 60_000 });
        assert.equal(await chart.getAttribute('data-steps'), String(STEPS), 'every step the CLI trained is on the curve');
        assert.match(await chart.locator('.chart-legend').textContent(), /MyTransformer/);
        const mean = losses.reduce((a, b) => a + b, 0) / STEPS;  // the chart's 100-step window holds them all
        const state = await panelState(page, SLOT);
        assert.equal(state.step, STEPS);
        assert.ok(Math.abs(state.loss - mean) <= 1e-6 * mean, `the panel's average ${state.loss}, the CLI's ${mean}`);
        assert.deepEqual(errors, []);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
