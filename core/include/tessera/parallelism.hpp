// Parallelism: how many of a context's participants one call may use
// (design.md §Parallelism). The context's policy fixes how many participants
// exist at all; a call's Parallelism picks how many of them one kernel uses.
//
//   Parallelism::serial()     every call runs on the caller alone
//   Parallelism::threads(0)   automatic (the default): the resolver decides
//                             from the problem's size
//   Parallelism::threads(n)   exactly n participants, capped only by the
//                             context's width and by the number of jobs
// Whatever is chosen, results are bit-for-bit the same
// (design.md §Reproducibility).
#pragma once

#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

class Parallelism {
 public:
  constexpr Parallelism() = default;  // automatic
  static constexpr Parallelism serial() { return Parallelism(-1); }
  static constexpr Parallelism threads(int n) { return Parallelism(n); }

  constexpr bool is_serial() const { return value_ < 0; }
  constexpr bool is_automatic() const { return value_ == 0; }
  // The explicit count (> 0), or 0 when automatic/serial.
  constexpr int count() const { return value_ > 0 ? value_ : 0; }
  // The raw request: -1 serial, 0 automatic, n > 0 explicit. A negative
  // value other than serial() cannot be constructed except by threads(n<0),
  // which callers must reject as an invalid argument (validate_parallelism).
  constexpr int raw() const { return value_; }

 private:
  constexpr explicit Parallelism(int v) : value_(v) {}
  int value_ = 0;
};

}  // namespace tessera
TESSERA_CXX_API_END
