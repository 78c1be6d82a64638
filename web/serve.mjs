#!/usr/bin/env node
// The lab's local server: `node web/serve.mjs [--port N] [--host H] [--no-isolation] [--dir web/dist]`.
// Serves the page folder (web/ by default, the page as it is in the repository) with the COOP/COEP headers
// that make the page cross-origin isolated, so SharedArrayBuffer exists and the threaded wasm build runs;
// --no-isolation leaves them out (the page then runs the single-threaded build, as on a static host).
// vendor/ is served from node_modules unless the folder has its own (a build copies them in).
import { createServer } from 'node:http';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { VENDOR_FILES } from './vendor-files.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');

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

function headersFor(file, isolation) {
  return {
    'Content-Type': TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream',
    'Cache-Control': 'no-cache',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ...(isolation ? ISOLATION_HEADERS : {}),
  };
}

// The file a URL path names, or null when it leaves the served folders.
async function resolveFile(dir, urlPath) {
  let rel = decodeURIComponent(urlPath.split('?')[0]);
  if (rel.endsWith('/')) rel += 'index.html';
  const file = path.join(dir, path.normalize(rel));
  if (!file.startsWith(dir + path.sep) && file !== dir) return null;
  if (await isFile(file)) return file;
  const vendor = rel.match(/^\/vendor\/([^/]+)$/);
  if (vendor && VENDOR_FILES[vendor[1]]) return path.join(ROOT, VENDOR_FILES[vendor[1]]);
  return null;
}

async function isFile(file) {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

export function startServer(options) {
  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' }).end();
        return;
      }
      const file = await resolveFile(options.dir, new URL(req.url, 'http://x').pathname);
      if (!file) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${req.url}\n`);
        return;
      }
      const { size } = await fs.stat(file);
      res.writeHead(200, { ...headersFor(file, options.isolation), 'Content-Length': size });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    } catch (error) {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${error.message}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log('usage: node web/serve.mjs [--port N] [--host H] [--no-isolation] [--dir FOLDER]');
    return;
  }
  if (!(await isFile(path.join(options.dir, 'wasm', 'tinyformer.js')))) {
    console.warn(`serve: ${path.join(options.dir, 'wasm')} has no tinyformer.js; run bash scripts/build-wasm.sh`);
  }
  const server = await startServer(options);
  const { port } = server.address();
  const mode = options.isolation ? 'cross-origin isolated (threaded build)' : 'not isolated (single-threaded build)';
  console.log(`Tinyformer lab: http://${options.host}:${port}/  ${mode}, serving ${options.dir}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  });
}
