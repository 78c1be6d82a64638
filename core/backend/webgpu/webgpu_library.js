// The JS side of the WebGPU backend, linked into the module with --js-library (dispatch.cpp is the C++
// side). It owns the GPUDevice handed in as Module.webgpu, the arena (the one GPUBuffer all device memory
// lives in; it grows into a larger buffer when C++ asks), the compute pipelines (all made with createComputePipelineAsync while the module loads, from
// the WGSL that C++ embeds; Module.webgpuReady() settles when they are), the GPU copy of the ring (C++
// stages each dispatch's Params and each small upload in wasm memory: one queue write per submit, the
// uploads then copied into the arena in order with the dispatches) and the open command encoder. Every
// import returns 0, or 1 with a message kept for tf_webgpu_message: a JS exception must not cross wasm
// frames (C++ would not unwind), so C++ raises it. Nothing is allocated per dispatch. The counters
// (Module.webgpuCounts) count dispatches, workgroups, submits and queue writes per step phase, and per
// pipeline the facts C++ gives (rows a reduction's invocation walks, GEMM calls' workgroups). Reads back
// need Asyncify (the doctest build); production reads use Module.webgpuRead (a Promise).

mergeInto(LibraryManager.library, {
  $TFGPU: {
    device: null,
    arena: null,
    arenaBytes: 0,
    arenaLimit: 0,      // the largest arena the device allows (its buffer and binding limits)
    growths: 0,         // times the arena grew
    layout: null,       // the bind group layout (a grown arena needs a new bind group)
    ring: null,         // GPUBuffer: uniform slots (dynamic offsets) and uploads, written from wasm memory at submit
    ringPtr: 0,         // where C++ stages them in wasm memory
    usedPtr: 0,         // C++'s count of the ring's bytes in use (a u32 in wasm memory), reset at submit
    slotBytes: 256,     // minUniformBufferOffsetAlignment, and the largest Params
    bindGroup: null,
    offsets: null,      // Uint32Array(1): the dynamic offset of a dispatch, reused
    pipelines: [],      // by id (pipelines.hpp); null until its createComputePipelineAsync settles
    info: [],           // by id: {stem, entry, source}
    pending: [],        // the pipelines' creation promises
    encoder: null,
    pass: null,
    lost: null,         // why the device was lost, once it is
    errors: [],         // uncaptured errors and failed shader compiles, raised at the next call
    message: '',
    phases: [],         // the step phases' names (profile.hpp), by index
    counts: null,       // Float64Array [phase][kCounted]
    perPipeline: null,  // Float64Array [pipeline][kPipelineCounted]
    syncPipelines: 0,   // pipelines made synchronously because a dispatch came before they were ready

    base: 256,  // the device pointer of arena offset 0 (kArenaBase in dispatch.hpp)

    // Per phase: dispatches, workgroups, submits, queue writes and their bytes, uploads through the ring
    // (their bytes go in its queue write) and their bytes.
    counted: ['dispatches', 'workgroups', 'submits', 'writes', 'writeBytes', 'uploads', 'uploadBytes'],
    // Per pipeline: dispatches, workgroups, the most rows an invocation walked, GEMM calls, the fewest
    // workgroups of one of them (Infinity when none), and GPU time in ns while kernels are timed.
    pipelineCounted: ['dispatches', 'workgroups', 'maxRows', 'gemmCalls', 'minGemmWorkgroups', 'gpuNs'],

    // Kernel timing (timestamp-query, where the device has it): while on, each dispatch is a compute pass of
    // its own with a timestamp at its start and end; the pairs are resolved at the submit and read back
    // asynchronously into gpuNs (Module.webgpuTimesSettled() waits for them). Off, nothing changes.
    timing: false,
    querySet: null,
    queryCapacity: 4096,  // two per dispatch: a submit every 2048 timed dispatches
    queryCount: 0,
    timedIds: null,       // Uint32Array: the pipeline of each timed dispatch
    resolved: null,       // GPUBuffer the query set resolves into
    timesPending: [],

    read: async function(ptr, bytes) {
      if (!TFGPU.device) throw new Error('this module has no WebGPU device (pass { webgpu: GPUDevice })');
      var offset = ptr - TFGPU.base;
      if (offset < 0 || offset % 4 || offset + bytes > TFGPU.arenaBytes)
        throw new Error('webgpuRead: ' + ptr + ' (+' + bytes + ' bytes) is not a 4-byte aligned WebGPU device range');
      if (TFGPU.check()) throw new Error(TFGPU.message);
      var data = await TFGPU.readBytes(offset, bytes);
      if (TFGPU.check()) throw new Error(TFGPU.message);
      return data;
    },

    fail: function(message) {
      TFGPU.message = message;
      return 1;
    },

    // 1 (with the message) when the device is lost or an error was reported since the last call.
    check: function() {
      if (TFGPU.lost !== null) return TFGPU.fail('the WebGPU device was lost: ' + TFGPU.lost);
      if (TFGPU.errors.length) {
        var shown = TFGPU.errors.slice(0, 3).join('; ');
        var more = TFGPU.errors.length > 3 ? ' (and ' + (TFGPU.errors.length - 3) + ' more)' : '';
        TFGPU.errors = [];
        return TFGPU.fail('WebGPU error: ' + shown + more);
      }
      return 0;
    },

    init: function(ringPtr, ringBytes, usedPtr, phasesPtr, table, count, startBytes) {
      var device = Module['webgpu'];
      if (!device || typeof device.createBuffer !== 'function') return 0;
      TFGPU.device = device;
      device.lost.then(function(info) {
        TFGPU.lost = (info && info.message) || (info && info.reason) || 'unknown reason';
      });
      device.addEventListener('uncapturederror', function(e) {
        TFGPU.errors.push(e.error && e.error.message ? e.error.message : String(e.error));
      });
      TFGPU.phases = UTF8ToString(phasesPtr).split(',').filter(Boolean);
      TFGPU.counts = new Float64Array(TFGPU.phases.length * TFGPU.counted.length);
      TFGPU.perPipeline = new Float64Array(count * TFGPU.pipelineCounted.length);
      TFGPU.resetCounts();
      var limit = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize, 4294967040);
      TFGPU.arenaLimit = Math.floor(limit / 256) * 256;
      TFGPU.arenaBytes = Math.min(TFGPU.arenaLimit, Math.ceil((Module['webgpuArenaBytes'] || startBytes) / 256) * 256);
      TFGPU.arena = TFGPU.makeArena(TFGPU.arenaBytes);
      TFGPU.ringPtr = ringPtr;
      TFGPU.usedPtr = usedPtr;
      TFGPU.ring = device.createBuffer({
        label: 'tinyformer ring', size: ringBytes,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
      TFGPU.offsets = new Uint32Array(1);
      TFGPU.layout = device.createBindGroupLayout({
        entries: [
          { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
          { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
        ],
      });
      TFGPU.bind();
      TFGPU.makePipelines(device.createPipelineLayout({ bindGroupLayouts: [TFGPU.layout] }), table, count);
      return 1;
    },

    makeArena: function(bytes) {
      return TFGPU.device.createBuffer({
        label: 'tinyformer arena', size: bytes,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
    },

    bind: function() {
      TFGPU.bindGroup = TFGPU.device.createBindGroup({
        layout: TFGPU.layout,
        entries: [
          { binding: 0, resource: { buffer: TFGPU.arena } },
          { binding: 1, resource: { buffer: TFGPU.ring, size: TFGPU.slotBytes } },
        ],
      });
    },

    // A larger arena holding the old one's bytes, copied after the work recorded so far (submitted with it,
    // so that work still sees the old arena). Device pointers are offsets: every one stays valid. The old
    // buffer goes once the GPU is done with it.
    grow: function(bytes, phase) {
      var old = TFGPU.arena;
      if (TFGPU.pass) TFGPU.pass.end();
      TFGPU.pass = null;
      TFGPU.arena = TFGPU.makeArena(bytes);
      TFGPU.encoder = TFGPU.encoder || TFGPU.device.createCommandEncoder();
      TFGPU.encoder.copyBufferToBuffer(old, 0, TFGPU.arena, 0, TFGPU.arenaBytes);
      TFGPU.submit(phase);
      TFGPU.arenaBytes = bytes;
      TFGPU.growths++;
      TFGPU.bind();
      TFGPU.device.queue.onSubmittedWorkDone().then(function() { old.destroy(); });
    },

    // Every pipeline of the table (C++ PipelineInfo[count]: stem, entry and source pointers), asynchronously;
    // one shader module per stem. A shader that fails to compile is raised at the next call.
    makePipelines: function(layout, table, count) {
      var modules = {};
      for (var id = 0; id < count; ++id) {
        var at = (table >> 2) + id * 3;
        var info = { stem: UTF8ToString(HEAPU32[at]), entry: UTF8ToString(HEAPU32[at + 1]) };
        var module = modules[info.stem];
        if (!module) module = modules[info.stem] = TFGPU.device.createShaderModule({ label: info.stem, code: UTF8ToString(HEAPU32[at + 2]) });
        info.descriptor = { label: info.stem + '/' + info.entry, layout: layout, compute: { module: module, entryPoint: info.entry } };
        TFGPU.info.push(info);
        TFGPU.pipelines.push(null);
        TFGPU.pending.push(TFGPU.device.createComputePipelineAsync(info.descriptor).then(function(id, made) {
          TFGPU.pipelines[id] = TFGPU.pipelines[id] || made;
        }.bind(null, id), function(info, error) {
          TFGPU.errors.push('the shader ' + info.descriptor.label + ' failed to compile: ' + (error && error.message));
        }.bind(null, info)));
      }
    },

    // A pipeline a dispatch needs before its asynchronous creation settled (a caller that did not wait for
    // Module.webgpuReady): made synchronously, and counted.
    pipelineNow: function(id) {
      TFGPU.syncPipelines++;
      return TFGPU.pipelines[id] = TFGPU.device.createComputePipeline(TFGPU.info[id].descriptor);
    },

    timeKernels: function(on) {
      var device = TFGPU.device;
      if (on && !device.features.has('timestamp-query')) return false;
      if (on && !TFGPU.querySet) {
        TFGPU.querySet = device.createQuerySet({ type: 'timestamp', count: TFGPU.queryCapacity });
        TFGPU.resolved = device.createBuffer({ size: TFGPU.queryCapacity * 8, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
        TFGPU.timedIds = new Uint32Array(TFGPU.queryCapacity / 2);
      }
      TFGPU.timing = on;
      return on;
    },

    // Records one dispatch in a pass of its own between two timestamps.
    timedDispatch: function(pipeline, id, x, y, z, phase) {
      if (TFGPU.queryCount + 2 > TFGPU.queryCapacity) TFGPU.submit(phase);
      if (TFGPU.pass) TFGPU.pass.end();
      TFGPU.encoder = TFGPU.encoder || TFGPU.device.createCommandEncoder();
      var q = TFGPU.queryCount;
      TFGPU.timedIds[q / 2] = id;
      TFGPU.queryCount += 2;
      var pass = TFGPU.encoder.beginComputePass({
        timestampWrites: { querySet: TFGPU.querySet, beginningOfPassWriteIndex: q, endOfPassWriteIndex: q + 1 } });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, TFGPU.bindGroup, TFGPU.offsets, 0, 1);
      pass.dispatchWorkgroups(x, y, z);
      pass.end();
      TFGPU.pass = null;
    },

    // Before a submit: the timestamps recorded go to a staging buffer, read once the GPU has run them.
    resolveTimes: function(encoder) {
      var n = TFGPU.queryCount, ids = TFGPU.timedIds.slice(0, n / 2);
      TFGPU.queryCount = 0;
      var staging = TFGPU.device.createBuffer({ size: n * 8, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      encoder.resolveQuerySet(TFGPU.querySet, 0, n, TFGPU.resolved, 0);
      encoder.copyBufferToBuffer(TFGPU.resolved, 0, staging, 0, n * 8);
      return function() {
        TFGPU.timesPending.push(staging.mapAsync(GPUMapMode.READ).then(function() {
          var t = new BigUint64Array(staging.getMappedRange()), m = TFGPU.pipelineCounted.length;
          for (var i = 0; i < ids.length; ++i) {
            var ns = Number(t[2 * i + 1] - t[2 * i]);  // a GPU may quantize: never below 0
            TFGPU.perPipeline[ids[i] * m + 5] += ns > 0 ? ns : 0;
          }
          staging.destroy();
        }, function() { staging.destroy(); }));  // a lost device: no times, and no error of their own
      };
    },

    other: function() { return TFGPU.phases.indexOf('other'); },  // reads come between steps

    count: function(phase, field, amount) {
      TFGPU.counts[phase * TFGPU.counted.length + field] += amount;
    },

    resetCounts: function() {
      TFGPU.counts.fill(0);
      TFGPU.perPipeline.fill(0);
      for (var id = 0, n = TFGPU.pipelineCounted.length; id * n < TFGPU.perPipeline.length; ++id) TFGPU.perPipeline[id * n + 4] = Infinity;
      TFGPU.syncPipelines = 0;
    },

    countDispatch: function(id, groups, rows, gemm, phase) {
      TFGPU.count(phase, 0, 1);
      TFGPU.count(phase, 1, groups);
      var at = id * TFGPU.pipelineCounted.length, c = TFGPU.perPipeline;
      c[at] += 1;
      c[at + 1] += groups;
      if (rows > c[at + 2]) c[at + 2] = rows;
      if (gemm) {
        c[at + 3] += 1;
        if (groups < c[at + 4]) c[at + 4] = groups;
      }
    },

    // The counters as plain objects: {phases: {name: {dispatches, ...}}, total, pipelines: [...], syncPipelines}.
    snapshot: function() {
      var fields = function(names, array, at) {
        var out = {};
        names.forEach(function(name, i) { out[name] = array[at + i]; });
        return out;
      };
      var phases = {}, total = fields(TFGPU.counted, new Float64Array(TFGPU.counted.length), 0);
      TFGPU.phases.forEach(function(name, p) {
        phases[name] = fields(TFGPU.counted, TFGPU.counts, p * TFGPU.counted.length);
        for (var k in total) total[k] += phases[name][k];
      });
      var pipelines = TFGPU.info.map(function(info, id) {
        var out = fields(TFGPU.pipelineCounted, TFGPU.perPipeline, id * TFGPU.pipelineCounted.length);
        out.stem = info.stem;
        out.entry = info.entry;
        return out;
      });
      var arena = { bytes: TFGPU.arenaBytes, limit: TFGPU.arenaLimit, growths: TFGPU.growths };
      return { phases: phases, total: total, pipelines: pipelines, syncPipelines: TFGPU.syncPipelines, arena: arena };
    },

    // Ends the open pass, writes the staged Params (C++'s ring) and submits the encoder.
    submit: function(phase) {
      if (TFGPU.pass) TFGPU.pass.end();
      TFGPU.pass = null;
      if (!TFGPU.encoder) return;
      var queue = TFGPU.device.queue, used = HEAPU32[TFGPU.usedPtr >> 2];
      HEAPU32[TFGPU.usedPtr >> 2] = 0;
      if (used) {
        queue.writeBuffer(TFGPU.ring, 0, HEAPU8, TFGPU.ringPtr, used);
        TFGPU.count(phase, 3, 1);
        TFGPU.count(phase, 4, used);
      }
      var readTimes = TFGPU.queryCount ? TFGPU.resolveTimes(TFGPU.encoder) : null;
      queue.submit([TFGPU.encoder.finish()]);
      if (readTimes) readTimes();
      TFGPU.count(phase, 2, 1);
      TFGPU.encoder = null;
    },

    // A copy of `bytes` at an arena offset through a mappable staging buffer, recorded after the open
    // encoder's work and submitted with it (one submit for a chunk of steps and its step log).
    readBytes: async function(offset, bytes) {
      var device = TFGPU.device, size = Math.ceil(bytes / 4) * 4;
      var staging = device.createBuffer({ size: size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      try {
        if (TFGPU.pass) TFGPU.pass.end();
        TFGPU.pass = null;
        TFGPU.encoder = TFGPU.encoder || device.createCommandEncoder();
        TFGPU.encoder.copyBufferToBuffer(TFGPU.arena, offset, staging, 0, size);
        TFGPU.submit(TFGPU.other());
        await staging.mapAsync(GPUMapMode.READ);
        return staging.getMappedRange(0, size).slice(0, bytes);
      } finally {
        staging.destroy();
      }
    },

    // readBytes into wasm memory at dst; 0, or 1 with the message (a lost device, a failed map).
    readInto: async function(dst, offset, bytes) {
      try {
        HEAPU8.set(new Uint8Array(await TFGPU.readBytes(offset, bytes)), dst);
      } catch (e) {
        if (TFGPU.lost === null) return TFGPU.fail('WebGPU read failed: ' + (e && e.message ? e.message : e));
      }
      return TFGPU.check();
    },
  },

  // Module.webgpuRead(devicePtr, bytes) -> Promise<ArrayBuffer>: the production read (no Asyncify); it
  // submits the recorded work first, so it sees every kernel called before it.
  // Module.webgpuReady() -> Promise: the pipelines are made (the wrapper waits for it while loading).
  // Module.webgpuCounts() / webgpuResetCounts(): the counters (see snapshot).
  // Module.webgpuTimeKernels(on) -> whether kernels are now timed (false without timestamp-query);
  // Module.webgpuTimesSettled() -> Promise: the GPU times of the work submitted so far are in the counters.
  $TFGPU__postset: 'Module["webgpuRead"] = function(ptr, bytes) { return TFGPU.read(ptr, bytes); };\n' +
                   'Module["webgpuReady"] = function() { return Promise.all(TFGPU.pending).then(function() { if (TFGPU.check()) throw new Error(TFGPU.message); }); };\n' +
                   'Module["webgpuCounts"] = function() { return TFGPU.counts ? TFGPU.snapshot() : null; };\n' +
                   'Module["webgpuResetCounts"] = function() { if (TFGPU.counts) TFGPU.resetCounts(); };\n' +
                   'Module["webgpuTimeKernels"] = function(on) { return TFGPU.device ? TFGPU.timeKernels(Boolean(on)) : false; };\n' +
                   'Module["webgpuTimesSettled"] = function() { var p = TFGPU.timesPending; TFGPU.timesPending = []; return Promise.all(p); };',

  tf_webgpu_init__deps: ['$TFGPU'],
  tf_webgpu_init: function(ringPtr, ringBytes, usedPtr, phasesPtr, table, count, startBytes) {
    var ok = TFGPU.init(ringPtr, ringBytes, usedPtr, phasesPtr, table, count, startBytes);
#if ASYNCIFY
    // The doctest build dispatches as soon as main runs: it waits here for the pipelines.
    if (ok) return Asyncify.handleAsync(function() { return Promise.all(TFGPU.pending).then(function() { return 1; }); });
#endif
    return ok;
  },

  tf_webgpu_arena_bytes__deps: ['$TFGPU'],
  tf_webgpu_arena_bytes: function() {
    return TFGPU.arenaBytes;
  },

  tf_webgpu_arena_limit__deps: ['$TFGPU'],
  tf_webgpu_arena_limit: function() {
    return TFGPU.arenaLimit;
  },

  tf_webgpu_grow__deps: ['$TFGPU'],
  tf_webgpu_grow: function(bytes, phase) {
    if (TFGPU.check()) return 1;
    TFGPU.grow(bytes, phase);
    return 0;
  },

  tf_webgpu_message__deps: ['$TFGPU'],
  tf_webgpu_message: function(buffer, capacity) {
    stringToUTF8(TFGPU.message, buffer, capacity);
  },

  tf_webgpu_dispatch__deps: ['$TFGPU'],
  tf_webgpu_dispatch: function(id, slot, x, y, z, rows, gemm, phase) {
    if (TFGPU.check()) return 1;
    var pipeline = TFGPU.pipelines[id] || TFGPU.pipelineNow(id);
    TFGPU.offsets[0] = slot;
    if (TFGPU.timing) {
      TFGPU.timedDispatch(pipeline, id, x, y, z, phase);
      TFGPU.countDispatch(id, x * y * z, rows, gemm, phase);
      return 0;
    }
    if (!TFGPU.encoder) TFGPU.encoder = TFGPU.device.createCommandEncoder();
    if (!TFGPU.pass) TFGPU.pass = TFGPU.encoder.beginComputePass();
    TFGPU.pass.setPipeline(pipeline);
    TFGPU.pass.setBindGroup(0, TFGPU.bindGroup, TFGPU.offsets, 0, 1);
    TFGPU.pass.dispatchWorkgroups(x, y, z);
    TFGPU.countDispatch(id, x * y * z, rows, gemm, phase);
    return 0;
  },

  tf_webgpu_submit__deps: ['$TFGPU'],
  tf_webgpu_submit: function(phase) {
    if (TFGPU.check()) return 1;
    TFGPU.submit(phase);
    return 0;
  },

  // C++ submitted the recorded work before this (queue.writeBuffer runs before any command buffer
  // submitted after it).
  tf_webgpu_write__deps: ['$TFGPU'],
  tf_webgpu_write: function(offset, src, bytes, phase) {
    if (TFGPU.check()) return 1;
    TFGPU.device.queue.writeBuffer(TFGPU.arena, offset, HEAPU8, src, bytes);
    TFGPU.count(phase, 3, 1);
    TFGPU.count(phase, 4, bytes);
    return 0;
  },

  // A copy from the ring (staged by C++, written at the submit) into the arena, in order with the dispatches.
  tf_webgpu_upload__deps: ['$TFGPU'],
  tf_webgpu_upload: function(ringOffset, offset, bytes, phase) {
    if (TFGPU.check()) return 1;
    if (TFGPU.pass) TFGPU.pass.end();
    TFGPU.pass = null;
    TFGPU.encoder = TFGPU.encoder || TFGPU.device.createCommandEncoder();
    TFGPU.encoder.copyBufferToBuffer(TFGPU.ring, ringOffset, TFGPU.arena, offset, bytes);
    TFGPU.count(phase, 5, 1);
    TFGPU.count(phase, 6, bytes);
    return 0;
  },

  tf_webgpu_read__deps: ['$TFGPU'],
  tf_webgpu_read: function(dst, offset, bytes) {
    if (TFGPU.check()) return 1;
#if ASYNCIFY
    return Asyncify.handleAsync(function() {
      return TFGPU.readInto(dst, offset, bytes);
    });
#else
    return TFGPU.fail('a WebGPU tensor is read with the asynchronous read (Module.webgpuRead); ' +
                      'a synchronous read exists only in the Asyncify test build');
#endif
  },
});
