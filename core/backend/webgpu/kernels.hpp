// The WebGPU backend's definitions of the entries of kernels.hpp, declared from that list: memory in
// device_memory.cpp, each stem's launcher in webgpu/<stem>.cpp beside its <stem>.wgsl. Pointers are arena
// pointers (dispatch.hpp) except the host side of the host copies. Launchers only record work, except
// all_finite and copy_to_host, which wait for the GPU (the Asyncify test build only).
#pragma once
#include "backend/kernels.hpp"

namespace tf::webgpu {

TF_BACKEND_MEMORY(TF_DECLARE_KERNEL)
TF_BACKEND_KERNELS(TF_DECLARE_KERNEL)

}  // namespace tf::webgpu
