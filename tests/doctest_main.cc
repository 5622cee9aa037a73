// The test runner's main. Exits non-zero when any assertion failed (doctest
// under DOCTEST_CONFIG_NO_EXCEPTIONS_BUT_WITH_ALL_ASSERTS keeps going after a
// failed REQUIRE but still counts it).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  return context.run();
}
