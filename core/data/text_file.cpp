#include "data/text_file.hpp"

#include <fstream>
#include <iterator>

#include "data/utf8.hpp"
#include "util/error.hpp"

namespace tf {

std::string read_text_file(const std::string& path, int64_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  TF_CHECK(in.good(), "cannot open the text file ", path);
  std::string bytes;
  if (max_bytes < 0) {
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } else {
    bytes.resize(static_cast<size_t>(max_bytes));
    in.read(&bytes[0], max_bytes);
    bytes.resize(static_cast<size_t>(in.gcount()));
  }
  TF_CHECK(!in.bad(), "error while reading the text file ", path);
  return utf8_drop_invalid(bytes);
}

}  // namespace tf
