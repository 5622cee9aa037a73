#include "core/src/selftest/load_selftest.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <atomic>
#include <vector>

#include "tessera/blas1.hpp"
#include "tessera/context.hpp"
#include "tessera/elementwise.hpp"
#include "tessera/gemm.hpp"

namespace tessera::core {
namespace {

// Inputs in [-1, 1) from a fixed LCG: the same on every target.
template <class T>
std::vector<T> inputs(std::size_t n, std::uint32_t seed) {
  std::vector<T> v(n);
  std::uint32_t s = seed * 2654435761u + 12345u;
  for (T& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<T>(static_cast<double>(s >> 8) / 8388608.0 - 1.0);
  }
  return v;
}

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", x);
  return text;
}

// One GEMM C = A B (row-major, A transposed when trans_a) on `context`,
// each element within 2 (k + 4) eps sum_p |a_ip b_pj| of the
// double-precision sum. Returns the first element outside, or "".
template <class T>
std::string check_gemm(const Context& context, const char* name, std::int64_t m,
                       std::int64_t n, std::int64_t k, bool trans_a) {
  const auto a = inputs<T>(static_cast<std::size_t>(m * k), 3);
  const auto b = inputs<T>(static_cast<std::size_t>(k * n), 5);
  std::vector<T> c(static_cast<std::size_t>(m * n), T(7));
  const std::int64_t lda = trans_a ? m : k;
  const Status status =
      try_gemm(context, Layout::kRowMajor, trans_a ? Transpose::kYes : Transpose::kNo,
               Transpose::kNo, m, n, k, T(1), a.data(), lda, b.data(), n, T(0), c.data(), n);
  const std::string shape = std::string(name) + " " + std::to_string(m) + " x " +
                            std::to_string(n) + " x " + std::to_string(k) +
                            (trans_a ? " (A transposed)" : "");
  if (!status.ok()) return shape + ": " + status.message();
  const double eps = std::numeric_limits<T>::epsilon();
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        const double x = trans_a ? a[p * m + i] : a[i * k + p];
        sum += x * b[p * n + j];
        magnitude += std::fabs(x * b[p * n + j]);
      }
      const double got = c[i * n + j];
      const double bound = 2.0 * static_cast<double>(k + 4) * eps * magnitude;
      if (!(std::fabs(got - sum) <= bound)) {
        return shape + ": C[" + std::to_string(i) + "][" + std::to_string(j) + "] = " +
               number(got) + " against " + number(sum) + " (bound " + number(bound) + ")";
      }
    }
  }
  return "";
}

template <class T>
std::string check_dot(const Context& context, const char* name, std::int64_t n) {
  const auto x = inputs<T>(static_cast<std::size_t>(n), 7);
  const auto y = inputs<T>(static_cast<std::size_t>(n), 11);
  T result = T(0);
  const std::string what = std::string(name) + " n = " + std::to_string(n);
  const Status status = try_dot(context, n, x.data(), 1, y.data(), 1, &result);
  if (!status.ok()) return what + ": " + status.message();
  double sum = 0, magnitude = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    sum += static_cast<double>(x[i]) * y[i];
    magnitude += std::fabs(static_cast<double>(x[i]) * y[i]);
  }
  const double bound =
      2.0 * static_cast<double>(n + 4) * std::numeric_limits<T>::epsilon() * magnitude;
  if (!(std::fabs(result - sum) <= bound)) {
    return what + ": " + number(result) + " against " + number(sum) + " (bound " +
           number(bound) + ")";
  }
  return "";
}

// Distance in representable floats (both finite).
std::int64_t ulps(float a, float b) {
  auto ordered = [](float f) {
    std::int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? std::int64_t{INT32_MIN} - i : std::int64_t{i};
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

// exp over f32 on [-20, 20) (the polynomial's range reduction and both
// tails' scaling), within its documented bound (+1 for the rounding of the
// double-precision reference to float).
std::string check_exp(const Context& context, std::size_t n) {
  std::vector<float> x = inputs<float>(n, 13);
  for (float& v : x) v *= 20.0f;
  std::vector<float> out(n);
  const std::string what = "exp (f32) n = " + std::to_string(n);
  const Status status = try_unary(context, UnaryOp::kExp, x, out);
  if (!status.ok()) return what + ": " + status.message();
  const double bound = unary_op_ulp_bound(UnaryOp::kExp, false) + 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    const float expected = static_cast<float>(std::exp(static_cast<double>(x[i])));
    if (!std::isfinite(out[i]) || static_cast<double>(ulps(out[i], expected)) > bound) {
      return what + ": exp(" + number(x[i]) + ") = " + number(out[i]) + " against " +
             number(expected) + " (bound " + number(bound) + " ulp)";
    }
  }
  return "";
}

LoadSelftestOutcome run_checks(Isa isa, const platform::Topology& topology) {
  const auto started = std::chrono::steady_clock::now();
  LoadSelftestOutcome outcome;
  ContextOptions options;
  options.isa = isa;
  options.read_environment = false;
  options.knobs.selftest = 0;  // the probe is not itself checked
  options.policy.num_threads = 1;
  options.topology = topology;
  Context probe;
  if (const Status status = Context::create(options, &probe); !status.ok()) {
    outcome.failure = "could not make a context on this level: " + status.message();
    return outcome;
  }
  // Shapes that cross the register tiles of every level (2 x 16 to
  // 14 x 32) with remainders in m, n and k, and a vector tail in each dot.
  const std::string failures[] = {
      check_gemm<float>(probe, "sgemm", 7, 37, 29, false),
      check_gemm<float>(probe, "sgemm", 19, 45, 65, true),
      check_gemm<double>(probe, "dgemm", 9, 21, 23, false),
      check_dot<float>(probe, "sdot", 67),
      check_dot<double>(probe, "ddot", 37),
      check_exp(probe, 83),
  };
  for (const std::string& failure : failures) {
    if (!failure.empty()) {
      outcome.failure = failure;
      break;
    }
  }
  outcome.passed = outcome.failure.empty();
  outcome.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
          .count();
  return outcome;
}

// Guards the remembered outcomes for the few copies in and out (the checks
// run outside it). Not std::mutex: single-threaded wasm builds' C++ library
// has none, and these sections are a copy of a short string long.
class OutcomeLock {
 public:
  explicit OutcomeLock(std::atomic_flag& flag) : flag_(flag) {
    while (flag_.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~OutcomeLock() { flag_.clear(std::memory_order_release); }
  OutcomeLock(const OutcomeLock&) = delete;
  OutcomeLock& operator=(const OutcomeLock&) = delete;

 private:
  std::atomic_flag& flag_;
};

struct Remembered {
  std::atomic_flag busy = ATOMIC_FLAG_INIT;
  std::optional<LoadSelftestOutcome> by_level[kIsaCount];
  std::optional<Isa> corrupted;  // test builds only
};

Remembered& remembered() {
  static Remembered instance;
  return instance;
}

#if TESSERA_TEST_HOOKS
// The corrupted copy of one level's table: its f32 dot block kernel adds 1.
DotBlockFn<float> real_sdot = nullptr;
float corrupted_sdot(const float* x, std::ptrdiff_t incx, const float* y, std::ptrdiff_t incy,
                     std::size_t n) {
  return real_sdot(x, incx, y, incy, n) + 1.0f;
}
KernelTable corrupted_table;
Blas1Kernels corrupted_blas1;
#endif

}  // namespace

const KernelTable* table_in_use(const KernelTable* table) {
#if TESSERA_TEST_HOOKS
  Remembered& r = remembered();
  const OutcomeLock lock(r.busy);
  if (r.corrupted && table->family == KernelFamily::kOptimized && table->isa == *r.corrupted) {
    corrupted_blas1 = *table->blas1;
    real_sdot = table->blas1->f32.dot;
    corrupted_blas1.f32.dot = &corrupted_sdot;
    corrupted_table = *table;
    corrupted_table.blas1 = &corrupted_blas1;
    return &corrupted_table;
  }
#endif
  return table;
}

#if TESSERA_TEST_HOOKS
void corrupt_level_for_tests(std::optional<Isa> isa) {
  Remembered& r = remembered();
  const OutcomeLock lock(r.busy);
  r.corrupted = isa;
}
#endif

LoadSelftestOutcome load_selftest(Isa isa, const platform::Topology& topology) {
  Remembered& r = remembered();
  const int level = static_cast<int>(isa);
  bool corrupted = false;
  {
    const OutcomeLock lock(r.busy);
    corrupted = r.corrupted == isa;
    if (!corrupted && r.by_level[level]) return *r.by_level[level];
  }
  // Run outside the lock: the probe context's creation takes it again.
  // Two threads making their first contexts at once may both run the
  // checks; both get the same outcome, and the first is kept.
  LoadSelftestOutcome outcome = run_checks(isa, topology);
  if (!corrupted) {
    const OutcomeLock lock(r.busy);
    if (!r.by_level[level]) r.by_level[level] = outcome;
    return *r.by_level[level];
  }
  return outcome;
}

}  // namespace tessera::core
