// What the half GEMM (gemm_half.cc) shares with the prepack of a 16-bit B
// (gemm_packed_rhs.cc): the storage check, the level's widening, and the
// run of a canonical problem with widened sources.
#pragma once

#include "core/src/base/context_state.hpp"
#include "core/src/gemm/gemm_driver.hpp"
#include "core/src/kernels/half_kernel.hpp"
#include "tessera/half.hpp"

namespace tessera::gemm_detail {

// `name`.storage is a Storage value.
Status check_storage(Storage storage, const char* name);
// The level's f16 or bf16 -> f32 conversion (storage not kF32).
core::WidenFn widen_of(const core::HalfKernels& kernels, Storage storage);
// run_canonical for a problem whose active sources stand for its null
// sides: the packed path only, widening as it packs.
Status run_widened(const detail::ContextState& state, const core::GemmProblem<float>& problem,
                   const core::GemmSources& sources, Parallelism parallelism,
                   const float* packed_a, const float* packed_b);

// The fast mode (gemm_half_fast.cc): the canonical problem `problem`
// (its sides null) of bf16 A at `a` and bf16 B at `b`, at the problem's
// strides, on a pair-dot kernel set (GemmKernels::bf16_pairs).
Status run_bf16_pairs(const detail::ContextState& state, const core::GemmKernelSet<float>& set,
                      const core::GemmProblem<float>& problem, const std::uint16_t* a,
                      const std::uint16_t* b, Parallelism parallelism);

}  // namespace tessera::gemm_detail
