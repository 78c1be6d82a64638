// Crossing into wasm and back: the error type every failure of the API throws, the guard that turns the
// module's pending C++ error into one, bytes copied in for one call, and float32 device ranges copied out.

// kind: what a caller may act on, or null. A refused checkpoint (the run diverged; its last good save is the
// one to keep): 'skipped-step' (its last step was skipped) or 'not-finite' (NaN or infinity in its numbers).
export class TinyformerError extends Error {
  constructor(message, kind = null) {
    super(message);
    this.name = 'TinyformerError';
    this.kind = kind;
  }
}

export function fail(message) {
  throw new TinyformerError(message);
}

// Calls into wasm: a C++ error comes back as the module's pending error (the bindings never throw through
// Embind's glue, which would skip freeing the call's arguments) and is thrown here as a TinyformerError.
export function guard(wasm, fn) {
  const result = fn();
  const error = wasm.takeError();
  if (error !== null) throw new TinyformerError(error.message, error.kind);
  return result;
}

// Bytes copied into wasm memory for one call (fn(pointer, length)) and freed after it, however it ends: one
// copy, and a clear error when wasm memory cannot hold them.
export function withBytes(wasm, bytes, fn) {
  const b = bytesOf(bytes);
  const pointer = wasm._malloc(Math.max(1, b.length));
  if (!pointer) fail(`out of memory: wasm memory cannot hold these ${b.length} bytes`);
  try {
    wasm.HEAPU8.set(b, pointer);
    return fn(pointer, b.length);
  } finally {
    wasm._free(pointer);
  }
}

function bytesOf(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  fail('checkpoint bytes must be a Uint8Array or an ArrayBuffer');
}

// A device range {pointer, bytes} of float32 numbers, copied out: WebGPU memory with the module's
// asynchronous read (Module.webgpuRead, see the WebGPU contract), anything else straight out of wasm memory.
// trainChunk and snapshotTo read through it on every device, so Node's CPU tests run the WebGPU path.
export async function readFloats(wasm, device, { pointer, bytes }) {
  if (device === 'webgpu') {
    try {
      return new Float32Array(await wasm.webgpuRead(pointer, bytes));
    } catch (e) {  // e.g. mapAsync rejected by a device lost mid-read (its lost promise settles just after)
      const lost = await Promise.race([wasm.webgpu.lost, new Promise((resolve) => setTimeout(resolve, 200))]);
      fail(lost ? `the WebGPU device was lost: ${lost.message || lost.reason}` : `the WebGPU read failed: ${e.message}`);
    }
  }
  return new Float32Array(wasm.HEAPU8.slice(pointer, pointer + bytes).buffer);
}
