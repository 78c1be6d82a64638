#include "backend/device.hpp"

#include "util/error.hpp"

namespace tf {

std::string device_name(Device d) { return d == Device::CUDA ? "cuda" : "cpu"; }

Device parse_device(const std::string& name) {
  if (name == "cpu") return Device::CPU;
  if (name == "cuda") return Device::CUDA;
  fail("unknown device '", name, "' (expected cpu or cuda)");
}

}  // namespace tf
