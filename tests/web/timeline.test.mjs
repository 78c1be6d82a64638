// E1's cadence and thinning (web/worker/timeline.js), without a browser: a run keeps a snapshot every 50
// steps, then 100, then 500, and never more than it may; thinning keeps the first and the last and takes
// the densest stretch, the oldest first. A saved run's timeline (web/widgets/timeline-saves.js) over a store
// with page/store.js's calls: written once, thinned within its budget, and the first to go when storage is full.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { nextMark } from '../../web/worker/timeline.js';
import { thin } from '../../web/shared/timeline-thinning.js';
import { TimelineSaves } from '../../web/widgets/timeline-saves.js';
import { Msg } from '../../web/shared/protocol.js';

// The steps a run of `steps` steps keeps, at most `most` at a time.
function kept(steps, most) {
  const timeline = [{ step: 0 }];
  for (let step = nextMark(0); step <= steps; step = nextMark(step)) {
    timeline.push({ step });
    thin(timeline, most);
  }
  return timeline.map((k) => k.step);
}

test('snapshots every 50 steps up to 1000, every 100 up to 5000, then every 500', () => {
  assert.deepEqual([0, 49, 50, 950, 999, 1000, 4900, 5000, 5100].map(nextMark), [50, 50, 100, 1000, 1000, 1100, 5000, 5500, 5500]);
  assert.deepEqual(kept(300, 40), [0, 50, 100, 150, 200, 250, 300]);
});

test('a long run keeps at most 40, its first and last among them, thinned where they lie closest', () => {
  const steps = kept(20000, 40);
  assert.equal(steps.length, 40);
  assert.equal(steps[0], 0);
  assert.equal(steps.at(-1), 20000);
  const gaps = steps.slice(1).map((s, i) => s - steps[i]);
  assert.ok(Math.max(...gaps) <= 1000, `gaps ${gaps}`);
  assert.ok(gaps.slice(-10).every((g) => g >= 500), 'the newest stretch keeps its 500-step snapshots');
  assert.deepEqual(kept(300, 4), [0, 100, 200, 300], 'a model too big for more keeps them evenly');
});

// page/store.js's calls over a Map, with array keys and a quota: a put past it is refused as a full disk
// refuses it (a QuotaExceededError), nothing written.
function memoryStore(quota = Infinity) {
  const entries = new Map();
  const bytes = (v) => (v.weights ? v.weights.reduce((sum, w) => sum + w.data.byteLength, 0) : v.bytes.byteLength);
  const within = (prefix) => [...entries.keys()].filter((k) => {
    const key = JSON.parse(k)[1];
    return Array.isArray(key) && prefix.every((p, i) => key[i] === p);  // IndexedDB's array keys sort apart
  });
  return {
    puts: 0,
    used: () => [...entries.values()].reduce((sum, v) => sum + bytes(v), 0),
    async put(name, key, value) {
      const id = JSON.stringify([name, key]);
      if (this.used() - (entries.has(id) ? bytes(entries.get(id)) : 0) + bytes(value) > quota) {
        throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
      }
      entries.set(id, value);
      this.puts++;
    },
    async delete(name, key) {
      entries.delete(JSON.stringify([name, key]));
    },
    keysFrom: async (name, prefix) => within(prefix).filter((k) => JSON.parse(k)[0] === name).map((k) => JSON.parse(k)[1]),
    valuesFrom: async (name, prefix) => within(prefix).filter((k) => JSON.parse(k)[0] === name).map((k) => entries.get(k)),
    async deleteFrom(name, prefix) {
      for (const k of within(prefix)) if (JSON.parse(k)[0] === name) entries.delete(k);
    },
  };
}

const SNAPSHOT = 1000;  // bytes of one snapshot's weights in these tests
// The worker's side: a snapshot of `step` (its numbers say the step), and the timeline taken back.
function fakeWorker() {
  const worker = { asked: [], restored: null };
  worker.request = async (type, payload) => {
    worker.asked.push(type === Msg.SNAPSHOT ? payload.step : type);
    if (type === Msg.SNAPSHOT) return [{ name: 'w', shape: [SNAPSHOT / 4], data: new Float32Array(SNAPSHOT / 4).fill(payload.step) }];
    worker.restored = payload.snapshots;
    return payload.snapshots.map((k) => k.step);
  };
  return worker;
}

test('a saved timeline writes each snapshot once, deletes what thins, and holds its budget', async () => {
  const store = memoryStore();
  const worker = fakeWorker();
  const saves = new TimelineSaves('toy', { store, request: worker.request, budget: 8 * SNAPSHOT });
  const memory = [{ step: 0 }];
  let most = 0;
  for (let step = nextMark(0); step <= 3000; step = nextMark(step)) {
    memory.push({ step });
    thin(memory, 40);
    const kept = await saves.sync('run-a', memory.map((k) => k.step), SNAPSHOT);
    most = Math.max(most, store.used());
    assert.deepEqual((await store.keysFrom('snapshots', ['toy'])).map((k) => k[2]), kept);
    assert.ok(kept.every((s) => memory.some((k) => k.step === s)), 'only steps the memory keeps');
  }
  assert.ok(most <= 8 * SNAPSHOT, `the stored snapshots took ${most} bytes`);
  const steps = (await store.keysFrom('snapshots', ['toy'])).map((k) => k[2]);
  assert.equal(steps.length, 8);
  assert.equal(steps[0], 0);
  assert.equal(steps.at(-1), 3000);
  const puts = store.puts;
  await saves.sync('run-a', memory.map((k) => k.step), SNAPSHOT);
  assert.equal(store.puts, puts, 'nothing new: nothing written (the autosave every 2 s)');
  assert.equal(new Set(worker.asked).size, worker.asked.length, 'each snapshot read from the worker once');

  assert.deepEqual(await saves.restore('run-a'), steps);
  assert.deepEqual(worker.restored.map((k) => [k.step, k.weights[0].data[0]]), steps.map((s) => [s, s]), 'by step, each its own weights');
  assert.equal(await saves.restore('run-b'), null);

  assert.deepEqual(await saves.sync('run-b', [0, 50], SNAPSHOT), [0, 50]);
  assert.deepEqual(await store.keysFrom('snapshots', ['toy']), [['toy', 'run-b', 0], ['toy', 'run-b', 50]], 'a new run: the old one\'s snapshots went');
  await saves.forget();
  assert.deepEqual(await store.keysFrom('snapshots', []), []);
});

test('a full storage costs the timeline, never the run: snapshots go first', async () => {
  const store = memoryStore(3.5 * SNAPSHOT);
  const saves = new TimelineSaves('toy', { store, request: fakeWorker().request });
  const run = { bytes: new Uint8Array(1.5 * SNAPSHOT) };
  assert.equal(await saves.roomFor(() => store.put('runs', 'toy', run)), false);
  await assert.rejects(saves.sync('run-a', [0, 50, 100], SNAPSHOT), { name: 'QuotaExceededError' });
  assert.deepEqual(await store.keysFrom('snapshots', []), [], 'a timeline not kept whole is not kept');
  assert.deepEqual(await saves.sync('run-a', [0, 50], SNAPSHOT), [0, 50]);
  const bigger = { bytes: new Uint8Array(2.5 * SNAPSHOT) };
  assert.equal(await saves.roomFor(() => store.put('runs', 'toy', bigger)), true, 'the timelines made room');
  assert.deepEqual(await store.keysFrom('snapshots', []), []);
  assert.equal((await store.valuesFrom('runs', [])).length, 0, 'runs are not array keys: untouched by prefixes');
  await assert.rejects(saves.roomFor(() => store.put('runs', 'toy', { bytes: new Uint8Array(4 * SNAPSHOT) })), { name: 'QuotaExceededError' });
});
