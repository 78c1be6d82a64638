// The counting harness: the WebGPU build of the module (web/wasm/tinyformer-gpu.*) under Node on a
// recording GPUDevice, a fake that executes nothing, through a chunk of default story steps
// (MyTransformer(2002): dim 128, 4 heads, 4 blocks, 64 x 32 tokens, Adam). It reports what a GPU would be
// sent, per step phase: dispatches, queue submits, queue writes and their bytes, the workgroups of every
// GEMM call and the rows of a reduction one invocation walks, and the host's time per step (the fake does
// no GPU work, so that time is all host) and per dispatch (the profiler's kernel times: enqueue times). The module's own counters
// (webgpuCounts) give the phases and the per-dispatch facts; the fake counts the device calls itself, and
// the two must agree. Its reads return 1.0 in every float: a step log of finite losses, all kept.
//   node tests/webgpu/counting-harness.mjs [--steps N]     prints the report
// counts.test.mjs asserts the targets from it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
export const GPU_BUILD = existsSync(new URL('web/wasm/tinyformer-gpu.wasm', root));

// WebGPU's flag constants, as the spec numbers them (Node has no WebGPU globals).
const GLOBALS = {
  GPUBufferUsage: { MAP_READ: 1, MAP_WRITE: 2, COPY_SRC: 4, COPY_DST: 8, INDEX: 16, VERTEX: 32, UNIFORM: 64, STORAGE: 128, INDIRECT: 256, QUERY_RESOLVE: 512 },
  GPUShaderStage: { VERTEX: 1, FRAGMENT: 2, COMPUTE: 4 },
  GPUMapMode: { READ: 1, WRITE: 2 },
};

// A GPUDevice that records what it is asked to do. record: {dispatches: [{label, groups}], submits,
// writes, writeBytes, copies, copyBytes, asyncPipelines, syncPipelines, buffers}.
export function recordingDevice({ limit = 1 << 30, features = [] } = {}) {
  const record = { dispatches: [], submits: 0, writes: 0, writeBytes: 0, copies: 0, copyBytes: 0, asyncPipelines: 0, syncPipelines: 0, buffers: 0 };
  const buffer = ({ size, usage, label }) => {
    record.buffers++;
    return {
      size, usage, label, destroy() {}, unmap() {},
      mapAsync: async () => {},
      getMappedRange: (offset = 0, bytes = size - offset) => new Float32Array(bytes / 4).fill(1).buffer,
    };
  };
  const pass = () => {
    let pipeline = null;
    return {
      setPipeline(p) { pipeline = p; },
      setBindGroup() {},
      dispatchWorkgroups(x, y = 1, z = 1) { record.dispatches.push({ label: pipeline.label, groups: x * y * z }); },
      end() {},
    };
  };
  const device = {
    limits: { maxStorageBufferBindingSize: limit, maxBufferSize: limit, minUniformBufferOffsetAlignment: 256 },
    features: new Set(features),
    lost: new Promise(() => {}),
    addEventListener() {},
    pushErrorScope() {},
    popErrorScope: async () => null,
    createBuffer: buffer,
    createBindGroupLayout: (d) => ({ ...d }),
    createPipelineLayout: (d) => ({ ...d }),
    createBindGroup: (d) => ({ ...d }),
    createShaderModule: ({ label }) => ({ label }),
    createComputePipelineAsync: async ({ label }) => { record.asyncPipelines++; return { label }; },
    createComputePipeline: ({ label }) => { record.syncPipelines++; return { label }; },
    createCommandEncoder: () => ({
      beginComputePass: pass,
      copyBufferToBuffer(src, srcOffset, dst, dstOffset, bytes) { record.copies++; record.copyBytes += bytes; },
      finish: () => ({}),
    }),
    queue: {
      writeBuffer(target, offset, data, dataOffset = 0, size) {
        record.writes++;
        record.writeBytes += size ?? data.byteLength - dataOffset;
      },
      submit() { record.submits++; },
      onSubmittedWorkDone: async () => {},
    },
    destroy() {},
  };
  return { device, record };
}

function ownStoryText(lab) {
  return { train: lab.builtinStories(1, 4_000_000) };
}

// Loads the WebGPU build on a recording device, trains `warmup` steps, then one chunk of `steps` steps and
// returns the module's counters of that chunk, the device's own record of it and the host's time.
export async function countStorySteps({ steps = 4, warmup = 4 } = {}) {
  Object.assign(globalThis, GLOBALS);
  const { loadTinyformer } = await import('../../wasm/tinyformer.js');
  const { device, record } = recordingDevice();
  const lab = await loadTinyformer({ webgpu: device, baseUrl: new URL('web/wasm/', root) });
  const run = lab.createRun({ task: 'stories', batch: 64, seqLen: 32 }, ownStoryText(lab));
  try {
    const { config: model, trainConfig: train } = run;
    const shape = { vocab: model.vocab, dim: model.dim, heads: model.heads, layers: model.layers, batch: train.batch, seqLen: train.seqLen, optimizer: train.optimizer };
    if (warmup) await run.trainChunk(warmup);
    lab.resetWebgpuCounts();
    const before = { ...record, dispatches: record.dispatches.length };
    const start = performance.now();
    const result = await run.trainChunk(steps);
    const ms = performance.now() - start;
    const counts = lab.webgpuCounts();
    const own = {
      dispatches: record.dispatches.slice(before.dispatches),
      submits: record.submits - before.submits,
      writes: record.writes - before.writes,
      writeBytes: record.writeBytes - before.writeBytes,
      copies: record.copies - before.copies,
      copyBytes: record.copyBytes - before.copyBytes,
      syncPipelines: record.syncPipelines,
      asyncPipelines: record.asyncPipelines,
    };
    // A second chunk under the profiler: its kernel times are the host's time to record the work.
    lab.resetProfile();
    lab.startProfile();
    await run.trainChunk(steps);
    lab.stopProfile();
    const profile = lab.profile();
    const kernelMs = profile.stems.filter((st) => st.stem !== 'memory').reduce((n, st) => n + st.forwardMs + st.backwardMs + st.otherMs, 0);
    return { shape, steps, counts, own, hostMsPerStep: ms / steps, kernelMsPerStep: kernelMs / steps, losses: result.stats.map((s) => s.loss) };
  } finally {
    run.delete();
  }
}

const FIELDS = ['dispatches', 'submits', 'writes', 'writeBytes', 'uploads', 'uploadBytes'];

// The report's numbers from a countStorySteps result: per phase per step, and the facts CI asserts.
export function summarize({ steps, counts, own, hostMsPerStep, kernelMsPerStep }) {
  const perStep = (x) => x / steps;
  const phases = {};
  for (const [name, c] of Object.entries(counts.phases)) {
    if (!c.dispatches && !c.submits && !c.writes && !c.uploads) continue;
    phases[name] = Object.fromEntries(FIELDS.map((f) => [f, perStep(c[f])]));
  }
  const used = counts.pipelines.filter((p) => p.dispatches > 0);
  const gemm = used.filter((p) => p.gemmCalls > 0);
  return {
    phases,
    total: Object.fromEntries(FIELDS.map((f) => [f, perStep(counts.total[f])])),
    submitsPerChunk: counts.total.submits,
    gemmCallsPerStep: perStep(gemm.reduce((n, p) => n + p.gemmCalls, 0)),
    minGemmWorkgroups: Math.min(...gemm.map((p) => p.minGemmWorkgroups)),
    maxRows: Math.max(0, ...used.map((p) => p.maxRows)),
    rowsByPipeline: Object.fromEntries(used.filter((p) => p.maxRows > 0).map((p) => [`${p.stem}/${p.entry}`, p.maxRows])),
    gemmByPipeline: Object.fromEntries(gemm.map((p) => [`${p.stem}/${p.entry}`, { callsPerStep: perStep(p.gemmCalls), minWorkgroups: p.minGemmWorkgroups }])),
    dispatchesByPipeline: Object.fromEntries(used.map((p) => [`${p.stem}/${p.entry}`, perStep(p.dispatches)])),
    hostMsPerStep,
    hostNsPerDispatch: (kernelMsPerStep * 1e6) / perStep(counts.total.dispatches),
    deviceAgrees: own.dispatches.length === counts.total.dispatches && own.submits === counts.total.submits && own.writes === counts.total.writes,
    syncPipelines: own.syncPipelines,
    arena: counts.arena,
  };
}

function table(s) {
  const lines = [];
  const row = (name, c) => lines.push(`  ${name.padEnd(10)} ${c.dispatches.toFixed(1).padStart(10)} ${c.submits.toFixed(2).padStart(8)} ${c.writes.toFixed(2).padStart(7)} ${c.writeBytes.toFixed(0).padStart(11)} ${c.uploads.toFixed(2).padStart(8)} ${c.uploadBytes.toFixed(0).padStart(12)}`);
  lines.push(`  ${'phase'.padEnd(10)} ${'dispatches'.padStart(10)} ${'submits'.padStart(8)} ${'writes'.padStart(7)} ${'write bytes'.padStart(11)} ${'uploads'.padStart(8)} ${'upload bytes'.padStart(12)}   (per step; uploads ride in the writes)`);
  for (const [name, c] of Object.entries(s.phases)) row(name, c);
  row('total', s.total);
  lines.push(`  submits per chunk: ${s.submitsPerChunk}; GEMM calls per step: ${s.gemmCallsPerStep}, fewest workgroups of one: ${s.minGemmWorkgroups}`);
  lines.push(`  most rows of a reduction one invocation walks: ${s.maxRows} (${Object.entries(s.rowsByPipeline).map(([k, v]) => `${k} ${v}`).join(', ')})`);
  lines.push(`  GEMM workgroups: ${Object.entries(s.gemmByPipeline).map(([k, v]) => `${k}: ${v.callsPerStep} calls/step, min ${v.minWorkgroups}`).join('; ')}`);
  lines.push(`  dispatches per step by pipeline: ${Object.entries(s.dispatchesByPipeline).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  lines.push(`  host: ${s.hostMsPerStep.toFixed(2)} ms per step; ${s.hostNsPerDispatch.toFixed(0)} ns per dispatch (the profiler's kernel enqueue time, memory entries aside, over the dispatches)`);
  lines.push(`  arena: ${s.arena.bytes / 2 ** 20} MiB after ${s.arena.growths} growths (the device would allow ${s.arena.limit / 2 ** 20} MiB)`);
  lines.push(`  the device's own record agrees with the module's counters: ${s.deviceAgrees}; pipelines made late: ${s.syncPipelines}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!GPU_BUILD) throw new Error('no web/wasm/tinyformer-gpu.* (bash scripts/build-wasm.sh)');
  const args = process.argv.slice(2);
  const steps = Number(args.includes('--steps') ? args[args.indexOf('--steps') + 1] : 4);
  const result = await countStorySteps({ steps });
  console.log(`default story step on a recording device: ${JSON.stringify(result.shape)}, a chunk of ${steps} steps`);
  console.log(table(summarize(result)));
}
