// libFuzzer harness: the C API's GEMM (tsr_sgemm / tsr_dgemm) on random
// sizes (negative ones included), layouts and transposes (invalid enum
// values included), leading dimensions around their minimum, alpha/beta
// from {0, 1, -1, 0.5, NaN}, null pointers, C aliasing A or B, and thread
// counts. Properties, checked on every input:
//   - nothing is written outside C's footprint (guards), and nothing at all
//     when the call fails, which must then say why;
//   - a call that succeeds had valid enums, sizes and leading dimensions;
//   - a call with plainly valid arguments succeeds, and its result matches
//     a double-precision reference within the k-term rounding bound, with
//     the gaps between C's lines untouched.
// Operands are allocated to their exact footprint, so a read past one is an
// AddressSanitizer report.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/tessera.h"
#include "tests/fuzz/fuzz_support.hpp"

namespace tessera::fuzz {
namespace {

// Stored shape of an operand that is r x c after its transpose.
struct Stored {
  long long outer = 0, inner = 0;
};
Stored stored(bool row_major, bool trans, long long r, long long c) {
  const long long rows = trans ? c : r, cols = trans ? r : c;
  return row_major ? Stored{rows, cols} : Stored{cols, rows};
}

long long pick_ld(FuzzedDataProvider& in, long long inner) {
  const long long natural = inner > 0 ? inner : 1;
  return natural + in.ConsumeIntegralInRange<long long>(-3, 5);
}

enum class Pointer { kOwn, kNull, kAliasC };
Pointer pick_pointer(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 19)) {
    case 0: return Pointer::kNull;
    case 1: return Pointer::kAliasC;
    default: return Pointer::kOwn;
  }
}

template <class T>
tsr_status call(tsr_layout layout, tsr_transpose ta, tsr_transpose tb, long long m, long long n,
                long long k, T alpha, const T* a, long long lda, const T* b, long long ldb, T beta,
                T* c, long long ldc, int threads) {
  if constexpr (sizeof(T) == 4) {
    return tsr_sgemm(nullptr, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
                     threads);
  } else {
    return tsr_dgemm(nullptr, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
                     threads);
  }
}

template <class T>
void run(FuzzedDataProvider& in) {
  const int layout = pick_enum(in), ta = pick_enum(in), tb = pick_enum(in);
  const long long m = in.ConsumeIntegralInRange<long long>(-2, 40);
  const long long n = in.ConsumeIntegralInRange<long long>(-2, 40);
  const long long k = in.ConsumeIntegralInRange<long long>(-2, 40);
  const bool row = layout != 1;  // sizes for an invalid layout: row-major's
  const Stored sa = stored(row, ta == 1, m, k), sb = stored(row, tb == 1, k, n),
               sc = stored(row, false, m, n);
  const long long lda = pick_ld(in, sa.inner), ldb = pick_ld(in, sb.inner),
                  ldc = pick_ld(in, sc.inner);
  const T alpha = pick_scalar<T>(in), beta = pick_scalar<T>(in);
  const Pointer pa = pick_pointer(in), pb = pick_pointer(in);
  const bool c_null = in.ConsumeIntegralInRange<int>(0, 19) == 0;
  const int threads = in.ConsumeIntegralInRange<int>(-1, 3);

  const bool enums_ok = (layout == 0 || layout == 1) && (ta == 0 || ta == 1) &&
                        (tb == 0 || tb == 1);
  const bool sizes_ok = m >= 0 && n >= 0 && k >= 0;
  const bool lds_ok = lda >= std::max(1LL, sa.inner) && ldb >= std::max(1LL, sb.inner) &&
                      ldc >= std::max(1LL, sc.inner);
  const bool fit = enums_ok && sizes_ok && lds_ok;

  // Exact footprints (for arguments that are not valid, whatever the sizes
  // give, at least one element).
  auto size_of = [&](Stored s, long long ld) {
    return fit ? footprint(s.outer, s.inner, ld) : std::size_t{1};
  };
  std::vector<T> a(std::max<std::size_t>(1, size_of(sa, lda)));
  std::vector<T> b(std::max<std::size_t>(1, size_of(sb, ldb)));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = T(int(i * 7 % 9) - 4);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = T(int(i * 5 % 7) - 3);
  Guarded<T> c(std::max<std::size_t>(1, size_of(sc, ldc)));
  const std::vector<T> c0(c.data(), c.data() + c.size());

  const T* a_ptr = pa == Pointer::kNull ? nullptr : pa == Pointer::kAliasC ? c.data() : a.data();
  const T* b_ptr = pb == Pointer::kNull ? nullptr : pb == Pointer::kAliasC ? c.data() : b.data();
  T* c_ptr = c_null ? nullptr : c.data();

  const tsr_status s = call<T>(static_cast<tsr_layout>(layout), static_cast<tsr_transpose>(ta),
                               static_cast<tsr_transpose>(tb), m, n, k, alpha, a_ptr, lda, b_ptr,
                               ldb, beta, c_ptr, ldc, threads);
  require(c.intact(), "a write outside C's footprint");
  if (s != TSR_OK) {
    require(c.unchanged(), "C written by a failed call", tsr_last_error_message());
    require(std::strlen(tsr_last_error_message()) > 0, "a failure without a message");
    require(fit || s == TSR_INVALID_ARGUMENT, "bad arguments not reported as invalid",
            tsr_last_error_message());
    const bool plain = fit && pa == Pointer::kOwn && pb == Pointer::kOwn && !c_null;
    require(!plain, "valid arguments rejected", tsr_last_error_message());
    return;
  }
  require(fit, "invalid enums, sizes or leading dimensions accepted");
  if (pa != Pointer::kOwn || pb != Pointer::kOwn || c_null) return;  // accepted as no-op

  // op(A)(i, p), op(B)(p, j), C(i, j) as stored.
  auto at = [&](const std::vector<T>& x, bool trans, long long ld, long long i, long long j) {
    const long long r = trans ? j : i, col = trans ? i : j;
    return x[row ? r * ld + col : col * ld + r];
  };
  auto c_index = [&](long long i, long long j) { return row ? i * ldc + j : j * ldc + i; };
  std::vector<bool> inside(c.size(), false);
  const double eps = std::numeric_limits<T>::epsilon();
  for (long long i = 0; i < m; ++i) {
    for (long long j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (long long p = 0; p < k; ++p) {
        const double x = at(a, ta == 1, lda, i, p), y = at(b, tb == 1, ldb, p, j);
        sum += x * y;
        magnitude += std::fabs(x * y);
      }
      const std::size_t ci = static_cast<std::size_t>(c_index(i, j));
      inside[ci] = true;
      const double old = c0[ci];
      const double scaled = beta == T(0) ? 0.0 : double(beta) * old;
      const double want = (k == 0 || alpha == T(0)) ? scaled : double(alpha) * sum + scaled;
      const double got = c.data()[ci];
      if (std::isnan(want) || std::isnan(got)) {
        require(std::isnan(want) && std::isnan(got), "NaN mismatch");
        continue;
      }
      // alpha is not used when k == 0 or alpha == 0 (it may be NaN then).
      const double product = (k == 0 || alpha == T(0)) ? 0.0 : std::fabs(double(alpha)) * magnitude;
      const double bound = 4 * (k + 2) * eps * (product + std::fabs(scaled)) + 1e-30;
      if (!(std::fabs(got - want) <= bound)) {
        char detail[256];
        std::snprintf(detail, sizeof detail,
                      "%s layout %d ta %d tb %d m %lld n %lld k %lld alpha %g beta %g "
                      "C(%lld,%lld) = %.9g, want %.9g (bound %.3g) threads %d",
                      sizeof(T) == 4 ? "f32" : "f64", layout, ta, tb, m, n, k, double(alpha),
                      double(beta), i, j, got, want, bound, threads);
        fail("result outside the rounding bound", detail);
      }
    }
  }
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!inside[i]) {
      require(std::memcmp(&c.data()[i], &c0[i], sizeof(T)) == 0, "a gap in C written");
    }
  }
}

}  // namespace
}  // namespace tessera::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  if (in.ConsumeBool()) {
    tessera::fuzz::run<double>(in);
  } else {
    tessera::fuzz::run<float>(in);
  }
  return 0;
}
