// The batched GEMM C API: each form equals single tsr_sgemm / tsr_dgemm (or
// tsr_*gemm_packed) called per entry, bit for bit, on every level; bad input
// returns TSR_INVALID_ARGUMENT with a message naming the argument and leaves
// C untouched.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/tessera.h"
#include "tessera/tessera.hpp"

namespace {

template <class T>
bool same(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

// Row-major, op(A) = A^T (A stored k x m), B k x n; entry i of each operand
// at offset i * stride, with gaps between entries.
template <class T>
void check_level(tsr_context* context) {
  const int m = 19, n = 23, k = 41, batch = 7;
  const int sa = m * k + 5, sb = k * n + 1, sc = m * n + 2;
  const auto af = tessera::test::random_f32(sa * batch, 3);
  const auto bf = tessera::test::random_f32(sb * batch, 4);
  const auto cf = tessera::test::random_f32(sc * batch, 5);
  const std::vector<T> a(af.begin(), af.end()), b(bf.begin(), bf.end()), c0(cf.begin(), cf.end());
  constexpr bool f32 = sizeof(T) == 4;
  auto single = [&](const T* ai, const T* bi, T* ci) {
    if constexpr (f32) {
      return tsr_sgemm(context, TSR_ROW_MAJOR, TSR_TRANS, TSR_NO_TRANS, m, n, k, 0.5f, ai, m, bi,
                       n, -2.0f, ci, n, -1);
    } else {
      return tsr_dgemm(context, TSR_ROW_MAJOR, TSR_TRANS, TSR_NO_TRANS, m, n, k, 0.5, ai, m, bi,
                       n, -2.0, ci, n, -1);
    }
  };
  std::vector<T> expected = c0;
  for (int i = 0; i < batch; ++i) {
    REQUIRE(single(a.data() + i * sa, b.data() + i * sb, expected.data() + i * sc) == TSR_OK);
  }
  std::vector<T> c = c0;
  tsr_status st;
  if constexpr (f32) {
    st = tsr_sgemm_strided_batched(context, TSR_ROW_MAJOR, TSR_TRANS, TSR_NO_TRANS, m, n, k, 0.5f,
                                   a.data(), m, sa, b.data(), n, sb, -2.0f, c.data(), n, sc,
                                   batch, 0);
  } else {
    st = tsr_dgemm_strided_batched(context, TSR_ROW_MAJOR, TSR_TRANS, TSR_NO_TRANS, m, n, k, 0.5,
                                   a.data(), m, sa, b.data(), n, sb, -2.0, c.data(), n, sc,
                                   batch, 0);
  }
  REQUIRE_MESSAGE(st == TSR_OK, tsr_last_error_message());
  CHECK(same(expected, c));

  std::vector<const T*> pa, pb;
  std::vector<T*> pc;
  c = c0;
  for (int i = 0; i < batch; ++i) {
    pa.push_back(a.data() + i * sa);
    pb.push_back(b.data() + i * sb);
    pc.push_back(c.data() + i * sc);
  }
  if constexpr (f32) {
    st = tsr_sgemm_batched(context, TSR_ROW_MAJOR, TSR_TRANS, TSR_NO_TRANS, m, n, k, 0.5f,
                           pa.data(), m, pb.data(), n, -2.0f, pc.data(), n, batch, 3);
  } else {
    st = tsr_dgemm_batched(context, TSR_ROW_MAJOR, TSR_TRANS, TSR_NO_TRANS, m, n, k, 0.5,
                           pa.data(), m, pb.data(), n, -2.0, pc.data(), n, batch, 3);
  }
  REQUIRE_MESSAGE(st == TSR_OK, tsr_last_error_message());
  CHECK(same(expected, c));

  // Prepacked B shared by the batch (B entry 0): the per-entry reference
  // is the unpacked single call with B entry 0.
  tsr_packed_rhs* packed = nullptr;
  if constexpr (f32) {
    REQUIRE(tsr_sgemm_prepack_rhs(context, TSR_ROW_MAJOR, TSR_NO_TRANS, k, n, b.data(), n,
                                  &packed) == TSR_OK);
  } else {
    REQUIRE(tsr_dgemm_prepack_rhs(context, TSR_ROW_MAJOR, TSR_NO_TRANS, k, n, b.data(), n,
                                  &packed) == TSR_OK);
  }
  expected = c0;
  for (int i = 0; i < batch; ++i) {
    REQUIRE(single(a.data() + i * sa, b.data(), expected.data() + i * sc) == TSR_OK);
  }
  c = c0;
  if constexpr (f32) {
    st = tsr_sgemm_packed_strided_batched(context, TSR_ROW_MAJOR, TSR_TRANS, m, 0.5f, a.data(), m,
                                          sa, packed, -2.0f, c.data(), n, sc, batch, 0);
  } else {
    st = tsr_dgemm_packed_strided_batched(context, TSR_ROW_MAJOR, TSR_TRANS, m, 0.5, a.data(), m,
                                          sa, packed, -2.0, c.data(), n, sc, batch, 0);
  }
  tsr_packed_rhs_destroy(packed);
  REQUIRE_MESSAGE(st == TSR_OK, tsr_last_error_message());
  CHECK(same(expected, c));
}

TEST_CASE("C batched gemm equals single tsr_*gemm per entry on every level") {
  for (tessera::Isa isa : tessera::supported_isas()) {
    tsr_context_options options = {tessera::isa_name(isa), 0, 1, nullptr, nullptr, 0};
    tsr_context* context = nullptr;
    REQUIRE(tsr_context_create(&options, &context) == TSR_OK);
    check_level<float>(context);
    check_level<double>(context);
    tsr_context_destroy(context);
  }
}

TEST_CASE("C batched gemm: bad input names the argument and writes nothing") {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 1, 1, 1, 1, 1};
  float c[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  const float* pa[2] = {a, nullptr};
  const float* pb[2] = {b, b};
  float* pc[2] = {c, c + 4};
  const std::vector<float> before(c, c + 8);
  CHECK(tsr_sgemm_strided_batched(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 1,
                                  1, a, 1, 2, b, 2, 2, 0, c, 2, 4, -1, 0) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("batch") != std::string::npos);
  CHECK(tsr_sgemm_strided_batched(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 1,
                                  1, a, 1, 2, b, 2, 2, 0, c, 2, 3, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("stride_c") != std::string::npos);
  CHECK(tsr_sgemm_batched(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 1, 1, pa, 1,
                          pb, 2, 0, pc, 2, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("a[1] is null") != std::string::npos);
  CHECK(tsr_sgemm_batched(nullptr, static_cast<tsr_layout>(7), TSR_NO_TRANS, TSR_NO_TRANS, 2, 2,
                          1, 1, pa, 1, pb, 2, 0, pc, 2, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("layout") != std::string::npos);
  CHECK(tsr_sgemm_packed_strided_batched(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 1, a, 1, 2,
                                         nullptr, 0, c, 2, 4, 2, 0) == TSR_INVALID_ARGUMENT);
  CHECK(std::string(tsr_last_error_message()).find("b is null") != std::string::npos);
  CHECK(std::vector<float>(c, c + 8) == before);
}

}  // namespace
