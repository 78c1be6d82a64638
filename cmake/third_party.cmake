# xsimd, xtensor, xtl, doctest and nlohmann/json come from Debian's packages. The emscripten sysroot hides
# /usr/include, so for emcc the build tree gets a folder of links to exactly those headers and no others.
set(TF_SYSTEM_INCLUDE /usr/include CACHE PATH "Where Debian's header-only dependencies live")
set(TF_THIRD_PARTY_HEADERS xsimd xtensor xtl doctest nlohmann)
foreach(dir ${TF_THIRD_PARTY_HEADERS})
  if(NOT EXISTS ${TF_SYSTEM_INCLUDE}/${dir})
    message(FATAL_ERROR "missing ${TF_SYSTEM_INCLUDE}/${dir}: run scripts/setup.sh to install the packages")
  endif()
endforeach()

# Three interface targets, so each consumer gets only what it may use: tf_json (nlohmann/json, which the
# public headers use in their signatures), tf_simd (xsimd, xtensor and xtl, private to the core's kernels
# and to the tests that check them) and tf_doctest (the tests).
function(tf_header_target name)
  add_library(${name} INTERFACE)
  if(EMSCRIPTEN)
    set(link_dir ${CMAKE_BINARY_DIR}/third_party_include/${name})
    file(MAKE_DIRECTORY ${link_dir})
    foreach(dir ${ARGN})
      file(CREATE_LINK ${TF_SYSTEM_INCLUDE}/${dir} ${link_dir}/${dir} SYMBOLIC)
    endforeach()
    target_include_directories(${name} SYSTEM INTERFACE ${link_dir})
  else()
    target_include_directories(${name} SYSTEM INTERFACE ${TF_SYSTEM_INCLUDE})
  endif()
endfunction()
tf_header_target(tf_json nlohmann)
tf_header_target(tf_simd xsimd xtensor xtl)
tf_header_target(tf_doctest doctest)
