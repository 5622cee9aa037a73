// The C API: a thin shell over the C++ API that never lets an exception out
// and keeps the last error message per thread.
#include "tessera/tessera.h"

#include <new>
#include <string>

#include "tessera/elementwise.hpp"

struct tsr_context {
  tessera::Context context;
};

namespace {

thread_local std::string t_last_error;

tsr_status report(const tessera::Status& status) {
  if (status.ok()) {
    t_last_error.clear();
    return TSR_OK;
  }
  t_last_error = status.message();
  return static_cast<tsr_status>(status.code());
}

tessera::Context context_of(const tsr_context* context) {
  return context != nullptr ? context->context : tessera::Context();
}

}  // namespace

extern "C" {

const char* tsr_status_string(tsr_status status) {
  return tessera::status_code_name(static_cast<tessera::StatusCode>(status));
}

const char* tsr_last_error_message(void) { return t_last_error.c_str(); }

tsr_status tsr_context_create(const tsr_context_options* options,
                              tsr_context** out) {
  if (out == nullptr) {
    return report(tessera::Status::invalid_argument("out is null"));
  }
  tessera::ContextOptions opts;
  if (options != nullptr) {
    if (options->isa != nullptr) {
      tessera::Isa isa;
      if (!tessera::parse_isa(options->isa, &isa)) {
        return report(tessera::Status::invalid_argument(
            std::string("options->isa \"") + options->isa +
            "\" is not an ISA level: expected one of scalar, sse2, avx2, "
            "avx512, neon, simd128"));
      }
      opts.isa = isa;
    }
    if (options->naive != 0 && options->naive != 1) {
      return report(tessera::Status::invalid_argument(
          "options->naive must be 0 or 1"));
    }
    opts.family = options->naive != 0 ? tessera::KernelFamily::kNaive
                                      : tessera::KernelFamily::kOptimized;
    opts.read_environment = options->ignore_environment == 0;
  }
  tessera::Context context;
  const tessera::Status status = tessera::Context::create(opts, &context);
  if (!status.ok()) return report(status);
  auto* handle = new (std::nothrow) tsr_context{std::move(context)};
  if (handle == nullptr) {
    return report(tessera::Status(tessera::StatusCode::kOutOfMemory,
                                  "allocating the context"));
  }
  *out = handle;
  return report({});
}

void tsr_context_destroy(tsr_context* context) { delete context; }

tsr_status tsr_context_isa(const tsr_context* context, const char** name) {
  if (name == nullptr) {
    return report(tessera::Status::invalid_argument("name is null"));
  }
  const tessera::Context c = context_of(context);
  const tessera::Status status = c.status();
  if (!status.ok()) return report(status);
  *name = tessera::isa_name(c.isa());
  return report({});
}

tsr_status tsr_add_f32(const tsr_context* context, const float* a,
                       const float* b, float* out, size_t n) {
  return report(tessera::try_add(context_of(context), {a, n}, {b, n}, {out, n}));
}

tsr_status tsr_mul_f32(const tsr_context* context, const float* a,
                       const float* b, float* out, size_t n) {
  return report(tessera::try_mul(context_of(context), {a, n}, {b, n}, {out, n}));
}

tsr_status tsr_relu_f32(const tsr_context* context, const float* x, float* out,
                        size_t n) {
  return report(tessera::try_relu(context_of(context), {x, n}, {out, n}));
}

}  // extern "C"
