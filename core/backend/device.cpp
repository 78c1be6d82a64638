// Device names, from the TF_DEVICES list.
#include "backend/device.hpp"

#include "util/error.hpp"

namespace tf {

namespace {
struct DeviceName {
  Device device;
  const char* name;
};
#define TF_DEVICE_ROW(id, name) {Device::id, name},
constexpr DeviceName kNames[] = {TF_DEVICES(TF_DEVICE_ROW)};
#undef TF_DEVICE_ROW
}  // namespace

std::string device_name(Device d) { return kNames[static_cast<int>(d)].name; }

Device parse_device(const std::string& name) {
  std::string known;
  for (const DeviceName& n : kNames) {
    if (name == n.name) return n.device;
    known += known.empty() ? n.name : std::string(" or ") + n.name;
  }
  fail("unknown device '", name, "' (expected ", known, ")");
}

}  // namespace tf
