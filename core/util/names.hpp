// The names of an enum's values, one table per enum read both ways: a value's name for files and messages,
// and a name parsed back with an error that lists the names ("unknown task 'x' (expected toy, sort or
// stories)"). Tasks, model families and devices use it.
#pragma once
#include <cstddef>
#include <string>
#include <utility>

#include "util/error.hpp"

namespace tf {

template <class E, size_t N>
using NameTable = std::pair<E, const char*>[N];

template <class E, size_t N>
const char* name_in(const NameTable<E, N>& names, E value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  return "?";
}

// The value named `name`; a tf::Error naming `what` ("task") and the names otherwise.
template <class E, size_t N>
E value_in(const NameTable<E, N>& names, const std::string& name, const char* what) {
  std::string expected;
  for (size_t i = 0; i < N; ++i) {
    if (name == names[i].second) return names[i].first;
    expected += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i].second;
  }
  fail("unknown ", what, " '", name, "' (expected ", expected, ")");
}

}  // namespace tf
