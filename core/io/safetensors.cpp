#include "io/safetensors.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "io/file_bytes.hpp"
#include "util/error.hpp"

// safetensors is little-endian, as is every target (x86-64, wasm32, arm64): numbers are copied as they are.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "safetensors I/O assumes a little-endian host");

namespace tf {
namespace {

// ordered_json keeps the header's key order, so tensors come back in the order they were written.
using Json = nlohmann::ordered_json;

constexpr const char* kMetadataKey = "__metadata__";

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// ---------------------------------------------------------------- writing

void put_u64_le(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// Appends the numbers' bytes as they are in memory (the host is little-endian, as the format).
template <class T>
void put_le(std::vector<uint8_t>& out, const std::vector<T>& values) {
  size_t at = out.size();
  out.resize(at + values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(out.data() + at, values.data(), values.size() * sizeof(T));
}

// Names are unique across the float and the integer entries: they share the header's one object.
void check_names(const std::vector<std::pair<std::string, Tensor>>& tensors,
                 const std::vector<SafetensorsIntegers>& integers) {
  std::set<std::string> seen;
  auto check = [&](const std::string& name) {
    TF_CHECK(!name.empty(), "safetensors: a tensor needs a non-empty name");
    TF_CHECK(name != kMetadataKey, "safetensors: '", kMetadataKey, "' is reserved and cannot name a tensor");
    TF_CHECK(seen.insert(name).second, "safetensors: the tensor name '", name, "' appears twice");
  };
  for (const auto& e : integers) check(e.name);
  for (const auto& [name, t] : tensors) {
    check(name);
    TF_CHECK(t.defined(), "safetensors: tensor '", name, "' is undefined");
  }
}

// An integer entry's shape holds exactly its numbers (the product saturates rather than wrap).
void check_integer_shape(const SafetensorsIntegers& e) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t count = 1;
  for (int64_t d : e.shape) {
    TF_CHECK(d >= 0, "safetensors: integer entry '", e.name, "' has the negative dimension ", d);
    uint64_t dim = static_cast<uint64_t>(d);
    count = dim == 0 || count <= kMax / dim ? count * dim : kMax;
  }
  TF_CHECK(count == e.data.size(), "safetensors: integer entry '", e.name, "' has shape ",
           shape_text(e.shape), " but holds ", e.data.size(), " numbers");
}

// ---------------------------------------------------------------- reading

struct Entry {
  std::string name, dtype;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;  // byte range inside the data section
};

uint64_t get_u64_le(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Parses the header, refusing duplicate keys in any object (the JSON library would silently keep one) and
// nesting deeper than header -> tensor -> shape (so a hostile header cannot nest without bound).
Json parse_header(const uint8_t* p, size_t n) {
  TF_CHECK(n > 0 && p[0] == '{', "safetensors header is not a JSON object (it must start with '{')");
  std::vector<std::set<std::string>> open_objects;  // keys seen so far in each object being parsed
  auto check = [&](int depth, Json::parse_event_t event, Json& parsed) {
    TF_CHECK(depth <= 3, "safetensors header nests deeper than tensor entries can");
    if (event == Json::parse_event_t::object_start) open_objects.emplace_back();
    if (event == Json::parse_event_t::object_end) open_objects.pop_back();
    if (event == Json::parse_event_t::key) {
      const auto& key = parsed.get_ref<const std::string&>();
      TF_CHECK(open_objects.back().insert(key).second, "safetensors header has the key '", key, "' twice");
    }
    return true;
  };
  try {
    Json j = Json::parse(p, p + n, check);
    TF_CHECK(j.is_object(), "safetensors header is not a JSON object");
    return j;
  } catch (const Json::parse_error& e) {
    fail("safetensors header is not valid JSON (at byte ", e.byte, ")");
  } catch (const Json::exception&) {
    fail("safetensors header is not valid JSON");
  }
}

std::map<std::string, std::string> parse_metadata(const Json& m) {
  TF_CHECK(m.is_object(), "safetensors ", kMetadataKey, " must be an object of strings");
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : m.items()) {
    TF_CHECK(value.is_string(), "safetensors metadata value of '", key, "' is not a string");
    out[key] = value.get<std::string>();
  }
  return out;
}

// Bytes per element of the dtypes we read; throws for the others, telling unsupported from unknown.
uint64_t dtype_size(const std::string& name, const std::string& dtype) {
  if (dtype == "F32") return 4;
  if (dtype == "F16" || dtype == "BF16") return 2;
  if (dtype == "F64") return 8;
  if (dtype == "I64") return 8;
  static const std::set<std::string> other = {"BOOL",    "U8",      "I8",      "I16",     "U16",
                                              "I32",     "U32",     "U64",     "C64",     "F4",
                                              "F6_E2M3", "F6_E3M2", "F8_E5M2", "F8_E4M3", "F8_E8M0"};
  TF_CHECK(!other.count(dtype), "safetensors tensor '", name, "' has dtype ", dtype,
           ", which Tinyformer does not read (it reads F32, F16, BF16, F64 and I64)");
  fail("safetensors tensor '", name, "' has an unknown dtype '", dtype, "'");
}

uint64_t unsigned_field(const std::string& name, const char* field, const Json& v) {
  TF_CHECK(v.is_number_unsigned(), "safetensors tensor '", name, "': ", field,
           " must hold non-negative integers, got ", v.dump());
  return v.get<uint64_t>();
}

Entry parse_entry(const std::string& name, const Json& e) {
  // The writer refuses an empty name, so the reader does too: every file read can be written back.
  TF_CHECK(!name.empty(), "safetensors: a tensor needs a non-empty name");
  TF_CHECK(e.is_object(), "safetensors tensor '", name,
           "' must be an object with dtype, shape and data_offsets");
  for (const char* field : {"dtype", "shape", "data_offsets"})
    TF_CHECK(e.contains(field), "safetensors tensor '", name, "' has no '", field, "'");
  const Json& dtype = e["dtype"];
  const Json& shape = e["shape"];
  const Json& offsets = e["data_offsets"];
  TF_CHECK(dtype.is_string(), "safetensors tensor '", name, "': dtype must be a string");
  TF_CHECK(shape.is_array(), "safetensors tensor '", name, "': shape must be an array");
  TF_CHECK(offsets.is_array() && offsets.size() == 2, "safetensors tensor '", name,
           "': data_offsets must be [begin, end]");
  Entry out{name, dtype.get<std::string>(), {}, 0, 0};
  uint64_t size = dtype_size(name, out.dtype);
  uint64_t count = 1;
  for (const Json& d : shape) {
    uint64_t dim = unsigned_field(name, "shape", d);
    TF_CHECK(dim == 0 || count <= std::numeric_limits<uint64_t>::max() / size / dim, "safetensors tensor '",
             name, "' has an impossibly large shape");
    count *= dim;
    out.shape.push_back(static_cast<int64_t>(dim));
  }
  out.begin = unsigned_field(name, "data_offsets", offsets[0]);
  out.end = unsigned_field(name, "data_offsets", offsets[1]);
  TF_CHECK(out.begin <= out.end, "safetensors tensor '", name, "' has data_offsets [", out.begin, ", ",
           out.end, "] that end before they begin");
  TF_CHECK(out.end - out.begin == count * size, "safetensors tensor '", name, "' is ", out.dtype,
           " of shape ", shape_text(out.shape), " (", count * size, " bytes) but its data_offsets [",
           out.begin, ", ", out.end, "] hold ", out.end - out.begin, " bytes");
  return out;
}

// The byte ranges must tile the data section exactly: no overlap, no gap, nothing after the last tensor.
void check_coverage(std::vector<Entry> entries, uint64_t data_size) {
  for (const Entry& e : entries)
    TF_CHECK(e.end <= data_size, "safetensors tensor '", e.name, "' has data_offsets [", e.begin, ", ", e.end,
             "] outside the data section (", data_size, " bytes)");
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t covered = 0;
  const Entry* previous = nullptr;
  for (const Entry& e : entries) {
    TF_CHECK(e.begin >= covered, "safetensors tensors '", previous ? previous->name : "", "' and '", e.name,
             "' overlap");
    TF_CHECK(e.begin == covered, "safetensors data bytes ", covered, "..", e.begin, " belong to no tensor");
    covered = e.end;
    previous = &e;
  }
  TF_CHECK(covered == data_size, "safetensors data section has ", data_size - covered,
           " bytes after the last tensor");
}

float float_from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float f16_to_f32(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h >> 15) << 31, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ffu;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float32
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  uint32_t bits = exponent == 31 ? (sign | 0x7f800000u | (mantissa << 13))  // inf / NaN keep their payload
                                 : (sign | ((exponent + 112) << 23) | (mantissa << 13));
  return float_from_bits(bits);
}

// Element i of a packed little-endian array (the host is little-endian too; see the top of the file).
template <class T>
T element(const uint8_t* p, size_t i) {
  T v;
  std::memcpy(&v, p + i * sizeof(T), sizeof(T));
  return v;
}

std::vector<int64_t> decode_integers(const Entry& e, const uint8_t* p) {
  std::vector<int64_t> out(static_cast<size_t>(e.end - e.begin) / 8);  // [numel]
  if (!out.empty()) std::memcpy(out.data(), p, out.size() * 8);
  return out;
}

std::vector<float> decode(const Entry& e, const uint8_t* p) {
  size_t size = static_cast<size_t>(dtype_size(e.name, e.dtype));
  std::vector<float> out(static_cast<size_t>(e.end - e.begin) / size);  // [numel]
  if (e.dtype == "F32") {
    if (!out.empty()) std::memcpy(out.data(), p, out.size() * 4);
  } else if (e.dtype == "F16") {
    for (size_t i = 0; i < out.size(); ++i) out[i] = f16_to_f32(element<uint16_t>(p, i));
  } else if (e.dtype == "BF16") {  // the top half of a float32
    for (size_t i = 0; i < out.size(); ++i) out[i] = float_from_bits(uint32_t(element<uint16_t>(p, i)) << 16);
  } else {  // F64, rounded to nearest
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(element<double>(p, i));
  }
  return out;
}

}  // namespace

const SafetensorsTensor* SafetensorsFile::find(const std::string& name) const {
  for (const auto& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

const SafetensorsIntegers* SafetensorsFile::find_integers(const std::string& name) const {
  for (const auto& e : integers)
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<uint8_t> write_safetensors(const std::vector<std::pair<std::string, Tensor>>& tensors,
                                       const std::map<std::string, std::string>& metadata,
                                       const std::vector<SafetensorsIntegers>& integers) {
  check_names(tensors, integers);
  for (const auto& e : integers) check_integer_shape(e);
  Json header = Json::object();
  if (!metadata.empty()) header[kMetadataKey] = metadata;
  uint64_t offset = 0;
  for (const auto& e : integers) {
    uint64_t bytes = static_cast<uint64_t>(e.data.size()) * 8;
    header[e.name] = {{"dtype", "I64"}, {"shape", e.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  for (const auto& [name, t] : tensors) {
    uint64_t bytes = static_cast<uint64_t>(t.numel()) * 4;
    header[name] = {
        {"dtype", "F32"}, {"shape", t.shape().dims()}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  std::string text;
  try {
    text = header.dump();
  } catch (const Json::exception& e) {
    fail("safetensors: a tensor name or metadata string is not valid UTF-8 (", e.what(), ")");
  }
  text.append((8 - text.size() % 8) % 8, ' ');  // the data section starts 8-byte aligned
  std::vector<uint8_t> out;
  out.reserve(8 + text.size() + static_cast<size_t>(offset));
  put_u64_le(out, text.size());
  out.insert(out.end(), text.begin(), text.end());
  for (const auto& e : integers) put_le(out, e.data);
  for (const auto& [name, t] : tensors) put_le(out, t.to_vector());  // one tensor on the host at a time
  return out;
}

SafetensorsFile read_safetensors(const uint8_t* data, size_t size) {
  TF_CHECK(size >= 8, "safetensors file is ", size, " bytes, too short for the 8-byte header length");
  uint64_t n = get_u64_le(data);
  TF_CHECK(n <= kSafetensorsMaxHeader, "safetensors header length ", n, " is over the limit of ",
           kSafetensorsMaxHeader, " bytes");
  TF_CHECK(n <= size - 8, "safetensors header length ", n, " is larger than the rest of the file (", size - 8,
           " bytes)");
  Json header = parse_header(data + 8, static_cast<size_t>(n));
  const uint8_t* section = data + 8 + n;
  uint64_t section_size = size - 8 - n;
  SafetensorsFile file;
  std::vector<Entry> entries;
  for (const auto& [key, value] : header.items()) {
    if (key == kMetadataKey)
      file.metadata = parse_metadata(value);
    else
      entries.push_back(parse_entry(key, value));
  }
  check_coverage(entries, section_size);
  for (const Entry& e : entries) {
    if (e.dtype == "I64")
      file.integers.push_back({e.name, e.shape, decode_integers(e, section + e.begin)});
    else
      file.tensors.push_back({e.name, e.dtype, e.shape, decode(e, section + e.begin)});
  }
  return file;
}

void save_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata,
                      const std::vector<SafetensorsIntegers>& integers) {
  write_file_atomically(path, write_safetensors(tensors, metadata, integers));
}

SafetensorsFile load_safetensors(const std::string& path) {
  return parse_file(path, kMaxFileBytes,
                    [](const std::vector<uint8_t>& bytes) { return read_safetensors(bytes); });
}

}  // namespace tf
