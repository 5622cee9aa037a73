// Cross-target bits of the transcendental elementwise ops (exp log tanh
// sigmoid gelu). They are approximations whose last bits depend on FMA, so
// the pins hold on the levels without it, which run the same operations in
// the same order: scalar, SSE2 (native) and SIMD128 (wasm). One seeded
// problem per op and dtype, exactly `tessera-cli elementwise OP 1961
// --seed 44 --hash`. The values came from a native run (x86-64, SSE2); the
// point is that WASI and Emscripten (SIMD128 and scalar) reproduce them.
#include <doctest/doctest.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cli/elementwise_problem.hpp"
#include "support/test_support.hpp"

namespace tessera {
namespace {

template <class T>
std::uint64_t op_hash(const Context& c, UnaryOp op) {
  constexpr std::size_t kN = 1961;
  std::vector<T> x(kN), out(kN);
  cli::fill_transcendental_operand(x.data(), kN, 44, op == UnaryOp::kLog);
  const Status s = try_unary(c, op, x, out);
  REQUIRE_MESSAGE(s.ok(), s.to_string());
  return cli::fnv1a64(out.data(), out.size() * sizeof(T));
}

struct Pin {
  UnaryOp op;
  std::uint64_t f32, f64;
};
const Pin kPins[] = {
    {UnaryOp::kExp, 0x6c06b4dc6073c92cull, 0xa6655d101f316916ull},
    {UnaryOp::kLog, 0xcd063d2a05345100ull, 0x335fa76da254449dull},
    {UnaryOp::kTanh, 0x84290542f4caffd4ull, 0xc996d65c9cb9f50eull},
    {UnaryOp::kSigmoid, 0x87e0395149f1d235ull, 0xb44da89f03290ebeull},
    {UnaryOp::kGelu, 0x5ed48bdc55316fe3ull, 0x063278ce99245506ull},
};

TEST_CASE("the non-FMA levels of every target give the pinned transcendental bits") {
  int checked = 0;
  for (Isa isa : test::host_isas()) {
    if (isa != Isa::kScalar && isa != Isa::kSse2 && isa != Isa::kSimd128) continue;
    const Context c = test::context_for(isa);
    for (const Pin& pin : kPins) {
      const std::uint64_t f32 = op_hash<float>(c, pin.op), f64 = op_hash<double>(c, pin.op);
      char text[160];
      std::snprintf(text, sizeof text, "%s %s: f32 %016" PRIx64 ", f64 %016" PRIx64,
                    isa_name(isa), unary_op_name(pin.op), f32, f64);
      CHECK_MESSAGE(f32 == pin.f32, text);
      CHECK_MESSAGE(f64 == pin.f64, text);
    }
    ++checked;
  }
  CHECK(checked >= 1);  // every target has the scalar level
}

}  // namespace
}  // namespace tessera
