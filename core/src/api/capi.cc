// The C API: a thin shell over the C++ API that never lets an exception out
// and keeps the last error message per thread.
#include "tessera/tessera.h"

#include <new>
#include <string>
#include <string_view>

#include "core/src/api/capi_support.hpp"
#include "core/src/registry/isa_levels.hpp"
#include "tessera/c_interop.hpp"
#include "tessera/blas1.hpp"
#include "tessera/elementwise.hpp"
#include "tessera/gemm.hpp"
#include "tessera/half.hpp"
#include "tessera/execution.hpp"
#include "tessera/profile.hpp"

namespace {
thread_local std::string t_last_error;
}  // namespace

tsr_status tessera::capi::report(const tessera::Status& status) {
  if (status.ok()) {
    t_last_error.clear();
    return TSR_OK;
  }
  t_last_error = status.message();
  return static_cast<tsr_status>(status.code());
}

namespace {

using tessera::capi::context_of;
using tessera::capi::report;

// JSON handed out by the *_json calls: valid until this thread's next call.
thread_local std::string t_json;

tessera::Status options_from_c(const tsr_context_options* options,
                               tessera::ContextOptions* opts) {
  if (options == nullptr) return {};
  if (options->isa != nullptr) {
    tessera::Isa isa;
    if (!tessera::parse_isa(options->isa, &isa)) {
      return tessera::Status::invalid_argument(
          std::string("options->isa \"") + options->isa +
          "\" is not an ISA level: expected one of " +
          tessera::core::isa_list(tessera::core::all_isas()));
    }
    opts->isa = isa;
  }
  if (options->naive != 0 && options->naive != 1) {
    return tessera::Status::invalid_argument("options->naive must be 0 or 1");
  }
  opts->family = options->naive != 0 ? tessera::KernelFamily::kNaive
                                     : tessera::KernelFamily::kOptimized;
  opts->read_environment = options->ignore_environment == 0;
  if (options->profile_portable != 0 && options->profile_portable != 1) {
    return tessera::Status::invalid_argument("options->profile_portable must be 0 or 1 (got " +
                                             std::to_string(options->profile_portable) + ")");
  }
  opts->profile_portable = options->profile_portable == 1;
  if (options->profile_json != nullptr && options->profile_path != nullptr) {
    return tessera::Status::invalid_argument(
        "options->profile_json and options->profile_path are both set: give one");
  }
  // The profile's own errors name its key ("profile: settings.x ..."); the
  // prefix names the field it came through.
  tessera::Profile profile;
  if (options->profile_json != nullptr) {
    const tessera::Status parsed = tessera::parse_profile(options->profile_json, &profile);
    if (!parsed.ok()) {
      return tessera::Status(parsed.code(), "options->profile_json: " + parsed.message());
    }
    opts->profile = std::move(profile);
    opts->profile_source = "tsr_context_options.profile_json";
  } else if (options->profile_path != nullptr) {
    const tessera::Status read = tessera::read_profile_file(options->profile_path, &profile);
    if (!read.ok()) return tessera::Status(read.code(), "options->profile_path: " + read.message());
    opts->profile = std::move(profile);
    opts->profile_source = std::string("tsr_context_options.profile_path '") +
                           options->profile_path + "'";
  }
  return {};
}

tessera::Status flag_from_c(int value, const char* field, bool* out) {
  if (value != 0 && value != 1) {
    return tessera::Status::invalid_argument(std::string("policy->") + field +
                                             " must be 0 or 1 (got " +
                                             std::to_string(value) + ")");
  }
  *out = value == 1;
  return {};
}

template <typename Enum>
tessera::Status name_from_c(const char* name, const char* field,
                            bool (*parse)(std::string_view, Enum*) noexcept,
                            const char* expected, Enum* out) {
  if (!parse(name, out)) {
    return tessera::Status::invalid_argument(std::string("policy->") + field + " \"" +
                                             name + "\" is unknown: expected one of " +
                                             expected);
  }
  return {};
}

tessera::Status policy_from_c(const tsr_execution_policy* policy,
                              tessera::ExecutionPolicy* out) {
  if (policy == nullptr) return {};
  tessera::ExecutionPolicy p;
  p.num_threads = policy->num_threads;
  if (policy->spin_policy != nullptr) {
    TESSERA_RETURN_IF_ERROR(name_from_c(
        policy->spin_policy, "spin_policy", &tessera::parse_spin_policy,
        "adaptive, fixed_iterations, fixed_duration, park_immediately", &p.spin_policy));
  }
  p.spin_budget = policy->spin_budget;
  if (policy->affinity_policy != nullptr) {
    tessera::AffinityPolicy affinity;
    TESSERA_RETURN_IF_ERROR(name_from_c(
        policy->affinity_policy, "affinity_policy", &tessera::parse_affinity_policy,
        "none, physical_cores, performance_cores, physical_then_smt, explicit", &affinity));
    p.affinity_policy = affinity;
  }
  if (policy->cpu_set_count > 0) {
    if (policy->cpu_set == nullptr) {
      return tessera::Status::invalid_argument(
          "policy->cpu_set is null but cpu_set_count = " +
          std::to_string(policy->cpu_set_count));
    }
    if (policy->cpu_set_count > static_cast<size_t>(tessera::platform::kMaxNumThreads)) {
      return tessera::Status::invalid_argument(
          "policy->cpu_set_count = " + std::to_string(policy->cpu_set_count) +
          " is out of range: expected at most " +
          std::to_string(tessera::platform::kMaxNumThreads));
    }
    p.cpu_set.assign(policy->cpu_set, policy->cpu_set + policy->cpu_set_count);
  }
  if (policy->idle_policy != nullptr) {
    TESSERA_RETURN_IF_ERROR(name_from_c(policy->idle_policy, "idle_policy",
                                        &tessera::parse_idle_policy,
                                        "keep_workers, release_when_idle", &p.idle_policy));
  }
  if (policy->idle_release_ms != 0) p.idle_release_ms = policy->idle_release_ms;
  TESSERA_RETURN_IF_ERROR(flag_from_c(policy->allow_nested_parallelism,
                                      "allow_nested_parallelism",
                                      &p.allow_nested_parallelism));
  p.max_threads_per_kernel = policy->max_threads_per_kernel;
  TESSERA_RETURN_IF_ERROR(flag_from_c(policy->counters, "counters", &p.counters));
  *out = std::move(p);
  return {};
}

tsr_status create_handle(const tessera::ContextOptions& opts, tsr_context** out) {
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

}  // namespace

extern "C" {

const char* tsr_status_string(tsr_status status) {
  return tessera::status_code_name(static_cast<tessera::StatusCode>(status));
}

const char* tsr_last_error_message(void) { return t_last_error.c_str(); }

tsr_status tsr_context_create(const tsr_context_options* options,
                              tsr_context** out) {
  return tsr_context_create_with_policy(options, nullptr, out);
}

void tsr_context_destroy(tsr_context* context) { delete context; }

tsr_status tsr_context_isa(const tsr_context* context, const char** name) {
  if (name == nullptr) {
    return report(tessera::Status::invalid_argument("name is null"));
  }
  const tessera::Context& c = context_of(context);
  const tessera::Status status = c.status();
  if (!status.ok()) return report(status);
  *name = tessera::isa_name(c.isa());
  return report({});
}

void tsr_execution_policy_init(tsr_execution_policy* policy) {
  if (policy != nullptr) *policy = tsr_execution_policy{};
}

tsr_status tsr_context_create_with_policy(const tsr_context_options* options,
                                          const tsr_execution_policy* policy,
                                          tsr_context** out) {
  if (out == nullptr) {
    return report(tessera::Status::invalid_argument("out is null"));
  }
  tessera::ContextOptions opts;
  tessera::Status status = options_from_c(options, &opts);
  if (!status.ok()) return report(status);
  status = policy_from_c(policy, &opts.policy);
  if (!status.ok()) return report(status);
  return create_handle(opts, out);
}

tsr_status tsr_context_resolved_policy_json(const tsr_context* context,
                                            const char** json) {
  if (json == nullptr) {
    return report(tessera::Status::invalid_argument("json is null"));
  }
  const tessera::Context& c = context_of(context);
  const tessera::Status status = c.status();
  if (!status.ok()) return report(status);
  t_json = c.resolved_policy().to_json();
  *json = t_json.c_str();
  return report({});
}

tsr_status tsr_context_topology_json(const tsr_context* context, const char** json) {
  if (json == nullptr) {
    return report(tessera::Status::invalid_argument("json is null"));
  }
  const tessera::Context& c = context_of(context);
  const tessera::Status status = c.status();
  if (!status.ok()) return report(status);
  t_json = c.topology().to_json();
  *json = t_json.c_str();
  return report({});
}

tsr_status tsr_context_counters(const tsr_context* context, tsr_counters* out) {
  if (out == nullptr) {
    return report(tessera::Status::invalid_argument("out is null"));
  }
  const tessera::Context& c = context_of(context);
  const tessera::Status status = c.status();
  if (!status.ok()) return report(status);
  const tessera::ExecutionCounters counters = c.counters();
  out->dispatches = counters.dispatches;
  out->serial_fallbacks = counters.serial_fallbacks;
  out->spins = counters.spins;
  out->parks = counters.parks;
  out->wakeups = counters.wakeups;
  out->caller_waits = counters.caller_waits;
  out->worker_active_ns = counters.worker_active_ns;
  return report({});
}

}  // extern "C"

// ---- GEMM ------------------------------------------------------------------

namespace tessera::capi {

tessera::Status gemm_enums_from_c(tsr_layout layout, const tsr_transpose* ta,
                                  const tsr_transpose* tb, tessera::Layout* l,
                                  tessera::Transpose* a, tessera::Transpose* b) {
  if (layout != TSR_ROW_MAJOR && layout != TSR_COL_MAJOR) {
    return tessera::Status::invalid_argument(
        "layout must be TSR_ROW_MAJOR or TSR_COL_MAJOR (got " +
        std::to_string(static_cast<int>(layout)) + ")");
  }
  *l = layout == TSR_ROW_MAJOR ? tessera::Layout::kRowMajor : tessera::Layout::kColMajor;
  const tsr_transpose* ts[2] = {ta, tb};
  tessera::Transpose* outs[2] = {a, b};
  const char* names[2] = {"trans_a", "trans_b"};
  for (int i = 0; i < 2; ++i) {
    if (ts[i] == nullptr) continue;
    if (*ts[i] != TSR_NO_TRANS && *ts[i] != TSR_TRANS) {
      return tessera::Status::invalid_argument(
          std::string(names[i]) + " must be TSR_NO_TRANS or TSR_TRANS (got " +
          std::to_string(static_cast<int>(*ts[i])) + ")");
    }
    *outs[i] = *ts[i] == TSR_TRANS ? tessera::Transpose::kYes : tessera::Transpose::kNo;
  }
  return {};
}

tessera::Parallelism parallelism_from_c(int threads) {
  return threads == -1 ? tessera::Parallelism::serial() : tessera::Parallelism::threads(threads);
}

}  // namespace tessera::capi

namespace {

using tessera::capi::gemm_enums_from_c;
using tessera::capi::parallelism_from_c;

template <class T>
tsr_status gemm_c(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                  tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, T alpha,
                  const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c,
                  int64_t ldc, int threads) {
  tessera::Layout l;
  tessera::Transpose ta, tb;
  const tessera::Status status = gemm_enums_from_c(layout, &trans_a, &trans_b, &l, &ta, &tb);
  if (!status.ok()) return report(status);
  return report(tessera::try_gemm(context_of(context), l, ta, tb, m, n, k, alpha, a, lda, b,
                                  ldb, beta, c, ldc, parallelism_from_c(threads)));
}

template <class T>
tsr_status prepack_c(const tsr_context* context, tsr_layout layout, tsr_transpose trans_b,
                     int64_t k, int64_t n, const T* b, int64_t ldb, tsr_packed_rhs** out) {
  if (out == nullptr) return report(tessera::Status::invalid_argument("out is null"));
  tessera::Layout l;
  tessera::Transpose tb;
  const tessera::Status status = gemm_enums_from_c(layout, nullptr, &trans_b, &l, nullptr, &tb);
  if (!status.ok()) return report(status);
  tessera::PackedRhs packed;
  const tessera::Status packed_status =
      tessera::try_prepack_rhs(context_of(context), l, tb, k, n, b, ldb, &packed);
  if (!packed_status.ok()) return report(packed_status);
  auto* handle = new (std::nothrow) tsr_packed_rhs{std::move(packed)};
  if (handle == nullptr) {
    return report(tessera::Status(tessera::StatusCode::kOutOfMemory, "allocating the handle"));
  }
  *out = handle;
  return report({});
}

template <class T>
tsr_status packed_gemm_c(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                         int64_t m, T alpha, const T* a, int64_t lda, const tsr_packed_rhs* b,
                         T beta, T* c, int64_t ldc, int threads) {
  if (b == nullptr) return report(tessera::Status::invalid_argument("b is null"));
  tessera::Layout l;
  tessera::Transpose ta;
  const tessera::Status status = gemm_enums_from_c(layout, &trans_a, nullptr, &l, &ta, nullptr);
  if (!status.ok()) return report(status);
  return report(tessera::try_gemm(context_of(context), l, ta, m, alpha, a, lda, b->packed, beta,
                                  c, ldc, parallelism_from_c(threads)));
}

}  // namespace

extern "C" {

tsr_status tsr_sgemm(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                     tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                     const float* a, int64_t lda, const float* b, int64_t ldb, float beta,
                     float* c, int64_t ldc, int threads) {
  return gemm_c(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                ldc, threads);
}

tsr_status tsr_dgemm(const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
                     tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                     const double* a, int64_t lda, const double* b, int64_t ldb,
                     double beta, double* c, int64_t ldc, int threads) {
  return gemm_c(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                ldc, threads);
}

tsr_status tsr_sgemm_prepack_rhs(const tsr_context* context, tsr_layout layout,
                                 tsr_transpose trans_b, int64_t k, int64_t n, const float* b,
                                 int64_t ldb, tsr_packed_rhs** out) {
  return prepack_c(context, layout, trans_b, k, n, b, ldb, out);
}

tsr_status tsr_dgemm_prepack_rhs(const tsr_context* context, tsr_layout layout,
                                 tsr_transpose trans_b, int64_t k, int64_t n, const double* b,
                                 int64_t ldb, tsr_packed_rhs** out) {
  return prepack_c(context, layout, trans_b, k, n, b, ldb, out);
}

void tsr_packed_rhs_destroy(tsr_packed_rhs* packed) { delete packed; }

tsr_status tsr_sgemm_packed(const tsr_context* context, tsr_layout layout,
                            tsr_transpose trans_a, int64_t m, float alpha, const float* a,
                            int64_t lda, const tsr_packed_rhs* b, float beta, float* c,
                            int64_t ldc, int threads) {
  return packed_gemm_c(context, layout, trans_a, m, alpha, a, lda, b, beta, c, ldc, threads);
}

tsr_status tsr_dgemm_packed(const tsr_context* context, tsr_layout layout,
                            tsr_transpose trans_a, int64_t m, double alpha, const double* a,
                            int64_t lda, const tsr_packed_rhs* b, double beta, double* c,
                            int64_t ldc, int threads) {
  return packed_gemm_c(context, layout, trans_a, m, alpha, a, lda, b, beta, c, ldc, threads);
}

}  // extern "C"

// ---- dot and gemv ----
namespace {

template <class T>
tsr_status dot_c(const tsr_context* context, int64_t n, const T* x, int64_t incx, const T* y,
                 int64_t incy, T* result, int threads) {
  return report(tessera::try_dot(context_of(context), n, x, incx, y, incy, result,
                                 parallelism_from_c(threads)));
}

template <class T, class AT = T>
tsr_status gemv_c(const tsr_context* context, tsr_layout layout, tsr_transpose trans, int64_t m,
                  int64_t n, T alpha, const AT* a, int64_t lda, const T* x, int64_t incx, T beta,
                  T* y, int64_t incy, int threads) {
  tessera::Layout l;
  tessera::Transpose t;
  if (trans != TSR_NO_TRANS && trans != TSR_TRANS) {
    return report(tessera::Status::invalid_argument(
        "trans must be TSR_NO_TRANS or TSR_TRANS (got " + std::to_string(static_cast<int>(trans)) +
        ")"));
  }
  const tessera::Status status = gemm_enums_from_c(layout, &trans, nullptr, &l, &t, nullptr);
  if (!status.ok()) return report(status);
  return report(tessera::try_gemv(context_of(context), l, t, m, n, alpha, a, lda, x, incx, beta,
                                  y, incy, parallelism_from_c(threads)));
}

}  // namespace

extern "C" {

tsr_status tsr_sdot(const tsr_context* context, int64_t n, const float* x, int64_t incx,
                    const float* y, int64_t incy, float* result, int threads) {
  return dot_c(context, n, x, incx, y, incy, result, threads);
}

tsr_status tsr_ddot(const tsr_context* context, int64_t n, const double* x, int64_t incx,
                    const double* y, int64_t incy, double* result, int threads) {
  return dot_c(context, n, x, incx, y, incy, result, threads);
}

tsr_status tsr_sgemv(const tsr_context* context, tsr_layout layout, tsr_transpose trans, int64_t m,
                     int64_t n, float alpha, const float* a, int64_t lda, const float* x,
                     int64_t incx, float beta, float* y, int64_t incy, int threads) {
  return gemv_c(context, layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy, threads);
}

tsr_status tsr_dgemv(const tsr_context* context, tsr_layout layout, tsr_transpose trans, int64_t m,
                     int64_t n, double alpha, const double* a, int64_t lda, const double* x,
                     int64_t incx, double beta, double* y, int64_t incy, int threads) {
  return gemv_c(context, layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy, threads);
}

tsr_status tsr_dot_f16(const tsr_context* context, int64_t n, const uint16_t* x, int64_t incx,
                       const uint16_t* y, int64_t incy, float* result, int threads) {
  return report(tessera::try_dot(context_of(context), n, reinterpret_cast<const tessera::f16*>(x),
                                 incx, reinterpret_cast<const tessera::f16*>(y), incy, result,
                                 parallelism_from_c(threads)));
}

tsr_status tsr_dot_bf16(const tsr_context* context, int64_t n, const uint16_t* x, int64_t incx,
                        const uint16_t* y, int64_t incy, float* result, int threads) {
  return report(tessera::try_dot(context_of(context), n, reinterpret_cast<const tessera::bf16*>(x),
                                 incx, reinterpret_cast<const tessera::bf16*>(y), incy, result,
                                 parallelism_from_c(threads)));
}

tsr_status tsr_gemv_f16(const tsr_context* context, tsr_layout layout, tsr_transpose trans,
                        int64_t m, int64_t n, float alpha, const uint16_t* a, int64_t lda,
                        const float* x, int64_t incx, float beta, float* y, int64_t incy,
                        int threads) {
  return gemv_c(context, layout, trans, m, n, alpha, reinterpret_cast<const tessera::f16*>(a), lda,
                x, incx, beta, y, incy, threads);
}

tsr_status tsr_gemv_bf16(const tsr_context* context, tsr_layout layout, tsr_transpose trans,
                         int64_t m, int64_t n, float alpha, const uint16_t* a, int64_t lda,
                         const float* x, int64_t incx, float beta, float* y, int64_t incy,
                         int threads) {
  return gemv_c(context, layout, trans, m, n, alpha, reinterpret_cast<const tessera::bf16*>(a),
                lda, x, incx, beta, y, incy, threads);
}

}  // extern "C"

// tessera/c_interop.hpp: the same conversions, for libraries that extend the
// C API.
namespace tessera::c_interop {

Context context_of(const tsr_context* context) { return capi::context_of(context); }

tsr_status report(const Status& status) { return capi::report(status); }

Status context_options_from_c(const tsr_context_options* options,
                              const tsr_execution_policy* policy, ContextOptions* out) {
  ContextOptions opts;
  TESSERA_RETURN_IF_ERROR(options_from_c(options, &opts));
  TESSERA_RETURN_IF_ERROR(policy_from_c(policy, &opts.policy));
  *out = std::move(opts);
  return {};
}

tsr_context* new_handle(Context context) {
  return new (std::nothrow) tsr_context{std::move(context)};
}

Status transpose_from_c(tsr_transpose transpose, const char* name, Transpose* out) {
  if (transpose != TSR_NO_TRANS && transpose != TSR_TRANS) {
    return Status::invalid_argument(std::string(name) + " must be TSR_NO_TRANS or TSR_TRANS (got " +
                                    std::to_string(static_cast<int>(transpose)) + ")");
  }
  *out = transpose == TSR_TRANS ? Transpose::kYes : Transpose::kNo;
  return {};
}

}  // namespace tessera::c_interop
