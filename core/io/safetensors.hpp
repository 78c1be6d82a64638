// safetensors (https://huggingface.co/docs/safetensors), the tensor file format that PyTorch, the browser and
// the CLI share: an 8-byte little-endian header length N, N bytes of JSON naming each tensor's dtype, shape
// and byte range, then the raw little-endian numbers, tightly packed. We write F32 with the header padded
// by spaces so the data starts 8-byte aligned; we read F32 and convert F16, BF16 and F64 to float32.
// The reader treats every byte as hostile: any inconsistency is a tf::Error, never an out-of-bounds read.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.hpp"

namespace tf {

struct SafetensorsTensor {
  std::string name;
  std::string dtype;           // as stored: "F32", "F16", "BF16" or "F64"; data is float32 whatever it was
  std::vector<int64_t> shape;  // any number of dimensions; [] is a scalar
  std::vector<float> data;     // [numel], row-major
};

// An "I64" entry: little-endian two's-complement 64-bit integers, kept exact (step counts).
struct SafetensorsIntegers {
  std::string name;
  std::vector<int64_t> shape;  // any number of dimensions; [] is a scalar
  std::vector<int64_t> data;   // [numel], row-major
};

struct SafetensorsFile {
  std::vector<SafetensorsTensor> tensors;       // the float entries, in header order
  std::vector<SafetensorsIntegers> integers;    // the I64 entries, in header order
  std::map<std::string, std::string> metadata;  // the "__metadata__" object (string to string)
  const SafetensorsTensor* find(const std::string& name) const;             // nullptr when absent
  const SafetensorsIntegers* find_integers(const std::string& name) const;  // nullptr when absent
};

// The largest header we accept (the reference implementation's limit too).
constexpr uint64_t kSafetensorsMaxHeader = 100000000;

// Serialises the integer entries as I64, then the tensors (copied to the host when they live elsewhere) as
// F32, each in the given order (8-byte numbers first keeps every entry naturally aligned). Names must be
// unique across both, non-empty and not "__metadata__"; an integer entry's data must fill its shape;
// metadata values must be valid UTF-8.
std::vector<uint8_t> write_safetensors(const std::vector<std::pair<std::string, Tensor>>& tensors,
                                       const std::map<std::string, std::string>& metadata = {},
                                       const std::vector<SafetensorsIntegers>& integers = {});

// Parses and checks a whole file held in memory. The header is read as it streams, each entry checked as it
// arrives. `claims` (when given) then sees the file with every name, dtype, shape and the metadata but no
// numbers yet, and may refuse it (throw) before anything is decoded.
SafetensorsFile read_safetensors(const uint8_t* data, size_t size,
                                 const std::function<void(const SafetensorsFile&)>& claims = nullptr);
inline SafetensorsFile read_safetensors(const std::vector<uint8_t>& bytes) {
  return read_safetensors(bytes.data(), bytes.size());
}

// The same through the file system: written to a temporary file and renamed into place (io/file_bytes.hpp).
void save_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata = {},
                      const std::vector<SafetensorsIntegers>& integers = {});
SafetensorsFile load_safetensors(const std::string& path);  // errors name the path

}  // namespace tf
