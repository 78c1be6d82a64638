// safetensors: round trips (float tensors and exact I64 integers), the header layout, every corruption the
// reader must refuse, files made by an independent PyTorch writer (committed fixture), PyTorch reading our
// files (native, when torch is present), and the temporary-file-then-rename writes.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#ifndef __EMSCRIPTEN__
#include <sys/resource.h>

#include <csignal>
#endif

#include "io/file_bytes.hpp"
#include "io/safetensors.hpp"
#include "support/scratch_dir.hpp"
#include "support/torch_reader.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

using namespace tf;
namespace fs = std::filesystem;

namespace {

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

std::vector<uint32_t> bits_of(const std::vector<float>& values) {
  std::vector<uint32_t> out;
  for (float f : values) out.push_back(bits_of(f));
  return out;
}

float float_of(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

std::vector<float> random_values(Rng& rng, size_t n) {
  std::vector<float> v(n);
  for (float& x : v) x = rng.normal();
  return v;
}

// A file from a hand-written header and `data_bytes` zero bytes of data.
std::vector<uint8_t> make_file(const std::string& header, size_t data_bytes) {
  std::vector<uint8_t> out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(uint64_t(header.size()) >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.resize(out.size() + data_bytes, 0);
  return out;
}

uint64_t header_length(const std::vector<uint8_t>& file) {
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | file[static_cast<size_t>(i)];
  return n;
}

// The tensors most tests write: odd sizes, a scalar, an empty tensor, four dims and special values.
std::vector<std::pair<std::string, Tensor>> sample_tensors() {
  Rng rng(7);
  std::vector<float> special = {0.f, -0.f, 1e-45f, -3.4e38f, INFINITY, -INFINITY, float_of(0x7fc01234u)};
  return {{"embed.weight", Tensor::from_vector(random_values(rng, 15), Shape{5, 3})},
          {"blocks.0.norm1.bias", Tensor::from_vector(random_values(rng, 3), Shape{3})},
          {"special", Tensor::from_vector(special, Shape{7})},
          {"scalar", Tensor::scalar(2.5f)},
          {"empty", Tensor::zeros(Shape{0, 4})},
          {"four.dims", Tensor::from_vector(random_values(rng, 24), Shape{2, 1, 3, 4})}};
}

// The integer entries most tests write: a step count past float32's 2^24, the extremes, a scalar, an empty.
std::vector<SafetensorsIntegers> sample_integers() {
  return {{"optim.steps", {1}, {(int64_t{1} << 40) + 3}},
          {"extremes", {2, 2}, {INT64_MIN, -1, 0, INT64_MAX}},
          {"count", {}, {16777217}},
          {"none", {0}, {}}};
}

void check_same_integers(const SafetensorsFile& file, const std::vector<SafetensorsIntegers>& integers) {
  REQUIRE(file.integers.size() == integers.size());
  for (size_t i = 0; i < integers.size(); ++i) {
    CAPTURE(integers[i].name);
    CHECK(file.integers[i].name == integers[i].name);
    CHECK(file.integers[i].shape == integers[i].shape);
    CHECK(file.integers[i].data == integers[i].data);
  }
}

using test::ScratchDir;

void check_same_file(const SafetensorsFile& file,
                     const std::vector<std::pair<std::string, Tensor>>& tensors) {
  REQUIRE(file.tensors.size() == tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    CAPTURE(tensors[i].first);
    CHECK(file.tensors[i].name == tensors[i].first);
    CHECK(file.tensors[i].dtype == "F32");
    CHECK(file.tensors[i].shape == tensors[i].second.shape().dims());
    CHECK(bits_of(file.tensors[i].data) == bits_of(tensors[i].second.to_vector()));
  }
}

}  // namespace

TEST_SUITE("safetensors") {
  TEST_CASE("a round trip keeps names, order, shapes, values bit for bit and metadata") {
    auto tensors = sample_tensors();
    std::map<std::string, std::string> metadata = {{"task", "toy"}, {"unicode", "h\xc3\xa9llo \"q\" \\ \n"}};
    SafetensorsFile file = read_safetensors(write_safetensors(tensors, metadata));
    check_same_file(file, tensors);
    CHECK(file.metadata == metadata);
    REQUIRE(file.find("scalar") != nullptr);
    CHECK(file.find("scalar")->shape.empty());
    CHECK(file.find("missing") == nullptr);
  }

  TEST_CASE("I64 entries round trip exactly beside the float tensors, written first and 8-byte aligned") {
    auto tensors = sample_tensors();
    auto integers = sample_integers();
    auto bytes = write_safetensors(tensors, {{"k", "v"}}, integers);
    SafetensorsFile file = read_safetensors(bytes);
    check_same_integers(file, integers);
    check_same_file(file, tensors);
    REQUIRE(file.find_integers("optim.steps") != nullptr);
    CHECK(file.find_integers("optim.steps")->data == std::vector<int64_t>{(int64_t{1} << 40) + 3});
    CHECK(file.find_integers("embed.weight") == nullptr);
    CHECK(file.find("optim.steps") == nullptr);
    uint64_t n = header_length(bytes);
    auto j = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(n));
    CHECK(j["optim.steps"] == nlohmann::json::parse(R"({"dtype":"I64","shape":[1],"data_offsets":[0,8]})"));
    CHECK(j["extremes"]["data_offsets"] == nlohmann::json({8, 40}));
    CHECK(j["none"]["data_offsets"] == nlohmann::json({48, 48}));
    CHECK(j["embed.weight"]["data_offsets"] == nlohmann::json({48, 108}));
    std::vector<uint8_t> count(bytes.begin() + 8 + static_cast<long>(n),
                               bytes.begin() + 16 + static_cast<long>(n));
    CHECK(count == std::vector<uint8_t>{0x03, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00});  // little-endian
  }

  TEST_CASE("the writer refuses integer entries whose shape does not hold their numbers, or a shared name") {
    Tensor t = Tensor::ones(Shape{1});
    CHECK_THROWS_WITH_AS(write_safetensors({}, {}, {{"c", {2}, {1}}}),
                         doctest::Contains("shape [2] but holds 1"), Error);
    CHECK_THROWS_WITH_AS(write_safetensors({}, {}, {{"c", {-1}, {}}}),
                         doctest::Contains("negative dimension"), Error);
    CHECK_THROWS_WITH_AS(write_safetensors({}, {}, {{"c", {INT64_MAX, INT64_MAX, 2}, {1}}}),
                         doctest::Contains("holds 1 numbers"), Error);
    CHECK_THROWS_WITH_AS(write_safetensors({{"a", t}}, {}, {{"a", {1}, {1}}}),
                         doctest::Contains("'a' appears twice"), Error);
    CHECK_THROWS_WITH_AS(write_safetensors({}, {}, {{"__metadata__", {1}, {1}}}),
                         doctest::Contains("reserved"), Error);
    CHECK_THROWS_WITH_AS(write_safetensors({}, {}, {{"", {1}, {1}}}), doctest::Contains("non-empty"), Error);
  }

  TEST_CASE("no metadata writes no __metadata__ entry and reads back as an empty map") {
    auto bytes = write_safetensors({{"x", Tensor::ones(Shape{2})}});
    std::string header(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(header_length(bytes)));
    CHECK(header.find("__metadata__") == std::string::npos);
    CHECK(read_safetensors(bytes).metadata.empty());
  }

  TEST_CASE("the header is space-padded so data starts 8-byte aligned, tensors packed in order") {
    for (size_t len = 1; len <= 16; ++len) {
      std::string name(len, 'n');
      auto bytes =
          write_safetensors({{name, Tensor::ones(Shape{3})}, {name + "2", Tensor::ones(Shape{2, 2})}},
                            {{"k", std::string(len, 'v')}});
      uint64_t n = header_length(bytes);
      CAPTURE(len);
      CHECK(n % 8 == 0);
      CHECK(bytes.size() == 8 + n + 4 * (3 + 4));
      CHECK(bytes[8] == '{');
      std::string text(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(n));
      size_t close = text.find_last_of('}');
      CHECK(n - (close + 1) <= 7);  // at most 7 bytes of padding
      CHECK(text.find_first_not_of(' ', close + 1) == std::string::npos);
      auto j = nlohmann::json::parse(text);
      CHECK(j[name]["dtype"] == "F32");
      CHECK(j[name]["data_offsets"] == nlohmann::json({0, 12}));
      CHECK(j[name + "2"]["data_offsets"] == nlohmann::json({12, 28}));
      CHECK(j[name + "2"]["shape"] == nlohmann::json({2, 2}));
    }
  }

  TEST_CASE("the data section is little-endian float32") {
    auto bytes = write_safetensors({{"x", Tensor::from_vector({1.f, -2.f}, Shape{2})}});
    size_t start = 8 + static_cast<size_t>(header_length(bytes));
    std::vector<uint8_t> data(bytes.begin() + static_cast<long>(start), bytes.end());
    CHECK(data == std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0});
  }

  TEST_CASE("the writer refuses bad names, undefined tensors and invalid UTF-8") {
    Tensor t = Tensor::ones(Shape{1});
    CHECK_THROWS_WITH_AS(write_safetensors({{"a", t}, {"a", t}}), doctest::Contains("twice"), Error);
    CHECK_THROWS_WITH_AS(write_safetensors({{"", t}}), doctest::Contains("non-empty"), Error);
    CHECK_THROWS_WITH_AS(write_safetensors({{"__metadata__", t}}), doctest::Contains("reserved"), Error);
    CHECK_THROWS_WITH_AS(write_safetensors({{"u", Tensor()}}), doctest::Contains("undefined"), Error);
    CHECK_THROWS_WITH_AS(write_safetensors({{"a", t}}, {{"k", "\xff\xfe"}}), doctest::Contains("UTF-8"),
                         Error);
  }

  TEST_CASE("every truncation of a valid file is a clear error") {
    auto bytes = write_safetensors(sample_tensors(), {{"k", "v"}}, sample_integers());
    for (size_t len = 0; len < bytes.size(); ++len) {
      CAPTURE(len);
      std::vector<uint8_t> cut(bytes.begin(),
                               bytes.begin() + static_cast<long>(len));  // exact size: ASan sees overreads
      CHECK_THROWS_AS(read_safetensors(cut.data(), cut.size()), Error);
    }
    CHECK_NOTHROW(read_safetensors(bytes));
  }

  TEST_CASE("flipped bytes in the length or header give a clear error or a consistent file, never a crash") {
    auto bytes = write_safetensors(sample_tensors(), {{"k", "v"}}, sample_integers());
    size_t end = 8 + static_cast<size_t>(header_length(bytes));
    int refused = 0;
    for (size_t pos = 0; pos < end; ++pos) {
      for (uint8_t mask : {0x01, 0x04, 0x20, 0x80, 0xff}) {
        std::vector<uint8_t> bad = bytes;
        bad[pos] ^= mask;
        try {
          SafetensorsFile file = read_safetensors(bad);
          for (const auto& t : file.tensors) {
            int64_t numel = 1;
            for (int64_t d : t.shape) numel *= d;
            CHECK(static_cast<int64_t>(t.data.size()) == numel);
          }
          for (const auto& e : file.integers) {
            int64_t numel = 1;
            for (int64_t d : e.shape) numel *= d;
            CHECK(static_cast<int64_t>(e.data.size()) == numel);
          }
        } catch (const Error&) {
          ++refused;
        }
      }
    }
    CHECK(refused > static_cast<int>(end));  // most flips break the file, and each one was a tf::Error
  }

  TEST_CASE("each malformed header is refused with a message that says what is wrong") {
    auto entry = [](const std::string& fields) { return "{\"t\":{" + fields + "}}"; };
    const std::string ok_fields = "\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]";
    CHECK_NOTHROW(read_safetensors(make_file(entry(ok_fields), 8)));
    CHECK_NOTHROW(read_safetensors(make_file("{}", 0)));
    CHECK_NOTHROW(read_safetensors(make_file(entry(ok_fields) + "   \n ", 8)));

    struct Case {
      std::string header;
      size_t data;
      const char* message;
    };
    std::vector<Case> cases = {
        {"", 0, "not a JSON object"},
        {" {}", 0, "not a JSON object"},
        {"[1, 2]", 0, "not a JSON object"},
        {"{\"t\": ", 0, "not valid JSON"},
        {"{} x", 0, "not valid JSON"},
        {"{\"a\":\"\xff\"}", 0, "not valid JSON"},
        {"{\"t\":[]}", 0, "must be an object"},
        {entry("\"shape\":[2],\"data_offsets\":[0,8]"), 8, "has no 'dtype'"},
        {entry("\"dtype\":\"F32\",\"data_offsets\":[0,8]"), 8, "has no 'shape'"},
        {entry("\"dtype\":\"F32\",\"shape\":[2]"), 8, "has no 'data_offsets'"},
        {entry("\"dtype\":\"F33\",\"shape\":[2],\"data_offsets\":[0,8]"), 8, "unknown dtype 'F33'"},
        {entry("\"dtype\":\"I32\",\"shape\":[2],\"data_offsets\":[0,8]"), 8, "does not read"},
        {entry("\"dtype\":\"I64\",\"shape\":[2],\"data_offsets\":[0,8]"), 8, "(16 bytes)"},
        {entry("\"dtype\":7,\"shape\":[2],\"data_offsets\":[0,8]"), 8, "dtype must be a string"},
        {entry("\"dtype\":\"F32\",\"shape\":2,\"data_offsets\":[0,8]"), 8, "shape must be an array"},
        {entry("\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]"), 8, "non-negative integers"},
        {entry("\"dtype\":\"F32\",\"shape\":[2.0],\"data_offsets\":[0,8]"), 8, "non-negative integers"},
        {entry("\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0]"), 8, "[begin, end]"},
        {entry("\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,\"8\"]"), 8, "non-negative integers"},
        {entry("\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]"), 8, "(12 bytes)"},
        {entry("\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]"), 8, "end before they begin"},
        {entry("\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]"), 8, "outside the data section"},
        {entry("\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,4294967296],\"data_offsets\":[0,8]"), 8,
         "impossibly large"},
        {entry("\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]"), 12,
         "4 bytes after the last tensor"},
        {entry("\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]"), 12,
         "bytes 0..4 belong to no tensor"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
         "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
         12, "'a' and 'b' overlap"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
         "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
         8, "key 'a' twice"},
        {entry("\"dtype\":\"F32\",\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]"), 8,
         "key 'dtype' twice"},
        {"{\"__metadata__\":{\"k\":\"v\",\"k\":\"w\"}}", 0, "key 'k' twice"},
        {"{\"__metadata__\":{\"k\":1}}", 0, "value of 'k' is not a string"},
        {"{\"__metadata__\":{\"k\":{\"x\":\"y\"}}}", 0, "value of 'k' is not a string"},
        {"{\"__metadata__\":[\"k\"]}", 0, "must be an object of strings"},
        {entry("\"dtype\":\"F32\",\"shape\":[[[[2]]]],\"data_offsets\":[0,8]"), 8, "nests deeper"},
        {"{\"\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8, "non-empty name"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.header);
      CHECK_THROWS_WITH_AS(read_safetensors(make_file(c.header, c.data)), doctest::Contains(c.message),
                           Error);
    }
  }

  TEST_CASE("the header length is checked against the file and the limit") {
    std::vector<uint8_t> seven(7, 0);
    CHECK_THROWS_WITH_AS(read_safetensors(seven), doctest::Contains("too short"), Error);
    CHECK_THROWS_WITH_AS(read_safetensors(nullptr, 0), doctest::Contains("too short"), Error);
    auto bytes = make_file("{}", 0);
    bytes[0] = 3;  // claims 3 header bytes, only 2 follow
    CHECK_THROWS_WITH_AS(read_safetensors(bytes), doctest::Contains("larger than the rest of the file"),
                         Error);
    bytes[0] = 0;
    bytes[7] = 0x80;  // 2^63
    CHECK_THROWS_WITH_AS(read_safetensors(bytes), doctest::Contains("over the limit"), Error);
  }

  TEST_CASE("the data ranges may come in any header order as long as they tile the data") {
    std::string header =
        "{\"second\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]},"
        "\"zero\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]},"
        "\"first\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    auto bytes = make_file(header, 8);
    size_t data = bytes.size() - 8;
    bytes[data + 3] = 0x3f;      // first = 0x3f000000 = 0.5
    bytes[data + 4 + 3] = 0x40;  // second = 2.0
    SafetensorsFile file = read_safetensors(bytes);
    REQUIRE(file.tensors.size() == 3);
    CHECK(file.tensors[0].name == "second");
    CHECK(file.tensors[0].data == std::vector<float>{2.f});
    CHECK(file.tensors[1].data.empty());
    CHECK(file.tensors[2].data == std::vector<float>{0.5f});
  }

  TEST_CASE("F16, BF16 and F64 from an independent PyTorch writer convert to float32 as PyTorch does") {
    std::string base = std::string(TF_FIXTURE_DIR) + "/safetensors_torch";
    SafetensorsFile file = load_safetensors(base + ".safetensors");
    std::ifstream in(base + ".json");
    REQUIRE(in.good());
    nlohmann::json expected = nlohmann::json::parse(in);
    std::map<std::string, std::string> metadata = expected["metadata"];
    CHECK(file.metadata == metadata);
    REQUIRE(file.tensors.size() == expected["tensors"].size());
    for (size_t i = 0; i < file.tensors.size(); ++i) {
      const auto& want = expected["tensors"][i];
      const SafetensorsTensor& got = file.tensors[i];
      CAPTURE(got.name);
      CHECK(got.name == want["name"].get<std::string>());
      CHECK(got.dtype == want["dtype"].get<std::string>());
      CHECK(got.shape == want["shape"].get<std::vector<int64_t>>());
      CHECK(bits_of(got.data) == want["bits"].get<std::vector<uint32_t>>());
    }
  }
}

TEST_SUITE("safetensors") {
  TEST_CASE("the reader and the writer accept the same files: a huge zero-size shape reads in every dtype") {
    // 2^60 x 0 numbers: no dtype's byte count overflows, so it reads, writes as F32 and reads back; at
    // 2^62 + 1 an 8-byte element would overflow, so it is refused whatever the file's dtype (F16 was read,
    // then its F32 copy refused).
    for (const char* dtype : {"F16", "BF16", "F32", "F64", "I64"}) {
      CAPTURE(dtype);
      auto header = [&](const char* first) {
        return std::string("{\"t\":{\"dtype\":\"") + dtype + "\",\"shape\":[" + first +
               ",0],\"data_offsets\":[0,0]}}";
      };
      SafetensorsFile file = read_safetensors(make_file(header("1152921504606846976"), 0));
      std::vector<uint8_t> again =
          file.tensors.empty()
              ? write_safetensors({}, {}, file.integers)
              : write_safetensors({{"t", Tensor::from_vector({}, Shape(file.tensors[0].shape))}});
      SafetensorsFile back = read_safetensors(again);
      CHECK((back.tensors.empty() ? back.integers[0].shape : back.tensors[0].shape) ==
            std::vector<int64_t>{int64_t{1} << 60, 0});
      CHECK_THROWS_WITH_AS(read_safetensors(make_file(header("4611686018427387905"), 0)),
                           doctest::Contains("impossibly large"), Error);
    }
  }

  TEST_CASE("a write-read-write round trip gives the same bytes") {
    auto bytes = write_safetensors(sample_tensors(), {{"k", "v"}}, sample_integers());
    SafetensorsFile file = read_safetensors(bytes);
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const auto& t : file.tensors)
      tensors.emplace_back(t.name, Tensor::from_vector(t.data, Shape(t.shape)));
    CHECK(write_safetensors(tensors, file.metadata, file.integers) == bytes);
  }

  TEST_CASE("the writer refuses a header the reader would refuse: over 100 MB") {
    std::string big(kSafetensorsMaxHeader, 'a');
    CHECK_THROWS_WITH_AS(write_safetensors({{"x", Tensor::ones(Shape{1})}}, {{"k", big}}),
                         doctest::Contains("over the limit of 100000000"), Error);
  }

  TEST_CASE("an entry's fields are exactly dtype, shape and data_offsets, with at most 64 dimensions") {
    std::string shape65 = "[";
    for (int i = 0; i < 65; ++i) shape65 += i ? ",1" : "1";
    shape65 += "]";
    CHECK_THROWS_WITH_AS(
        read_safetensors(
            make_file("{\"t\":{\"dtype\":\"F32\",\"shape\":" + shape65 + ",\"data_offsets\":[0,4]}}", 4)),
        doctest::Contains("more than 64 dimensions"), Error);
    CHECK_THROWS_WITH_AS(read_safetensors(make_file(
                             "{\"t\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4],\"x\":[]}}", 4)),
                         doctest::Contains("has the field 'x'"), Error);
  }

  TEST_CASE("a header of many entries is read as it streams, a name too long for a message cut short") {
    // 200,000 entries (10 MB of header), the last a duplicate with a 1 MB name: refused as a whole, quickly,
    // with a message of readable length.
    std::string header = "{";
    for (int i = 0; i < 200000; ++i)
      header += "\"" + std::to_string(i) + "\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]},";
    std::string name(1 << 20, 'n');
    header += "\"" + name + "\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]},";
    header += "\"" + name + "\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}";
    auto start = std::chrono::steady_clock::now();
    try {
      read_safetensors(make_file(header, 0));
      FAIL("a name given twice was accepted");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("twice") != std::string::npos);
      CHECK(std::string(e.what()).size() < 200);
    }
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 5.0);
  }
}

#ifndef __EMSCRIPTEN__
TEST_SUITE("safetensors") {
  TEST_CASE("PyTorch's independent reader sees the names, shapes and exact values we wrote, I64 as int64") {
    ScratchDir dir("safetensors_torch_read");
    std::string path = (dir.path / "ours.safetensors").string();
    auto tensors = sample_tensors();
    auto integers = sample_integers();
    std::map<std::string, std::string> metadata = {{"tinyformer.config", "{\"kind\":\"transformer\"}"},
                                                   {"unicode", "\xe2\x9c\x93"}};
    save_safetensors(path, tensors, metadata, integers);
    std::optional<nlohmann::json> summary = test::torch_summary(path);
    if (!summary) return;
    const nlohmann::json& seen = *summary;
    CHECK(seen["header_length"].get<uint64_t>() % 8 == 0);
    CHECK(seen["metadata"].get<std::map<std::string, std::string>>() == metadata);
    REQUIRE(seen["tensors"].size() == integers.size() + tensors.size());
    for (size_t i = 0; i < integers.size(); ++i) {  // in header order: the integers, then the tensors
      const auto& e = seen["tensors"][i];
      CAPTURE(integers[i].name);
      CHECK(e["name"].get<std::string>() == integers[i].name);
      CHECK(e["dtype"].get<std::string>() == "I64");
      CHECK(e["torch_dtype"].get<std::string>() == "torch.int64");
      CHECK(e["shape"].get<std::vector<int64_t>>() == integers[i].shape);
      CHECK(e["values"].get<std::vector<int64_t>>() == integers[i].data);
    }
    for (size_t i = 0; i < tensors.size(); ++i) {
      const auto& t = seen["tensors"][integers.size() + i];
      CAPTURE(tensors[i].first);
      CHECK(t["name"].get<std::string>() == tensors[i].first);
      CHECK(t["torch_dtype"].get<std::string>() == "torch.float32");
      CHECK(t["shape"].get<std::vector<int64_t>>() == tensors[i].second.shape().dims());
      uint64_t checksum = 0;  // the script's fingerprint: sum of (i + 1) * bits(x_i) mod 2^64
      std::vector<uint32_t> bits = bits_of(tensors[i].second.to_vector());
      for (size_t k = 0; k < bits.size(); ++k) checksum += (k + 1) * uint64_t(bits[k]);
      CHECK(t["checksum"].get<uint64_t>() == checksum);
    }
  }
}
#endif

TEST_SUITE("safetensors files") {
  TEST_CASE("a file round trip through the disk leaves no temporary file behind") {
    ScratchDir dir("safetensors_files");
    std::string path = (dir.path / "model.safetensors").string();
    auto tensors = sample_tensors();
    save_safetensors(path, tensors, {{"k", "v"}});
    check_same_file(load_safetensors(path), tensors);
    CHECK(dir.entries() == std::vector<std::string>{"model.safetensors"});
    CHECK(read_file_bytes(path) == write_safetensors(tensors, {{"k", "v"}}));
  }

  TEST_CASE("reading a missing or corrupt file names the path") {
    ScratchDir dir("safetensors_bad_files");
    std::string missing = (dir.path / "missing.safetensors").string();
    CHECK_THROWS_WITH_AS(load_safetensors(missing), doctest::Contains(missing.c_str()), Error);
    std::string corrupt = (dir.path / "corrupt.safetensors").string();
    auto bytes = write_safetensors(sample_tensors());
    bytes.pop_back();
    write_file_atomically(corrupt, bytes);
    CHECK_THROWS_WITH_AS(load_safetensors(corrupt), doctest::Contains(corrupt.c_str()), Error);
  }

  TEST_CASE("an existing file is replaced only by a complete new one") {
    ScratchDir dir("safetensors_replace");
    std::string path = (dir.path / "model.safetensors").string();
    save_safetensors(path, {{"old", Tensor::ones(Shape{2})}});
    auto before = read_file_bytes(path);
    CHECK_THROWS_AS(
        save_safetensors(path, {{"dup", Tensor::ones(Shape{1})}, {"dup", Tensor::ones(Shape{1})}}), Error);
    CHECK(read_file_bytes(path) == before);
    save_safetensors(path, {{"new", Tensor::zeros(Shape{3})}});
    CHECK(load_safetensors(path).tensors[0].name == "new");
    CHECK(dir.entries() == std::vector<std::string>{"model.safetensors"});
  }

  TEST_CASE("a destination that cannot be written fails cleanly and leaves nothing behind") {
    ScratchDir dir("safetensors_unwritable");
    std::vector<uint8_t> bytes = write_safetensors({{"x", Tensor::ones(Shape{4})}});
    std::string in_missing_folder = (dir.path / "no_such_folder" / "m.safetensors").string();
    CHECK_THROWS_WITH_AS(write_file_atomically(in_missing_folder, bytes),
                         doctest::Contains(in_missing_folder.c_str()), Error);
    fs::create_directory(dir.path / "a_folder");
    CHECK_THROWS_WITH_AS(write_file_atomically((dir.path / "a_folder").string(), bytes),
                         doctest::Contains("cannot write"), Error);
    CHECK(fs::is_directory(dir.path / "a_folder"));
    CHECK(dir.entries() == std::vector<std::string>{"a_folder"});
  }

  TEST_CASE("a read-only folder is refused without a partial file") {
    ScratchDir dir("safetensors_read_only");
    fs::path folder = dir.path / "locked";
    fs::create_directory(folder);
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec, fs::perm_options::replace);
    std::string probe = (folder / "probe").string();
    if (std::ofstream(probe).good()) {  // root (and wasm's file system) ignore permission bits
      fs::remove(probe);
      MESSAGE("skipped: this process can write into a read-only folder (running as root?)");
      return;
    }
    std::string path = (folder / "m.safetensors").string();
    CHECK_THROWS_WITH_AS(save_safetensors(path, {{"x", Tensor::ones(Shape{2})}}),
                         doctest::Contains(path.c_str()), Error);
    CHECK(fs::is_empty(folder));
  }
}

#ifndef __EMSCRIPTEN__
TEST_SUITE("safetensors files") {
  TEST_CASE("a symbolic link or a device node is refused, not replaced by a regular file") {
    ScratchDir dir("safetensors_not_regular");
    std::vector<uint8_t> bytes = write_safetensors({{"x", Tensor::ones(Shape{4})}});
    std::string target = (dir.path / "target.safetensors").string();
    write_file_atomically(target, {1, 2, 3});
    fs::create_symlink(target, dir.path / "link.safetensors");
    std::string link = (dir.path / "link.safetensors").string();
    CHECK_THROWS_WITH_AS(write_file_atomically(link, bytes), doctest::Contains("symbolic link"), Error);
    CHECK(fs::is_symlink(link));
    CHECK(read_file_bytes(target) == std::vector<uint8_t>{1, 2, 3});
    CHECK_THROWS_WITH_AS(check_replaceable("/dev/null"), doctest::Contains("not a regular file"), Error);
    CHECK_NOTHROW(check_replaceable(target));
    CHECK_NOTHROW(check_replaceable((dir.path / "new.safetensors").string()));
    std::vector<std::string> names = dir.entries();
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"link.safetensors", "target.safetensors"});
  }

  TEST_CASE("a write that fails half-way keeps the old file and removes the temporary one") {
    ScratchDir dir("safetensors_half_write");
    std::string path = (dir.path / "model.safetensors").string();
    save_safetensors(path, {{"old", Tensor::ones(Shape{2})}});
    auto before = read_file_bytes(path);
    std::vector<uint8_t> big(1 << 16, 7);
    // A file-size limit makes the write stop part-way with EFBIG, as a full disk would.
    struct rlimit old_limit;
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
    auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = {4096, old_limit.rlim_max};
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    bool threw = false;
    try {
      write_file_atomically(path, big);
    } catch (const Error&) {
      threw = true;
    }
    setrlimit(RLIMIT_FSIZE, &old_limit);
    std::signal(SIGXFSZ, old_handler);
    CHECK(threw);
    CHECK(read_file_bytes(path) == before);
    CHECK(dir.entries() == std::vector<std::string>{"model.safetensors"});
  }
}
#endif
