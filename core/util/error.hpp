// Errors the library reports to its callers (CLI, Embind, tests): one exception type with a clear message.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace tf {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
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

}  // namespace tf

// Checks a condition that depends on the caller's input; throws tf::Error with the message otherwise.
#define TF_CHECK(cond, ...)               \
  do {                                    \
    if (!(cond)) ::tf::fail(__VA_ARGS__); \
  } while (0)
