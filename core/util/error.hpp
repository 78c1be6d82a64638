// Errors the library reports to its callers (CLI, Embind, tests): one exception type with a clear message,
// printable as it is (control characters quoted from a file are escaped: util/printable.hpp).
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

#include "util/printable.hpp"

namespace tf {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(printable(message, false)) {}
};

namespace detail {
inline void append(std::ostringstream&) {}
template <class T, class... Rest>
void append(std::ostringstream& os, const T& first, const Rest&... rest) {
  os << first;
  append(os, rest...);
}
}  // namespace detail

// Builds a message from pieces: fail("shape ", s, " is not ", t).
template <class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  std::ostringstream os;
  detail::append(os, parts...);
  throw Error(os.str());
}

// Text from a file quoted in a message: a name can be megabytes long, so at most 60 bytes of it, cut
// before a character that would not fit whole.
inline std::string excerpt(const std::string& text) {
  if (text.size() <= 60) return text;
  size_t n = 57;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xc0) == 0x80) --n;
  return text.substr(0, n) + "...";
}

}  // namespace tf

// Checks a condition that depends on the caller's input; throws tf::Error with the message otherwise.
#define TF_CHECK(cond, ...)               \
  do {                                    \
    if (!(cond)) ::tf::fail(__VA_ARGS__); \
  } while (0)
