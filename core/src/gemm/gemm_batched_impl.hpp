// Batched GEMM internals shared by the public entry points
// (gemm_batched.cc) and the tests that force each batch plan: where entry
// i's operands live, the call's common arguments, and the one function that
// validates everything and then runs the batch per a plan.
#pragma once

#include <cstdint>

#include "core/src/parallel/batch_plan.hpp"
#include "tessera/gemm.hpp"

namespace tessera::gemm_detail {

// Entry i of one operand: base + i*stride (strided form) or list[i]
// (pointer-array form, when list is not null).
template <class P>
struct BatchOperand {
  P base = nullptr;
  std::int64_t stride = 0;
  const P* list = nullptr;
  bool is_list = false;
  P at(std::int64_t i) const { return is_list ? list[i] : base + i * stride; }
};

template <class T>
struct BatchCall {
  Layout layout = Layout::kRowMajor;
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  std::int64_t m = 0, n = 0, k = 0;  // n and k are taken from `packed` when set
  T alpha = 0, beta = 0;
  BatchOperand<const T*> a, b;       // b unused when `packed` is set
  std::int64_t lda = 0, ldb = 0, ldc = 0;
  BatchOperand<T*> c;
  std::int64_t batch = 0;
  const PackedRhs* packed = nullptr;
  Parallelism parallelism;
};

// Validates `call` (nothing is written on error), then runs it per the
// batch plan resolved for the context, or per `forced` when not null (tests:
// every plan must give the same bits; a forced worker count is capped by
// the context's width).
template <class T>
Status run_batched(const Context& context, const BatchCall<T>& call,
                   const core::BatchPlan* forced);

}  // namespace tessera::gemm_detail
