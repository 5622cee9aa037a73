// The fused GEMM epilogue on vectors, written once over a vector traits type
// V: bias addition and activation of a value the plain GEMM would store
// (order: gemm_kernel.hpp, GemmEpilogueSpec). Included only by
// gemm_microkernel.hpp, i.e. by the per-ISA backend files.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/src/kernels/gemm_kernel.hpp"
#include "core/src/simd/vmath.hpp"

namespace tessera::core::gemm {

template <GemmBiasAxis A>
using BiasAxisTag = std::integral_constant<GemmBiasAxis, A>;
template <GemmAct A>
using ActTag = std::integral_constant<GemmAct, A>;

// Calls f(BiasAxisTag, ActTag) for the spec's axis and activation: one
// branch per tile, then straight-line vector code per combination.
template <class F>
inline void dispatch_epilogue(GemmBiasAxis axis, GemmAct act, F&& f) {
  auto with_act = [&](auto axis_tag) {
    switch (act) {
      case GemmAct::kNone: f(axis_tag, ActTag<GemmAct::kNone>{}); return;
      case GemmAct::kRelu: f(axis_tag, ActTag<GemmAct::kRelu>{}); return;
      case GemmAct::kGelu: f(axis_tag, ActTag<GemmAct::kGelu>{}); return;
      case GemmAct::kSigmoid: f(axis_tag, ActTag<GemmAct::kSigmoid>{}); return;
    }
  };
  switch (axis) {
    case GemmBiasAxis::kNone: with_act(BiasAxisTag<GemmBiasAxis::kNone>{}); return;
    case GemmBiasAxis::kColumn: with_act(BiasAxisTag<GemmBiasAxis::kColumn>{}); return;
    case GemmBiasAxis::kRow: with_act(BiasAxisTag<GemmBiasAxis::kRow>{}); return;
  }
}

// act(x) per lane: relu keeps NaN and -0 (V::relu, as the elementwise
// op); gelu (tanh form) and sigmoid are vmath.hpp's.
template <class V, GemmAct ACT>
inline typename V::Reg activate(typename V::Reg x) {
  if constexpr (ACT == GemmAct::kRelu) {
    return V::relu(x);
  } else if constexpr (ACT == GemmAct::kGelu) {
    return tessera::simd::vgelu<V>(x);
  } else if constexpr (ACT == GemmAct::kSigmoid) {
    return tessera::simd::vsigmoid<V>(x);
  } else {
    return x;
  }
}

// C = act(C + bias) over rows x cols at c, a vector at a time through a
// local lane buffer (the k == 0 / alpha == 0 case: not a hot path). Same
// per-lane operations as the fused store, hence the same bits.
template <class V>
void epilogue_only(std::int64_t rows, std::int64_t cols, typename V::Scalar* c,
                   std::int64_t ldc, const GemmEpilogueSpec<typename V::Scalar>& ep) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr int kLanes = V::kLanes;
  dispatch_epilogue(ep.axis, ep.act, [&](auto axis_tag, auto act_tag) {
    constexpr GemmBiasAxis kAxis = decltype(axis_tag)::value;
    constexpr GemmAct kAct = decltype(act_tag)::value;
    alignas(64) T x[kLanes];
    alignas(64) T bias[kLanes];
    for (std::int64_t i = 0; i < rows; ++i) {
      T* row = c + i * ldc;
      for (std::int64_t j = 0; j < cols; j += kLanes) {
        const std::int64_t n = cols - j < kLanes ? cols - j : kLanes;
        for (int l = 0; l < kLanes; ++l) {
          x[l] = l < n ? row[j + l] : T(0);
          bias[l] = kAxis == GemmBiasAxis::kColumn && l < n ? ep.bias[j + l] : T(0);
        }
        Reg v = V::load(x);
        if constexpr (kAxis == GemmBiasAxis::kColumn) v = V::add(v, V::load(bias));
        if constexpr (kAxis == GemmBiasAxis::kRow) v = V::add(v, V::broadcast(ep.bias + i));
        V::store(x, activate<V, kAct>(v));
        for (std::int64_t l = 0; l < n; ++l) row[j + l] = x[l];
      }
    }
  });
}

}  // namespace tessera::core::gemm
