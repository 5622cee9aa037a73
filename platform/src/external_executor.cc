#include "tessera/platform/external_executor.hpp"

#include <chrono>
#include <exception>
#include <string>
#include <utility>

namespace tessera::platform {

namespace {

// The executor whose run() this thread is inside as the caller, so a task can
// tell whether it runs on the caller (not a worker) without <thread>, which
// wasm builds without threads do not have.
constinit thread_local const ExternalExecutor* t_calling = nullptr;

std::int64_t steady_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}


}  // namespace

ExternalExecutor::ExternalExecutor(ExternalExecutorOptions options)
    : width_(options.width),
      parallel_for_(std::move(options.parallel_for)),
      allow_nested_(options.allow_nested_parallelism),
      counters_on_(options.counters) {}

Status make_external_executor(ExternalExecutorOptions options,
                              std::shared_ptr<ExternalExecutor>* out) {
  if (out == nullptr) {
    return Status::invalid_argument("make_external_executor: out must not be null");
  }
  if (options.width < 1) {
    return Status::invalid_argument(
        "ExternalExecutorOptions::width must be >= 1 (got " +
        std::to_string(options.width) + ")");
  }
  if (!options.parallel_for) {
    return Status::invalid_argument(
        "ExternalExecutorOptions::parallel_for must be set");
  }
  *out = std::make_shared<ExternalExecutor>(std::move(options));
  return Status();
}

void ExternalExecutor::run(int participants, FunctionRef<void(int)> body) {
  if (participants <= 1) {
    if (participants == 1) run_serially_in_region(1, body);
    return;
  }
  const bool nested = parallel_body_depth() > 0;
  // The busy flag: acquire pairs with the release store ending the previous
  // region (nothing but the flag itself is handed over, but it keeps the
  // application's parallel-for from being entered twice at once by us).
  if (participants > width_ || (nested && !allow_nested_) ||
      busy_.exchange(true, std::memory_order_acquire)) {
    if (counters_on_) serial_fallbacks_.fetch_add(1, std::memory_order_relaxed);
    run_serially_in_region(participants, body);
    return;
  }
  struct Unlock {
    std::atomic<bool>& busy;
    ~Unlock() { busy.store(false, std::memory_order_release); }
  } unlock{busy_};

  // The first exception, written only by the task that wins `failed`. The
  // application's parallel-for returns after every task returned, which is
  // the application's own synchronisation (a join or barrier); tessera adds
  // the acquire below so the winner's write is visible even if that
  // synchronisation were weaker than a full happens-before.
#if defined(__cpp_exceptions)
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
#endif
  std::atomic<std::uint64_t> active_ns{0};
  const ExternalExecutor* const outer = t_calling;
  t_calling = this;
  struct Restore {
    const ExternalExecutor* previous;
    ~Restore() { t_calling = previous; }
  } restore{outer};
  auto task = [&](int i) {
    const ParallelBodyScope region;
    const bool timed = counters_on_ && t_calling != this;
    const std::int64_t t0 = timed ? steady_ns() : 0;
#if defined(__cpp_exceptions)
    try {
      body(i);
    } catch (...) {
      if (!failed.exchange(true, std::memory_order_acq_rel)) {
        first_error = std::current_exception();
      }
    }
#else
    body(i);
#endif
    if (timed) {
      active_ns.fetch_add(static_cast<std::uint64_t>(steady_ns() - t0),
                          std::memory_order_relaxed);
    }
  };
  parallel_for_(participants, FunctionRef<void(int)>(task));
  if (counters_on_) {
    dispatches_.fetch_add(1, std::memory_order_relaxed);
    worker_active_ns_.fetch_add(active_ns.load(std::memory_order_relaxed),
                                std::memory_order_relaxed);
  }
#if defined(__cpp_exceptions)
  if (failed.load(std::memory_order_acquire)) std::rethrow_exception(first_error);
#endif
}

ExecutionCounters ExternalExecutor::counters() const {
  ExecutionCounters out;
  if (!counters_on_) return out;
  constexpr auto r = std::memory_order_relaxed;
  out.dispatches = dispatches_.load(r);
  out.serial_fallbacks = serial_fallbacks_.load(r);
  out.caller_waits = out.dispatches;
  out.worker_active_ns = worker_active_ns_.load(r);
  return out;
}

}  // namespace tessera::platform
