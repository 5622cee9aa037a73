// Between the C API (tessera/tessera.h) and the C++ one, for libraries that
// add C entry points on top of tessera's C++ API (tessera/mpi.h does): the
// same context handles and the same per-thread last-error message as
// tessera's own C functions.
#pragma once

#include "tessera/context.hpp"
#include "tessera/error.hpp"
#include "tessera/gemm.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN
#include "tessera/tessera.h"

TESSERA_CXX_API_BEGIN
namespace tessera::c_interop {

// The context behind a handle; NULL is the process default context.
Context context_of(const tsr_context* context);

// Records a failed status's message for tsr_last_error_message (or clears
// it) and returns its code.
tsr_status report(const Status& status);

// tsr_context_create_with_policy's arguments (either may be NULL: the
// defaults) as ContextOptions; errors name the C field.
Status context_options_from_c(const tsr_context_options* options,
                              const tsr_execution_policy* policy, ContextOptions* out);

// A new handle holding `context`, to be freed with tsr_context_destroy;
// null when out of memory.
tsr_context* new_handle(Context context);

// TSR_NO_TRANS / TSR_TRANS; anything else is an error naming `name`.
Status transpose_from_c(tsr_transpose transpose, const char* name, Transpose* out);

}  // namespace tessera::c_interop
TESSERA_CXX_API_END
