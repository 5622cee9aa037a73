#include "core/src/api/validate.hpp"

namespace tessera::core {

Status check_pointer(const void* p, std::size_t count, const char* name) {
  if (p == nullptr && count != 0) {
    return Status::invalid_argument(std::string(name) + " is null but has " +
                                    std::to_string(count) + " elements");
  }
  return {};
}

bool ranges_overlap(const void* a, std::size_t a_bytes, const void* b,
                    std::size_t b_bytes) noexcept {
  if (a_bytes == 0 || b_bytes == 0) return false;
  // Compare as integers: relational comparison of unrelated pointers is
  // unspecified in C++.
  const auto a0 = reinterpret_cast<std::uintptr_t>(a);
  const auto b0 = reinterpret_cast<std::uintptr_t>(b);
  return a0 < b0 + b_bytes && b0 < a0 + a_bytes;
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

}  // namespace tessera::core
