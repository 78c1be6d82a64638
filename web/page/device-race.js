// Where auto is unsure (device-choice.js timingCandidates: a hardware WebGPU adapter, which may be a discrete
// GPU far ahead of WebAssembly or an integrated one behind it), the page times a few steps of the course's
// story model on WebGPU and on the WebAssembly build it would take otherwise, each in a worker of its own
// (the device benchmark's runs), before the lab's worker loads; auto then takes the faster. The result is
// kept per adapter and build in localStorage, so a machine pays for the timing once; the banner can forget it.
import { runBench } from './device-bench.js';
import { DEVICE_LABELS, Device, adapterName, timingCandidates } from '../shared/device-choice.js';

const KEY = 'tinyformer.device-timing';
const WARMUP = 1;
const STEPS = 2;

// facts: the worker's PROBE answer. Returns the timing chooseDevice takes ({webgpu, wasm: tokens/s,
// wasmLabel, at} or {error, at}), or null where auto is sure. onStart(devices) is told before timing starts.
export async function autoTiming(facts, { size = 'course', onStart = () => {}, bench = runBench, storage = localStore() } = {}) {
  const devices = timingCandidates(facts);
  if (!devices) return null;
  const key = `${adapterName(facts.webgpu.adapter)} | ${devices[1]} | ${size}`;
  const kept = readKept(storage, key);
  if (kept) return kept;
  onStart(devices);
  const timing = await timeDevices(devices, size, bench);
  try {
    storage?.setItem(KEY, JSON.stringify({ key, timing }));
  } catch {
    // storage refused (full, or off for this page): the next visit times again
  }
  return timing;
}

export function forgetTiming(storage = localStore()) {
  storage?.removeItem(KEY);
}

function localStore() {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null;  // storage off for this page
  }
}

function readKept(storage, key) {
  try {
    const kept = JSON.parse(storage?.getItem(KEY) || 'null');
    return kept && kept.key === key ? kept.timing : null;
  } catch {
    return null;
  }
}

// Each candidate's tokens/s over STEPS diffusion steps after WARMUP; a failure on either side is the
// timing's error (auto then stays on WebAssembly, and the banner says why).
async function timeDevices([gpu, wasm], size, bench) {
  const rate = async (device) => {
    const [row] = await bench({ devices: [device], size, steps: STEPS, warmup: WARMUP, causal: [false] });
    if (row.device !== device) throw new Error(`the ${DEVICE_LABELS[device]} worker started on ${DEVICE_LABELS[row.device]} instead`);
    return row;
  };
  try {
    const g = await rate(gpu);
    const w = await rate(wasm);
    const wasmLabel = wasm === Device.WASM_THREADS ? `WebAssembly, ${w.threads} threads` : 'WebAssembly, one thread';
    return { webgpu: g.tokensPerSecond, wasm: w.tokensPerSecond, wasmLabel, at: Date.now() };
  } catch (error) {
    return { error: error.message, at: Date.now() };
  }
}
