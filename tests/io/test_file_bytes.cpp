// Whole files (core/io/file_bytes.hpp) beyond what tests/io/test_safetensors.cpp's file suite covers: a
// destination is checked before a run makes anything to save into it, and the temporary files of a writer
// that was killed mid-write are removed by the next one (native: it forks a process that ends).
#include <doctest/doctest.h>

#ifndef __EMSCRIPTEN__
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "io/file_bytes.hpp"
#include "support/scratch_dir.hpp"
#include "util/error.hpp"

using namespace tf;
using test::ScratchDir;

TEST_SUITE("file_bytes") {
  TEST_CASE("a destination is checked before anything is written; temporaries of killed writers go") {
    ScratchDir dir("file_bytes_writable");
    std::string missing = (dir.path / "no_such_folder" / "m.safetensors").string();
    CHECK_THROWS_WITH_AS(check_writable(missing), doctest::Contains("cannot write"), Error);
    std::string path = (dir.path / "m.safetensors").string();
    pid_t child = fork();
    if (child == 0) _exit(0);
    REQUIRE(child > 0);
    REQUIRE(waitpid(child, nullptr, 0) == child);  // a writer that is gone, as one killed mid-write
    std::string stale = "m.safetensors.tmp." + std::to_string(child) + ".0";
    std::ofstream(dir.path / stale) << "half";
    std::ofstream(dir.path / "m.safetensors.tmp.1.0") << "pid 1 is alive: its write may go on";
    check_writable(path);
    std::vector<std::string> left = dir.entries();
    CHECK(left == std::vector<std::string>{"m.safetensors.tmp.1.0"});
    std::ofstream(dir.path / stale) << "half";
    write_file_atomically(path, {1, 2, 3});
    left = dir.entries();
    std::sort(left.begin(), left.end());
    CHECK(left == std::vector<std::string>{"m.safetensors", "m.safetensors.tmp.1.0"});
  }
}
#endif
