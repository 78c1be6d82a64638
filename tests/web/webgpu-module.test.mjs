// The wrapper's WebGPU build in headless Chromium (software adapter, --enable-unsafe-webgpu):
// loadTinyformer({webgpu: device}) loads tinyformer-gpu.*, starts the backend's arena on the device and
// reads it back; runs live on the device (trainChunk, readCheckpoint); a device that is gone, or options that cannot be had, fail at load with a message the
// page's fallback rule (web/worker/webgpu-device.js isDeviceFailure) takes for a WebGPU failure. Skips without
// the build in web/wasm/ (scripts/build-wasm.sh lays it out).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';

import { startLab, launch, openPage } from './lab-browser.mjs';

const GPU_BUILD = existsSync(new URL('../../web/wasm/tinyformer-gpu.wasm', import.meta.url));
const skip = !GPU_BUILD && 'no web/wasm/tinyformer-gpu.* (bash scripts/build-wasm.sh)';

async function inChromium(work) {
  const lab = await startLab({ isolation: false });
  const browser = await launch({ webgpu: true });
  try {
    const { page, errors } = await openPage(browser.context);
    // Any document of the lab's origin will do; the wrapper's own URL is the lightest (it has no favicon).
    await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
    await page.goto(`${lab.url}wasm/tinyformer.js`);
    const result = await page.evaluate(work);
    assert.deepEqual(errors, []);
    return result;
  } finally {
    await browser.close();
    await lab.close();
  }
}

// In the page: a device as the worker asks for one (the adapter's buffer limits, for the arena, and
// timestamp-query where it has it).
const DEVICE = `async function newDevice() {
  const adapter = await navigator.gpu.requestAdapter();
  const { maxBufferSize, maxStorageBufferBindingSize } = adapter.limits;
  const requiredFeatures = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
  return adapter.requestDevice({ requiredLimits: { maxBufferSize, maxStorageBufferBindingSize }, requiredFeatures });
}`;

// A toy run on the device beside the same run on the build's CPU backend: 30 steps in chunks, then its
// checkpoint read asynchronously resumes on either device with the losses the CPU run goes on with. Where
// the adapter has timestamp-query, two more steps with kernels timed give every kernel used a GPU time,
// and so does the profiler's gemm row.
test('the WebGPU build places runs on the device: they train in chunks and are read back asynchronously', { skip }, async () => {
  const r = await inChromium(new Function(`return (async () => {
    ${DEVICE}
    const { loadTinyformer } = await import('/wasm/tinyformer.js');
    const lab = await loadTinyformer({ webgpu: await newDevice(), webgpuArenaBytes: 64 << 20 });
    const config = { task: 'toy', seed: 3 };
    const run = lab.createRun(config);
    const cpu = lab.createRun(config, undefined, { device: 'cpu' });
    const gpuLosses = [];
    for (let i = 0; i < 3; ++i) for (const s of (await run.trainChunk(10)).stats) gpuLosses.push(s.loss);
    const cpuLosses = Array.from(cpu.train(30).losses);
    let syncRead = null;
    try { run.checkpoint(); } catch (e) { syncRead = e.message; }
    const bytes = await run.readCheckpoint();
    const onCpu = lab.loadRun(bytes, undefined, { device: 'cpu' });
    const onGpu = lab.loadRun(bytes);
    const answer = { webgpu: lab.webgpu, threaded: lab.threaded, maxThreads: lab.maxThreads, device: run.device,
      cpuDevice: cpu.device, gpuLosses, cpuLosses, syncRead, step: lab.inspectCheckpoint(bytes).step,
      resumedDevices: [onCpu.device, onGpu.device],
      next: { cpu: Array.from(cpu.train(5).losses), onCpu: Array.from(onCpu.train(5).losses),
              onGpu: (await onGpu.trainChunk(5)).stats.map((s) => s.loss) },
      handles: lab.liveHandles() };
    const timed = lab.timeWebgpuKernels(true);
    lab.resetWebgpuCounts();
    const timedLosses = (await onGpu.trainChunk(2)).stats.map((s) => s.loss);
    await lab.webgpuTimesSettled();
    const used = lab.webgpuCounts().pipelines.filter((p) => p.dispatches > 0);
    answer.timing = { offered: (await navigator.gpu.requestAdapter()).features.has('timestamp-query'), timed, timedLosses,
      gpuNs: used.map((p) => p.gpuNs), off: lab.timeWebgpuKernels(false) };
    lab.resetProfile();
    lab.startProfile();
    await onGpu.trainChunk(2);
    lab.stopProfile();
    await lab.webgpuTimesSettled();
    const profile = lab.profile();
    answer.profile = { gpuTimed: profile.gpuTimed === true, gemmMs: profile.stems.find((s) => s.stem === 'gemm')?.gpuMs };
    for (const h of [run, cpu, onCpu, onGpu]) h.delete();
    answer.handlesAfter = lab.liveHandles();
    return answer;
  })()`));
  assert.equal(r.webgpu, true);
  assert.equal(r.threaded, false);
  assert.equal(r.maxThreads, 1);
  assert.equal(r.device, 'webgpu');
  assert.equal(r.cpuDevice, 'cpu');
  assert.deepEqual(r.resumedDevices, ['cpu', 'webgpu']);
  assert.equal(r.gpuLosses.length, 30);
  assert.ok(r.gpuLosses.every(Number.isFinite) && r.gpuLosses[29] < r.gpuLosses[0], `losses fall: ${r.gpuLosses}`);
  const close = (a, b, what) => a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) <= 1e-4 * Math.abs(b[i]) + 1e-6, `${what} step ${i}: ${x} vs ${b[i]}`));
  close(r.gpuLosses, r.cpuLosses, 'WebGPU vs CPU');
  assert.match(r.syncRead, /use await readCheckpoint\(\)/);
  assert.equal(r.step, 30);
  close(r.next.onCpu, r.next.cpu, 'resumed on the CPU');
  close(r.next.onGpu, r.next.cpu, 'resumed on WebGPU');
  assert.equal(r.handlesAfter, r.handles - 4);
  assert.equal(r.timing.timed, r.timing.offered);
  assert.equal(r.timing.off, false);
  assert.ok(r.timing.timedLosses.length === 2 && r.timing.timedLosses.every(Number.isFinite), `${r.timing.timedLosses}`);
  if (r.timing.offered) {
    assert.ok(r.timing.gpuNs.length > 5 && r.timing.gpuNs.every((ns) => Number.isFinite(ns) && ns >= 0), `${r.timing.gpuNs}`);
    assert.ok(r.timing.gpuNs.reduce((a, b) => a + b, 0) > 0, 'the timed kernels took GPU time');
    assert.ok(r.profile.gpuTimed && r.profile.gemmMs > 0, `the profiler's gemm row has its GPU time: ${JSON.stringify(r.profile)}`);
  }
});

test('a lost device, a non-device and threads with WebGPU fail at load, named as WebGPU failures', { skip }, async () => {
  const r = await inChromium(new Function(`return (async () => {
    ${DEVICE}
    const { loadTinyformer } = await import('/wasm/tinyformer.js');
    const { isDeviceFailure } = await import('/worker/webgpu-device.js');
    const failure = (options) => loadTinyformer(options).then(() => null, (e) => ({ name: e.name, message: e.message, fallback: isDeviceFailure(e) }));
    const lost = await newDevice();
    lost.destroy();
    await lost.lost;
    return {
      lost: await failure({ webgpu: lost, webgpuArenaBytes: 1 << 20 }),
      notDevice: await failure({ webgpu: {} }),
      threads: await failure({ webgpu: await newDevice(), threads: true }),
      arena: await failure({ webgpu: await newDevice(), webgpuArenaBytes: 100 }),
    };
  })()`));
  assert.equal(r.lost.name, 'TinyformerError');
  assert.match(r.lost.message, /^the WebGPU build did not start: .+/);
  assert.equal(r.lost.fallback, true);
  assert.deepEqual(r.notDevice, { name: 'TinyformerError', message: 'webgpu must be a GPUDevice (from adapter.requestDevice())', fallback: true });
  assert.deepEqual(r.threads, {
    name: 'TinyformerError', message: 'the WebGPU build is single-threaded: threads must be false or left out with webgpu', fallback: true,
  });
  assert.deepEqual(r.arena, { name: 'TinyformerError', message: 'webgpuArenaBytes must be an integer >= 256, got 100', fallback: true });
});
