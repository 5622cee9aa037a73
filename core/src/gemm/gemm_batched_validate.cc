#include "core/src/gemm/gemm_batched_validate.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/src/base/entry_ranges.hpp"
#include "core/src/gemm/gemm_packed_rhs.hpp"
#include "core/src/gemm/gemm_validate.hpp"

namespace tessera::gemm_detail {

using core::str;

namespace {

using core::Range;
using core::RangeList;

std::string entry_name(const char* name, std::int64_t i) {
  return std::string(name) + "[" + str(i) + "]";
}

// The accessed range of every entry of one operand (one stored matrix shape
// `proto`, already checked by core::check_stored), after checking each entry (or,
// strided, the base pointer, the stride and the whole batch's span).
template <class P>
Status operand_ranges(Layout layout, std::size_t element, const core::Stored& proto,
                      const BatchOperand<P>& op, const char* stride_name, std::int64_t batch,
                      RangeList* out) {
  out->prepare(0);
  if (batch == 0 || proto.bytes == 0) return {};
  if (op.is_list) {
    if (op.list == nullptr) {
      return Status::invalid_argument(std::string(proto.name) + " is null (the array of " +
                                      str(batch) + " " + proto.name + " pointers)");
    }
    out->prepare(static_cast<std::size_t>(batch));
    for (std::int64_t i = 0; i < batch; ++i) {
      const std::string name = entry_name(proto.name, i);
      core::Stored s{name.c_str(), proto.ld_name, op.list[i], proto.rows, proto.cols, proto.ld};
      TESSERA_RETURN_IF_ERROR(core::check_stored(layout, element, &s));
      out->push_back({reinterpret_cast<std::uintptr_t>(s.data), s.bytes, i});
    }
    return {};
  }
  if (op.base == nullptr) {
    return Status::invalid_argument(std::string(proto.name) + " is null but is " +
                                    str(proto.rows) + " x " + str(proto.cols));
  }
  if (op.stride < 0) {
    return Status::invalid_argument(std::string(stride_name) + " must be >= 0 (got " +
                                    str(op.stride) + ")");
  }
  // The last entry must be addressable: (batch - 1) * stride elements past
  // the base, plus one matrix.
  std::int64_t offset = 0;
  const std::int64_t limit = core::max_span_elements(element);
  if (!core::mul_ok(batch - 1, op.stride, &offset) ||
      offset > limit - static_cast<std::int64_t>(proto.bytes / element)) {
    return Status::invalid_argument(std::string(proto.name) + ": " + str(batch) + " entries " +
                                    stride_name + " = " + str(op.stride) +
                                    " apart span more memory than this target can address");
  }
  // A stride of 0 shares one matrix: one range stands for every entry.
  const std::int64_t distinct = op.stride == 0 ? 1 : batch;
  out->prepare(static_cast<std::size_t>(distinct));
  for (std::int64_t i = 0; i < distinct; ++i) {
    out->push_back({reinterpret_cast<std::uintptr_t>(op.at(i)), proto.bytes, i});
  }
  return {};
}

}  // namespace

template <class T>
Status validate_batched(const detail::ContextState& state, BatchCall<T>* call,
                        const T** packed_data) {
  BatchCall<T>& x = *call;
  const bool packed = x.packed != nullptr;
  TESSERA_RETURN_IF_ERROR(core::check_enums(x.layout, &x.ta, packed ? nullptr : &x.tb));
  TESSERA_RETURN_IF_ERROR(core::check_dim(x.batch, "batch"));
  if (packed) {
    TESSERA_RETURN_IF_ERROR(check_packed_rhs(state, x.layout, *x.packed, packed_data, &x.n, &x.k));
    x.tb = Transpose::kNo;
  }
  TESSERA_RETURN_IF_ERROR(core::check_dim(x.m, "m"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(x.n, "n"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(x.k, "k"));
  TESSERA_RETURN_IF_ERROR(core::check_mnk(x.m, x.n, x.k));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(x.parallelism));

  // The shape every entry shares; core::check_stored's pointer test is done per
  // entry below, so the prototypes carry a non-null placeholder.
  const bool na = x.ta == Transpose::kNo, nb = x.tb == Transpose::kNo;
  const int placeholder = 0;
  core::Stored sa{"a", "lda", &placeholder, na ? x.m : x.k, na ? x.k : x.m, x.lda};
  core::Stored sb{"b", "ldb", &placeholder, nb ? x.k : x.n, nb ? x.n : x.k, x.ldb};
  core::Stored sc{"c", "ldc", &placeholder, x.m, x.n, x.ldc};
  TESSERA_RETURN_IF_ERROR(core::check_stored(x.layout, sizeof(T), &sa));
  if (!packed) TESSERA_RETURN_IF_ERROR(core::check_stored(x.layout, sizeof(T), &sb));
  TESSERA_RETURN_IF_ERROR(core::check_stored(x.layout, sizeof(T), &sc));

  // Strided C entries closer than one C matrix overlap each other: say so
  // in terms of the stride.
  if (!x.c.is_list && x.batch > 1 && sc.bytes != 0 && x.c.stride >= 0 &&
      static_cast<std::uint64_t>(x.c.stride) * sizeof(T) < sc.bytes) {
    return Status::invalid_argument("stride_c = " + str(x.c.stride) +
                                    " is smaller than the span of one c matrix (" +
                                    str(static_cast<std::int64_t>(sc.bytes / sizeof(T))) +
                                    " elements): c entries would overlap");
  }
  RangeList ra, rb, rc;
  TESSERA_RETURN_IF_ERROR(operand_ranges(x.layout, sizeof(T), sa, x.a, "stride_a", x.batch, &ra));
  if (!packed) {
    TESSERA_RETURN_IF_ERROR(
        operand_ranges(x.layout, sizeof(T), sb, x.b, "stride_b", x.batch, &rb));
  }
  TESSERA_RETURN_IF_ERROR(operand_ranges(x.layout, sizeof(T), sc, x.c, "stride_c", x.batch, &rc));

  if (const Range* first = core::sort_and_find_overlap(&rc)) {
    return Status::invalid_argument(entry_name("c", first->entry) + " overlaps " +
                                    entry_name("c", (first + 1)->entry) +
                                    ": every output entry needs its own memory");
  }
  for (const auto* inputs : {&ra, &rb}) {
    const char* name = inputs == &ra ? "a" : "b";
    for (const Range& in : *inputs) {
      if (const Range* hit = core::overlapping_output(rc, in)) {
        return Status::invalid_argument(entry_name("c", hit->entry) + " overlaps " +
                                        entry_name(name, in.entry) +
                                        ": the output must not share memory with an input");
      }
    }
  }
  return {};
}

template Status validate_batched<float>(const detail::ContextState&, BatchCall<float>*,
                                        const float**);
template Status validate_batched<double>(const detail::ContextState&, BatchCall<double>*,
                                         const double**);

}  // namespace tessera::gemm_detail
