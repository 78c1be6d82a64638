// web/ holds browser modules only, and web/views/ one view per file: each exports only its default view
// object and imports no other view (what several views share lives outside the folder, e.g.
// web/page/walkthrough.js, web/page/model-slots.js).
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

// Every module of the page, as paths under web/ (the wasm builds aside).
const WEB = new URL('../../web/', import.meta.url);
const modules = readdirSync(WEB, { recursive: true }).filter((n) => /\.m?js$/.test(n) && !n.startsWith('wasm/')).sort();
const importsOf = (name) => [...readFileSync(new URL(name, WEB), 'utf8').matchAll(/(?:from |import\(|import )'([^']+)'/g)]
  .map((m) => m[1]).filter((p) => p.startsWith('.')).map((p) => new URL(p, new URL(name, WEB)).href.slice(WEB.href.length));

test('web/ holds browser modules only: the Node tools (dev server, static build) live in scripts/', () => {
  for (const name of modules) {
    assert.ok(name.endsWith('.js'), `${name}: a Node module in web/`);
    assert.doesNotMatch(readFileSync(new URL(name, WEB), 'utf8'), /from 'node:/, `${name} imports a Node module`);
  }
});

// page/ runs in the tab, worker/ in the Web Worker, shared/ in both; widgets/ (the page's parts) and views/
// run in the tab too. What the worker loads never reaches the tab's DOM code, and shared/ stands alone.
const TAB = ['page', 'widgets', 'views', 'shared', 'vendor'];
const MAY_IMPORT = { page: TAB, widgets: TAB, views: TAB, worker: ['worker', 'shared', 'wasm'], shared: ['shared'] };

test('every module of the page sits in its role folder and imports only what its role may load', () => {
  assert.ok(modules.length > 40);
  for (const name of modules) {
    const role = name.split('/')[0];
    assert.ok(role in MAY_IMPORT && name.includes('/'), `${name} is not in page/, worker/, shared/, widgets/ or views/`);
    for (const target of importsOf(name)) {
      assert.ok(MAY_IMPORT[role].includes(target.split('/')[0]), `${name} (${role}/) imports ${target}`);
    }
  }
  const fromWorker = modules.filter((n) => n.startsWith('worker/')).flatMap(importsOf).filter((t) => !t.startsWith('worker/'));
  assert.deepEqual([...new Set(fromWorker)].sort(), ['shared/device-choice.js', 'shared/protocol.js', 'shared/timeline-thinning.js', 'wasm/tinyformer.js']);
});

// One concern per file: a module that grows past this is split (the training panel: run, settings, saves).
const MAX_LINES = 250;

test(`no file of the page is over ${MAX_LINES} lines`, () => {
  const files = readdirSync(WEB, { recursive: true }).filter((n) => /\.(js|css|html)$/.test(n) && !n.startsWith('wasm/'));
  for (const name of files) {
    const lines = readFileSync(new URL(name, WEB), 'utf8').split('\n').length - 1;
    assert.ok(lines <= MAX_LINES, `web/${name} has ${lines} lines`);
  }
});
