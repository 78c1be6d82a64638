// auto's timing where it is unsure (web/page/device-race.js), over a recording benchmark and an in-memory
// localStorage: a hardware adapter gets WebGPU and the WebAssembly build auto would take timed once, on the
// course's story model, each on a few diffusion steps; the result is kept per adapter and build, so the next
// visit does not time again; a worker that starts on another device is a failed timing; where auto is sure
// (a software adapter, no adapter) nothing is timed. tests/web/device.test.mjs times real workers in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Device } from '../../web/shared/device-choice.js';
import { autoTiming, forgetTiming } from '../../web/page/device-race.js';

const nvidia = { vendor: 'nvidia', architecture: 'ampere', device: '', description: '', isFallbackAdapter: false, type: '' };
const facts = (adapter = nvidia, threads = true) => ({ webgpu: { adapter, device: true, why: null }, gpuBuild: true, gpuTraining: true, threads });

function memoryStorage() {
  const items = new Map();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), removeItem: (k) => items.delete(k) };
}

// A benchmark whose rows say `rates[device]` tokens/s (and start on `startsOn[device]` when given).
function fakeBench(rates, startsOn = {}) {
  const calls = [];
  const bench = async (options) => {
    calls.push(options);
    const [device] = options.devices;
    return [{ device: startsOn[device] || device, causal: false, threads: device === Device.WASM_THREADS ? 4 : 1, tokensPerSecond: rates[device] }];
  };
  return { bench, calls };
}

test('a hardware adapter is timed against the WebAssembly build once, and the result is kept for the next visit', async () => {
  const storage = memoryStorage();
  const { bench, calls } = fakeBench({ [Device.WEBGPU]: 50_000, [Device.WASM_THREADS]: 20_000 });
  const started = [];
  const timing = await autoTiming(facts(), { bench, storage, onStart: (d) => started.push(d) });
  assert.deepEqual(started, [[Device.WEBGPU, Device.WASM_THREADS]]);
  assert.deepEqual(calls.map((c) => [c.devices, c.size, c.steps, c.warmup, c.causal]),
    [[[Device.WEBGPU], 'course', 2, 1, [false]], [[Device.WASM_THREADS], 'course', 2, 1, [false]]]);
  assert.equal(timing.webgpu, 50_000);
  assert.equal(timing.wasm, 20_000);
  assert.equal(timing.wasmLabel, 'WebAssembly, 4 threads');
  assert.ok(Math.abs(timing.at - Date.now()) < 60_000);

  assert.deepEqual(await autoTiming(facts(), { bench, storage, onStart: (d) => started.push(d) }), timing);
  assert.equal(calls.length, 2, 'kept: not timed again');
  assert.equal(started.length, 1);

  await autoTiming(facts({ ...nvidia, architecture: 'ada' }), { bench, storage });
  assert.equal(calls.length, 4, 'another adapter is timed again');
  await autoTiming(facts({ ...nvidia, architecture: 'ada' }, false), { bench, storage });
  assert.deepEqual(calls.at(-1).devices, [Device.WASM_SINGLE], 'not isolated: the single-threaded build is the rival');
  forgetTiming(storage);
  await autoTiming(facts({ ...nvidia, architecture: 'ada' }, false), { bench, storage });
  assert.equal(calls.length, 8, 'forgotten: timed again');
});

test('where auto is sure nothing is timed; a worker that starts elsewhere makes the timing a failure', async () => {
  const { bench, calls } = fakeBench({ [Device.WEBGPU]: 300, [Device.WASM_THREADS]: 80_000 });
  const storage = memoryStorage();
  assert.equal(await autoTiming(facts({ ...nvidia, vendor: 'google', architecture: 'swiftshader' }), { bench, storage }), null);
  assert.equal(await autoTiming({ ...facts(), gpuBuild: false }, { bench, storage }), null);
  assert.equal(calls.length, 0);

  const elsewhere = fakeBench({ [Device.WASM_THREADS]: 80_000 }, { [Device.WEBGPU]: Device.WASM_THREADS });
  const failed = await autoTiming(facts(), { bench: elsewhere.bench, storage });
  assert.equal(failed.error, 'the WebGPU worker started on WebAssembly, threads instead');
  const thrown = await autoTiming(facts({ ...nvidia, description: 'another' }), {
    bench: async () => { throw new Error('the WebGPU device was lost'); }, storage,
  });
  assert.equal(thrown.error, 'the WebGPU device was lost');
  const unkept = await autoTiming(facts(), { bench: elsewhere.bench, storage: null });
  assert.equal(unkept.error, 'the WebGPU worker started on WebAssembly, threads instead', 'no storage: timed, not kept');
});
