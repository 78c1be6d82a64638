// The WebGPU backend: its table binds the entries of kernels.hpp to tf::webgpu (device_memory.cpp and the
// webgpu/<stem>.cpp launchers). webgpu_device_present() is true once the module was handed a GPUDevice
// (Module.webgpu) and made its arena; without one (Node, a browser without WebGPU) the backend is absent.
#include "backend/backend.hpp"
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"

namespace tf {

Backend& webgpu_backend() {
  static Backend& backend =
      immortal_backend(Device::WEBGPU, "webgpu", [](Backend& b) { TF_BIND_BACKEND(b, webgpu); });
  return backend;
}

bool webgpu_device_present() { return webgpu::present(); }

}  // namespace tf
