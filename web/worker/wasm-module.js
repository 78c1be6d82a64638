// The worker's one wasm module (INIT loads it once): which builds the page may load (web/wasm/builds.json),
// the WebGPU facts (an adapter, a device where the module could use one; probed once, so the page's PROBE and
// INIT choose from the same device), the device chosen from them (device-choice.js) and the module loaded
// there, falling back to wasm when the WebGPU build does not start; a lost device is told to the page.
import { Msg, reply } from '../shared/protocol.js';
import { Device, adapterName, chooseDevice, isSoftwareAdapter } from '../shared/device-choice.js';
import { probeWebGpu, watchLoss } from './webgpu-device.js';

export let tf = null;          // the Tinyformer module, after INIT
export let device = null;      // {device, why, adapter, adapterSoftware, webgpuUsable, gpu: GPUDevice | null,
                               //   lost: message | null, builds: web/wasm/builds.json's}, after INIT
let probed = null;             // the WebGPU facts (webgpuFacts), once probed

// Which builds this page may load: web/wasm/builds.json, kept by scripts/build-wasm.sh ({st, mt, gpu: 'ready' |
// 'building' | 'failed'}; npm start serves the page before every build is ready), read at every load (a build
// finished meanwhile is used from the next); null where the page has no such file (then no WebGPU build).
let builds = null;
function readBuilds() {
  builds ||= fetch(new URL('../wasm/builds.json', import.meta.url), { cache: 'no-store' })
    .then((response) => (response.ok ? response.json() : null)).catch(() => null);
  return builds;
}

const threadsPossible = () => self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';

async function loadWrapper() {
  try {
    return await import('../wasm/tinyformer.js');
  } catch (error) {
    throw new Error(`the WebAssembly module is missing (run bash scripts/build-wasm.sh): ${error.message}`);
  }
}

// What auto and a forced WebGPU choose from: {webgpu: the probe (a device where the module could use one),
// gpuBuild, gpuTraining}. Probed once: the page may ask first (PROBE, to time the devices where auto is
// unsure), and INIT then chooses from the same adapter and device.
async function webgpuFacts() {
  probed ||= (async () => {
    const gpuTraining = (await loadWrapper()).features.webgpuTraining;
    const gpuBuild = (await readBuilds())?.gpu === 'ready';
    return { webgpu: await probeWebGpu(navigator.gpu, { withDevice: gpuBuild && gpuTraining }), gpuBuild, gpuTraining };
  })();
  return probed;
}

// The facts as the page gets them (PROBE): the device as a flag (a GPUDevice stays in this worker).
export async function probeFacts() {
  const { webgpu, ...rest } = await webgpuFacts();
  return { ...rest, webgpu: { ...webgpu, device: Boolean(webgpu.device) }, threads: threadsPossible(), builds: await readBuilds() };
}

// timing: what the page measured where auto was unsure (device-race.js), for auto only.
async function pickDevice(wanted, timing) {
  const gpuWanted = wanted === Device.AUTO || wanted === Device.WEBGPU;
  const facts = gpuWanted ? await webgpuFacts() : { webgpu: null, gpuBuild: false };
  const { webgpu } = facts;
  const all = { ...facts, threads: threadsPossible(), builds: await readBuilds() };
  const choice = chooseDevice(wanted, { ...all, timing: wanted === Device.AUTO ? timing : null });
  if (!choice.device) throw new Error(`no build of the module is ready yet (${choice.why})`);
  if (choice.device !== Device.WEBGPU && webgpu && webgpu.device) webgpu.device.destroy();
  return {
    ...choice, adapter: webgpu && webgpu.adapter ? adapterName(webgpu.adapter) : null,
    adapterSoftware: isSoftwareAdapter(webgpu && webgpu.adapter),
    webgpuUsable: gpuWanted && chooseDevice(Device.WEBGPU, all).device === Device.WEBGPU,  // the benchmark's WebGPU row
    gpu: choice.device === Device.WEBGPU ? webgpu.device : null, lost: null, builds: all.builds,
  };
}

// The module on the picked device; a WebGPU build that does not start (no GPU memory for its arena, say)
// leaves the worker on wasm, with the reason in the banner.
async function loadModule(wrapper, picked, poolSize) {
  if (picked.gpu) {
    try {
      return { tf: await wrapper.loadTinyformer({ threads: false, webgpu: picked.gpu }), picked };
    } catch (error) {
      picked.gpu.destroy();
      const wasm = chooseDevice(Device.WASM_THREADS, { threads: threadsPossible(), builds: await readBuilds() });
      picked = { ...picked, device: wasm.device, gpu: null, why: `WebGPU: the WebGPU build did not start (${error.message})` };
    }
  }
  return { tf: await wrapper.loadTinyformer({ threads: picked.device === Device.WASM_THREADS, poolSize }), picked };
}

export function moduleInfo() {
  return {
    version: tf.version, threaded: tf.threaded, simd: tf.simd, maxThreads: tf.maxThreads,
    threads: tf.threads(), crossOriginIsolated: self.crossOriginIsolated === true,
    build: tf.threaded ? 'threaded' : 'single-threaded', memoryBytes: tf.memoryBytes(),
    liveHandles: tf.liveHandles(), device: device.device, deviceWhy: device.why, adapter: device.adapter,
    adapterSoftware: device.adapterSoftware, webgpuUsable: device.webgpuUsable, builds: device.builds,
  };
}

export async function init({ device: wanted = Device.AUTO, timing = null, poolSize } = {}) {
  if (tf) return moduleInfo();
  const wrapper = await loadWrapper();
  ({ tf, picked: device } = await loadModule(wrapper, await pickDevice(wanted, timing), poolSize));
  if (tf.threaded) tf.setThreads(Math.min(tf.maxThreads, poolSize || navigator.hardwareConcurrency || 2));
  if (device.gpu) watchLoss(device.gpu, deviceFailed);
  return moduleInfo();
}

// WebGPU is gone for this worker: the page is told at once (a run in training also fails at its next chunk).
export function deviceFailed(reason) {
  if (device.lost) return;
  device.lost = reason;
  self.postMessage(reply(Msg.DEVICE_FAILED, 0, { reason }));
}

export function loseDevice() {
  if (!device || !device.gpu) throw new Error('the lab is not on WebGPU: there is no device to lose');
  device.gpu.destroy();
  return { destroyed: true };
}

export function needModule() {
  if (!tf) throw new Error('the WebAssembly module is not loaded yet');
  return tf;
}
