// Half-precision storage: IEEE 754 binary16 (f16) and bfloat16 (bf16) as
// 16-bit storage types, and their conversions to and from f32
// (design.md §Half precision).
//
// Narrowing (f32 -> f16, f32 -> bf16) rounds to nearest, ties to even: a
// value past the format's largest finite one by half its ulp or more
// becomes infinity, one too small for its smallest subnormal by half a unit
// or less becomes a signed zero. Widening is exact. Infinities and signed
// zeros map to themselves; subnormals are kept (never flushed); a NaN stays
// a NaN, made quiet, with the payload bits that fit. The same inputs give
// the same bits on every ISA level, target and worker count.
//
//   std::vector<float> x = ...;
//   std::vector<tessera::f16> h(x.size());
//   tessera::try_convert(context, x, h);     // f32 -> f16
//   tessera::try_convert(context, h, x);     // and back
#pragma once

#include <cstdint>
#include <span>

#include "tessera/context.hpp"
#include "tessera/error.hpp"
#include "tessera/gemm.hpp"  // Layout, Transpose
#include "tessera/parallelism.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

// The bits of one value; no arithmetic (widen to float for that).
struct f16 {
  std::uint16_t bits = 0;
  friend constexpr bool operator==(f16, f16) = default;
};
struct bf16 {
  std::uint16_t bits = 0;
  friend constexpr bool operator==(bf16, bf16) = default;
};
static_assert(sizeof(f16) == 2 && sizeof(bf16) == 2, "16-bit storage, arrays of the bits");

// One value, the bits the kernels give.
f16 to_f16(float x) noexcept;
bf16 to_bf16(float x) noexcept;
float to_float(f16 x) noexcept;
float to_float(bf16 x) noexcept;

// y[i] = x[i] converted, i < x.size(); y.size() must equal x.size() and y
// must not overlap x. Bandwidth-bound: the bandwidth resolver picks the
// workers (design.md §Bandwidth resolver); the bits never depend on them.
Status try_convert(const Context& context, std::span<const float> x, std::span<f16> y,
                   Parallelism parallelism = {});
Status try_convert(const Context& context, std::span<const f16> x, std::span<float> y,
                   Parallelism parallelism = {});
Status try_convert(const Context& context, std::span<const float> x, std::span<bf16> y,
                   Parallelism parallelism = {});
Status try_convert(const Context& context, std::span<const bf16> x, std::span<float> y,
                   Parallelism parallelism = {});

// y = alpha op(A) x + beta y with A (m x n as stored, `layout`, lda) in f16
// or bf16 and x, y in f32: try_gemv's contract and arguments
// (tessera/blas1.hpp), A read at 2 bytes an element and widened as it is
// loaded. The bits equal try_gemv's on the widened A (try_convert) on the
// same level, for every worker count: the same f32 arithmetic in the same
// order. Where memory bounds a gemv (a large A), this reads half the bytes.
Status try_gemv(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                std::int64_t n, float alpha, const f16* a, std::int64_t lda, const float* x,
                std::int64_t incx, float beta, float* y, std::int64_t incy,
                Parallelism parallelism = {});
Status try_gemv(const Context& context, Layout layout, Transpose trans, std::int64_t m,
                std::int64_t n, float alpha, const bf16* a, std::int64_t lda, const float* x,
                std::int64_t incx, float beta, float* y, std::int64_t incy,
                Parallelism parallelism = {});

// *result = sum_i x[i] y[i] with x and y both in f16 (or both in bf16):
// try_dot's contract and arguments (tessera/blas1.hpp), each element
// widened exactly. The bits equal try_dot's on the widened vectors on the
// same level, for every worker count (the same blocks, partials and sum).
Status try_dot(const Context& context, std::int64_t n, const f16* x, std::int64_t incx,
               const f16* y, std::int64_t incy, float* result, Parallelism parallelism = {});
Status try_dot(const Context& context, std::int64_t n, const bf16* x, std::int64_t incx,
               const bf16* y, std::int64_t incy, float* result, Parallelism parallelism = {});

// ---- GEMM on half-precision operands ----
// C = alpha op(A) op(B) + beta C (tessera/gemm.hpp's contract: layouts,
// transposes, leading dimensions, the fused epilogue, the BLAS trivial
// cases) where each of A, B and C is stored in f32, f16 or bf16,
// independently. Arithmetic is f32 throughout.
//
// HalfGemmMode::kExact (the default): A and B are widened to f32 (exactly)
// as they are packed and the level's f32 kernels run, so C's bits equal
// try_gemm's on the widened inputs on the same level, for every worker
// count; a C in f16 or bf16 is that f32 result (after the epilogue)
// rounded to nearest even, and with beta != 0 it is read widened. A and B
// are never widened whole: only the panels in flight are f32.
// HalfGemmMode::kFast: bf16 A and B on the CPU's bf16 dot product
// (vdpbf16ps; the avx512, avx512_vnni and amx levels of a CPU with
// AVX512_BF16), which rounds differently: per pair of depth values
// (2p, 2p + 1) acc += a_hi b_hi, then acc += a_lo b_lo, each a fused
// multiply-add with denormal inputs read as zero and denormal results
// flushed; each slice of 2048 depth values summed from +0 so, the slices
// added to C in order; then alpha, beta and the epilogue as in exact mode.
// Its bits are the same for every worker count and path, and, the
// instruction being fully specified, on every CPU that runs it (checked on
// AMD Zen 4; an Intel CPU not yet). Where it cannot run (an f16 or f32 side, a PackedRhs B,
// another level, a CPU without AVX512_BF16) the call is kUnsupported
// naming why, never a silent exact run.
enum class Storage : std::uint8_t { kF32 = 0, kF16 = 1, kBf16 = 2 };
const char* storage_name(Storage storage) noexcept;  // "f32" / "f16" / "bf16"

enum class HalfGemmMode : std::uint8_t { kExact = 0, kFast = 1 };
const char* half_gemm_mode_name(HalfGemmMode mode) noexcept;  // "exact" / "fast"

// One matrix operand as stored: its storage, data and leading dimension
// (in elements).
struct GemmInput {
  Storage storage = Storage::kF32;
  const void* data = nullptr;
  std::int64_t ld = 0;
  GemmInput() = default;
  GemmInput(const float* p, std::int64_t ld_) : storage(Storage::kF32), data(p), ld(ld_) {}
  GemmInput(const f16* p, std::int64_t ld_) : storage(Storage::kF16), data(p), ld(ld_) {}
  GemmInput(const bf16* p, std::int64_t ld_) : storage(Storage::kBf16), data(p), ld(ld_) {}
};
struct GemmOutput {
  Storage storage = Storage::kF32;
  void* data = nullptr;
  std::int64_t ld = 0;
  GemmOutput() = default;
  GemmOutput(float* p, std::int64_t ld_) : storage(Storage::kF32), data(p), ld(ld_) {}
  GemmOutput(f16* p, std::int64_t ld_) : storage(Storage::kF16), data(p), ld(ld_) {}
  GemmOutput(bf16* p, std::int64_t ld_) : storage(Storage::kBf16), data(p), ld(ld_) {}
};

struct HalfGemmOptions {
  HalfGemmMode mode = HalfGemmMode::kExact;
  GemmEpilogue<float> epilogue;  // bias in f32; none by default
};

//   std::vector<tessera::f16> a(m * k), b(k * n);
//   std::vector<float> c(m * n);
//   tessera::try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, m, n, k,
//                     1.0f, {a.data(), k}, {b.data(), n}, 0.0f, {c.data(), n});
Status try_gemm(const Context& context, Layout layout, Transpose trans_a, Transpose trans_b,
                std::int64_t m, std::int64_t n, std::int64_t k, float alpha, GemmInput a,
                GemmInput b, float beta, GemmOutput c, const HalfGemmOptions& options = {},
                Parallelism parallelism = {});

// op(B) in f16 or bf16 packed once (widened to f32 as it is packed) for
// repeated products: an f32 PackedRhs, the bytes try_prepack_rhs makes
// from the widened B, usable by every try_gemm taking a PackedRhs.
Status try_prepack_rhs(const Context& context, Layout layout, Transpose trans_b,
                       std::int64_t k, std::int64_t n, GemmInput b, PackedRhs* out);
// A in any storage times a prepacked B (an f32 PackedRhs), C in any
// storage; the contract above.
Status try_gemm(const Context& context, Layout layout, Transpose trans_a, std::int64_t m,
                float alpha, GemmInput a, const PackedRhs& b, float beta, GemmOutput c,
                const HalfGemmOptions& options = {}, Parallelism parallelism = {});

// The batch C_i = alpha op(A_i) op(B_i) + beta C_i, i < batch, with A_i at
// a.data + i * stride_a elements of a's storage (B_i, C_i likewise; a
// stride of 0 shares one A or B). Every entry's bits are the single call's,
// for every worker count: the entries run in order, each on the context's
// workers. The C entries must not overlap each other (stride_c at least
// one C's span) or any A or B entry; every entry is checked before C_0 is
// written.
Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                Transpose trans_b, std::int64_t m, std::int64_t n,
                                std::int64_t k, float alpha, GemmInput a, std::int64_t stride_a,
                                GemmInput b, std::int64_t stride_b, float beta, GemmOutput c,
                                std::int64_t stride_c, std::int64_t batch,
                                const HalfGemmOptions& options = {},
                                Parallelism parallelism = {});

}  // namespace tessera
TESSERA_CXX_API_END
