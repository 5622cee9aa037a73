#include "core/src/blas1/blas1_validate.hpp"

#include <limits>
#include <string>

#include "core/src/base/validate.hpp"

namespace tessera::blas1_detail {
namespace {

using core::str;

// A strided vector as accessed: its lowest address and byte span.
struct Strided {
  const char* name;      // "x"
  const char* inc_name;  // "incx"
  const void* data;
  std::int64_t len, inc;
  std::size_t bytes = 0;
};

Status check_strided(Strided* v, std::size_t element) {
  if (v->inc == 0) {
    return Status::invalid_argument(std::string(v->inc_name) + " must not be 0");
  }
  if (v->len == 0) return {};
  // Elements spanned: (len - 1) * |inc| + 1; in bytes it must be addressable.
  const std::int64_t step = v->inc < 0 ? -v->inc : v->inc;  // inc > INT64_MIN below
  const std::int64_t limit = core::max_span_elements(element);
  std::int64_t span = 0;
  if (v->inc == std::numeric_limits<std::int64_t>::min() ||
      !core::mul_ok(v->len - 1, step, &span) || span >= limit) {
    return Status::invalid_argument(std::string(v->name) + " (" + str(v->len) + " elements, " +
                                    v->inc_name + " = " + str(v->inc) +
                                    ") spans more memory than this target can address");
  }
  v->bytes = static_cast<std::size_t>(span + 1) * element;
  if (v->data == nullptr) {
    return Status::invalid_argument(std::string(v->name) + " is null but has " + str(v->len) +
                                    " elements");
  }
  return {};
}

Status check_disjoint(const void* out, std::size_t out_bytes, const char* out_name,
                      const void* in, std::size_t in_bytes, const char* in_name) {
  if (core::ranges_overlap(out, out_bytes, in, in_bytes)) {
    return Status::invalid_argument(std::string(out_name) + " overlaps " + in_name +
                                    ": the output must not share memory with an input");
  }
  return {};
}

}  // namespace

Status check_dot(std::int64_t n, const void* x, std::int64_t incx, const void* y,
                 std::int64_t incy, const void* result, Parallelism parallelism,
                 std::size_t element) {
  TESSERA_RETURN_IF_ERROR(core::check_dim(n, "n"));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(parallelism));
  Strided sx{"x", "incx", x, n, incx};
  Strided sy{"y", "incy", y, n, incy};
  TESSERA_RETURN_IF_ERROR(check_strided(&sx, element));
  TESSERA_RETURN_IF_ERROR(check_strided(&sy, element));
  if (result == nullptr) return Status::invalid_argument("result is null");
  return {};
}

Status check_gemv(Layout layout, Transpose trans, std::int64_t m, std::int64_t n,
                  const void* a, std::int64_t lda, const void* x, std::int64_t incx,
                  const void* y, std::int64_t incy, Parallelism parallelism,
                  std::size_t element, std::size_t a_element) {
  TESSERA_RETURN_IF_ERROR(core::check_enums(layout, nullptr, nullptr));
  if (trans != Transpose::kNo && trans != Transpose::kYes) {
    return Status::invalid_argument("trans is not a Transpose value (got " +
                                    str(static_cast<int>(trans)) + ")");
  }
  TESSERA_RETURN_IF_ERROR(core::check_dim(m, "m"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(n, "n"));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(parallelism));
  core::Stored sa{"a", "lda", a, m, n, lda};
  TESSERA_RETURN_IF_ERROR(core::check_stored(layout, a_element, &sa));
  const bool no_trans = trans == Transpose::kNo;
  Strided sx{"x", "incx", x, no_trans ? n : m, incx};
  Strided sy{"y", "incy", y, no_trans ? m : n, incy};
  TESSERA_RETURN_IF_ERROR(check_strided(&sx, element));
  TESSERA_RETURN_IF_ERROR(check_strided(&sy, element));
  // The accessed span starts at the lowest address whatever the sign of inc.
  TESSERA_RETURN_IF_ERROR(check_disjoint(y, sy.bytes, "y", a, sa.bytes, "a"));
  TESSERA_RETURN_IF_ERROR(check_disjoint(y, sy.bytes, "y", x, sx.bytes, "x"));
  return {};
}

}  // namespace tessera::blas1_detail
