/* tessera C API: the ABI for FFI, the WASI module and the Emscripten
 * bindings. Opaque handles, status codes, no exceptions across the boundary.
 * Every function returns a tsr_status; on failure, tsr_last_error_message()
 * gives this thread's message for the last failed call (it names the bad
 * argument). A NULL context means the process default context. */
#ifndef TESSERA_TESSERA_H_
#define TESSERA_TESSERA_H_

#include <stddef.h>

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
  TSR_INTERNAL = 4
} tsr_status;

/* A fixed description of a status code ("invalid argument"); never NULL. */
TSR_API const char* tsr_status_string(tsr_status status);
/* This thread's message for its last failed call, "" if none. Valid until
 * the thread's next tessera call. */
TSR_API const char* tsr_last_error_message(void);

typedef struct tsr_context tsr_context;

typedef struct tsr_context_options {
  /* NULL: best level (or TESSERA_ISA). Otherwise "scalar", "sse2", "avx2",
   * "avx512", "neon" or "simd128"; unsupported levels are an error. */
  const char* isa;
  /* 0: optimized kernels, 1: the naive reference family. */
  int naive;
  /* 0: read TESSERA_* variables, 1: ignore the environment. */
  int ignore_environment;
} tsr_context_options;

/* options may be NULL (all defaults). */
TSR_API tsr_status tsr_context_create(const tsr_context_options* options,
                                      tsr_context** out);
TSR_API void tsr_context_destroy(tsr_context* context);
/* The ISA level the context's calls use ("avx512"). */
TSR_API tsr_status tsr_context_isa(const tsr_context* context,
                                   const char** name);

/* out[i] = a[i] + b[i], i < n. out may equal a or b; no other overlap. */
TSR_API tsr_status tsr_add_f32(const tsr_context* context, const float* a,
                               const float* b, float* out, size_t n);
TSR_API tsr_status tsr_mul_f32(const tsr_context* context, const float* a,
                               const float* b, float* out, size_t n);
/* out[i] = x[i] < 0 ? 0 : x[i]. */
TSR_API tsr_status tsr_relu_f32(const tsr_context* context, const float* x,
                                float* out, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_TESSERA_H_ */
