// Where a tensor's numbers live. WebAssembly is not a device: it is the CPU backend compiled by emcc; WebGPU
// is (a GPUDevice handed to the wasm module by the page).
// TF_DEVICES lists every device this code knows: X(enumerator, name as in --device).
#pragma once
#include <string>

#define TF_DEVICES(X) \
  X(CPU, "cpu")       \
  X(CUDA, "cuda")     \
  X(WEBGPU, "webgpu")

namespace tf {

#define TF_DEVICE_ENUMERATOR(id, name) id,
enum class Device { TF_DEVICES(TF_DEVICE_ENUMERATOR) };
#undef TF_DEVICE_ENUMERATOR

#define TF_DEVICE_ONE(id, name) +1
constexpr int kDeviceCount = 0 TF_DEVICES(TF_DEVICE_ONE);
#undef TF_DEVICE_ONE

std::string device_name(Device d);
Device parse_device(const std::string& name);  // one of TF_DEVICES' names; throws on anything else

}  // namespace tf
