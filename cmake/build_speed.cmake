# What makes every tree (native, wasm, CUDA, fuzz, bench) build fast:
# - ccache where it is installed (objects are shared between trees and clones); -DTF_CCACHE=OFF turns it off.
# - Unity builds of the core and the wasm bindings (tf_unity_build): 8 sources per compiler run, so the
#   standard library's and nlohmann/json's headers are parsed once per batch instead of once per file: the
#   threaded wasm module from scratch takes half the CPU time (README, "Build times"). Precompiled headers
#   on top saved little more and would need ccache's sloppiness set and the per-ISA sources kept apart, so
#   they are not used. A source with flags of its own (the per-ISA kernel tables) is compiled alone.
#   -DTF_UNITY_BUILD=OFF turns batches off.
option(TF_CCACHE "Compile through ccache where it is installed" ON)
find_program(TF_CCACHE_PROGRAM ccache)
if(TF_CCACHE AND TF_CCACHE_PROGRAM)
  if(NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${TF_CCACHE_PROGRAM})
  endif()
  if(NOT CMAKE_CUDA_COMPILER_LAUNCHER)
    set(CMAKE_CUDA_COMPILER_LAUNCHER ${TF_CCACHE_PROGRAM})
  endif()
endif()

option(TF_UNITY_BUILD "Compile the core and the wasm bindings in batches of 8 sources" ON)
function(tf_unity_build target)
  if(TF_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
