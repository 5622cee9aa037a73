// ThreadedTestExecutor: a deliberately simple executor for tests that need
// real threads independent of tessera's own pool: every run() starts
// participants - 1 std::threads, runs participant 0 on the caller and joins
// them all. Native builds only (include it under TESSERA_THREADS_USABLE and
// not on Emscripten, whose pthreads need a pre-started pool).
#pragma once

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "tessera/platform/executor.hpp"

namespace tessera::test {

class ThreadedTestExecutor final : public platform::Executor {
 public:
  explicit ThreadedTestExecutor(int width) : width_(width < 1 ? 1 : width) {}
  int width() const noexcept override { return width_; }

  void run(int participants, FunctionRef<void(int)> body) override {
    std::exception_ptr first;
    std::mutex mutex;
    auto guarded = [&](int p) {
      try {
        body(p);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!first) first = std::current_exception();
      }
    };
    std::vector<std::thread> threads;
    threads.reserve(participants > 1 ? participants - 1 : 0);
    for (int p = 1; p < participants; ++p) threads.emplace_back(guarded, p);
    guarded(0);
    for (std::thread& t : threads) t.join();
    if (first) std::rethrow_exception(first);
  }

 private:
  int width_;
};

}  // namespace tessera::test
