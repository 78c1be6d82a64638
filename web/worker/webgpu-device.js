// The worker's WebGPU device: probed in the worker (the thread that owns the module hands it the GPUDevice),
// watched for loss, destroyed on request (the test hook for a forced loss), and the rule that says which
// errors of a WebGPU run mean "go back to wasm": a lost device, GPU memory run out, a shader that fails to
// compile. The adapter is described by adapter.info (Chromium ≥ 114) or requestAdapterInfo() (older ones).

// {adapter: {vendor, architecture, device, description, isFallbackAdapter, type} | null, device: GPUDevice | null,
// why: string | null}; withDevice false names the adapter only (no device is made where the module could not use it).
export async function probeWebGpu(gpu = globalThis.navigator && navigator.gpu, { withDevice = true } = {}) {
  if (!gpu) return { adapter: null, device: null, why: 'this browser has no navigator.gpu' };
  let adapter;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (error) {
    return { adapter: null, device: null, why: `requestAdapter failed: ${error.message}` };
  }
  if (!adapter) return { adapter: null, device: null, why: 'the browser gives no WebGPU adapter' };
  const info = await adapterInfo(adapter);
  if (!withDevice) return { adapter: info, device: null, why: null };
  try {
    const requiredFeatures = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];  // kernel timing
    const device = await adapter.requestDevice({ requiredLimits: arenaLimits(adapter), requiredFeatures });
    return { adapter: info, device, why: null };
  } catch (error) {
    return { adapter: info, device: null, why: `requestDevice failed: ${error.message}` };
  }
}

// isFallbackAdapter: on adapter.info since Chromium 136, on the adapter itself before 140 (device-choice.js
// never lets auto take a fallback adapter); type only with Chromium's WebGPU developer features.
async function adapterInfo(adapter) {
  const info = adapter.info || (adapter.requestAdapterInfo ? await adapter.requestAdapterInfo().catch(() => null) : null) || {};
  return {
    vendor: info.vendor || '', architecture: info.architecture || '', device: info.device || '', description: info.description || '',
    isFallbackAdapter: Boolean(info.isFallbackAdapter || adapter.isFallbackAdapter), type: info.type || '',
  };
}

// The module keeps all device memory in one buffer (the contract's arena), which starts small and grows
// as runs need it, up to the largest buffer and binding the device allows: so it asks for the adapter's.
function arenaLimits(adapter) {
  const { maxBufferSize, maxStorageBufferBindingSize } = adapter.limits;
  return { maxBufferSize, maxStorageBufferBindingSize };
}

// Errors of a WebGPU run after which the run goes on on wasm from its last checkpoint (the module's messages
// for a lost device, arena or GPU memory exhausted, a shader that does not compile, an uncaptured error).
const DEVICE_FAILURE = /WebGPU|WGSL|shader|GPU memory|out of (device|arena) memory|device was lost/i;

export function isDeviceFailure(error) {
  return DEVICE_FAILURE.test(error && error.message ? error.message : String(error));
}

// Calls onLost(message) when `device` is lost (the driver reset, or destroy(): the test hook).
export function watchLoss(device, onLost) {
  device.lost.then((info) => onLost(`the WebGPU device was lost: ${info.message || info.reason || 'no reason given'}`));
}
