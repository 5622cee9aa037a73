// The checks a PackedRhs passes before a product uses it, shared by single
// gemm and batched gemm so both reject the same operands with the same
// messages.
#pragma once

#include <cstdint>

#include "core/src/base/context_state.hpp"
#include "tessera/gemm.hpp"

namespace tessera::gemm_detail {

// `packed` is non-empty, of dtype T, packed for `layout` and for the
// context's kernel table and depth blocking. On success: its packed data,
// n and k.
template <class T>
Status check_packed_rhs(const detail::ContextState& state, Layout layout, const PackedRhs& packed,
                        const T** data, std::int64_t* n, std::int64_t* k);

}  // namespace tessera::gemm_detail
