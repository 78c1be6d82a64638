// Memory for every backend on the host (CPU and reference): blocks from the caching host pool and
// memmove between host buffers. Those backends differ only in their kernels.
#pragma once
#include <string>

#include "backend/backend.hpp"

namespace tf {

// A CPU-device table whose memory entries are filled; the caller fills the kernels.
Backend host_backend(std::string name);

}  // namespace tf
