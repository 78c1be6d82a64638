// Shape of a tensor: up to four dimensions, row-major. A value type, cheap to copy.
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace tf {

constexpr int kMaxDims = 4;

class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims);
  explicit Shape(const std::vector<int64_t>& dims);

  int ndim() const { return nd_; }
  int64_t numel() const;
  // Negative indices count from the end, as in PyTorch: s[-1] is the last dimension.
  int64_t operator[](int i) const { return d_[static_cast<size_t>(axis(i))]; }
  int64_t& operator[](int i) { return d_[static_cast<size_t>(axis(i))]; }
  int axis(int i) const;  // normalises a possibly negative axis, throws when out of range
  // Product of all dimensions but the last: the number of rows when the tensor is seen as a matrix.
  int64_t rows() const { return nd_ == 0 ? 1 : numel() / d_[static_cast<size_t>(nd_ - 1)]; }
  int64_t cols() const { return nd_ == 0 ? 1 : d_[static_cast<size_t>(nd_ - 1)]; }
  std::vector<int64_t> dims() const { return {d_.begin(), d_.begin() + nd_}; }
  std::string str() const;

  bool operator==(const Shape& o) const;
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  int nd_ = 0;
  std::array<int64_t, kMaxDims> d_{};
};

}  // namespace tf
