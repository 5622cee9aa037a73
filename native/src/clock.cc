#include "native/src/clock.hpp"

namespace tessera::native {

#if defined(__x86_64__) || defined(__i386__)

namespace {
struct Anchor {
  std::int64_t ns;
  std::uint64_t ticks;
};
const Anchor& anchor() noexcept {
  // Initialised once, thread-safely (magic static).
  static const Anchor a{now_ns(), ticks_now()};
  return a;
}
}  // namespace

void start_tick_calibration() noexcept { (void)anchor(); }

double ns_per_tick() noexcept {
  const Anchor& a = anchor();
  std::int64_t ns = now_ns();
  std::uint64_t ticks = ticks_now();
  // Two reads of each clock are ~30 ns apart; over >= 1 ms that is an error
  // below 1e-4.
  while (ns - a.ns < 1'000'000) {
    ns = now_ns();
    ticks = ticks_now();
  }
  if (ticks <= a.ticks) return 1.0;  // a TSC that does not advance: no scale
  return static_cast<double>(ns - a.ns) / static_cast<double>(ticks - a.ticks);
}

#elif defined(__aarch64__)

void start_tick_calibration() noexcept {}

double ns_per_tick() noexcept {
  std::uint64_t freq;
  asm volatile("mrs %0, cntfrq_el0" : "=r"(freq));
  return freq > 0 ? 1e9 / static_cast<double>(freq) : 1.0;
}

#else

void start_tick_calibration() noexcept {}
double ns_per_tick() noexcept { return 1.0; }

#endif

}  // namespace tessera::native
