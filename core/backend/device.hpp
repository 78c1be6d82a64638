// Where a tensor's numbers live. WebAssembly is not a device: it is the CPU backend compiled by emcc.
#pragma once
#include <string>

namespace tf {

enum class Device { CPU = 0, CUDA = 1 };

std::string device_name(Device d);
Device parse_device(const std::string& name);  // "cpu" or "cuda"; throws on anything else

}  // namespace tf
