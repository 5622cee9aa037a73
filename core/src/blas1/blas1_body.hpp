// dot and gemv kernel bodies, written once over a vector-traits type V
// (core/src/simd/vec_*.hpp) and instantiated in one file per ISA
// (core/src/isa/kernels_<isa>.cc). Operation order is part of the contract:
// it depends on V's lane count only, never on strides, panels or the caller's
// split, and uses only V::mul_add / V::add, so two backends with the same
// lanes and the same mul_add (SSE2 and SIMD128: multiply, then add) give the
// same bits.
#pragma once

#include <cstddef>
#include <type_traits>

#include "core/src/kernels/blas1_kernel.hpp"
#include "core/src/simd/half_bits.hpp"
#include "core/src/simd/lane_sum.hpp"

namespace tessera::core::blas1 {

// Horizontal sums in the fixed order of simd/lane_sum.hpp (a 16-element
// dot is mostly that sum).
using simd::reduce_lanes;

// A dot block's partial from its four accumulators (dot_block and
// dot_blocks end the same way, so their bits agree).
template <class V>
inline typename V::Scalar block_sum(const typename V::Reg acc[4]) {
  return reduce_lanes<V>(V::add(V::add(acc[0], acc[1]), V::add(acc[2], acc[3])));
}

// Element readers (gemv's A, dot's x and y). PlainA: V's own type. HalfA:
// f16 or bf16, widened as it is loaded (the level's Half traits), the same
// values try_convert gives, so the f32 arithmetic after it sees the
// widened operand.
template <class V>
struct PlainA {
  using Elem = typename V::Scalar;
  static typename V::Reg load(const Elem* p) { return V::load(p); }
  static typename V::Scalar value(Elem e) { return e; }
};
template <class V, class Half, bool kBf16>
struct HalfA {
  using Elem = std::uint16_t;
  static typename V::Reg load(const Elem* p) {
    if constexpr (kBf16) {
      return Half::load_bf16(p);
    } else {
      return Half::load_f16(p);
    }
  }
  static float value(Elem e) {
    return half::float_of(kBf16 ? half::bf16_to_f32_bits(e) : half::f16_to_f32_bits(e));
  }
};

// The first `count` (< lanes) elements at p, zero-padded to a vector: a
// masked load where the level has one (filling a buffer with scalar stores
// and loading it as a vector stalls on store forwarding).
template <class V>
inline typename V::Reg load_padded(const typename V::Scalar* p, std::size_t count) {
  if constexpr (requires { V::load_lanes(p, V::first_lanes(1)); }) {
    return V::load_lanes(p, V::first_lanes(static_cast<int>(count)));
  }
  typename V::Scalar buf[V::kLanes] = {};
  for (std::size_t l = 0; l < count; ++l) buf[l] = p[l];
  return V::load(buf);
}

// Four accumulators over contiguous x, y; len is a multiple of 4 vectors
// except on the last call of a block, which takes the remainder: single
// vectors into acc[0], then one zero-padded partial vector into acc[1].
// L reads x and y (PlainA, or HalfA for the half formats: then every
// register holds the widened values the f32 form would load, so the sums
// are the f32 dot's on the widened vectors).
template <class V, class L = PlainA<V>>
inline void dot_accumulate(const typename L::Elem* x, const typename L::Elem* y,
                           std::size_t len, typename V::Reg acc[4]) {
  using T = typename V::Scalar;
  constexpr std::size_t kL = V::kLanes;
  std::size_t i = 0;
  for (; i + 4 * kL <= len; i += 4 * kL) {
    acc[0] = V::mul_add(L::load(x + i), L::load(y + i), acc[0]);
    acc[1] = V::mul_add(L::load(x + i + kL), L::load(y + i + kL), acc[1]);
    acc[2] = V::mul_add(L::load(x + i + 2 * kL), L::load(y + i + 2 * kL), acc[2]);
    acc[3] = V::mul_add(L::load(x + i + 3 * kL), L::load(y + i + 3 * kL), acc[3]);
  }
  // Counted: GCC 12 reads `i + kL <= len` with one-lane vectors as a loop
  // that may overrun (-Waggressive-loop-optimizations).
  for (std::size_t left = (len - i) / kL; left > 0; --left, i += kL) {
    acc[0] = V::mul_add(L::load(x + i), L::load(y + i), acc[0]);
  }
  if constexpr (std::is_same_v<L, PlainA<V>>) {
    if (i < len) acc[1] = V::mul_add(load_padded<V>(x + i, len - i), load_padded<V>(y + i, len - i), acc[1]);
    return;
  }
  if (i < len) {
    T bx[kL] = {}, by[kL] = {};
    for (std::size_t l = 0; i + l < len; ++l) {
      bx[l] = L::value(x[i + l]);
      by[l] = L::value(y[i + l]);
    }
    acc[1] = V::mul_add(V::load(bx), V::load(by), acc[1]);
  }
}

template <class V, class L = PlainA<V>>
typename V::Scalar dot_block(const typename L::Elem* x, std::ptrdiff_t incx,
                             const typename L::Elem* y, std::ptrdiff_t incy,
                             std::size_t n) {
  using E = typename L::Elem;
  typename V::Reg acc[4] = {V::zero(), V::zero(), V::zero(), V::zero()};
  if (incx == 1 && incy == 1) {
    dot_accumulate<V, L>(x, y, n, acc);
  } else {
    // Gathered chunks are multiples of the unroll, so this is the contiguous
    // order exactly.
    E bx[kDotGatherChunk], by[kDotGatherChunk];
    for (std::size_t start = 0; start < n; start += kDotGatherChunk) {
      const std::size_t len = n - start < kDotGatherChunk ? n - start : kDotGatherChunk;
      const E* px = x + static_cast<std::ptrdiff_t>(start) * incx;
      const E* py = y + static_cast<std::ptrdiff_t>(start) * incy;
      for (std::size_t i = 0; i < len; ++i) {
        bx[i] = px[static_cast<std::ptrdiff_t>(i) * incx];
        by[i] = py[static_cast<std::ptrdiff_t>(i) * incy];
      }
      dot_accumulate<V, L>(bx, by, len, acc);
    }
  }
  return block_sum<V>(acc);
}

// Whole contiguous blocks, kDotBlocksSideBySide of them read side by side:
// one thread reading two blocks' four streams (x and y of each) reaches a
// higher read rate than reading one block's two (Zen 3: ~+10% from DRAM).
// Each block runs dot_accumulate's sequence exactly: kDotBlock is a
// multiple of 4 vectors, so only its unrolled loop runs, into the block's
// own four accumulators, and the same final sum as dot_block.
inline constexpr int kDotBlocksSideBySide = 2;

template <class V, class L = PlainA<V>>
void dot_blocks(const typename L::Elem* x, const typename L::Elem* y, std::size_t blocks,
                typename V::Scalar* partials) {
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  constexpr int G = kDotBlocksSideBySide;
  static_assert(kDotBlock % (4 * kL) == 0);
  std::size_t b = 0;
  for (; b + G <= blocks; b += G) {
    Reg acc[G][4];
    for (int g = 0; g < G; ++g) acc[g][0] = acc[g][1] = acc[g][2] = acc[g][3] = V::zero();
    for (std::size_t i = 0; i < kDotBlock; i += 4 * kL) {
      for (int g = 0; g < G; ++g) {
        const auto* xg = x + (b + g) * kDotBlock + i;
        const auto* yg = y + (b + g) * kDotBlock + i;
        for (std::size_t u = 0; u < 4; ++u) {
          acc[g][u] = V::mul_add(L::load(xg + u * kL), L::load(yg + u * kL), acc[g][u]);
        }
      }
    }
    for (int g = 0; g < G; ++g) {
      partials[b + g] = block_sum<V>(acc[g]);
    }
  }
  for (; b < blocks; ++b) {
    partials[b] = dot_block<V, L>(x + b * kDotBlock, 1, y + b * kDotBlock, 1, kDotBlock);
  }
}

// rows_panel's loops over its R rows are unrolled whole, so that its
// accumulator arrays live in registers: for R = 6 GCC 12 left the loops
// after the main one rolled and kept the arrays in memory (zeroed by
// rep stos on entry: a 32 x 32 sgemv took 240 ns instead of 88).
#define TESSERA_UNROLL_ROWS _Pragma("GCC unroll 16")

// How gemv reads A: its element type, a register of it, one value of it.
// load_padded of A's elements, widened by LA.
template <class V, class LA>
inline typename V::Reg load_padded_a(const typename LA::Elem* p, std::size_t count) {
  if constexpr (std::is_same_v<LA, PlainA<V>>) return load_padded<V>(p, count);
  typename V::Scalar buf[V::kLanes] = {};
  for (std::size_t l = 0; l < count; ++l) buf[l] = LA::value(p[l]);
  return V::load(buf);
}

// Rows form, R rows at once sharing the loads of x. Each row has two
// accumulators (even and odd vector steps), a single trailing vector goes to
// the first and a zero-padded partial vector to the second: the same sequence
// for every R, so a row's bits do not depend on its panel. dots[r] is row
// r's two accumulators added, ready for its lane sum. Always inlined: the
// accumulators must stay in registers.
template <class V, int R, class LA = PlainA<V>>
[[gnu::always_inline]] inline void rows_dots(const typename LA::Elem* a, std::size_t lda,
                                             std::size_t k, const typename V::Scalar* x,
                                             typename V::Reg (&dots)[R]) {
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  Reg acc0[R], acc1[R];
  TESSERA_UNROLL_ROWS
  for (int r = 0; r < R; ++r) acc0[r] = acc1[r] = V::zero();
  std::size_t p = 0;
  for (; p + 2 * kL <= k; p += 2 * kL) {
    const Reg x0 = V::load(x + p), x1 = V::load(x + p + kL);
    TESSERA_UNROLL_ROWS
    for (int r = 0; r < R; ++r) {
      acc0[r] = V::mul_add(LA::load(a + r * lda + p), x0, acc0[r]);
      acc1[r] = V::mul_add(LA::load(a + r * lda + p + kL), x1, acc1[r]);
    }
  }
  if (p + kL <= k) {
    const Reg x0 = V::load(x + p);
    TESSERA_UNROLL_ROWS
    for (int r = 0; r < R; ++r) acc0[r] = V::mul_add(LA::load(a + r * lda + p), x0, acc0[r]);
    p += kL;
  }
  if (p < k) {
    const Reg x0 = load_padded<V>(x + p, k - p);
    TESSERA_UNROLL_ROWS
    for (int r = 0; r < R; ++r) {
      acc1[r] = V::mul_add(load_padded_a<V, LA>(a + r * lda + p, k - p), x0, acc1[r]);
    }
  }
  TESSERA_UNROLL_ROWS
  for (int r = 0; r < R; ++r) dots[r] = V::add(acc0[r], acc1[r]);
}

// Whether the traits sum eight rows' lanes at once (V::sum_lanes8: a
// transpose tree with reduce_lanes' bits, row i's sum in lane i).
template <class V>
concept HasSumLanes8 = requires(const typename V::Reg (&v)[8]) { V::sum_lanes8(v); };

// R rows' raw sums into out[0, R).
template <class V, int R, class LA = PlainA<V>>
inline void rows_panel(const typename LA::Elem* a, std::size_t lda, std::size_t k,
                       const typename V::Scalar* x, typename V::Scalar* out) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  Reg dots[R];
  rows_dots<V, R, LA>(a, lda, k, x, dots);
  if constexpr (R == 8 && HasSumLanes8<V>) {
    V::store_lanes(out, V::sum_lanes8(dots), V::first_lanes(8));
    return;
  }
  int r = 0;
  if constexpr (requires(Reg v, T * o) { V::sum_lanes4(v, v, v, v, o); }) {
    // The traits' in-register form of reduce_lanes, four rows at a time:
    // the same bits.
    TESSERA_UNROLL_ROWS
    for (; r + 4 <= R; r += 4) V::sum_lanes4(dots[r], dots[r + 1], dots[r + 2], dots[r + 3], out + r);
  }
  TESSERA_UNROLL_ROWS
  for (; r < R; ++r) out[r] = reduce_lanes<V>(dots[r]);
}

// Six rows: twelve accumulators and two x vectors fit the sixteen registers
// of SSE2 and AVX2, and six rows read side by side keep more lines in flight
// than four. Zen 3, one thread, AVX2 sgemv: 4096^2 27-29 -> 31-32 GB/s,
// 2048^2 42-47 -> 51 GB/s, 512^2 46-47 both. (Eight rows spill.) Eight on
// a level with 32 registers and the eight-row lane sums (AVX-512): sixteen
// accumulators, and one transpose tree for the whole panel. A row's bits do
// not depend on its panel.
template <class V>
inline constexpr int kRowsPanel = HasSumLanes8<V> ? 8 : 6;

template <class V, class LA = PlainA<V>>
void gemv_rows(const typename LA::Elem* a, std::size_t lda, std::size_t rows,
               std::size_t k, const typename V::Scalar* x, typename V::Scalar* out) {
  constexpr int kPanel = kRowsPanel<V>;
  std::size_t i = 0;
  for (; i + kPanel <= rows; i += kPanel) {
    rows_panel<V, kPanel, LA>(a + i * lda, lda, k, x, out + i);
  }
  // A remainder of four or more rows shares its loads of x and its lane sums.
  if (i + 4 <= rows) {
    rows_panel<V, 4, LA>(a + i * lda, lda, k, x, out + i);
    i += 4;
  }
  for (; i < rows; ++i) rows_panel<V, 1, LA>(a + i * lda, lda, k, x, out + i);
}

// gemv_rows and the driver's epilogue in one pass (GemvRowsYFn): each
// panel's sums stay on the stack and go straight into y, with no scratch
// of the whole y and no second call. The epilogue is apply_epilogue's
// arithmetic (blas1_api.cc; FMA contraction is off in-tree).
template <class V>
void gemv_rows_y(const typename V::Scalar* a, std::size_t lda, std::size_t rows, std::size_t k,
                 const typename V::Scalar* x, typename V::Scalar alpha,
                 typename V::Scalar beta, typename V::Scalar* y) {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  constexpr int kPanel = kRowsPanel<V>;
  std::size_t i = 0;
  if constexpr (HasSumLanes8<V>) {
    // Eight rows' sums leave the tree in one register and go to y from
    // there: a store of the sums read back lane by lane waited on store
    // forwarding (masked stores do not forward).
    static_assert(kPanel == 8);
    if constexpr (requires { typename V::Narrow::Reg; }) {
      using N = typename V::Narrow;
      if constexpr (HasSumLanes8<N>) {
        // At most 16 columns, on the half-width registers (Zen 4 runs a
        // 512-bit operation as two 256-bit halves, and here half the lanes
        // of every 512-bit step are zeros). The same bits: rows_dots<N>
        // adds columns l and l + 8 as the 16-lane tree's first step does
        // (the 16-lane dots add a zero accumulator first, exact: a fused
        // multiply-add onto +0 is never -0), then N's tree continues with
        // l + 4, + 2, + 1.
        static_assert(2 * N::kLanes == V::kLanes);
        if (k <= static_cast<std::size_t>(V::kLanes)) {
          for (; i + 8 <= rows; i += 8) {
            typename N::Reg dots[8];
            rows_dots<N, 8>(a + i * lda, lda, k, x, dots);
            typename N::Reg v = N::mul(N::set1(alpha), N::sum_lanes8(dots));
            if (beta != T(0)) v = N::add(v, N::mul(N::set1(beta), N::load(y + i)));
            N::store(y + i, v);
          }
        }
      }
    }
    const auto eight = V::first_lanes(8);
    for (; i + 8 <= rows; i += 8) {
      Reg dots[8];
      rows_dots<V, 8>(a + i * lda, lda, k, x, dots);
      Reg v = V::mul(V::set1(alpha), V::sum_lanes8(dots));
      if (beta != T(0)) v = V::add(v, V::mul(V::set1(beta), V::load_lanes(y + i, eight)));
      V::store_lanes(y + i, v, eight);
    }
  }
  T sums[kPanel];
  const auto finish = [&](std::size_t at, int count) {
    if (beta == T(0)) {
      for (int r = 0; r < count; ++r) y[at + r] = alpha * sums[r];
    } else {
      for (int r = 0; r < count; ++r) y[at + r] = alpha * sums[r] + beta * y[at + r];
    }
  };
  for (; i + kPanel <= rows; i += kPanel) {
    rows_panel<V, kPanel>(a + i * lda, lda, k, x, sums);
    finish(i, kPanel);
  }
  if (i + 4 <= rows) {
    rows_panel<V, 4>(a + i * lda, lda, k, x, sums);
    finish(i, 4);
    i += 4;
  }
  for (; i < rows; ++i) {
    rows_panel<V, 1>(a + i * lda, lda, k, x, sums);
    finish(i, 1);
  }
}

// Columns form: every out[i] is acc = 0, then acc = mul_add(a(i, j), x[j], acc)
// for j = 0, 1, ..., k-1 in order. Full vectors of rows keep acc in `out`
// (L1: at most kGemvRowChunk elements) and take eight columns per pass (then
// four, then one); the last partial vector of rows goes through a
// zero-padded register. All are the same lane-wise sequence, so position
// never changes a bit. Eight column streams in flight, not four: column-
// major gemv at n = 4000 from memory, one thread, Zen 4, against OpenBLAS:
// sgemv 0.78-0.81x -> 0.93-1.00x, dgemv 0.98x -> 1.10-1.15x.
template <class V, class LA = PlainA<V>>
void gemv_cols(const typename LA::Elem* a, std::size_t lda, std::size_t rows,
               std::size_t k, const typename V::Scalar* x, typename V::Scalar* out) {
  using T = typename V::Scalar;
  using E = typename LA::Elem;
  using Reg = typename V::Reg;
  constexpr std::size_t kL = V::kLanes;
  const std::size_t full = rows / kL * kL;
  for (std::size_t i = 0; i < full; i += kL) V::store(out + i, V::zero());
  std::size_t j = 0;
  for (; j + 8 <= k; j += 8) {
    Reg xs[8];
    const E* c[8];
    TESSERA_UNROLL_ROWS
    for (int q = 0; q < 8; ++q) {
      xs[q] = V::set1(x[j + q]);
      c[q] = a + (j + q) * lda;
    }
    for (std::size_t i = 0; i < full; i += kL) {
      Reg acc = V::load(out + i);
      TESSERA_UNROLL_ROWS
      for (int q = 0; q < 8; ++q) acc = V::mul_add(LA::load(c[q] + i), xs[q], acc);
      V::store(out + i, acc);
    }
  }
  for (; j + 4 <= k; j += 4) {
    const Reg x0 = V::set1(x[j]), x1 = V::set1(x[j + 1]);
    const Reg x2 = V::set1(x[j + 2]), x3 = V::set1(x[j + 3]);
    const E* c0 = a + j * lda;
    const E* c1 = c0 + lda;
    const E* c2 = c1 + lda;
    const E* c3 = c2 + lda;
    for (std::size_t i = 0; i < full; i += kL) {
      Reg acc = V::load(out + i);
      acc = V::mul_add(LA::load(c0 + i), x0, acc);
      acc = V::mul_add(LA::load(c1 + i), x1, acc);
      acc = V::mul_add(LA::load(c2 + i), x2, acc);
      acc = V::mul_add(LA::load(c3 + i), x3, acc);
      V::store(out + i, acc);
    }
  }
  for (; j < k; ++j) {
    const Reg xj = V::set1(x[j]);
    const E* c = a + j * lda;
    for (std::size_t i = 0; i < full; i += kL) {
      V::store(out + i, V::mul_add(LA::load(c + i), xj, V::load(out + i)));
    }
  }
  if (full < rows) {
    Reg acc = V::zero();
    for (std::size_t jj = 0; jj < k; ++jj) {
      T ba[kL] = {};
      for (std::size_t l = 0; full + l < rows; ++l) ba[l] = LA::value(a[jj * lda + full + l]);
      acc = V::mul_add(V::load(ba), V::set1(x[jj]), acc);
    }
    T lanes[kL];
    V::store(lanes, acc);
    for (std::size_t l = 0; full + l < rows; ++l) out[full + l] = lanes[l];
  }
}

template <class V>
constexpr Blas1Set<typename V::Scalar> blas1_set() {
  Blas1Set<typename V::Scalar> s;
  s.dot = &dot_block<V>;
  s.dot_blocks = &dot_blocks<V>;
  s.gemv_rows = &gemv_rows<V>;
  s.gemv_cols = &gemv_cols<V>;
  s.gemv_rows_y = &gemv_rows_y<V>;
  s.gemv_rows_panel = kRowsPanel<V>;
  s.gemv_cols_panel = V::kLanes;
  return s;
}

template <class F32, class F64, class Half>
constexpr Blas1Kernels blas1_kernels() {
  using F16A = HalfA<F32, Half, false>;
  using Bf16A = HalfA<F32, Half, true>;
  return {blas1_set<F32>(), blas1_set<F64>(),
          {&gemv_rows<F32, F16A>, &gemv_cols<F32, F16A>, &dot_block<F32, F16A>,
           &dot_blocks<F32, F16A>},
          {&gemv_rows<F32, Bf16A>, &gemv_cols<F32, Bf16A>, &dot_block<F32, Bf16A>,
           &dot_blocks<F32, Bf16A>}};
}

}  // namespace tessera::core::blas1
