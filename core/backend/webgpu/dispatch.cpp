// The C++ side of the bridge: the imports of webgpu_library.js, each turned into a tf::Error when it
// reports a failure (a JS exception would skip C++ unwinding), the uniform ring the Params are staged in
// (here in wasm memory, so the JS side copies nothing per dispatch), and the pointer <-> arena offset rules.
// Each call names the step phase it runs in (util/step_phase.hpp), for the counters.
#include "backend/webgpu/dispatch.hpp"

#include <algorithm>
#include <cstring>

#include "backend/webgpu/shaders.hpp"
#include "util/error.hpp"
#include "util/step_phase.hpp"

extern "C" {
int tf_webgpu_init(const void* ring, uint32_t ring_bytes, uint32_t* ring_used, const char* phases,
                   const void* pipelines, uint32_t count, double start_bytes);
double tf_webgpu_arena_bytes();
double tf_webgpu_arena_limit();
int tf_webgpu_grow(double bytes, int phase);
void tf_webgpu_message(char* buffer, uint32_t capacity);
int tf_webgpu_dispatch(uint32_t pipeline, uint32_t slot, uint32_t x, uint32_t y, uint32_t z, uint32_t rows,
                       int gemm, int phase);
int tf_webgpu_submit(int phase);
int tf_webgpu_write(uint32_t offset, const void* src, uint32_t bytes, int phase);
int tf_webgpu_upload(uint32_t ring_offset, uint32_t offset, uint32_t bytes, int phase);
int tf_webgpu_read(void* dst, uint32_t offset, uint32_t bytes);
}

namespace tf::webgpu {

namespace {

constexpr uint32_t kMaxGroupsPerDimension = 65535;
constexpr size_t kRingBytes = size_t(2) << 20;  // 8192 slots: a chunk of several steps per submit
// The arena starts here (or at Module.webgpuArenaBytes) and grows as runs need it: a default story run and
// its optimizer use about 100 MiB, the toy runs a few.
constexpr double kArenaStartBytes = 32 << 20;

#define TF_PHASE_NAME(id, name) name ","
constexpr const char kPhaseNames[] = TF_PROFILE_PHASES(TF_PHASE_NAME);
#undef TF_PHASE_NAME

// The ring: each dispatch's Params in its own kMaxParamsBytes slot, and each small upload, written to the
// GPU's copy of the ring in one queue write when the recorded work is submitted (the uploads then reach the
// arena by copies recorded in order with the dispatches). The JS side reads and resets the bytes used when
// it submits (also for an asynchronous read, which C++ does not see).
alignas(kMaxParamsBytes) uint8_t g_ring[kRingBytes];
uint32_t g_ring_used = 0;
size_t g_arena_bytes = 0;  // the JS side's, kept here: every operand's check reads it

int phase() { return static_cast<int>(current_phase()); }

// Raises the library's message when an import reported a failure.
void check(int status) {
  if (status == 0) return;
  char message[2048];
  tf_webgpu_message(message, sizeof message);
  fail(message);
}

}  // namespace

bool present() {
  static const bool ready = [] {
    bool made = tf_webgpu_init(g_ring, kRingBytes, &g_ring_used, kPhaseNames, &pipeline_info(Pipeline{}),
                               kPipelineCount, kArenaStartBytes) != 0;
    if (made) g_arena_bytes = static_cast<size_t>(tf_webgpu_arena_bytes());
    return made;
  }();
  return ready;
}

size_t arena_bytes() { return present() ? g_arena_bytes : 0; }

size_t arena_limit() { return present() ? static_cast<size_t>(tf_webgpu_arena_limit()) : 0; }

void grow_arena(size_t bytes) {
  TF_CHECK(bytes <= arena_limit(), "the WebGPU arena cannot grow past ", arena_limit() >> 20, " MiB");
  check(tf_webgpu_grow(static_cast<double>(bytes), phase()));
  g_arena_bytes = bytes;
}

size_t arena_offset(const void* device_ptr) {
  auto p = reinterpret_cast<uintptr_t>(device_ptr);
  TF_CHECK(p >= kArenaBase && p - kArenaBase < g_arena_bytes, "not a WebGPU device pointer: ", device_ptr);
  return p - kArenaBase;
}

void* device_pointer(size_t offset) { return reinterpret_cast<void*>(kArenaBase + offset); }

uint32_t word(const void* device_ptr) {
  size_t offset = arena_offset(device_ptr);
  TF_CHECK(offset % 4 == 0, "a WebGPU kernel operand must be 4-byte aligned (offset ", offset, ")");
  return static_cast<uint32_t>(offset / 4);
}

void dispatch_params(Pipeline pipeline, const void* params, size_t bytes, Groups g, Work work) {
  TF_CHECK(g.x <= kMaxGroupsPerDimension && g.y <= kMaxGroupsPerDimension && g.z <= kMaxGroupsPerDimension,
           "WebGPU ", pipeline_info(pipeline).entry, ": more than ", kMaxGroupsPerDimension,
           " workgroups in a dimension");
  if (g.x == 0 || g.y == 0 || g.z == 0) return;
  if (g_ring_used + kMaxParamsBytes > kRingBytes) flush();
  uint32_t slot = g_ring_used;
  std::memcpy(g_ring + slot, params, bytes);
  g_ring_used += kMaxParamsBytes;
  check(tf_webgpu_dispatch(static_cast<uint32_t>(pipeline), slot, g.x, g.y, g.z, work.rows, work.gemm ? 1 : 0,
                           phase()));
}

Groups grid_for(size_t n) {
  size_t groups = (n + kGroupSize - 1) / kGroupSize;
  Groups g;
  g.x = static_cast<uint32_t>(std::min<size_t>(groups, kMaxGroupsPerDimension));
  g.y = static_cast<uint32_t>(g.x ? (groups + g.x - 1) / g.x : 0);
  return g;
}

void flush() { check(tf_webgpu_submit(phase())); }

// A step's inputs (ids, targets, weights) go through the ring: no submit of their own, one queue write for
// all of them. A large upload (a run's parameters when it loads) is written directly, after the recorded
// work is submitted (queue.writeBuffer runs before any command buffer submitted after it).
void write(void* device_ptr, const void* host, size_t bytes) {
  if (bytes == 0) return;
  TF_CHECK(bytes % 4 == 0, "WebGPU uploads whole 4-byte words (", bytes, " bytes asked)");
  uint32_t offset = word(device_ptr) * 4u;
  size_t staged = (bytes + kMaxParamsBytes - 1) / kMaxParamsBytes * kMaxParamsBytes;  // slots stay aligned
  if (staged > kRingBytes / 8) {
    flush();
    return check(tf_webgpu_write(offset, host, static_cast<uint32_t>(bytes), phase()));
  }
  if (g_ring_used + staged > kRingBytes) flush();
  uint32_t at = g_ring_used;
  std::memcpy(g_ring + at, host, bytes);
  g_ring_used += static_cast<uint32_t>(staged);
  check(tf_webgpu_upload(at, offset, static_cast<uint32_t>(bytes), phase()));
}

void read(void* host, const void* device_ptr, size_t bytes) {
  if (bytes == 0) return;
  check(tf_webgpu_read(host, word(device_ptr) * 4u, static_cast<uint32_t>(bytes)));  // submits the work first
}

}  // namespace tf::webgpu
