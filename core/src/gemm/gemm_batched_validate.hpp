// Batched GEMM argument checks (design.md §Bad input): single gemm's checks
// for the shape every entry shares, then the batch's own: batch and strides
// >= 0, pointer arrays and their entries not null, and no C entry sharing a
// byte with another C entry or with any input entry.
#pragma once

#include "core/src/base/context_state.hpp"
#include "core/src/gemm/gemm_batched_impl.hpp"

namespace tessera::gemm_detail {

// On success with call->packed set: call->n, call->k and *packed_data come
// from the PackedRhs.
template <class T>
Status validate_batched(const detail::ContextState& state, BatchCall<T>* call,
                        const T** packed_data);

}  // namespace tessera::gemm_detail
