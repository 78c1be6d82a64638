// Shared pieces of the lab's browser tests: the lab server (scripts/serve.mjs, with or without cross-origin
// isolation), Debian's Chromium driven by playwright-core with a fresh profile, a log of console errors,
// waiting for the wasm module, and screenshots under test-artifacts/web/.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { startServer } from '../../scripts/serve.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'web');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// TF_WEB_NO_ISOLATION=1 runs the tests that do not ask for a build on the single-threaded one.
export async function startLab({ isolation = !process.env.TF_WEB_NO_ISOLATION, dir = path.join(ROOT, 'web') } = {}) {
  const server = await startServer({ port: 0, host: '127.0.0.1', isolation, dir });
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

// Chromium on the machine's GPU through Vulkan (the flags headless Chromium on Linux needs for a hardware
// WebGPU adapter; the GPU's Vulkan driver must be installed), or with the GPU off, where WebGPU has only its
// software adapter (SwiftShader). TF_CHROMIUM_GPU=vulkan chooses the first for every browser test
// (scripts/gpu-check.sh).
export const GPU_FLAGS = Object.freeze({
  vulkan: ['--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan', '--use-angle=vulkan', '--disable-vulkan-surface',
    '--ignore-gpu-blocklist'],
  off: ['--disable-gpu'],
});

// A browser context with a profile of its own (IndexedDB survives reloads inside it, not across tests).
// webgpu: WebGPU is offered to http://127.0.0.1 pages (the software adapter, unless gpu is 'vulkan').
export async function launch({ width = 1280, height = 800, webgpu = false, gpu = process.env.TF_CHROMIUM_GPU || 'off' } = {}) {
  if (!GPU_FLAGS[gpu]) throw new Error(`gpu must be one of ${Object.keys(GPU_FLAGS).join(', ')}, got ${gpu}`);
  const profile = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, viewport: { width, height },
    args: ['--headless', '--no-sandbox', ...GPU_FLAGS[gpu], '--disable-background-networking', '--no-first-run',
      ...(webgpu ? ['--enable-unsafe-webgpu'] : [])],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

// Linux gives every session (autogroup) an equal CPU share, and playwright starts Chromium in a session of
// its own: its two threads then measure the machine's other sessions. Chromium gets this process's autogroup
// nice value (raise it with `echo -15 > /proc/self/autogroup` in the measuring shell, see the README);
// a measuring script calls it after launch().
// Returns what Chromium's autogroup says, or why it was left alone.
export function shareAutogroup() {
  let nice;
  try {
    nice = /nice (-?\d+)/.exec(readFileSync('/proc/self/autogroup', 'utf8'))[1];
  } catch {
    return 'no autogroups here';
  }
  if (nice === '0') return 'nice 0 (not raised)';
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid || !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')) continue;
      writeFileSync(`/proc/${pid}/autogroup`, nice);
      return readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim();
    } catch (e) {
      return `left alone (${e.code ?? e.message})`;
    }
  }
  return 'no Chromium child found';
}

// A page that records console errors and uncaught exceptions in `errors`, and in `failedRequests` every
// request of the page and its workers that failed or was aborted, or was answered with an error status.
export async function openPage(context) {
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  const failedRequests = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`exception: ${e.message}`));
  page.on('requestfailed', (r) => failedRequests.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) failedRequests.push(`${r.request().method()} ${r.url()}: ${r.status()}`);
  });
  return { page, errors, failedRequests };
}

// Waits until the worker has loaded the wasm module; returns what the page says about it. The WebGPU build
// compiles every pipeline while it loads: about 20 s on the software adapter of a busy 2-core machine.
export async function waitForModule(page) {
  await page.waitForFunction(() => document.body.dataset.build, null, { timeout: 180_000 });
  return page.evaluate(() => ({
    build: document.body.dataset.build, crossOriginIsolated: window.crossOriginIsolated,
    module: window.lab.module, banner: document.getElementById('module-status').textContent,
  }));
}

// Waits until no card of the visible section shows a progress bar (its views have drawn).
export async function waitForViews(page, section, timeout = 120_000) {
  await page.waitForFunction((id) => {
    const s = document.getElementById(`section-${id}`);
    return s && !s.hidden && s.querySelectorAll('.card').length > 0 && s.querySelectorAll('.card > .status progress').length === 0;
  }, section, { timeout });
}

export async function screenshot(page, name) {
  await mkdir(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// A trainer panel's state, step and window-average loss (data attributes the panel keeps).
export function panelState(page, slot) {
  return page.evaluate((s) => {
    const p = document.querySelector(`.trainer[data-slot="${s}"]`);
    return p && { state: p.dataset.state, step: Number(p.dataset.step), loss: Number(p.dataset.loss), saved: p.dataset.saved };
  }, slot);
}

// Waits until the panel of `slot` is in `state` (any state when absent) with at least `minStep` steps.
export async function waitForPanel(page, slot, { state, minStep = 0 } = {}, timeout = 180_000) {
  await page.waitForFunction(([s, st, min]) => {
    const p = document.querySelector(`.trainer[data-slot="${s}"]`);
    return p && (!st || p.dataset.state === st) && Number(p.dataset.step) >= min;
  }, [slot, state, minStep], { timeout });
}

export const panelButton = (page, slot, name) => page.locator(`.trainer[data-slot="${slot}"] button`, { hasText: name });

// A run training with a save behind it: starts the panel's run, pauses it after `minStep` steps, waits for
// that save, resumes it and waits for `ahead` more steps. Returns the saved step.
export async function trainingAfterASave(page, slot, { minStep = 100, ahead = 50 } = {}) {
  await panelButton(page, slot, 'Start').click();
  await waitForPanel(page, slot, { state: 'training', minStep });
  await panelButton(page, slot, 'Pause').click();
  await waitForPanel(page, slot, { state: 'paused' });
  await page.waitForFunction((s) => {
    const p = document.querySelector(`.trainer[data-slot="${s}"]`);
    return p.dataset.saved === p.dataset.step;
  }, slot);
  const saved = (await panelState(page, slot)).step;
  await panelButton(page, slot, 'Resume').click();
  await waitForPanel(page, slot, { state: 'training', minStep: saved + ahead });
  return saved;
}

// A local text server with HTTP Range support and CORS, counting requests (the corpus tests' "internet").
// `chunks` > 1 sends the body in that many pieces `delayMs` apart, so a progress bar can be seen.
export async function startTextServer(text, { chunks = 1, delayMs = 0 } = {}) {
  const body = Buffer.from(text, 'utf8');
  const log = [];
  const server = createServer(async (req, res) => {
    log.push({ method: req.method, url: req.url, range: req.headers.range });
    const cors = {
      'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Range',
      'Access-Control-Expose-Headers': 'Content-Range, Content-Length', 'Cross-Origin-Resource-Policy': 'cross-origin',
    };
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    if (!req.url.startsWith('/stories.txt')) return res.writeHead(404, cors).end('no such file');
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range || '');
    const start = m ? Number(m[1]) : 0;
    const end = m && m[2] ? Math.min(Number(m[2]), body.length - 1) : body.length - 1;
    const part = body.subarray(start, end + 1);
    const headers = { ...cors, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': part.length, 'Accept-Ranges': 'bytes' };
    if (m) headers['Content-Range'] = `bytes ${start}-${end}/${body.length}`;
    res.writeHead(m ? 206 : 200, headers);
    const size = Math.ceil(part.length / chunks);
    for (let at = 0; at < part.length; at += size) {
      res.write(part.subarray(at, at + size));
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    }
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { url: `${base}/stories.txt`, base, log, close: () => new Promise((r) => server.close(r)) };
}

// One browser test's setup and teardown: a text server when `corpus` text is given (with `textServer`'s
// options), the lab server and a fresh browser (`launchOptions`); body({page, errors, failedRequests, lab,
// corpus, browser}) runs in a new page, and everything is closed after it, whatever happened.
export async function withLab({ corpus, textServer = {}, launchOptions } = {}, body) {
  const text = corpus === undefined ? null : await startTextServer(corpus, textServer);
  const lab = await startLab();
  const browser = await launch(launchOptions);
  try {
    const { page, errors, failedRequests } = await openPage(browser.context);
    await body({ page, errors, failedRequests, lab, corpus: text, browser });
  } finally {
    await browser.close();
    await lab.close();
    if (text) await text.close();
  }
}

// A few hundred kilobytes of simple stories for the corpus tests.
export function smallStories(count = 400) {
  const names = ['lily', 'tom', 'mia', 'ben', 'sue'], things = ['ball', 'kite', 'cat', 'box', 'tree'];
  const out = [];
  for (let i = 0; i < count; i++) {
    const n = names[i % names.length], t = things[(i * 3) % things.length];
    out.push(`Once upon a time, ${n} had a ${t}. ${n} played with the ${t} every day. One day, the ${t} was lost. ` +
      `${n} looked and looked. "Where is my ${t}?" ${n} said. Then ${n} found it under the bed. ${n} was happy.`);
  }
  return out.join('\n<|endoftext|>\n');
}
