// Helpers of the integer GEMM suites: seeded 8-bit operands and zero
// points, and an independent reference written from the definition (64-bit
// sums of (A - za)(B - zb), wrapped to int32 at the end; the output stages
// from their formulas), not from tessera's code.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/tessera.hpp"

namespace tessera::test::qgemm {

struct QShape {
  Layout layout = Layout::kRowMajor;
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t lda_pad = 0, ldb_pad = 0, ldc_pad = 0;
  IntType a_type = IntType::kU8, b_type = IntType::kS8;
  bool per_column = false;
  std::int32_t beta = 0;

  bool row() const { return layout == Layout::kRowMajor; }
  // Stored extents and leading dimensions of A (op(A) m x k), B (k x n), C.
  std::int64_t a_rows() const { return ta == Transpose::kNo ? m : k; }
  std::int64_t a_cols() const { return ta == Transpose::kNo ? k : m; }
  std::int64_t b_rows() const { return tb == Transpose::kNo ? k : n; }
  std::int64_t b_cols() const { return tb == Transpose::kNo ? n : k; }
  std::int64_t lda() const { return std::max<std::int64_t>(1, row() ? a_cols() : a_rows()) + lda_pad; }
  std::int64_t ldb() const { return std::max<std::int64_t>(1, row() ? b_cols() : b_rows()) + ldb_pad; }
  std::int64_t ldc() const { return std::max<std::int64_t>(1, row() ? n : m) + ldc_pad; }
  std::size_t a_len() const { return static_cast<std::size_t>((row() ? a_rows() : a_cols()) * lda()); }
  std::size_t b_len() const { return static_cast<std::size_t>((row() ? b_rows() : b_cols()) * ldb()); }
  std::size_t c_len() const { return static_cast<std::size_t>((row() ? m : n) * ldc()); }
  std::size_t c_at(std::int64_t i, std::int64_t j) const {
    return static_cast<std::size_t>(row() ? i * ldc() + j : i + j * ldc());
  }
  std::string describe() const {
    return std::string(row() ? "row" : "col") + " " + (ta == Transpose::kYes ? "T" : "N") +
           (tb == Transpose::kYes ? "T" : "N") + " m=" + std::to_string(m) +
           " n=" + std::to_string(n) + " k=" + std::to_string(k) + " " + int_type_name(a_type) +
           int_type_name(b_type) + (per_column ? " zb/col" : " zb") + " pads " +
           std::to_string(lda_pad) + "," + std::to_string(ldb_pad) + "," +
           std::to_string(ldc_pad) + " beta " + std::to_string(beta);
  }
};

inline std::int32_t type_min(IntType t) { return t == IntType::kS8 ? -128 : 0; }
inline std::int32_t type_max(IntType t) { return t == IntType::kS8 ? 127 : 255; }

struct QOperands {
  std::vector<std::uint8_t> a, b;
  std::int32_t za = 0;
  std::vector<std::int32_t> zb;  // n values (per column) or 1
  float a_scale = 1.0f;
  std::vector<float> b_scales;  // as zb
  std::vector<std::int32_t> c0;  // C's initial content (beta 1)
};

inline QOperands make_operands(const QShape& s, std::uint64_t seed) {
  Rng rng(seed);
  QOperands o;
  o.a.resize(std::max<std::size_t>(1, s.a_len()));
  o.b.resize(std::max<std::size_t>(1, s.b_len()));
  for (auto& x : o.a) x = static_cast<std::uint8_t>(rng.next());
  for (auto& x : o.b) x = static_cast<std::uint8_t>(rng.next());
  o.za = static_cast<std::int32_t>(rng.uniform_int(type_min(s.a_type), type_max(s.a_type)));
  const std::int64_t count = s.per_column ? s.n : 1;
  for (std::int64_t j = 0; j < count; ++j) {
    o.zb.push_back(static_cast<std::int32_t>(rng.uniform_int(type_min(s.b_type), type_max(s.b_type))));
    o.b_scales.push_back(static_cast<float>(rng.uniform_f64(0.001, 0.05)));
  }
  o.a_scale = static_cast<float>(rng.uniform_f64(0.002, 0.03));
  o.c0.resize(std::max<std::size_t>(1, s.c_len()));
  for (auto& x : o.c0) x = static_cast<std::int32_t>(rng.next());
  return o;
}

inline std::int64_t stored(const std::vector<std::uint8_t>& x, std::size_t at, IntType t) {
  return t == IntType::kS8 ? static_cast<std::int8_t>(x[at]) : static_cast<std::int64_t>(x[at]);
}

// s(i, j) of the definition, row-major m x n.
inline std::vector<std::int32_t> reference_sums(const QShape& s, const QOperands& o) {
  std::vector<std::int32_t> out(static_cast<std::size_t>(s.m * s.n));
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.n; ++j) {
      std::int64_t sum = 0;
      const std::int64_t zb = o.zb[s.per_column ? static_cast<std::size_t>(j) : 0];
      for (std::int64_t p = 0; p < s.k; ++p) {
        const std::int64_t ar = s.ta == Transpose::kNo ? i : p, ac = s.ta == Transpose::kNo ? p : i;
        const std::int64_t br = s.tb == Transpose::kNo ? p : j, bc = s.tb == Transpose::kNo ? j : p;
        const auto a_at = static_cast<std::size_t>(s.row() ? ar * s.lda() + ac : ar + ac * s.lda());
        const auto b_at = static_cast<std::size_t>(s.row() ? br * s.ldb() + bc : br + bc * s.ldb());
        sum += (stored(o.a, a_at, s.a_type) - o.za) * (stored(o.b, b_at, s.b_type) - zb);
      }
      out[static_cast<std::size_t>(i * s.n + j)] =
          static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(sum)));
    }
  }
  return out;
}

inline IntMatrix a_matrix(const QShape& s, const QOperands& o) {
  return {s.a_type, o.a.data(), s.lda(), s.ta};
}
inline IntMatrix b_matrix(const QShape& s, const QOperands& o) {
  return {s.b_type, o.b.data(), s.ldb(), s.tb};
}
inline QuantParams a_quant(const QOperands& o) { return QuantParams::per_tensor(o.za, o.a_scale); }
inline QuantParams b_quant(const QShape& s, const QOperands& o) {
  return s.per_column ? QuantParams::per_column(o.zb.data(), o.b_scales.data(), s.n)
                      : QuantParams::per_tensor(o.zb[0], o.b_scales[0]);
}

// MatMulInteger into *c (starting from o.c0).
inline Status run_int32(const Context& context, const QShape& s, const QOperands& o,
                        std::vector<std::int32_t>* c, Parallelism parallelism = {}) {
  *c = o.c0;
  return try_gemm_integer(context, s.layout, s.m, s.n, s.k, a_matrix(s, o), a_quant(o),
                          b_matrix(s, o), b_quant(s, o), s.beta, c->data(), s.ldc(), parallelism);
}

// The output a run must have written: C(i, j) = s + beta C0, untouched
// padding.
inline std::vector<std::int32_t> expected_int32(const QShape& s, const QOperands& o) {
  std::vector<std::int32_t> want = o.c0;
  const std::vector<std::int32_t> sums = reference_sums(s, o);
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.n; ++j) {
      const std::size_t at = s.c_at(i, j);
      const std::uint32_t base = s.beta == 1 ? static_cast<std::uint32_t>(want[at]) : 0u;
      want[at] = static_cast<std::int32_t>(base + static_cast<std::uint32_t>(sums[static_cast<std::size_t>(i * s.n + j)]));
    }
  }
  return want;
}

// QLinearMatMul's y from its formula: f32 multiplier a_scale * b_scale[j]
// / y_scale, then saturate(round_half_even(float(s) * multiplier) + y_zp).
inline std::uint8_t requantize(std::int32_t sum, float multiplier, std::int32_t y_zp, IntType y_type) {
  const float x = static_cast<float>(sum) * multiplier;
  const double r = std::nearbyint(static_cast<double>(x)) + y_zp;
  const double q = std::fmin(std::fmax(r, type_min(y_type)), type_max(y_type));
  return static_cast<std::uint8_t>(static_cast<std::int32_t>(q));
}

inline std::uint64_t fnv1a64(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

}  // namespace tessera::test::qgemm
