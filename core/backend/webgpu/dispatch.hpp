// The C++ side of the WebGPU bridge (webgpu_library.js is the JS side). Device memory is one arena buffer;
// a device pointer is kArenaBase + byte offset and is never dereferenced here. A kernel launcher fills its
// WGSL Params mirror (word offsets of its operands from word(), sizes, scalars) and dispatches a pipeline
// (Pipeline::<entry point>, pipelines.hpp): the Params go into a slot of the uniform ring (host memory here,
// one queue write per submit) and the work is recorded into the open command encoder; it runs when the
// encoder is submitted (before reads, on synchronize, when the ring is full). Every WGSL shader binds the
// arena at binding 0 and its Params at binding 1. Nothing is allocated per dispatch on either side.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "backend/webgpu/pipelines.hpp"

namespace tf::webgpu {

constexpr uintptr_t kArenaBase = 256;    // device pointer of arena offset 0 (nullptr stays invalid)
constexpr uint32_t kGroupSize = 256;     // threads per workgroup of the 1-D kernels (@workgroup_size(256))
constexpr size_t kMaxParamsBytes = 256;  // one slot of the uniform ring

// Index of the 4-byte word at device_ptr in the arena (checks the pointer is 4-aligned and in the arena).
uint32_t word(const void* device_ptr);
size_t arena_offset(const void* device_ptr);
void* device_pointer(size_t arena_offset);

// The workgroups of one dispatch (each dimension at most 65535).
struct Groups {
  uint32_t x = 1, y = 1, z = 1;
};

// What a dispatch does that its commands do not show, for the counters (Module.webgpuCounts) and the
// counting harness, which asserts on them: rows is how many items of a reduction one invocation adds in a
// serial loop (0: it adds none); gemm marks the dispatch that computes a GEMM call's product, whose
// workgroups are the call's.
struct Work {
  uint32_t rows = 0;
  bool gemm = false;
};

// Records one dispatch of `pipeline` with its Params. Raises a tf::Error for a lost device or an error
// reported since the last call (validation, out of memory, a shader that did not compile).
void dispatch_params(Pipeline pipeline, const void* params, size_t bytes, Groups groups, Work work);

template <class Params>
void dispatch(Pipeline pipeline, const Params& params, Groups groups, Work work = {}) {
  static_assert(
      std::is_trivially_copyable_v<Params> && sizeof(Params) % 16 == 0 && sizeof(Params) <= kMaxParamsBytes,
      "a WGSL Params mirror is a multiple of 16 bytes and fits one uniform slot");
  dispatch_params(pipeline, &params, sizeof(Params), groups, work);
}

// The workgroups of a 1-D kernel over n items, kGroupSize per group, as an x-by-y grid (x <= 65535):
// shaders compute item = (group.y * num_groups.x + group.x) * kGroupSize + local.x.
Groups grid_for(size_t n);

template <class Params>
void dispatch_1d(Pipeline pipeline, const Params& params, size_t n, Work work = {}) {
  if (n) dispatch(pipeline, params, grid_for(n), work);
}

// Submits the recorded work (and raises any error reported so far).
void flush();
// Copies bytes of the arena at device_ptr into host memory: only in a build linked with Asyncify (the
// doctest build), where it waits for the GPU; elsewhere a tf::Error says to use the asynchronous read.
void read(void* host, const void* device_ptr, size_t bytes);
void write(void* device_ptr, const void* host, size_t bytes);

// Whether a GPUDevice was handed to the module (Module.webgpu) and the arena could be made.
bool present();
size_t arena_bytes();  // now
size_t arena_limit();  // the most the device allows
// A larger arena (bytes <= arena_limit()) with the old one's contents, after the work recorded so far.
void grow_arena(size_t bytes);

}  // namespace tf::webgpu
