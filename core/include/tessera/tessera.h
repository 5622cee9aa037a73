/* tessera C API: the ABI for FFI, the WASI module and the Emscripten
 * bindings. Opaque handles, status codes, no exceptions across the boundary.
 * Every function returns a tsr_status; on failure, tsr_last_error_message()
 * gives this thread's message for the last failed call (it names the bad
 * argument). A NULL context means the process default context. */
#ifndef TESSERA_TESSERA_H_
#define TESSERA_TESSERA_H_

#include <stddef.h>
#include <stdint.h>

#include "tessera/platform/build_config.h" /* TESSERA_API */

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_API TESSERA_API

typedef enum tsr_status {
  TSR_OK = 0,
  TSR_INVALID_ARGUMENT = 1,
  TSR_UNSUPPORTED = 2,
  TSR_OUT_OF_MEMORY = 3,
  TSR_INTERNAL = 4,
  /* Makes every int a valid tsr_status value (no undefined behaviour when
   * a caller passes a code this version does not know). */
  TSR_STATUS_ENUM_MIN_ = -0x7fffffff - 1,
  TSR_STATUS_ENUM_MAX_ = 0x7fffffff
} tsr_status;

/* A fixed description of a status code ("invalid argument"); never NULL. */
TSR_API const char* tsr_status_string(tsr_status status);
/* This thread's message for its last failed call, "" if none. Valid until
 * the thread's next tessera call. */
TSR_API const char* tsr_last_error_message(void);

typedef struct tsr_context tsr_context;

typedef struct tsr_context_options {
  /* NULL: best level (or TESSERA_ISA). Otherwise a level name of
   * TESSERA_ISA_LEVELS (tessera/isa.hpp: "scalar", "sse2", "avx2", ...);
   * unsupported levels are an error. */
  const char* isa;
  /* 0: optimized kernels, 1: the naive reference family. */
  int naive;
  /* 0: read TESSERA_* variables, 1: ignore the environment. */
  int ignore_environment;
  /* A tuned profile to apply (design.md §Profiles; tessera-tune writes
   * one): profile_json its text, or profile_path a file to read, not both.
   * Both NULL: the file TESSERA_PROFILE names, unless ignore_environment.
   * A malformed profile is an error naming the key. */
  const char* profile_json;
  const char* profile_path;
  /* 0: a profile measured on another CPU, level or tessera version is not
   * applied (a fallback in the resolved policy says why); 1: applied anyway,
   * with a fallback saying so (or TESSERA_PROFILE_PORTABLE=1). */
  int profile_portable;
} tsr_context_options;

/* options may be NULL (all defaults). */
TSR_API tsr_status tsr_context_create(const tsr_context_options* options,
                                      tsr_context** out);
TSR_API void tsr_context_destroy(tsr_context* context);
/* The ISA level the context's calls use ("avx512"). */
TSR_API tsr_status tsr_context_isa(const tsr_context* context,
                                   const char** name);

/* ---- Elementwise, f32 and f64 (tessera/elementwise.hpp) -----------------
 * Every result is one exactly rounded IEEE operation (or a sign-bit /
 * selection operation), the same bits on every ISA level and target and for
 * every thread count. min / max are NumPy's np.minimum / np.maximum (IEEE
 * 754-2019 minimum / maximum): a NaN operand is returned unchanged (a's if
 * both are NaN) and -0 < +0. A NaN produced by arithmetic (0/0, sqrt(-1)) has
 * an unspecified payload.
 * Same-shape forms: n elements each; out may equal a, b or x exactly, no
 * other overlap. */
/* out[i] = a[i] + b[i], i < n. */
TSR_API tsr_status tsr_add_f32(const tsr_context* context, const float* a,
                               const float* b, float* out, size_t n);
TSR_API tsr_status tsr_add_f64(const tsr_context* context, const double* a,
                               const double* b, double* out, size_t n);
/* out[i] = a[i] - b[i], i < n. */
TSR_API tsr_status tsr_sub_f32(const tsr_context* context, const float* a,
                               const float* b, float* out, size_t n);
TSR_API tsr_status tsr_sub_f64(const tsr_context* context, const double* a,
                               const double* b, double* out, size_t n);
/* out[i] = a[i] * b[i], i < n. */
TSR_API tsr_status tsr_mul_f32(const tsr_context* context, const float* a,
                               const float* b, float* out, size_t n);
TSR_API tsr_status tsr_mul_f64(const tsr_context* context, const double* a,
                               const double* b, double* out, size_t n);
/* out[i] = a[i] / b[i] (IEEE division), i < n. */
TSR_API tsr_status tsr_div_f32(const tsr_context* context, const float* a,
                               const float* b, float* out, size_t n);
TSR_API tsr_status tsr_div_f64(const tsr_context* context, const double* a,
                               const double* b, double* out, size_t n);
/* out[i] = minimum(a[i], b[i]): NaN propagates, -0 < +0, i < n. */
TSR_API tsr_status tsr_min_f32(const tsr_context* context, const float* a,
                               const float* b, float* out, size_t n);
TSR_API tsr_status tsr_min_f64(const tsr_context* context, const double* a,
                               const double* b, double* out, size_t n);
/* out[i] = maximum(a[i], b[i]): NaN propagates, -0 < +0, i < n. */
TSR_API tsr_status tsr_max_f32(const tsr_context* context, const float* a,
                               const float* b, float* out, size_t n);
TSR_API tsr_status tsr_max_f64(const tsr_context* context, const double* a,
                               const double* b, double* out, size_t n);
/* out[i] = |x[i]| (clears the sign bit). */
TSR_API tsr_status tsr_abs_f32(const tsr_context* context, const float* x,
                               float* out, size_t n);
TSR_API tsr_status tsr_abs_f64(const tsr_context* context, const double* x,
                               double* out, size_t n);
/* out[i] = -x[i] (flips the sign bit). */
TSR_API tsr_status tsr_neg_f32(const tsr_context* context, const float* x,
                               float* out, size_t n);
TSR_API tsr_status tsr_neg_f64(const tsr_context* context, const double* x,
                               double* out, size_t n);
/* out[i] = sqrt(x[i]), correctly rounded. */
TSR_API tsr_status tsr_sqrt_f32(const tsr_context* context, const float* x,
                                float* out, size_t n);
TSR_API tsr_status tsr_sqrt_f64(const tsr_context* context, const double* x,
                                double* out, size_t n);
/* out[i] = x[i] < 0 ? 0 : x[i] (NaN and -0 pass through). */
TSR_API tsr_status tsr_relu_f32(const tsr_context* context, const float* x,
                                float* out, size_t n);
TSR_API tsr_status tsr_relu_f64(const tsr_context* context, const double* x,
                                double* out, size_t n);
/* out[i] = e^x: polynomial approximation within
 * tessera::unary_op_ulp_bound ulp (tessera/elementwise.hpp); same bits on
 * the scalar, SSE2 and SIMD128 levels. */
TSR_API tsr_status tsr_exp_f32(const tsr_context* context, const float* x,
                               float* out, size_t n);
TSR_API tsr_status tsr_exp_f64(const tsr_context* context, const double* x,
                               double* out, size_t n);
/* out[i] = ln x (log(+-0) = -Inf, log(x < 0) = NaN): polynomial approximation within
 * tessera::unary_op_ulp_bound ulp (tessera/elementwise.hpp); same bits on
 * the scalar, SSE2 and SIMD128 levels. */
TSR_API tsr_status tsr_log_f32(const tsr_context* context, const float* x,
                               float* out, size_t n);
TSR_API tsr_status tsr_log_f64(const tsr_context* context, const double* x,
                               double* out, size_t n);
/* out[i] = tanh x: polynomial approximation within
 * tessera::unary_op_ulp_bound ulp (tessera/elementwise.hpp); same bits on
 * the scalar, SSE2 and SIMD128 levels. */
TSR_API tsr_status tsr_tanh_f32(const tsr_context* context, const float* x,
                               float* out, size_t n);
TSR_API tsr_status tsr_tanh_f64(const tsr_context* context, const double* x,
                               double* out, size_t n);
/* out[i] = 1 / (1 + e^-x): polynomial approximation within
 * tessera::unary_op_ulp_bound ulp (tessera/elementwise.hpp); same bits on
 * the scalar, SSE2 and SIMD128 levels. */
TSR_API tsr_status tsr_sigmoid_f32(const tsr_context* context, const float* x,
                                  float* out, size_t n);
TSR_API tsr_status tsr_sigmoid_f64(const tsr_context* context, const double* x,
                                  double* out, size_t n);
/* out[i] = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))): polynomial approximation within
 * tessera::unary_op_ulp_bound ulp (tessera/elementwise.hpp); same bits on
 * the scalar, SSE2 and SIMD128 levels. */
TSR_API tsr_status tsr_gelu_f32(const tsr_context* context, const float* x,
                               float* out, size_t n);
TSR_API tsr_status tsr_gelu_f64(const tsr_context* context, const double* x,
                               double* out, size_t n);

/* Broadcasting forms: out is a rows x cols row-major matrix, out[r][c] =
 * A(r, c) op B(r, c), where an operand of shape
 *   TSR_BROADCAST_FULL    has rows * cols elements, X(r, c) = x[r * cols + c];
 *   TSR_BROADCAST_ROW     has cols elements (a 1 x cols row), X(r, c) = x[c];
 *   TSR_BROADCAST_COLUMN  has rows elements (a rows x 1 column), X(r, c) = x[r];
 *   TSR_BROADCAST_SCALAR  has 1 element, X(r, c) = x[0].
 * A scalar operand on either side is rows = 1, cols = n with that operand
 * TSR_BROADCAST_SCALAR. out may equal a FULL operand exactly; it must not
 * overlap a broadcast operand at all. */
typedef enum tsr_broadcast {
  TSR_BROADCAST_FULL = 0,
  TSR_BROADCAST_ROW = 1,
  TSR_BROADCAST_COLUMN = 2,
  TSR_BROADCAST_SCALAR = 3,
  TSR_BROADCAST_ENUM_MIN_ = -0x7fffffff - 1,
  TSR_BROADCAST_ENUM_MAX_ = 0x7fffffff
} tsr_broadcast;
TSR_API tsr_status tsr_add_broadcast_f32(const tsr_context* context, size_t rows,
                                         size_t cols, const float* a, tsr_broadcast a_shape,
                                         const float* b, tsr_broadcast b_shape, float* out);
TSR_API tsr_status tsr_add_broadcast_f64(const tsr_context* context, size_t rows,
                                         size_t cols, const double* a, tsr_broadcast a_shape,
                                         const double* b, tsr_broadcast b_shape, double* out);
TSR_API tsr_status tsr_sub_broadcast_f32(const tsr_context* context, size_t rows,
                                         size_t cols, const float* a, tsr_broadcast a_shape,
                                         const float* b, tsr_broadcast b_shape, float* out);
TSR_API tsr_status tsr_sub_broadcast_f64(const tsr_context* context, size_t rows,
                                         size_t cols, const double* a, tsr_broadcast a_shape,
                                         const double* b, tsr_broadcast b_shape, double* out);
TSR_API tsr_status tsr_mul_broadcast_f32(const tsr_context* context, size_t rows,
                                         size_t cols, const float* a, tsr_broadcast a_shape,
                                         const float* b, tsr_broadcast b_shape, float* out);
TSR_API tsr_status tsr_mul_broadcast_f64(const tsr_context* context, size_t rows,
                                         size_t cols, const double* a, tsr_broadcast a_shape,
                                         const double* b, tsr_broadcast b_shape, double* out);
TSR_API tsr_status tsr_div_broadcast_f32(const tsr_context* context, size_t rows,
                                         size_t cols, const float* a, tsr_broadcast a_shape,
                                         const float* b, tsr_broadcast b_shape, float* out);
TSR_API tsr_status tsr_div_broadcast_f64(const tsr_context* context, size_t rows,
                                         size_t cols, const double* a, tsr_broadcast a_shape,
                                         const double* b, tsr_broadcast b_shape, double* out);
TSR_API tsr_status tsr_min_broadcast_f32(const tsr_context* context, size_t rows,
                                         size_t cols, const float* a, tsr_broadcast a_shape,
                                         const float* b, tsr_broadcast b_shape, float* out);
TSR_API tsr_status tsr_min_broadcast_f64(const tsr_context* context, size_t rows,
                                         size_t cols, const double* a, tsr_broadcast a_shape,
                                         const double* b, tsr_broadcast b_shape, double* out);
TSR_API tsr_status tsr_max_broadcast_f32(const tsr_context* context, size_t rows,
                                         size_t cols, const float* a, tsr_broadcast a_shape,
                                         const float* b, tsr_broadcast b_shape, float* out);
TSR_API tsr_status tsr_max_broadcast_f64(const tsr_context* context, size_t rows,
                                         size_t cols, const double* a, tsr_broadcast a_shape,
                                         const double* b, tsr_broadcast b_shape, double* out);

/* ---- Execution policy, resolved policy, counters -------------------------
 * (design.md §Execution policy). A zero-initialised tsr_execution_policy
 * (or NULL) is the default policy; tsr_execution_policy_init() gives the
 * same. Enum fields are names (as in the C++ and JS APIs); NULL means the
 * default. Every value is validated at context creation and a bad one is an
 * error naming the field. */
typedef struct tsr_execution_policy {
  /* 0: topology default (or TESSERA_NUM_THREADS); 1: serial; n > 1: n
   * participants including the caller (capped at the visible CPUs). */
  int num_threads;
  /* "adaptive" (NULL), "fixed_iterations", "fixed_duration",
   * "park_immediately". */
  const char* spin_policy;
  /* Iterations (fixed_iterations) or microseconds (fixed_duration); else 0. */
  long long spin_budget;
  /* NULL: the platform default (physical_cores on Linux, none elsewhere; or
   * explicit when cpu_set is given). "none", "physical_cores",
   * "performance_cores", "physical_then_smt", "explicit". */
  const char* affinity_policy;
  /* Logical CPU ids for explicit affinity; cpu_set_count of them. */
  const int* cpu_set;
  size_t cpu_set_count;
  /* "keep_workers" (NULL) or "release_when_idle". */
  const char* idle_policy;
  /* release_when_idle: milliseconds without work; 0 means the default 1000. */
  long long idle_release_ms;
  int allow_nested_parallelism; /* 0 or 1 */
  int max_threads_per_kernel;   /* 0: no limit */
  int counters;                 /* 0 or 1 */
} tsr_execution_policy;

/* Cumulative diagnostics of a context; all zero unless policy counters = 1. */
typedef struct tsr_counters {
  unsigned long long dispatches;
  unsigned long long serial_fallbacks;
  unsigned long long spins;
  unsigned long long parks;
  unsigned long long wakeups;
  unsigned long long caller_waits;
  unsigned long long worker_active_ns;
} tsr_counters;

/* Fills *policy with the defaults (the same as zero-initialising it). */
TSR_API void tsr_execution_policy_init(tsr_execution_policy* policy);
/* tsr_context_create with an execution policy; either pointer may be NULL. */
TSR_API tsr_status tsr_context_create_with_policy(
    const tsr_context_options* options, const tsr_execution_policy* policy,
    tsr_context** out);
/* The resolved policy as JSON (effective threads, worker CPUs, spin, every
 * fallback and its reason). Valid until this thread's next tessera call. */
TSR_API tsr_status tsr_context_resolved_policy_json(const tsr_context* context,
                                                    const char** json);
/* The topology the context resolved against, as JSON; same lifetime. */
TSR_API tsr_status tsr_context_topology_json(const tsr_context* context,
                                             const char** json);
TSR_API tsr_status tsr_context_counters(const tsr_context* context,
                                        tsr_counters* out);


/* ---- GEMM (design.md §Kernel core) ----------------------------------------
 * C <- alpha * op(A) * op(B) + beta * C; op(A) is m x k, op(B) k x n, C
 * m x n, stored row- or column-major with leading dimensions. BLAS
 * semantics: beta == 0 never reads C; m == 0 or n == 0 does nothing; k == 0
 * or alpha == 0 sets C = beta * C without reading A or B. Every argument is
 * validated before anything is written; errors name the argument.
 * threads: -1 serial (TSR_THREADS_SERIAL), 0 automatic (TSR_THREADS_AUTO),
 * n > 0 exactly n participants (capped by the context's width and the
 * work). Results are bit-for-bit the same for every thread count. */
#define TSR_THREADS_SERIAL (-1)
#define TSR_THREADS_AUTO 0
/* The *_ENUM_MIN_ / *_ENUM_MAX_ values only widen the enums to all of int,
 * so any value a caller passes, negative ones included, is representable in
 * C++ too (and rejected as an error), never undefined. */
typedef enum tsr_layout {
  TSR_ROW_MAJOR = 0,
  TSR_COL_MAJOR = 1,
  TSR_LAYOUT_ENUM_MIN_ = -0x7fffffff - 1,
  TSR_LAYOUT_ENUM_MAX_ = 0x7fffffff
} tsr_layout;
typedef enum tsr_transpose {
  TSR_NO_TRANS = 0,
  TSR_TRANS = 1,
  TSR_TRANSPOSE_ENUM_MIN_ = -0x7fffffff - 1,
  TSR_TRANSPOSE_ENUM_MAX_ = 0x7fffffff
} tsr_transpose;

TSR_API tsr_status tsr_sgemm(const tsr_context* context, tsr_layout layout,
                             tsr_transpose trans_a, tsr_transpose trans_b,
                             int64_t m, int64_t n, int64_t k, float alpha,
                             const float* a, int64_t lda, const float* b,
                             int64_t ldb, float beta, float* c, int64_t ldc,
                             int threads);
TSR_API tsr_status tsr_dgemm(const tsr_context* context, tsr_layout layout,
                             tsr_transpose trans_a, tsr_transpose trans_b,
                             int64_t m, int64_t n, int64_t k, double alpha,
                             const double* a, int64_t lda, const double* b,
                             int64_t ldb, double beta, double* c, int64_t ldc,
                             int threads);

/* Fused epilogue: C = act(alpha op(A) op(B) + beta C + bias), applied while
 * the tile is in registers. Per element: x = what tsr_sgemm would store;
 * x += bias (per column: bias[j], length n; per row: bias[i], length m; no
 * addition with TSR_BIAS_NONE, bias may then be NULL); C = act(x). relu
 * keeps NaN and -0; gelu is the tanh form; sigmoid 1/(1+e^-x). Same bits
 * for every thread count. Bad kinds, a NULL bias with a kind, or a bias
 * overlapping C are errors before C is written. */
typedef enum tsr_bias_kind {
  TSR_BIAS_NONE = 0,
  TSR_BIAS_PER_COLUMN = 1,
  TSR_BIAS_PER_ROW = 2,
  TSR_BIAS_KIND_ENUM_MIN_ = -0x7fffffff - 1,
  TSR_BIAS_KIND_ENUM_MAX_ = 0x7fffffff
} tsr_bias_kind;
typedef enum tsr_activation {
  TSR_ACT_NONE = 0,
  TSR_ACT_RELU = 1,
  TSR_ACT_GELU = 2,
  TSR_ACT_SIGMOID = 3,
  TSR_ACTIVATION_ENUM_MIN_ = -0x7fffffff - 1,
  TSR_ACTIVATION_ENUM_MAX_ = 0x7fffffff
} tsr_activation;

TSR_API tsr_status tsr_sgemm_ex(const tsr_context* context, tsr_layout layout,
                                tsr_transpose trans_a, tsr_transpose trans_b,
                                int64_t m, int64_t n, int64_t k, float alpha,
                                const float* a, int64_t lda, const float* b,
                                int64_t ldb, float beta, float* c, int64_t ldc,
                                const float* bias, tsr_bias_kind bias_kind,
                                tsr_activation activation, int threads);
TSR_API tsr_status tsr_dgemm_ex(const tsr_context* context, tsr_layout layout,
                                tsr_transpose trans_a, tsr_transpose trans_b,
                                int64_t m, int64_t n, int64_t k, double alpha,
                                const double* a, int64_t lda, const double* b,
                                int64_t ldb, double beta, double* c, int64_t ldc,
                                const double* bias, tsr_bias_kind bias_kind,
                                tsr_activation activation, int threads);

/* op(B) packed once for the context's ISA level, reusable across calls
 * with different A. Using it on a context of another level is an error. */
typedef struct tsr_packed_rhs tsr_packed_rhs;
TSR_API tsr_status tsr_sgemm_prepack_rhs(const tsr_context* context,
                                         tsr_layout layout,
                                         tsr_transpose trans_b, int64_t k,
                                         int64_t n, const float* b,
                                         int64_t ldb, tsr_packed_rhs** out);
TSR_API tsr_status tsr_dgemm_prepack_rhs(const tsr_context* context,
                                         tsr_layout layout,
                                         tsr_transpose trans_b, int64_t k,
                                         int64_t n, const double* b,
                                         int64_t ldb, tsr_packed_rhs** out);
TSR_API void tsr_packed_rhs_destroy(tsr_packed_rhs* packed);
/* gemm with a packed op(B): n and k come from it; layout must match. */
TSR_API tsr_status tsr_sgemm_packed(const tsr_context* context,
                                    tsr_layout layout, tsr_transpose trans_a,
                                    int64_t m, float alpha, const float* a,
                                    int64_t lda, const tsr_packed_rhs* b,
                                    float beta, float* c, int64_t ldc,
                                    int threads);
TSR_API tsr_status tsr_dgemm_packed(const tsr_context* context,
                                    tsr_layout layout, tsr_transpose trans_a,
                                    int64_t m, double alpha, const double* a,
                                    int64_t lda, const tsr_packed_rhs* b,
                                    double beta, double* c, int64_t ldc,
                                    int threads);

/* ---- batched GEMM (tessera/gemm_batched.hpp) ----
 * C_i = alpha * op(A_i) * op(B_i) + beta * C_i for i < batch, one m, n, k,
 * layout, transposes, alpha, beta and leading dimensions for every entry.
 * Strided: X_i = x + i * stride_x (elements, >= 0; a stride of 0 shares one
 * A or B over the batch; stride_c must cover one C matrix when batch > 1).
 * Pointer arrays: X_i = x[i]. Prepacked: one tsr_packed_rhs for every A_i.
 * Every argument (and entry) is validated before anything is written; C
 * entries must not overlap each other or any input entry. Each C_i has the
 * bits tsr_sgemm/tsr_dgemm give for that entry, for any thread count. */
TSR_API tsr_status tsr_sgemm_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
    tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
    const float* a, int64_t lda, int64_t stride_a, const float* b, int64_t ldb,
    int64_t stride_b, float beta, float* c, int64_t ldc, int64_t stride_c,
    int64_t batch, int threads);
TSR_API tsr_status tsr_dgemm_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
    tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, double alpha,
    const double* a, int64_t lda, int64_t stride_a, const double* b,
    int64_t ldb, int64_t stride_b, double beta, double* c, int64_t ldc,
    int64_t stride_c, int64_t batch, int threads);
TSR_API tsr_status tsr_sgemm_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
    tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
    const float* const* a, int64_t lda, const float* const* b, int64_t ldb,
    float beta, float* const* c, int64_t ldc, int64_t batch, int threads);
TSR_API tsr_status tsr_dgemm_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
    tsr_transpose trans_b, int64_t m, int64_t n, int64_t k, double alpha,
    const double* const* a, int64_t lda, const double* const* b, int64_t ldb,
    double beta, double* const* c, int64_t ldc, int64_t batch, int threads);
TSR_API tsr_status tsr_sgemm_packed_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
    int64_t m, float alpha, const float* a, int64_t lda, int64_t stride_a,
    const tsr_packed_rhs* b, float beta, float* c, int64_t ldc,
    int64_t stride_c, int64_t batch, int threads);
TSR_API tsr_status tsr_dgemm_packed_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a,
    int64_t m, double alpha, const double* a, int64_t lda, int64_t stride_a,
    const tsr_packed_rhs* b, double beta, double* c, int64_t ldc,
    int64_t stride_c, int64_t batch, int threads);


/* ---- Integer GEMM on 8-bit operands (tessera/quantized.hpp) ----
 * Exact: s(i, j) = sum_p (op(A)(i, p) - a_zero_point) * (op(B)(p, j) -
 * b_zero_point[j]), wrapping modulo 2^32 (ONNX's MatMulInteger), the same
 * bits on every ISA level, target and thread count. A and B are u8 or s8
 * (tsr_int_type); B's quantization is per tensor (b_quant_count 1: element
 * 0 of b_zero_point and b_scale) or per column (b_quant_count n). A NULL
 * b_zero_point is a zero point of 0 (per tensor). Outputs:
 *   tsr_gemm_integer         C (int32) = s + beta C, beta 0 or 1;
 *   tsr_qlinear_gemm         y (y_type) = saturate(round_half_even(float(s)
 *                            * (a_scale * b_scale[j] / y_scale)) + y_zero_point),
 *                            onnxruntime's QLinearMatMul bit for bit;
 *   tsr_gemm_integer_to_f32  y (f32) = act(float(s) * (a_scale * b_scale[j])
 *                            + bias), MatMulIntegerToFloat.
 * Every argument is validated before anything is written (zero points in
 * their type's range, scales positive and finite, the per-column arrays'
 * length); errors name the argument. */
typedef enum tsr_int_type {
  TSR_U8 = 0,
  TSR_S8 = 1,
  TSR_INT_TYPE_ENUM_MIN_ = -0x7fffffff - 1,
  TSR_INT_TYPE_ENUM_MAX_ = 0x7fffffff
} tsr_int_type;

TSR_API tsr_status tsr_gemm_integer(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, tsr_int_type a_type, const void* a, int64_t lda,
    int32_t a_zero_point, tsr_int_type b_type, const void* b, int64_t ldb,
    const int32_t* b_zero_point, int64_t b_quant_count, int32_t beta, int32_t* c, int64_t ldc,
    int threads);
/* The two common type pairs, zero points in their operands' types. */
TSR_API tsr_status tsr_gemm_u8s8s32(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, const uint8_t* a, int64_t lda, uint8_t a_zero_point,
    const int8_t* b, int64_t ldb, const int8_t* b_zero_point, int64_t b_quant_count, int32_t beta,
    int32_t* c, int64_t ldc, int threads);
TSR_API tsr_status tsr_gemm_s8s8s32(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, const int8_t* a, int64_t lda, int8_t a_zero_point,
    const int8_t* b, int64_t ldb, const int8_t* b_zero_point, int64_t b_quant_count, int32_t beta,
    int32_t* c, int64_t ldc, int threads);
TSR_API tsr_status tsr_qlinear_gemm(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, tsr_int_type a_type, const void* a, int64_t lda,
    float a_scale, int32_t a_zero_point, tsr_int_type b_type, const void* b, int64_t ldb,
    const float* b_scale, const int32_t* b_zero_point, int64_t b_quant_count, tsr_int_type y_type,
    float y_scale, int32_t y_zero_point, void* y, int64_t ldy, int threads);
TSR_API tsr_status tsr_gemm_integer_to_f32(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, tsr_int_type a_type, const void* a, int64_t lda,
    float a_scale, int32_t a_zero_point, tsr_int_type b_type, const void* b, int64_t ldb,
    const float* b_scale, const int32_t* b_zero_point, int64_t b_quant_count, const float* bias,
    tsr_bias_kind bias_kind, tsr_activation activation, float* y, int64_t ldy, int threads);

/* op(B) (k x n) packed once for the context's level, with its column sums:
 * a model's weights. Its zero points and scales come with each call; n and
 * k come from it. Using it on a context of another level is an error. */
typedef struct tsr_packed_int_rhs tsr_packed_int_rhs;
TSR_API tsr_status tsr_prepack_integer_rhs(const tsr_context* context, tsr_layout layout,
                                           tsr_transpose trans_b, int64_t k, int64_t n,
                                           tsr_int_type b_type, const void* b, int64_t ldb,
                                           tsr_packed_int_rhs** out);
TSR_API void tsr_packed_int_rhs_destroy(tsr_packed_int_rhs* packed);
TSR_API tsr_status tsr_gemm_integer_packed(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, int64_t m,
    tsr_int_type a_type, const void* a, int64_t lda, int32_t a_zero_point,
    const tsr_packed_int_rhs* b, const int32_t* b_zero_point, int64_t b_quant_count, int32_t beta,
    int32_t* c, int64_t ldc, int threads);
TSR_API tsr_status tsr_qlinear_gemm_packed(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, int64_t m,
    tsr_int_type a_type, const void* a, int64_t lda, float a_scale, int32_t a_zero_point,
    const tsr_packed_int_rhs* b, const float* b_scale, const int32_t* b_zero_point,
    int64_t b_quant_count, tsr_int_type y_type, float y_scale, int32_t y_zero_point, void* y,
    int64_t ldy, int threads);
TSR_API tsr_status tsr_gemm_integer_to_f32_packed(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, int64_t m,
    tsr_int_type a_type, const void* a, int64_t lda, float a_scale, int32_t a_zero_point,
    const tsr_packed_int_rhs* b, const float* b_scale, const int32_t* b_zero_point,
    int64_t b_quant_count, const float* bias, tsr_bias_kind bias_kind, tsr_activation activation,
    float* y, int64_t ldy, int threads);

/* Batched MatMulInteger (tessera/quantized.hpp): batch entries of one
 * shape, types and quantization. Strided: entry i's A at a + i * stride_a
 * bytes (B likewise), its C at c + i * stride_c elements; a stride of 0
 * shares an operand. Pointer arrays: a[i], b[i], c[i]. Packed: one packed B
 * for every entry. Each C_i is tsr_gemm_integer's for that entry, for every
 * thread count; C entries must not overlap each other or any input. */
TSR_API tsr_status tsr_gemm_integer_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, tsr_int_type a_type, const void* a, int64_t lda,
    int64_t stride_a, int32_t a_zero_point, tsr_int_type b_type, const void* b, int64_t ldb,
    int64_t stride_b, const int32_t* b_zero_point, int64_t b_quant_count, int32_t beta,
    int32_t* c, int64_t ldc, int64_t stride_c, int64_t batch, int threads);
TSR_API tsr_status tsr_gemm_integer_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, tsr_int_type a_type, const void* const* a, int64_t lda,
    int32_t a_zero_point, tsr_int_type b_type, const void* const* b, int64_t ldb,
    const int32_t* b_zero_point, int64_t b_quant_count, int32_t beta, int32_t* const* c,
    int64_t ldc, int64_t batch, int threads);
TSR_API tsr_status tsr_gemm_integer_packed_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, int64_t m,
    tsr_int_type a_type, const void* a, int64_t lda, int64_t stride_a, int32_t a_zero_point,
    const tsr_packed_int_rhs* b, const int32_t* b_zero_point, int64_t b_quant_count, int32_t beta,
    int32_t* c, int64_t ldc, int64_t stride_c, int64_t batch, int threads);

/* DynamicQuantizeLinear (ONNX): x (n floats, finite) to u8 y, with the
 * scale and zero point computed from x's range as onnxruntime does. */
TSR_API tsr_status tsr_dynamic_quantize_linear_u8(const tsr_context* context, const float* x,
                                                  size_t n, uint8_t* y, float* y_scale,
                                                  uint8_t* y_zero_point, int threads);

/* ---- Half precision: f16 and bf16 storage (tessera/half.hpp) ----
 * The 16-bit values as their bits (uint16_t): IEEE 754 binary16 (f16) and
 * bfloat16 (bf16). y[i] = x[i] converted, i < n: narrowing rounds to
 * nearest even (to infinity past the largest finite value), widening is
 * exact; subnormals are kept, a NaN stays a NaN, made quiet, with the
 * payload bits that fit. Every level, target and thread count gives the
 * same bits. y must not overlap x. threads as for the other kernels. */
TSR_API tsr_status tsr_convert_f32_to_f16(const tsr_context* context, const float* x, size_t n,
                                          uint16_t* y, int threads);
TSR_API tsr_status tsr_convert_f16_to_f32(const tsr_context* context, const uint16_t* x,
                                          size_t n, float* y, int threads);
TSR_API tsr_status tsr_convert_f32_to_bf16(const tsr_context* context, const float* x, size_t n,
                                           uint16_t* y, int threads);
TSR_API tsr_status tsr_convert_bf16_to_f32(const tsr_context* context, const uint16_t* x,
                                           size_t n, float* y, int threads);
/* gemv with A in f16 or bf16 (its bits; m x n as stored), x and y f32:
 * tsr_sgemv's arguments and contract, A widened exactly as it is read; the
 * bits equal tsr_sgemv's on the widened A, for every thread count. */
TSR_API tsr_status tsr_gemv_f16(const tsr_context* context, tsr_layout layout,
                                tsr_transpose trans, int64_t m, int64_t n, float alpha,
                                const uint16_t* a, int64_t lda, const float* x, int64_t incx,
                                float beta, float* y, int64_t incy, int threads);
TSR_API tsr_status tsr_gemv_bf16(const tsr_context* context, tsr_layout layout,
                                 tsr_transpose trans, int64_t m, int64_t n, float alpha,
                                 const uint16_t* a, int64_t lda, const float* x, int64_t incx,
                                 float beta, float* y, int64_t incy, int threads);
/* dot of two f16 (or two bf16) vectors, f32 result: tsr_sdot's arguments
 * and contract; the bits equal tsr_sdot's on the widened vectors. */
TSR_API tsr_status tsr_dot_f16(const tsr_context* context, int64_t n, const uint16_t* x,
                               int64_t incx, const uint16_t* y, int64_t incy, float* result,
                               int threads);
TSR_API tsr_status tsr_dot_bf16(const tsr_context* context, int64_t n, const uint16_t* x,
                                int64_t incx, const uint16_t* y, int64_t incy, float* result,
                                int threads);
/* GEMM on half-precision operands (tessera/half.hpp): tsr_sgemm's
 * arguments and contract, arithmetic in f32. Exact mode (TSR_HALF_EXACT):
 * A and B are widened exactly as they are packed and the level's f32
 * kernels run, so the bits equal tsr_sgemm's on the widened operands, for
 * every thread count; a 16-bit C is that f32 result (after the epilogue)
 * rounded to nearest even. TSR_HALF_FAST: bf16 A and B only, on the CPU's
 * bf16 dot product (vdpbf16ps: the avx512 levels of a CPU with
 * AVX512_BF16), whose rounding differs (pairs of depth values, denormals
 * flushed; its own pinned bits, the same for every thread count);
 * elsewhere TSR_UNSUPPORTED, naming the level or the missing feature, never
 * an exact run. tsr_gemm_f16 / tsr_gemm_bf16: A and B in the format, C f32.
 * tsr_gemm_half: each of A, B, C in any storage, with tsr_sgemm_ex's
 * epilogue (bias in f32). */
typedef enum tsr_storage {
  TSR_STORAGE_F32 = 0,
  TSR_STORAGE_F16 = 1,
  TSR_STORAGE_BF16 = 2,
  TSR_STORAGE_ENUM_MIN_ = -0x7fffffff - 1,
  TSR_STORAGE_ENUM_MAX_ = 0x7fffffff
} tsr_storage;
typedef enum tsr_half_mode {
  TSR_HALF_EXACT = 0,
  TSR_HALF_FAST = 1,
  TSR_HALF_MODE_ENUM_MIN_ = -0x7fffffff - 1,
  TSR_HALF_MODE_ENUM_MAX_ = 0x7fffffff
} tsr_half_mode;
TSR_API tsr_status tsr_gemm_f16(const tsr_context* context, tsr_layout layout,
                                tsr_transpose trans_a, tsr_transpose trans_b, int64_t m,
                                int64_t n, int64_t k, float alpha, const uint16_t* a,
                                int64_t lda, const uint16_t* b, int64_t ldb, float beta,
                                float* c, int64_t ldc, int threads);
TSR_API tsr_status tsr_gemm_bf16(const tsr_context* context, tsr_layout layout,
                                 tsr_transpose trans_a, tsr_transpose trans_b, int64_t m,
                                 int64_t n, int64_t k, float alpha, const uint16_t* a,
                                 int64_t lda, const uint16_t* b, int64_t ldb, float beta,
                                 float* c, int64_t ldc, int threads);
TSR_API tsr_status tsr_gemm_half(const tsr_context* context, tsr_layout layout,
                                 tsr_transpose trans_a, tsr_transpose trans_b, int64_t m,
                                 int64_t n, int64_t k, float alpha, tsr_storage a_storage,
                                 const void* a, int64_t lda, tsr_storage b_storage,
                                 const void* b, int64_t ldb, float beta, tsr_storage c_storage,
                                 void* c, int64_t ldc, const float* bias,
                                 tsr_bias_kind bias_kind, tsr_activation activation,
                                 tsr_half_mode mode, int threads);
/* The strided batch of tsr_gemm_half: entry i at a + i * stride_a elements
 * of a's storage (b, c likewise; stride 0 shares an input). Each entry's
 * bits are the single call's, for every thread count; the C entries must
 * not overlap each other or any input. */
TSR_API tsr_status tsr_gemm_half_strided_batched(
    const tsr_context* context, tsr_layout layout, tsr_transpose trans_a, tsr_transpose trans_b,
    int64_t m, int64_t n, int64_t k, float alpha, tsr_storage a_storage, const void* a,
    int64_t lda, int64_t stride_a, tsr_storage b_storage, const void* b, int64_t ldb,
    int64_t stride_b, float beta, tsr_storage c_storage, void* c, int64_t ldc, int64_t stride_c,
    int64_t batch, const float* bias, tsr_bias_kind bias_kind, tsr_activation activation,
    tsr_half_mode mode, int threads);
/* op(B) in any storage packed (widened) once: an f32 tsr_packed_rhs, the
 * bytes tsr_sgemm_prepack_rhs makes of the widened B, for tsr_sgemm_packed
 * and tsr_gemm_half_packed. */
TSR_API tsr_status tsr_gemm_half_prepack_rhs(const tsr_context* context, tsr_layout layout,
                                             tsr_transpose trans_b, int64_t k, int64_t n,
                                             tsr_storage b_storage, const void* b,
                                             int64_t ldb, tsr_packed_rhs** out);
TSR_API tsr_status tsr_gemm_half_packed(const tsr_context* context, tsr_layout layout,
                                        tsr_transpose trans_a, int64_t m, float alpha,
                                        tsr_storage a_storage, const void* a, int64_t lda,
                                        const tsr_packed_rhs* b, float beta,
                                        tsr_storage c_storage, void* c, int64_t ldc,
                                        const float* bias, tsr_bias_kind bias_kind,
                                        tsr_activation activation, tsr_half_mode mode,
                                        int threads);

/* ---- dot and gemv (BLAS conventions; tessera/blas1.hpp) ----
 * dot:  *result = sum_{i<n} x[i*incx] * y[i*incy]
 * gemv: y = alpha * op(A) * x + beta * y, A m x n as stored (layout, lda);
 *       op(A) = A (y has m elements, x n) or A^T (y n, x m).
 * A negative increment walks the vector backwards from its last element in
 * memory, as in BLAS (pass the lowest address). Increments must not be 0.
 * m == 0, n == 0, or alpha == 0 with beta == 1 leave y untouched;
 * alpha == 0 reads neither A nor x; beta == 0 does not read y. y must not
 * share memory with A or x. threads: -1 serial, 0 automatic, n > 0 exactly
 * n (capped by the context's width and the work); below the parallel floor
 * (TESSERA_GEMV_PARALLEL_BYTES) the call is serial. Results are bit-for-bit
 * the same for every thread count. */
TSR_API tsr_status tsr_sdot(const tsr_context* context, int64_t n,
                            const float* x, int64_t incx, const float* y,
                            int64_t incy, float* result, int threads);
TSR_API tsr_status tsr_ddot(const tsr_context* context, int64_t n,
                            const double* x, int64_t incx, const double* y,
                            int64_t incy, double* result, int threads);
TSR_API tsr_status tsr_sgemv(const tsr_context* context, tsr_layout layout,
                             tsr_transpose trans, int64_t m, int64_t n,
                             float alpha, const float* a, int64_t lda,
                             const float* x, int64_t incx, float beta,
                             float* y, int64_t incy, int threads);
TSR_API tsr_status tsr_dgemv(const tsr_context* context, tsr_layout layout,
                             tsr_transpose trans, int64_t m, int64_t n,
                             double alpha, const double* a, int64_t lda,
                             const double* x, int64_t incx, double beta,
                             double* y, int64_t incy, int threads);

/* ---- Last-axis reductions and softmax, f32 and f64 (tessera/reduce.hpp) --
 * x is rows x cols row-major, row r at x + r*ldx, ldx >= max(1, cols).
 * tsr_{sum,max,mean}_rows_*: out[r] = sum / IEEE max / mean of row r
 *   (out has rows elements, disjoint from x). sum of an empty row is 0, mean
 *   NaN; max of an empty row (cols == 0, rows > 0) is an error naming cols.
 * tsr_argmax_rows_*: out[r] = index of the first maximum of row r, or of
 *   its first NaN (NumPy's argmax); an empty row is an error.
 * tsr_softmax_rows_* / tsr_log_softmax_rows_*: y row r = softmax / log-softmax
 *   of x row r, stable (row max subtracted); y may be exactly x with
 *   ldy == ldx (in place), any other overlap is an error. A row of all -Inf
 *   or with a +Inf or NaN gives NaN everywhere in it (as PyTorch).
 * threads: -1 serial, 0 automatic, n > 0 exactly n (capped by the context's
 * width and the work). Results are bit-for-bit the same for every thread
 * count: rows are cut into fixed 4096-element blocks combined in order. */
TSR_API tsr_status tsr_sum_rows_f32(const tsr_context* context, int64_t rows, int64_t cols,
                                    const float* x, int64_t ldx, float* out, int threads);
TSR_API tsr_status tsr_sum_rows_f64(const tsr_context* context, int64_t rows, int64_t cols,
                                    const double* x, int64_t ldx, double* out, int threads);
TSR_API tsr_status tsr_max_rows_f32(const tsr_context* context, int64_t rows, int64_t cols,
                                    const float* x, int64_t ldx, float* out, int threads);
TSR_API tsr_status tsr_max_rows_f64(const tsr_context* context, int64_t rows, int64_t cols,
                                    const double* x, int64_t ldx, double* out, int threads);
TSR_API tsr_status tsr_mean_rows_f32(const tsr_context* context, int64_t rows, int64_t cols,
                                     const float* x, int64_t ldx, float* out, int threads);
TSR_API tsr_status tsr_mean_rows_f64(const tsr_context* context, int64_t rows, int64_t cols,
                                     const double* x, int64_t ldx, double* out, int threads);
TSR_API tsr_status tsr_argmax_rows_f32(const tsr_context* context, int64_t rows, int64_t cols,
                                       const float* x, int64_t ldx, int64_t* out,
                                       int threads);
TSR_API tsr_status tsr_argmax_rows_f64(const tsr_context* context, int64_t rows, int64_t cols,
                                       const double* x, int64_t ldx, int64_t* out,
                                       int threads);
TSR_API tsr_status tsr_softmax_rows_f32(const tsr_context* context, int64_t rows,
                                        int64_t cols, const float* x, int64_t ldx, float* y,
                                        int64_t ldy, int threads);
TSR_API tsr_status tsr_softmax_rows_f64(const tsr_context* context, int64_t rows,
                                        int64_t cols, const double* x, int64_t ldx,
                                        double* y, int64_t ldy, int threads);
TSR_API tsr_status tsr_log_softmax_rows_f32(const tsr_context* context, int64_t rows,
                                            int64_t cols, const float* x, int64_t ldx,
                                            float* y, int64_t ldy, int threads);
TSR_API tsr_status tsr_log_softmax_rows_f64(const tsr_context* context, int64_t rows,
                                            int64_t cols, const double* x, int64_t ldx,
                                            double* y, int64_t ldy, int threads);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_TESSERA_H_ */
