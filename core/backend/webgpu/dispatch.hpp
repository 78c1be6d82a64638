// The C++ side of the WebGPU bridge (webgpu_library.js is the JS side). Device memory is one arena buffer;
// a device pointer is kArenaBase + byte offset and is never dereferenced here. A kernel launcher fills its
// WGSL Params mirror (word offsets of its operands from word(), sizes, scalars) and calls dispatch(): the
// work is recorded into the open command encoder and runs when the encoder is flushed (before uploads and
// reads, on synchronize, when the uniform ring is full). Every WGSL shader binds the arena at binding 0
// and its Params at binding 1; entry points are named after the kernel.
#pragma once
#include <cstddef>
#include <cstdint>

namespace tf::webgpu {

constexpr uintptr_t kArenaBase = 256;    // device pointer of arena offset 0 (nullptr stays invalid)
constexpr uint32_t kGroupSize = 256;     // threads per workgroup of the 1-D kernels (@workgroup_size(256))
constexpr size_t kMaxParamsBytes = 256;  // one slot of the uniform ring

// Index of the 4-byte word at device_ptr in the arena (checks the pointer is 4-aligned and in the arena).
uint32_t word(const void* device_ptr);
size_t arena_offset(const void* device_ptr);
void* device_pointer(size_t arena_offset);

// Records one compute dispatch of entry point `entry` of the shader of `stem` (core/backend/webgpu/
// <stem>.wgsl), with its Params bytes. Raises a tf::Error for a lost device or an error reported since the
// last call (validation, out of memory, a shader that did not compile).
void dispatch(const char* stem, const char* entry, const void* params, size_t params_bytes, uint32_t groups_x,
              uint32_t groups_y = 1, uint32_t groups_z = 1);

// The workgroups of a 1-D kernel over n items, kGroupSize per group, as an x-by-y grid (x <= 65535, the
// per-dimension limit): shaders compute item = (group.y * num_groups.x + group.x) * kGroupSize + local.x.
struct Grid {
  uint32_t x = 1, y = 1;
};
Grid grid_for(size_t n);
void dispatch_1d(const char* stem, const char* entry, const void* params, size_t params_bytes, size_t n);

// Submits the recorded work (and raises any error reported so far).
void flush();
// Copies bytes of the arena at device_ptr into host memory: only in a build linked with Asyncify (the
// doctest build), where it waits for the GPU; elsewhere a tf::Error says to use the asynchronous read.
void read(void* host, const void* device_ptr, size_t bytes);
void write(void* device_ptr, const void* host, size_t bytes);

// Whether a GPUDevice was handed to the module (Module.webgpu) and the arena could be made.
bool present();
size_t arena_bytes();

}  // namespace tf::webgpu
