// Integer GEMM against the definition (qgemm_test_util.hpp's reference: 64-bit
// sums, wrapped to int32): exact on every level the host runs and the naive
// family, for every type pair, layout and transpose, zero points per tensor
// and per column, beta 0 and 1, on edge shapes (0, 1, primes, non-multiples
// of every tile, padded leading dimensions) and past 2^16 of depth, where
// int32 wraps; and the requantized and float output stages from their
// formulas, bit for bit.
#include <algorithm>
#include <limits>

#include "support/test_support.hpp"
#include "tests/core/gemm_test_util.hpp"
#include "tests/core/qgemm_test_util.hpp"

namespace tessera {
namespace {

using test::qgemm::QOperands;
using test::qgemm::QShape;

// Shapes around every vector tile (mr up to 8, nr up to 64 columns),
// primes, 0, 1.
std::vector<QShape> edge_shapes(bool slow) {
  std::vector<QShape> shapes;
  test::Rng rng(20261204);
  const std::int64_t dims[] = {0, 1, 2, 3, 5, 6, 7, 8, 9, 13, 16, 17, 31, 33, 63, 64, 65, 97, 129};
  const std::int64_t depths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 64, 65, 127, 300};
  const IntType types[] = {IntType::kU8, IntType::kS8};
  const int count = slow ? 60 : 240;
  for (int i = 0; i < count; ++i) {
    QShape s;
    s.layout = rng.uniform_int(0, 1) ? Layout::kColMajor : Layout::kRowMajor;
    s.ta = rng.uniform_int(0, 1) ? Transpose::kYes : Transpose::kNo;
    s.tb = rng.uniform_int(0, 1) ? Transpose::kYes : Transpose::kNo;
    s.m = dims[rng.uniform_int(0, 18)];
    s.n = dims[rng.uniform_int(0, 18)];
    s.k = depths[rng.uniform_int(0, 13)];
    s.lda_pad = rng.uniform_int(0, 3) == 0 ? rng.uniform_int(1, 9) : 0;
    s.ldb_pad = rng.uniform_int(0, 3) == 0 ? rng.uniform_int(1, 9) : 0;
    s.ldc_pad = rng.uniform_int(0, 3) == 0 ? rng.uniform_int(1, 9) : 0;
    s.a_type = types[rng.uniform_int(0, 1)];
    s.b_type = types[rng.uniform_int(0, 1)];
    s.per_column = rng.uniform_int(0, 1) == 1;
    s.beta = static_cast<std::int32_t>(rng.uniform_int(0, 1));
    shapes.push_back(s);
  }
  return shapes;
}

std::vector<Context> levels_and_naive() { return test::contexts_under_test(); }

// s on `context` with operands of `seed`: the reference's int32 sums.
void check_int32(const Context& context, const QShape& s, std::uint64_t seed) {
  const QOperands o = test::qgemm::make_operands(s, seed);
  std::vector<std::int32_t> c;
  const Status st = test::qgemm::run_int32(context, s, o, &c);
  REQUIRE_MESSAGE(st.ok(), st.to_string(), " ", s.describe());
  CHECK_MESSAGE(c == test::qgemm::expected_int32(s, o), test::level_label(context), " ",
                s.describe());
}

TEST_CASE("gemm_integer: exact sums on edge shapes, every level, every type pair") {
  const bool slow = test::gemm::slow_target();
  for (const Context& context : levels_and_naive()) {
    int index = 0;
    for (const QShape& s : edge_shapes(slow)) check_int32(context, s, 100 + index++);
  }
}

// Shapes around the amx level's tiles: 32 x 64 tiles of 16-row halves over
// blocks of 64 depth bytes, the rest on vpdpbusd (rows past the whole
// halves, depth past the whole blocks, A's packed tail group). Every level
// runs them: on the others they are more non-multiples of the tile.
TEST_CASE("gemm_integer: shapes around 16-row halves and 64-byte depth blocks, every level") {
  const std::int64_t rows[] = {15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 97};
  const std::int64_t depths[] = {63, 64, 65, 66, 127, 128, 131, 192, 257};
  const std::int64_t cols[] = {64, 65, 31, 128};
  const IntType types[] = {IntType::kU8, IntType::kS8};
  for (const Context& context : levels_and_naive()) {
    int index = 0;
    for (std::int64_t m : rows) {
      for (std::int64_t k : depths) {
        QShape s;
        s.layout = index % 5 == 4 ? Layout::kColMajor : Layout::kRowMajor;
        s.ta = index % 3 == 2 ? Transpose::kYes : Transpose::kNo;
        s.tb = index % 2 == 1 ? Transpose::kYes : Transpose::kNo;
        s.m = m;
        s.n = cols[index % 4];
        s.k = k;
        s.lda_pad = index % 4 == 1 ? 3 : 0;
        s.ldc_pad = index % 7 == 3 ? 5 : 0;
        s.a_type = types[(index / 2) % 2];
        s.b_type = types[(index / 4) % 2];
        s.per_column = index % 3 == 1;
        s.beta = index % 2;
        check_int32(context, s, 4000 + index++);
      }
    }
  }
}

TEST_CASE("gemm_integer: extreme values, and depth past 2^16 wraps modulo 2^32 alike") {
  // All-extreme operands: every product is the largest (or most negative)
  // the types allow, so 16-bit intermediates would saturate and a depth of
  // 70001 overflows int32 several times over.
  struct Extreme {
    IntType a, b;
    std::uint8_t a_byte, b_byte;
    std::int32_t za, zb;
  };
  const Extreme cases[] = {
      {IntType::kU8, IntType::kS8, 255, 0x80, 0, 0},     // 255 x -128
      {IntType::kU8, IntType::kS8, 255, 0x7F, 0, -128},  // 255 x 255 after zb
      {IntType::kS8, IntType::kS8, 0x80, 0x80, 127, 127},
      {IntType::kU8, IntType::kU8, 255, 255, 0, 0},
      {IntType::kS8, IntType::kU8, 0x80, 0, 127, 255},
  };
  const std::int64_t depth = test::gemm::slow_target() ? 66000 : 70001;
  for (const Context& context : levels_and_naive()) {
    for (const Extreme& e : cases) {
      QShape s;
      s.m = 3, s.n = 19, s.k = depth;
      s.a_type = e.a, s.b_type = e.b;
      QOperands o = test::qgemm::make_operands(s, 7);
      std::fill(o.a.begin(), o.a.end(), e.a_byte);
      std::fill(o.b.begin(), o.b.end(), e.b_byte);
      o.za = e.za;
      o.zb = {e.zb};
      std::vector<std::int32_t> c;
      REQUIRE(test::qgemm::run_int32(context, s, o, &c).ok());
      const std::vector<std::int32_t> want = test::qgemm::expected_int32(s, o);
      CHECK_MESSAGE(c == want, test::level_label(context), " ", s.describe(), ": got ", c[0],
                    " want ", want[0]);
    }
  }
}

TEST_CASE("gemm_integer: large products, random operands, every level") {
  const bool slow = test::gemm::slow_target();
  const std::int64_t big = slow ? 97 : 301;
  const QShape shapes[] = {
      {Layout::kRowMajor, Transpose::kNo, Transpose::kNo, big, big + 4, 2 * big + 1},
      {Layout::kRowMajor, Transpose::kNo, Transpose::kYes, 1, 4 * big, 3 * big},  // a token's layer
      {Layout::kColMajor, Transpose::kYes, Transpose::kNo, big + 6, 37, big},
  };
  for (const Context& context : levels_and_naive()) {
    int index = 0;
    for (QShape s : shapes) {
      s.per_column = index % 2 == 0;
      const QOperands o = test::qgemm::make_operands(s, 900 + index++);
      std::vector<std::int32_t> c;
      REQUIRE(test::qgemm::run_int32(context, s, o, &c).ok());
      CHECK_MESSAGE(c == test::qgemm::expected_int32(s, o), test::level_label(context), " ",
                    s.describe());
    }
  }
}

TEST_CASE("qlinear_gemm: the requantized output is the formula's, bit for bit") {
  const bool slow = test::gemm::slow_target();
  for (const Context& context : levels_and_naive()) {
    int index = 0;
    for (QShape s : edge_shapes(slow)) {
      if (index++ % 3 != 0) continue;
      for (IntType y_type : {IntType::kU8, IntType::kS8}) {
        const QOperands o = test::qgemm::make_operands(s, 300 + index);
        const std::int32_t y_zp = y_type == IntType::kU8 ? 117 : -9;
        const float y_scale = 0.37f;
        std::vector<std::uint8_t> y(std::max<std::size_t>(1, s.c_len()), 0xA5);
        const Status st = try_qlinear_gemm(context, s.layout, s.m, s.n, s.k,
                                           test::qgemm::a_matrix(s, o), test::qgemm::a_quant(o),
                                           test::qgemm::b_matrix(s, o), test::qgemm::b_quant(s, o),
                                           y_type, QuantParams::per_tensor(y_zp, y_scale), y.data(),
                                           s.ldc());
        REQUIRE_MESSAGE(st.ok(), st.to_string());
        const std::vector<std::int32_t> sums = test::qgemm::reference_sums(s, o);
        std::vector<std::uint8_t> want(y.size(), 0xA5);
        for (std::int64_t i = 0; i < s.m; ++i) {
          for (std::int64_t j = 0; j < s.n; ++j) {
            const float b_scale = o.b_scales[s.per_column ? static_cast<std::size_t>(j) : 0];
            const float multiplier = o.a_scale * b_scale / y_scale;
            want[s.c_at(i, j)] = test::qgemm::requantize(
                sums[static_cast<std::size_t>(i * s.n + j)], multiplier, y_zp, y_type);
          }
        }
        CHECK_MESSAGE(y == want, test::level_label(context), " y ", int_type_name(y_type), " ",
                      s.describe());
      }
    }
  }
}

TEST_CASE("gemm_integer_to_f32: scale, bias and activation, the same bits as their definition") {
  const bool slow = test::gemm::slow_target();
  const Context scalar = test::context_for(Isa::kScalar);
  for (const Context& context : levels_and_naive()) {
    int index = 0;
    for (QShape s : edge_shapes(slow)) {
      if (index++ % 4 != 0) continue;
      const QOperands o = test::qgemm::make_operands(s, 600 + index);
      const std::vector<std::int32_t> sums = test::qgemm::reference_sums(s, o);
      std::vector<float> bias(static_cast<std::size_t>(std::max<std::int64_t>(s.m, s.n)));
      test::Rng rng(index);
      for (float& b : bias) b = rng.uniform_f32(-3.0f, 3.0f);
      for (Activation act : {Activation::kNone, Activation::kRelu, Activation::kGelu,
                             Activation::kSigmoid}) {
        const BiasKind kind = index % 3 == 0   ? BiasKind::kNone
                              : index % 3 == 1 ? BiasKind::kPerColumn
                                               : BiasKind::kPerRow;
        GemmEpilogue<float> ep;
        ep.bias = kind == BiasKind::kNone ? nullptr : bias.data();
        ep.bias_kind = kind;
        ep.activation = act;
        std::vector<float> y(std::max<std::size_t>(1, s.c_len()), 7.0f);
        const Status st = try_gemm_integer_to_f32(
            context, s.layout, s.m, s.n, s.k, test::qgemm::a_matrix(s, o), test::qgemm::a_quant(o),
            test::qgemm::b_matrix(s, o), test::qgemm::b_quant(s, o), y.data(), s.ldc(), ep);
        REQUIRE_MESSAGE(st.ok(), st.to_string());
        // Before the activation: float(s) * (a_scale * b_scale[j]) + bias.
        std::vector<float> x(static_cast<std::size_t>(s.m * s.n));
        for (std::int64_t i = 0; i < s.m; ++i) {
          for (std::int64_t j = 0; j < s.n; ++j) {
            const float b_scale = o.b_scales[s.per_column ? static_cast<std::size_t>(j) : 0];
            float v = static_cast<float>(sums[static_cast<std::size_t>(i * s.n + j)]) *
                      (o.a_scale * b_scale);
            if (kind == BiasKind::kPerColumn) v = v + bias[static_cast<std::size_t>(j)];
            if (kind == BiasKind::kPerRow) v = v + bias[static_cast<std::size_t>(i)];
            x[static_cast<std::size_t>(i * s.n + j)] = v;
          }
        }
        // The activations are the scalar level's elementwise ones (the
        // naive family's own, in long double, within their bounds).
        std::vector<float> want = x;
        const bool naive = context.family() == KernelFamily::kNaive;
        if (act != Activation::kNone && !want.empty()) {
          const UnaryOp op = act == Activation::kRelu   ? UnaryOp::kRelu
                             : act == Activation::kGelu ? UnaryOp::kGelu
                                                        : UnaryOp::kSigmoid;
          REQUIRE(try_unary(naive ? test::naive_context() : scalar, op, x, want).ok());
        }
        for (std::int64_t i = 0; i < s.m; ++i) {
          for (std::int64_t j = 0; j < s.n; ++j) {
            const float got = y[s.c_at(i, j)], expect = want[static_cast<std::size_t>(i * s.n + j)];
            REQUIRE_MESSAGE(test::same_bits_or_both_nan(got, expect), test::level_label(context),
                            " act ", activation_name(act), " ", s.describe(), " (", i, ",", j,
                            "): ", got, " want ", expect);
          }
        }
      }
    }
  }
}

TEST_CASE("prepacked integer B: the plain call's bits; packed for another level or shape is refused") {
  const bool slow = test::gemm::slow_target();
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    int index = 0;
    for (QShape s : edge_shapes(slow)) {
      if (index++ % 3 != 0) continue;
      const QOperands o = test::qgemm::make_operands(s, 800 + index);
      PackedIntRhs packed;
      REQUIRE(try_prepack_integer_rhs(context, s.layout, s.k, s.n, test::qgemm::b_matrix(s, o),
                                      &packed)
                  .ok());
      CHECK(packed.k() == s.k);
      CHECK(packed.n() == s.n);
      CHECK(packed.isa() == isa);
      std::vector<std::int32_t> c = o.c0;
      const Status st = try_gemm_integer(context, s.layout, s.m, s.n, s.k,
                                         test::qgemm::a_matrix(s, o), test::qgemm::a_quant(o),
                                         packed, test::qgemm::b_quant(s, o), s.beta, c.data(), s.ldc());
      REQUIRE_MESSAGE(st.ok(), st.to_string());
      CHECK_MESSAGE(c == test::qgemm::expected_int32(s, o), isa_name(isa), " ", s.describe());
      if (s.k > 0) {
        // Another depth: refused before anything is written.
        std::vector<std::int32_t> d = o.c0;
        const Status wrong = try_gemm_integer(context, s.layout, s.m, s.n, s.k - 1,
                                              test::qgemm::a_matrix(s, o), test::qgemm::a_quant(o),
                                              packed, test::qgemm::b_quant(s, o), 0, d.data(), s.ldc());
        CHECK(wrong.code() == StatusCode::kInvalidArgument);
        CHECK(test::contains(wrong.message(), "b was packed as"));
        CHECK(d == o.c0);
      }
    }
  }
  // A PackedIntRhs of one level on a context of another.
  const std::vector<Isa> isas = test::host_isas();
  if (isas.size() >= 2) {
    QShape s;
    s.m = 4, s.n = 9, s.k = 17;
    const QOperands o = test::qgemm::make_operands(s, 5);
    PackedIntRhs packed;
    REQUIRE(try_prepack_integer_rhs(test::context_for(isas.front()), s.layout, s.k, s.n,
                                    test::qgemm::b_matrix(s, o), &packed)
                .ok());
    std::vector<std::int32_t> c = o.c0;
    const Status st = try_gemm_integer(test::context_for(isas.back()), s.layout, s.m, s.n, s.k,
                                       test::qgemm::a_matrix(s, o), test::qgemm::a_quant(o), packed,
                                       test::qgemm::b_quant(s, o), 0, c.data(), s.ldc());
    CHECK(st.code() == StatusCode::kInvalidArgument);
    CHECK(test::contains(st.message(), std::string("b was packed for ") + isa_name(isas.front())));
    CHECK(c == o.c0);
  }
}

}  // namespace
}  // namespace tessera
