// ExternalExecutor (design.md §Executor): an application's parallel-for lent to
// tessera. The application here is a plain std::thread fork/join (no
// OpenMP), or, on targets without threads, an in-order loop.
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/src/parallel/execute_ranges.hpp"
#include "tessera/platform/build_config.h"
#include "tessera/platform/external_executor.hpp"

// The application's threads are std::threads: every threaded target but
// wasi-threads, whose libc++ has none.
#if TESSERA_THREADS_USABLE && !defined(__wasi__)
#define TESSERA_TEST_APP_THREADS 1
#include <chrono>
#include <thread>
#else
#define TESSERA_TEST_APP_THREADS 0
#endif

namespace tessera::platform {
namespace {

// The application's parallel-for: index 0 on the calling thread, the others
// on fresh threads, joined before returning. Counts its invocations.
struct AppParallelFor {
  std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
  void operator()(int n, FunctionRef<void(int)> task) const {
    calls->fetch_add(1);
#if TESSERA_TEST_APP_THREADS
    std::vector<std::thread> threads;
    for (int i = 1; i < n; ++i) threads.emplace_back([&task, i] { task(i); });
    task(0);
    for (auto& t : threads) t.join();
#else
    for (int i = 0; i < n; ++i) task(i);
#endif
  }
};

std::shared_ptr<ExternalExecutor> make(int width, AppParallelFor app,
                                       bool counters = true, bool nested = false) {
  std::shared_ptr<ExternalExecutor> out;
  const Status status = make_external_executor(
      {.width = width, .parallel_for = app, .allow_nested_parallelism = nested,
       .counters = counters},
      &out);
  REQUIRE_MESSAGE(status.ok(), status.to_string());
  return out;
}

TEST_CASE("each index runs once through the application's parallel-for") {
  AppParallelFor app;
  auto e = make(4, app);
  CHECK(e->width() == 4);
  for (int w = 1; w <= 4; ++w) {
    std::vector<std::atomic<int>> hits(4);
    e->run(w, [&](int p) { hits[p].fetch_add(1); });
    for (int p = 0; p < 4; ++p) CHECK(hits[p].load() == (p < w ? 1 : 0));
  }
  // run(1) never calls the application: 3 calls for w = 2, 3, 4.
  CHECK(app.calls->load() == 3);
  CHECK(e->counters().dispatches == 3);
  CHECK(e->counters().serial_fallbacks == 0);
}

TEST_CASE("bad options are errors naming the field") {
  std::shared_ptr<ExternalExecutor> out;
  Status s = make_external_executor({.width = 0, .parallel_for = AppParallelFor{}}, &out);
  CHECK_FALSE(s.ok());
  CHECK(s.message().find("width") != std::string::npos);
  s = make_external_executor({.width = 2, .parallel_for = nullptr}, &out);
  CHECK_FALSE(s.ok());
  CHECK(s.message().find("parallel_for") != std::string::npos);
  CHECK(out == nullptr);
}

TEST_CASE("an external executor drives execute_ranges") {
  auto e = make(3, AppParallelFor{});
  std::vector<int> data(1000, 0);
  core::execute_ranges({e.get(), e->width()}, data.size(), {.min_block = 10},
                       [&](std::size_t b, std::size_t end) {
                         for (std::size_t i = b; i < end; ++i) data[i] += static_cast<int>(i);
                       });
  for (std::size_t i = 0; i < data.size(); ++i) REQUIRE(data[i] == static_cast<int>(i));
  CHECK(e->counters().dispatches == 1);
}

TEST_CASE("a nested run is serial and never enters the application again") {
  AppParallelFor app;
  auto e = make(2, app);
  std::atomic<int> inner{0};
  e->run(2, [&](int) { e->run(2, [&](int) { inner.fetch_add(1); }); });
  CHECK(inner.load() == 4);
  CHECK(app.calls->load() == 1);
  CHECK(e->counters().serial_fallbacks == 2);
}

TEST_CASE("allowed nesting still runs serially on an executor that is busy") {
  AppParallelFor app;
  auto e = make(2, app, true, /*nested=*/true);
  AppParallelFor other_app;
  auto other = make(2, other_app, true, true);
  std::atomic<int> inner{0};
  e->run(2, [&](int p) {
    if (p == 0) other->run(2, [&](int) { inner.fetch_add(1); });  // allowed
    e->run(2, [&](int) { inner.fetch_add(1); });  // itself: busy -> serial
  });
  CHECK(inner.load() == 2 + 4);
  CHECK(other_app.calls->load() == 1);
  CHECK(app.calls->load() == 1);
  CHECK(e->counters().serial_fallbacks == 2);
}

#if defined(__cpp_exceptions)
TEST_CASE("an exception in a task is rethrown after all tasks finish") {
  auto e = make(3, AppParallelFor{});
  std::atomic<int> finished{0};
  CHECK_THROWS_WITH_AS(e->run(3,
                              [&](int p) {
                                if (p == 2) throw std::runtime_error("task 2 failed");
                                finished.fetch_add(1);
                              }),
                       "task 2 failed", std::runtime_error);
  CHECK(finished.load() == 2);
  std::atomic<int> again{0};
  e->run(3, [&](int) { again.fetch_add(1); });
  CHECK(again.load() == 3);
}
#endif

#if TESSERA_TEST_APP_THREADS
TEST_CASE("a second caller runs serially while the first region is in flight") {
  AppParallelFor app;
  auto e = make(2, app);
  std::atomic<bool> inside{false};
  std::atomic<bool> second_done{false};
  std::thread first([&] {
    e->run(2, [&](int p) {
      if (p != 0) return;
      inside.store(true);
      for (int i = 0; i < 10'000 && !second_done.load(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  });
  while (!inside.load()) std::this_thread::yield();
  std::thread::id ids[2];
  std::thread second([&] {
    e->run(2, [&](int p) { ids[p] = std::this_thread::get_id(); });
    second_done.store(true);
  });
  const auto second_id = second.get_id();
  second.join();
  first.join();
  CHECK(ids[0] == second_id);
  CHECK(ids[1] == second_id);
  CHECK(app.calls->load() == 1);
  CHECK(e->counters().serial_fallbacks == 1);
  CHECK(e->counters().dispatches == 1);
}

TEST_CASE("worker active time counts only threads other than the caller") {
  auto e = make(2, AppParallelFor{});
  e->run(2, [](int p) {
    std::this_thread::sleep_for(std::chrono::milliseconds(p == 1 ? 5 : 0));
  });
  CHECK(e->counters().worker_active_ns >= 5'000'000);
  CHECK(e->counters().worker_active_ns < 1'000'000'000);
}
#endif

TEST_CASE("with counters off, every counter reads zero") {
  auto e = make(2, AppParallelFor{}, /*counters=*/false);
  e->run(2, [](int) {});
  CHECK(e->counters().dispatches == 0);
}

}  // namespace
}  // namespace tessera::platform
