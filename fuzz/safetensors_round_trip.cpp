// Fuzz target: safetensors bytes from an attacker. The reader may refuse them (tf::Error) but never read out
// of bounds; whatever it accepts must write back (floats as F32, integers as I64: the writer may refuse
// nothing the reader took) and read again to the same names, shapes, metadata, float bits and integers, and
// writing that again gives the same bytes.
#include "fuzz_check.hpp"
#include "io/safetensors.hpp"
#include "util/error.hpp"

using namespace tf;

namespace {

std::vector<std::pair<std::string, Tensor>> as_tensors(const SafetensorsFile& file) {
  std::vector<std::pair<std::string, Tensor>> tensors;
  for (const SafetensorsTensor& t : file.tensors)
    tensors.emplace_back(t.name, Tensor::from_vector(t.data, Shape(t.shape)));
  return tensors;
}

void check_same(const SafetensorsFile& a, const SafetensorsFile& b) {
  FUZZ_CHECK(a.metadata == b.metadata, "metadata changed in a write-then-read round trip");
  FUZZ_CHECK(a.tensors.size() == b.tensors.size(), "tensor count changed in a round trip");
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const SafetensorsTensor &x = a.tensors[i], &y = b.tensors[i];
    FUZZ_CHECK(x.name == y.name && x.shape == y.shape, "a tensor's name or shape changed in a round trip");
    FUZZ_CHECK(y.dtype == "F32", "the writer stores F32");
    FUZZ_CHECK(fuzz::same_bits(x.data, y.data), "a tensor's values changed in a round trip");
  }
  FUZZ_CHECK(a.integers.size() == b.integers.size(), "integer entry count changed in a round trip");
  for (size_t i = 0; i < a.integers.size(); ++i) {
    const SafetensorsIntegers &x = a.integers[i], &y = b.integers[i];
    FUZZ_CHECK(x.name == y.name && x.shape == y.shape && x.data == y.data,
               "an integer entry changed in a round trip");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SafetensorsFile file;
  try {
    file = read_safetensors(data, size);
  } catch (const Error&) {
    return 0;
  }
  for (const SafetensorsTensor& t : file.tensors)
    if (t.shape.size() > static_cast<size_t>(kMaxDims))
      return 0;  // valid safetensors, not a Tinyformer tensor
  std::vector<uint8_t> bytes = write_safetensors(as_tensors(file), file.metadata, file.integers);
  SafetensorsFile again = read_safetensors(bytes);
  check_same(file, again);
  FUZZ_CHECK(write_safetensors(as_tensors(again), again.metadata, again.integers) == bytes,
             "a file written, read and written again changed its bytes");
  return 0;
}
