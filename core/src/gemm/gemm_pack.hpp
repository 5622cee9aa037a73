// Packing: copies a block of A or B into the panel order the microkernel
// reads (gemm_kernel.hpp describes the layout). Packing is a pure
// permutation with zero padding: the same bytes whoever packs a panel, in
// whatever order, so a panel packed by another worker, by the shared A
// prepack or by prepack_rhs is interchangeable (design.md §Reproducibility).
//
// Both operands are the same operation seen from the panel's side: W values
// across the panel ("width": rows of A, columns of B) for each depth step.
// Templated on the ISA's vector traits V only to keep every ISA's copy a
// distinct symbol (see gemm_microkernel.hpp); the code itself is portable
// and left to the compiler's vectoriser under that ISA's flags, except the
// transpose of six lines where the traits have one (pack_lines6).
#pragma once

#include <cstdint>
#include <cstring>

#include "core/src/kernels/gemm_kernel.hpp"

namespace tessera::core::gemm {

// Panels of W: element (w, p) of the source is src[w*s_w + p*s_d], for
// w < count, p < depth. Writes ceil(count/W) panels of W*depth values.
template <class V, int W>
void pack_panels(std::int64_t count, std::int64_t depth,
                 const typename V::Scalar* src, std::int64_t s_w,
                 std::int64_t s_d, typename V::Scalar* dst) {
  using T = typename V::Scalar;
  std::int64_t w0 = 0;
  for (; w0 + W <= count; w0 += W) {
    const T* s = src + w0 * s_w;
    if (s_w == 1) {
      // Each depth step is W contiguous values (e.g. row-major B, or
      // column-major A): a straight copy per step.
      for (std::int64_t p = 0; p < depth; ++p) {
        std::memcpy(dst + p * W, s + p * s_d, sizeof(T) * W);
      }
    } else if (s_d == 1) {
      // Each of the W lines is contiguous along depth (e.g. row-major A):
      // a transpose. Eight depth steps at a time keep every line's reads
      // sequential within a cache line while the writes stay in a small
      // window of the panel.
      std::int64_t p = 0;
      if constexpr (W == 6 && requires(const T* from, T* to) { V::pack_lines6(from, std::int64_t{1}, to); }) {
        // The traits' register transpose (AVX2), kLanes steps at a time.
        for (; p + V::kLanes <= depth; p += V::kLanes) V::pack_lines6(s + p, s_w, dst + p * W);
      }
      constexpr int kGroup = V::kLanes < 8 ? 8 : V::kLanes;
      if constexpr (W % kGroup == 0 &&
                    requires(const T* from, T* to) {
                      V::transpose_square(from, std::int64_t{1}, to, std::int64_t{1});
                    }) {
        // kLanes lines by kLanes steps per register transpose (a B panel
        // from a column-major B), kGroup lines down the whole depth at a
        // time: kGroup read streams, not W (at most 8 of 4 lanes).
        const std::int64_t whole = depth / V::kLanes * V::kLanes;
        for (int w0 = 0; w0 < W; w0 += kGroup) {
          for (std::int64_t q = 0; q < whole; q += V::kLanes) {
            for (int w = w0; w < w0 + kGroup; w += V::kLanes) {
              V::transpose_square(s + w * s_w + q, s_w, dst + q * W + w, W);
            }
          }
        }
        p = whole;
      }
      for (; p + 8 <= depth; p += 8) {
        for (int w = 0; w < W; ++w) {
          const T* line = s + w * s_w + p;
          for (int q = 0; q < 8; ++q) dst[(p + q) * W + w] = line[q];
        }
      }
      for (; p < depth; ++p) {
        for (int w = 0; w < W; ++w) dst[p * W + w] = s[w * s_w + p];
      }
    } else {
      for (std::int64_t p = 0; p < depth; ++p) {
        for (int w = 0; w < W; ++w) dst[p * W + w] = s[w * s_w + p * s_d];
      }
    }
    dst += W * depth;
  }
  if (w0 < count) {
    const std::int64_t valid = count - w0;
    const T* s = src + w0 * s_w;
    for (std::int64_t p = 0; p < depth; ++p) {
      int w = 0;
      for (; w < valid; ++w) dst[p * W + w] = s[w * s_w + p * s_d];
      for (; w < W; ++w) dst[p * W + w] = T(0);
    }
  }
}

// GemmKernelSet::pack_a: A(i, p) = a[i*rs + p*cs], panels of MR rows.
template <class V, int MR>
void pack_a(std::int64_t rows, std::int64_t depth, const typename V::Scalar* a,
            std::int64_t rs, std::int64_t cs, typename V::Scalar* dst) {
  pack_panels<V, MR>(rows, depth, a, rs, cs, dst);
}

// GemmKernelSet::pack_b: B(p, j) = b[p*rs + j*cs], panels of NR columns.
template <class V, int NR>
void pack_b(std::int64_t depth, std::int64_t cols, const typename V::Scalar* b,
            std::int64_t rs, std::int64_t cs, typename V::Scalar* dst) {
  pack_panels<V, NR>(cols, depth, b, cs, rs, dst);
}

}  // namespace tessera::core::gemm
