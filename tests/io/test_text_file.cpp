// Corpus files are read as every file is (io/file_bytes.hpp): a device or a folder is refused before
// reading, a file over the cap is refused, and a prefix read takes the first bytes with a cut character
// dropped.
#include <doctest/doctest.h>

#include <fstream>

#include "io/text_file.hpp"
#include "support/scratch_dir.hpp"
#include "util/error.hpp"

using namespace tf;

TEST_SUITE("text_file") {
  TEST_CASE("devices and folders are refused, and a file over the cap; a prefix is read up to its bytes") {
    test::ScratchDir dir("text_file");
    std::string path = (dir.path / "story.txt").string();
    std::ofstream(path) << "once upon a time caf\xc3\xa9";
    CHECK(read_text_file(path) == "once upon a time caf\xc3\xa9");
    CHECK(read_text_file(path, 21) == "once upon a time caf");  // the cut character dropped
    CHECK_THROWS_WITH_AS(read_text_file(path, -1, 10), doctest::Contains("over the limit of 10"), Error);
    CHECK_THROWS_WITH_AS(read_text_file(dir.path.string()), doctest::Contains("it is a directory"), Error);
#ifndef __EMSCRIPTEN__
    CHECK_THROWS_WITH_AS(read_text_file("/dev/zero"), doctest::Contains("it is a device, not a file"), Error);
    CHECK_THROWS_WITH_AS(read_text_file("/dev/urandom", 100), doctest::Contains("it is a device"), Error);
#endif
  }
}
