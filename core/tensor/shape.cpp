#include "tensor/shape.hpp"

#include "util/error.hpp"

namespace tf {

Shape::Shape(std::initializer_list<int64_t> dims) : Shape(std::vector<int64_t>(dims)) {}

Shape::Shape(const std::vector<int64_t>& dims) {
  TF_CHECK(dims.size() <= static_cast<size_t>(kMaxDims), "tensors have at most ", kMaxDims,
           " dimensions, got ", dims.size());
  nd_ = static_cast<int>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    TF_CHECK(dims[i] >= 0, "negative dimension ", dims[i]);
    d_[i] = dims[i];
  }
}

int64_t Shape::numel() const {
  int64_t n = 1;
  for (int i = 0; i < nd_; ++i) n *= d_[static_cast<size_t>(i)];
  return n;
}

int Shape::axis(int i) const {
  int a = i < 0 ? i + nd_ : i;
  TF_CHECK(a >= 0 && a < nd_, "axis ", i, " is out of range for shape ", str());
  return a;
}

std::string Shape::str() const {
  std::string s = "(";
  for (int i = 0; i < nd_; ++i) {
    if (i) s += ", ";
    s += std::to_string(d_[static_cast<size_t>(i)]);
  }
  return s + ")";
}

bool Shape::operator==(const Shape& o) const {
  if (nd_ != o.nd_) return false;
  for (int i = 0; i < nd_; ++i)
    if (d_[static_cast<size_t>(i)] != o.d_[static_cast<size_t>(i)]) return false;
  return true;
}

}  // namespace tf
