// The CUDA backend's definitions of every entry of kernels.hpp, declared from that list: memory in
// device_memory.cu, each kernel's host launcher in cuda/<stem>.cu. All pointers are device pointers except
// the host side of the two host copies; every launcher only queues work on the default stream, except
// all_finite and copy_to_host, which wait for their answer.
#pragma once
#include "backend/kernels.hpp"

namespace tf::cuda {

TF_BACKEND_MEMORY(TF_DECLARE_KERNEL)
TF_BACKEND_KERNELS(TF_DECLARE_KERNEL)

}  // namespace tf::cuda
