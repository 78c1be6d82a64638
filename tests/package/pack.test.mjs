// The wasm module as an npm package, the way another project gets it: `npm pack` holds exactly the wrapper,
// its types and both builds; the tarball installs into a scratch project; a strict TypeScript consumer
// (consumer.ts) type-checks against the package's .d.ts with tsc and, run from there, trains the toy model
// until its loss falls near the language's entropy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { PACKAGE_FILES } from '../../scripts/wasm-files.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = process.env.TSC ?? '/usr/bin/tsc';

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// `npm pack` into dir: the tarball's path and the files it holds.
function pack(dir) {
  const out = run('npm', ['pack', '--json', '--pack-destination', dir], root);
  const [info] = JSON.parse(out.slice(out.indexOf('[')));
  return { tarball: join(dir, info.filename), files: info.files.map((f) => f.path).sort() };
}

// A scratch project with the tarball installed and consumer.ts beside a strict tsconfig.
function consumerProject(dir, tarball) {
  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
  copyFileSync(new URL('consumer.ts', import.meta.url), join(app, 'consumer.ts'));
  const compilerOptions = {
    strict: true, noEmitOnError: true, target: 'es2022', module: 'node16', moduleResolution: 'node16',
    lib: ['es2022', 'dom'], outDir: 'out',
  };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
  return app;
}

test('npm pack holds the wrapper, its types and the three builds, and nothing else', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tinyformer-pack-'));
  try {
    const { files } = pack(dir);
    const expected = ['README.md', 'package.json', ...PACKAGE_FILES.map((f) => `web/wasm/${f}`)].sort();
    assert.deepEqual(files, expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the packed module installs elsewhere, type-checks under tsc --strict and trains the toy model', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tinyformer-pack-'));
  try {
    const app = consumerProject(dir, pack(dir).tarball);
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/tinyformer/package.json'), 'utf8'));
    assert.deepEqual(Object.keys(installed.dependencies), ['uplot']);
    try {
      run(tsc, ['-p', '.'], app);
    } catch (error) {
      assert.fail(`tsc refused consumer.ts:\n${error.stdout}${error.stderr}`);
    }
    const result = JSON.parse(run('node', ['out/consumer.js'], app));
    assert.equal(result.steps, 1000);
    assert.ok(result.first > 1.5, `first losses ${result.first.toFixed(3)}: the model should start far from trained`);
    assert.ok(result.last < 0.6, `mean of the last 200 losses ${result.last.toFixed(3)} did not fall below 0.6`);
    assert.match(result.refused, /lr must be in \(0, 10\), got -1/);
    assert.equal(result.deleted, true, 'Symbol.dispose deleted the run');
    assert.equal(result.liveHandles, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
