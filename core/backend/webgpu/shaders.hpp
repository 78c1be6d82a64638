// The WGSL of each stem (core/backend/webgpu/<stem>.wgsl) and its pipelines, embedded in the binary by
// CMake (embed_wgsl.cmake writes the table and pipelines.hpp), so nothing is fetched at run time.
#pragma once
#include "backend/webgpu/pipelines.hpp"

namespace tf::webgpu {

// A pipeline's stem (its shader file, the profiler's row), entry point and shader source.
struct PipelineInfo {
  const char* stem;
  const char* entry;
  const char* source;
};
const PipelineInfo& pipeline_info(Pipeline pipeline);

}  // namespace tf::webgpu
