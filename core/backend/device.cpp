// Device names, from the TF_DEVICES list.
#include "backend/device.hpp"

#include "util/names.hpp"

namespace tf {

namespace {
#define TF_DEVICE_ROW(id, name) {Device::id, name},
constexpr std::pair<Device, const char*> kNames[] = {TF_DEVICES(TF_DEVICE_ROW)};
#undef TF_DEVICE_ROW
}  // namespace

std::string device_name(Device d) { return name_in(kNames, d); }

Device parse_device(const std::string& name) { return value_in(kNames, name, "device"); }

}  // namespace tf
