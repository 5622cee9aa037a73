// Cross-target bits of the elementwise set. Every op here is one exactly
// rounded IEEE operation (or a sign / selection operation with its NaN and
// zero rules spelled out in the vector traits), so every ISA level of every
// target must produce the same bits. One build cannot run another, so the
// meeting point is a pinned hash (FNV-1a 64 over the outputs of a
// representative set of ops and operand forms on seeded inputs). The values
// below came from running this code natively (x86-64, every level); the
// point of the test is that WASI, Emscripten (SIMD128 and scalar) and
// aarch64 (NEON) reproduce them. A change of the inputs or of the set of
// ops changes the pins on every target at once; any other difference is a
// broken contract.
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
std::uint64_t combined_hash(const Context& c) {
  constexpr std::size_t kRows = 37, kCols = 53, kN = kRows * kCols;  // 1961, odd
  std::vector<T> a(kN), b(kN), out(kN), x(kN), row(kCols), col(kCols);
  cli::fill_elementwise_operands(a.data(), b.data(), kN, 42);
  cli::fill_elementwise_operands(row.data(), col.data(), kCols, 43);  // col: its first kRows
  std::uint64_t h = 0;
  auto fold = [&](const Status& s) {
    REQUIRE_MESSAGE(s.ok(), s.to_string());
    // Chain: each op's hash is mixed into the next, order fixed.
    h = cli::fnv1a64(out.data(), out.size() * sizeof(T)) ^ (h * 0x100000001b3ull);
  };
  for (int op = 0; op < kBinaryOpCount; ++op) {
    const auto bop = static_cast<BinaryOp>(op);
    fold(try_binary(c, bop, {1, kN}, {a}, {b}, out));
    fold(try_binary(c, bop, {kRows, kCols}, {a}, {row, Broadcast::kRow}, out));
    fold(try_binary(c, bop, {kRows, kCols},
                    {std::span<const T>(col).first(kRows), Broadcast::kColumn}, {b}, out));
    fold(try_binary(c, bop, {1, kN}, {a}, {std::span<const T>(&b[7], 1), Broadcast::kScalar},
                    out));
  }
  for (int op = 0; op < kUnaryOpCount; ++op) {
    const auto uop = static_cast<UnaryOp>(op);
    // The transcendentals differ on the FMA levels: pinned separately
    // (elementwise_transcendental_portable_bits_test.cc).
    if (!unary_op_is_exact(uop)) continue;
    cli::fill_unary_operand(x.data(), kN, 44, uop == UnaryOp::kSqrt);
    fold(try_unary(c, uop, x, out));
  }
  return h;
}

// {f32, f64}.
constexpr std::uint64_t kPins[2] = {0x50e82a7bef131aa0ull, 0x2ca2c512ae7b6448ull};

void check(const Context& c, const char* label) {
  const std::uint64_t f32 = combined_hash<float>(c), f64 = combined_hash<double>(c);
  char text[128];
  std::snprintf(text, sizeof text, "%s: f32 %016" PRIx64 ", f64 %016" PRIx64, label, f32, f64);
  CHECK_MESSAGE(f32 == kPins[0], text);
  CHECK_MESSAGE(f64 == kPins[1], text);
}

TEST_CASE("every level of every target gives the pinned elementwise bits") {
  check(test::naive_context(), "naive");
  for (Isa isa : test::host_isas()) check(test::context_for(isa), isa_name(isa));
}

}  // namespace
}  // namespace tessera
