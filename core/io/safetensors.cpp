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
constexpr size_t kMaxShapeDims = 64;  // more than any framework uses; a bound on what one shape costs

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
  TF_CHECK(e.shape.size() <= kMaxShapeDims, "safetensors: integer entry '", e.name, "' has more than ",
           kMaxShapeDims, " dimensions");
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

enum class Dtype : uint8_t { F32, F16, BF16, F64, I64 };
constexpr uint64_t kDtypeBytes[] = {4, 2, 2, 8, 8};

// Where an entry's numbers lie: its byte range inside the data section, and how they are stored.
struct Slice {
  uint64_t begin = 0, end = 0;
  Dtype dtype = Dtype::F32;
  uint64_t bytes() const { return end - begin; }
};

uint64_t get_u64_le(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The dtypes we read; throws for the others, telling unsupported from unknown.
Dtype dtype_of(const std::string& name, const std::string& dtype) {
  static const char* known[] = {"F32", "F16", "BF16", "F64", "I64"};
  for (int i = 0; i < 5; ++i)
    if (dtype == known[i]) return static_cast<Dtype>(i);
  static const std::set<std::string> other = {"BOOL",    "U8",      "I8",      "I16",     "U16",
                                              "I32",     "U32",     "U64",     "C64",     "F4",
                                              "F6_E2M3", "F6_E3M2", "F8_E5M2", "F8_E4M3", "F8_E8M0"};
  TF_CHECK(!other.count(dtype), "safetensors tensor '", excerpt(name), "' has dtype ", dtype,
           ", which Tinyformer does not read (it reads F32, F16, BF16, F64 and I64)");
  fail("safetensors tensor '", excerpt(name), "' has an unknown dtype '", excerpt(dtype), "'");
}

// The header read as it streams (nlohmann's SAX events): each entry straight into a record (name, dtype,
// shape; its numbers come later) and a Slice, the metadata into its map, so a header costs about its own
// size in memory, never a document tree of it.
// Depth 1 holds the names, 2 an entry's fields (or the metadata's keys), 3 the numbers of shape and
// data_offsets; anything deeper, of the wrong type or twice is refused as it arrives.
class HeaderReader {
 public:
  std::vector<SafetensorsTensor> entries;  // in header order, I64 ones too (as records without numbers)
  std::vector<Slice> slices;               // [entries]
  std::map<std::string, std::string> metadata;

  bool start_object(size_t) { return open(true); }
  bool start_array(size_t) { return open(false); }
  bool end_object() {
    if (depth_-- == 2 && !in_metadata_) finish_entry();
    in_metadata_ = in_metadata_ && depth_ > 1;
    return true;
  }
  bool end_array() { return --depth_, true; }
  bool key(std::string& k) {
    if (depth_ == 1) {
      TF_CHECK(k != kMetadataKey || !metadata_seen_, "safetensors header has the key '", k, "' twice");
      name_ = std::move(k);
    } else if (in_metadata_) {
      TF_CHECK(!metadata.count(k), "safetensors header has the key '", excerpt(k), "' twice");
      name_in_metadata_ = std::move(k);
    } else {
      field_ = std::find(std::begin(kFields), std::end(kFields), k) - std::begin(kFields);
      TF_CHECK(field_ < 3, tensor(), " has the field '", excerpt(k),
               "'; entries hold dtype, shape and data_offsets");
      TF_CHECK(!(seen_ & (1u << field_)), "safetensors header has the key '", k, "' twice");
      seen_ |= 1u << field_;
    }
    return true;
  }
  bool string(std::string& s) {
    if (depth_ == 2 && in_metadata_)
      return metadata.emplace(std::move(name_in_metadata_), std::move(s)), true;
    if (depth_ != 2 || field_ != kDtype) wrong("\"" + excerpt(s) + "\"");
    slices.back().dtype = dtype_of(entries.back().name, s);
    return entries.back().dtype = std::move(s), true;
  }
  bool number_unsigned(uint64_t v) {
    if (depth_ != 3) wrong(std::to_string(v));
    std::vector<int64_t>& shape = entries.back().shape;
    if (field_ == kShape && shape.size() < kMaxShapeDims)
      return shape.push_back(static_cast<int64_t>(std::min<uint64_t>(v, INT64_MAX))), true;
    TF_CHECK(field_ == kOffsets, tensor(), " has more than ", kMaxShapeDims, " dimensions");
    TF_CHECK(offsets_ < 2, tensor(), ": data_offsets must be [begin, end]");
    return (offsets_++ ? slices.back().end : slices.back().begin) = v, true;
  }
  bool number_integer(int64_t v) { return wrong(std::to_string(v)); }
  bool number_float(double, const std::string& text) { return wrong(text); }
  bool boolean(bool v) { return wrong(v ? "true" : "false"); }
  bool null() { return wrong("null"); }
  bool binary(std::vector<uint8_t>&) { return wrong("binary"); }
  bool parse_error(size_t at, const std::string&, const nlohmann::detail::exception&) {
    fail("safetensors header is not valid JSON (at byte ", at, ")");
  }

 private:
  static constexpr const char* kFields[] = {"dtype", "shape", "data_offsets"};
  enum { kDtype, kShape, kOffsets };
  int depth_ = 0;
  bool in_metadata_ = false, metadata_seen_ = false;
  std::string name_, name_in_metadata_;
  size_t field_ = 0;
  unsigned seen_ = 0;  // the fields given so far, one bit each
  int offsets_ = 0;    // numbers given in data_offsets

  std::string tensor() const { return "safetensors tensor '" + excerpt(entries.back().name) + "'"; }

  bool open(bool object) {
    if (depth_ == 1 && name_ == kMetadataKey) {
      TF_CHECK(object, "safetensors ", kMetadataKey, " must be an object of strings");
      in_metadata_ = metadata_seen_ = true;
    } else if (depth_ == 1) {
      TF_CHECK(!name_.empty(), "safetensors: a tensor needs a non-empty name");
      TF_CHECK(object, "safetensors tensor '", excerpt(name_),
               "' must be an object with dtype, shape and data_offsets");
      entries.push_back({std::move(name_), "", {}, {}});
      slices.emplace_back();
      seen_ = 0, offsets_ = 0;
    } else if (depth_ == 2 && (object || field_ == kDtype || in_metadata_)) {
      wrong("");
    }
    TF_CHECK(depth_ < 3, "safetensors header nests deeper than tensor entries can");
    return ++depth_, true;
  }

  // A value of the wrong type (`value` as the header spells it), said as what should have been there.
  [[noreturn]] bool wrong(const std::string& value) {
    if (depth_ == 1) open(false);  // an entry (or the metadata) that is not an object
    if (in_metadata_)
      fail("safetensors metadata value of '", excerpt(name_in_metadata_), "' is not a string");
    if (depth_ == 3) fail(tensor(), ": ", kFields[field_], " must hold non-negative integers, got ", value);
    fail(tensor(), ": ",
         field_ == kDtype   ? "dtype must be a string"
         : field_ == kShape ? "shape must be an array"
                            : "data_offsets must be [begin, end]");
  }

  // The entry's fields agree: every one given, and a byte range that holds exactly the shape's numbers.
  void finish_entry() {
    const SafetensorsTensor& e = entries.back();
    const Slice& r = slices.back();
    for (size_t f = 0; f < 3; ++f) TF_CHECK(seen_ & (1u << f), tensor(), " has no '", kFields[f], "'");
    TF_CHECK(offsets_ == 2, tensor(), ": data_offsets must be [begin, end]");
    // The bound takes the widest element (8 bytes) whatever the dtype, so a shape read as F16 can be
    // written as F32 and read back.
    uint64_t count = 1;
    for (int64_t d : e.shape) {
      uint64_t dim = static_cast<uint64_t>(d);
      TF_CHECK(d < INT64_MAX && (dim == 0 || count <= std::numeric_limits<uint64_t>::max() / 8 / dim),
               tensor(), " has an impossibly large shape");
      count *= dim;
    }
    uint64_t size = kDtypeBytes[static_cast<int>(r.dtype)];
    TF_CHECK(r.begin <= r.end, tensor(), " has data_offsets [", r.begin, ", ", r.end,
             "] that end before they begin");
    TF_CHECK(r.bytes() == count * size, tensor(), " is ", e.dtype, " of shape ", shape_text(e.shape), " (",
             count * size, " bytes) but its data_offsets [", r.begin, ", ", r.end, "] hold ", r.bytes(),
             " bytes");
  }
};

// Parses the header (see HeaderReader) and refuses a name given twice.
HeaderReader parse_header(const uint8_t* p, size_t n) {
  TF_CHECK(n > 0 && p[0] == '{', "safetensors header is not a JSON object (it must start with '{')");
  HeaderReader reader;
  Json::sax_parse(p, p + n, &reader);
  std::vector<const SafetensorsTensor*> by_name;
  for (const SafetensorsTensor& e : reader.entries) by_name.push_back(&e);
  std::sort(by_name.begin(), by_name.end(), [](auto a, auto b) { return a->name < b->name; });
  for (size_t i = 1; i < by_name.size(); ++i)
    TF_CHECK(by_name[i - 1]->name != by_name[i]->name, "safetensors header has the key '",
             excerpt(by_name[i]->name), "' twice");
  return reader;
}

// The byte ranges must tile the data section exactly: no overlap, no gap, nothing after the last tensor.
void check_coverage(const HeaderReader& header, uint64_t data_size) {
  std::vector<size_t> by_offset;
  for (size_t i = 0; i < header.slices.size(); ++i) {
    const Slice& r = header.slices[i];
    TF_CHECK(r.end <= data_size, "safetensors tensor '", excerpt(header.entries[i].name),
             "' has data_offsets [", r.begin, ", ", r.end, "] outside the data section (", data_size,
             " bytes)");
    by_offset.push_back(i);
  }
  std::stable_sort(by_offset.begin(), by_offset.end(), [&](size_t a, size_t b) {
    const Slice &x = header.slices[a], &y = header.slices[b];
    return x.begin != y.begin ? x.begin < y.begin : x.end < y.end;
  });
  uint64_t covered = 0;
  const std::string* previous = nullptr;
  for (size_t i : by_offset) {
    const Slice& r = header.slices[i];
    const std::string& name = header.entries[i].name;
    TF_CHECK(r.begin >= covered, "safetensors tensors '", previous ? excerpt(*previous) : "", "' and '",
             excerpt(name), "' overlap");
    TF_CHECK(r.begin == covered, "safetensors data bytes ", covered, "..", r.begin, " belong to no tensor");
    covered = r.end;
    previous = &name;
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

std::vector<int64_t> decode_integers(const Slice& r, const uint8_t* p) {
  std::vector<int64_t> out(static_cast<size_t>(r.bytes()) / 8);  // [numel]
  if (!out.empty()) std::memcpy(out.data(), p, out.size() * 8);
  return out;
}

std::vector<float> decode(const Slice& r, const uint8_t* p) {
  std::vector<float> out(static_cast<size_t>(r.bytes() / kDtypeBytes[static_cast<int>(r.dtype)]));  // [numel]
  if (r.dtype == Dtype::F32) {
    if (!out.empty()) std::memcpy(out.data(), p, out.size() * 4);
  } else if (r.dtype == Dtype::F16) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = f16_to_f32(element<uint16_t>(p, i));
  } else if (r.dtype == Dtype::BF16) {  // the top half of a float32
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
  TF_CHECK(text.size() <= kSafetensorsMaxHeader, "safetensors: the header would be ", text.size(),
           " bytes, over the limit of ", kSafetensorsMaxHeader, " that readers accept");
  std::vector<uint8_t> out;
  out.reserve(8 + text.size() + static_cast<size_t>(offset));
  put_u64_le(out, text.size());
  out.insert(out.end(), text.begin(), text.end());
  for (const auto& e : integers) put_le(out, e.data);
  for (const auto& [name, t] : tensors) put_le(out, t.to_vector());  // one tensor on the host at a time
  return out;
}

SafetensorsFile read_safetensors(const uint8_t* data, size_t size,
                                 const std::function<void(const SafetensorsFile&)>& claims) {
  TF_CHECK(size >= 8, "safetensors file is ", size, " bytes, too short for the 8-byte header length");
  uint64_t n = get_u64_le(data);
  TF_CHECK(n <= kSafetensorsMaxHeader, "safetensors header length ", n, " is over the limit of ",
           kSafetensorsMaxHeader, " bytes");
  TF_CHECK(n <= size - 8, "safetensors header length ", n, " is larger than the rest of the file (", size - 8,
           " bytes)");
  HeaderReader header = parse_header(data + 8, static_cast<size_t>(n));
  check_coverage(header, size - 8 - n);
  // The records become the file's entries in place: the I64 ones moved out, the float ones kept.
  SafetensorsFile file;
  file.metadata = std::move(header.metadata);
  std::vector<SafetensorsTensor>& records = header.entries;
  for (size_t i = 0; i < records.size(); ++i)
    if (header.slices[i].dtype == Dtype::I64)
      file.integers.push_back({std::move(records[i].name), std::move(records[i].shape), {}});
  records.erase(
      std::remove_if(records.begin(), records.end(), [](const auto& t) { return t.dtype == "I64"; }),
      records.end());
  file.tensors = std::move(records);
  if (claims) claims(file);
  const uint8_t* section = data + 8 + n;
  auto tensor = file.tensors.begin();
  auto integers = file.integers.begin();
  for (const Slice& r : header.slices) {
    if (r.dtype == Dtype::I64)
      (integers++)->data = decode_integers(r, section + r.begin);
    else
      (tensor++)->data = decode(r, section + r.begin);
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
