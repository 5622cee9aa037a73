#include "core/src/api/validate.hpp"

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

}  // namespace tessera::core
