// The integer GEMM's kernel bodies (kernels/qgemm_kernel.hpp), written once
// over a dot-product traits type Q and instantiated per ISA in the backend
// files (core/src/isa/kernels_<isa>.cc), which alone get the ISA's flags.
//
// Q provides, over 32-bit lanes of int32 accumulators:
//   Reg, kLanes, kPacking (the format it multiplies, QGemmPacking)
//   zero(), load(p)      kLanes x 4 packed bytes of B (one group of kLanes columns)
//   broadcast(p)         4 packed bytes of A, to every lane
//   dot(acc, a, b)       acc + per lane the sum of the group's products
//   store(int32* p, v)
//   Lane                 one-lane f32 traits of this ISA's own (the scalar
//                        traits, derived in the ISA's namespace)
// Every template here takes Q, so each ISA's copy is a distinct symbol and
// the linker never hands one ISA's code to another's path (design.md
// §Kernel core); the float output stage runs vmath over Q::Lane for the
// same reason.
// A tile runs its depth groups with the accumulators in registers, stores
// the raw sums to a local tile, and the output stage (finish_tile) corrects
// them for the zero points and writes the result. The output stage is plain
// C++ (integer arithmetic, then single IEEE float operations in a fixed
// order), the same code on every level, so its bits are too.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/src/kernels/qgemm_kernel.hpp"
#include "core/src/simd/vec_scalar.hpp"
#include "core/src/simd/vmath.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define TESSERA_QGEMM_INLINE __attribute__((always_inline)) inline
// Full unrolling of the tile's constant-trip loops, so the accumulators
// live in registers (gemm_microkernel.hpp's TESSERA_GEMM_UNROLL).
#define TESSERA_QGEMM_UNROLL _Pragma("GCC unroll 32")
#define TESSERA_QGEMM_PREFETCH_WRITE(p) __builtin_prefetch((p), 1)
#define TESSERA_QGEMM_RESTRICT __restrict
#else
#define TESSERA_QGEMM_INLINE inline
#define TESSERA_QGEMM_UNROLL
#define TESSERA_QGEMM_PREFETCH_WRITE(p) ((void)(p))
#define TESSERA_QGEMM_RESTRICT
#endif

namespace tessera::core::qgemm {

// ---- Canonical values ---------------------------------------------------

// What packing adds to a byte of operand kIsA (A) or B of type T.
template <class Q, bool kIsA, IntType T>
inline constexpr std::int32_t kShift =
    kIsA ? qgemm_a_shift(Q::kPacking, T) : qgemm_b_shift(Q::kPacking, T);

// The value packing stores for a source byte (kernels/qgemm_kernel.hpp: the
// stored value plus the shift).
template <class Q, bool kIsA, IntType T>
TESSERA_QGEMM_INLINE std::int32_t canonical(std::uint8_t byte) {
  const std::int32_t stored =
      T == IntType::kS8 ? static_cast<std::int8_t>(byte) : static_cast<std::int32_t>(byte);
  return stored + kShift<Q, kIsA, T>;
}

// ---- Packing -----------------------------------------------------------
//
// A panel holds, per depth group g, kLines lines (A: mr rows, B: nr
// columns) of one 32-bit word each: four bytes (quads), two int16 (pairs),
// or, for A in planes, two words per row (lo plane, then hi). Packing is a
// pure permutation with the sign-bit flip of the shift: the same bytes
// whoever packs. Two loops cover every stored layout, one per contiguous
// direction, both simple enough for the compiler to vectorize.

// A's layout in Q's packing: planes are A's alone (B stays in quads).
template <class Q, bool kIsA>
inline constexpr bool kPlanes = kIsA && Q::kPacking == QGemmPacking::kQuadU8S8Planes;

// The words of one line and group from its canonical values c[0..kG).
template <class Q, bool kIsA>
TESSERA_QGEMM_INLINE void store_group(std::uint8_t* at, const std::int32_t* c) {
  constexpr QGemmPacking P = Q::kPacking;
  if constexpr (P == QGemmPacking::kPairI16) {
    const std::uint32_t w = static_cast<std::uint16_t>(c[0]) |
                            static_cast<std::uint32_t>(static_cast<std::uint16_t>(c[1])) << 16;
    std::memcpy(at, &w, 4);
  } else if constexpr (kPlanes<Q, kIsA>) {
    std::uint32_t lo = 0, hi = 0;
    for (int t = 0; t < 4; ++t) {
      lo |= static_cast<std::uint32_t>(c[t] & 127) << (8 * t);
      hi |= static_cast<std::uint32_t>(c[t] >> 7) << (8 * t);
    }
    std::memcpy(at, &lo, 4);
    std::memcpy(at + 4, &hi, 4);
  } else {
    std::uint32_t w = 0;
    for (int t = 0; t < 4; ++t) w |= static_cast<std::uint32_t>(c[t] & 255) << (8 * t);
    std::memcpy(at, &w, 4);
  }
}

// Bytes of one line's words in a group (A in planes: two words).
template <class Q, bool kIsA>
inline constexpr int kLineBytes = kPlanes<Q, kIsA> ? 8 : 4;

// Lines contiguous in memory, depth strided: value (p, line l) at
// src[p * depth_stride + l], lines [0, lines) into panels of kLines lines
// (`bytes` each; a partial last panel already zeroed). A depth group at a
// time across every panel, so the source is read row after row, as stored
// (a panel at a time would walk it in strides of depth_stride). sums[l]
// (when not null) = the line's canonical values' sum.
template <class Q, int kLines, bool kIsA, IntType T>
void pack_lines(std::int64_t k, std::int64_t lines, const std::uint8_t* TESSERA_QGEMM_RESTRICT src,
                std::int64_t depth_stride, std::uint8_t* TESSERA_QGEMM_RESTRICT dst,
                std::int64_t bytes, std::uint32_t* TESSERA_QGEMM_RESTRICT sums) {
  constexpr int kG = qgemm_k_group(Q::kPacking);
  constexpr int kB = kLineBytes<Q, kIsA>;
  const std::int64_t groups = (k + kG - 1) / kG;
  if (sums != nullptr) {
    for (std::int64_t l = 0; l < lines; ++l) sums[l] = 0;
  }
  for (std::int64_t g = 0; g < groups; ++g) {
    // The rows of this group, past k: none (the zeros of the last group).
    const int depth = k - g * kG < kG ? static_cast<int>(k - g * kG) : kG;
    const std::uint8_t* line[kG];
    for (int t = 0; t < kG; ++t) line[t] = src + (g * kG + (t < depth ? t : 0)) * depth_stride;
    for (std::int64_t l0 = 0; l0 < lines; l0 += kLines) {
      const int valid = lines - l0 < kLines ? static_cast<int>(lines - l0) : kLines;
      std::uint8_t* out = dst + (l0 / kLines) * bytes + g * kLines * kB;
      if (depth == kG) {
        for (int l = 0; l < valid; ++l) {
          std::int32_t c[kG];
          std::uint32_t sum = 0;
          for (int t = 0; t < kG; ++t) {
            c[t] = canonical<Q, kIsA, T>(line[t][l0 + l]);
            sum += static_cast<std::uint32_t>(c[t]);
          }
          if (sums != nullptr) sums[l0 + l] += sum;
          store_group<Q, kIsA>(out + l * kB, c);
        }
      } else {
        for (int l = 0; l < valid; ++l) {
          std::int32_t c[kG] = {};
          std::uint32_t sum = 0;
          for (int t = 0; t < depth; ++t) {
            c[t] = canonical<Q, kIsA, T>(line[t][l0 + l]);
            sum += static_cast<std::uint32_t>(c[t]);
          }
          if (sums != nullptr) sums[l0 + l] += sum;
          store_group<Q, kIsA>(out + l * kB, c);
        }
      }
    }
  }
}

// Depth contiguous in memory, lines strided: value (p, line l) at
// src[l * line_stride + p]. sums[l] = the line's canonical values' sum.
template <class Q, int kLines, bool kIsA, IntType T>
void pack_depths(std::int64_t k, int valid, const std::uint8_t* src, std::int64_t line_stride,
                 std::uint8_t* panel, std::uint32_t* sums) {
  constexpr QGemmPacking P = Q::kPacking;
  constexpr int kG = qgemm_k_group(P);
  constexpr int kB = kLineBytes<Q, kIsA>;
  const std::int64_t full = k / kG;
  for (int l = 0; l < valid; ++l) {
    const std::uint8_t* s = src + l * line_stride;
    std::uint8_t* out = panel + l * kB;
    if constexpr (P != QGemmPacking::kPairI16 && !kPlanes<Q, kIsA>) {
      // A group is the four stored bytes with the shift's sign-bit flip.
      constexpr std::uint32_t kFlip = kShift<Q, kIsA, T> != 0 ? 0x80808080u : 0u;
      for (std::int64_t g = 0; g < full; ++g) {
        std::uint32_t w;
        std::memcpy(&w, s + g * kG, 4);
        w ^= kFlip;
        std::memcpy(out + g * kLines * kB, &w, 4);
      }
    } else {
      for (std::int64_t g = 0; g < full; ++g) {
        std::int32_t c[kG];
        for (int t = 0; t < kG; ++t) c[t] = canonical<Q, kIsA, T>(s[g * kG + t]);
        store_group<Q, kIsA>(out + g * kLines * kB, c);
      }
    }
    if (full * kG != k) {
      std::int32_t c[kG] = {};
      for (std::int64_t p = full * kG; p < k; ++p) c[p - full * kG] = canonical<Q, kIsA, T>(s[p]);
      store_group<Q, kIsA>(out + full * kLines * kB, c);
    }
    std::uint32_t sum = 0;
    for (std::int64_t p = 0; p < k; ++p) sum += static_cast<std::uint32_t>(canonical<Q, kIsA, T>(s[p]));
    sums[l] = sum;
  }
}

// Neither direction contiguous (a dimension of 1 with any stride): one
// value at a time.
template <class Q, int kLines, bool kIsA, IntType T>
void pack_strided(std::int64_t k, int valid, const std::uint8_t* src, std::int64_t line_stride,
                  std::int64_t depth_stride, std::uint8_t* panel, std::uint32_t* sums) {
  constexpr int kG = qgemm_k_group(Q::kPacking);
  constexpr int kB = kLineBytes<Q, kIsA>;
  const std::int64_t groups = (k + kG - 1) / kG;
  for (int l = 0; l < valid; ++l) {
    std::uint32_t sum = 0;
    for (std::int64_t g = 0; g < groups; ++g) {
      std::int32_t c[kG] = {};
      for (int t = 0; t < kG && g * kG + t < k; ++t) {
        c[t] = canonical<Q, kIsA, T>(src[l * line_stride + (g * kG + t) * depth_stride]);
        sum += static_cast<std::uint32_t>(c[t]);
      }
      store_group<Q, kIsA>(panel + (g * kLines + l) * kB, c);
    }
    sums[l] = sum;
  }
}

// Panels of kLines lines from value (p, line l) at src[l * ls + p * ds]:
// zero past `lines` and past k; sums[l] the lines' canonical sums (not
// kept when null).
template <class Q, int kLines, bool kIsA, IntType T>
void pack_panels(std::int64_t lines, std::int64_t k, const std::uint8_t* src, std::int64_t ls,
                 std::int64_t ds, std::uint8_t* dst, std::uint32_t* sums) {
  constexpr int kG = qgemm_k_group(Q::kPacking);
  const std::int64_t groups = (k + kG - 1) / kG;
  const std::int64_t bytes = groups * kLines * kLineBytes<Q, kIsA>;
  // Every word of a valid line is written; the lines past `lines` are 0.
  if (lines % kLines != 0) {
    std::memset(dst + (lines / kLines) * bytes, 0, static_cast<std::size_t>(bytes));
  }
  if (ls == 1) {
    pack_lines<Q, kLines, kIsA, T>(k, lines, src, ds, dst, bytes, sums);
    return;
  }
  for (std::int64_t l0 = 0; l0 < lines; l0 += kLines) {
    std::uint8_t* panel = dst + (l0 / kLines) * bytes;
    const int valid = lines - l0 < kLines ? static_cast<int>(lines - l0) : kLines;
    std::uint32_t scratch[kLines];
    std::uint32_t* s = sums != nullptr ? sums + l0 : scratch;
    const std::uint8_t* from = src + l0 * ls;
    if (ds == 1) {
      pack_depths<Q, kLines, kIsA, T>(k, valid, from, ls, panel, s);
    } else {
      pack_strided<Q, kLines, kIsA, T>(k, valid, from, ls, ds, panel, s);
    }
  }
}

// QPackAFn for Q's format and mr = MR.
template <class Q, int MR>
void pack_a(std::int64_t rows, std::int64_t k, const std::uint8_t* a, std::int64_t rs,
            std::int64_t cs, IntType type, std::uint8_t* dst, std::int32_t* row_sums) {
  auto* sums = reinterpret_cast<std::uint32_t*>(row_sums);
  if (type == IntType::kS8) {
    pack_panels<Q, MR, true, IntType::kS8>(rows, k, a, rs, cs, dst, sums);
  } else {
    pack_panels<Q, MR, true, IntType::kU8>(rows, k, a, rs, cs, dst, sums);
  }
}

// QPackAFn in the row-major layout (QPackedALayout::kRowMajor): panels of
// one row each, back to back.
template <class Q>
void pack_a_rows(std::int64_t rows, std::int64_t k, const std::uint8_t* a, std::int64_t rs,
                 std::int64_t cs, IntType type, std::uint8_t* dst, std::int32_t* row_sums) {
  static_assert(!kPlanes<Q, true>, "row-major A panels hold quads");
  auto* sums = reinterpret_cast<std::uint32_t*>(row_sums);
  if (type == IntType::kS8) {
    pack_panels<Q, 1, true, IntType::kS8>(rows, k, a, rs, cs, dst, sums);
  } else {
    pack_panels<Q, 1, true, IntType::kU8>(rows, k, a, rs, cs, dst, sums);
  }
}

// The canonical column sums of packed B panels (cols columns, `groups`
// depth groups), by the kernel's own dot product against a broadcast of
// ones: one multiply-add per vector of columns and group, while the panels
// are still in cache, instead of a widening sum in the packing loop.
template <class Q, int NR>
void packed_column_sums(std::int64_t cols, std::int64_t groups, const std::uint8_t* panels,
                        std::int32_t* col_sums) {
  using Reg = typename Q::Reg;
  constexpr int kL = Q::kLanes;
  constexpr int kNv = NR / kL;
  // 1 in every multiplied element: four bytes, or two int16.
  const std::uint32_t ones_word = Q::kPacking == QGemmPacking::kPairI16 ? 0x00010001u : 0x01010101u;
  std::uint8_t ones_bytes[4];
  std::memcpy(ones_bytes, &ones_word, 4);
  const Reg ones = Q::broadcast(ones_bytes);
  const std::int64_t panel_bytes = qgemm_b_panel_bytes(NR, groups);
  alignas(64) std::int32_t sums[NR];
  for (std::int64_t j0 = 0; j0 < cols; j0 += NR) {
    const std::uint8_t* panel = panels + (j0 / NR) * panel_bytes;
    Reg acc[kNv];
    TESSERA_QGEMM_UNROLL
    for (int v = 0; v < kNv; ++v) acc[v] = Q::zero();
    for (std::int64_t g = 0; g < groups; ++g) {
      TESSERA_QGEMM_UNROLL
      for (int v = 0; v < kNv; ++v) acc[v] = Q::dot(acc[v], ones, Q::load(panel + (g * NR + v * kL) * 4));
    }
    TESSERA_QGEMM_UNROLL
    for (int v = 0; v < kNv; ++v) Q::store(sums + v * kL, acc[v]);
    const std::int64_t valid = cols - j0 < NR ? cols - j0 : NR;
    for (std::int64_t j = 0; j < valid; ++j) col_sums[j0 + j] = sums[j];
  }
}

// QPackBFn for Q's format and nr = NR.
template <class Q, int NR>
void pack_b(std::int64_t k, std::int64_t cols, const std::uint8_t* b, std::int64_t rs,
            std::int64_t cs, IntType type, std::uint8_t* dst, std::int32_t* col_sums) {
  if (type == IntType::kS8) {
    pack_panels<Q, NR, false, IntType::kS8>(cols, k, b, cs, rs, dst, nullptr);
  } else {
    pack_panels<Q, NR, false, IntType::kU8>(cols, k, b, cs, rs, dst, nullptr);
  }
  constexpr int kG = qgemm_k_group(Q::kPacking);
  packed_column_sums<Q, NR>(cols, (k + kG - 1) / kG, dst, col_sums);
}

// ---- The output stage ----------------------------------------------------

// rne(x) for |x| <= 2^22: adding and subtracting 1.5 * 2^23 rounds to the
// nearest integer, ties to even, in any rounding-mode-free IEEE arithmetic
// (the requantized value is clamped to [-255, 255] first).
template <class Q>
TESSERA_QGEMM_INLINE float round_half_even_small(float x) {
  constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23
  return (x + kMagic) - kMagic;
}

// out[j * cs] = value(j) for j in [0, cols): contiguous when cs is 1 (a
// row-major output), a loop the compiler vectorizes; the values are
// computed in the store loop, never staged in a row buffer (which the
// compiler turns into a memcpy call).
template <class T, class F>
TESSERA_QGEMM_INLINE void write_row(T* out, std::int64_t cs, std::int64_t cols, F&& value) {
  if (cs == 1) {
    for (std::int64_t j = 0; j < cols; ++j) out[j] = value(j);
  } else {
    for (std::int64_t j = 0; j < cols; ++j) out[j * cs] = value(j);
  }
}

// The float output's row: act(float(v[j]) * factor[j] + bias), one
// activation per loop.
template <class Q, Activation kAct>
TESSERA_QGEMM_INLINE void write_float_row(float* out, std::int64_t cs, std::int64_t cols,
                                          const std::uint32_t* v, const float* factor,
                                          const float* bias, std::int64_t bias_step) {
  using S = typename Q::Lane;
  write_row(out, cs, cols, [&](std::int64_t j) {
    float x = static_cast<float>(static_cast<std::int32_t>(v[j])) * factor[j];
    if (bias != nullptr) x = x + bias[j * bias_step];
    if constexpr (kAct == Activation::kRelu) return S::relu(x);
    if constexpr (kAct == Activation::kGelu) return simd::vgelu<S>(x);
    if constexpr (kAct == Activation::kSigmoid) return simd::vsigmoid<S>(x);
    return x;
  });
}

// The corrected sums of a rows x cols tile (sums[i * ld + j], raw), through
// the output stage, seen from the tile's origin. uint32 arithmetic: the
// corrections wrap modulo 2^32 exactly as the int32 sum does. Each row's
// steps are loops over the columns of plain integer and single IEEE float
// operations (no contraction: -ffp-contract=off), which the compiler may
// vectorize without changing a bit.
template <class Q, int kMaxCols>
void finish_tile(std::int64_t rows, std::int64_t cols, const std::int32_t* sums,
                 std::int64_t ld, const QGemmCorrection& c, const QGemmOutputStage& o) {
  // Per column: k za zb[j] - za colsum[j]; per element: - zb[j] rowsum[i].
  std::uint32_t col_term[kMaxCols];
  std::uint32_t neg_zb[kMaxCols];
  const auto za = static_cast<std::uint32_t>(c.za);
  const auto k = static_cast<std::uint32_t>(c.k);
  for (std::int64_t j = 0; j < cols; ++j) {
    const auto zb = static_cast<std::uint32_t>(c.zb.at(j));
    col_term[j] = k * za * zb - za * static_cast<std::uint32_t>(c.col_sums[j]);
    neg_zb[j] = 0u - zb;
  }
  // The per-column float factor of the requantized and float outputs.
  float factor[kMaxCols];
  if (o.kind != QGemmOutputKind::kInt32) {
    const QGemmPerColumn<float>& f =
        o.kind == QGemmOutputKind::kRequantize ? o.multiplier : o.scale;
    for (std::int64_t j = 0; j < cols; ++j) factor[j] = f.at(j);
  }
  const bool s8 = o.y_type == IntType::kS8;
  const auto lo = static_cast<float>((s8 ? -128 : 0) - o.y_zero_point);
  const auto hi = static_cast<float>((s8 ? 127 : 255) - o.y_zero_point);
  const std::int32_t y_zero = o.y_zero_point;
  std::uint32_t v[kMaxCols];
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int32_t* raw = sums + i * ld;
    const auto rsum = c.row_sums != nullptr ? static_cast<std::uint32_t>(c.row_sums[i]) : 0u;
    for (std::int64_t j = 0; j < cols; ++j) {
      v[j] = static_cast<std::uint32_t>(raw[j]) + col_term[j] + neg_zb[j] * rsum;
    }
    switch (o.kind) {
      case QGemmOutputKind::kInt32: {
        auto* out = static_cast<std::int32_t*>(o.out) + i * o.rs;
        if (o.accumulate) {
          if (o.cs == 1) {
            for (std::int64_t j = 0; j < cols; ++j) {
              out[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(out[j]) + v[j]);
            }
          } else {
            for (std::int64_t j = 0; j < cols; ++j) {
              out[j * o.cs] =
                  static_cast<std::int32_t>(static_cast<std::uint32_t>(out[j * o.cs]) + v[j]);
            }
          }
        } else {
          write_row(out, o.cs, cols, [&](std::int64_t j) { return static_cast<std::int32_t>(v[j]); });
        }
        break;
      }
      case QGemmOutputKind::kRequantize:
        write_row(static_cast<std::uint8_t*>(o.out) + i * o.rs, o.cs, cols, [&](std::int64_t j) {
          float x = static_cast<float>(static_cast<std::int32_t>(v[j])) * factor[j];
          x = x < lo ? lo : x;
          x = x > hi ? hi : x;
          return static_cast<std::uint8_t>(
              static_cast<std::int32_t>(round_half_even_small<Q>(x)) + y_zero);
        });
        break;
      case QGemmOutputKind::kFloat: {
        auto* out = static_cast<float*>(o.out) + i * o.rs;
        const float* bias = o.bias_kind == BiasKind::kPerColumn ? o.bias
                            : o.bias_kind == BiasKind::kPerRow  ? o.bias + i
                                                                : nullptr;
        const std::int64_t step = o.bias_kind == BiasKind::kPerColumn ? 1 : 0;
        switch (o.activation) {
          case Activation::kNone:
            write_float_row<Q, Activation::kNone>(out, o.cs, cols, v, factor, bias, step);
            break;
          case Activation::kRelu:
            write_float_row<Q, Activation::kRelu>(out, o.cs, cols, v, factor, bias, step);
            break;
          case Activation::kGelu:
            write_float_row<Q, Activation::kGelu>(out, o.cs, cols, v, factor, bias, step);
            break;
          case Activation::kSigmoid:
            write_float_row<Q, Activation::kSigmoid>(out, o.cs, cols, v, factor, bias, step);
            break;
        }
        break;
      }
    }
  }
}

// ---- Tiles ---------------------------------------------------------------

// Whether Q's level prefetches (Q::kPrefetches, true when Q does not say).
// Where the target has no prefetch instruction (WebAssembly) a loop of
// prefetches compiles to an empty loop that still runs: Emscripten 3.1.6's
// build of the SIMD128 tile spent 7% of a 1024^3 product in one.
template <class Q>
constexpr bool prefetches() {
  if constexpr (requires { Q::kPrefetches; }) {
    return Q::kPrefetches;
  } else {
    return true;
  }
}

// The output lines of a tile, prefetched for writing while its depth loop
// runs: a large output is not in cache, and the output stage would
// otherwise wait for each line's read-for-ownership. Asked for all at once
// before the loop (rest()), the burst stalls on the line fill buffers (11%
// of the samples of a 1024^3 product's vpdpbusd tiles, and of a 2048^3
// product's AMX tiles, were on it); the AMX tile asks a few per depth
// block (next()). Line i is byte 64 (i %
// per_row) of row i / per_row. None on a level without prefetch, and none
// for an output that is not row-contiguous (cs != 1).
class LinePrefetch {
 public:
  // The output rows [0, rows) x columns [0, cols), asked for over `steps`
  // calls of next().
  LinePrefetch(bool enabled, std::int64_t rows, std::int64_t cols, const QGemmOutputStage& output,
               std::int64_t steps)
      : base_(static_cast<const char*>(output.out)),
        row_bytes_(output.rs * output.element_bytes()),
        per_row_((cols * output.element_bytes() + 63) / 64),
        count_(enabled && output.cs == 1 ? rows * per_row_ : 0),
        per_step_(steps > 0 ? (count_ + steps - 1) / steps : count_) {}
  // The next step's lines.
  TESSERA_QGEMM_INLINE void next() {
    for (std::int64_t i = 0; i < per_step_ && done_ < count_; ++i, ++done_) {
      TESSERA_QGEMM_PREFETCH_WRITE(base_ + row_ * row_bytes_ + col_ * 64);
      if (++col_ == per_row_) {
        col_ = 0;
        ++row_;
      }
    }
  }
  // Every line not asked for yet.
  void rest() {
    while (done_ < count_) next();
  }

 private:
  const char* base_;
  std::int64_t row_bytes_, per_row_, count_, per_step_;
  std::int64_t done_ = 0, row_ = 0, col_ = 0;
};

// The raw sums of kRows panel rows by kNv vectors of columns over `groups`
// depth groups, to out (kRows x kNv * lanes, row-major); A's groups as
// `a` says (kernels/qgemm_kernel.hpp), B's a packed panel.
template <class Q, int kRows, int kNv>
TESSERA_QGEMM_INLINE void raw_sums(std::int64_t groups, const QGemmLhs& a,
                                   std::int64_t tail_group_stride, const std::uint8_t* b,
                                   std::int32_t* out) {
  using Reg = typename Q::Reg;
  constexpr int kL = Q::kLanes;
  Reg acc[kRows][kNv];
  TESSERA_QGEMM_UNROLL
  for (int r = 0; r < kRows; ++r) {
    TESSERA_QGEMM_UNROLL
    for (int v = 0; v < kNv; ++v) acc[r][v] = Q::zero();
  }
  // One loop per source of A: as given, then the packed tail. The operand
  // pointers step by their strides: an index times a stride (64-bit, for
  // a 32-bit wasm pointer) left to the compiler was a multiply and two
  // stack reloads per step in Emscripten 3.1.6's build (clang 14), where
  // clang 19 strength-reduced it: 55 against 74 GOP/s for the same
  // SIMD128 tile.
  constexpr std::int64_t kGroupBytes = kNv * kL * 4;
  auto run = [&](std::int64_t g0, std::int64_t g1, const std::uint8_t* lhs, std::int64_t rs,
                 std::int64_t gs) {
    const std::uint8_t* bg = b + g0 * kGroupBytes;
    const std::uint8_t* ag = lhs;
    for (std::int64_t g = g0; g < g1; ++g, bg += kGroupBytes, ag += gs) {
      Reg bv[kNv];
      TESSERA_QGEMM_UNROLL
      for (int v = 0; v < kNv; ++v) bv[v] = Q::load(bg + v * kL * 4);
      TESSERA_QGEMM_UNROLL
      for (int r = 0; r < kRows; ++r) {
        const Reg av = Q::broadcast(ag + r * rs);
        TESSERA_QGEMM_UNROLL
        for (int v = 0; v < kNv; ++v) acc[r][v] = Q::dot(acc[r][v], av, bv[v]);
      }
    }
  };
  const std::int64_t direct = a.direct_groups < groups ? a.direct_groups : groups;
  if constexpr (kRows == 1) {
    // One row (a token's linear layer: bandwidth-bound on B): the depth in
    // kS parts side by side, kS streams through B's panel (one stream
    // reads from memory slower than several) and kS times the chains.
    constexpr int kS = 4;
    const std::int64_t part = direct / kS;
    Reg more[kS - 1][kNv];
    TESSERA_QGEMM_UNROLL
    for (int t = 0; t < kS - 1; ++t) {
      TESSERA_QGEMM_UNROLL
      for (int v = 0; v < kNv; ++v) more[t][v] = Q::zero();
    }
    const std::int64_t b_part = part * kNv * kL * 4, a_part = part * a.group_stride;
    for (std::int64_t g = 0; g < part; ++g) {
      const std::uint8_t* bg = b + g * kNv * kL * 4;
      const std::uint8_t* ag = a.data + g * a.group_stride;
      {
        const Reg av = Q::broadcast(ag);
        TESSERA_QGEMM_UNROLL
        for (int v = 0; v < kNv; ++v) acc[0][v] = Q::dot(acc[0][v], av, Q::load(bg + v * kL * 4));
      }
      TESSERA_QGEMM_UNROLL
      for (int t = 0; t < kS - 1; ++t) {
        const Reg av = Q::broadcast(ag + (t + 1) * a_part);
        TESSERA_QGEMM_UNROLL
        for (int v = 0; v < kNv; ++v) {
          more[t][v] = Q::dot(more[t][v], av, Q::load(bg + (t + 1) * b_part + v * kL * 4));
        }
      }
    }
    run(kS * part, direct, a.data + kS * a_part, a.row_stride, a.group_stride);
    if (direct < groups) run(direct, groups, a.tail, 4, tail_group_stride);
    // The parts' sums added in uint32 (exact modulo 2^32, as the dot's).
    alignas(64) std::int32_t extra[kNv * kL];
    TESSERA_QGEMM_UNROLL
    for (int v = 0; v < kNv; ++v) Q::store(out + v * kL, acc[0][v]);
    TESSERA_QGEMM_UNROLL
    for (int t = 0; t < kS - 1; ++t) {
      TESSERA_QGEMM_UNROLL
      for (int v = 0; v < kNv; ++v) Q::store(extra + v * kL, more[t][v]);
      for (int j = 0; j < kNv * kL; ++j) {
        out[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(out[j]) +
                                           static_cast<std::uint32_t>(extra[j]));
      }
    }
    return;
  }
  run(0, direct, a.data, a.row_stride, a.group_stride);
  if (direct < groups) run(direct, groups, a.tail, 4, tail_group_stride);
  TESSERA_QGEMM_UNROLL
  for (int r = 0; r < kRows; ++r) {
    TESSERA_QGEMM_UNROLL
    for (int v = 0; v < kNv; ++v) Q::store(out + (r * kNv + v) * kL, acc[r][v]);
  }
}

// f(std::integral_constant<int, R>) with R = rows (1..MR) as a constant:
// a tile of fewer rows than the kernel's multiplies only those (a 1-row
// product, a token's linear layer, runs one row, not mr).
template <int MR, int R = 1, class F>
TESSERA_QGEMM_INLINE void with_rows(std::int64_t rows, F&& f) {
  if constexpr (R < MR) {
    if (rows > R) {
      with_rows<MR, R + 1>(rows, static_cast<F&&>(f));
      return;
    }
  }
  f(std::integral_constant<int, R>{});
}


// QTileFn for traits Q, MR rows and NV vectors of columns.
template <class Q, int MR, int NV>
void tile(std::int64_t rows, std::int64_t cols, std::int64_t groups, const QGemmLhs& a,
          const std::uint8_t* b_panel, const QGemmCorrection& correction,
          const QGemmOutputStage& output) {
  constexpr int kNr = NV * Q::kLanes;
  constexpr int kPlanes = qgemm_a_rows_per_row(Q::kPacking);
  alignas(64) std::int32_t sums[MR * kPlanes * kNr];
  // The output lines at once, before the depth loop: spread over it (a
  // check and a prefetch per depth group) the vector tiles ran 5-10%
  // slower (1024^3 and 2048^3, avx512_vnni and avx2, Xeon), where the AMX
  // tile gained.
  LinePrefetch(prefetches<Q>(), rows, cols, output, 0).rest();
  with_rows<MR>(rows, [&](auto rows_tag) {
    constexpr int kR = decltype(rows_tag)::value;
    raw_sums<Q, kR * kPlanes, NV>(groups, a, MR * kPlanes * 4, b_panel, sums);
  });
  if constexpr (kPlanes == 2) {
    // Row i's sum is its lo plane's plus 128 times its hi plane's.
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int32_t* lo = sums + 2 * i * kNr;
      const std::int32_t* hi = lo + kNr;
      std::int32_t* out = sums + i * kNr;
      for (int j = 0; j < kNr; ++j) {
        out[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(lo[j]) +
                                           (static_cast<std::uint32_t>(hi[j]) << 7));
      }
    }
  }
  finish_tile<Q, kNr>(rows, cols, sums, kNr, correction, output);
}

// QSumRowsFn for Q's format.
template <class Q>
void sum_a_rows(std::int64_t rows, std::int64_t k, const std::uint8_t* a, std::int64_t rs,
                IntType type, std::int32_t* row_sums) {
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::uint8_t* row = a + i * rs;
    std::uint32_t sum = 0;
    if (type == IntType::kS8) {
      for (std::int64_t p = 0; p < k; ++p) {
        sum += static_cast<std::uint32_t>(canonical<Q, true, IntType::kS8>(row[p]));
      }
    } else {
      for (std::int64_t p = 0; p < k; ++p) {
        sum += static_cast<std::uint32_t>(canonical<Q, true, IntType::kU8>(row[p]));
      }
    }
    row_sums[i] = static_cast<std::int32_t>(sum);
  }
}

// The kernel set of traits Q: tile MR x (NV vectors).
template <class Q, int MR, int NV>
constexpr QGemmKernelSet make_qgemm_kernel_set(const char* dot) {
  constexpr int kNr = NV * Q::kLanes;
  QGemmKernelSet set;
  set.mr = MR;
  set.nr = kNr;
  set.packing = Q::kPacking;
  set.dot = dot;
  set.pack_a = &pack_a<Q, MR>;
  set.pack_b = &pack_b<Q, kNr>;
  set.tile = &tile<Q, MR, NV>;
  set.sum_a_rows = &sum_a_rows<Q>;
  return set;
}

}  // namespace tessera::core::qgemm
