// The JS side of the WebGPU backend, linked into the module with --js-library (dispatch.cpp is the C++
// side). It owns the GPUDevice handed in as Module.webgpu, the arena (the one GPUBuffer all device memory
// lives in), the compute pipelines (made on first use from the WGSL that C++ embeds), a ring of uniform
// parameter slots and the open command encoder. Every import returns 0, or 1 with a message kept for
// tf_webgpu_message: a JS exception must not cross wasm frames (C++ would not unwind), so C++ raises it.
// Reads back need Asyncify (the doctest build); production reads use Module.webgpuRead (a Promise).

mergeInto(LibraryManager.library, {
  $TFGPU: {
    device: null,
    arena: null,
    arenaBytes: 0,
    ring: null,          // GPUBuffer of uniform slots (dynamic offsets)
    staging: null,       // Uint8Array: the slots recorded since the last flush
    ringUsed: 0,
    slotBytes: 256,      // minUniformBufferOffsetAlignment, and the largest Params
    ringBytes: 1 << 20,
    bindGroup: null,
    pipelineLayout: null,
    pipelines: null,  // Map "stemPtr:entryPtr" -> GPUComputePipeline (made in init: the library's
    modules: null,    // object literal is written out as text, where a Map would not survive); stem -> module
    encoder: null,
    pass: null,
    lost: null,            // why the device was lost, once it is
    errors: [],            // uncaptured errors and failed shader compiles, raised at the next call
    message: '',

    base: 256,  // the device pointer of arena offset 0 (kArenaBase in dispatch.hpp)

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

    init: function() {
      var device = Module['webgpu'];
      if (!device || typeof device.createBuffer !== 'function') return 0;
      TFGPU.device = device;
      TFGPU.pipelines = new Map();
      TFGPU.modules = new Map();
      device.lost.then(function(info) {
        TFGPU.lost = (info && info.message) || (info && info.reason) || 'unknown reason';
      });
      device.addEventListener('uncapturederror', function(e) {
        TFGPU.errors.push(e.error && e.error.message ? e.error.message : String(e.error));
      });
      var limit = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
      var wanted = Module['webgpuArenaBytes'] || limit;
      TFGPU.arenaBytes = Math.floor(Math.min(limit, wanted, 4294967040) / 256) * 256;
      TFGPU.arena = device.createBuffer({
        label: 'tinyformer arena', size: TFGPU.arenaBytes,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
      TFGPU.ring = device.createBuffer({
        label: 'tinyformer params', size: TFGPU.ringBytes,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      TFGPU.staging = new Uint8Array(TFGPU.ringBytes);
      var layout = device.createBindGroupLayout({
        entries: [
          { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
          { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
        ],
      });
      TFGPU.pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
      TFGPU.bindGroup = device.createBindGroup({
        layout: layout,
        entries: [
          { binding: 0, resource: { buffer: TFGPU.arena } },
          { binding: 1, resource: { buffer: TFGPU.ring, size: TFGPU.slotBytes } },
        ],
      });
      return 1;
    },

    // The pipeline of (stem, entry), made on first use. Creation does not throw on a bad shader: the
    // error scope reports it asynchronously, and check() raises it at a later call.
    pipeline: function(stemPtr, entryPtr, sourcePtr) {
      var key = stemPtr + ':' + entryPtr;
      var found = TFGPU.pipelines.get(key);
      if (found) return found;
      var stem = UTF8ToString(stemPtr), entry = UTF8ToString(entryPtr), device = TFGPU.device;
      var module = TFGPU.modules.get(stem);
      if (!module) {
        module = device.createShaderModule({ label: stem, code: UTF8ToString(sourcePtr) });
        TFGPU.modules.set(stem, module);
      }
      device.pushErrorScope('validation');
      var made = device.createComputePipeline({
        label: stem + '/' + entry, layout: TFGPU.pipelineLayout, compute: { module: module, entryPoint: entry },
      });
      device.popErrorScope().then(function(error) {
        if (error) TFGPU.errors.push('the shader ' + stem + '/' + entry + ' failed to compile: ' + error.message);
      });
      TFGPU.pipelines.set(key, made);
      return made;
    },

    // Ends the open pass, uploads the recorded parameters and submits the encoder.
    flush: function() {
      if (TFGPU.pass) TFGPU.pass.end();
      TFGPU.pass = null;
      if (!TFGPU.encoder) return;
      var queue = TFGPU.device.queue;
      if (TFGPU.ringUsed) queue.writeBuffer(TFGPU.ring, 0, TFGPU.staging, 0, TFGPU.ringUsed);
      queue.submit([TFGPU.encoder.finish()]);
      TFGPU.encoder = null;
      TFGPU.ringUsed = 0;
    },

    // A copy of `bytes` at an arena offset (after the recorded work), through a mappable staging buffer.
    readBytes: async function(offset, bytes) {
      TFGPU.flush();
      var device = TFGPU.device, size = Math.ceil(bytes / 4) * 4;
      var staging = device.createBuffer({ size: size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      try {
        var encoder = device.createCommandEncoder();
        encoder.copyBufferToBuffer(TFGPU.arena, offset, staging, 0, size);
        device.queue.submit([encoder.finish()]);
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
  // flushes the recorded work first, so it sees every kernel called before it.
  $TFGPU__postset: 'Module["webgpuRead"] = function(ptr, bytes) { return TFGPU.read(ptr, bytes); };',

  tf_webgpu_init__deps: ['$TFGPU'],
  tf_webgpu_init: function() {
    return TFGPU.init();
  },

  tf_webgpu_arena_bytes__deps: ['$TFGPU'],
  tf_webgpu_arena_bytes: function() {
    return TFGPU.arenaBytes;
  },

  tf_webgpu_message__deps: ['$TFGPU'],
  tf_webgpu_message: function(buffer, capacity) {
    stringToUTF8(TFGPU.message, buffer, capacity);
  },

  tf_webgpu_dispatch__deps: ['$TFGPU'],
  tf_webgpu_dispatch: function(stemPtr, entryPtr, sourcePtr, paramsPtr, paramsBytes, x, y, z) {
    if (TFGPU.check()) return 1;
    var pipeline = TFGPU.pipeline(stemPtr, entryPtr, sourcePtr);
    if (TFGPU.ringUsed + TFGPU.slotBytes > TFGPU.ringBytes) TFGPU.flush();
    var slot = TFGPU.ringUsed;
    TFGPU.staging.set(HEAPU8.subarray(paramsPtr, paramsPtr + paramsBytes), slot);
    TFGPU.ringUsed += TFGPU.slotBytes;
    if (!TFGPU.encoder) TFGPU.encoder = TFGPU.device.createCommandEncoder();
    if (!TFGPU.pass) TFGPU.pass = TFGPU.encoder.beginComputePass();
    TFGPU.pass.setPipeline(pipeline);
    TFGPU.pass.setBindGroup(0, TFGPU.bindGroup, [slot]);
    TFGPU.pass.dispatchWorkgroups(x, y, z);
    return 0;
  },

  tf_webgpu_flush__deps: ['$TFGPU'],
  tf_webgpu_flush: function() {
    if (TFGPU.check()) return 1;
    TFGPU.flush();
    return 0;
  },

  // queue.writeBuffer runs before any command buffer submitted after it, so the recorded work goes first.
  tf_webgpu_write__deps: ['$TFGPU'],
  tf_webgpu_write: function(offset, src, bytes) {
    if (TFGPU.check()) return 1;
    TFGPU.flush();
    TFGPU.device.queue.writeBuffer(TFGPU.arena, offset, HEAPU8, src, bytes);
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
