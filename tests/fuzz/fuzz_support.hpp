// Shared by the libFuzzer harnesses (tests/fuzz/): guarded output buffers
// and the stop that turns a broken property into a crash libFuzzer reports
// (with the input that caused it saved).
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace tessera::fuzz {

// A property of the call under test does not hold: report and abort, so
// libFuzzer records the input as a crash.
[[noreturn]] inline void fail(const char* what, const char* detail = "") {
  std::fprintf(stderr, "fuzz property violated: %s %s\n", what, detail);
  std::abort();
}

inline void require(bool ok, const char* what, const char* detail = "") {
  if (!ok) fail(what, detail);
}

// An output of `count` elements with kGuard sentinel elements on each side,
// filled with a recognisable pattern; intact() tells whether anything
// outside [data(), data() + count) was written, unchanged() whether nothing
// was written at all.
template <class T>
class Guarded {
 public:
  static constexpr std::size_t kGuard = 16;
  explicit Guarded(std::size_t count) : storage_(count + 2 * kGuard), count_(count) {
    for (std::size_t i = 0; i < storage_.size(); ++i) {
      storage_[i] = static_cast<T>(0.25) * static_cast<T>(static_cast<int>(i % 13) - 6);
    }
    before_ = storage_;
  }
  // Takes the current contents as the reference of intact() / unchanged()
  // (after the caller filled the output with its own values).
  void snapshot() { before_ = storage_; }
  T* data() { return storage_.data() + kGuard; }
  std::size_t size() const { return count_; }
  T before(std::size_t i) const { return before_[kGuard + i]; }
  bool intact() const {
    for (std::size_t i = 0; i < kGuard; ++i) {
      if (!same(i) || !same(storage_.size() - 1 - i)) return false;
    }
    return true;
  }
  bool unchanged() const {
    for (std::size_t i = 0; i < storage_.size(); ++i) {
      if (!same(i)) return false;
    }
    return true;
  }

 private:
  bool same(std::size_t i) const {
    return std::memcmp(&storage_[i], &before_[i], sizeof(T)) == 0;
  }
  std::vector<T> storage_, before_;
  std::size_t count_;
};

// An enum argument: mostly a valid value (0 or 1), sometimes any int.
inline int pick_enum(FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) return in.ConsumeIntegral<int>();
  return in.ConsumeBool() ? 1 : 0;
}

// alpha / beta: one of 0, 1, -1, 0.5, NaN.
template <class T>
T pick_scalar(FuzzedDataProvider& in) {
  const T values[] = {T(0), T(1), T(-1), T(0.5), std::numeric_limits<T>::quiet_NaN()};
  return values[in.ConsumeIntegralInRange<int>(0, 4)];
}

// Elements spanned by `outer` lines of `inner` elements at stride ld (0 when
// either count is 0): what a BLAS-style operand occupies.
inline std::size_t footprint(long long outer, long long inner, long long ld) {
  if (outer <= 0 || inner <= 0) return 0;
  return static_cast<std::size_t>((outer - 1) * ld + inner);
}

}  // namespace tessera::fuzz
