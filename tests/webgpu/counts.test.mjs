// What the WebGPU backend sends a GPU for the default story step, counted on a recording device under Node
// (counting-harness.mjs): the module's counters agree with what the device saw, the step stays within its
// dispatch, submit and write targets, no reduction walks more than 64 rows in one invocation, every GEMM call
// has at least 64 workgroups, and every pipeline was made asynchronously while the module loaded.
// Skips without the WebGPU build in web/wasm/.
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

  // The targets: at most 150 dispatches per step (forward, backward and optimizer together) and one submit
  // for the chunk; the optimizer over the flat slabs is one Adam dispatch, one step guard and the gradient
  // slab's sum of squares (two), with the fill that zeroes the gradient slab for the next step.
  assert.ok(s.total.dispatches <= 150, `${s.total.dispatches} dispatches per step`);
  assert.ok(s.submitsPerChunk <= 1, `${s.submitsPerChunk} submits for a chunk of ${STEPS} steps`);
  assert.ok(s.total.writes * STEPS <= 1, `${s.total.writes * STEPS} queue writes for the chunk`);
  assert.equal(s.dispatchesByPipeline['optimizer/adam_step'], 1);
  assert.equal(s.dispatchesByPipeline['step_guard/step_guard'], 1);
  assert.ok(s.phases.optimizer.dispatches <= 5, `${s.phases.optimizer.dispatches} optimizer dispatches per step`);

  // The arena is as large as the run needs (it grew from its 32 MiB start), not the device's 1 GiB.
  assert.ok(s.arena.growths >= 1 && s.arena.bytes <= 256 * 2 ** 20, JSON.stringify(s.arena));

  // Every pipeline was made with createComputePipelineAsync while the module loaded, none at a dispatch.
  assert.equal(result.own.asyncPipelines, result.counts.pipelines.length);
  assert.equal(result.own.syncPipelines, 0);
  assert.equal(s.syncPipelines, 0);

  // No invocation walks more than 64 rows of a reduction (the column sums of 2048 rows included), and every
  // GEMM call of the step, the weight gradients with few output tiles too, runs on at least 64 workgroups.
  for (const reduction of ['reduce/sum_rows', 'layer_norm/layer_norm_backward_params']) {
    assert.ok(s.rowsByPipeline[reduction] > 0, `${reduction} reports the rows it walks`);
  }
  assert.ok(s.maxRows <= 64, `rows one invocation walks: ${JSON.stringify(s.rowsByPipeline)}`);
  assert.ok(s.gemmCallsPerStep > 0, `${s.gemmCallsPerStep} GEMM calls per step`);
  assert.ok(s.minGemmWorkgroups >= 64, `GEMM workgroups: ${JSON.stringify(s.gemmByPipeline)}`);
});
