#!/usr/bin/env node
// `node web/build.mjs [--out web/dist]`: the lab as static files for any web server. No bundler: the page
// is plain ES modules, so the build copies it as it is, adds the npm files under vendor/ and both wasm
// builds (from web/wasm/, made by scripts/build-wasm.sh), and a `_headers` file (the Netlify / Cloudflare
// Pages format) asking the host for the COOP/COEP headers that let the threaded build run. Where the host
// cannot send them the wrapper picks the single-threaded build by itself.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ISOLATION_HEADERS } from './serve.mjs';
import { VENDOR_FILES } from './vendor-files.mjs';
import { missingWasmFiles } from './wasm-files.mjs';

const WEB = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(WEB, '..');
const PAGE = ['index.html', 'styles.css', 'views', 'wasm'];
const SERVER_ONLY = new Set(['serve.mjs', 'build.mjs', 'vendor-files.mjs', 'wasm-files.mjs']);

async function pageFiles() {
  const names = await fs.readdir(WEB);
  return [...PAGE, ...names.filter((n) => n.endsWith('.js') && !SERVER_ONLY.has(n))];
}

// The _headers file: every path gets the isolation headers the dev server sends.
export function headersFile() {
  return ['/*', ...Object.entries(ISOLATION_HEADERS).map(([name, value]) => `  ${name}: ${value}`)].join('\n') + '\n';
}

export async function build(out) {
  const missing = missingWasmFiles();
  if (missing.length) throw new Error(`web/wasm/ lacks ${missing.join(', ')}: run bash scripts/build-wasm.sh first`);
  await fs.rm(out, { recursive: true, force: true });
  await fs.mkdir(path.join(out, 'vendor'), { recursive: true });
  for (const name of await pageFiles()) {
    await fs.cp(path.join(WEB, name), path.join(out, name), { recursive: true, filter: (src) => !src.endsWith('.d.ts') && !src.endsWith('.cjs') });
  }
  for (const [name, from] of Object.entries(VENDOR_FILES)) await fs.copyFile(path.join(ROOT, from), path.join(out, 'vendor', name));
  await fs.writeFile(path.join(out, '_headers'), headersFile());
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out');
  const out = path.resolve(at >= 0 ? args[at + 1] : path.join(WEB, 'dist'));
  await build(out);
  console.log(`lab: static files in ${out} (serve them from any web server; _headers asks Netlify / Cloudflare Pages for the COOP/COEP headers threads need)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`build: ${error.message}`);
    process.exit(1);
  });
}
