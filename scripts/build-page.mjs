#!/usr/bin/env node
// `node scripts/build-page.mjs [--out web/dist]`: the lab as static files for any web server. No bundler:
// the page is plain ES modules, so the build copies web/ as it is (the wasm builds in web/wasm/, made by
// scripts/build-wasm.sh), adds the files of page-files.mjs (the npm files under vendor/, the wasm wrapper)
// and a `_headers` file (the Netlify / Cloudflare
// Pages format) asking the host for the COOP/COEP headers that let the threaded build run. Where the host
// cannot send them the wrapper picks the single-threaded build by itself.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ISOLATION_HEADERS } from './serve.mjs';
import { PAGE_FILES } from './page-files.mjs';
import { missingBuildFiles } from './wasm-files.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'web');
const PAGE = ['index.html', 'styles.css', 'page', 'worker', 'shared', 'widgets', 'views', 'wasm'];  // the role folders

async function pageFiles() {
  const names = await fs.readdir(WEB);
  return [...PAGE, ...names.filter((n) => n.endsWith('.js'))];
}

// The _headers file: every path gets the isolation headers the dev server sends.
export function headersFile() {
  return ['/*', ...Object.entries(ISOLATION_HEADERS).map(([name, value]) => `  ${name}: ${value}`)].join('\n') + '\n';
}

export async function build(out) {
  const missing = missingBuildFiles();
  if (missing.length) throw new Error(`web/wasm/ lacks ${missing.join(', ')}: run bash scripts/build-wasm.sh first`);
  await fs.rm(out, { recursive: true, force: true });
  for (const name of await pageFiles()) {
    await fs.cp(path.join(WEB, name), path.join(out, name), { recursive: true, filter: (src) => !src.endsWith('.d.ts') && !src.endsWith('.cjs') });
  }
  for (const [name, from] of Object.entries(PAGE_FILES)) {
    await fs.mkdir(path.dirname(path.join(out, name)), { recursive: true });
    await fs.copyFile(path.join(ROOT, from), path.join(out, name));
  }
  await fs.writeFile(path.join(out, '_headers'), headersFile());
  // Every build is there (checked above): the page may load each (web/wasm/builds.json in the dev tree).
  await fs.writeFile(path.join(out, 'wasm', 'builds.json'), `${JSON.stringify({ st: 'ready', mt: 'ready', gpu: 'ready' })}\n`);
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
