// The C API's half-precision conversions (tessera.h, tsr_convert_*): the
// 16-bit arrays as the C++ storage types, then the C++ entry points, which
// validate the rest.
#include <new>
#include <span>
#include <string>

#include "core/src/api/capi_support.hpp"
#include "tessera/half.hpp"

using tessera::capi::context_of;
using tessera::capi::parallelism_from_c;
using tessera::capi::report;

namespace {

// A null pointer with n > 0 is an error naming it; with n == 0 an empty span.
template <class T, class C>
tessera::Status span_of(C* p, std::size_t n, const char* name, std::span<T>* out) {
  if (p == nullptr && n != 0) return tessera::Status::invalid_argument(std::string(name) + " is null");
  *out = std::span<T>(reinterpret_cast<T*>(p), p == nullptr ? 0 : n);
  return {};
}

template <class From, class To, class CFrom, class CTo>
tsr_status convert(const tsr_context* context, const CFrom* x, std::size_t n, CTo* y,
                   int threads) {
  std::span<const From> xs;
  std::span<To> ys;
  tessera::Status status = span_of<const From>(x, n, "x", &xs);
  if (status.ok()) status = span_of<To>(y, n, "y", &ys);
  if (!status.ok()) return report(status);
  return report(tessera::try_convert(context_of(context), xs, ys, parallelism_from_c(threads)));
}

// A C enum's value range-checked before narrowing (so 256 is an error,
// not the value's low byte).
template <class E>
tessera::Status enum_from_c(long long value, long long max, const char* name, const char* type,
                            E* out) {
  if (value < 0 || value > max) {
    return tessera::Status::invalid_argument(std::string(name) + " is not a " + type +
                                             " value (got " + std::to_string(value) + ")");
  }
  *out = static_cast<E>(value);
  return {};
}

// The half GEMM's C arguments as the C++ call's: enums checked, the
// operands as GemmInput / GemmOutput, the epilogue and the mode.
struct HalfArgs {
  tessera::Layout layout;
  tessera::Transpose ta, tb;
  tessera::GemmInput a, b;
  tessera::GemmOutput c;
  tessera::HalfGemmOptions options;
};

tessera::Status half_args(tsr_layout layout, const tsr_transpose* trans_a,
                          const tsr_transpose* trans_b, tsr_storage a_storage, const void* a,
                          int64_t lda, const tsr_storage* b_storage, const void* b, int64_t ldb,
                          tsr_storage c_storage, void* c, int64_t ldc, const float* bias,
                          tsr_bias_kind bias_kind, tsr_activation activation, tsr_half_mode mode,
                          HalfArgs* out) {
  using tessera::Storage;
  TESSERA_RETURN_IF_ERROR(tessera::capi::gemm_enums_from_c(layout, trans_a, trans_b, &out->layout,
                                                           &out->ta, &out->tb));
  Storage sa, sb = Storage::kF32, sc;
  TESSERA_RETURN_IF_ERROR(enum_from_c(a_storage, 2, "a_storage", "tsr_storage", &sa));
  if (b_storage != nullptr) {
    TESSERA_RETURN_IF_ERROR(enum_from_c(*b_storage, 2, "b_storage", "tsr_storage", &sb));
  }
  TESSERA_RETURN_IF_ERROR(enum_from_c(c_storage, 2, "c_storage", "tsr_storage", &sc));
  TESSERA_RETURN_IF_ERROR(
      enum_from_c(bias_kind, 2, "bias_kind", "tsr_bias_kind", &out->options.epilogue.bias_kind));
  TESSERA_RETURN_IF_ERROR(enum_from_c(activation, 3, "activation", "tsr_activation",
                                      &out->options.epilogue.activation));
  TESSERA_RETURN_IF_ERROR(enum_from_c(mode, 1, "mode", "tsr_half_mode", &out->options.mode));
  out->options.epilogue.bias = bias;
  out->a.storage = sa, out->a.data = a, out->a.ld = lda;
  out->b.storage = sb, out->b.data = b, out->b.ld = ldb;
  out->c.storage = sc, out->c.data = c, out->c.ld = ldc;
  return {};
}

}  // namespace

extern "C" {

tsr_status tsr_gemm_half(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                         tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                         tsr_storage a_storage, const void* a, int64_t lda, tsr_storage b_storage,
                         const void* b, int64_t ldb, float beta, tsr_storage c_storage, void* c,
                         int64_t ldc, const float* bias, tsr_bias_kind bias_kind,
                         tsr_activation activation, tsr_half_mode mode, int threads) {
  HalfArgs x;
  const tessera::Status status =
      half_args(layout, &trans_a, &trans_b, a_storage, a, lda, &b_storage, b, ldb, c_storage, c,
                ldc, bias, bias_kind, activation, mode, &x);
  if (!status.ok()) return report(status);
  return report(tessera::try_gemm(context_of(context), x.layout, x.ta, x.tb, m, n, k, alpha, x.a,
                                  x.b, beta, x.c, x.options, parallelism_from_c(threads)));
}

tsr_status tsr_gemm_half_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, float alpha, tsr_storage a_storage, const void* a,
    int64_t lda, int64_t stride_a, tsr_storage b_storage, const void* b, int64_t ldb,
    int64_t stride_b, float beta, tsr_storage c_storage, void* c, int64_t ldc, int64_t stride_c,
    int64_t batch, const float* bias, tsr_bias_kind bias_kind, tsr_activation activation,
    tsr_half_mode mode, int threads) {
  HalfArgs x;
  const tessera::Status status =
      half_args(layout, &trans_a, &trans_b, a_storage, a, lda, &b_storage, b, ldb, c_storage, c,
                ldc, bias, bias_kind, activation, mode, &x);
  if (!status.ok()) return report(status);
  return report(tessera::try_gemm_strided_batched(
      context_of(context), x.layout, x.ta, x.tb, m, n, k, alpha, x.a, stride_a, x.b, stride_b,
      beta, x.c, stride_c, batch, x.options, parallelism_from_c(threads)));
}

tsr_status tsr_gemm_f16(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                        tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                        const uint16_t* a, int64_t lda, const uint16_t* b, int64_t ldb,
                        float beta, float* c, int64_t ldc, int threads) {
  return tsr_gemm_half(context, layout, trans_a, trans_b, m, n, k, alpha, TSR_STORAGE_F16, a, lda,
                       TSR_STORAGE_F16, b, ldb, beta, TSR_STORAGE_F32, c, ldc, nullptr,
                       TSR_BIAS_NONE, TSR_ACT_NONE, TSR_HALF_EXACT, threads);
}

tsr_status tsr_gemm_bf16(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                         tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                         const uint16_t* a, int64_t lda, const uint16_t* b, int64_t ldb,
                         float beta, float* c, int64_t ldc, int threads) {
  return tsr_gemm_half(context, layout, trans_a, trans_b, m, n, k, alpha, TSR_STORAGE_BF16, a,
                       lda, TSR_STORAGE_BF16, b, ldb, beta, TSR_STORAGE_F32, c, ldc, nullptr,
                       TSR_BIAS_NONE, TSR_ACT_NONE, TSR_HALF_EXACT, threads);
}

tsr_status tsr_gemm_half_prepack_rhs(const tsr_context* context, tsr_layout layout,
                                     tsr_transpose trans_b, int64_t k, int64_t n,
                                     tsr_storage b_storage, const void* b, int64_t ldb,
                                     tsr_packed_rhs** out) {
  if (out == nullptr) return report(tessera::Status::invalid_argument("out is null"));
  // B is checked under its own name, then passed in a's place.
  tessera::Storage storage;
  tessera::Status status = enum_from_c(b_storage, 2, "b_storage", "tsr_storage", &storage);
  HalfArgs x;
  if (status.ok()) {
    status = half_args(layout, nullptr, &trans_b, b_storage, b, ldb, nullptr, nullptr, 0,
                       TSR_STORAGE_F32, nullptr, 0, nullptr, TSR_BIAS_NONE, TSR_ACT_NONE,
                       TSR_HALF_EXACT, &x);
  }
  if (!status.ok()) return report(status);
  tessera::PackedRhs packed;
  status = tessera::try_prepack_rhs(context_of(context), x.layout, x.tb, k, n, x.a, &packed);
  if (!status.ok()) return report(status);
  auto* handle = new (std::nothrow) tsr_packed_rhs{std::move(packed)};
  if (handle == nullptr) {
    return report(tessera::Status(tessera::StatusCode::kOutOfMemory, "allocating the handle"));
  }
  *out = handle;
  return TSR_OK;
}

tsr_status tsr_gemm_half_packed(const tsr_context* context, tsr_layout layout,
                                tsr_transpose trans_a, int64_t m, float alpha,
                                tsr_storage a_storage, const void* a, int64_t lda,
                                const tsr_packed_rhs* b, float beta, tsr_storage c_storage,
                                void* c, int64_t ldc, const float* bias, tsr_bias_kind bias_kind,
                                tsr_activation activation, tsr_half_mode mode, int threads) {
  if (b == nullptr) return report(tessera::Status::invalid_argument("b is null"));
  HalfArgs x;
  const tessera::Status status =
      half_args(layout, &trans_a, nullptr, a_storage, a, lda, nullptr, nullptr, 0, c_storage, c,
                ldc, bias, bias_kind, activation, mode, &x);
  if (!status.ok()) return report(status);
  return report(tessera::try_gemm(context_of(context), x.layout, x.ta, m, alpha, x.a, b->packed,
                                  beta, x.c, x.options, parallelism_from_c(threads)));
}

tsr_status tsr_convert_f32_to_f16(const tsr_context* context, const float* x, size_t n,
                                  uint16_t* y, int threads) {
  return convert<float, tessera::f16>(context, x, n, y, threads);
}
tsr_status tsr_convert_f16_to_f32(const tsr_context* context, const uint16_t* x, size_t n,
                                  float* y, int threads) {
  return convert<tessera::f16, float>(context, x, n, y, threads);
}
tsr_status tsr_convert_f32_to_bf16(const tsr_context* context, const float* x, size_t n,
                                   uint16_t* y, int threads) {
  return convert<float, tessera::bf16>(context, x, n, y, threads);
}
tsr_status tsr_convert_bf16_to_f32(const tsr_context* context, const uint16_t* x, size_t n,
                                   float* y, int threads) {
  return convert<tessera::bf16, float>(context, x, n, y, threads);
}

}  // extern "C"
