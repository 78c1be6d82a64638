// What the WebGPU backend sends a GPU for the default story step, counted on a recording device under Node
// (counting-harness.mjs): the module's counters agree with what the device saw, and every pipeline was
// made asynchronously while the module loaded. Skips without the WebGPU build in web/wasm/.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { GPU_BUILD, countStorySteps, summarize } from './counting-harness.mjs';

const skip = !GPU_BUILD && 'no web/wasm/tinyformer-gpu.* (bash scripts/build-wasm.sh)';
const STEPS = 3;

test(`a chunk of ${STEPS} default story steps, counted on a recording device`, { skip }, async (t) => {
  const result = await countStorySteps({ steps: STEPS });
  const s = summarize(result);
  t.diagnostic(JSON.stringify({ phases: s.phases, total: s.total, submitsPerChunk: s.submitsPerChunk, minGemmWorkgroups: s.minGemmWorkgroups, maxRows: s.maxRows }));
  assert.deepEqual(result.shape, { vocab: 2002, dim: 128, heads: 4, layers: 4, batch: 64, seqLen: 32, optimizer: 'adam' });
  assert.equal(result.losses.length, STEPS);

  // The module's counters are what the device was asked to do.
  assert.equal(result.own.dispatches.length, result.counts.total.dispatches);
  assert.equal(result.own.submits, result.counts.total.submits);
  assert.equal(result.own.writes, result.counts.total.writes);
  assert.equal(result.own.writeBytes, result.counts.total.writeBytes);
  const workgroups = result.own.dispatches.reduce((n, d) => n + d.groups, 0);
  assert.equal(workgroups, result.counts.total.workgroups);
  assert.equal(result.own.copies, result.counts.total.uploads + 1);  // and the step log's read

  // Every pipeline was made with createComputePipelineAsync while the module loaded, none at a dispatch.
  assert.equal(result.own.asyncPipelines, result.counts.pipelines.length);
  assert.equal(result.own.syncPipelines, 0);
  assert.equal(s.syncPipelines, 0);
});
