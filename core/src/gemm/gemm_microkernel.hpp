// The GEMM microkernel and column-tile loop, written once over a vector
// traits type V (core/src/simd/vec_<isa>.hpp) and a register tile of
// MR rows x NV vectors (nr = NV * V::kLanes columns).
//
// Included only by the per-ISA backend files (core/src/isa/kernels_<isa>.cc),
// which are compiled with that ISA's flags. Every template here takes V, so
// each ISA's instantiations are distinct symbols: an AVX-512 copy can never
// be merged into the SSE2 path by the linker.
//
// Per output element and depth slice the arithmetic is fixed by the tile
// alone: acc = 0; acc = mul_add(a_ip, b_pj, acc) for p in slice order; then
// C = alpha*acc (+ beta*C in the first slice, + C in later ones). Edge tiles
// run the same code on a local tile, so an element's bits never depend on
// where its tile sits or who computed it (design.md §Reproducibility).
#pragma once

#include <concepts>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "core/src/gemm/gemm_epilogue_apply.hpp"
#include "core/src/gemm/gemm_pack.hpp"
#include "core/src/kernels/gemm_kernel.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define TESSERA_GEMM_INLINE inline __attribute__((always_inline))
#define TESSERA_GEMM_PREFETCH(p) __builtin_prefetch(p)
// Full unrolling of the constant-trip tile loops (GCC and Clang both read
// this spelling); without it the tile would be an array in memory.
#define TESSERA_GEMM_UNROLL _Pragma("GCC unroll 32")
#define TESSERA_GEMM_NO_UNROLL _Pragma("GCC unroll 1")
#define TESSERA_GEMM_LAMBDA_INLINE __attribute__((always_inline))
#else
#define TESSERA_GEMM_LAMBDA_INLINE
#define TESSERA_GEMM_UNROLL
#define TESSERA_GEMM_NO_UNROLL
#define TESSERA_GEMM_INLINE inline
#define TESSERA_GEMM_PREFETCH(p) ((void)(p))
#endif

namespace tessera::core::gemm {

// Operand accessors: where the microkernel's broadcast values (A side) and
// vectors (B side) come from. The arithmetic does not depend on them, so a
// packed and a direct (unpacked) run produce the same bits. An A accessor
// says how many depth steps to unroll (kUnroll) and whether it holds row
// strides in general registers (kStrideRegisters: then the epilogue
// addresses C with one bumped row pointer, see Microkernel::run).

// Whether an epilogue rides in the plain store (Microkernel::run's kPost):
// a bias add and relu need no constants and a register or two.
template <class T>
inline bool epilogue_in_store(const GemmEpilogueSpec<T>& ep) {
  return ep.act == GemmAct::kNone || ep.act == GemmAct::kRelu;
}

// What the fused epilogue store of one tile needs besides the product.
template <class T>
struct TileEpilogue {
  GemmEpilogueSpec<T> spec;  // seen from the tile's origin
  T alpha, beta;
  GemmUpdate update;
};

// One depth step of the product, acc + a*b: the traits' `dot` where they
// have one (avx512::Bf16Pairs: each 32-bit lane a pair of bf16 depth
// values, summed by vdpbf16ps), else the fused mul_add. Everything else in
// a kernel set (packing, stores, alpha, beta, epilogues) is the f32 code.
template <class V>
TESSERA_GEMM_INLINE typename V::Reg depth_step(typename V::Reg a, typename V::Reg b,
                                               typename V::Reg acc) {
  if constexpr (requires { V::dot(a, b, acc); }) {
    return V::dot(a, b, acc);
  } else {
    return V::mul_add(a, b, acc);
  }
}

// A packed A panel: MR values per depth step, contiguous. UNROLL depth
// steps per loop iteration: 4 lets the steps become immediate displacements
// (native AVX levels); 1 keeps a JIT's register allocation simple (V8 runs
// the 128-bit kernels ~6% faster without it).
template <class V, int MR, int UNROLL = 4>
struct PackedA {
  static constexpr int kUnroll = UNROLL;
  static constexpr bool kStrideRegisters = false;
  const typename V::Scalar* p;
  TESSERA_GEMM_INLINE typename V::Reg get(int i) const { return V::broadcast(p + i); }
  // The step's MR values are contiguous: vectors of kLanes of them, for
  // traits that multiply by a lane (V::mul_add_lane).
  TESSERA_GEMM_INLINE typename V::Reg lanes(int r) const { return V::load(p + r * V::kLanes); }
  TESSERA_GEMM_INLINE void next() { p += MR; }
};

// MR rows of A read in place: A(i, p) = row(i)[p*step], row(i) = base +
// i*rs. For MR <= 8 the row addresses are base + {1, 2, 4, 8} x {rs, 3rs,
// 5rs, 7rs}: four stride registers and x86 scaled-index addressing instead
// of eight pointers (which made GCC spill the loop counter).
template <class V, int MR>
struct DirectA {
  // Not unrolled: GCC folds unrolled steps into extra address registers and
  // spills them; one step per iteration keeps the four stride registers.
  static constexpr int kUnroll = 1;
  static constexpr bool kStrideRegisters = true;
  using T = typename V::Scalar;
  const char* base;
  std::int64_t rs1, rs3, rs5, rs7;  // bytes
  std::int64_t step;                // bytes per depth step

  DirectA(const T* a, std::int64_t rs, std::int64_t cs) {
    base = reinterpret_cast<const char*>(a);
    rs1 = rs * static_cast<std::int64_t>(sizeof(T));
    rs3 = 3 * rs1, rs5 = 5 * rs1, rs7 = 7 * rs1;
    step = cs * static_cast<std::int64_t>(sizeof(T));
  }
  TESSERA_GEMM_INLINE const T* row(int i) const {
    const char* p = base;
    if (MR <= 8) {
      switch (i) {
        case 0: break;
        case 1: p += rs1; break;
        case 2: p += 2 * rs1; break;
        case 3: p += rs3; break;
        case 4: p += 4 * rs1; break;
        case 5: p += rs5; break;
        case 6: p += 2 * rs3; break;
        default: p += rs7; break;
      }
    } else {
      p += i * rs1;
    }
    return reinterpret_cast<const T*>(p);
  }
  TESSERA_GEMM_INLINE typename V::Reg get(int i) const { return V::broadcast(row(i)); }
  TESSERA_GEMM_INLINE void next() { base += step; }
};

// Depth steps DirectUnitA unrolls: the traits' kDirectUnroll where they
// set one (AVX2 and SSE2: one step with GCC, which spilled the unrolled
// loop, four with clang; vec_avx2.hpp has the figures), else 4.
template <class V>
constexpr int direct_unit_unroll() {
  if constexpr (requires { V::kDirectUnroll; }) {
    return V::kDirectUnroll;
  } else {
    return 4;
  }
}

// DirectA for A rows contiguous along the depth (cs == 1: row-major A, or
// column-major A transposed): the step is one element, a compile-time
// constant, so unrolled steps become immediate displacements.
template <class V, int MR>
struct DirectUnitA : DirectA<V, MR> {
  static constexpr int kUnroll = direct_unit_unroll<V>();
  using T = typename V::Scalar;
  DirectUnitA(const T* a, std::int64_t rs) : DirectA<V, MR>(a, rs, 1) {}
  TESSERA_GEMM_INLINE void next() { this->base += sizeof(T); }
};

// The same for an edge tile of rows < MR valid rows: rows past the valid
// ones repeat the last valid row (read, never stored), so nothing outside A
// is read.
template <class V, int MR>
struct DirectEdgeA {
  static constexpr int kUnroll = 1;
  static constexpr bool kStrideRegisters = true;
  using T = typename V::Scalar;
  const T* base;
  std::int64_t offset[MR];
  std::int64_t step;

  DirectEdgeA(const T* a, std::int64_t rs, std::int64_t cs, std::int64_t rows)
      : base(a), step(cs) {
    for (int r = 0; r < MR; ++r) offset[r] = (r < rows ? r : rows - 1) * rs;
  }
  TESSERA_GEMM_INLINE typename V::Reg get(int i) const { return V::broadcast(base + offset[i]); }
  TESSERA_GEMM_INLINE void next() { base += step; }
};

// B panel rows: NV vectors per depth step at p, then p += step (kNr for a
// packed panel, the row stride for B read in place).
template <class V, int NV>
struct RowsB {
  const typename V::Scalar* p;
  std::int64_t step;
  TESSERA_GEMM_INLINE typename V::Reg get(int v) const {
    return V::load(p + v * V::kLanes);
  }
  TESSERA_GEMM_INLINE void next() { p += step; }
};

// Traits with lane-masked loads and stores (AVX2, AVX-512): a partial tile
// of the direct path then reads B and writes C in place, with no zero-padded
// copy of the B panel and no staging tile for C (at 8 x 8 x 8 those copies,
// memset and memcpy calls, cost more than the product).
template <class V>
concept HasLaneMasks = requires(const typename V::Scalar* p, typename V::Scalar* q,
                                typename V::Reg r, typename V::Mask m) {
  { V::first_lanes(0) } -> std::same_as<typename V::Mask>;
  { V::load_lanes(p, m) } -> std::same_as<typename V::Reg>;
  V::store_lanes(q, r, m);
};

// The columns [0, cols) of a partial tile NV vectors wide, where
// (NV - 1) * lanes < cols <= NV * lanes: every partial tile is as many
// vectors wide as its columns need, so only the last vector is masked. The
// others load and store plainly: from memory, a masked load of a whole
// vector cost more than a plain one (AVX-512, Zen 5: 1000 x 40^3 f32 with
// every vector of its 8 x 48 tiles masked, 2.0 us per product against
// 1.4 us with 8 x 32 plain + 8 x 16 masked tiles).
template <class V, int NV>
struct ColumnMasks {
  typename V::Mask last;
  explicit ColumnMasks(std::int64_t cols)
      : last(V::first_lanes(static_cast<int>(cols - (NV - 1) * V::kLanes))) {}
  TESSERA_GEMM_INLINE typename V::Reg load(const typename V::Scalar* p, int v) const {
    return v + 1 < NV ? V::load(p) : V::load_lanes(p, last);
  }
  TESSERA_GEMM_INLINE void store(typename V::Scalar* p, typename V::Reg r, int v) const {
    if (v + 1 < NV) {
      V::store(p, r);
    } else {
      V::store_lanes(p, r, last);
    }
  }
};

// B panel rows read in place for a partial panel of `cols` columns: lanes
// past cols are zero (as in the zero-padded copy) and never read.
template <class V, int NV>
struct MaskedRowsB {
  const typename V::Scalar* p;
  std::int64_t step;
  ColumnMasks<V, NV> cols;
  TESSERA_GEMM_INLINE typename V::Reg get(int v) const {
    return cols.load(p + v * V::kLanes, v);
  }
  TESSERA_GEMM_INLINE void next() { p += step; }
};

// Where a partial tile's store stops: rows [0, rows), the columns of `cols`.
template <class V, int NV>
struct TileExtent {
  std::int64_t rows;
  ColumnMasks<V, NV> cols;
};

template <class V, int MR, int NV>
struct Microkernel {
  using T = typename V::Scalar;
  using Reg = typename V::Reg;
  static constexpr int kLanes = V::kLanes;
  static constexpr int kMr = MR;
  static constexpr int kNr = NV * kLanes;

  // The lane form of a depth step: traits with mul_add_lane and an A
  // accessor whose step values are contiguous, MR a multiple of kLanes.
  template <class A>
  static constexpr bool kLaneStep =
      requires(Reg r, const A& a) {
        V::template mul_add_lane<0>(r, r, r);
        a.lanes(0);
      } && MR % kLanes == 0;

  // f(std::integral_constant<int, i>) for i = 0..MR-1, each with i a
  // constant expression (a lane index must be one).
  template <class F>
  static TESSERA_GEMM_INLINE void each_row(F&& f) {
    [&]<int... I>(std::integer_sequence<int, I...>) TESSERA_GEMM_LAMBDA_INLINE {
      (f(std::integral_constant<int, I>{}), ...);
    }(std::make_integer_sequence<int, MR>{});
  }

  // C[0..MR) x [0..NR) (row stride ldc) updated with the product of MR rows
  // of A and NR columns of B over `depth` steps. The loops have constant
  // trip counts and are fully unrolled, so the accumulator tile lives in
  // registers.
  //
  // kPartial (traits with lane masks): only rows [0, extent->rows) and the
  // columns of extent->cols of C are read and written.
  //
  // kPost: `post` (an epilogue whose activation is none or relu, seen from
  // the tile's origin) is applied to each value the plain store forms, in
  // registers: x + bias, then relu. It needs no constants and a register
  // or two, so it rides in the store itself; gelu and sigmoid go through
  // run_epilogue. The plain instantiation has none of this code.
  template <bool kPartial = false, bool kPost = false, class A, class B>
  static TESSERA_GEMM_INLINE void run(std::int64_t depth, A a, B b, T* c,
                                      std::int64_t ldc, T alpha, T beta,
                                      GemmUpdate update,
                                      const TileExtent<V, NV>* extent = nullptr,
                                      const GemmEpilogueSpec<T>* post = nullptr) {
    Reg acc[MR][NV];
    TESSERA_GEMM_UNROLL
    for (int i = 0; i < MR; ++i) {
      TESSERA_GEMM_UNROLL
      for (int v = 0; v < NV; ++v) acc[i][v] = V::zero();
    }
    // The C tile is touched once, at the end: start its lines on their way.
    if (update != GemmUpdate::kOverwrite) {
      TESSERA_GEMM_UNROLL
      for (int i = 0; i < MR; ++i) {
        if constexpr (kPartial) {
          if (i >= extent->rows) break;
        }
        TESSERA_GEMM_PREFETCH(c + i * ldc);
        TESSERA_GEMM_PREFETCH(c + i * ldc + kNr - 1);
      }
    }
    auto step = [&]() TESSERA_GEMM_LAMBDA_INLINE {
      Reg bv[NV];
      TESSERA_GEMM_UNROLL
      for (int v = 0; v < NV; ++v) bv[v] = b.get(v);
      if constexpr (kLaneStep<A>) {
        // NEON: the 8x12 f32 tile's loop needs 24 accumulators and 3 B
        // vectors; with A as MR/kLanes vectors multiplied by lane it fits
        // the 32 registers with room, where eight broadcasts left GCC's
        // allocation one perturbation away from spilling accumulators.
        Reg al[MR / kLanes];
        TESSERA_GEMM_UNROLL
        for (int r = 0; r < MR / kLanes; ++r) al[r] = a.lanes(r);
        each_row([&](auto row) TESSERA_GEMM_LAMBDA_INLINE {
          constexpr int i = decltype(row)::value;
          TESSERA_GEMM_UNROLL
          for (int v = 0; v < NV; ++v) {
            acc[i][v] = V::template mul_add_lane<i % kLanes>(al[i / kLanes], bv[v], acc[i][v]);
          }
        });
      } else {
        TESSERA_GEMM_UNROLL
        for (int i = 0; i < MR; ++i) {
          const Reg ai = a.get(i);
          TESSERA_GEMM_UNROLL
          for (int v = 0; v < NV; ++v) acc[i][v] = depth_step<V>(ai, bv[v], acc[i][v]);
        }
      }
      a.next();
      b.next();
    };
    std::int64_t p = 0;
    if constexpr (A::kUnroll == 4) {
      for (; p + 4 <= depth; p += 4) {
        step();
        step();
        step();
        step();
      }
    } else if constexpr (A::kUnroll == 2) {
      for (; p + 2 <= depth; p += 2) {
        step();
        step();
      }
    }
    for (; p < depth; ++p) step();

    // Row addresses of C. Accessors that keep A's row strides in general
    // registers (the direct path) bump one row pointer: with c + i*ldc the
    // compiler keeps every i*ldc live at once, runs out of general
    // registers and parks them in vector registers, serialising the stores
    // behind cross-domain moves (~3% of a 32 x 32 x 32 product). The packed
    // path keeps c + i*ldc: there the bumped pointer made GCC 12 order C's
    // loads and stores so that dgemm 1024 ran at 44 instead of 52 GFLOP/s.
    // finish(x, i, v): the post epilogue on the value x of element vector
    // (i, v) (identity without kPost).
    auto finish = [&](Reg x, int i, int v) TESSERA_GEMM_LAMBDA_INLINE {
      if constexpr (kPost) {
        if (post->axis == GemmBiasAxis::kColumn) {
          const T* bp = post->bias + v * kLanes;
          if constexpr (kPartial) {
            x = V::add(x, extent->cols.load(bp, v));
          } else {
            x = V::add(x, V::load(bp));
          }
        } else if (post->axis == GemmBiasAxis::kRow) {
          x = V::add(x, V::broadcast(post->bias + i));
        }
        if (post->act == GemmAct::kRelu) x = V::relu(x);
      }
      (void)i, (void)v;
      return x;
    };
    // combine(acc, load) forms the value to store; load() reads C's vector.
    auto store_all = [&](auto combine) TESSERA_GEMM_LAMBDA_INLINE {
      T* row = c;
      TESSERA_GEMM_UNROLL
      for (int i = 0; i < MR; ++i) {
        if constexpr (!A::kStrideRegisters) row = c + i * ldc;
        if constexpr (kPartial) {
          if (i >= extent->rows) break;
        }
        TESSERA_GEMM_UNROLL
        for (int v = 0; v < NV; ++v) {
          T* cp = row + v * kLanes;
          if constexpr (kPartial) {
            const ColumnMasks<V, NV>& cols = extent->cols;
            cols.store(cp,
                       finish(combine(acc[i][v],
                                      [&]() TESSERA_GEMM_LAMBDA_INLINE {
                                        return cols.load(cp, v);
                                      }),
                              i, v),
                       v);
          } else {
            V::store(cp, finish(combine(acc[i][v],
                                        [&]() TESSERA_GEMM_LAMBDA_INLINE { return V::load(cp); }),
                                i, v));
          }
        }
        if constexpr (A::kStrideRegisters) row += ldc;
      }
    };
    // alpha == 1 skips the multiply: 1*acc is exact and fused or not,
    // mul_add(1, acc, x) rounds acc + x once, so the bits are those of the
    // general form (and the FMA pipes stay free for the next tile). Each
    // combination gets its own unrolled loop: no per-element branches.
    // With a post epilogue (fused bias/relu calls only) the general forms
    // serve alpha == 1 too, for the same bits: half the store copies in
    // every such tile variant (the f32 AVX-512 kernel set compiled in 24
    // s instead of 33 with clang 19, 19% less code).
    const Reg va = V::set1(alpha);
    const Reg vb = V::set1(beta);
    const bool unit = !kPost && alpha == T(1);
    if (update == GemmUpdate::kOverwrite) {
      if (unit) {
        store_all([](Reg x, auto) TESSERA_GEMM_LAMBDA_INLINE { return x; });
      } else {
        store_all([&](Reg x, auto) TESSERA_GEMM_LAMBDA_INLINE { return V::mul(va, x); });
      }
    } else if (update == GemmUpdate::kScale) {
      if (unit) {
        store_all([&](Reg x, auto load) TESSERA_GEMM_LAMBDA_INLINE {
          return V::add(x, V::mul(vb, load()));
        });
      } else {
        store_all([&](Reg x, auto load) TESSERA_GEMM_LAMBDA_INLINE {
          return V::mul_add(va, x, V::mul(vb, load()));
        });
      }
    } else {
      if (unit) {
        store_all([](Reg x, auto load) TESSERA_GEMM_LAMBDA_INLINE {
          return V::add(x, load());
        });
      } else {
        store_all([&](Reg x, auto load) TESSERA_GEMM_LAMBDA_INLINE {
          return V::mul_add(va, x, load());
        });
      }
    }
  }

  // A tile with the fused epilogue, in two calls. accumulate() is run()
  // storing the bare product (alpha 1, overwrite: exact) into an MR x NR
  // buffer, out of line: its depth loop is then the plain one, with no call
  // after it and nothing of the epilogue live across it. (Kept inline, the
  // epilogue's values and the call made GCC spill accumulators inside the
  // loop on NEON, whose 8x12 loop uses all 32 registers:
  // tests/aarch64/neon_spills.mjs; a reference to the accumulators escaped
  // and kept the whole tile in memory on AVX-512.) store_epilogue() then
  // forms the value the plain store would write from the buffer (the
  // general alpha forms: with alpha == 1 they round exactly as the unit
  // forms in run()), adds the bias and applies the activation, in
  // registers, and stores C once. One extra store and load of the tile per
  // tile: nothing beside a depth loop of kc steps.
  template <class A, class B>
  static __attribute__((noinline)) void accumulate(std::int64_t depth, A a, B b, T* tile) {
    run(depth, a, b, tile, kNr, T(1), T(0), GemmUpdate::kOverwrite);
  }

  // kPartial (traits with lane masks): C, and a column bias, are read and
  // written only inside rows x cols of `extent`, under masks; the values
  // formed are run_edge's (the same operations on the same elements).
  template <bool kPartial = false, class A, class B>
  static TESSERA_GEMM_INLINE void run_epilogue(std::int64_t depth, A a, B b, T* c,
                                               std::int64_t ldc, const TileEpilogue<T>& te,
                                               const TileExtent<V, NV>* extent = nullptr) {
    alignas(64) T product[MR * kNr];
    accumulate(depth, a, b, product);
    store_epilogue<kPartial>(product, c, ldc, te, extent);
  }

  template <bool kPartial = false>
  static void store_epilogue(const T* tile, T* c, std::int64_t ldc, const TileEpilogue<T>& te,
                             const TileExtent<V, NV>* extent = nullptr) {
    const Reg va = V::set1(te.alpha);
    const Reg vb = V::set1(te.beta);
    const GemmUpdate update = te.update;
    const GemmEpilogueSpec<T>& ep = te.spec;
    // Rows past extent->rows are neither read nor written.
    auto outside = [&](int i) TESSERA_GEMM_LAMBDA_INLINE {
      if constexpr (kPartial) return i >= extent->rows;
      return false;
    };
    auto load = [&](const T* p, int v) TESSERA_GEMM_LAMBDA_INLINE {
      if constexpr (kPartial) return extent->cols.load(p, v);
      return V::load(p);
    };
    Reg acc[MR][NV];
    TESSERA_GEMM_UNROLL
    for (int i = 0; i < MR; ++i) {
      TESSERA_GEMM_UNROLL
      for (int v = 0; v < NV; ++v) acc[i][v] = V::load(tile + i * kNr + v * kLanes);
    }
    if (update == GemmUpdate::kOverwrite) {
      // 1*acc is acc (as in run()): the multiply only when alpha is not 1.
      if (te.alpha != T(1)) {
        TESSERA_GEMM_UNROLL
        for (int i = 0; i < MR; ++i) {
          TESSERA_GEMM_UNROLL
          for (int v = 0; v < NV; ++v) acc[i][v] = V::mul(va, acc[i][v]);
        }
      }
    } else if (update == GemmUpdate::kScale) {
      TESSERA_GEMM_UNROLL
      for (int i = 0; i < MR; ++i) {
        if (outside(i)) break;
        TESSERA_GEMM_UNROLL
        for (int v = 0; v < NV; ++v) {
          acc[i][v] = V::mul_add(va, acc[i][v], V::mul(vb, load(c + i * ldc + v * kLanes, v)));
        }
      }
    } else {
      TESSERA_GEMM_UNROLL
      for (int i = 0; i < MR; ++i) {
        if (outside(i)) break;
        TESSERA_GEMM_UNROLL
        for (int v = 0; v < NV; ++v) {
          acc[i][v] = V::mul_add(va, acc[i][v], load(c + i * ldc + v * kLanes, v));
        }
      }
    }
    dispatch_epilogue(ep.axis, ep.act, [&](auto axis_tag, auto act_tag) TESSERA_GEMM_LAMBDA_INLINE {
      constexpr GemmBiasAxis kAxis = decltype(axis_tag)::value;
      constexpr GemmAct kAct = decltype(act_tag)::value;
      Reg col_bias[NV];
      if constexpr (kAxis == GemmBiasAxis::kColumn) {
        TESSERA_GEMM_UNROLL
        for (int v = 0; v < NV; ++v) col_bias[v] = load(ep.bias + v * kLanes, v);
      }
      auto store_c = [&](int i, int v, Reg y) TESSERA_GEMM_LAMBDA_INLINE {
        T* const cp = c + i * ldc + v * kLanes;
        if constexpr (kPartial) {
          extent->cols.store(cp, y, v);
        } else {
          V::store(cp, y);
        }
      };
      // gelu and sigmoid are a few dozen instructions each (vmath.hpp,
      // always inlined): applied in the unrolled tile loop they would be
      // MR x NV copies per instantiation. They run instead from a staged
      // copy of the tile in a rolled loop, one copy, the same operations.
      constexpr bool kHeavy = kAct == GemmAct::kGelu || kAct == GemmAct::kSigmoid;
      alignas(64) T staged[kHeavy ? MR * kNr : 1];
      TESSERA_GEMM_UNROLL
      for (int i = 0; i < MR; ++i) {
        if (outside(i)) break;
        Reg row_bias = V::zero();
        if constexpr (kAxis == GemmBiasAxis::kRow) row_bias = V::broadcast(ep.bias + i);
        TESSERA_GEMM_UNROLL
        for (int v = 0; v < NV; ++v) {
          Reg x = acc[i][v];
          if constexpr (kAxis == GemmBiasAxis::kColumn) x = V::add(x, col_bias[v]);
          if constexpr (kAxis == GemmBiasAxis::kRow) x = V::add(x, row_bias);
          if constexpr (kHeavy) {
            V::store(staged + i * kNr + v * kLanes, x);
          } else {
            store_c(i, v, activate<V, kAct>(x));
          }
        }
      }
      if constexpr (kHeavy) {
        const int rows = kPartial ? extent->rows : MR;
        TESSERA_GEMM_NO_UNROLL
        for (int k = 0; k < rows * NV; ++k) {
          store_c(k / NV, k % NV, activate<V, kAct>(V::load(staged + k * kLanes)));
        }
      }
    });
  }

  // The same, for a tile of rows x cols <= MR x NR at c: computed on a
  // local tile (zeroed, with the valid part of C copied in when C is read)
  // and copied back, so nothing outside rows x cols is read or written.
  template <bool kEpilogue = false, class A, class B>
  static void run_edge(std::int64_t rows, std::int64_t cols,
                       std::int64_t depth, A a, B b, T* c, std::int64_t ldc,
                       T alpha, T beta, GemmUpdate update,
                       const TileEpilogue<T>* ep = nullptr) {
    alignas(64) T tile[MR * kNr];
    std::memset(tile, 0, sizeof tile);
    if (update != GemmUpdate::kOverwrite) {
      for (std::int64_t y = 0; y < rows; ++y) {
        std::memcpy(tile + y * kNr, c + y * ldc, sizeof(T) * cols);
      }
    }
    // The bias, too, is read only inside rows x cols: a zero-padded copy.
    if constexpr (kEpilogue) {
      constexpr int kBiasLen = MR > kNr ? MR : kNr;
      alignas(64) T bias[kBiasLen];
      TileEpilogue<T> local = *ep;
      const std::int64_t valid = ep->spec.axis == GemmBiasAxis::kColumn ? cols
                                 : ep->spec.axis == GemmBiasAxis::kRow  ? rows
                                                                        : 0;
      for (std::int64_t x = 0; x < kBiasLen; ++x) bias[x] = x < valid ? ep->spec.bias[x] : T(0);
      local.spec.bias = bias;
      run_epilogue(depth, a, b, tile, kNr, local);
    } else {
      run(depth, a, b, tile, kNr, alpha, beta, update);
    }
    for (std::int64_t y = 0; y < rows; ++y) {
      std::memcpy(c + y * ldc, tile + y * kNr, sizeof(T) * cols);
    }
  }
};

// f(std::integral_constant<int, NVE>) with NVE = nve (1..NV) as a constant
// expression: the partial tiles' width, picked at run time.
template <int NV, int NVE = 1, class F>
TESSERA_GEMM_INLINE void with_vectors(int nve, F&& f) {
  if constexpr (NVE < NV) {
    if (nve > NVE) {
      with_vectors<NV, NVE + 1>(nve, static_cast<F&&>(f));
      return;
    }
  }
  f(std::integral_constant<int, NVE>{});
}

// column_tile with an epilogue (the last depth slice of a call that has
// one). Its own function, so that the register allocation of the plain
// tile loops below never sees the epilogue's values.
template <class V, int MR, int NV, int UNROLL>
__attribute__((noinline)) void column_tile_epilogue(
    std::int64_t rows, std::int64_t cols, std::int64_t depth, const typename V::Scalar* a,
    const typename V::Scalar* b, typename V::Scalar* c, std::int64_t ldc,
    typename V::Scalar alpha, typename V::Scalar beta, GemmUpdate update,
    const GemmEpilogueSpec<typename V::Scalar>& ep) {
  using K = Microkernel<V, MR, NV>;
  using T = typename V::Scalar;
  constexpr int kNr = K::kNr;
  const RowsB<V, NV> bp{b, kNr};
  std::int64_t i = 0;
  TileEpilogue<T> te{ep, alpha, beta, update};
  const bool in_store = epilogue_in_store(ep);
  if (cols == kNr) {
    for (; i + MR <= rows; i += MR) {
      te.spec = ep.at(i, 0);
      if (in_store) {
        K::template run<false, true>(depth, PackedA<V, MR, UNROLL>{a + i * depth}, bp,
                                     c + i * ldc, ldc, alpha, beta, update, nullptr, &te.spec);
      } else {
        K::run_epilogue(depth, PackedA<V, MR, UNROLL>{a + i * depth}, bp, c + i * ldc, ldc, te);
      }
    }
  }
  if constexpr (HasLaneMasks<V>) {
    // Partial tiles in place under masks, NVE = ceil(cols / lanes) vectors
    // wide (as column_tile_partial; the staging tile of run_edge did the
    // whole panel's work and copied it twice).
    if (i < rows) {
      const int nve = static_cast<int>((cols + V::kLanes - 1) / V::kLanes);
      with_vectors<NV>(nve, [&](auto nve_tag) TESSERA_GEMM_LAMBDA_INLINE {
        constexpr int kNve = decltype(nve_tag)::value;
        using KE = Microkernel<V, MR, kNve>;
        const RowsB<V, kNve> bpe{b, kNr};
        const ColumnMasks<V, kNve> masks(cols);
        for (; i < rows; i += MR) {
          te.spec = ep.at(i, 0);
          const TileExtent<V, kNve> extent{rows - i < MR ? rows - i : MR, masks};
          if (in_store) {
            KE::template run<true, true>(depth, PackedA<V, MR, UNROLL>{a + i * depth}, bpe,
                                         c + i * ldc, ldc, alpha, beta, update, &extent,
                                         &te.spec);
          } else {
            KE::template run_epilogue<true>(depth, PackedA<V, MR, UNROLL>{a + i * depth}, bpe,
                                            c + i * ldc, ldc, te, &extent);
          }
        }
      });
    }
  } else {
    for (; i < rows; i += MR) {
      te.spec = ep.at(i, 0);
      K::template run_edge<true>(rows - i < MR ? rows - i : MR, cols, depth,
                                 PackedA<V, MR, UNROLL>{a + i * depth}, bp, c + i * ldc, ldc,
                                 alpha, beta, update, &te);
    }
  }
}

// The partial tiles of a packed column tile on traits with lane masks: the
// MR-row panels of `a` (rows valid rows) against the first NVE vectors of a
// packed B panel NV vectors wide (zero past cols), C read and written in
// place under masks. NVE = ceil(cols / lanes): a 16-column remainder of a
// 64-wide panel multiplies one vector, not four (the zero-padded copy and
// staging tile of run_edge would do the whole panel's work); the per-element
// arithmetic is run_edge's.
template <class V, int MR, int NV, int UNROLL, int NVE>
void column_tile_masked(std::int64_t rows, std::int64_t cols, std::int64_t depth,
                        const typename V::Scalar* a, const typename V::Scalar* b,
                        typename V::Scalar* c, std::int64_t ldc, typename V::Scalar alpha,
                        typename V::Scalar beta, GemmUpdate update) {
  using K = Microkernel<V, MR, NVE>;
  const RowsB<V, NVE> bp{b, NV * V::kLanes};
  const ColumnMasks<V, NVE> masks(cols);
  for (std::int64_t i = 0; i < rows; i += MR) {
    const TileExtent<V, NVE> extent{rows - i < MR ? rows - i : MR, masks};
    K::template run<true>(depth, PackedA<V, MR, UNROLL>{a + i * depth}, bp, c + i * ldc, ldc,
                          alpha, beta, update, &extent);
  }
}

// column_tile_masked with NVE picked at run time from nve (1..NV).
template <class V, int MR, int NV, int UNROLL>
void column_tile_partial(int nve, std::int64_t rows, std::int64_t cols, std::int64_t depth,
                         const typename V::Scalar* a, const typename V::Scalar* b,
                         typename V::Scalar* c, std::int64_t ldc, typename V::Scalar alpha,
                         typename V::Scalar beta, GemmUpdate update) {
  with_vectors<NV>(nve, [&](auto nve_tag) TESSERA_GEMM_LAMBDA_INLINE {
    column_tile_masked<V, MR, NV, UNROLL, decltype(nve_tag)::value>(rows, cols, depth, a, b, c,
                                                                   ldc, alpha, beta, update);
  });
}

// GemmKernelSet::column_tile: every MR-row panel of a packed row block
// against one packed B panel (edge tiles masked in place where the traits
// can, else through run_edge).
template <class V, int MR, int NV, int UNROLL>
void column_tile(std::int64_t rows, std::int64_t cols, std::int64_t depth,
                 const typename V::Scalar* a, const typename V::Scalar* b,
                 typename V::Scalar* c, std::int64_t ldc,
                 typename V::Scalar alpha, typename V::Scalar beta,
                 GemmUpdate update, const GemmEpilogueSpec<typename V::Scalar>* ep) {
  if (ep != nullptr) {
    column_tile_epilogue<V, MR, NV, UNROLL>(rows, cols, depth, a, b, c, ldc, alpha, beta, update,
                                            *ep);
    return;
  }
  using K = Microkernel<V, MR, NV>;
  constexpr int kNr = K::kNr;
  const RowsB<V, NV> bp{b, kNr};
  std::int64_t i = 0;
  if (cols == kNr) {
    for (; i + MR <= rows; i += MR) {
      K::run(depth, PackedA<V, MR, UNROLL>{a + i * depth}, bp, c + i * ldc, ldc, alpha,
             beta, update);
    }
  }
  if constexpr (HasLaneMasks<V>) {
    if (i < rows) {
      const int nve = static_cast<int>((cols + V::kLanes - 1) / V::kLanes);
      column_tile_partial<V, MR, NV, UNROLL>(nve, rows - i, cols, depth, a + i * depth, b,
                                             c + i * ldc, ldc, alpha, beta, update);
    }
  } else {
    for (; i < rows; i += MR) {
      K::run_edge(rows - i < MR ? rows - i : MR, cols, depth,
                  PackedA<V, MR, UNROLL>{a + i * depth}, bp, c + i * ldc, ldc, alpha, beta,
                  update);
    }
  }
}

// A direct-path tile of the last depth slice with the fused epilogue `ep`
// (seen from the tile's origin): a partial tile masked in place (traits with
// lane masks) or on run_edge's staging tile, as direct_tile.
template <class V, int MR, int NV, class B>
inline void direct_tile_epilogue(const GemmProblem<typename V::Scalar>& pr, std::int64_t rows,
                                 std::int64_t cols, std::int64_t depth,
                                 const typename V::Scalar* ai, const B& bp,
                                 typename V::Scalar* ci, GemmUpdate update,
                                 const GemmEpilogueSpec<typename V::Scalar>& ep) {
  using K = Microkernel<V, MR, NV>;
  const TileEpilogue<typename V::Scalar> te{ep, pr.alpha, pr.beta, update};
  // One tile, full (kPartial false, no extent) or masked: the epilogue in
  // run()'s store (epilogue_in_store) or through run_epilogue.
  auto tile = [&](auto a, auto partial_tag,
                  const TileExtent<V, NV>* extent) TESSERA_GEMM_LAMBDA_INLINE {
    constexpr bool kPartial = decltype(partial_tag)::value;
    if (epilogue_in_store(ep)) {
      K::template run<kPartial, true>(depth, a, bp, ci, pr.ldc, pr.alpha, pr.beta, update, extent,
                                      &ep);
    } else {
      K::template run_epilogue<kPartial>(depth, a, bp, ci, pr.ldc, te, extent);
    }
  };
  if (rows == MR && cols == K::kNr) {
    if (pr.cs_a == 1) {
      tile(DirectUnitA<V, MR>(ai, pr.rs_a), std::false_type{}, nullptr);
    } else {
      tile(DirectA<V, MR>(ai, pr.rs_a, pr.cs_a), std::false_type{}, nullptr);
    }
  } else if constexpr (HasLaneMasks<V>) {
    const TileExtent<V, NV> extent{rows, ColumnMasks<V, NV>(cols)};
    if (rows != MR) {
      tile(DirectEdgeA<V, MR>(ai, pr.rs_a, pr.cs_a, rows), std::true_type{}, &extent);
    } else if (pr.cs_a == 1) {
      tile(DirectUnitA<V, MR>(ai, pr.rs_a), std::true_type{}, &extent);
    } else {
      tile(DirectA<V, MR>(ai, pr.rs_a, pr.cs_a), std::true_type{}, &extent);
    }
  } else {
    K::template run_edge<true>(rows, cols, depth, DirectEdgeA<V, MR>(ai, pr.rs_a, pr.cs_a, rows),
                               bp, ci, pr.ldc, pr.alpha, pr.beta, update, &te);
  }
}

// One direct-path tile (A read in place) for one depth slice: the full-tile
// kernel (unit-stride or strided A) or, for a partial tile, the same kernel
// storing only the valid part (traits with lane masks) or the edge kernel.
template <class V, int MR, int NV, class B>
inline void direct_tile(const GemmProblem<typename V::Scalar>& pr, std::int64_t rows,
                        std::int64_t cols, std::int64_t depth,
                        const typename V::Scalar* ai, const B& bp,
                        typename V::Scalar* ci, GemmUpdate update) {
  using K = Microkernel<V, MR, NV>;
  if (rows == MR && cols == K::kNr) {
    if (pr.cs_a == 1) {
      K::run(depth, DirectUnitA<V, MR>(ai, pr.rs_a), bp, ci, pr.ldc, pr.alpha, pr.beta,
             update);
    } else {
      K::run(depth, DirectA<V, MR>(ai, pr.rs_a, pr.cs_a), bp, ci, pr.ldc, pr.alpha,
             pr.beta, update);
    }
  } else if constexpr (HasLaneMasks<V>) {
    const TileExtent<V, NV> extent{rows, ColumnMasks<V, NV>(cols)};
    if (rows != MR) {
      K::template run<true>(depth, DirectEdgeA<V, MR>(ai, pr.rs_a, pr.cs_a, rows), bp, ci,
                            pr.ldc, pr.alpha, pr.beta, update, &extent);
    } else if (pr.cs_a == 1) {
      K::template run<true>(depth, DirectUnitA<V, MR>(ai, pr.rs_a), bp, ci, pr.ldc, pr.alpha,
                            pr.beta, update, &extent);
    } else {
      K::template run<true>(depth, DirectA<V, MR>(ai, pr.rs_a, pr.cs_a), bp, ci, pr.ldc,
                            pr.alpha, pr.beta, update, &extent);
    }
  } else {
    K::run_edge(rows, cols, depth, DirectEdgeA<V, MR>(ai, pr.rs_a, pr.cs_a, rows), bp, ci,
                pr.ldc, pr.alpha, pr.beta, update);
  }
}

// A direct-path tile at canonical (i, j) for the slice starting at pc. With
// kEpilogue (the problem has one) the last slice applies it, after the full
// sum; the plain instantiation is the kernel without any epilogue code.
template <bool kEpilogue, class V, int MR, int NV, class B>
TESSERA_GEMM_INLINE void direct_slice_tile(const GemmProblem<typename V::Scalar>& pr,
                                           std::int64_t pc, std::int64_t i, std::int64_t j,
                                           std::int64_t rows, std::int64_t cols,
                                           std::int64_t depth, const typename V::Scalar* ai,
                                           const B& bp, typename V::Scalar* ci,
                                           GemmUpdate update) {
  if constexpr (kEpilogue) {
    if (pc + depth >= pr.k) {
      direct_tile_epilogue<V, MR, NV>(pr, rows, cols, depth, ai, bp, ci, update,
                                      pr.epilogue.at(i, j));
      return;
    }
  }
  direct_tile<V, MR, NV>(pr, rows, cols, depth, ai, bp, ci, update);
}

// The rows of B a direct tile at column j of depth slice pc reads from a
// whole B packed by pack_whole in panels of PNR columns (the packed path's
// nr, which may be wider than the direct tile: the tile then reads its
// columns inside one panel, whose rows are PNR apart).
template <class V, int NV, int PNR>
TESSERA_GEMM_INLINE RowsB<V, NV> packed_rows(const typename V::Scalar* packed_b, std::int64_t pc,
                                             std::int64_t n_pad, std::int64_t j,
                                             std::int64_t depth) {
  // A tile lies inside one packed panel: narrow tiles divide the panel, and
  // the serial path's tail tile starts on a panel boundary.
  static_assert(NV * V::kLanes <= PNR, "a direct tile lies inside one packed panel");
  return RowsB<V, NV>{packed_b + pc * n_pad + j / PNR * PNR * depth + j % PNR, PNR};
}

// The direct-path tile at (i, j), rows x min(nr, n - j), of depth slice pc
// (A at ai, C at ci), B from packed_b (the whole B packed in panels of PNR,
// n_pad columns a slice), else read in place: a partial last panel masked
// past column n where the traits can (with kShrinkEdge, one vector wide
// when that covers it: half the multiplies of a two-vector tile, the same
// per-element arithmetic), else from `scratch`, its zero-padded copy
// (kc x nr).
template <bool kEpilogue, class V, int MR, int NV, int PNR, bool kShrinkEdge = true>
TESSERA_GEMM_INLINE void direct_panel_tile(const GemmProblem<typename V::Scalar>& pr,
                                           const typename V::Scalar* packed_b,
                                           const typename V::Scalar* scratch, std::int64_t n_pad,
                                           std::int64_t pc, std::int64_t depth, std::int64_t i,
                                           std::int64_t j, std::int64_t rows,
                                           const typename V::Scalar* ai, typename V::Scalar* ci,
                                           GemmUpdate update) {
  constexpr int kNr = NV * V::kLanes;
  const std::int64_t cols = pr.n - j < kNr ? pr.n - j : kNr;
  const bool partial = cols < kNr;
  if constexpr (HasLaneMasks<V>) {
    if (partial) {
      // A tile just as many vectors wide as the columns need (ColumnMasks
      // masks only the last): kShrinkEdge narrows a wider tile here, else
      // the caller already picked that width.
      auto edge = [&](auto nv_tag) TESSERA_GEMM_LAMBDA_INLINE {
        constexpr int kNv = decltype(nv_tag)::value;
        if (packed_b != nullptr) {
          // The packed panel is zero-padded: its rows load plainly.
          const RowsB<V, kNv> bp = packed_rows<V, kNv, PNR>(packed_b, pc, n_pad, j, depth);
          direct_slice_tile<kEpilogue, V, MR, kNv>(pr, pc, i, j, rows, cols, depth, ai, bp, ci,
                                                   update);
        } else {
          const MaskedRowsB<V, kNv> bp{pr.b + pc * pr.rs_b + j, pr.rs_b,
                                       ColumnMasks<V, kNv>(cols)};
          direct_slice_tile<kEpilogue, V, MR, kNv>(pr, pc, i, j, rows, cols, depth, ai, bp, ci,
                                                   update);
        }
      };
      if constexpr (kShrinkEdge) {
        with_vectors<NV>(static_cast<int>((cols + V::kLanes - 1) / V::kLanes), edge);
      } else {
        edge(std::integral_constant<int, NV>{});
      }
      return;
    }
  }
  if constexpr (!HasLaneMasks<V> && NV > 1) {
    if (partial && packed_b == nullptr && cols % V::kLanes == 0) {
      // Whole vectors without lane masks (direct_edge_in_place): B's rows
      // read in place by a tile just that many vectors wide, no padded copy.
      with_vectors<NV>(static_cast<int>(cols / V::kLanes), [&](auto nv_tag)
                                                               TESSERA_GEMM_LAMBDA_INLINE {
        constexpr int kNv = decltype(nv_tag)::value;
        const RowsB<V, kNv> bp{pr.b + pc * pr.rs_b + j, pr.rs_b};
        direct_slice_tile<kEpilogue, V, MR, kNv>(pr, pc, i, j, rows, cols, depth, ai, bp, ci,
                                                 update);
      });
      return;
    }
  }
  using B = RowsB<V, NV>;
  const B bp = packed_b != nullptr ? packed_rows<V, NV, PNR>(packed_b, pc, n_pad, j, depth)
               : !partial          ? B{pr.b + pc * pr.rs_b + j, pr.rs_b}
                                   : B{scratch, kNr};
  direct_slice_tile<kEpilogue, V, MR, NV>(pr, pc, i, j, rows, cols, depth, ai, bp, ci, update);
}

// The cache lines of `rows` rows of `len` contiguous elements, rs apart.
template <class T>
TESSERA_GEMM_INLINE void prefetch_rows(const T* p, std::int64_t rows, std::int64_t rs,
                                       std::int64_t len) {
  const std::int64_t bytes = len * static_cast<std::int64_t>(sizeof(T));
  for (std::int64_t r = 0; r < rows; ++r) {
    const char* row = reinterpret_cast<const char*>(p + r * rs);
    for (std::int64_t x = 0; x < bytes; x += 64) TESSERA_GEMM_PREFETCH(row + x);
  }
}

// With a next product (GemmProblem::next_a, next_b: a batch streaming its
// entries from memory), before the direct path's row tile at row i (MR
// rows) of the slice at pc: prefetch the next row tile's A (unit-stride
// rows, up to 128 elements each: the hardware follows a row once it is
// started) or at the last tile the next product's first row tile, this
// tile's share of the next B's first slice, and the rows of C this tile
// overwrites. Without it a small product
// from memory waits on A's rows, then on B's (1000 x 64^3 f32, AVX-512,
// Zen 5: 3.7 us per product with A alone from memory, 2.8 us with the A
// prefetch; all three from memory, 0.96x OpenBLAS's loop with both
// against 0.89x with neither, see the commit). Products that stay in cache
// only pay for the instructions, so it is a batch's hint, not the default.
template <int MR, class T>
TESSERA_GEMM_INLINE void prefetch_ahead(const GemmProblem<T>& pr, std::int64_t pc,
                                        std::int64_t depth, std::int64_t i) {
  if (pr.next_a == nullptr || pr.cs_a != 1) return;
  const std::int64_t len = depth < 128 ? depth : 128;
  const std::int64_t next_i = i + MR;
  if (next_i < pr.m) {
    prefetch_rows(pr.a + next_i * pr.rs_a + pc, pr.m - next_i < MR ? pr.m - next_i : MR,
                  pr.rs_a, len);
  } else if (pc == 0) {
    prefetch_rows(pr.next_a, pr.m < MR ? pr.m : MR, pr.rs_a, len);
  }
  if (pc == 0 && slice_update(pr, 0) == GemmUpdate::kOverwrite) {
    // This tile's rows of C, which the first slice's stores overwrite: a
    // store to a line not in cache waits for the line (the microkernel
    // prefetches C itself only where it reads it). Its first 128 columns,
    // as for A: 1000 x 64^3 f32 from memory, AVX-512 Zen 4, 5.6-5.8 us per
    // product without, 5.4 with (the tile loop's stores were 12% of the
    // samples).
    prefetch_rows(pr.c + i * pr.ldc, pr.m - i < MR ? pr.m - i : MR, pr.ldc,
                  pr.n < 128 ? pr.n : 128);
  }
  if (pr.next_b != nullptr && pc == 0 && pr.cs_b == 1) {
    const std::int64_t first = i * depth / pr.m;
    const std::int64_t last = (next_i < pr.m ? next_i : pr.m) * depth / pr.m;
    prefetch_rows(pr.next_b + first * pr.rs_b, last - first, pr.rs_b, pr.n);
  }
}

// GemmKernelSet::direct: the whole canonical problem on the caller, A read
// in place (any strides), B read in place when its columns are contiguous
// (cs_b == 1) or from `packed_b` (the whole B packed by pack_whole with this
// set's nr = PNR and kc). Same depth slices and per-element arithmetic as
// the packed driver, hence the same bits. `scratch` holds kc x direct_nr
// values for the zero-padded copy of an edge column panel (unused with lane
// masks: the panel is then read in place, masked).
// TMR: the tail kernel's rows (direct_main_rows), 0 for none.
template <bool kEpilogue, class V, int MR, int NV, int PNR, int TMR>
void direct_impl(const GemmProblem<typename V::Scalar>& pr, std::int64_t kc,
                 const typename V::Scalar* packed_b, typename V::Scalar* scratch) {
  using K = Microkernel<V, MR, NV>;
  using T = typename V::Scalar;
  constexpr int kNr = K::kNr;
  const std::int64_t n_pad = (pr.n + PNR - 1) / PNR * PNR;
  const std::int64_t edge_j = pr.n / kNr * kNr;  // first column of a partial panel
  for (std::int64_t pc = 0; pc < pr.k; pc += kc) {
    const std::int64_t depth = pr.k - pc < kc ? pr.k - pc : kc;
    const GemmUpdate update = slice_update(pr, pc);
    if (!HasLaneMasks<V> && packed_b == nullptr && edge_j < pr.n &&
        !direct_edge_in_place(pr.n, kNr, V::kLanes)) {
      // The partial last panel read in place would run past column n: a
      // zero-padded copy instead. The padding is the same in every slice, so
      // it is written once (the first slice is the deepest); each slice then
      // copies only its valid columns, row by row. (Element by element, the
      // copy and padding cost more than the 8 x 8 x 8 product itself: 700 of
      // 2200 instructions a call on AVX2.)
      const std::int64_t cols = pr.n - edge_j;
      if (pc == 0) std::memset(scratch, 0, sizeof(T) * static_cast<std::size_t>(depth * kNr));
      for (std::int64_t p = 0; p < depth; ++p) {
        std::memcpy(scratch + p * kNr, pr.b + (pc + p) * pr.rs_b + edge_j,
                    sizeof(T) * static_cast<std::size_t>(cols));
      }
    }
    // Row tiles outside, column panels inside: a row tile of A (MR rows of
    // the slice) is reused across the panels while B streams; at 64 x 64 x
    // 64 the working set of one row tile stays in L1, where the other order
    // keeps all of A, a B panel and C live at once (48 KiB). Measured:
    // 64^3 4675 -> 4627 ns, 128^3 37.1 -> 36.4 us (AVX-512 f32).
    // Rows [begin, end) in tiles of kRows.
    auto row_tiles = [&](auto rows_tag, std::int64_t begin, std::int64_t end) {
      constexpr int kRows = decltype(rows_tag)::value;
      for (std::int64_t i = begin; i < end; i += kRows) {
        const std::int64_t rows = end - i < kRows ? end - i : kRows;
        const T* ai = pr.a + i * pr.rs_a + pc * pr.cs_a;
        T* ci = pr.c + i * pr.ldc;
        prefetch_ahead<kRows>(pr, pc, depth, i);
        for (std::int64_t j = 0; j < pr.n; j += kNr) {
          direct_panel_tile<kEpilogue, V, kRows, NV, PNR>(pr, packed_b, scratch, n_pad, pc, depth,
                                                          i, j, rows, ai, ci + j, update);
        }
      }
    };
    const std::int64_t main_rows = direct_main_rows(pr.m, MR, TMR);
    row_tiles(std::integral_constant<int, MR>{}, 0, main_rows);
    if constexpr (TMR > 0) row_tiles(std::integral_constant<int, TMR>{}, main_rows, pr.m);
  }
}

// Column panels [j_begin, j_end) of the slice at pc with tiles MR x NV
// vectors (the last ones partial when m or n ends inside them), row tiles
// outside: a row tile of A is reused across the panels while B streams. A
// function per tile shape, so each kernel gets its own register allocation.
template <bool kEpilogue, class V, int MR, int NV, int PNR>
__attribute__((noinline)) void direct_panels(const GemmProblem<typename V::Scalar>& pr,
                                             const typename V::Scalar* packed_b,
                                             std::int64_t n_pad, std::int64_t pc,
                                             std::int64_t depth, std::int64_t j_begin,
                                             std::int64_t j_end, bool prefetch) {
  using T = typename V::Scalar;
  constexpr int kNr = NV * V::kLanes;
  const GemmUpdate update = slice_update(pr, pc);
  for (std::int64_t i = 0; i < pr.m; i += MR) {
    const std::int64_t rows = pr.m - i < MR ? pr.m - i : MR;
    const T* ai = pr.a + i * pr.rs_a + pc * pr.cs_a;
    T* ci = pr.c + i * pr.ldc;
    if (prefetch) prefetch_ahead<MR>(pr, pc, depth, i);
    for (std::int64_t j = j_begin; j < j_end; j += kNr) {
      direct_panel_tile<kEpilogue, V, MR, NV, PNR, false>(pr, packed_b, nullptr, n_pad, pc, depth,
                                                          i, j, rows, ai, ci + j, update);
    }
  }
}

// The one-worker direct path's wide tile family (traits with lane masks,
// direct() picks it per call): full column panels as wide as the packed
// path's, with the wide tile (WMR x WNV vectors, each row of B read whole
// and in address order: 1000 x 64^3 f32 from memory 25% faster than with
// 8 x 32 tiles, AVX-512, Zen 5) or the narrow one, then a last partial
// panel of r columns with a tile of just ceil(r / lanes) vectors, masked
// past column n (no multiplies for columns past n). Each element of C is
// still one sum in depth order: the bits do not depend on the tile.
// wide_rows: the full panels take the wide tile, else the narrow one.
template <bool kEpilogue, class V, int MR, int NV, int PNR, int WMR, int WNV>
void direct_wide_impl(const GemmProblem<typename V::Scalar>& pr, std::int64_t kc,
                      const typename V::Scalar* packed_b, bool wide_rows) {
  constexpr int kWideNr = WNV * V::kLanes;
  static_assert(PNR % kWideNr == 0 && kWideNr % (NV * V::kLanes) == 0,
                "wide tiles divide the packed panel, narrow ones the wide");
  const std::int64_t n_pad = (pr.n + PNR - 1) / PNR * PNR;
  const std::int64_t full_n = pr.n / kWideNr * kWideNr;
  const int tail_nv = static_cast<int>((pr.n - full_n + V::kLanes - 1) / V::kLanes);
  for (std::int64_t pc = 0; pc < pr.k; pc += kc) {
    const std::int64_t depth = pr.k - pc < kc ? pr.k - pc : kc;
    if (full_n > 0 && wide_rows) {
      direct_panels<kEpilogue, V, WMR, WNV, PNR>(pr, packed_b, n_pad, pc, depth, 0, full_n,
                                                 true);
    } else if (full_n > 0) {
      direct_panels<kEpilogue, V, MR, NV, PNR>(pr, packed_b, n_pad, pc, depth, 0, full_n,
                                               true);
    }
    if (tail_nv == 0) continue;
    with_vectors<WNV>(tail_nv, [&](auto nv_tag) TESSERA_GEMM_LAMBDA_INLINE {
      constexpr int kNv = decltype(nv_tag)::value;
      direct_panels<kEpilogue, V, direct_family_rows(kNv, MR, WMR, WNV), kNv, PNR>(
          pr, packed_b, n_pad, pc, depth, full_n, pr.n, full_n == 0);
    });
  }
}

template <class V, int MR, int NV, int PNR, int WMR, int WNV, int TMR>
void direct(const GemmProblem<typename V::Scalar>& pr, std::int64_t kc,
            const typename V::Scalar* packed_b, typename V::Scalar* scratch) {
  if constexpr (requires { typename V::Narrow::Reg; }) {
    // A product without an epilogue whose columns fit the traits'
    // half-width view (V::Narrow: AVX-512's 256-bit registers) runs there:
    // the same operations on every element in half the register width.
    // Zen 4 runs a 512-bit FMA as two 256-bit halves, so an 8-column sgemm
    // spent half its multiplies on masked-off lanes (8 x 8 x 8: 64 512-bit
    // FMAs, or 64 256-bit ones). One tile of one slice with B in place is
    // that tile alone, as below.
    using N = typename V::Narrow;
    if (pr.n <= N::kLanes && !pr.epilogue.active()) {
      if (pr.m <= MR && pr.k <= kc && packed_b == nullptr) {
        direct_panel_tile<false, N, MR, 1, PNR, false>(pr, nullptr, nullptr, 0, 0, pr.k, 0, 0,
                                                       pr.m, pr.a, pr.c, slice_update(pr, 0));
      } else {
        direct_impl<false, N, MR, 1, PNR, TMR>(pr, kc, packed_b, scratch);
      }
      return;
    }
  }
  if constexpr (HasLaneMasks<V> && (WMR != MR || WNV != NV)) {
    // A problem that is one tile of one slice, B in place: that tile alone,
    // the one direct_panel_tile call the loop nest would make (the nest's
    // set-up was a third of an 8 x 32 x 1 call, AVX-512 f32).
    constexpr int kWideNr = WNV * V::kLanes;
    if (pr.n <= kWideNr && pr.k <= kc && packed_b == nullptr) {
      const int nv = static_cast<int>((pr.n + V::kLanes - 1) / V::kLanes);
      if (pr.m <= (nv == WNV ? WMR : MR)) {
        const GemmUpdate update = slice_update(pr, 0);
        with_vectors<WNV>(nv, [&](auto nv_tag) TESSERA_GEMM_LAMBDA_INLINE {
          constexpr int kNv = decltype(nv_tag)::value;
          constexpr int kRows = direct_family_rows(kNv, MR, WMR, WNV);
          if (pr.epilogue.active()) {
            direct_panel_tile<true, V, kRows, kNv, PNR, false>(pr, nullptr, nullptr, 0, 0, pr.k, 0,
                                                               0, pr.m, pr.a, pr.c, update);
          } else {
            direct_panel_tile<false, V, kRows, kNv, PNR, false>(pr, nullptr, nullptr, 0, 0, pr.k,
                                                                0, 0, pr.m, pr.a, pr.c, update);
          }
        });
        return;
      }
    }
    const bool wide_rows = direct_wide_rows(pr.m, pr.n, WMR, kWideNr);
    if (direct_wide_family(pr.n, NV * V::kLanes, kWideNr, wide_rows)) {
      if (pr.epilogue.active()) {
        direct_wide_impl<true, V, MR, NV, PNR, WMR, WNV>(pr, kc, packed_b, wide_rows);
      } else {
        direct_wide_impl<false, V, MR, NV, PNR, WMR, WNV>(pr, kc, packed_b, wide_rows);
      }
      return;
    }
  }
  static_assert(HasLaneMasks<V> || (WMR == MR && WNV == NV),
                "a wide serial tile needs lane masks for its partial panels");
  constexpr int kNr = NV * V::kLanes;
  // One full row tile of one slice across whole panels, A and B in place
  // (unit strides), no epilogue and no batch prefetch: the tiles' kernels
  // inline in one loop, the same K::run the loop nest's direct_tile calls,
  // without a call and its set-up per tile. An 8 x 32 x 1 dgemm (two 8 x 16
  // tiles, AVX-512) took ~43 ns through the nest, ~13 ns of it per tile.
  if (pr.m == MR && pr.k <= kc && packed_b == nullptr && pr.cs_a == 1 && pr.cs_b == 1 &&
      pr.n % kNr == 0 && !pr.epilogue.active() && pr.next_a == nullptr) {
    using K = Microkernel<V, MR, NV>;
    const GemmUpdate update = slice_update(pr, 0);
    for (std::int64_t j = 0; j < pr.n; j += kNr) {
      K::run(pr.k, DirectUnitA<V, MR>(pr.a, pr.rs_a), RowsB<V, NV>{pr.b + j, pr.rs_b}, pr.c + j,
             pr.ldc, pr.alpha, pr.beta, update);
    }
    return;
  }
  // A problem that is one tile of one slice, B in place: the tile alone,
  // exactly the one direct_panel_tile call the loop nest would make. The
  // nest's set-up was a third of an 8 x 32 x 1 call (AVX-512 f32).
  if (pr.m <= MR && pr.n <= kNr && pr.k <= kc && packed_b == nullptr &&
      (HasLaneMasks<V> || pr.n == kNr)) {
    const GemmUpdate update = slice_update(pr, 0);
    if (pr.epilogue.active()) {
      direct_panel_tile<true, V, MR, NV, PNR>(pr, nullptr, nullptr, 0, 0, pr.k, 0, 0, pr.m, pr.a,
                                              pr.c, update);
    } else {
      direct_panel_tile<false, V, MR, NV, PNR>(pr, nullptr, nullptr, 0, 0, pr.k, 0, 0, pr.m,
                                               pr.a, pr.c, update);
    }
    return;
  }
  if (pr.epilogue.active()) {
    direct_impl<true, V, MR, NV, PNR, TMR>(pr, kc, packed_b, scratch);
  } else {
    direct_impl<false, V, MR, NV, PNR, TMR>(pr, kc, packed_b, scratch);
  }
}

// GemmKernelSet::direct_tiles: tiles [tile_begin, tile_end) of the direct
// path, tile q = (row tile q / n_panels, column panel q % n_panels): row
// major over C, as direct() walks it, so a worker's chunk writes whole rows
// of C in address order (column-panel major, two workers at 1024 x 1024 x 8
// f32 wrote C in 128-byte pieces 4 KiB apart and ran at 93 GFLOP/s against
// 157 for one worker; row major: see the commit),
// each with all its depth slices in order (so a tile belongs to one caller:
// workers can split the tile range freely). B is read in place (cs_b == 1;
// a partial last panel masked, so n need not be a multiple of nr on traits
// with lane masks) or from packed_b (the whole B packed by pack_whole with
// panels of PNR and this kc). Same per-element arithmetic as direct().
template <bool kEpilogue, class V, int MR, int NV, int PNR>
void direct_tiles_impl(const GemmProblem<typename V::Scalar>& pr, std::int64_t kc,
                       const typename V::Scalar* packed_b, std::int64_t tile_begin,
                       std::int64_t tile_end) {
  using K = Microkernel<V, MR, NV>;
  using T = typename V::Scalar;
  constexpr int kNr = K::kNr;
  const std::int64_t n_pad = (pr.n + PNR - 1) / PNR * PNR;
  const std::int64_t panels = (pr.n + kNr - 1) / kNr;
  for (std::int64_t q = tile_begin; q < tile_end; ++q) {
    const std::int64_t i = q / panels * MR;
    const std::int64_t j = q % panels * kNr;
    const std::int64_t rows = pr.m - i < MR ? pr.m - i : MR;
    T* ci = pr.c + i * pr.ldc + j;
    for (std::int64_t pc = 0; pc < pr.k; pc += kc) {
      const std::int64_t depth = pr.k - pc < kc ? pr.k - pc : kc;
      const T* ai = pr.a + i * pr.rs_a + pc * pr.cs_a;
      direct_panel_tile<kEpilogue, V, MR, NV, PNR>(pr, packed_b, nullptr, n_pad, pc, depth, i, j,
                                                   rows, ai, ci, slice_update(pr, pc));
    }
  }
}

template <class V, int MR, int NV, int PNR>
void direct_tiles(const GemmProblem<typename V::Scalar>& pr, std::int64_t kc,
                  const typename V::Scalar* packed_b, std::int64_t tile_begin,
                  std::int64_t tile_end) {
  if constexpr (requires { typename V::Narrow::Reg; }) {
    // As direct(): at most N::kLanes columns run on the half-width traits.
    // One column panel either way, so tile q is the same row tile.
    using N = typename V::Narrow;
    if (pr.n <= N::kLanes && !pr.epilogue.active()) {
      direct_tiles_impl<false, N, MR, 1, PNR>(pr, kc, packed_b, tile_begin, tile_end);
      return;
    }
  }
  if (pr.epilogue.active()) {
    direct_tiles_impl<true, V, MR, NV, PNR>(pr, kc, packed_b, tile_begin, tile_end);
  } else {
    direct_tiles_impl<false, V, MR, NV, PNR>(pr, kc, packed_b, tile_begin, tile_end);
  }
}

// The kernel set of one ISA and dtype from its named tiles (GemmTiles,
// kernels/gemm_kernel.hpp).
template <class V, GemmTiles S>
constexpr GemmKernelSet<typename V::Scalar> make_kernel_set() {
  static_assert(S.mr > 0 && S.nr_vectors > 0 && S.unroll > 0, "a packed tile of at least 1 x 1");
  static_assert(S.direct_mr > 0 && S.direct_nr_vectors > 0 && S.nr_vectors % S.direct_nr_vectors == 0,
                "the direct tile's width divides the packed panel's");
  static_assert(S.wide_mr > 0 && S.wide_nr_vectors > 0 && S.nr_vectors % S.wide_nr_vectors == 0,
                "the wide direct tile's width divides the packed panel's");
  static_assert(S.direct_tail_mr >= 0 && S.direct_tail_mr < S.direct_mr,
                "the tail tile has fewer rows than the direct tile");
  constexpr int kPanel = S.nr_vectors * V::kLanes;
  GemmKernelSet<typename V::Scalar> set;
  set.mr = S.mr;
  set.nr = kPanel;
  set.blocking = S.blocking;
  set.direct_mr = S.direct_mr;
  set.direct_nr = S.direct_nr_vectors * V::kLanes;
  set.direct_wide_mr = S.wide_mr;
  set.direct_wide_nr = S.wide_nr_vectors * V::kLanes;
  set.lanes = V::kLanes;
  set.direct_masks_edges = HasLaneMasks<V>;
  set.direct_pack_b_bytes = S.direct_pack_b_bytes;
  set.direct = &direct<V, S.direct_mr, S.direct_nr_vectors, kPanel, S.wide_mr, S.wide_nr_vectors,
                       S.direct_tail_mr>;
  set.direct_tiles = &direct_tiles<V, S.direct_mr, S.direct_nr_vectors, kPanel>;
  set.pack_a = &pack_a<V, S.mr>;
  set.pack_b = &pack_b<V, kPanel>;
  set.column_tile = &column_tile<V, S.mr, S.nr_vectors, S.unroll>;
  set.epilogue_only = &epilogue_only<V>;
  return set;
}

}  // namespace tessera::core::gemm
