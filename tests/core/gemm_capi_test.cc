// The GEMM C API: results equal the C++ API's bit for bit on every level,
// prepacked operands, and errors with messages naming the argument.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/tessera.h"
#include "tessera/tessera.hpp"

namespace {

std::string last_error() { return tsr_last_error_message(); }

TEST_CASE("C sgemm/dgemm equal the C++ calls bit for bit on every level") {
  const int m = 37, n = 29, k = 301;
  const auto a = tessera::test::random_f32(m * k, 1);
  const auto b = tessera::test::random_f32(k * n, 2);
  const std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
  for (tessera::Isa isa : tessera::supported_isas()) {
    tsr_context_options options = {tessera::isa_name(isa), 0, 1, nullptr, nullptr, 0};
    tsr_context* context = nullptr;
    REQUIRE(tsr_context_create(&options, &context) == TSR_OK);
    const tessera::Context cpp = tessera::test::context_for(isa);
    for (int layout = 0; layout < 2; ++layout) {
      const auto l = layout ? TSR_COL_MAJOR : TSR_ROW_MAJOR;
      const auto cl = layout ? tessera::Layout::kColMajor : tessera::Layout::kRowMajor;
      // Row-major: A m x k (lda k), B k x n (ldb n); column-major with
      // trans_a: A stored k x m (lda k), B stored n x k with trans_b (ldb n).
      const auto ta = layout ? TSR_TRANS : TSR_NO_TRANS;
      const auto tb = layout ? TSR_TRANS : TSR_NO_TRANS;
      const auto cta = layout ? tessera::Transpose::kYes : tessera::Transpose::kNo;
      const int ldc = layout ? m : n;
      std::vector<float> c(m * n, 0.5f), expected(m * n, 0.5f);
      REQUIRE(tsr_sgemm(context, l, ta, tb, m, n, k, 1.5f, a.data(), k, b.data(), n, -1.0f,
                        c.data(), ldc, 0) == TSR_OK);
      REQUIRE(tessera::try_gemm(cpp, cl, cta, cta, m, n, k, 1.5f, a.data(), k, b.data(), n,
                                -1.0f, expected.data(), ldc)
                  .ok());
      CHECK(std::memcmp(c.data(), expected.data(), c.size() * 4) == 0);
      std::vector<double> cd(m * n, 0.5), expected_d(m * n, 0.5);
      REQUIRE(tsr_dgemm(context, l, ta, tb, m, n, k, 1.5, ad.data(), k, bd.data(), n, 0.0,
                        cd.data(), ldc, -1) == TSR_OK);
      REQUIRE(tessera::try_gemm(cpp, cl, cta, cta, m, n, k, 1.5, ad.data(), k, bd.data(), n,
                                0.0, expected_d.data(), ldc)
                  .ok());
      CHECK(std::memcmp(cd.data(), expected_d.data(), cd.size() * 8) == 0);
      // Prepacked.
      tsr_packed_rhs* packed = nullptr;
      REQUIRE(tsr_sgemm_prepack_rhs(context, l, tb, k, n, b.data(), n, &packed) == TSR_OK);
      std::vector<float> cp(m * n, 0.5f);
      REQUIRE(tsr_sgemm_packed(context, l, ta, m, 1.5f, a.data(), k, packed, -1.0f, cp.data(),
                               ldc, 2) == TSR_OK);
      CHECK(std::memcmp(cp.data(), expected.data(), cp.size() * 4) == 0);
      tsr_packed_rhs_destroy(packed);
      tsr_packed_rhs* packed_d = nullptr;
      REQUIRE(tsr_dgemm_prepack_rhs(context, l, tb, k, n, bd.data(), n, &packed_d) == TSR_OK);
      std::vector<double> cpd(m * n, 0.5);
      REQUIRE(tsr_dgemm_packed(context, l, ta, m, 1.5, ad.data(), k, packed_d, 0.0, cpd.data(),
                               ldc, 0) == TSR_OK);
      CHECK(std::memcmp(cpd.data(), expected_d.data(), cpd.size() * 8) == 0);
      tsr_packed_rhs_destroy(packed_d);
    }
    tsr_context_destroy(context);
  }
}

TEST_CASE("C gemm errors name the argument and write nothing") {
  float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4}, c[4] = {9, 9, 9, 9};
  CHECK(tsr_sgemm(nullptr, static_cast<tsr_layout>(7), TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1, a,
                  2, b, 2, 0, c, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("layout") != std::string::npos);
  CHECK(tsr_sgemm(nullptr, TSR_ROW_MAJOR, static_cast<tsr_transpose>(256), TSR_NO_TRANS, 2, 2, 2,
                  1, a, 2, b, 2, 0, c, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("trans_a") != std::string::npos);
  CHECK(tsr_sgemm(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, -2, 2, 1, a, 2, b, 2, 0,
                  c, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("n must be >= 0") != std::string::npos);
  CHECK(tsr_sgemm(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1, a, 2, nullptr,
                  2, 0, c, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("b is null") != std::string::npos);
  CHECK(tsr_sgemm(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1, a, 2, b, 2, 0,
                  c, 2, -4) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("parallelism") != std::string::npos);
  CHECK(tsr_sgemm(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1, a, 2, b, 2, 0,
                  a + 1, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("c overlaps a") != std::string::npos);
  for (float x : c) CHECK(x == 9.0f);
  CHECK(tsr_sgemm(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1, a, 2, b, 2, 0,
                  c, 2, 0) == TSR_OK);
  CHECK(last_error().empty());
  CHECK(c[0] == 7.0f);

  tsr_packed_rhs* packed = nullptr;
  CHECK(tsr_sgemm_prepack_rhs(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 2, b, 2, nullptr) ==
        TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("out is null") != std::string::npos);
  CHECK(tsr_sgemm_packed(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 1, a, 2, nullptr, 0, c, 2, 0) ==
        TSR_INVALID_ARGUMENT);
  CHECK(last_error().find("b is null") != std::string::npos);
  // Packed under one level, used under another: an explicit error. The
  // other level is any the host supports but the default context's (which
  // TESSERA_ISA may have set to the lowest).
  const char* default_isa = nullptr;
  REQUIRE(tsr_context_isa(nullptr, &default_isa) == TSR_OK);
  const char* other_isa = nullptr;
  for (tessera::Isa isa : tessera::supported_isas()) {
    if (std::string(tessera::isa_name(isa)) != default_isa) other_isa = tessera::isa_name(isa);
  }
  if (other_isa != nullptr) {
    tsr_context_options low_options = {other_isa, 0, 1, nullptr, nullptr, 0};
    tsr_context* low = nullptr;
    REQUIRE(tsr_context_create(&low_options, &low) == TSR_OK);
    REQUIRE(tsr_sgemm_prepack_rhs(low, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 2, b, 2, &packed) == TSR_OK);
    CHECK(tsr_sgemm_packed(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 1, a, 2, packed, 0, c, 2, 0) ==
          TSR_INVALID_ARGUMENT);
    CHECK(last_error().find("packed for ISA level") != std::string::npos);
    CHECK(tsr_sgemm_packed(low, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 1, a, 2, packed, 0, c, 2, 0) == TSR_OK);
    tsr_packed_rhs_destroy(packed);
    tsr_context_destroy(low);
  }
  tsr_packed_rhs_destroy(nullptr);
}

}  // namespace
