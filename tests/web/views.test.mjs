// web/ holds browser modules only, and web/views/ one view per file: each exports only its default view
// object and imports no other view (what several views share lives outside the folder, e.g.
// web/walkthrough.js, web/model-slots.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

const VIEWS = new URL('../../web/views/', import.meta.url);
const files = readdirSync(VIEWS).filter((n) => n.endsWith('.js'));

test('every view file exports one default view and nothing else', () => {
  assert.ok(files.length > 20);
  for (const name of files) {
    const source = readFileSync(new URL(name, VIEWS), 'utf8');
    const named = source.match(/^export (?!default\b).*$/gm) ?? [];
    assert.deepEqual(named, [], `${name} exports more than its view`);
    assert.match(source, /^export default \{/m, `${name} has no default view`);
  }
});

test('no view imports another view', () => {
  for (const name of files) {
    const source = readFileSync(new URL(name, VIEWS), 'utf8');
    const local = source.match(/from '\.\/[^']+'/g) ?? [];
    assert.deepEqual(local, [], `${name} imports from web/views/`);
  }
});

test('web/ holds browser modules only: the Node tools (dev server, static build) live in scripts/', () => {
  const WEB = new URL('../../web/', import.meta.url);
  for (const name of readdirSync(WEB).filter((n) => /\.m?js$/.test(n))) {
    assert.ok(name.endsWith('.js'), `${name}: a Node module in web/`);
    assert.doesNotMatch(readFileSync(new URL(name, WEB), 'utf8'), /from 'node:/, `${name} imports a Node module`);
  }
});
