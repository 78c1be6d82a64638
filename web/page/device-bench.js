// The device benchmark (not a test): tokens/s and GFLOP/s of the story training step on every device this
// page can use (WebGPU when an adapter and the WebGPU build are there, wasm threads when cross-origin
// isolated, wasm on one thread), side by side in one run. Each device gets a worker of its own (the lab's
// worker.js, so the numbers are the lab's own path); the lab's worker is left alone. `course` is the
// course's story model (dim 128, 4 blocks, 64 x 32 windows); `small` the shape a software adapter manages.
// Beside the times, WebGPU rows count what each step sent the device (the module's webgpuCounts): compute
// dispatches (per phase too), queue submits, queue writes (uploads) and their bytes; a software adapter's
// times say little of a GPU's, these counts say what a GPU would be asked to do.
import { LabClient } from './client.js';
import { Msg } from '../shared/protocol.js';
import { DEVICE_LABELS, Device } from '../shared/device-choice.js';
import { button, el, field, fmt, readField } from '../widgets/ui.js';

export const BENCH_SIZES = Object.freeze({
  course: { textBytes: 4_000_000, model: {}, batch: undefined, seqLen: undefined },
  small: { textBytes: 40_000, model: { dim: 32, heads: 2, layers: 1, max_length: 16 }, batch: 8, seqLen: 16 },
});

// The devices worth a row: the lab worker's probe says whether WebGPU could train here (also where auto
// left it, a software adapter say); threads need isolation.
export function benchDevices(module) {
  const devices = [];
  if (module.device === Device.WEBGPU || module.webgpuUsable) devices.push(Device.WEBGPU);
  if (module.crossOriginIsolated) devices.push(Device.WASM_THREADS);
  devices.push(Device.WASM_SINGLE);
  return devices;
}

async function storyConfig(client, size, causal) {
  const s = BENCH_SIZES[size];
  const config = await client.request(Msg.DEFAULT_CONFIG, { task: 'stories', kind: 'transformer' });
  Object.assign(config.model, s.model, { causal });
  if (s.batch) config.batch = s.batch;
  if (s.seqLen) config.seqLen = s.seqLen;
  return config;
}

// Trains `warmup` then `steps` steps of a fresh run: the timed steps' seconds, tokens/s and GFLOP/s, every
// step's loss (the parity test compares them across devices) and, on WebGPU, the timed steps' counts per
// step (null elsewhere).
async function timeSteps(client, config, warmup, steps) {
  await client.request(Msg.CREATE_RUN, { slot: 'bench', config });
  const losses = [];
  const keepLosses = (p) => losses.push(...p.losses);
  if (warmup) await client.request(Msg.TRAIN, { slot: 'bench', until: warmup }, { onProgress: keepLosses });
  await client.request(Msg.GPU_COUNTS, { reset: true });
  let seconds = 0, tokens = 0, gflop = 0;
  const onProgress = (p) => {
    keepLosses(p);
    seconds += p.seconds;
    tokens += p.tokensPerSecond * p.seconds;
    gflop += p.gflopsPerSecond * p.seconds;
  };
  await client.request(Msg.TRAIN, { slot: 'bench', until: warmup + steps }, { onProgress });
  const counts = await client.request(Msg.GPU_COUNTS, { reset: true });
  await client.request(Msg.DROP, { slot: 'bench' });
  return { seconds, tokensPerSecond: tokens / seconds, gflopsPerSecond: gflop / seconds, losses, perStep: counts && countsPerStep(counts, steps) };
}

// {dispatches, submits, writes, writeBytes, phases: {forward, backward, optimizer, ...: dispatches}} per step.
export function countsPerStep({ total, phases }, steps) {
  const per = (n) => n / steps;
  return {
    dispatches: per(total.dispatches), submits: per(total.submits), writes: per(total.writes), writeBytes: per(total.writeBytes),
    phases: Object.fromEntries(Object.entries(phases).map(([phase, c]) => [phase, per(c.dispatches)])),
  };
}

export const COUNT_HEADINGS = ['dispatches/step', 'submits/step', 'writes/step', 'KB written/step'];

// The counts per step in words, one per COUNT_HEADINGS; '–' for a device that sends nothing to a GPU.
export function countCells(perStep) {
  if (!perStep) return COUNT_HEADINGS.map(() => '–');
  return [fmt(perStep.dispatches, 4), fmt(perStep.submits, 3), fmt(perStep.writes, 3), fmt(perStep.writeBytes / 1024, 3)];
}

// The dispatches per step by phase, for the dispatch cell's title: "forward 53, backward 177, ...".
export const phaseWords = (perStep) => Object.entries(perStep.phases).filter(([, n]) => n > 0).map(([p, n]) => `${p} ${fmt(n, 4)}`).join(', ');

// One row per device and loss (`causal`: diffusion false, causal true): {device, causal, adapter, threads, size,
// steps, ...timing}. device-race.js times auto's candidates with it too.
export async function runBench({ devices, size = 'small', steps = 10, warmup = 2, causal = [false, true], onRow = () => {} }) {
  const rows = [];
  for (const device of devices) {
    const client = new LabClient();
    try {
      const info = await client.request(Msg.INIT, { device });
      const { text } = await client.request(Msg.BUILTIN_CORPUS, { bytes: BENCH_SIZES[size].textBytes });
      await client.request(Msg.SET_CORPUS, { text, source: 'built-in stories' });
      for (const c of causal) {
        const timing = await timeSteps(client, await storyConfig(client, size, c), warmup, steps);
        const row = { device: info.device, causal: c, adapter: info.adapter, threads: info.threads, size, steps, ...timing };
        rows.push(row);
        onRow(row);
      }
    } finally {
      client.close();
    }
  }
  return rows;
}

// The panel under the banner: size, steps, a button, and the table the run fills.
export function benchPanel(ctx) {
  const size = field('size', { kind: 'select', value: 'small', options: [['small', 'small (dim 32, 1 block, 8 × 16)'], ['course', 'course (dim 128, 4 blocks, 64 × 32)']], name: 'bench-size' });
  const steps = field('steps', { value: 10, min: 1, name: 'bench-steps' });
  const body = el('tbody');
  const status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const headings = ['device', 'loss', 'tokens/s', 'GFLOP/s', 'seconds', ...COUNT_HEADINGS];
  const table = el('table', { class: 'bench-table' }, el('thead', {}, el('tr', {}, ...headings.map((h) => el('th', {}, h)))), body);
  const labelled = (cells) => cells.map((td, i) => ((td.dataset.label = headings[i]), td));  // a phone shows each cell's heading
  const run = button('Run the benchmark', async () => {
    run.disabled = true;
    body.replaceChildren();
    status.textContent = 'Training the story model on each device in turn…';
    try {
      await runBench({
        devices: benchDevices(ctx.module), size: readField(size.input), steps: readField(steps.input),
        onRow: (r) => body.append(el('tr', { dataset: { result: JSON.stringify(r) } }, ...labelled([
          el('td', {}, r.device === Device.WEBGPU ? `WebGPU (${r.adapter})` : r.device === Device.WASM_THREADS ? `${DEVICE_LABELS[r.device]} (${r.threads})` : DEVICE_LABELS[r.device]),
          el('td', {}, r.causal ? 'causal' : 'diffusion'), el('td', {}, fmt(r.tokensPerSecond, 4)),
          el('td', {}, fmt(r.gflopsPerSecond, 3)), el('td', {}, fmt(r.seconds, 3)),
          ...countCells(r.perStep).map((c, i) => el('td', { title: i === 0 && r.perStep ? phaseWords(r.perStep) : null }, c))]))),
      });
      status.textContent = 'Done: each row is one device training the same model from the same seed.';
    } catch (error) {
      status.textContent = `The benchmark failed: ${error.message}`;
    } finally {
      run.disabled = false;
    }
  });
  return el('details', { id: 'device-bench', class: 'device-bench' }, el('summary', {}, 'Benchmark the devices (story training step)'),
    el('p', {}, 'Tokens per second and GFLOP/s of a story training step on each device this page can use, one after the other; ' +
      'on WebGPU also what each step sends the GPU: compute dispatches (by phase in the cell\'s title), queue submits and uploads.'),
    el('div', { class: 'bench-controls' }, size.wrap, steps.wrap, run), status, el('div', { class: 'table-wrap' }, table));
}
