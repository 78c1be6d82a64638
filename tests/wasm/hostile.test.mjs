// Hostile files and out-of-memory in the wasm module (issue 26): what the page's worker does with an upload
// (inspectCheckpoint, then loadModel) refuses headers near the 100 MB limit with a TinyformerError within
// 10 s and 1.5 GB of wasm memory, leaks nothing (a failed call frees its copy of the bytes), and the module
// works after every failure, an out-of-memory included. The refusals read as the CLI's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describeBuilds, haveNative, nativeCli, scratchDir, throwsTf } from './support.mjs';
import { hostileHeaders, joinFile, splitFile } from '../support/hostile-files.mjs';

describeBuilds('hostile files', (lab) => {
  test('headers near 100 MB are refused by inspectCheckpoint and loadModel, and the module works after', { timeout: 300_000 }, () => {
    const run = lab.tf.createRun({ task: 'toy', batch: 8 });
    run.train(3);
    const good = run.checkpoint();
    run.delete();
    for (const name of ['lossHistory', 'tensorEntries', 'nestedConfig']) {
      const { make, refusal } = hostileHeaders[name];
      const bytes = make(good, 95e6);
      const rounds = name === 'lossHistory' ? 2 : 1;  // the page's two calls on an upload; twice: no leak
      let memory = 0;
      for (let round = 0; round < rounds; ++round) {
        for (const call of [() => lab.tf.inspectCheckpoint(bytes), () => lab.tf.loadModel(bytes)]) {
          const started = process.cpuUsage();  // CPU time: what the call costs, whatever else the machine runs
          throwsTf(call, refusal);
          const { user, system } = process.cpuUsage(started);
          const seconds = (user + system) / 1e6;
          assert.ok(seconds < 10, `${name}: ${seconds} s`);
          console.log(`# ${name} (${(bytes.length / 1e6).toFixed(0)} MB): ${seconds.toFixed(2)} s CPU, wasm memory ${(lab.tf.memoryBytes() / 1e6).toFixed(0)} MB`);
        }
        if (round === 0) memory = lab.tf.memoryBytes();
      }
      assert.ok(lab.tf.memoryBytes() < 1.5e9, `${name}: wasm memory ${lab.tf.memoryBytes()}`);
      // A leak would be the file's size per call (Embind's copy of the bytes, before withBytes).
      assert.ok(lab.tf.memoryBytes() < memory + 50e6, `${name}: a second upload grew memory ${memory} -> ${lab.tf.memoryBytes()}`);
      const back = lab.tf.loadModel(good);
      assert.equal(lab.tf.inspectCheckpoint(good).step, 3);
      back.delete();
    }
    assert.equal(lab.tf.liveHandles(), lab.baseline);
  });

  test('a failed call frees its copy of the bytes: forty refused uploads of 40 MB leave memory as it was', () => {
    const junk = new Uint8Array(40e6);  // a header length over the limit: refused at once
    junk[7] = 0x7f;
    throwsTf(() => lab.tf.inspectCheckpoint(junk), /header length \d+ is over the limit/);
    const before = lab.tf.memoryBytes();
    for (let i = 0; i < 20; ++i) {
      throwsTf(() => lab.tf.inspectCheckpoint(junk), /header length \d+ is over the limit/);
      throwsTf(() => lab.tf.loadModel(junk), /header length \d+ is over the limit/);
    }
    assert.ok(lab.tf.memoryBytes() <= before + 8e6, `memory grew ${before} -> ${lab.tf.memoryBytes()}`);
    const run = lab.tf.createRun({ task: 'toy', seed: 1 });
    assert.ok(run.train(1).losses.every(Number.isFinite));
    run.delete();
  });

  test('out of memory is a TinyformerError: a failing call, then a working one', () => {
    const big = lab.tf.createRun({ task: 'toy', batch: 65536, model: { dim: 512, heads: 1, layers: 1 } });
    try {
      throwsTf(() => big.train(1), /out of memory/);
    } finally {
      big.delete();
    }
    const small = lab.tf.createRun({ task: 'toy', seed: 1 });
    assert.ok(small.train(2).losses.every(Number.isFinite));
    assert.equal(lab.tf.inspectCheckpoint(small.checkpoint()).step, 2);
    small.delete();
  });

  test('the vocabulary rule and the precise refusals are the CLI\'s, word for word', () => {
    const run = lab.tf.createRun({ task: 'toy', batch: 8 });
    run.train(1);
    const { header, data } = splitFile(run.checkpoint());
    run.delete();
    const words = JSON.parse(header.__metadata__['tinyformer.vocab']);
    const twice = structuredClone(header);
    twice.__metadata__['tinyformer.vocab'] = JSON.stringify([words[0], words[0], ...words.slice(2)]);
    throwsTf(() => lab.tf.inspectCheckpoint(joinFile(JSON.stringify(twice), data)), /vocabulary has the word ".*" twice \(token ids 0 and 1\)/);
    const extra = structuredClone(header);
    extra['blocks.7.extra'] = { dtype: 'F32', shape: [0], data_offsets: [0, 0] };
    const bytes = joinFile(JSON.stringify(extra), data);
    let message = '';
    try {
      lab.tf.loadModel(bytes);
    } catch (e) {
      message = e.message;
    }
    assert.equal(message, "the checkpoint has parameter(s) the model does not: 'blocks.7.extra'");
    if (!haveNative) return;
    const path = join(scratchDir(), 'extra.safetensors');
    writeFileSync(path, bytes);
    const r = spawnSync(nativeCli, ['info', '--checkpoint', path], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.ok(r.stderr.includes(message), r.stderr);
  });
});
