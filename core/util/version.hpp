// The release of Tinyformer, one constant for every front end: `tinyformer --version` and the wasm module's
// version() print it, and tests/cli checks that package.json carries the same number.
#pragma once

namespace tf {

constexpr const char* kVersion = "0.1.0";

}  // namespace tf
