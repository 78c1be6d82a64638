// Which emcc build to start and how: the threaded, single-threaded or WebGPU build (the last for
// `{webgpu: GPUDevice}`), found beside this module or in a baseUrl folder, with the options its factory needs.
// Node needs three things emcc 3.1.6 does not do for an ES module: require/__dirname globals, the .wasm bytes
// read with fs (its fetch() cannot read files), and the pthread worker script as .cjs (a .js file under a
// package.json with "type": "module" would be loaded as an ES module and fail).
import { fail, guard } from './calls.js';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';

function threadsPossible() {
  if (isNode) return true;
  return typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated === true;
}

function chooseThreaded(choice) {
  if (choice === 'auto' || choice === undefined) return threadsPossible();
  if (choice === true && !threadsPossible())
    fail('the threaded build needs SharedArrayBuffer: serve the page cross-origin isolated (COOP/COEP headers)');
  if (typeof choice !== 'boolean') fail(`threads must be 'auto', true or false, got ${String(choice)}`);
  return choice;
}

export function hardwareThreads() {
  return (typeof navigator === 'object' && navigator.hardwareConcurrency) || 4;
}

function folderUrl(baseUrl) {
  const url = new URL(/* webpackIgnore: true */ baseUrl, import.meta.url);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

// The builds' files beside this module, written as literal `new URL('./file', import.meta.url)` and
// import('./file') so that bundlers see them and ship them (checked with webpack 5); every other URL and
// import is marked for bundlers to leave alone (runtime folders, Node's modules).
const BESIDE = {
  'tinyformer-st': () => ({
    factory: () => import('./tinyformer-st.mjs'),
    files: { 'tinyformer-st.wasm': new URL('./tinyformer-st.wasm', import.meta.url) },
  }),
  'tinyformer-mt': () => ({
    factory: () => import('./tinyformer-mt.mjs'),
    files: {
      'tinyformer-mt.wasm': new URL('./tinyformer-mt.wasm', import.meta.url),
      'tinyformer-mt.worker.js': new URL('./tinyformer-mt.worker.js', import.meta.url),
      'tinyformer-mt.mjs': new URL('./tinyformer-mt.mjs', import.meta.url),  // what each pthread worker imports
    },
  }),
  'tinyformer-gpu': () => ({
    factory: () => import('./tinyformer-gpu.mjs'),
    files: { 'tinyformer-gpu.wasm': new URL('./tinyformer-gpu.wasm', import.meta.url) },
  }),
};

// Build `name`: its factory and url(file) for each file emcc asks for; beside this module, or in baseUrl.
function buildFiles(name, baseUrl) {
  if (baseUrl == null) {
    const { factory, files } = BESIDE[name]();
    return { factory, url: (file) => files[file] ?? new URL(/* webpackIgnore: true */ file, import.meta.url) };
  }
  const base = folderUrl(baseUrl);
  const factory = () => import(/* webpackIgnore: true */ /* @vite-ignore */ new URL(`${name}.mjs`, base).href);
  return { factory, url: (file) => new URL(file, base) };
}

// What the emcc factory needs in Node (see the header).
async function nodeModuleOptions(build, name) {
  const { createRequire } = await import(/* webpackIgnore: true */ 'node:module');
  const { fileURLToPath } = await import(/* webpackIgnore: true */ 'node:url');
  const { readFile } = await import(/* webpackIgnore: true */ 'node:fs/promises');
  const wasm = build.url(`${name}.wasm`);
  globalThis.require ??= createRequire(wasm);
  globalThis.__dirname ??= fileURLToPath(new URL('.', wasm));
  globalThis.__filename ??= fileURLToPath(new URL(`${name}.mjs`, wasm));
  return {
    locateFile: (path) => fileURLToPath(build.url(path).href.replace(/\.worker\.js$/, '.worker.cjs')),
    wasmBinary: await readFile(wasm),
  };
}

// In a browser each pthread worker imports the build's .mjs itself: by this URL (a bundled copy of the
// glue would not do, so a bundler ships the .mjs as a file too).
function browserModuleOptions(build, name, threaded) {
  const options = { locateFile: (path) => build.url(path).href };
  if (threaded) options.mainScriptUrlOrBlob = build.url(`${name}.mjs`).href;
  return options;
}

// The WebGPU build is single-threaded and takes the caller's GPUDevice (contract: the caller asks for the
// adapter's buffer limits); every failure to start says "WebGPU" so the page's fallback rule catches it.
function checkWebGpuOptions(options) {
  if (!options.webgpu || typeof options.webgpu.createBuffer !== 'function') fail('webgpu must be a GPUDevice (from adapter.requestDevice())');
  if (options.threads === true) fail('the WebGPU build is single-threaded: threads must be false or left out with webgpu');
  const bytes = options.webgpuArenaBytes;
  if (bytes !== undefined && !(Number.isInteger(bytes) && bytes >= 256)) fail(`webgpuArenaBytes must be an integer >= 256, got ${bytes}`);
}

// Starts the WebGPU backend (the arena on the device), waits for its pipelines (all compiled now, none at
// the first step) and reads one word of the arena back, so a device that was lost, cannot hold the arena or
// cannot compile a shader fails here rather than at the first training step.
async function startWebGpu(wasm) {
  try {
    guard(wasm, () => wasm.checkDevice('webgpu'));
    await wasm.webgpuReady();
    await wasm.webgpuRead(256, 4);
  } catch (e) {
    fail(`the WebGPU build did not start: ${e.message}`);
  }
}

// The started emcc module for loadTinyformer's options, with the build's facts: {wasm, threaded, poolSize, webgpu}.
export async function startBuild(options) {
  const webgpu = options.webgpu != null;
  if (webgpu) checkWebGpuOptions(options);
  const threaded = webgpu ? false : chooseThreaded(options.threads ?? 'auto');
  const name = webgpu ? 'tinyformer-gpu' : threaded ? 'tinyformer-mt' : 'tinyformer-st';
  const build = buildFiles(name, options.baseUrl);
  const poolSize = threaded ? Math.max(1, Math.floor(options.poolSize ?? Math.min(8, Math.max(2, hardwareThreads())))) : 0;
  const moduleOptions = isNode ? await nodeModuleOptions(build, name) : browserModuleOptions(build, name, threaded);
  if (options.locateFile) moduleOptions.locateFile = options.locateFile;
  if (options.wasmBinary) moduleOptions.wasmBinary = options.wasmBinary;
  moduleOptions.poolSize = poolSize;
  if (webgpu) Object.assign(moduleOptions, { webgpu: options.webgpu, webgpuArenaBytes: options.webgpuArenaBytes });
  const { default: factory } = await build.factory();
  const wasm = await factory(moduleOptions);
  if (webgpu) await startWebGpu(wasm);
  if (isNode && threaded) {
    // Idle pthread workers must not keep Node's event loop (and a test run) alive.
    for (const w of wasm.PThread.unusedWorkers) w.unref();
  }
  return { wasm, threaded, poolSize, webgpu };
}
