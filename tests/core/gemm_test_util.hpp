// Shared helpers of the GEMM tests: problem descriptions with padded
// storage, deterministic operands, an independent double-precision
// reference with its error bound, and executors/contexts for worker counts.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "support/test_support.hpp"
#include "tessera/platform/build_config.h"
#include "tessera/platform/cpu_features.hpp"
#include "tessera/tessera.hpp"
// (std::thread: not on Emscripten, whose pthreads come from a small
// pre-started pool, nor on wasi-threads, whose libc++ has no std::thread.)
#if TESSERA_THREADS_USABLE && !defined(__EMSCRIPTEN__) && !defined(__wasi__)
#include "support/threaded_test_executor.hpp"
#define TESSERA_TEST_HAS_THREADS 1
#else
#define TESSERA_TEST_HAS_THREADS 0
#endif

namespace tessera::test::gemm {

// Slow targets (qemu for aarch64, node for wasm, sanitizers) run smaller
// shapes; the properties checked are the same.
inline bool slow_target() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;
#else
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return true;
#endif
#endif
  const platform::CpuArch arch = platform::cpu_features().arch;
  return arch != platform::CpuArch::kX86_64;
#endif
}

struct Shape {
  Layout layout = Layout::kRowMajor;
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t lda_pad = 0, ldb_pad = 0, ldc_pad = 0;  // extra leading dim
  double alpha = 1, beta = 0;

  std::int64_t a_rows() const { return ta == Transpose::kNo ? m : k; }
  std::int64_t a_cols() const { return ta == Transpose::kNo ? k : m; }
  std::int64_t b_rows() const { return tb == Transpose::kNo ? k : n; }
  std::int64_t b_cols() const { return tb == Transpose::kNo ? n : k; }
  // Leading dimension of a stored rows x cols matrix (at least 1).
  std::int64_t ld(std::int64_t rows, std::int64_t cols, std::int64_t pad) const {
    const std::int64_t line = layout == Layout::kRowMajor ? cols : rows;
    return std::max<std::int64_t>(1, line) + pad;
  }
  std::int64_t lda() const { return ld(a_rows(), a_cols(), lda_pad); }
  std::int64_t ldb() const { return ld(b_rows(), b_cols(), ldb_pad); }
  std::int64_t ldc() const { return ld(m, n, ldc_pad); }
  // Elements of storage for a stored rows x cols matrix (full last line).
  std::int64_t storage(std::int64_t rows, std::int64_t cols, std::int64_t ld_) const {
    const std::int64_t lines = layout == Layout::kRowMajor ? rows : cols;
    return std::max<std::int64_t>(1, lines) * ld_;
  }
  std::string describe() const {
    return std::string(layout == Layout::kRowMajor ? "row" : "col") + " " +
           transpose_name(ta) + transpose_name(tb) + " m=" + std::to_string(m) +
           " n=" + std::to_string(n) + " k=" + std::to_string(k) + " pads=" +
           std::to_string(lda_pad) + "/" + std::to_string(ldb_pad) + "/" +
           std::to_string(ldc_pad) + " alpha=" + std::to_string(alpha) +
           " beta=" + std::to_string(beta);
  }
};

// A check's first mismatch: "(i,j) got <got> <what> <want>", 17 digits. A
// stream: GCC 12 warns -Wstringop-overflow on "(" + std::to_string(i).
inline std::string mismatch_text(std::int64_t i, std::int64_t j, double got, const char* what,
                                 double want) {
  std::ostringstream text;
  text.precision(17);
  text << '(' << i << ',' << j << ") got " << got << ' ' << what << ' ' << want;
  return text.str();
}

// Stored element (r, c) of a matrix with leading dimension ld.
inline std::int64_t at(Layout layout, std::int64_t r, std::int64_t c, std::int64_t ld) {
  return layout == Layout::kRowMajor ? r * ld + c : r + c * ld;
}

// f(shape) for each layout, transpose of A, transpose of B and (m, n, k)
// of `dims`, in that order: the sweep of the correctness tests. The other
// fields of the shape (scalars, pads) are f's to set.
template <std::size_t N, class F>
void for_each_layout_shape(const std::int64_t (&dims)[N][3], F&& f) {
  for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
    for (Transpose ta : {Transpose::kNo, Transpose::kYes}) {
      for (Transpose tb : {Transpose::kNo, Transpose::kYes}) {
        for (const auto& d : dims) {
          Shape s;
          s.layout = layout, s.ta = ta, s.tb = tb, s.m = d[0], s.n = d[1], s.k = d[2];
          f(s);
        }
      }
    }
  }
}

template <class T>
struct Operands {
  std::vector<T> a, b, c;  // C before the call
};

// Deterministic operands in [-1, 1); storage padding gets a sentinel.
template <class T>
Operands<T> make_operands(const Shape& s, std::uint64_t seed) {
  Rng rng(seed);
  Operands<T> o;
  o.a.assign(static_cast<std::size_t>(s.storage(s.a_rows(), s.a_cols(), s.lda())), T(-777));
  o.b.assign(static_cast<std::size_t>(s.storage(s.b_rows(), s.b_cols(), s.ldb())), T(-777));
  o.c.assign(static_cast<std::size_t>(s.storage(s.m, s.n, s.ldc())), T(-777));
  auto fill = [&](std::vector<T>& v, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < cols; ++c) {
        v[static_cast<std::size_t>(at(s.layout, r, c, ld))] =
            static_cast<T>(rng.uniform_f64(-1.0, 1.0));
      }
    }
  };
  fill(o.a, s.a_rows(), s.a_cols(), s.lda());
  fill(o.b, s.b_rows(), s.b_cols(), s.ldb());
  fill(o.c, s.m, s.n, s.ldc());
  return o;
}

template <class T>
Status run(const Context& context, const Shape& s, const Operands<T>& o,
           std::vector<T>* c, Parallelism parallelism = {}) {
  *c = o.c;
  return try_gemm(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, static_cast<T>(s.alpha),
                  o.a.data(), s.lda(), o.b.data(), s.ldb(), static_cast<T>(s.beta),
                  c->data(), s.ldc(), parallelism);
}

// op(A)(i, p) and op(B)(p, j) of the stored operands.
template <class T>
T op_a(const Shape& s, const std::vector<T>& a, std::int64_t i, std::int64_t p) {
  return s.ta == Transpose::kNo ? a[at(s.layout, i, p, s.lda())]
                                : a[at(s.layout, p, i, s.lda())];
}
template <class T>
T op_b(const Shape& s, const std::vector<T>& b, std::int64_t p, std::int64_t j) {
  return s.tb == Transpose::kNo ? b[at(s.layout, p, j, s.ldb())]
                                : b[at(s.layout, j, p, s.ldb())];
}

// Checks `actual` against the exact product, element by element:
//   |actual - exact| <= 2 (k + 4) eps (|alpha| sum_p |a_ip b_pj| + |beta c_ij|)
// Derivation: a recursive sum of k products, fused or not, is within
// gamma_k = k u / (1 - k u) (u = eps / 2) of the exact sum times
// sum |a||b|; slicing the depth adds at most one rounding per slice
// (<= k), alpha, beta and the final add three more. 2 (k + 4) eps covers
// k + 3 roundings of size u with a factor 2 to spare, and it also covers
// the naive family's own double-accumulated error. The "exact" value is
// computed here in double (long double where it is wider), independently of
// tessera. Storage outside C's m x n must keep its sentinel.
template <class T>
void check_close(const Shape& s, const Operands<T>& o, const std::vector<T>& actual,
                 const std::string& where) {
  // double is exact enough for f32 references; f64 needs the wider type.
  using Wide = std::conditional_t<sizeof(T) == 4, double, long double>;
  const Wide eps = std::numeric_limits<T>::epsilon();
  std::int64_t bad = 0;
  std::string first;
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.n; ++j) {
      Wide exact = 0, magnitude = 0;
      for (std::int64_t p = 0; p < s.k; ++p) {
        const Wide x = static_cast<Wide>(op_a(s, o.a, i, p)) * static_cast<Wide>(op_b(s, o.b, p, j));
        exact += x;
        magnitude += std::fabs(x);
      }
      const std::size_t idx = static_cast<std::size_t>(at(s.layout, i, j, s.ldc()));
      const Wide c0 = s.beta == 0 ? 0 : static_cast<Wide>(o.c[idx]);
      exact = static_cast<Wide>(s.alpha) * exact + static_cast<Wide>(s.beta) * c0;
      const Wide bound = 2 * (s.k + 4) * eps *
                             (std::fabs(static_cast<Wide>(s.alpha)) * magnitude +
                              std::fabs(static_cast<Wide>(s.beta) * c0)) +
                         std::numeric_limits<T>::min();
      const Wide err = std::fabs(static_cast<Wide>(actual[idx]) - exact);
      if (!(err <= bound)) {
        if (bad++ == 0) {
          first = mismatch_text(i, j, static_cast<double>(actual[idx]), "exact",
                                static_cast<double>(exact)) +
                  " bound " + std::to_string(static_cast<double>(bound));
        }
      }
    }
  }
  // Padding untouched.
  std::vector<bool> inside(actual.size(), false);
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.n; ++j) inside[static_cast<std::size_t>(at(s.layout, i, j, s.ldc()))] = true;
  }
  std::int64_t touched = 0;
  for (std::size_t x = 0; x < actual.size(); ++x) {
    if (!inside[x] && actual[x] != T(-777)) ++touched;
  }
  CHECK_MESSAGE(bad == 0, where, ": ", s.describe(), ": ", bad, " elements off, first ", first);
  CHECK_MESSAGE(touched == 0, where, ": ", s.describe(), ": wrote ", touched, " elements outside C");
}

template <class T>
bool same_bits(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

// A context at `isa` whose calls run on `executor` (width = its width) and
// parallelise every size (serial gate off), for worker-count tests.
inline Context context_with(Isa isa, std::shared_ptr<platform::Executor> executor,
                            std::uint64_t parallel_threshold = 0) {
  ContextOptions options;
  options.isa = isa;
  options.read_environment = false;
  options.executor = std::move(executor);
  options.knobs.parallel_threshold = parallel_threshold;
  Context context;
  const Status status = Context::create(options, &context);
  REQUIRE_MESSAGE(status.ok(), status.to_string());
  return context;
}

// An executor of the given width with real threads where the target has
// them, otherwise participants run in reverse order on the caller.
inline std::shared_ptr<platform::Executor> wide_executor(int width) {
#if TESSERA_TEST_HAS_THREADS
  return std::make_shared<ThreadedTestExecutor>(width);
#else
  return std::make_shared<ReverseSerialExecutor>(width);
#endif
}

// The best level this host supports.
inline Isa best_isa() { return host_isas().back(); }

}  // namespace tessera::test::gemm
