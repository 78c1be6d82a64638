#include "interp/figure.hpp"

#include "util/error.hpp"

namespace tf {

const Tensor& Figure::array(const std::string& name) const {
  for (const auto& [n, t] : arrays)
    if (n == name) return t;
  fail("the figure has no array '", name, "'");
}

}  // namespace tf
