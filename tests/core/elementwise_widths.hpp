// The reproducibility contract for unary elementwise ops: each op's output
// on executors of width 2, 3, 4, 7 and 8 (reverse-order participants) has
// the bits of width 1.
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/elementwise.hpp"
#include "tessera/tessera.hpp"

namespace tessera::test {

// A context at `isa` on a ReverseSerialExecutor of `width`.
inline Context reverse_serial_context(Isa isa, int width) {
  ContextOptions options;
  options.isa = isa;
  options.read_environment = false;
  options.executor = std::make_shared<ReverseSerialExecutor>(width);
  Context context;
  REQUIRE(Context::create(options, &context).ok());
  return context;
}

template <class T, class Ops>
void check_unary_widths(Isa isa, const Ops& ops, const std::vector<T>& x) {
  for (UnaryOp op : ops) {
    std::vector<T> first(x.size());
    REQUIRE(try_unary(reverse_serial_context(isa, 1), op, x, first).ok());
    for (int width : {2, 3, 4, 7, 8}) {
      std::vector<T> out(x.size());
      REQUIRE(try_unary(reverse_serial_context(isa, width), op, x, out).ok());
      CAPTURE(std::string(unary_op_name(op)));
      CAPTURE(width);
      CHECK(std::memcmp(first.data(), out.data(), out.size() * sizeof(T)) == 0);
    }
  }
}

}  // namespace tessera::test
