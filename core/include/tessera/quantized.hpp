// Integer GEMM on 8-bit operands, exact (design.md §Integer GEMM): ONNX's
// MatMulInteger, QLinearMatMul and MatMulIntegerToFloat, and
// DynamicQuantizeLinear to quantize a float activation for them.
//
// gemm_integer replaces the serial loop
//     for (i = 0; i < m; ++i)
//       for (j = 0; j < n; ++j) {
//         int32_t s = 0;                                  // wraps mod 2^32
//         for (p = 0; p < k; ++p)
//           s += (op(A)(i, p) - za) * (op(B)(p, j) - zb[j]);
//         C(i, j) = s + beta * C(i, j);                   // beta 0 or 1
//       }
// with A u8 or s8, B s8 or u8, za A's zero point and zb[j] B's (per tensor:
// the same for every j; per column: one per column of op(B)). op(X), the
// layouts and leading dimensions are as in tessera/gemm.hpp. The sum is the
// exact integer one, wrapping modulo 2^32 where it overflows (ONNX's
// MatMulInteger), on every ISA level and target, for every worker count:
// no 16-bit intermediate saturates anywhere, and integer sums do not depend
// on their order, so the same inputs give the same bits everywhere.
//
// qlinear_gemm stores y(i, j) = saturate(round_half_even(float(s) *
// multiplier[j]) + y_zero_point) to u8 or s8 (ONNX's QLinearMatMul),
// multiplier[j] = a_scale * b_scale[j] / y_scale formed in f32 in that order,
// as onnxruntime's CPU provider forms it: the same bits as onnxruntime for
// the same inputs. gemm_integer_to_f32 stores y(i, j) = act(float(s) *
// (a_scale * b_scale[j]) + bias[j]) (onnxruntime's MatMulIntegerToFloat, with
// the GEMM epilogue's activations). Both apply the output stage to the int32
// tile in registers: no int32 matrix is written. Their float arithmetic is
// single IEEE operations in a fixed order (relu, gelu and sigmoid are the
// scalar level's, tessera/elementwise.hpp), so they too give the same bits on
// every level and target.
//
// Validation (design.md §Bad input), before anything is written: the
// dimensions, leading dimensions, pointers and overlaps as for gemm, unknown
// enum values, a zero point outside its operand's type, a per-column zero
// point or scale array of the wrong length, beta other than 0 or 1, and a
// scale that is not a positive finite number (or a multiplier that is not
// finite) are invalid_argument errors naming the argument.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "tessera/context.hpp"
#include "tessera/error.hpp"
#include "tessera/gemm.hpp"
#include "tessera/parallelism.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

// The element type of an 8-bit quantized operand.
enum class IntType : std::uint8_t { kU8 = 0, kS8 = 1 };
const char* int_type_name(IntType type) noexcept;  // "u8" / "s8"

// An 8-bit matrix operand as stored: op(X) is X or its transpose, X(r, c)
// at data[r*ld + c] (row-major) or data[r + c*ld] (column-major).
struct IntMatrix {
  IntType type = IntType::kU8;
  const void* data = nullptr;
  std::int64_t ld = 0;
  Transpose trans = Transpose::kNo;
};

// An operand's quantization: a zero point and a scale, per tensor or (B
// only) per column of op(B). Per tensor: count 1, zero_points and scales
// null; zero_point and scale hold the values. Per column: count n,
// zero_points[j] and (where the operation has scales) scales[j] for column
// j; both given per column, as ONNX requires the two to have one shape.
struct QuantParams {
  std::int32_t zero_point = 0;
  float scale = 1.0f;
  const std::int32_t* zero_points = nullptr;
  const float* scales = nullptr;
  std::int64_t count = 1;

  static QuantParams per_tensor(std::int32_t zero_point, float scale = 1.0f) {
    QuantParams q;
    q.zero_point = zero_point;
    q.scale = scale;
    return q;
  }
  static QuantParams per_column(const std::int32_t* zero_points, const float* scales,
                                std::int64_t count) {
    QuantParams q;
    q.zero_points = zero_points;
    q.scales = scales;
    q.count = count;
    return q;
  }
};

namespace detail {
struct PackedIntRhsState;
}

// op(B) of an integer GEMM packed once for products with many A (a model's
// weights): the panels in the level's own format and B's column sums (what
// the correction for A's zero point needs). B's zero points and scales are
// given with each call. Packed for one ISA level: a call on a context of
// another level is an explicit error, never a silent repack. Move-only.
class PackedIntRhs {
 public:
  PackedIntRhs() noexcept;
  ~PackedIntRhs();
  PackedIntRhs(PackedIntRhs&&) noexcept;
  PackedIntRhs& operator=(PackedIntRhs&&) noexcept;
  PackedIntRhs(const PackedIntRhs&) = delete;
  PackedIntRhs& operator=(const PackedIntRhs&) = delete;

  bool empty() const noexcept { return state_ == nullptr; }
  IntType type() const noexcept;
  Isa isa() const noexcept;
  std::int64_t k() const noexcept;  // rows of op(B)
  std::int64_t n() const noexcept;  // columns of op(B)
  std::size_t bytes() const noexcept;

  // Internal.
  const detail::PackedIntRhsState* state() const noexcept { return state_.get(); }
  explicit PackedIntRhs(std::unique_ptr<detail::PackedIntRhsState> state) noexcept;

 private:
  std::unique_ptr<detail::PackedIntRhsState> state_;
};

// What an integer GEMM call on this context would do, and why.
struct IntGemmPlan {
  Isa isa = Isa::kScalar;
  KernelFamily family = KernelFamily::kOptimized;
  std::int64_t m = 0, n = 0, k = 0;
  int mr = 0, nr = 0;        // register tile
  int k_group = 0;           // depth values one dot step takes per lane
  std::string kernel;        // the dot instruction family ("vpdpbusd", ...)
  std::int64_t mc = 0, nc = 0;
  int width = 1;
  int workers = 1;
  int tier = 1;
  std::string worker_rule;
  std::string worker_reason;
  std::string grain;
  std::int64_t jobs_per_step = 0;
  std::string to_string() const;
};
Status try_plan_gemm_integer(const Context& context, std::int64_t m, std::int64_t n,
                             std::int64_t k, Parallelism parallelism, IntGemmPlan* out);

// MatMulInteger: C (int32, m x n, leading dimension ldc, in `layout`) =
// (op(A) - a.zero_point) (op(B) - zb) + beta C. `qa` per tensor; `qb` per
// tensor or per column; scales are not read.
Status try_gemm_integer(const Context& context, Layout layout, std::int64_t m, std::int64_t n,
                        std::int64_t k, const IntMatrix& a, const QuantParams& qa,
                        const IntMatrix& b, const QuantParams& qb, std::int32_t beta,
                        std::int32_t* c, std::int64_t ldc, Parallelism parallelism = {});
Status try_gemm_integer(const Context& context, Layout layout, std::int64_t m, std::int64_t n,
                        std::int64_t k, const IntMatrix& a, const QuantParams& qa,
                        const PackedIntRhs& b, const QuantParams& qb, std::int32_t beta,
                        std::int32_t* c, std::int64_t ldc, Parallelism parallelism = {});

// QLinearMatMul: y (y_type, m x n, ldy) from the integer product with
// multiplier[j] = qa.scale * qb.scale(s)[j] / qy.scale and qy.zero_point.
Status try_qlinear_gemm(const Context& context, Layout layout, std::int64_t m, std::int64_t n,
                        std::int64_t k, const IntMatrix& a, const QuantParams& qa,
                        const IntMatrix& b, const QuantParams& qb, IntType y_type,
                        const QuantParams& qy, void* y, std::int64_t ldy,
                        Parallelism parallelism = {});
Status try_qlinear_gemm(const Context& context, Layout layout, std::int64_t m, std::int64_t n,
                        std::int64_t k, const IntMatrix& a, const QuantParams& qa,
                        const PackedIntRhs& b, const QuantParams& qb, IntType y_type,
                        const QuantParams& qy, void* y, std::int64_t ldy,
                        Parallelism parallelism = {});

// MatMulIntegerToFloat: y (f32, m x n, ldy) = act(float(s) * (qa.scale *
// qb.scale(s)[j]) + bias[j]). `epilogue` takes a per-column bias (n values)
// or none, and an activation.
Status try_gemm_integer_to_f32(const Context& context, Layout layout, std::int64_t m,
                               std::int64_t n, std::int64_t k, const IntMatrix& a,
                               const QuantParams& qa, const IntMatrix& b, const QuantParams& qb,
                               float* y, std::int64_t ldy, const GemmEpilogue<float>& epilogue,
                               Parallelism parallelism = {});
Status try_gemm_integer_to_f32(const Context& context, Layout layout, std::int64_t m,
                               std::int64_t n, std::int64_t k, const IntMatrix& a,
                               const QuantParams& qa, const PackedIntRhs& b,
                               const QuantParams& qb, float* y, std::int64_t ldy,
                               const GemmEpilogue<float>& epilogue, Parallelism parallelism = {});

// Batched MatMulInteger (ONNX MatMulInteger on [batch, m, k] x [batch, k,
// n]): C_i = (op(A_i) - qa.zero_point) (op(B_i) - zb) + beta C_i for i <
// batch, every entry with one shape, types, quantization, layout, transposes
// and leading dimensions. Strided: A_i = a.data + i * stride_a bytes
// (likewise B), C_i = c + i * stride_c elements; a stride of 0 shares one
// operand (stride_c 0 only with batch <= 1). Pointer arrays: A_i = a[i],
// B_i = b[i], C_i = c[i]. Prepacked: one PackedIntRhs for every entry (a
// model's weights applied to a batch of activations). Validation: every
// check of the single call on each entry (named "a[i]", ...), a negative
// batch or stride, and C entries sharing a byte with each other or with any
// input entry, before anything is written. The batch plan (as for batched
// gemm, tessera/gemm_batched.hpp) decides between entries in order, each on
// the pool, and whole entries per worker: each C_i is bit for bit what
// try_gemm_integer gives for that entry, for every plan and worker count.
Status try_gemm_integer_strided_batched(const Context& context, Layout layout, std::int64_t m,
                                        std::int64_t n, std::int64_t k, const IntMatrix& a,
                                        std::int64_t stride_a, const QuantParams& qa,
                                        const IntMatrix& b, std::int64_t stride_b,
                                        const QuantParams& qb, std::int32_t beta,
                                        std::int32_t* c, std::int64_t ldc, std::int64_t stride_c,
                                        std::int64_t batch, Parallelism parallelism = {});
Status try_gemm_integer_strided_batched(const Context& context, Layout layout, std::int64_t m,
                                        std::int64_t n, std::int64_t k, const IntMatrix& a,
                                        std::int64_t stride_a, const QuantParams& qa,
                                        const PackedIntRhs& b, const QuantParams& qb,
                                        std::int32_t beta, std::int32_t* c, std::int64_t ldc,
                                        std::int64_t stride_c, std::int64_t batch,
                                        Parallelism parallelism = {});
// Pointer arrays: a.data and b.data are ignored; a[i], b[i] and c[i] are
// entry i's (each a.type / b.type, a.ld / b.ld, a.trans / b.trans, ldc).
Status try_gemm_integer_batched(const Context& context, Layout layout, std::int64_t m,
                                std::int64_t n, std::int64_t k, const IntMatrix& a,
                                const void* const* a_entries, const QuantParams& qa,
                                const IntMatrix& b, const void* const* b_entries,
                                const QuantParams& qb, std::int32_t beta,
                                std::int32_t* const* c_entries, std::int64_t ldc,
                                std::int64_t batch, Parallelism parallelism = {});

// Packs op(B) (k x n, `layout`, b.trans, b.ld) for this context's level.
Status try_prepack_integer_rhs(const Context& context, Layout layout, std::int64_t k,
                               std::int64_t n, const IntMatrix& b, PackedIntRhs* out);

// DynamicQuantizeLinear (ONNX): y = saturate(round_half_even(x / scale) +
// zero_point) to u8, with scale = (max(x_max, 0) - min(x_min, 0)) / 255 (1
// when that range is empty) and zero_point = round_half_even(clamp(0 -
// min(x_min, 0) / scale, 0, 255)), as onnxruntime computes them. x must be
// finite (a NaN or infinity is an error naming its index, before anything
// is written). A reduction, then a conversion: bandwidth-bound, on the
// bandwidth resolver (design.md §Bandwidth resolver).
Status try_dynamic_quantize_linear(const Context& context, std::span<const float> x,
                                   std::span<std::uint8_t> y, float* scale,
                                   std::uint8_t* zero_point, Parallelism parallelism = {});

}  // namespace tessera
TESSERA_CXX_API_END
