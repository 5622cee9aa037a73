// CountingExecutor: forwards to another executor and counts the runs that
// had more than one participant, so a reproducibility test can check that
// its problems really were split. split_context() builds a context on one
// with the bandwidth-bound parallel floor at 1 byte (test-sized dot, gemv,
// reductions and softmax then split).
#pragma once

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <utility>

#include "tessera/platform/executor.hpp"
#include "tessera/tessera.hpp"

namespace tessera::test {

class CountingExecutor final : public platform::Executor {
 public:
  explicit CountingExecutor(std::shared_ptr<platform::Executor> inner) : inner_(std::move(inner)) {}
  int width() const noexcept override { return inner_->width(); }
  void run(int participants, FunctionRef<void(int)> body) override {
    if (participants > 1) multi_runs_.fetch_add(1);
    inner_->run(participants, body);
  }
  int multi_runs() const { return multi_runs_.load(); }

 private:
  std::shared_ptr<platform::Executor> inner_;
  std::atomic<int> multi_runs_{0};
};

inline Context split_context(Isa isa, std::shared_ptr<CountingExecutor> counter) {
  ContextOptions options;
  options.isa = isa;
  options.read_environment = false;
  options.executor = std::move(counter);
  options.knobs.gemv_parallel_bytes = 1;
  Context context;
  const Status status = Context::create(options, &context);
  REQUIRE_MESSAGE(status.ok(), status.to_string());
  return context;
}

}  // namespace tessera::test
