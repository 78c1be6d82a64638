// Files the page asks for by a path under web/ that live elsewhere in the repository: the npm files under
// vendor/ and the wasm module's JS wrapper, tinyformer.js and the modules it imports (kept once, in wasm/).
// The dev server (serve.mjs) serves them from where they are and the static build (build-page.mjs) copies
// them in, so the page's import paths never change and there is no copy of the wrapper to go stale.
import { WRAPPER_FILES } from './wasm-files.mjs';

export const PAGE_FILES = Object.freeze({
  'vendor/uPlot.esm.js': 'node_modules/uplot/dist/uPlot.esm.js',
  'vendor/uPlot.min.css': 'node_modules/uplot/dist/uPlot.min.css',
  ...Object.fromEntries(WRAPPER_FILES.filter((name) => name.endsWith('.js')).map((name) => [`wasm/${name}`, `wasm/${name}`])),
});
