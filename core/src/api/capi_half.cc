// The C API's half-precision conversions (tessera.h, tsr_convert_*): the
// 16-bit arrays as the C++ storage types, then the C++ entry points, which
// validate the rest.
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

}  // namespace

extern "C" {

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
