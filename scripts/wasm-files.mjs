#!/usr/bin/env node
// The files of the npm package (package.json `files`: web/wasm/): the three builds (st, mt, gpu), which
// scripts/build-wasm.sh lays out in web/wasm/ (git-ignored), and the wrapper (tinyformer.js and the modules
// beside it) with its types, which live once in wasm/ and are copied beside the builds only while npm packs: `node scripts/wasm-files.mjs prepack` fails, naming them,
// when a build file is missing and then copies the wrapper in; `postpack` removes the copies again.
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const WASM_DIR = new URL('../web/wasm/', import.meta.url);
const WRAPPER_DIR = new URL('../wasm/', import.meta.url);

export const BUILD_FILES = Object.freeze([
  'tinyformer-st.mjs', 'tinyformer-st.wasm',
  'tinyformer-mt.mjs', 'tinyformer-mt.wasm', 'tinyformer-mt.worker.js', 'tinyformer-mt.worker.cjs',
  'tinyformer-gpu.mjs', 'tinyformer-gpu.wasm',
]);
// Every ES module in wasm/ (tinyformer.js and those it imports) and the types.
export const WRAPPER_FILES = Object.freeze(readdirSync(WRAPPER_DIR).filter((name) => /\.(js|d\.ts)$/.test(name)).sort());
export const PACKAGE_FILES = Object.freeze([...WRAPPER_FILES, ...BUILD_FILES]);

export function missingBuildFiles() {
  return BUILD_FILES.filter((name) => !existsSync(new URL(name, WASM_DIR)));
}

function prepack() {
  const missing = missingBuildFiles();
  if (missing.length) {
    console.error(`web/wasm/ lacks ${missing.join(', ')}: run bash scripts/build-wasm.sh first`);
    process.exit(1);
  }
  for (const name of WRAPPER_FILES) copyFileSync(new URL(name, WRAPPER_DIR), new URL(name, WASM_DIR));
}

function postpack() {
  for (const name of WRAPPER_FILES) rmSync(new URL(name, WASM_DIR), { force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const step = { prepack, postpack }[process.argv[2]];
  if (!step) {
    console.error('usage: node scripts/wasm-files.mjs prepack|postpack');
    process.exit(2);
  }
  step();
}
