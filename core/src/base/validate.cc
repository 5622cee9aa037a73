#include "core/src/base/validate.hpp"

#include <algorithm>

namespace tessera::core {

Status check_pointer(const void* p, std::size_t count, const char* name) {
  if (p == nullptr && count != 0) {
    return Status::invalid_argument(std::string(name) + " is null but has " +
                                    std::to_string(count) + " elements");
  }
  return {};
}

Status check_in_place_or_disjoint(const void* in, const void* out,
                                  std::size_t bytes, const char* in_name,
                                  const char* out_name) {
  if (in == out) return {};
  if (ranges_overlap(in, bytes, out, bytes)) {
    return Status::invalid_argument(
        std::string(out_name) + " partially overlaps " + in_name +
        ": it must be the same array (in place) or not overlap at all");
  }
  return {};
}


Status check_enums(Layout layout, const Transpose* ta, const Transpose* tb) {
  if (layout != Layout::kRowMajor && layout != Layout::kColMajor) {
    return Status::invalid_argument("layout is not a Layout value (got " +
                                    str(static_cast<int>(layout)) + ")");
  }
  if (ta != nullptr && *ta != Transpose::kNo && *ta != Transpose::kYes) {
    return Status::invalid_argument("trans_a is not a Transpose value (got " +
                                    str(static_cast<int>(*ta)) + ")");
  }
  if (tb != nullptr && *tb != Transpose::kNo && *tb != Transpose::kYes) {
    return Status::invalid_argument("trans_b is not a Transpose value (got " +
                                    str(static_cast<int>(*tb)) + ")");
  }
  return {};
}

Status check_dim(std::int64_t v, const char* name) {
  if (v < 0) {
    return Status::invalid_argument(std::string(name) + " must be >= 0 (got " + str(v) + ")");
  }
  return {};
}

Status check_parallelism(Parallelism p) {
  if (p.raw() < -1) {
    return Status::invalid_argument("parallelism: threads(" + str(p.raw()) +
                                    ") is negative; use Parallelism::serial() or threads(n >= 0)");
  }
  return {};
}

Status check_mnk(std::int64_t m, std::int64_t n, std::int64_t k) {
  std::int64_t mn = 0, mnk = 0;
  if (!mul_ok(m, n, &mn) || !mul_ok(mn, k, &mnk)) {
    return Status::invalid_argument("m*n*k overflows 64 bits (m = " + str(m) + ", n = " +
                                    str(n) + ", k = " + str(k) + ")");
  }
  return {};
}

Status check_product(std::int64_t m, std::int64_t n, std::int64_t k, Parallelism parallelism) {
  TESSERA_RETURN_IF_ERROR(check_dim(m, "m"));
  TESSERA_RETURN_IF_ERROR(check_dim(n, "n"));
  TESSERA_RETURN_IF_ERROR(check_dim(k, "k"));
  TESSERA_RETURN_IF_ERROR(check_mnk(m, n, k));
  return check_parallelism(parallelism);
}

Status check_stored(Layout layout, std::size_t element, Stored* s) {
  const std::int64_t line = layout == Layout::kRowMajor ? s->cols : s->rows;
  const std::int64_t lines = layout == Layout::kRowMajor ? s->rows : s->cols;
  if (s->ld < std::max<std::int64_t>(1, line)) {
    return Status::invalid_argument(
        std::string(s->ld_name) + " = " + str(s->ld) + " is smaller than " +
        (layout == Layout::kRowMajor ? "the row length " : "the column length ") +
        str(std::max<std::int64_t>(1, line)) + " of " + s->name + " (" + str(s->rows) +
        " x " + str(s->cols) + ", " + layout_name(layout) + ")");
  }
  if (s->rows == 0 || s->cols == 0) {
    s->bytes = 0;
    return {};
  }
  // Elements spanned: (lines - 1) * ld + line, then bytes; both must fit.
  std::int64_t span = 0;
  const std::int64_t limit = max_span_elements(element);
  if (!mul_ok(lines - 1, s->ld, &span) || span > limit - line) {
    return Status::invalid_argument(std::string(s->name) + " (" + str(s->rows) + " x " +
                                    str(s->cols) + ", " + s->ld_name + " = " + str(s->ld) +
                                    ") spans more memory than this target can address");
  }
  span += line;
  s->bytes = static_cast<std::size_t>(span) * element;
  if (s->data == nullptr) {
    return Status::invalid_argument(std::string(s->name) + " is null but is " + str(s->rows) +
                                    " x " + str(s->cols));
  }
  return {};
}

Status check_no_alias(const Stored& c, const Stored& in) {
  if (ranges_overlap(c.data, c.bytes, in.data, in.bytes)) {
    return Status::invalid_argument(std::string(c.name) + " overlaps " + in.name +
                                    ": the output must not share memory with an input");
  }
  return {};
}

Status check_map_operands(const void* x, std::size_t x_len, std::size_t x_bytes, const void* y,
                          std::size_t y_len, std::size_t y_bytes) {
  if (y_len != x_len) {
    return Status::invalid_argument("y has " + std::to_string(y_len) + " elements but x has " +
                                    std::to_string(x_len));
  }
  TESSERA_RETURN_IF_ERROR(check_pointer(x, x_len, "x"));
  TESSERA_RETURN_IF_ERROR(check_pointer(y, y_len, "y"));
  if (ranges_overlap(x, x_len * x_bytes, y, y_len * y_bytes)) {
    return Status::invalid_argument("y overlaps x");
  }
  return {};
}

}  // namespace tessera::core
