#!/usr/bin/env node
// The lab's local server: `node scripts/serve.mjs [--port N] [--host H] [--no-isolation] [--dir web/dist]`.
// Serves the page folder (web/ by default, the page as it is in the repository) with the COOP/COEP headers
// that make the page cross-origin isolated, so SharedArrayBuffer exists and the threaded wasm build runs;
// --no-isolation leaves them out (the page then runs the single-threaded build, as on a static host).
// The files of page-files.mjs (vendor/, the wasm wrapper) are served from where they live in the
// repository: for web/ always (the wrapper is never a copy), for another folder unless it has its own (a
// static build copies them in).
import { createServer } from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { PAGE_FILES } from './page-files.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const REPOSITORY_PAGE = fs.realpath(path.join(ROOT, 'web')).catch(() => null);

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.txt': 'text/plain; charset=utf-8', '.ico': 'image/x-icon',
  '.safetensors': 'application/octet-stream',
};

export function parseArgs(argv) {
  const options = { port: 8080, host: '127.0.0.1', isolation: true, dir: path.join(ROOT, 'web') };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--port') options.port = Number(argv[++i]);
    else if (arg === '--host') options.host = argv[++i];
    else if (arg === '--no-isolation') options.isolation = false;
    else if (arg === '--dir') options.dir = path.resolve(argv[++i]);
    else if (arg === '--help' || arg === '-h') options.help = true;
    else throw new Error(`unknown argument ${arg} (try --help)`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new Error('--port needs a number 0..65535');
  }
  return options;
}

// What makes the page cross-origin isolated; the static build writes the same into its _headers file.
export const ISOLATION_HEADERS = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
});

// Headers every answer carries; nosniff so a browser never reads a text file as a script.
function baseHeaders(isolation) {
  return {
    'Cache-Control': 'no-cache', 'Cross-Origin-Resource-Policy': 'same-origin', 'X-Content-Type-Options': 'nosniff',
    ...(isolation ? ISOLATION_HEADERS : {}),
  };
}

const REASONS = { 400: 'bad request', 403: 'forbidden', 404: 'not found', 405: 'method not allowed', 500: 'server error', 503: 'too busy, try again' };

// An error answer says its status and nothing else: no exception text, no path on this machine.
function sendError(res, status, isolation, extra = {}) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${status} ${REASONS[status]}\n`;
  res.writeHead(status, { ...baseHeaders(isolation), 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(body);
}

// The decoded path of a request target, or null when it is malformed (not a path, a bad %-escape, a NUL).
function requestPath(target) {
  if (typeof target !== 'string' || !target.startsWith('/')) return null;
  let rel;
  try {
    rel = decodeURIComponent(target.split(/[?#]/)[0]);
  } catch {
    return null;
  }
  if (rel.includes('\0')) return null;
  return rel.endsWith('/') ? `${rel}index.html` : rel;
}

const inside = (dir, file) => file.startsWith(dir + path.sep);

// The file a path names, or null when it is missing or leaves the served folder (also through a symlink).
// `dir` is the served folder's real path; outside it, only the files PAGE_FILES lists.
async function resolveFile(dir, rel) {
  const file = path.join(dir, path.normalize(rel));
  if (!inside(dir, file)) return null;
  const key = rel.replace(/^\//, '');
  const mapped = Object.hasOwn(PAGE_FILES, key) ? path.join(ROOT, PAGE_FILES[key]) : null;
  if (mapped && dir === (await REPOSITORY_PAGE)) return mapped;
  const real = await fs.realpath(file).catch(() => null);
  if (real) return inside(dir, real) ? real : null;
  return mapped;
}

function openFailureStatus(error) {
  if (error.code === 'EMFILE' || error.code === 'ENFILE') return 503;
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR') return 404;
  if (error.code === 'EACCES' || error.code === 'EPERM') return 403;
  return 500;
}

// Opens first and asks the open handle for its size, so a file that cannot be read is an error answer
// (never an unhandled stream error), and one that changes after the check cannot be served half.
async function sendFile(req, res, file, isolation) {
  let handle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    const status = openFailureStatus(error);
    if (status === 500) console.error(`serve: ${req.url}: ${error.message}`);
    sendError(res, status, isolation, status === 503 ? { 'Retry-After': '1' } : {});
    return;
  }
  let stream = null;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      sendError(res, 404, isolation);
      return;
    }
    const type = TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
    res.writeHead(200, { ...baseHeaders(isolation), 'Content-Type': type, 'Content-Length': stat.size });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    stream = handle.createReadStream();
    pipeline(stream, res, (error) => error && res.destroy());
  } finally {
    if (!stream) await handle.close().catch(() => {});
  }
}

async function answer(req, res, options, dir) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(res, 405, options.isolation, { Allow: 'GET, HEAD' });
    return;
  }
  const rel = requestPath(req.url);
  if (rel === null) {
    sendError(res, 400, options.isolation);
    return;
  }
  const file = await resolveFile(dir, rel);
  if (!file) sendError(res, 404, options.isolation);
  else await sendFile(req, res, file, options.isolation);
}

// A server that stays up: every request, response and file stream has an error handler, and an error
// after listening (a refused accept when file handles run out) is logged, not thrown.
export async function startServer(options) {
  const dir = await fs.realpath(options.dir);
  const server = createServer((req, res) => {
    req.on('error', () => res.destroy());
    res.on('error', () => res.destroy());
    answer(req, res, options, dir).catch((error) => {
      console.error(`serve: ${req.url}: ${error.message}`);
      sendError(res, 500, options.isolation);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => console.error(`serve: ${error.message}`));
  return server;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log('usage: node scripts/serve.mjs [--port N] [--host H] [--no-isolation] [--dir FOLDER]');
    return;
  }
  const builds = await readBuilds(options.dir);
  const building = Object.keys(builds || {}).filter((variant) => builds[variant] === 'building');
  if (!builds || !Object.values(builds).includes('ready')) {
    console.warn(`serve: ${path.join(options.dir, 'wasm')} has no wasm builds; run bash scripts/build-wasm.sh`);
  }
  const server = await startServer(options);
  const { port } = server.address();
  const mode = options.isolation ? 'cross-origin isolated (threaded build)' : 'not isolated (single-threaded build)';
  console.log(`Tinyformer lab: http://${options.host}:${port}/  ${mode}, serving ${options.dir}`);
  if (building.length) {
    console.log(`still building: ${building.join(', ')} (the page takes each from its next load; log: build/wasm-background.log)`);
  }
}

// web/wasm/builds.json, which scripts/build-wasm.sh writes: {variant: 'ready' | 'building' | 'failed'}, or null.
async function readBuilds(dir) {
  const text = await fs.readFile(path.join(dir, 'wasm', 'builds.json'), 'utf8').catch(() => null);
  try {
    return text && JSON.parse(text);
  } catch {
    return null;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  });
}
