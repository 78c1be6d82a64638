// The device choice (web/shared/device-choice.js) over every combination the page can meet: auto takes WebGPU
// only with a hardware adapter, a device and the WebGPU build whose runs train on it, then threads when
// isolated, then one thread; never a software adapter, which a forced choice still takes; where it timed the
// devices, the faster; a forced choice that cannot be had says why, a build still being built too; the adapter's name and the banner's
// device line. And which worker errors send a WebGPU run back to wasm (web/worker/webgpu-device.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Device, adapterName, chooseDevice, describeDevice, isSoftwareAdapter, timingCandidates } from '../../web/shared/device-choice.js';
import { isDeviceFailure, probeWebGpu } from '../../web/worker/webgpu-device.js';

const adapter = { vendor: 'nvidia', architecture: 'ampere', device: '', description: '', isFallbackAdapter: false, type: '' };
const gpu = { adapter, device: {}, why: null };
const swiftshader = { vendor: 'google', architecture: 'swiftshader', device: '', description: '', isFallbackAdapter: true, type: '' };

test('auto takes WebGPU only with an adapter, a device and the WebGPU build', () => {
  assert.deepEqual(chooseDevice(Device.AUTO, { webgpu: gpu, gpuBuild: true, gpuTraining: true, threads: true }), { device: Device.WEBGPU, why: null });
  assert.deepEqual(chooseDevice(Device.AUTO, { webgpu: gpu, gpuBuild: true, gpuTraining: false, threads: true }),
    { device: Device.WASM_THREADS, why: 'WebGPU: this version of the module cannot train on WebGPU yet (no chunked training step)' });
  assert.deepEqual(chooseDevice(Device.AUTO, { webgpu: gpu, gpuBuild: false, threads: true }),
    { device: Device.WASM_THREADS, why: 'WebGPU: this copy of the lab has no WebGPU build of the module (web/wasm/tinyformer-gpu.*)' });
  assert.deepEqual(chooseDevice(Device.AUTO, { webgpu: { adapter, device: null, why: 'requestDevice failed: no' }, gpuBuild: true, gpuTraining: true, threads: true }),
    { device: Device.WASM_THREADS, why: 'WebGPU: requestDevice failed: no' });
  assert.deepEqual(chooseDevice(Device.AUTO, { webgpu: { adapter, device: null, why: null }, gpuBuild: false, threads: false }), {
    device: Device.WASM_SINGLE,
    why: 'WebGPU: this copy of the lab has no WebGPU build of the module (web/wasm/tinyformer-gpu.*); threads: the page is not cross-origin isolated (COOP/COEP headers)',
  });
  assert.deepEqual(chooseDevice(Device.AUTO, { webgpu: null, gpuBuild: true, threads: false }), {
    device: Device.WASM_SINGLE,
    why: 'WebGPU: this browser gives no WebGPU adapter; threads: the page is not cross-origin isolated (COOP/COEP headers)',
  });
});

test('a forced device is used when it can be, and falls down the list with the reason when not', () => {
  assert.equal(chooseDevice(Device.WEBGPU, { webgpu: gpu, gpuBuild: true, gpuTraining: true, threads: false }).device, Device.WEBGPU);
  assert.equal(chooseDevice(Device.WASM_THREADS, { webgpu: gpu, gpuBuild: true, threads: true }).device, Device.WASM_THREADS);
  assert.deepEqual(chooseDevice(Device.WASM_SINGLE, { webgpu: gpu, gpuBuild: true, threads: true }), { device: Device.WASM_SINGLE, why: null });
  assert.deepEqual(chooseDevice(Device.WASM_THREADS, { webgpu: null, gpuBuild: false, threads: false }),
    { device: Device.WASM_SINGLE, why: 'threads: the page is not cross-origin isolated (COOP/COEP headers)' });
  assert.throws(() => chooseDevice('cuda', {}), /device must be one of auto, webgpu, wasm-threads, wasm-single, got cuda/);
});

test('a build still being built (or failed) is passed over with the reason; nothing ready is no device', () => {
  const building = { st: 'ready', mt: 'building', gpu: 'building' };
  assert.deepEqual(chooseDevice(Device.AUTO, { webgpu: gpu, gpuBuild: false, gpuTraining: true, threads: true, builds: building }), {
    device: Device.WASM_SINGLE,
    why: 'WebGPU: the WebGPU build is still being built (reload the page once it is ready); threads: the threaded build is still being built (reload the page once it is ready)',
  });
  // Forced one thread while only the threaded build is ready: threads, saying why.
  assert.deepEqual(chooseDevice(Device.WASM_SINGLE, { threads: true, builds: { st: 'building', mt: 'ready' } }), {
    device: Device.WASM_THREADS, why: 'one thread: the single-threaded build is still being built (reload the page once it is ready)',
  });
  assert.deepEqual(chooseDevice(Device.WASM_THREADS, { threads: true, builds: { st: 'ready', mt: 'failed' } }), {
    device: Device.WASM_SINGLE, why: 'threads: the threaded build failed (build/wasm-background.log says why)',
  });
  assert.deepEqual(chooseDevice(Device.AUTO, { webgpu: null, threads: false, builds: { st: 'building', mt: 'ready' } }), {
    device: null,
    why: 'WebGPU: this browser gives no WebGPU adapter; threads: the page is not cross-origin isolated (COOP/COEP headers); one thread: the single-threaded build is still being built (reload the page once it is ready)',
  });
  // Every build ready, or no builds.json at all: as before.
  for (const builds of [{ st: 'ready', mt: 'ready', gpu: 'ready' }, undefined]) {
    assert.deepEqual(chooseDevice(Device.WASM_SINGLE, { threads: true, builds }), { device: Device.WASM_SINGLE, why: null });
    assert.deepEqual(chooseDevice(Device.AUTO, { webgpu: null, threads: true, builds }),
      { device: Device.WASM_THREADS, why: 'WebGPU: this browser gives no WebGPU adapter' });
  }
});

test('auto never takes a software adapter; a forced WebGPU does, and the banner says it is software', () => {
  const software = [
    swiftshader, { ...swiftshader, isFallbackAdapter: false }, { ...adapter, isFallbackAdapter: true },
    { ...adapter, vendor: 'mesa', architecture: '', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' },
    { ...adapter, vendor: 'mesa', description: 'lavapipe' }, { ...adapter, description: 'Microsoft Basic Render Driver' },
    { ...adapter, type: 'CPU' },
  ];
  for (const a of software) {
    assert.ok(isSoftwareAdapter(a), JSON.stringify(a));
    const facts = { webgpu: { adapter: a, device: {}, why: null }, gpuBuild: true, gpuTraining: true, threads: true };
    assert.deepEqual(chooseDevice(Device.AUTO, facts), {
      device: Device.WASM_THREADS,
      why: `WebGPU: the only adapter, ${adapterName(a)}, is a software one, far slower than WebAssembly: choose WebGPU to train on it anyway`,
    });
    assert.equal(chooseDevice(Device.AUTO, { ...facts, threads: false }).device, Device.WASM_SINGLE);
    assert.deepEqual(chooseDevice(Device.WEBGPU, facts), { device: Device.WEBGPU, why: null });
    assert.equal(timingCandidates(facts), null, 'nothing to time: auto is sure');
  }
  for (const a of [adapter, { ...adapter, vendor: 'intel', architecture: 'gen-12lp' }, { ...adapter, vendor: 'apple', description: 'Apple M2' }]) {
    assert.ok(!isSoftwareAdapter(a), JSON.stringify(a));
  }
  assert.ok(!isSoftwareAdapter(null));
  assert.equal(describeDevice({ device: Device.WEBGPU, adapter: 'google swiftshader', adapterSoftware: true }),
    'WebGPU on google swiftshader (training; a software adapter, far slower than WebAssembly); writing and attention on WebAssembly');
});

test('where auto is unsure it times WebGPU against the WebAssembly build it would take, and takes the faster', () => {
  const facts = { webgpu: gpu, gpuBuild: true, gpuTraining: true, threads: true };
  assert.deepEqual(timingCandidates(facts), [Device.WEBGPU, Device.WASM_THREADS]);
  assert.deepEqual(timingCandidates({ ...facts, threads: false }), [Device.WEBGPU, Device.WASM_SINGLE]);
  assert.equal(timingCandidates({ ...facts, gpuBuild: false }), null);
  assert.equal(timingCandidates({ ...facts, webgpu: { adapter, device: null, why: 'requestDevice failed: no' } }), null);
  const at = Date.UTC(2026, 11, 2);
  const faster = { webgpu: 90_000, wasm: 30_000, wasmLabel: 'WebAssembly, 4 threads', at };
  assert.equal(timingCandidates({ ...facts, timing: faster }), null, 'timed already');
  assert.deepEqual(chooseDevice(Device.AUTO, { ...facts, timing: faster }), {
    device: Device.WEBGPU,
    why: 'WebGPU trained the story step 3.0× as fast as WebAssembly, 4 threads on this machine (90,000 against 30,000 tokens/s, timed 2026-12-02)',
  });
  const slower = { ...faster, webgpu: 12_345.4 };
  assert.deepEqual(chooseDevice(Device.AUTO, { ...facts, timing: slower }), {
    device: Device.WASM_THREADS,
    why: 'WebGPU: it trained the story step slower than WebAssembly, 4 threads on this machine (12,345 against 30,000 tokens/s, timed 2026-12-02)',
  });
  assert.deepEqual(chooseDevice(Device.AUTO, { ...facts, threads: false, timing: { error: 'the WebGPU worker started on WebAssembly, one thread instead', at } }), {
    device: Device.WASM_SINGLE,
    why: 'WebGPU: timing it against WebAssembly failed (the WebGPU worker started on WebAssembly, one thread instead); ' +
      'threads: the page is not cross-origin isolated (COOP/COEP headers)',
  });
  assert.deepEqual(chooseDevice(Device.WEBGPU, { ...facts, timing: slower }), { device: Device.WEBGPU, why: null }, 'a forced choice is not timed');
});

test('the adapter is named by its description, else vendor, architecture and device', () => {
  assert.equal(adapterName(swiftshader), 'google swiftshader');
  assert.equal(adapterName(adapter), 'nvidia ampere');
  assert.equal(adapterName({ ...adapter, description: 'NVIDIA GeForce RTX 4090' }), 'NVIDIA GeForce RTX 4090');
  assert.equal(adapterName({ vendor: '', architecture: '', device: '', description: '' }), 'an unnamed adapter');
  assert.equal(describeDevice({ device: Device.WEBGPU, adapter: 'nvidia ampere', adapterSoftware: false }),
    'WebGPU on nvidia ampere (training); writing and attention on WebAssembly');
  assert.equal(describeDevice({ device: Device.WASM_THREADS, threads: 2, maxThreads: 8 }), 'WebAssembly, 2 of 8 threads');
  assert.equal(describeDevice({ device: Device.WASM_SINGLE }), 'WebAssembly, one thread');
});

test('the probe reports a missing navigator.gpu, a missing adapter and a failed device', async () => {
  assert.deepEqual(await probeWebGpu(undefined), { adapter: null, device: null, why: 'this browser has no navigator.gpu' });
  assert.deepEqual(await probeWebGpu({ requestAdapter: async () => null }),
    { adapter: null, device: null, why: 'the browser gives no WebGPU adapter' });
  const limits = { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 28 };
  let asked = null;
  const failing = {
    info: adapter, limits, features: new Set(),
    requestDevice: async (descriptor) => {
      asked = descriptor;
      throw new Error('out of memory');
    },
  };
  assert.deepEqual(await probeWebGpu({ requestAdapter: async () => failing }),
    { adapter, device: null, why: 'requestDevice failed: out of memory' });
  assert.deepEqual(asked, { requiredLimits: limits, requiredFeatures: [] });
  // Where the adapter offers timestamp-query, the device is asked for it (the profiler's GPU times).
  await probeWebGpu({ requestAdapter: async () => ({ ...failing, features: new Set(['timestamp-query']) }) });
  assert.deepEqual(asked, { requiredLimits: limits, requiredFeatures: ['timestamp-query'] });
  const older = {
    limits, features: new Set(), isFallbackAdapter: true, requestAdapterInfo: async () => ({ vendor: 'v', architecture: 'a', device: 'd', description: 'old' }),
    requestDevice: async () => 'dev',
  };
  assert.deepEqual(await probeWebGpu({ requestAdapter: async () => older }), {
    adapter: { vendor: 'v', architecture: 'a', device: 'd', description: 'old', isFallbackAdapter: true, type: '' }, device: 'dev', why: null,
  });
  const fallback = { ...failing, info: { vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true } };
  assert.deepEqual((await probeWebGpu({ requestAdapter: async () => fallback }, { withDevice: false })).adapter, swiftshader);
  assert.deepEqual(await probeWebGpu({ requestAdapter: async () => failing }, { withDevice: false }), { adapter, device: null, why: null });
});

test('a lost device, GPU memory run out and a shader that fails send a run back to wasm; other errors do not', () => {
  assert.ok(isDeviceFailure(new Error('the WebGPU device was lost: Device was destroyed.')));
  assert.ok(isDeviceFailure(new Error('out of arena memory: 300 MB asked, 12 MB free')));
  assert.ok(isDeviceFailure(new Error('shader layer_norm/layer_norm_forward failed to compile: error: ...')));
  assert.ok(isDeviceFailure('WGSL validation error'));
  assert.ok(!isDeviceFailure(new Error('the loss is not finite at step 12')));
  assert.ok(!isDeviceFailure(new Error('no model in stories-causal yet: train or load one first')));
});
