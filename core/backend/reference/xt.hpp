// The one place the reference kernels meet xtensor: raw pointers seen as xtensor arrays without copies.
#pragma once
#include <cstddef>
#include <vector>

#include <xtensor/xadapt.hpp>

namespace tf::ref {

template <class T>
auto view2d(T* p, int64_t rows, int64_t cols) {
  std::vector<size_t> shape{static_cast<size_t>(rows), static_cast<size_t>(cols)};
  return xt::adapt(p, static_cast<size_t>(rows * cols), xt::no_ownership(), shape);
}

}  // namespace tf::ref
