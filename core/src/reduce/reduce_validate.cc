#include "core/src/reduce/reduce_validate.hpp"

#include <string>

#include "core/src/base/validate.hpp"

namespace tessera::reduce_detail {

using core::str;

Status check_reduce(const char* op, std::int64_t rows, std::int64_t cols, const void* x,
                    std::int64_t ldx, const void* out, std::size_t out_element,
                    bool needs_value, Parallelism parallelism, std::size_t element) {
  TESSERA_RETURN_IF_ERROR(core::check_dim(rows, "rows"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(cols, "cols"));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(parallelism));
  core::Stored sx{"x", "ldx", x, rows, cols, ldx};
  TESSERA_RETURN_IF_ERROR(core::check_stored(Layout::kRowMajor, element, &sx));
  // As NumPy: max / argmax of an empty sequence is an error, not a value.
  if (needs_value && rows > 0 && cols == 0) {
    return Status::invalid_argument(std::string("cols is 0: ") + op +
                                    " of an empty row has no value (rows = " + str(rows) + ")");
  }
  TESSERA_RETURN_IF_ERROR(core::check_pointer(out, static_cast<std::size_t>(rows), "out"));
  const std::size_t out_bytes = static_cast<std::size_t>(rows) * out_element;
  if (core::ranges_overlap(out, out_bytes, x, sx.bytes)) {
    return Status::invalid_argument("out overlaps x: the output must not share memory with "
                                    "the input");
  }
  return {};
}

Status check_softmax(std::int64_t rows, std::int64_t cols, const void* x, std::int64_t ldx,
                     const void* y, std::int64_t ldy, Parallelism parallelism,
                     std::size_t element) {
  TESSERA_RETURN_IF_ERROR(core::check_dim(rows, "rows"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(cols, "cols"));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(parallelism));
  core::Stored sx{"x", "ldx", x, rows, cols, ldx};
  core::Stored sy{"y", "ldy", y, rows, cols, ldy};
  TESSERA_RETURN_IF_ERROR(core::check_stored(Layout::kRowMajor, element, &sx));
  TESSERA_RETURN_IF_ERROR(core::check_stored(Layout::kRowMajor, element, &sy));
  if (x == y && ldx == ldy) return {};  // exactly in place
  if (core::ranges_overlap(y, sy.bytes, x, sx.bytes)) {
    return Status::invalid_argument(
        "y overlaps x: softmax runs in place only with y == x and ldy == ldx (got ldx = " +
        str(ldx) + ", ldy = " + str(ldy) + ", y - x = " +
        str((static_cast<const char*>(y) - static_cast<const char*>(x)) /
            static_cast<std::int64_t>(element)) +
        " elements)");
  }
  return {};
}

}  // namespace tessera::reduce_detail
