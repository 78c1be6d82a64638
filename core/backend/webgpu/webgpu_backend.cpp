// The WebGPU backend: its table binds the entries of kernels.hpp to tf::webgpu (device_memory.cpp and the
// webgpu/<stem>.cpp launchers). webgpu_device_present() is true once the module was handed a GPUDevice
// (Module.webgpu) and made its arena; without one (Node, a browser without WebGPU) the backend is absent.
#include "backend/backend.hpp"
#include "backend/webgpu/dispatch.hpp"
#include "backend/webgpu/kernels.hpp"

// The stems written so far bind their kernels; a stem still to come binds nothing, and the table's
// completeness test (tests/backend/test_op_consistency.cpp) says so. When every stem is here this becomes
// the plain list binding of the other backends.
#define TF_WEBGPU_READY_memory(name) b->name = &webgpu::name;
#define TF_WEBGPU_READY_gemm(name) b->name = &webgpu::name;
#define TF_WEBGPU_READY_elementwise(name) b->name = &webgpu::name;
#define TF_WEBGPU_READY_reduce(name) b->name = &webgpu::name;
#define TF_WEBGPU_READY_copy_strided(name) b->name = &webgpu::name;
#define TF_WEBGPU_READY_layer_norm(name)
#define TF_WEBGPU_READY_gelu(name)
#define TF_WEBGPU_READY_softmax(name)
#define TF_WEBGPU_READY_masked_fill(name)
#define TF_WEBGPU_READY_embedding(name)
#define TF_WEBGPU_READY_attention(name)
#define TF_WEBGPU_READY_cross_entropy(name)
#define TF_WEBGPU_READY_rotary(name)
#define TF_WEBGPU_READY_optimizer(name)

namespace tf {

Backend& webgpu_backend() {
  // Never destroyed: storages freed after main returns still reach it.
  static Backend* backend = [] {
    auto* b = new Backend(Device::WEBGPU, "webgpu");
#define TF_BIND_WEBGPU(stem, ret, name, params) TF_WEBGPU_READY_##stem(name)
    TF_BACKEND_MEMORY(TF_BIND_WEBGPU)
    TF_BACKEND_KERNELS(TF_BIND_WEBGPU)
#undef TF_BIND_WEBGPU
    return b;
  }();
  return *backend;
}

bool webgpu_device_present() { return webgpu::present(); }

}  // namespace tf
