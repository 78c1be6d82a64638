// What a learner takes home from a run, after a reload too: the loss log keeps every step's lr and
// tokens/s (saved with the run), the loss chart's step axis has whole-number ticks and its loss axis a unit
// (nats), and a heatmap's PNG is named after its card, its model and that model's step, so two models'
// maps do not collide in a downloads folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { withLab, waitForModule, waitForPanel, panelButton } from './lab-browser.mjs';

const PANEL = '.trainer[data-slot="sorter"]';

test('a restored run\'s loss log, whole-step ticks and nats, and PNGs named after their model', () => withLab({}, async ({ page, errors, lab }) => {
  const downloads = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-exports-'));
  try {
    await page.goto(`${lab.url}?d1.steps=30#D`);
    await waitForModule(page);
    await panelButton(page, 'sorter', 'Start').click();
    await waitForPanel(page, 'sorter', { state: 'done', minStep: 30 });
    await page.waitForFunction((p) => document.querySelector(p).dataset.saved === '30', PANEL);
    await page.reload();
    await waitForModule(page);
    await waitForPanel(page, 'sorter', { state: 'done', minStep: 30 });

    const [log] = await Promise.all([page.waitForEvent('download'), panelButton(page, 'sorter', 'Save the loss log').click()]);
    const file = path.join(downloads, log.suggestedFilename());
    await log.saveAs(file);
    const lines = (await readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 30);
    for (const l of lines) {
      assert.deepEqual(Object.keys(l).sort(), ['loss', 'lr', 'step', 'tokens_per_s'], JSON.stringify(l));
      assert.ok(l.lr > 0 && l.tokens_per_s > 0, JSON.stringify(l));
    }

    // The loss chart as the panels draw it, on three steps: ticks at whole steps only, loss in nats.
    const axes = await page.evaluate(async () => {
      const { LossChart } = await import('/widgets/charts.js');
      const chart = new LossChart({ title: 'three steps' });
      document.body.append(chart.container);
      chart.setLosses('run', [3, 2, 1]);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const [x, y] = chart.chart.axes;
      const ticks = chart.chart.axes[0]._splits;
      chart.container.remove();
      return { xLabel: x.label, yLabel: y.label, ticks };
    });
    assert.equal(axes.xLabel, 'step');
    assert.equal(axes.yLabel, 'loss (nats)');
    assert.ok(axes.ticks.length > 0 && axes.ticks.every(Number.isInteger), `step ticks ${axes.ticks}`);

    await page.locator('#exp-D3-D4 canvas').first().waitFor();
    const [png] = await Promise.all([page.waitForEvent('download'), page.locator('#exp-D3-D4 .save-png').first().click()]);
    assert.equal(png.suggestedFilename(), 'D3-D4-sorter-step-30-encoder-L0-head-0.png');
  } finally {
    await rm(downloads, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
}));
