// What every GEMM entry point (plain, prepacked, plan) shares once its
// arguments are valid: the kernel set and blocking of the context's level,
// the canonical row-major problem, decide_gemm's request, and the run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/src/base/context_state.hpp"
#include "core/src/gemm/gemm_blocking.hpp"
#include "core/src/gemm/gemm_driver.hpp"
#include "core/src/gemm/gemm_naive_epilogue.hpp"
#include "core/src/gemm/gemm_validate.hpp"
#include "core/src/registry/kernel_registry.hpp"
#include "tessera/gemm.hpp"

namespace tessera::gemm_detail {

// C = beta*C over the canonical m x n, the whole result when k == 0 or
// alpha == 0 (BLAS: A and B are not read).
template <class T>
void scale_c(const core::GemmProblem<T>& pr) {
  if (pr.beta == T(1)) return;
  for (std::int64_t i = 0; i < pr.m; ++i) {
    T* row = pr.c + i * pr.ldc;
    if (pr.beta == T(0)) {
      std::fill(row, row + pr.n, T(0));
    } else {
      for (std::int64_t j = 0; j < pr.n; ++j) row[j] = pr.beta * row[j];
    }
  }
}

template <class T>
const core::GemmKernelSet<T>* kernel_set(const core::KernelTable& table);
template <>
inline const core::GemmKernelSet<float>* kernel_set<float>(const core::KernelTable& t) {
  return t.gemm.f32;
}
template <>
inline const core::GemmKernelSet<double>* kernel_set<double>(const core::KernelTable& t) {
  return t.gemm.f64;
}

template <class T>
core::NaiveGemmFn<T> naive_fn(const core::KernelTable& table);
template <>
inline core::NaiveGemmFn<float> naive_fn<float>(const core::KernelTable& t) {
  return t.gemm.naive_f32;
}
template <>
inline core::NaiveGemmFn<double> naive_fn<double>(const core::KernelTable& t) {
  return t.gemm.naive_f64;
}

template <class T>
constexpr Dtype dtype_of() {
  return sizeof(T) == 4 ? Dtype::kF32 : Dtype::kF64;
}

// The blocking of a kernel set, computed once per registered set (it
// depends only on the tile and the process's cache facts) and looked up by
// the table's ISA level on every call.
template <class T>
core::GemmBlocking blocking_of(const core::GemmKernelSet<T>& ks) {
  return core::gemm_blocking(ks.mr, ks.nr, sizeof(T), ks.blocking, core::host_cache_facts());
}

template <class T>
TESSERA_QUICK_INLINE inline core::GemmBlocking cached_blocking(const core::KernelTable& table) {
  if (core::gemm_blocking_overridden(sizeof(T))) [[unlikely]] {
    const core::GemmKernelSet<T>* set = kernel_set<T>(table);
    if (set != nullptr) return blocking_of(*set);
  }
  struct Cache {
    core::GemmBlocking by_isa[kIsaCount];
  };
  static const Cache cache = [] {
    Cache c{};
    for (const core::KernelTable* t : core::registered_tables()) {
      if (t->family != KernelFamily::kOptimized) continue;
      if (const core::GemmKernelSet<T>* set = kernel_set<T>(*t)) {
        c.by_isa[static_cast<int>(t->isa)] = blocking_of(*set);
      }
    }
    return c;
  }();
  return cache.by_isa[static_cast<int>(table.isa)];
}

// The blocking a context's calls use: its tuned profile's for this element
// type (tessera/profile.hpp), rounded down to the set's tile, when it has
// one; else the model's (cached per level).
template <class T>
TESSERA_QUICK_INLINE inline core::GemmBlocking context_blocking(
    const detail::ContextState& state, const core::GemmKernelSet<T>& ks) {
  const auto& tuned = state.tuned_blocking[sizeof(T) == 4 ? 0 : 1];
  if (tuned.kc != 0) [[unlikely]] {
    core::GemmBlocking b;
    b.kc = tuned.kc;
    b.mc = std::max<std::int64_t>(ks.mr, tuned.mc / ks.mr * ks.mr);
    b.nc = std::max<std::int64_t>(ks.nr, tuned.nc / ks.nr * ks.nr);
    return b;
  }
  return cached_blocking<T>(*state.table);
}

// The bytes one depth slice of A may take for the direct path
// (core::direct_suits): a fixed kPortableDirectSliceBytes on the portable
// levels, which have no cache facts in wasm (the choice never changes the
// bits, only the speed); on cache-model levels the host's L2, or a quarter of it when the
// direct column panel is narrower than 128 bytes. The direct path re-reads
// A once per column panel, so a narrower panel re-reads it more often per
// flop: on Zen 3 (512 KiB L2; AVX2, 6 x 16 f32 and 6 x 8 f64 panels of 64
// bytes; one thread, 9 alternated rounds) the packed path beat the direct
// one at f32 256^3 by 17-25% and 320^3 by 30-45%, f64 192^3 by 44%, while
// 128^3 stayed faster direct. The 128-byte panels of AVX-512 keep the whole
// L2, as measured on Zen 4 and Zen 5 (gemm_driver.hpp).
// The fixed-blocking levels (scalar and the 128-bit ones, whose panels are
// all narrow) use one budget on every host, so that a wasm engine, which
// knows no cache, decides as a native SSE2 run does. It was 256 KiB; under
// V8 the simd128 direct path ran f32 96^3-256^3 at 31-34 GFLOP/s where the
// packed path runs 41-44, and f64 64^3-128^3 at 15-17 against 20-22 (Node
// 20, Intel Xeon, one thread, heap tensors); native SSE2 f32 128^3-256^3
// ran 13-16% faster packed. Slices of 16 KiB and less (f32 64^3) ran the
// same either way, so they stay direct, with less set-up.
// (The host's L2 is read once: small calls ask for it on every call.)
// TESSERA_DIRECT_SLICE_BYTES replaces the budget on every level (the tuner
// measures it; design.md §Profiles).
inline constexpr std::uint64_t kPortableDirectSliceBytes = 16 * 1024;
template <class T>
std::uint64_t direct_slice_budget(const detail::ContextState& state,
                                  const core::GemmKernelSet<T>& ks) {
  if (state.direct_slice_bytes != 0) return state.direct_slice_bytes;
  static const std::uint64_t host_l2 = core::host_cache_facts().l2;
  if (ks.blocking == core::GemmBlockingRule::kFixedPortable) return kPortableDirectSliceBytes;
  constexpr std::uint64_t kWidePanelBytes = 128;
  const bool narrow = static_cast<std::uint64_t>(ks.direct_nr) * sizeof(T) < kWidePanelBytes;
  return narrow ? host_l2 / 4 : host_l2;
}

// Whether the direct path may run an m x n x k problem of `ks` (the request's
// direct_ok && direct_fits): the one rule, for the request and for
// execute()'s quick path, which asks it before building a request.
template <class T>
TESSERA_QUICK_INLINE inline bool direct_allowed(const detail::ContextState& state,
                                                const core::GemmKernelSet<T>& ks,
                                                const core::GemmBlocking& blocking,
                                                std::int64_t m, std::int64_t n, std::int64_t k,
                                                bool a_prepacked) {
  return ks.direct != nullptr && !a_prepacked &&
         core::direct_suits(m, n, k, blocking.kc, ks.direct_nr, sizeof(T),
                            direct_slice_budget(state, ks));
}

// decide_gemm's request for a canonical m x n x k problem on `state`: the
// one place a call and a plan (try_plan_gemm) describe their problem, so
// the plan shows exactly what the call runs.
template <class T>
core::GemmRequest gemm_request(const detail::ContextState& state,
                               const core::GemmKernelSet<T>& ks,
                               const core::GemmBlocking& blocking, std::int64_t m,
                               std::int64_t n, std::int64_t k, Parallelism parallelism,
                               bool a_prepacked, bool b_prepacked, bool explain) {
  core::GemmRequest r;
  r.m = m, r.n = n, r.k = k;
  r.mr = ks.mr, r.nr = ks.nr;
  r.cache_blocking = blocking;
  // direct_allowed() is the conjunction of these two.
  r.direct_ok = ks.direct != nullptr && !a_prepacked;
  r.direct_mr = ks.direct_mr, r.direct_nr = ks.direct_nr;
  r.direct_fits = core::direct_suits(m, n, k, blocking.kc, ks.direct_nr, sizeof(T),
                                     direct_slice_budget(state, ks));
  r.a_prepacked = a_prepacked;
  r.b_prepacked = b_prepacked;
  r.site = state.compute_request(parallelism, explain);
  r.knobs = state.compute_knobs;
  return r;
}

template <class T>
Status plan_and_run(const detail::ContextState& state, const core::GemmKernelSet<T>* ks,
                    const core::GemmBlocking& blocking, const core::GemmProblem<T>& pr,
                    Parallelism parallelism, const T* packed_a, const T* packed_b);

// execute() on an optimized kernel set and its blocking: the table's own
// set, or the half GEMM's pair-dot set (its fast mode).
template <class T>
TESSERA_QUICK_INLINE inline Status execute_on(const detail::ContextState& state,
                                              const core::GemmKernelSet<T>& set,
                                              const core::GemmBlocking& blocking,
                                              const core::GemmProblem<T>& pr,
                                              Parallelism parallelism, const T* packed_a,
                                              const T* packed_b) {
  // Small products the serial gate keeps on the caller go straight to the
  // direct path: exactly the calls decide_gemm would send there, without
  // building a request or a plan (the request alone, knobs and all, was
  // 110 of the ~800 instructions of a 1 x 1 x 1 call).
  if (direct_allowed(state, set, blocking, pr.m, pr.n, pr.k, packed_a != nullptr)) {
    const std::uint64_t mnk = static_cast<std::uint64_t>(pr.m) *
                              static_cast<std::uint64_t>(pr.n) * static_cast<std::uint64_t>(pr.k);
    if (parallelism.is_serial() || core::below_serial_gate(mnk, state.compute_knobs)) {
      return core::run_direct(set, pr, blocking.kc, packed_b);
    }
  }
  return plan_and_run<T>(state, &set, blocking, pr, parallelism, packed_a, packed_b);
}

// Runs a validated, non-trivial canonical problem. Inlined (like gemm_impl
// into try_gemm): a 8 x 32 x 1 product took 50 ns through the separate
// calls and 45 ns without them.
template <class T>
TESSERA_QUICK_INLINE inline Status execute(const detail::ContextState& state,
                                           const core::GemmProblem<T>& pr, Parallelism parallelism,
                                           const T* packed_a, const T* packed_b) {
  if (state.table->family == KernelFamily::kNaive) {
    const core::NaiveGemmFn<T> fn = naive_fn<T>(*state.table);
    if (fn == nullptr) return Status::internal("naive table has no gemm");
    fn(pr);
    return {};
  }
  const core::GemmKernelSet<T>* ks = kernel_set<T>(*state.table);
  if (ks == nullptr) {
    return Status::internal(std::string("kernel table ") + isa_name(state.table->isa) +
                            " has no gemm " + dtype_name(dtype_of<T>()));
  }
  return execute_on(state, *ks, context_blocking<T>(state, *ks), pr, parallelism, packed_a,
                    packed_b);
}

// execute()'s general path: decide_gemm's plan for the problem, then its run.
template <class T>
Status plan_and_run(const detail::ContextState& state, const core::GemmKernelSet<T>* ks,
                    const core::GemmBlocking& blocking, const core::GemmProblem<T>& pr,
                    Parallelism parallelism, const T* packed_a, const T* packed_b) {
  const core::GemmRequest request = gemm_request(state, *ks, blocking, pr.m, pr.n, pr.k,
                                                 parallelism, packed_a != nullptr, packed_b != nullptr,
                                                 false);
  const core::GemmDecision decision = core::decide_gemm(request);
  // C's rows off their cache lines on a shallow packed product: the
  // leading columns up to the first line boundary as a product of their
  // own, then the rest with aligned stores (misaligned_lead_columns).
  // Prepacked operands keep their panels: they are never split.
  if (!decision.direct && packed_a == nullptr && packed_b == nullptr) {
    const std::int64_t lead = core::misaligned_lead_columns(pr, ks->lanes);
    if (lead > 0) {
      core::GemmProblem<T> left = pr, right = pr;
      left.n = lead;
      right.n = pr.n - lead;
      right.b = pr.b + lead * pr.cs_b;
      right.c = pr.c + lead;
      right.epilogue = pr.epilogue.at(0, lead);
      TESSERA_RETURN_IF_ERROR(
          plan_and_run<T>(state, ks, blocking, left, parallelism, nullptr, nullptr));
      return plan_and_run<T>(state, ks, blocking, right, parallelism, nullptr, nullptr);
    }
  }
  if (decision.direct) {
    if (decision.compute.workers == 1) {
      return core::run_direct(*ks, pr, decision.blocking.kc, packed_b);
    }
    return core::run_direct_parallel(*ks, pr, decision, packed_b, state.executor);
  }
  return core::run_gemm(*ks, pr, decision, packed_a, packed_b, state.executor);
}

// The canonical row-major problem of a call C (m x n, `layout`) =
// alpha op(A) op(B) + beta C: a column-major call computes
// C^T = op(B)^T op(A)^T. `a` or `b` is null when that side arrives packed
// (its strides are then unused).
template <class T>
inline core::GemmProblem<T> canonical_problem(Layout layout, Transpose ta, Transpose tb,
                                              std::int64_t m, std::int64_t n, std::int64_t k,
                                              T alpha, const T* a, std::int64_t lda, const T* b,
                                              std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  core::GemmProblem<T> pr;
  pr.k = k;
  pr.alpha = alpha;
  pr.beta = beta;
  pr.c = c;
  pr.ldc = ldc;
  std::int64_t rs_a, cs_a, rs_b = 0, cs_b = 0;
  core::op_strides(layout, ta, lda, &rs_a, &cs_a);
  if (b != nullptr) core::op_strides(layout, tb, ldb, &rs_b, &cs_b);
  if (layout == Layout::kRowMajor) {
    pr.m = m;
    pr.n = n;
    pr.a = a, pr.rs_a = rs_a, pr.cs_a = cs_a;
    pr.b = b, pr.rs_b = rs_b, pr.cs_b = cs_b;
  } else {
    pr.m = n;
    pr.n = m;
    pr.a = b, pr.rs_a = cs_b, pr.cs_a = rs_b;
    pr.b = a, pr.rs_b = cs_a, pr.cs_b = rs_a;
  }
  return pr;
}

// C = act(C + bias) after scale_c (k == 0 or alpha == 0): the level's
// vector epilogue, or the reference one in the naive family.
template <class T>
Status epilogue_only(const detail::ContextState& state, const core::GemmProblem<T>& pr) {
  if (state.table->family == KernelFamily::kNaive) {
    for (std::int64_t i = 0; i < pr.m; ++i) {
      for (std::int64_t j = 0; j < pr.n; ++j) {
        T& c = pr.c[i * pr.ldc + j];
        c = core::naive::epilogue_reference(pr.epilogue, i, j, c);
      }
    }
    return {};
  }
  const core::GemmKernelSet<T>* ks = kernel_set<T>(*state.table);
  if (ks == nullptr || ks->epilogue_only == nullptr) {
    return Status::internal(std::string("kernel table ") + isa_name(state.table->isa) +
                            " has no gemm epilogue");
  }
  ks->epilogue_only(pr.m, pr.n, pr.c, pr.ldc, pr.epilogue);
  return {};
}

// Checks a caller's epilogue (design.md §Bad input: the argument named,
// before C is written) and returns it as the canonical problem's: a
// column-major call computes C^T, so its columns are canonical rows.
template <class T>
Status check_epilogue(const GemmEpilogue<T>& ep, Layout layout, std::int64_t m,
                      std::int64_t n, const T* c, std::int64_t ldc,
                      core::GemmEpilogueSpec<T>* out) {
  const auto kind = static_cast<unsigned>(ep.bias_kind);
  const auto act = static_cast<unsigned>(ep.activation);
  if (kind > 2) {
    return Status::invalid_argument("epilogue.bias_kind is not a BiasKind value (got " +
                                    std::to_string(kind) + ")");
  }
  if (act > 3) {
    return Status::invalid_argument("epilogue.activation is not an Activation value (got " +
                                    std::to_string(act) + ")");
  }
  if (ep.bias_kind != BiasKind::kNone && ep.bias == nullptr) {
    return Status::invalid_argument(std::string("epilogue.bias is null with bias_kind ") +
                                    bias_kind_name(ep.bias_kind));
  }
  if (ep.bias_kind != BiasKind::kNone && m > 0 && n > 0 && c != nullptr) {
    // The bias is read while C is written: it must not lie inside C's span.
    const std::int64_t len = ep.bias_kind == BiasKind::kPerColumn ? n : m;
    const std::int64_t outer = layout == Layout::kRowMajor ? m : n;
    const std::int64_t inner = layout == Layout::kRowMajor ? n : m;
    const T* c_end = c + (outer - 1) * ldc + inner;
    if (ep.bias < c_end && c < ep.bias + len) {
      return Status::invalid_argument("epilogue.bias overlaps c");
    }
  }
  core::GemmEpilogueSpec<T> spec;
  spec.bias = ep.bias;
  const bool row = layout == Layout::kRowMajor;
  switch (ep.bias_kind) {
    case BiasKind::kNone: spec.axis = core::GemmBiasAxis::kNone; break;
    case BiasKind::kPerColumn:
      spec.axis = row ? core::GemmBiasAxis::kColumn : core::GemmBiasAxis::kRow;
      break;
    case BiasKind::kPerRow:
      spec.axis = row ? core::GemmBiasAxis::kRow : core::GemmBiasAxis::kColumn;
      break;
  }
  spec.act = static_cast<core::GemmAct>(act);
  if (spec.axis == core::GemmBiasAxis::kNone) spec.bias = nullptr;
  *out = spec;
  return {};
}

// The BLAS trivial cases of a valid canonical problem: an empty C, or
// k == 0 or alpha == 0. run_trivial does them: nothing for an empty C, else
// C = beta C and then the epilogue alone (A and B unread). The half GEMM's
// paths use them; run_canonical spells the same cases out inline, as
// calling these cost sgemm 8 x 32 x 1 19 more of its ~1130 instructions
// (callgrind, avx2; GCC 12 inlined differently).
template <class T>
inline bool trivial(const core::GemmProblem<T>& pr) {
  return pr.m == 0 || pr.n == 0 || pr.k == 0 || pr.alpha == T(0);
}
template <class T>
Status run_trivial(const detail::ContextState& state, const core::GemmProblem<T>& pr) {
  if (pr.m == 0 || pr.n == 0) return {};
  scale_c(pr);
  if (pr.epilogue.active()) return epilogue_only(state, pr);
  return {};
}

// A valid canonical problem, start to end: the BLAS trivial cases, else
// execute().
template <class T>
TESSERA_QUICK_INLINE inline Status run_canonical(const detail::ContextState& state,
                                                 const core::GemmProblem<T>& pr,
                                                 Parallelism parallelism, const T* packed_a,
                                                 const T* packed_b) {
  if (pr.m == 0 || pr.n == 0) return {};
  if (pr.k == 0 || pr.alpha == T(0)) {
    scale_c(pr);
    if (pr.epilogue.active()) return epilogue_only(state, pr);
    return {};
  }
  return execute(state, pr, parallelism, packed_a, packed_b);
}

}  // namespace tessera::gemm_detail
