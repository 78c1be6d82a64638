// The static-site build (npm run build): its _headers file (Netlify / Cloudflare Pages format) asks for
// exactly the cross-origin isolation headers the dev server sends, on every path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { build } from '../../scripts/build-page.mjs';
import { startServer } from '../../scripts/serve.mjs';

// _headers as { path pattern: { header: value } }: a pattern line, then indented "Name: value" lines.
function parseHeadersFile(text) {
  const rules = {};
  let current = null;
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) rules[line.trim()] = current = {};
    else {
      assert.ok(current, `a header before any path: ${line}`);
      const [, name, value] = line.match(/^\s+([\w-]+):\s*(.+)$/) ?? assert.fail(`not a header line: ${line}`);
      current[name] = value.trim();
    }
  }
  return rules;
}

test('the static build writes _headers with the isolation headers the dev server sends', async () => {
  const out = await mkdtemp(path.join(tmpdir(), 'tinyformer-dist-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', isolation: true, dir: out });
  try {
    await build(out);
    const rules = parseHeadersFile(await readFile(path.join(out, '_headers'), 'utf8'));
    assert.deepEqual(Object.keys(rules), ['/*']);
    const sent = await fetch(`http://127.0.0.1:${server.address().port}/index.html`);
    assert.equal(sent.status, 200);
    assert.deepEqual(rules['/*'], {
      'Cross-Origin-Opener-Policy': sent.headers.get('cross-origin-opener-policy'),
      'Cross-Origin-Embedder-Policy': sent.headers.get('cross-origin-embedder-policy'),
    });
    assert.deepEqual(rules['/*'], { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
  } finally {
    server.close();
    await rm(out, { recursive: true, force: true });
  }
});
