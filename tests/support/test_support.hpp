// Shared test helpers: deterministic data, a context per ISA level, and
// executors that exercise multi-participant plans on every target.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tessera/platform/executor.hpp"
#include "tessera/tessera.hpp"

namespace tessera::test {

inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// The worker counts every reproducibility test compares bit for bit (the
// contract of design.md §Reproducibility: 1, 2, 3, 4, 7 and 8 participants give the same bits).
inline constexpr int kWorkerCounts[] = {1, 2, 3, 4, 7, 8};

// The automatic request (no explicit width), by name.
inline const Parallelism kAuto{};

// Whether `needle` occurs in `haystack` (plan reasons, fallbacks, errors).
inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A small, fully specified generator (splitmix64): identical sequences on
// every compiler, library and target, unlike <random>'s distributions.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [lo, hi), from the top 24 (float) or 53 (double) bits.
  float uniform_f32(float lo, float hi);
  double uniform_f64(double lo, double hi);
  // Uniform integer in [lo, hi].
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi);

 private:
  std::uint64_t state_;
};

std::vector<float> random_f32(std::size_t n, std::uint64_t seed,
                              float lo = -1.0f, float hi = 1.0f);

// A context forced to `isa` (environment ignored, so a TESSERA_ISA set by
// the caller does not mask levels), or the naive family.
Context context_for(Isa isa);
Context naive_context();
// A context on tessera's own pool, 8 participants wide whatever this
// machine has: the policy resolved against an injected 8-core topology,
// unpinned, every product split (parallel_threshold 0). Where threads are
// unusable it resolves to one participant (and says why).
Context own_pool_context_8();

// Every ISA level this build supports on this CPU.
std::vector<Isa> host_isas();

// The naive family and a context for each of host_isas(), and the label a
// test message gives one of them ("naive", "avx2").
std::vector<Context> contexts_under_test();
std::string level_label(const Context& context);

// The 128-bit levels without FMA that share their bits across targets
// (sse2 natively, simd128 in wasm) among host_isas(); a MESSAGE when there
// is none, so a pin test says it had nothing to check.
std::vector<Isa> portable_128_isas();

// Runs all participants on the calling thread in reverse order, with a
// width of its choosing: multi-block plans on targets without threads, and
// any hidden dependence on execution order shows up as a mismatch.
class ReverseSerialExecutor final : public platform::Executor {
 public:
  explicit ReverseSerialExecutor(int width) : width_(width) {}
  int width() const noexcept override { return width_; }
  void run(int participants, FunctionRef<void(int)> body) override;
  int runs() const { return runs_; }

 private:
  int width_;
  int runs_ = 0;
};

// Same bits (NaN matches NaN of any payload).
bool same_bits_or_both_nan(float a, float b);

// Sets a variable for one scope and restores the previous state.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      had_ = true;
      old_ = old;
    }
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

}  // namespace tessera::test
