// What every integer GEMM entry point (MatMulInteger, QLinearMatMul,
// MatMulIntegerToFloat; B as stored or prepacked; the plan) shares: the
// call as the caller gave it (QGemmCall), its checks (design.md §Bad input:
// every argument named, before anything is written), the canonical problem
// and the run on the context's level.
#pragma once

#include <cstdint>

#include "core/src/base/context_state.hpp"
#include "core/src/kernels/qgemm_kernel.hpp"
#include "core/src/qgemm/qgemm_driver.hpp"
#include "tessera/quantized.hpp"

namespace tessera::detail {

struct PackedIntRhsState {
  Isa isa = Isa::kScalar;
  const core::QGemmKernelSet* set = nullptr;
  IntType type = IntType::kS8;
  std::int64_t k = 0, n = 0;
  std::uint8_t* panels = nullptr;  // 64-byte aligned, ceil(n / nr) panels
  std::int32_t* col_sums = nullptr;  // n canonical column sums
  std::size_t bytes = 0;
  ~PackedIntRhsState();
};

}  // namespace tessera::detail

namespace tessera::qgemm_detail {

// One call, as given. Exactly one of b / packed is set; the output is the
// kind's own fields.
struct QGemmCall {
  Layout layout = Layout::kRowMajor;
  std::int64_t m = 0, n = 0, k = 0;
  IntMatrix a;
  QuantParams qa;
  const IntMatrix* b = nullptr;
  const PackedIntRhs* packed = nullptr;
  QuantParams qb;
  core::QGemmOutputKind kind = core::QGemmOutputKind::kInt32;
  std::int32_t beta = 0;           // kInt32
  IntType y_type = IntType::kU8;   // kRequantize
  QuantParams qy;                  // kRequantize
  void* y = nullptr;               // the output (int32, 8-bit or f32)
  std::int64_t ldy = 0;
  GemmEpilogue<float> epilogue;    // kFloat
  Parallelism parallelism;
};

// Whether B's quantization is per column: count n with its arrays (a
// count of 1 without arrays is per tensor); how many values it has; column
// j's scale.
inline bool per_column(const QuantParams& q) {
  return q.count != 1 || q.zero_points != nullptr || q.scales != nullptr;
}
inline std::int64_t quant_count(const QuantParams& q) { return per_column(q) ? q.count : 1; }
inline float b_scale(const QuantParams& q, std::int64_t j) {
  return per_column(q) ? q.scales[j] : q.scale;
}

// Every check of design.md §Bad input for `call`, in argument order; ok or
// the first failure, naming the argument.
Status check_call(const detail::ContextState& state, const QGemmCall& call);

// Runs a checked call on the context's level (or its naive family).
Status run_call(const detail::ContextState& state, const QGemmCall& call);

// The request decide_qgemm gets for an m x n x k problem on `state`: the
// one description a call and a plan share.
core::QGemmRequest qgemm_request(const detail::ContextState& state,
                                 const core::QGemmKernelSet& ks, std::int64_t m,
                                 std::int64_t n, std::int64_t k, Parallelism parallelism,
                                 bool b_prepacked, bool explain);

}  // namespace tessera::qgemm_detail
