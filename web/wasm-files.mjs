#!/usr/bin/env node
// The files scripts/build-wasm.sh lays out in web/wasm/: what the page serves, what web/build.mjs copies and
// what the npm package holds (package.json `files`). `node web/wasm-files.mjs` (npm's prepack) fails, naming
// them, when any is missing, so a package is never packed without its .wasm.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const WASM_DIR = new URL('wasm/', import.meta.url);

export const WASM_FILES = Object.freeze([
  'tinyformer.js', 'tinyformer.d.ts',
  'tinyformer-st.mjs', 'tinyformer-st.wasm',
  'tinyformer-mt.mjs', 'tinyformer-mt.wasm', 'tinyformer-mt.worker.js', 'tinyformer-mt.worker.cjs',
]);

export function missingWasmFiles() {
  return WASM_FILES.filter((name) => !existsSync(new URL(name, WASM_DIR)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = missingWasmFiles();
  if (missing.length) {
    console.error(`web/wasm/ lacks ${missing.join(', ')}: run bash scripts/build-wasm.sh first`);
    process.exit(1);
  }
}
