// PyTorch reading a safetensors file we wrote, through the independent reader fixtures/safetensors_check.py
// (native only: it runs /usr/bin/python3). Empty when that python has no torch or numpy, so a test can say it
// skipped rather than fail on a machine without them.
#pragma once
#ifndef __EMSCRIPTEN__
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace tf::test {

// The script's summary of the file at `path` (see its "read" command), or nothing (and a note that the test
// skipped) without torch and numpy.
inline std::optional<nlohmann::json> torch_summary(const std::string& path) {
  const char* probe =
      "/usr/bin/python3 -c 'import importlib.util as u, sys; "
      "sys.exit(not (u.find_spec(\"torch\") and u.find_spec(\"numpy\")))' > /dev/null 2>&1";
  if (std::system(probe) != 0) {  // finds the modules without the seconds an import takes
    MESSAGE("skipped: /usr/bin/python3 with torch and numpy is not available");
    return std::nullopt;
  }
  // Beside the file, in the caller's own scratch folder: suites run side by side (ctest -j) each have theirs.
  std::string summary = path + ".summary.json";
  std::string command = "/usr/bin/python3 " + std::string(TF_FIXTURE_DIR) + "/safetensors_check.py read '" +
                        path + "' > '" + summary + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream in(summary);
  return nlohmann::json::parse(in);
}

// The summary's tensors by name, or nothing without torch and numpy.
inline std::optional<std::map<std::string, nlohmann::json>> torch_tensors(const std::string& path) {
  std::optional<nlohmann::json> summary = torch_summary(path);
  if (!summary) return std::nullopt;
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& t : (*summary)["tensors"]) by_name[t["name"].get<std::string>()] = t;
  return by_name;
}

}  // namespace tf::test
#endif
