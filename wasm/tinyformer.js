// The Tinyformer WebAssembly module for the page, its worker and Node: the only JS that imports the emcc
// output, through the modules beside this one (each shipped with it, in the npm package too): load-build.js
// picks and starts a build, module-facade.js is what loadTinyformer returns, model.js and run.js own every
// Embind object (Model / Run wrap one Handle each and free it in delete()), calls.js copies arrays in and
// out of wasm memory and rethrows C++ errors as TinyformerError, json-names.js turns the core's snake_case
// JSON into camelCase. Types: tinyformer.d.ts.
import { hardwareThreads, startBuild } from './load-build.js';
import { Tinyformer } from './module-facade.js';
import { Run } from './run.js';

export { TinyformerError } from './calls.js';

export async function loadTinyformer(options = {}) {
  const { wasm, threaded, poolSize, webgpu } = await startBuild(options);
  const lab = new Tinyformer(wasm, threaded, poolSize, webgpu);
  if (threaded) lab.setThreads(Math.min(lab.maxThreads, hardwareThreads()));
  return lab;
}

// What this version of the wrapper can do, for callers that choose a device before loading. webgpuTraining:
// the WebGPU build places runs on the device (createRun / loadRun default to 'webgpu' there), they train
// with trainChunk and are read asynchronously (snapshotTo, readCheckpoint).
const RUNS_ON_WEBGPU = true;
export const features = Object.freeze({
  webgpuTraining: RUNS_ON_WEBGPU && ['trainChunk', 'snapshotTo', 'readCheckpoint'].every((m) => typeof Run.prototype[m] === 'function'),
});
