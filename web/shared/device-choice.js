// Which device the lab trains on: auto takes WebGPU when the browser gives a hardware adapter and a device
// and the WebGPU build of the module is laid out (web/wasm/tinyformer-gpu.*), unless the page timed both on
// this machine and WebAssembly trained faster (device-race.js); else wasm threads when the page is
// cross-origin isolated, else wasm on one thread. A software adapter (SwiftShader, llvmpipe, ...) is never
// auto's: the toy model trains there at 257 tokens/s against 81,000 in threaded wasm. Forced (?device=webgpu)
// it is used, and the banner says it is software. A forced choice that cannot be had falls to the next one
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

// facts: {webgpu: {adapter, device, why} from probeWebGpu, gpuBuild: boolean (the WebGPU build may be
// loaded), gpuTraining: boolean (the wrapper's runs train on WebGPU: features.webgpuTraining), threads:
// boolean (isolated), builds: web/wasm/builds.json ({st, mt, gpu: 'ready' | 'building' | 'failed'}; absent:
// every build is there), timing: what device-race.js measured here, or absent}.
// Returns {device, why}: why says, when the device is not the one asked for (or auto skipped one), why not;
// where auto took WebGPU because it was timed faster, it says that. device is null when no build the page
// could run is ready.
export function chooseDevice(wanted, facts) {
  if (!isDevice(wanted)) throw new Error(`device must be one of ${Object.values(Device).join(', ')}, got ${String(wanted)}`);
  const skipped = [];
  if (wanted === Device.AUTO || wanted === Device.WEBGPU) {
    const why = webgpuUnusable(facts) || (wanted === Device.AUTO ? autoDeclines(facts) : null);
    if (!why) return { device: Device.WEBGPU, why: wanted === Device.AUTO && facts.timing ? timedFaster(facts.timing) : null };
    skipped.push(`WebGPU: ${why}`);
  }
  const single = built(facts, 'st') ? null : `one thread: ${notBuilt(facts, 'st')}`;
  if (wanted === Device.WASM_SINGLE) {
    if (!single) return { device: Device.WASM_SINGLE, why: null };
    skipped.push(single);
  }
  const threads = !facts.threads ? 'threads: the page is not cross-origin isolated (COOP/COEP headers)'
    : built(facts, 'mt') ? null : `threads: ${notBuilt(facts, 'mt')}`;
  if (!threads) return { device: Device.WASM_THREADS, why: skipped.join('; ') || null };
  skipped.push(threads);
  if (!single) return { device: Device.WASM_SINGLE, why: skipped.join('; ') };
  if (wanted !== Device.WASM_SINGLE) skipped.push(single);
  return { device: null, why: skipped.join('; ') };
}

// The builds, as the banner names them.
export const BUILD_NAMES = Object.freeze({ st: 'single-threaded', mt: 'threaded', gpu: 'WebGPU' });

// The page may load a build that web/wasm/builds.json says is ready (a page without that file has them all).
const built = ({ builds }, variant) => !builds || builds[variant] === 'ready';

function notBuilt({ builds }, variant) {
  const state = builds && builds[variant];
  if (state === 'building') return `the ${BUILD_NAMES[variant]} build is still being built (reload the page once it is ready)`;
  if (state === 'failed') return `the ${BUILD_NAMES[variant]} build failed (build/wasm-background.log says why)`;
  return `this copy of the lab has no ${BUILD_NAMES[variant]} build of the module`;
}

function webgpuUnusable({ webgpu, gpuBuild, gpuTraining, builds }) {
  if (!webgpu || !webgpu.adapter) return (webgpu && webgpu.why) || 'this browser gives no WebGPU adapter';
  if (!gpuBuild) {
    return builds && builds.gpu ? notBuilt({ builds }, 'gpu') : 'this copy of the lab has no WebGPU build of the module (web/wasm/tinyformer-gpu.*)';
  }
  if (!gpuTraining) return 'this version of the module cannot train on WebGPU yet (no chunked training step)';
  if (!webgpu.device) return webgpu.why || 'the adapter gave no device';
  return null;
}

// Why auto leaves a usable adapter alone: it is software, or it was timed slower than WebAssembly here.
function autoDeclines({ webgpu, timing }) {
  if (isSoftwareAdapter(webgpu.adapter)) {
    return `the only adapter, ${adapterName(webgpu.adapter)}, is a software one, far slower than WebAssembly: choose WebGPU to train on it anyway`;
  }
  if (!timing) return null;
  if (timing.error) return `timing it against WebAssembly failed (${timing.error})`;
  if (timing.webgpu > timing.wasm) return null;
  return `it trained the story step slower than ${timing.wasmLabel} on this machine (${rates(timing)})`;
}

function timedFaster(timing) {
  return `WebGPU trained the story step ${(timing.webgpu / timing.wasm).toFixed(1)}× as fast as ${timing.wasmLabel} on this machine (${rates(timing)})`;
}

const rates = (t) => `${Math.round(t.webgpu).toLocaleString('en')} against ${Math.round(t.wasm).toLocaleString('en')} tokens/s, timed ${new Date(t.at).toISOString().slice(0, 10)}`;

// The devices auto times against each other (device-race.js), or null where it is sure: no usable adapter
// or a software one (WebAssembly), or timing already done. A hardware adapter may be a discrete GPU far
// ahead of WebAssembly or an integrated one behind it; nothing the browser says tells which.
export function timingCandidates(facts) {
  if (facts.timing || chooseDevice(Device.AUTO, facts).device !== Device.WEBGPU) return null;
  return [Device.WEBGPU, facts.threads ? Device.WASM_THREADS : Device.WASM_SINGLE];
}

// Software rasterizers by the names their adapters give: Chromium's SwiftShader, Mesa's llvmpipe, lavapipe
// and softpipe, Windows' WARP ("Microsoft Basic Render Driver").
const SOFTWARE_NAMES = /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render/i;

// info: the adapter as probeWebGpu describes it (isFallbackAdapter from adapter.info, or from the adapter in
// browsers before Chromium 140; type 'CPU' where Chromium's developer features give it).
export function isSoftwareAdapter(info) {
  if (!info) return false;
  if (info.isFallbackAdapter || info.type === 'CPU') return true;
  return SOFTWARE_NAMES.test([info.vendor, info.architecture, info.device, info.description].join(' '));
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
  if (info.device === Device.WEBGPU) {
    const software = info.adapterSoftware ? '; a software adapter, far slower than WebAssembly' : '';
    return `WebGPU on ${info.adapter} (training${software}); writing and attention on WebAssembly`;
  }
  if (info.device === Device.WASM_THREADS) return `WebAssembly, ${info.threads} of ${info.maxThreads} threads`;
  return 'WebAssembly, one thread';
}
