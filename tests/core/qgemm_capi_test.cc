// The integer GEMM's C API (tessera.h): every entry point against the test's
// reference (exact sums; QLinearMatMul's formula) on every level, packed and
// batched forms, DynamicQuantizeLinear, and errors naming the argument with
// nothing written.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "qgemm_test_util.hpp"
#include "tessera/tessera.h"

namespace {

using tessera::IntType;
using tessera::test::qgemm::QOperands;
using tessera::test::qgemm::QShape;

std::string last_error() { return tsr_last_error_message(); }

tsr_context* c_context(tessera::Isa isa) {
  tsr_context_options options = {tessera::isa_name(isa), 0, 1, nullptr, nullptr, 0};
  tsr_context* context = nullptr;
  REQUIRE(tsr_context_create(&options, &context) == TSR_OK);
  return context;
}

// Row-major m x n of the reference sums, as C would hold them (ldc n).
std::vector<int32_t> sums(const QShape& s, const QOperands& o) {
  return tessera::test::qgemm::reference_sums(s, o);
}

TEST_CASE("C integer gemm: u8s8, s8s8 and the general entry give the exact sums on every level") {
  for (tessera::Isa isa : tessera::test::host_isas()) {
    tsr_context* context = c_context(isa);
    for (const auto& [a_type, b_type] : {std::pair{IntType::kU8, IntType::kS8},
                                         std::pair{IntType::kS8, IntType::kS8},
                                         std::pair{IntType::kU8, IntType::kU8}}) {
      QShape s;
      s.m = 19, s.n = 37, s.k = 131, s.a_type = a_type, s.b_type = b_type, s.per_column = true;
      const QOperands o = tessera::test::qgemm::make_operands(s, 11);
      const std::vector<int32_t> want = sums(s, o);
      std::vector<int32_t> c(static_cast<std::size_t>(s.m * s.n), 99);
      const tsr_int_type at = a_type == IntType::kU8 ? TSR_U8 : TSR_S8;
      const tsr_int_type bt = b_type == IntType::kU8 ? TSR_U8 : TSR_S8;
      REQUIRE_MESSAGE(tsr_gemm_integer(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n,
                                       s.k, at, o.a.data(), s.k, o.za, bt, o.b.data(), s.n,
                                       o.zb.data(), s.n, 0, c.data(), s.n, TSR_THREADS_AUTO) == TSR_OK,
                      last_error());
      CHECK_MESSAGE(c == want, tessera::isa_name(isa), " ", s.describe());
      if (b_type == IntType::kS8) {
        const std::vector<int8_t> zb8(o.zb.begin(), o.zb.end());
        std::vector<int32_t> c2(c.size(), 7);
        const tsr_status st =
            a_type == IntType::kU8
                ? tsr_gemm_u8s8s32(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n, s.k,
                                   o.a.data(), s.k, static_cast<uint8_t>(o.za),
                                   reinterpret_cast<const int8_t*>(o.b.data()), s.n, zb8.data(), s.n,
                                   0, c2.data(), s.n, TSR_THREADS_SERIAL)
                : tsr_gemm_s8s8s32(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n, s.k,
                                   reinterpret_cast<const int8_t*>(o.a.data()), s.k,
                                   static_cast<int8_t>(o.za), reinterpret_cast<const int8_t*>(o.b.data()),
                                   s.n, zb8.data(), s.n, 0, c2.data(), s.n, 2);
        REQUIRE_MESSAGE(st == TSR_OK, last_error());
        CHECK(c2 == want);
        // beta 1 accumulates.
        REQUIRE(tsr_gemm_u8s8s32(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 1, 1, 1, o.a.data(), 1,
                                 0, reinterpret_cast<const int8_t*>(o.b.data()), 1, nullptr, 1, 1,
                                 c2.data(), 1, 0) == TSR_OK);
        CHECK(c2[0] == static_cast<int32_t>(static_cast<uint32_t>(want[0]) +
                                            static_cast<uint32_t>(o.a[0] * static_cast<int8_t>(o.b[0]))));
      }
    }
    tsr_context_destroy(context);
  }
}

TEST_CASE("C qlinear gemm and integer-to-f32 follow their formulas; packed and batched forms agree") {
  QShape s;
  s.m = 8, s.n = 24, s.k = 70, s.per_column = true;
  const QOperands o = tessera::test::qgemm::make_operands(s, 21);
  const std::vector<int32_t> raw = sums(s, o);
  const float y_scale = 0.75f;
  const int32_t y_zero = 120;
  std::vector<uint8_t> want_y(raw.size());
  std::vector<float> want_f(raw.size());
  for (std::size_t x = 0; x < raw.size(); ++x) {
    const std::size_t j = x % static_cast<std::size_t>(s.n);
    want_y[x] = tessera::test::qgemm::requantize(raw[x], o.a_scale * o.b_scales[j] / y_scale,
                                                 y_zero, IntType::kU8);
    want_f[x] = static_cast<float>(raw[x]) * (o.a_scale * o.b_scales[j]);
  }
  for (tessera::Isa isa : tessera::test::host_isas()) {
    tsr_context* context = c_context(isa);
    std::vector<uint8_t> y(raw.size());
    REQUIRE_MESSAGE(tsr_qlinear_gemm(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n, s.k,
                                     TSR_U8, o.a.data(), s.k, o.a_scale, o.za, TSR_S8, o.b.data(), s.n,
                                     o.b_scales.data(), o.zb.data(), s.n, TSR_U8, y_scale, y_zero,
                                     y.data(), s.n, 0) == TSR_OK,
                    last_error());
    CHECK(y == want_y);
    std::vector<float> f(raw.size());
    REQUIRE(tsr_gemm_integer_to_f32(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n, s.k,
                                    TSR_U8, o.a.data(), s.k, o.a_scale, o.za, TSR_S8, o.b.data(), s.n,
                                    o.b_scales.data(), o.zb.data(), s.n, nullptr, TSR_BIAS_NONE,
                                    TSR_ACT_NONE, f.data(), s.n, 0) == TSR_OK);
    CHECK(std::memcmp(f.data(), want_f.data(), f.size() * 4) == 0);

    // Packed B: the same results; three entries of A in one batch.
    tsr_packed_int_rhs* packed = nullptr;
    REQUIRE(tsr_prepack_integer_rhs(context, TSR_ROW_MAJOR, TSR_NO_TRANS, s.k, s.n, TSR_S8, o.b.data(),
                                    s.n, &packed) == TSR_OK);
    std::vector<int32_t> c(raw.size());
    REQUIRE(tsr_gemm_integer_packed(context, TSR_ROW_MAJOR, TSR_NO_TRANS, s.m, TSR_U8, o.a.data(), s.k,
                                    o.za, packed, o.zb.data(), s.n, 0, c.data(), s.n, 0) == TSR_OK);
    CHECK(c == raw);
    std::vector<uint8_t> yp(raw.size());
    REQUIRE(tsr_qlinear_gemm_packed(context, TSR_ROW_MAJOR, TSR_NO_TRANS, s.m, TSR_U8, o.a.data(), s.k,
                                    o.a_scale, o.za, packed, o.b_scales.data(), o.zb.data(), s.n,
                                    TSR_U8, y_scale, y_zero, yp.data(), s.n, 0) == TSR_OK);
    CHECK(yp == want_y);
    std::vector<float> fp(raw.size());
    REQUIRE(tsr_gemm_integer_to_f32_packed(context, TSR_ROW_MAJOR, TSR_NO_TRANS, s.m, TSR_U8, o.a.data(),
                                           s.k, o.a_scale, o.za, packed, o.b_scales.data(), o.zb.data(),
                                           s.n, nullptr, TSR_BIAS_NONE, TSR_ACT_NONE, fp.data(),
                                           s.n, 0) == TSR_OK);
    CHECK(std::memcmp(fp.data(), want_f.data(), fp.size() * 4) == 0);
    std::vector<uint8_t> a3(o.a.size() * 3);
    for (int e = 0; e < 3; ++e) std::memcpy(a3.data() + e * o.a.size(), o.a.data(), o.a.size());
    std::vector<int32_t> c3(raw.size() * 3);
    const auto stride_a = static_cast<int64_t>(o.a.size());
    const auto stride_c = static_cast<int64_t>(raw.size());
    REQUIRE(tsr_gemm_integer_packed_strided_batched(context, TSR_ROW_MAJOR, TSR_NO_TRANS, s.m, TSR_U8,
                                                    a3.data(), s.k, stride_a, o.za, packed, o.zb.data(),
                                                    s.n, 0, c3.data(), s.n, stride_c, 3, 0) == TSR_OK);
    std::vector<int32_t> c3s(c3.size());
    REQUIRE(tsr_gemm_integer_strided_batched(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m,
                                             s.n, s.k, TSR_U8, a3.data(), s.k, stride_a, o.za, TSR_S8,
                                             o.b.data(), s.n, 0, o.zb.data(), s.n, 0, c3s.data(), s.n,
                                             stride_c, 3, 2) == TSR_OK);
    const void* as[3] = {a3.data(), a3.data() + stride_a, a3.data() + 2 * stride_a};
    const void* bs[3] = {o.b.data(), o.b.data(), o.b.data()};
    std::vector<int32_t> c3p(c3.size());
    int32_t* cs[3] = {c3p.data(), c3p.data() + stride_c, c3p.data() + 2 * stride_c};
    REQUIRE(tsr_gemm_integer_batched(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n, s.k,
                                     TSR_U8, as, s.k, o.za, TSR_S8, bs, s.n, o.zb.data(), s.n, 0, cs,
                                     s.n, 3, -1) == TSR_OK);
    for (int e = 0; e < 3; ++e) {
      const std::vector<int32_t> entry(c3.begin() + e * stride_c, c3.begin() + (e + 1) * stride_c);
      CHECK(entry == raw);
    }
    CHECK(c3s == c3);
    CHECK(c3p == c3);
    tsr_packed_int_rhs_destroy(packed);
    tsr_context_destroy(context);
  }
}

TEST_CASE("C dynamic quantize linear and errors named before anything is written") {
  const float x[] = {-1.0f, 0.0f, 2.0f, 4.0f};
  uint8_t y[4] = {};
  float scale = 0;
  uint8_t zero = 0;
  REQUIRE(tsr_dynamic_quantize_linear_u8(nullptr, x, 4, y, &scale, &zero, 0) == TSR_OK);
  CHECK(scale == 5.0f / 255.0f);
  CHECK(zero == 51);
  CHECK(y[0] == 0);
  CHECK(y[3] == 255);

  const uint8_t a[4] = {1, 2, 3, 4};
  const int8_t b[4] = {1, -1, 2, -2};
  int32_t c[4] = {5, 5, 5, 5};
  const int32_t c0[4] = {5, 5, 5, 5};
  CHECK(tsr_gemm_integer(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2,
                         static_cast<tsr_int_type>(7), a, 2, 0, TSR_S8, b, 2, nullptr, 1, 0, c, 2,
                         0) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("a_type must be TSR_U8 or TSR_S8 (got 7)") != std::string::npos);
  CHECK(tsr_gemm_u8s8s32(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, a, 2, 0, b, 2,
                         nullptr, 3, 0, c, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK_MESSAGE(last_error().find("qb") != std::string::npos, last_error());
  CHECK(tsr_gemm_u8s8s32(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, -1, a, 2, 0, b, 2,
                         nullptr, 1, 0, c, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("k must be >= 0") != std::string::npos);
  CHECK(tsr_gemm_u8s8s32(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, a, 2, 0, b, 2,
                         nullptr, 1, 2, c, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("beta") != std::string::npos);
  CHECK(tsr_gemm_integer_strided_batched(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2,
                                         TSR_U8, a, 2, 0, 0, TSR_S8, b, 2, 0, nullptr, 1, 0, c, 2, 1,
                                         2, 0) == TSR_INVALID_ARGUMENT);
  CHECK_MESSAGE(last_error().find("c[0] overlaps c[1]") != std::string::npos, last_error());
  CHECK(tsr_gemm_integer_packed(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, TSR_U8, a, 2, 0, nullptr,
                                nullptr, 1, 0, c, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK_MESSAGE(last_error().find("empty PackedIntRhs") != std::string::npos, last_error());
  CHECK(std::memcmp(c, c0, sizeof c) == 0);
  const float bad[] = {1.0f, NAN};
  CHECK(tsr_dynamic_quantize_linear_u8(nullptr, bad, 2, y, &scale, &zero, 0) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("x[1]") != std::string::npos);
}

}  // namespace
