#!/usr/bin/env node
// `node web/build.mjs [--out web/dist]`: the lab as static files for any web server. No bundler: the page
// is plain ES modules, so the build copies it as it is, adds the npm files under vendor/ and both wasm
// builds (from web/wasm/, made by scripts/build-wasm.sh). Where the host cannot send COOP/COEP headers the
// wrapper picks the single-threaded build by itself.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { VENDOR_FILES } from './vendor-files.mjs';

const WEB = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(WEB, '..');
const PAGE = ['index.html', 'styles.css', 'views', 'wasm'];
const SERVER_ONLY = new Set(['serve.mjs', 'build.mjs', 'vendor-files.mjs']);
const WASM_NEEDED = ['tinyformer.js', 'tinyformer-st.mjs', 'tinyformer-st.wasm', 'tinyformer-mt.mjs', 'tinyformer-mt.wasm', 'tinyformer-mt.worker.js'];

async function pageFiles() {
  const names = await fs.readdir(WEB);
  return [...PAGE, ...names.filter((n) => n.endsWith('.js') && !SERVER_ONLY.has(n))];
}

export async function build(out) {
  for (const file of WASM_NEEDED) {
    await fs.access(path.join(WEB, 'wasm', file)).catch(() => {
      throw new Error(`web/wasm/${file} is missing: run bash scripts/build-wasm.sh first`);
    });
  }
  await fs.rm(out, { recursive: true, force: true });
  await fs.mkdir(path.join(out, 'vendor'), { recursive: true });
  for (const name of await pageFiles()) {
    await fs.cp(path.join(WEB, name), path.join(out, name), { recursive: true, filter: (src) => !src.endsWith('.d.ts') && !src.endsWith('.cjs') });
  }
  for (const [name, from] of Object.entries(VENDOR_FILES)) await fs.copyFile(path.join(ROOT, from), path.join(out, 'vendor', name));
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out');
  const out = path.resolve(at >= 0 ? args[at + 1] : path.join(WEB, 'dist'));
  await build(out);
  console.log(`lab: static files in ${out} (serve them from any web server; threads need COOP/COEP headers)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`build: ${error.message}`);
    process.exit(1);
  });
}
