// ExternalExecutor (design.md §Executor): lends an application's own threads
// (OpenMP, TBB, its own pool, a JS host) to tessera instead of tessera starting
// a second pool. The application supplies a parallel-for; tessera calls it
// with the number of participants and a task, and the application runs the
// task once for every index, on whatever threads it likes, returning when
// all have finished. For example, with OpenMP:
//
//   auto status = tessera::platform::make_external_executor(
//       {.width = omp_get_max_threads(),
//        .parallel_for = [](int n, tessera::FunctionRef<void(int)> task) {
//          #pragma omp parallel for num_threads(n) schedule(static, 1)
//          for (int i = 0; i < n; ++i) task(i);
//        }},
//       &executor);
//
// Contract (in addition to executor.hpp's):
//  - run(1, body) calls body(0) on the caller, without the callback.
//  - run(w, body), w >= 2, calls parallel_for(w, task) once; task(i) runs
//    body(i) inside a parallel-body scope, so tessera calls nested in it run
//    serially (unless allow_nested_parallelism). Which thread runs index 0 is
//    the application's choice.
//  - A body that throws: the task catches it (it never escapes into the
//    application's threads, where it could terminate an OpenMP region), and
//    run() re-throws the first one after parallel_for returns.
//  - Busy / nested: as executor.hpp says. A second thread calling run()
//    while a region is in flight runs serially on its own thread; a nested
//    run is serial unless allowed (and serial anyway while this executor is
//    busy). The application's parallel-for is never entered twice at once
//    by tessera.
//  - Counters (when enabled): dispatches, serial_fallbacks, caller_waits
//    (always 1 per dispatch: the callback returns only when all are done)
//    and worker_active_ns (time spent in bodies on threads other than the
//    caller's). Spins, parks and wakeups happen inside the application's
//    scheduler and read 0.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "tessera/platform/executor.hpp"
#include "tessera/platform/function_ref.hpp"
#include "tessera/platform/status.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera::platform {

// Calls task(i) exactly once for every i in [0, n) and returns after all
// have returned.
using ParallelFor = std::function<void(int n, FunctionRef<void(int)> task)>;

struct ExternalExecutorOptions {
  int width = 1;  // most participants the application lends (>= 1)
  ParallelFor parallel_for;
  bool allow_nested_parallelism = false;
  bool counters = false;
};

class ExternalExecutor final : public Executor {
 public:
  int width() const noexcept override { return width_; }
  void run(int participants, FunctionRef<void(int)> body) override;
  ExecutionCounters counters() const override;

  // Use make_external_executor (validates the options).
  explicit ExternalExecutor(ExternalExecutorOptions options);

 private:
  const int width_;
  const ParallelFor parallel_for_;
  const bool allow_nested_;
  const bool counters_on_;
  std::atomic<bool> busy_{false};
  std::atomic<std::uint64_t> dispatches_{0};
  std::atomic<std::uint64_t> serial_fallbacks_{0};
  std::atomic<std::uint64_t> worker_active_ns_{0};
};

// Validates and builds: width >= 1 and a non-empty parallel_for, else an
// invalid_argument Status naming the field (and *out is untouched).
Status make_external_executor(ExternalExecutorOptions options,
                              std::shared_ptr<ExternalExecutor>* out);

}  // namespace tessera::platform
TESSERA_CXX_API_END
