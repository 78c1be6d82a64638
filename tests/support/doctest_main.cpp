// The doctest runner shared by the C++ suites. It ends with exit() rather than a return from main: in the
// WebGPU browser build (Asyncify) main has unwound and been resumed after each GPU read, and only exit()
// still reports the result to the page.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) { std::exit(doctest::Context(argc, argv).run()); }
