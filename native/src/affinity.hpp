// Pinning a worker thread to one logical CPU.
#pragma once

#include <string>
#include <thread>
#include <vector>

namespace tessera::native {

// Pins `thread` to logical CPU `cpu`. Returns "" on success, otherwise why
// not (the OS's error text, or "affinity not supported on this platform").
// Failure is never fatal: the thread keeps running unpinned.
std::string pin_thread_to_cpu(std::thread& thread, int cpu);

// The logical CPU the calling thread runs on now, -1 where unknown (~2 ns
// on Linux with glibc's rseq area).
int current_cpu() noexcept;

// The process's allowed logical CPUs (its affinity mask), ascending; empty
// where unknown.
std::vector<int> allowed_cpus();

// Logical CPUs this process may run on (its affinity mask on Linux,
// std::thread::hardware_concurrency() elsewhere); at least 1.
int available_cpu_count();

}  // namespace tessera::native
