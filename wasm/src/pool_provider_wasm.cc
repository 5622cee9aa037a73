// platform::acquire_executor on wasm.
//  - One participant, or a target without threads (wasi, emscripten-st):
//    the serial executor (resolution already made effective_threads 1 and
//    said why).
//  - Emscripten -pthread, wasi-threads: a lease on the process's wasm threads
//    pool of that width. The lease owns this Context's counters, so contexts
//    sharing the pool still count separately (design.md §Counters). A pool
//    that could start no worker at all (a WASI host whose thread-spawn
//    fails) is an error here: the Context then runs serially and says why.
#include <memory>
#include <string>
#include <vector>

#include "tessera/platform/build_config.h"
#include "tessera/platform/pool_provider.hpp"
#include "tessera/platform/serial_executor.hpp"
#include "wasm/src/wasm_threads_pool.hpp"

namespace tessera::platform {
namespace {

std::shared_ptr<Executor> serial_handle() {
  // A non-owning handle to the process-wide stateless serial executor.
  return std::shared_ptr<Executor>(std::shared_ptr<Executor>(), &serial_executor());
}

#if TESSERA_THREADS_USABLE
class WasmPoolLease final : public Executor {
 public:
  WasmPoolLease(std::shared_ptr<wasm::WasmThreadsPool> pool, bool counters)
      : pool_(std::move(pool)),
        counters_(counters ? std::make_unique<wasm::WasmCounters>() : nullptr) {}

  int width() const noexcept override { return pool_->width(); }
  void run(int participants, FunctionRef<void(int)> body) override {
    pool_->run(participants, body, counters_.get());
  }
  ExecutionCounters counters() const override {
    return counters_ != nullptr ? counters_->snapshot() : ExecutionCounters{};
  }
  // Wasm cannot pin; what can fail is starting a worker.
  std::vector<std::string> pin_failures() const override {
    return pool_->start_failures();
  }

 private:
  std::shared_ptr<wasm::WasmThreadsPool> pool_;
  std::unique_ptr<wasm::WasmCounters> counters_;
};
#endif

}  // namespace

Status acquire_executor(const ResolvedExecutionPolicy& policy,
                        std::shared_ptr<Executor>* out) {
  if (policy.effective_threads <= 1) {
    *out = serial_handle();
    return {};
  }
#if TESSERA_THREADS_USABLE
  std::shared_ptr<wasm::WasmThreadsPool> pool = wasm::shared_wasm_pool(policy.effective_threads);
  if (pool->started_workers() == 0) {
    const std::vector<std::string> failures = pool->start_failures();
    return Status::unsupported("no worker thread could be started" +
                               (failures.empty() ? std::string() : " (" + failures.front() + ")"));
  }
  *out = std::make_shared<WasmPoolLease>(std::move(pool), policy.counters);
  return {};
#else
  return Status::unsupported(std::to_string(policy.effective_threads) +
                             " participants requested, but " TESSERA_TARGET_NAME
                             " is built without threads");
#endif
}

int release_idle_pools() {
#if TESSERA_THREADS_USABLE
  return wasm::release_idle_wasm_pools();
#else
  return 0;
#endif
}

}  // namespace tessera::platform
