// Argument checks of the last-axis reductions and softmax (SPEC §7): each
// error names the argument, and all of them run before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/parallelism.hpp"
#include "tessera/reduce.hpp"

namespace tessera::reduce_detail {

// x rows x cols (ldx), out `rows` elements of out_element bytes, disjoint
// from x. needs_value: max / argmax, which have no value for an empty row.
Status check_reduce(const char* op, std::int64_t rows, std::int64_t cols, const void* x,
                    std::int64_t ldx, const void* out, std::size_t out_element,
                    bool needs_value, Parallelism parallelism, std::size_t element);

// x and y rows x cols (ldx, ldy); y is exactly x (same ld) or disjoint.
Status check_softmax(std::int64_t rows, std::int64_t cols, const void* x, std::int64_t ldx,
                     const void* y, std::int64_t ldy, Parallelism parallelism,
                     std::size_t element);

}  // namespace tessera::reduce_detail
