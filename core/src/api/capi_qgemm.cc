// The C API's integer GEMM (tessera.h, tsr_gemm_integer and friends) and
// DynamicQuantizeLinear: enum conversion (an unknown value is an error
// naming it), the zero-point and scale arrays as QuantParams, then the C++
// entry points, which validate the rest.
#include <new>
#include <string>
#include <vector>

#include "core/src/api/capi_support.hpp"
#include "tessera/quantized.hpp"

struct tsr_packed_int_rhs {
  tessera::PackedIntRhs packed;
};

namespace tessera::capi {
namespace {

Status int_type_from_c(tsr_int_type t, const char* name, IntType* out) {
  if (t != TSR_U8 && t != TSR_S8) {
    return Status::invalid_argument(std::string(name) + " must be TSR_U8 or TSR_S8 (got " +
                                    std::to_string(static_cast<long long>(t)) + ")");
  }
  *out = t == TSR_U8 ? IntType::kU8 : IntType::kS8;
  return {};
}

// B's zero points and scales (either may be null: zero points 0, no
// scales) as QuantParams: per tensor when count is 1, per column otherwise.
QuantParams b_quant_from_c(const int32_t* zero_points, const float* scales, int64_t count) {
  if (count == 1) {
    return QuantParams::per_tensor(zero_points != nullptr ? zero_points[0] : 0,
                                   scales != nullptr ? scales[0] : 1.0f);
  }
  return QuantParams::per_column(zero_points, scales, count);
}

// s8 zero points as the int32 values the general entry takes (null stays
// null: a zero point of 0).
std::vector<int32_t> widened(const int8_t* zero_points, int64_t count) {
  if (zero_points == nullptr || count <= 0) return {};
  return std::vector<int32_t>(zero_points, zero_points + count);
}

Status operands_from_c(tsr_layout layout, const tsr_transpose* trans_a,
                       const tsr_transpose* trans_b, tsr_int_type a_type, const void* a,
                       int64_t lda, const tsr_int_type* b_type, const void* b, int64_t ldb,
                       Layout* l, IntMatrix* am, IntMatrix* bm) {
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  TESSERA_RETURN_IF_ERROR(gemm_enums_from_c(layout, trans_a, trans_b, l, &ta, &tb));
  TESSERA_RETURN_IF_ERROR(int_type_from_c(a_type, "a_type", &am->type));
  am->data = a, am->ld = lda, am->trans = ta;
  if (bm != nullptr) {
    TESSERA_RETURN_IF_ERROR(int_type_from_c(*b_type, "b_type", &bm->type));
    bm->data = b, bm->ld = ldb, bm->trans = tb;
  }
  return {};
}

Status epilogue_from_c(const float* bias, tsr_bias_kind kind, tsr_activation act,
                       GemmEpilogue<float>* out) {
  const long long k = static_cast<long long>(kind), a = static_cast<long long>(act);
  if (k < 0 || k > 2) {
    return Status::invalid_argument("bias_kind is not a tsr_bias_kind value (got " +
                                    std::to_string(k) + ")");
  }
  if (a < 0 || a > 3) {
    return Status::invalid_argument("activation is not a tsr_activation value (got " +
                                    std::to_string(a) + ")");
  }
  out->bias = bias;
  out->bias_kind = static_cast<BiasKind>(k);
  out->activation = static_cast<Activation>(a);
  return {};
}

const PackedIntRhs* packed_of(const tsr_packed_int_rhs* b) {
  static const PackedIntRhs kEmpty;
  return b != nullptr ? &b->packed : &kEmpty;
}

// A of a call on a packed B (its n and k come from the packed B).
Status packed_call_operands(tsr_layout layout, tsr_transpose trans_a, tsr_int_type a_type,
                            const void* a, int64_t lda, Layout* l, IntMatrix* am) {
  return operands_from_c(layout, &trans_a, nullptr, a_type, a, lda, nullptr, nullptr, 0, l, am,
                         nullptr);
}

}  // namespace
}  // namespace tessera::capi

using tessera::capi::b_quant_from_c;
using tessera::capi::context_of;
using tessera::capi::epilogue_from_c;
using tessera::capi::operands_from_c;
using tessera::capi::packed_call_operands;
using tessera::capi::packed_of;
using tessera::capi::parallelism_from_c;
using tessera::capi::report;

extern "C" {

tsr_status tsr_gemm_integer(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                            tsr_transpose trans_b, int64_t m, int64_t n, int64_t k,
                            tsr_int_type a_type, const void* a, int64_t lda, int32_t a_zero_point,
                            tsr_int_type b_type, const void* b, int64_t ldb,
                            const int32_t* b_zero_point, int64_t b_quant_count, int32_t beta,
                            int32_t* c, int64_t ldc, int threads) {
  tessera::Layout l;
  tessera::IntMatrix am, bm;
  const tessera::Status st =
      operands_from_c(layout, &trans_a, &trans_b, a_type, a, lda, &b_type, b, ldb, &l, &am, &bm);
  if (!st.ok()) return report(st);
  return report(tessera::try_gemm_integer(context_of(context), l, m, n, k, am,
                                          tessera::QuantParams::per_tensor(a_zero_point), bm,
                                          b_quant_from_c(b_zero_point, nullptr, b_quant_count), beta,
                                          c, ldc, parallelism_from_c(threads)));
}

tsr_status tsr_gemm_u8s8s32(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                            tsr_transpose trans_b, int64_t m, int64_t n, int64_t k,
                            const uint8_t* a, int64_t lda, uint8_t a_zero_point, const int8_t* b,
                            int64_t ldb, const int8_t* b_zero_point, int64_t b_quant_count,
                            int32_t beta, int32_t* c, int64_t ldc, int threads) {
  const std::vector<int32_t> zb = tessera::capi::widened(b_zero_point, b_quant_count);
  return tsr_gemm_integer(context, layout, trans_a, trans_b, m, n, k, TSR_U8, a, lda, a_zero_point,
                          TSR_S8, b, ldb, zb.empty() ? nullptr : zb.data(), b_quant_count, beta, c,
                          ldc, threads);
}

tsr_status tsr_gemm_s8s8s32(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                            tsr_transpose trans_b, int64_t m, int64_t n, int64_t k,
                            const int8_t* a, int64_t lda, int8_t a_zero_point, const int8_t* b,
                            int64_t ldb, const int8_t* b_zero_point, int64_t b_quant_count,
                            int32_t beta, int32_t* c, int64_t ldc, int threads) {
  const std::vector<int32_t> zb = tessera::capi::widened(b_zero_point, b_quant_count);
  return tsr_gemm_integer(context, layout, trans_a, trans_b, m, n, k, TSR_S8, a, lda, a_zero_point,
                          TSR_S8, b, ldb, zb.empty() ? nullptr : zb.data(), b_quant_count, beta, c,
                          ldc, threads);
}

tsr_status tsr_qlinear_gemm(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                            tsr_transpose trans_b, int64_t m, int64_t n, int64_t k,
                            tsr_int_type a_type, const void* a, int64_t lda, float a_scale,
                            int32_t a_zero_point, tsr_int_type b_type, const void* b, int64_t ldb,
                            const float* b_scale, const int32_t* b_zero_point,
                            int64_t b_quant_count, tsr_int_type y_type, float y_scale,
                            int32_t y_zero_point, void* y, int64_t ldy, int threads) {
  tessera::Layout l;
  tessera::IntMatrix am, bm;
  tessera::Status st =
      operands_from_c(layout, &trans_a, &trans_b, a_type, a, lda, &b_type, b, ldb, &l, &am, &bm);
  tessera::IntType yt = tessera::IntType::kU8;
  if (st.ok()) st = tessera::capi::int_type_from_c(y_type, "y_type", &yt);
  if (!st.ok()) return report(st);
  return report(tessera::try_qlinear_gemm(
      context_of(context), l, m, n, k, am, tessera::QuantParams::per_tensor(a_zero_point, a_scale),
      bm, b_quant_from_c(b_zero_point, b_scale, b_quant_count), yt,
      tessera::QuantParams::per_tensor(y_zero_point, y_scale), y, ldy, parallelism_from_c(threads)));
}

tsr_status tsr_gemm_integer_to_f32(const tsr_context* context, tsr_layout layout,
                                   tsr_transpose trans_a, tsr_transpose trans_b, int64_t m,
                                   int64_t n, int64_t k, tsr_int_type a_type, const void* a,
                                   int64_t lda, float a_scale, int32_t a_zero_point,
                                   tsr_int_type b_type, const void* b, int64_t ldb,
                                   const float* b_scale, const int32_t* b_zero_point,
                                   int64_t b_quant_count, const float* bias,
                                   tsr_bias_kind bias_kind, tsr_activation activation, float* y,
                                   int64_t ldy, int threads) {
  tessera::Layout l;
  tessera::IntMatrix am, bm;
  tessera::GemmEpilogue<float> ep;
  tessera::Status st =
      operands_from_c(layout, &trans_a, &trans_b, a_type, a, lda, &b_type, b, ldb, &l, &am, &bm);
  if (st.ok()) st = epilogue_from_c(bias, bias_kind, activation, &ep);
  if (!st.ok()) return report(st);
  return report(tessera::try_gemm_integer_to_f32(
      context_of(context), l, m, n, k, am, tessera::QuantParams::per_tensor(a_zero_point, a_scale),
      bm, b_quant_from_c(b_zero_point, b_scale, b_quant_count), y, ldy, ep,
      parallelism_from_c(threads)));
}

tsr_status tsr_prepack_integer_rhs(const tsr_context* context, tsr_layout layout,
                                   tsr_transpose trans_b, int64_t k, int64_t n,
                                   tsr_int_type b_type, const void* b, int64_t ldb,
                                   tsr_packed_int_rhs** out) {
  if (out == nullptr) return report(tessera::Status::invalid_argument("out is null"));
  tessera::Layout l;
  tessera::IntMatrix am, bm;
  const tessera::Status st =
      operands_from_c(layout, nullptr, &trans_b, TSR_U8, nullptr, 0, &b_type, b, ldb, &l, &am, &bm);
  if (!st.ok()) return report(st);
  auto* packed = new (std::nothrow) tsr_packed_int_rhs;
  if (packed == nullptr) {
    return report(tessera::Status(tessera::StatusCode::kOutOfMemory, "out of memory"));
  }
  const tessera::Status made =
      tessera::try_prepack_integer_rhs(context_of(context), l, k, n, bm, &packed->packed);
  if (!made.ok()) {
    delete packed;
    return report(made);
  }
  *out = packed;
  return report(made);
}

void tsr_packed_int_rhs_destroy(tsr_packed_int_rhs* packed) { delete packed; }

tsr_status tsr_gemm_integer_packed(const tsr_context* context, tsr_layout layout,
                                   tsr_transpose trans_a, int64_t m, tsr_int_type a_type,
                                   const void* a, int64_t lda, int32_t a_zero_point,
                                   const tsr_packed_int_rhs* b, const int32_t* b_zero_point,
                                   int64_t b_quant_count, int32_t beta, int32_t* c, int64_t ldc,
                                   int threads) {
  tessera::Layout l;
  tessera::IntMatrix am;
  const tessera::Status st = packed_call_operands(layout, trans_a, a_type, a, lda, &l, &am);
  if (!st.ok()) return report(st);
  const tessera::PackedIntRhs& pb = *packed_of(b);
  return report(tessera::try_gemm_integer(context_of(context), l, m, pb.n(), pb.k(), am,
                                          tessera::QuantParams::per_tensor(a_zero_point), pb,
                                          b_quant_from_c(b_zero_point, nullptr, b_quant_count), beta,
                                          c, ldc, parallelism_from_c(threads)));
}

tsr_status tsr_gemm_integer_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, tsr_int_type a_type, const void* a, int64_t lda,
    int64_t stride_a, int32_t a_zero_point, tsr_int_type b_type, const void* b, int64_t ldb,
    int64_t stride_b, const int32_t* b_zero_point, int64_t b_quant_count, int32_t beta,
    int32_t* c, int64_t ldc, int64_t stride_c, int64_t batch, int threads) {
  tessera::Layout l;
  tessera::IntMatrix am, bm;
  const tessera::Status st =
      operands_from_c(layout, &trans_a, &trans_b, a_type, a, lda, &b_type, b, ldb, &l, &am, &bm);
  if (!st.ok()) return report(st);
  return report(tessera::try_gemm_integer_strided_batched(
      context_of(context), l, m, n, k, am, stride_a, tessera::QuantParams::per_tensor(a_zero_point),
      bm, stride_b, b_quant_from_c(b_zero_point, nullptr, b_quant_count), beta, c, ldc, stride_c,
      batch, parallelism_from_c(threads)));
}

tsr_status tsr_gemm_integer_batched(const tsr_context* context, tsr_layout layout,
                                    tsr_transpose trans_a, tsr_transpose trans_b, int64_t m,
                                    int64_t n, int64_t k, tsr_int_type a_type,
                                    const void* const* a, int64_t lda, int32_t a_zero_point,
                                    tsr_int_type b_type, const void* const* b, int64_t ldb,
                                    const int32_t* b_zero_point, int64_t b_quant_count,
                                    int32_t beta, int32_t* const* c, int64_t ldc, int64_t batch,
                                    int threads) {
  tessera::Layout l;
  tessera::IntMatrix am, bm;
  const tessera::Status st = operands_from_c(layout, &trans_a, &trans_b, a_type, nullptr, lda,
                                             &b_type, nullptr, ldb, &l, &am, &bm);
  if (!st.ok()) return report(st);
  return report(tessera::try_gemm_integer_batched(
      context_of(context), l, m, n, k, am, a, tessera::QuantParams::per_tensor(a_zero_point), bm,
      b, b_quant_from_c(b_zero_point, nullptr, b_quant_count), beta, c, ldc, batch,
      parallelism_from_c(threads)));
}

tsr_status tsr_gemm_integer_packed_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, int64_t m,
    tsr_int_type a_type, const void* a, int64_t lda, int64_t stride_a, int32_t a_zero_point,
    const tsr_packed_int_rhs* b, const int32_t* b_zero_point, int64_t b_quant_count, int32_t beta,
    int32_t* c, int64_t ldc, int64_t stride_c, int64_t batch, int threads) {
  tessera::Layout l;
  tessera::IntMatrix am;
  const tessera::Status st = packed_call_operands(layout, trans_a, a_type, a, lda, &l, &am);
  if (!st.ok()) return report(st);
  const tessera::PackedIntRhs& pb = *packed_of(b);
  return report(tessera::try_gemm_integer_strided_batched(
      context_of(context), l, m, pb.n(), pb.k(), am, stride_a,
      tessera::QuantParams::per_tensor(a_zero_point), pb,
      b_quant_from_c(b_zero_point, nullptr, b_quant_count), beta, c, ldc, stride_c, batch,
      parallelism_from_c(threads)));
}

tsr_status tsr_qlinear_gemm_packed(const tsr_context* context, tsr_layout layout,
                                   tsr_transpose trans_a, int64_t m, tsr_int_type a_type,
                                   const void* a, int64_t lda, float a_scale, int32_t a_zero_point,
                                   const tsr_packed_int_rhs* b, const float* b_scale,
                                   const int32_t* b_zero_point, int64_t b_quant_count,
                                   tsr_int_type y_type, float y_scale, int32_t y_zero_point,
                                   void* y, int64_t ldy, int threads) {
  tessera::Layout l;
  tessera::IntMatrix am;
  tessera::Status st = packed_call_operands(layout, trans_a, a_type, a, lda, &l, &am);
  tessera::IntType yt = tessera::IntType::kU8;
  if (st.ok()) st = tessera::capi::int_type_from_c(y_type, "y_type", &yt);
  if (!st.ok()) return report(st);
  const tessera::PackedIntRhs& pb = *packed_of(b);
  return report(tessera::try_qlinear_gemm(
      context_of(context), l, m, pb.n(), pb.k(), am,
      tessera::QuantParams::per_tensor(a_zero_point, a_scale), pb,
      b_quant_from_c(b_zero_point, b_scale, b_quant_count), yt,
      tessera::QuantParams::per_tensor(y_zero_point, y_scale), y, ldy, parallelism_from_c(threads)));
}

tsr_status tsr_gemm_integer_to_f32_packed(const tsr_context* context, tsr_layout layout,
                                          tsr_transpose trans_a, int64_t m, tsr_int_type a_type,
                                          const void* a, int64_t lda, float a_scale,
                                          int32_t a_zero_point, const tsr_packed_int_rhs* b,
                                          const float* b_scale, const int32_t* b_zero_point,
                                          int64_t b_quant_count, const float* bias,
                                          tsr_bias_kind bias_kind, tsr_activation activation,
                                          float* y, int64_t ldy, int threads) {
  tessera::Layout l;
  tessera::IntMatrix am;
  tessera::GemmEpilogue<float> ep;
  tessera::Status st = packed_call_operands(layout, trans_a, a_type, a, lda, &l, &am);
  if (st.ok()) st = epilogue_from_c(bias, bias_kind, activation, &ep);
  if (!st.ok()) return report(st);
  const tessera::PackedIntRhs& pb = *packed_of(b);
  return report(tessera::try_gemm_integer_to_f32(
      context_of(context), l, m, pb.n(), pb.k(), am,
      tessera::QuantParams::per_tensor(a_zero_point, a_scale), pb,
      b_quant_from_c(b_zero_point, b_scale, b_quant_count), y, ldy, ep,
      parallelism_from_c(threads)));
}

tsr_status tsr_dynamic_quantize_linear_u8(const tsr_context* context, const float* x, size_t n,
                                          uint8_t* y, float* y_scale, uint8_t* y_zero_point,
                                          int threads) {
  if (x == nullptr && n != 0) return report(tessera::Status::invalid_argument("x is null"));
  if (y == nullptr && n != 0) return report(tessera::Status::invalid_argument("y is null"));
  return report(tessera::try_dynamic_quantize_linear(
      context_of(context), std::span<const float>(x, n), std::span<std::uint8_t>(y, n), y_scale,
      y_zero_point, parallelism_from_c(threads)));
}

}  // extern "C"
