// The WebGPU backend: its table binds the entries of kernels.hpp to tf::webgpu (device_memory.cpp and the
// webgpu/<stem>.cpp launchers). webgpu_device_present() is true once the module was handed a GPUDevice
// (Module.webgpu) and made its arena; without one (Node, a browser without WebGPU) the backend is absent.
#include "backend/backend.hpp"
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"

namespace tf {

Backend& webgpu_backend() {
  // Never destroyed: storages freed after main returns still reach it.
  static Backend* backend = [] {
    auto* b = new Backend(Device::WEBGPU, "webgpu");
#define TF_BIND_WEBGPU(stem, ret, name, params) b->name = &webgpu::name;
    TF_BACKEND_MEMORY(TF_BIND_WEBGPU)
    TF_BACKEND_KERNELS(TF_BIND_WEBGPU)
#undef TF_BIND_WEBGPU
    return b;
  }();
  return *backend;
}

bool webgpu_device_present() { return webgpu::present(); }

}  // namespace tf
