# Flags shared by every target. Floating-point contraction is off so that the same code rounds the same
# way natively and in wasm; the SIMD kernels ask for FMA explicitly where they want it.
add_compile_options(-Wall -Wextra -ffp-contract=off)
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  add_compile_options(-O3)
endif()

if(EMSCRIPTEN)
  # xsimd has no wasm architecture in 8.1: its SSE4.1 path, which emcc maps to wasm SIMD.
  add_compile_options(-msimd128 -msse4.1)
  # C++ exceptions must be catchable (tf::Error reaches JS as a message). JavaScript-based: Debian's
  # emcc 3.1.6 ships no pthreads runtime for native wasm exceptions (a throw there is never caught).
  add_compile_options(-fexceptions)
  add_link_options(-fexceptions)
  if(TF_WASM_THREADS)
    add_compile_options(-pthread)
    add_link_options(-pthread)
  else()
    add_compile_definitions(TF_SINGLE_THREADED)
  endif()
  # Node 20 runs emcc 3.1.6 test programs only without its experimental fetch.
  set(TF_NODE_EMULATOR node --no-experimental-fetch)
elseif(TF_NATIVE_ARCH)
  add_compile_options(-march=native)
endif()
