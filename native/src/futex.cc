#include "native/src/futex.hpp"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#endif

namespace tessera::native {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t),
              "the futex word must be a plain 32-bit integer");

#if defined(__linux__)

namespace {
long futex_call(std::atomic<std::uint32_t>* word, int op, std::uint32_t value,
                const struct timespec* timeout) noexcept {
  // FUTEX_PRIVATE_FLAG: the word is never shared with another process,
  // which lets the kernel skip the shared-mapping lookup.
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word),
                 op | FUTEX_PRIVATE_FLAG, value, timeout, nullptr, 0);
}
}  // namespace

bool futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected,
                std::int64_t timeout_ns) noexcept {
  struct timespec ts;
  const struct timespec* timeout = nullptr;
  if (timeout_ns >= 0) {
    ts.tv_sec = static_cast<time_t>(timeout_ns / 1'000'000'000);
    ts.tv_nsec = static_cast<long>(timeout_ns % 1'000'000'000);
    timeout = &ts;
  }
  // FUTEX_WAIT's timeout is relative. EAGAIN (word already changed) and
  // EINTR are ordinary early returns.
  const long rc = futex_call(word, FUTEX_WAIT, expected, timeout);
  return !(rc == -1 && errno == ETIMEDOUT);
}

void futex_wake_all(std::atomic<std::uint32_t>* word) noexcept {
  futex_call(word, FUTEX_WAKE, INT32_MAX, nullptr);
}

bool futex_has_timeout() noexcept { return true; }

#else

bool futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected,
                std::int64_t /*timeout_ns*/) noexcept {
  word->wait(expected, std::memory_order_relaxed);
  return true;
}

void futex_wake_all(std::atomic<std::uint32_t>* word) noexcept {
  word->notify_all();
}

bool futex_has_timeout() noexcept { return false; }

#endif

}  // namespace tessera::native
