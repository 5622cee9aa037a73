// What the C API's translation units share: the handle behind tsr_context
// and the Status -> tsr_status conversion that records the thread's last
// error message.
#pragma once

#include "tessera/context.hpp"
#include "tessera/gemm.hpp"
#include "tessera/tessera.h"

struct tsr_context {
  tessera::Context context;
};

// Behind tsr_packed_rhs (tsr_*gemm_prepack_rhs): shared by the single and
// batched GEMM entry points.
struct tsr_packed_rhs {
  tessera::PackedRhs packed;
};

namespace tessera::capi {

// Records the message of a failed status for tsr_last_error_message (or
// clears it) and returns its code.
tsr_status report(const Status& status);

// The handle's context, or (null) the process default's. A reference:
// copying a Context copies its shared state's pointer, an atomic
// increment and decrement on every C call.
inline const Context& context_of(const tsr_context* context) {
  static const Context process_default;  // a null state: resolved on first use
  return context != nullptr ? context->context : process_default;
}

// tsr_layout / tsr_transpose -> the C++ enums (either transpose may be
// null: not an argument of the call); an unknown value is an error naming it.
Status gemm_enums_from_c(tsr_layout layout, const tsr_transpose* ta, const tsr_transpose* tb,
                         Layout* l, Transpose* a, Transpose* b);
// threads: -1 serial, 0 automatic, n exactly n.
Parallelism parallelism_from_c(int threads);

}  // namespace tessera::capi
