#!/usr/bin/env node
// Runs a doctest program linked with the WebGPU backend and Asyncify (build/wasm-st/tests/core_webgpu_tests.js) in Debian's headless
// Chromium with a WebGPU device: serves the program's folder on http://127.0.0.1 (WebGPU needs a secure
// origin; a data: URL gets no adapter), opens a page that requests the adapter and a device with its
// largest storage binding, hands the device in as Module.webgpu and runs main with the given doctest
// arguments (and -nc: no colours). doctest's output streams to this process; the exit code is the program's.
//   node tests/webgpu/run-in-chromium.mjs build/wasm-st/tests/core_webgpu_tests.js -ts=gemm
// Env: TF_WEBGPU_TIMEOUT_S (default 600), TF_WEBGPU_ARENA_MIB (the arena's starting size, default 16: it
// grows from there as the suites need, so they all run across growths), CHROMIUM.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';

const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

// The page: gets a device, then loads the program with Module set up to report back through window.tf*.
function pageHtml(program, args, arenaBytes) {
  return `<!doctype html><meta charset="utf-8"><title>WebGPU doctest</title><script>
(async () => {
  const report = (kind, text) => window.tfReport(kind, String(text));
  try {
    const adapter = navigator.gpu && (await navigator.gpu.requestAdapter());
    if (!adapter) return report('fail', 'no WebGPU adapter (navigator.gpu.requestAdapter() gave none)');
    const limit = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
    const device = await adapter.requestDevice({
      requiredLimits: { maxStorageBufferBindingSize: limit, maxBufferSize: limit } });
    const info = adapter.info || {};
    report('out', 'WebGPU adapter: ' + [info.vendor, info.architecture, info.description].filter(Boolean).join(' '));
    window.Module = {
      webgpu: device, webgpuArenaBytes: ${arenaBytes}, arguments: ${JSON.stringify(['-nc', ...args])},
      print: (t) => report('out', t), printErr: (t) => report('err', t),
      onExit: (code) => report('exit', code), onAbort: (what) => report('fail', 'aborted: ' + what),
    };
    const script = document.createElement('script');
    script.src = ${JSON.stringify(program)};
    document.body.appendChild(script);
  } catch (e) { report('fail', e && e.stack || e); }
})();
</script>`;
}

function serve(dir, html) {
  const server = createServer(async (req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    try {
      const body = name === '/' ? html : await readFile(path.join(dir, path.basename(name)));
      res.writeHead(200, { 'content-type': TYPES[path.extname(name)] || 'text/html' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main() {
  const [program, ...args] = process.argv.slice(2);
  if (!program) throw new Error('usage: run-in-chromium.mjs <program.js> [doctest arguments]');
  const timeout = Number(process.env.TF_WEBGPU_TIMEOUT_S || 600) * 1000;
  const arenaBytes = Number(process.env.TF_WEBGPU_ARENA_MIB || 16) * 1024 * 1024;
  const server = await serve(path.dirname(path.resolve(program)), pageHtml(path.basename(program), args, arenaBytes));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--enable-unsafe-webgpu', '--disable-background-networking', '--no-first-run'],
  });
  let timer;
  try {
    const page = await browser.newPage();
    let finish;
    const done = new Promise((resolve) => { finish = resolve; });
    await page.exposeFunction('tfReport', (kind, text) => {
      if (kind === 'out') process.stdout.write(text + '\n');
      else if (kind === 'err') process.stderr.write(text + '\n');
      else if (kind === 'exit') finish(Number(text));
      else { process.stderr.write(`run-in-chromium: ${text}\n`); finish(1); }
    });
    page.on('pageerror', (e) => {
      if (e.message === 'ExitStatus') return;  // exit() unwinding the stack after the exit code was reported
      process.stderr.write(`run-in-chromium: page error: ${e.stack || e.message}\n`);
      finish(1);
    });
    timer = setTimeout(() => { process.stderr.write(`run-in-chromium: timed out after ${timeout / 1000} s\n`); finish(124); }, timeout);
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    return await done;
  } finally {
    clearTimeout(timer);
    await browser.close();
    server.close();
  }
}

process.exitCode = await main();
