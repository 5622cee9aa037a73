// Argument checks of dot and gemv (SPEC §7): each error names the argument,
// and all of them run before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/gemm.hpp"
#include "tessera/parallelism.hpp"

namespace tessera::blas1_detail {

Status check_dot(std::int64_t n, const void* x, std::int64_t incx, const void* y,
                 std::int64_t incy, const void* result, Parallelism parallelism,
                 std::size_t element);

Status check_gemv(Layout layout, Transpose trans, std::int64_t m, std::int64_t n,
                  const void* a, std::int64_t lda, const void* x, std::int64_t incx,
                  const void* y, std::int64_t incy, Parallelism parallelism,
                  std::size_t element);

}  // namespace tessera::blas1_detail
