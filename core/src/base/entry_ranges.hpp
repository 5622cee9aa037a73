// The bytes each entry of a batched call reads or writes, and the overlap
// checks batched GEMM and batched MatMulInteger make on them before
// anything is written: no output entry shares a byte with another, or with
// any input entry.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::core {

// One entry's accessed bytes. No default member initializers: RangeList's
// in-place array is then left unwritten until used (zeroing it took `rep
// stos` on every call).
struct Range {
  std::uintptr_t begin;
  std::size_t bytes;
  std::int64_t entry;
};

// One operand's ranges: in place for a batch of up to kInline entries, so a
// call with a few entries allocates nothing here (three vectors were ~40%
// of a one-entry 8x8x8 batch's overhead), on the heap beyond. The final
// count is known before the first push (prepare()).
class RangeList {
 public:
  RangeList() = default;
  RangeList(const RangeList&) = delete;
  RangeList& operator=(const RangeList&) = delete;

  void prepare(std::size_t count) {
    size_ = 0;
    if (count > kInline) {
      heap_.resize(count);
      data_ = heap_.data();
    } else {
      data_ = inline_;
    }
  }
  void push_back(const Range& r) { data_[size_++] = r; }
  Range* begin() { return data_; }
  Range* end() { return data_ + size_; }
  const Range* begin() const { return data_; }
  const Range* end() const { return data_ + size_; }
  std::size_t size() const { return size_; }
  const Range& operator[](std::size_t i) const { return data_[i]; }

 private:
  static constexpr std::size_t kInline = 16;
  Range inline_[kInline];
  std::vector<Range> heap_;
  Range* data_ = inline_;
  std::size_t size_ = 0;
};

inline bool overlaps(const Range& x, const Range& y) {
  return x.bytes != 0 && y.bytes != 0 && x.begin < y.begin + y.bytes &&
         y.begin < x.begin + x.bytes;
}

// Sorts `outputs` by address; the first of two neighbours that overlap
// (its successor the second), or null when the entries are disjoint.
inline const Range* sort_and_find_overlap(RangeList* outputs) {
  std::sort(outputs->begin(), outputs->end(),
            [](const Range& p, const Range& q) { return p.begin < q.begin; });
  for (std::size_t i = 1; i < outputs->size(); ++i) {
    if (overlaps((*outputs)[i - 1], (*outputs)[i])) return &(*outputs)[i - 1];
  }
  return nullptr;
}

// `outputs` sorted by address and pairwise disjoint; the output entry
// overlapping `in`, or null. Disjoint sorted ranges have sorted ends, so
// only the last output starting below in's end can reach into it.
inline const Range* overlapping_output(const RangeList& outputs, const Range& in) {
  auto it = std::lower_bound(outputs.begin(), outputs.end(), in.begin + in.bytes,
                             [](const Range& r, std::uintptr_t end) { return r.begin < end; });
  if (it == outputs.begin()) return nullptr;
  --it;
  return overlaps(*it, in) ? &*it : nullptr;
}

}  // namespace tessera::core
