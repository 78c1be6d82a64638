#!/usr/bin/env node
// The files scripts/build-wasm.sh lays out in web/wasm/: what the page serves, what web/build.mjs copies and
// what the npm package holds (package.json `files`). `node web/wasm-files.mjs` (npm's prepack) fails, naming
// them, when any is missing or the wrapper's copies differ from wasm/, so a package never lacks its .wasm
// nor ships a stale wrapper.
import { existsSync, readFileSync } from 'node:fs';
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

// The wrapper and its types as copied into web/wasm/ by the last build, when they differ from wasm/'s.
export function staleWasmCopies() {
  const source = new URL('../wasm/', import.meta.url);
  const text = (url) => readFileSync(url, 'utf8');
  return ['tinyformer.js', 'tinyformer.d.ts'].filter((name) => text(new URL(name, WASM_DIR)) !== text(new URL(name, source)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = missingWasmFiles();
  const stale = missing.length ? [] : staleWasmCopies();
  if (missing.length || stale.length) {
    const what = missing.length ? `lacks ${missing.join(', ')}` : `has an old ${stale.join(', ')}`;
    console.error(`web/wasm/ ${what}: run bash scripts/build-wasm.sh first`);
    process.exit(1);
  }
}
