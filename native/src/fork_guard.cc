#include "native/src/fork_guard.hpp"

#include <atomic>
#include <mutex>

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#endif

namespace tessera::native {

namespace {
// Only the child handler writes it, in a process that then has exactly one
// thread; readers in that process run after the handler (program order).
std::atomic<std::uint32_t> g_generation{0};

void on_fork_child() noexcept {
  g_generation.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

std::uint32_t fork_generation() noexcept {
  return g_generation.load(std::memory_order_relaxed);
}

void install_fork_handler() noexcept {
#if defined(__unix__) || defined(__APPLE__)
  static std::once_flag once;
  std::call_once(once, [] { pthread_atfork(nullptr, nullptr, &on_fork_child); });
#endif
}

}  // namespace tessera::native
