# Flags of the fuzzing build (TF_FUZZ=ON): every object, the core library included, carries libFuzzer's
# coverage hooks and AddressSanitizer + UndefinedBehaviorSanitizer; any UB report aborts so that libFuzzer
# records it as a crash. Only the fuzz targets link libFuzzer itself (fuzz/CMakeLists.txt).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "TF_FUZZ needs clang (e.g. -DCMAKE_CXX_COMPILER=clang++-14), not ${CMAKE_CXX_COMPILER_ID}")
endif()
# -O1 with line tables: quick to compile on CI's two cores, fast enough to fuzz, stacks with file:line.
add_compile_options(-O1 -gline-tables-only -fsanitize=fuzzer-no-link,address,undefined
  -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
# Only the library, the CLI's parser library and the fuzz targets: tests and benchmarks have their own builds.
set(TF_BUILD_TESTS OFF)
set(TF_BUILD_BENCH OFF)
