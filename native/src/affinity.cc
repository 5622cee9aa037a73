#include "native/src/affinity.hpp"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>

#include <system_error>
#endif

namespace tessera::native {

#if defined(__linux__)

std::string pin_thread_to_cpu(std::thread& thread, int cpu) {
  // A dynamically sized set: CPU ids can exceed CPU_SETSIZE (1024) on big
  // machines, and an id past the kernel's limit must fail with the
  // kernel's own error, not overflow a fixed cpu_set_t.
  if (cpu < 0) return "negative CPU id";
  const std::size_t ncpus = static_cast<std::size_t>(cpu) + 1;
  cpu_set_t* set = CPU_ALLOC(ncpus);
  if (set == nullptr) return "out of memory for a CPU set";
  const std::size_t bytes = CPU_ALLOC_SIZE(ncpus);
  CPU_ZERO_S(bytes, set);
  CPU_SET_S(static_cast<std::size_t>(cpu), bytes, set);
  const int rc = pthread_setaffinity_np(thread.native_handle(), bytes, set);
  CPU_FREE(set);
  if (rc == 0) return {};
  return std::error_code(rc, std::generic_category()).message();
}

int current_cpu() noexcept { return sched_getcpu(); }

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

int available_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? static_cast<int>(hw) : 1;
}

#else

std::string pin_thread_to_cpu(std::thread&, int) {
  return "affinity not supported on this platform";
}

int current_cpu() noexcept { return -1; }

std::vector<int> allowed_cpus() { return {}; }

int available_cpu_count() {
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? static_cast<int>(hw) : 1;
}

#endif

}  // namespace tessera::native
