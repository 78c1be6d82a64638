// The C++ side of the bridge: the imports of webgpu_library.js, each turned into a tf::Error when it
// reports a failure (a JS exception would skip C++ unwinding), and the pointer <-> arena offset rules.
#include "backend/webgpu/dispatch.hpp"

#include <algorithm>

#include "backend/webgpu/shaders.hpp"
#include "util/error.hpp"

extern "C" {
int tf_webgpu_init();
double tf_webgpu_arena_bytes();
void tf_webgpu_message(char* buffer, uint32_t capacity);
int tf_webgpu_dispatch(const char* stem, const char* entry, const char* source, const void* params,
                       uint32_t params_bytes, uint32_t x, uint32_t y, uint32_t z);
int tf_webgpu_flush();
int tf_webgpu_write(uint32_t offset, const void* src, uint32_t bytes);
int tf_webgpu_read(void* dst, uint32_t offset, uint32_t bytes);
}

namespace tf::webgpu {

namespace {

constexpr uint32_t kMaxGroupsPerDimension = 65535;

// Raises the library's message when an import reported a failure.
void check(int status) {
  if (status == 0) return;
  char message[2048];
  tf_webgpu_message(message, sizeof message);
  fail(message);
}

}  // namespace

bool present() {
  static const bool ready = tf_webgpu_init() != 0;
  return ready;
}

size_t arena_bytes() {
  static const size_t bytes = present() ? static_cast<size_t>(tf_webgpu_arena_bytes()) : 0;
  return bytes;
}

size_t arena_offset(const void* device_ptr) {
  auto p = reinterpret_cast<uintptr_t>(device_ptr);
  TF_CHECK(p >= kArenaBase && p - kArenaBase < arena_bytes(), "not a WebGPU device pointer: ", device_ptr);
  return p - kArenaBase;
}

void* device_pointer(size_t offset) { return reinterpret_cast<void*>(kArenaBase + offset); }

uint32_t word(const void* device_ptr) {
  size_t offset = arena_offset(device_ptr);
  TF_CHECK(offset % 4 == 0, "a WebGPU kernel operand must be 4-byte aligned (offset ", offset, ")");
  return static_cast<uint32_t>(offset / 4);
}

void dispatch(const char* stem, const char* entry, const void* params, size_t params_bytes, uint32_t groups_x,
              uint32_t groups_y, uint32_t groups_z) {
  TF_CHECK(params_bytes <= kMaxParamsBytes && params_bytes % 16 == 0, "WebGPU ", stem, "/", entry,
           ": Params of ", params_bytes, " bytes (a multiple of 16, at most ", kMaxParamsBytes, ")");
  TF_CHECK(groups_x <= kMaxGroupsPerDimension && groups_y <= kMaxGroupsPerDimension &&
               groups_z <= kMaxGroupsPerDimension,
           "WebGPU ", stem, "/", entry, ": more than ", kMaxGroupsPerDimension, " workgroups in a dimension");
  if (groups_x == 0 || groups_y == 0 || groups_z == 0) return;
  check(tf_webgpu_dispatch(stem, entry, shader_source(stem), params, static_cast<uint32_t>(params_bytes),
                           groups_x, groups_y, groups_z));
}

Grid grid_for(size_t n) {
  size_t groups = (n + kGroupSize - 1) / kGroupSize;
  Grid g;
  g.x = static_cast<uint32_t>(std::min<size_t>(groups, kMaxGroupsPerDimension));
  g.y = static_cast<uint32_t>(g.x ? (groups + g.x - 1) / g.x : 0);
  return g;
}

void dispatch_1d(const char* stem, const char* entry, const void* params, size_t params_bytes, size_t n) {
  if (n == 0) return;
  Grid g = grid_for(n);
  dispatch(stem, entry, params, params_bytes, g.x, g.y);
}

void flush() { check(tf_webgpu_flush()); }

void write(void* device_ptr, const void* host, size_t bytes) {
  if (bytes == 0) return;
  TF_CHECK(bytes % 4 == 0, "WebGPU uploads whole 4-byte words (", bytes, " bytes asked)");
  check(tf_webgpu_write(word(device_ptr) * 4u, host, static_cast<uint32_t>(bytes)));
}

void read(void* host, const void* device_ptr, size_t bytes) {
  if (bytes == 0) return;
  check(tf_webgpu_read(host, word(device_ptr) * 4u, static_cast<uint32_t>(bytes)));
}

}  // namespace tf::webgpu
