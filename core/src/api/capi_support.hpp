// What the C API's translation units share: the handle behind tsr_context
// and the Status -> tsr_status conversion that records the thread's last
// error message.
#pragma once

#include "tessera/context.hpp"
#include "tessera/tessera.h"

struct tsr_context {
  tessera::Context context;
};

namespace tessera::capi {

// Records the message of a failed status for tsr_last_error_message (or
// clears it) and returns its code.
tsr_status report(const Status& status);

inline Context context_of(const tsr_context* context) {
  return context != nullptr ? context->context : Context();
}

}  // namespace tessera::capi
