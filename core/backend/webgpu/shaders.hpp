// The WGSL of each stem (core/backend/webgpu/<stem>.wgsl), embedded in the binary by CMake
// (embed_wgsl.cmake writes the definition), so nothing is fetched at run time.
#pragma once

namespace tf::webgpu {

// The source of <stem>.wgsl; a tf::Error for a stem without one.
const char* shader_source(const char* stem);

}  // namespace tf::webgpu
