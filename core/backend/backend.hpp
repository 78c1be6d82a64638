// A backend is a table: its device, its name, and one function pointer per memory entry and kernel of
// kernels.hpp, all generated from that list. Ops call `backend_for(device).softmax_forward(...)`; each
// backend fills its table from its own stem files (backend/<name>/<stem>) in one place, so there is no
// class whose methods only forward. registry.cpp says which backend serves which device.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "backend/device.hpp"
#include "backend/kernels.hpp"

namespace tf {

class Backend {
 public:
  Backend(Device device, std::string name) : device_(device), name_(std::move(name)) {}
  Device device() const { return device_; }
  const char* name() const { return name_.c_str(); }  // e.g. "cpu-avx512", "reference", "cuda"

#define TF_KERNEL_POINTER(stem, ret, name, params) ret(*name) params = nullptr;
  TF_BACKEND_MEMORY(TF_KERNEL_POINTER)
  TF_BACKEND_KERNELS(TF_KERNEL_POINTER)
#undef TF_KERNEL_POINTER

  // Whether every entry of the table is filled (tests check each backend with it).
  bool complete() const;

 private:
  Device device_;
  std::string name_;
};

// Binds every memory entry and kernel of `table` to the function of the same name in namespace `ns`: a
// device backend's whole table in one line, e.g. TF_BIND_BACKEND(table, cuda). TF_BIND_KERNELS binds the
// kernels alone (a host backend shares host_memory.cpp's entries).
#define TF_BIND_ENTRY_(stem, ret, name, params) bound_table_.name = &bound_ns_::name;
#define TF_BIND_KERNELS(table, ns)     \
  do {                                 \
    Backend& bound_table_ = (table);   \
    namespace bound_ns_ = ns;          \
    TF_BACKEND_KERNELS(TF_BIND_ENTRY_) \
  } while (0)
#define TF_BIND_BACKEND(table, ns)     \
  do {                                 \
    Backend& bound_table_ = (table);   \
    namespace bound_ns_ = ns;          \
    TF_BACKEND_MEMORY(TF_BIND_ENTRY_)  \
    TF_BACKEND_KERNELS(TF_BIND_ENTRY_) \
  } while (0)

// A device backend's table, made once by `bind` and never destroyed (storages freed after main returns
// still reach it).
template <class Bind>
Backend& immortal_backend(Device device, const char* name, Bind bind) {
  auto* table = new Backend(device, name);
  bind(*table);
  return *table;
}

// The backend that ops use for tensors on a device. Tests may swap the CPU one for the reference backend.
Backend& backend_for(Device d);
Backend* set_backend(Device d, Backend* b);  // returns the previous one; nullptr restores the default
Backend& cpu_backend();
Backend& reference_backend();
bool cuda_available();  // compiled with CUDA and a device is present
// Every registered backend whose device this machine has, one per device (the CPU's is cpu_backend()).
std::vector<Backend*> available_backends();

// Counts floating-point operations of the matrix products and attention, for the GFLOP/s readouts.
uint64_t flop_count();
void add_flops(uint64_t n);

}  // namespace tf
