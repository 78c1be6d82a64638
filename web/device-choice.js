// Which device the lab trains on: auto takes WebGPU when the browser gives an adapter and a device and the
// WebGPU build of the module is laid out (web/wasm/tinyformer-gpu.*), else wasm threads when the page is
// cross-origin isolated, else wasm on one thread. A forced choice that cannot be had falls to the next one
// down, with the reason said. Plain functions over facts, so Node tests them and the worker and page share them.

export const Device = Object.freeze({
  AUTO: 'auto',
  WEBGPU: 'webgpu',
  WASM_THREADS: 'wasm-threads',
  WASM_SINGLE: 'wasm-single',
});

export const DEVICE_LABELS = Object.freeze({
  [Device.AUTO]: 'auto',
  [Device.WEBGPU]: 'WebGPU',
  [Device.WASM_THREADS]: 'WebAssembly, threads',
  [Device.WASM_SINGLE]: 'WebAssembly, one thread',
});

export function isDevice(value) {
  return Object.values(Device).includes(value);
}

// facts: {webgpu: {adapter, device, why} from probeWebGpu, gpuBuild: boolean, gpuTraining: boolean (the
// wrapper's runs train on WebGPU: features.webgpuTraining), threads: boolean (isolated)}.
// Returns {device, why}: why says, when the device is not the one asked for (or auto skipped one), why not.
export function chooseDevice(wanted, facts) {
  if (!isDevice(wanted)) throw new Error(`device must be one of ${Object.values(Device).join(', ')}, got ${String(wanted)}`);
  const skipped = [];
  if (wanted === Device.AUTO || wanted === Device.WEBGPU) {
    const why = webgpuUnusable(facts);
    if (!why) return { device: Device.WEBGPU, why: null };
    skipped.push(`WebGPU: ${why}`);
  }
  if (wanted !== Device.WASM_SINGLE) {
    if (facts.threads) return { device: Device.WASM_THREADS, why: skipped.join('; ') || null };
    skipped.push('threads: the page is not cross-origin isolated (COOP/COEP headers)');
  }
  return { device: Device.WASM_SINGLE, why: wanted === Device.WASM_SINGLE ? null : skipped.join('; ') };
}

function webgpuUnusable({ webgpu, gpuBuild, gpuTraining }) {
  if (!webgpu || !webgpu.adapter) return (webgpu && webgpu.why) || 'this browser gives no WebGPU adapter';
  if (!gpuBuild) return 'this copy of the lab has no WebGPU build of the module (web/wasm/tinyformer-gpu.*)';
  if (!gpuTraining) return 'this version of the module cannot train on WebGPU yet (no chunked training step)';
  if (!webgpu.device) return webgpu.why || 'the adapter gave no device';
  return null;
}

// The adapter in words: its description when the browser gives one, else vendor, architecture and device.
export function adapterName(info) {
  if (!info) return 'an unnamed adapter';
  if (info.description) return info.description;
  const parts = [info.vendor, info.architecture, info.device].filter(Boolean);
  return parts.length ? parts.join(' ') : 'an unnamed adapter';
}

// The device in use, as the status banner says it: info is the worker's INIT answer.
export function describeDevice(info) {
  if (info.device === Device.WEBGPU) return `WebGPU on ${info.adapter} (training); writing and attention on WebAssembly`;
  if (info.device === Device.WASM_THREADS) return `WebAssembly, ${info.threads} of ${info.maxThreads} threads`;
  return 'WebAssembly, one thread';
}
