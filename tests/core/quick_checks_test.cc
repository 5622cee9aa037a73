// The drivers' quick checks (integer tests that let a small call skip the
// named checks) never accept what the named checks reject: over a grid of
// good, bad and boundary arguments, quick == true implies the named check
// is ok. (The bad-input suites then show each rejected case's message.)
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/src/blas1/blas1_validate.hpp"
#include "core/src/gemm/gemm_validate.hpp"
#include "core/src/reduce/reduce_validate.hpp"

namespace tessera {
namespace {

const std::int64_t kDims[] = {-1, 0, 1, 3, 4, std::int64_t{1} << 20};
const std::int64_t kLds[] = {-1, 0, 1, 3, 4, 5, std::int64_t{1} << 31};

TEST_CASE("quick_valid_reduce implies check_reduce passes") {
  std::vector<float> buffer(256, 1.0f);
  const float* x_values[] = {buffer.data(), nullptr};
  // out: separate, null, inside x, just after x's first row.
  std::vector<float> separate(8);
  const void* outs[] = {separate.data(), nullptr, buffer.data() + 2, buffer.data() + 4};
  const Parallelism requests[] = {Parallelism{}, Parallelism::serial(), Parallelism::threads(-3)};
  int accepted = 0, checked = 0;
  for (std::int64_t rows : kDims) {
    for (std::int64_t cols : kDims) {
      for (std::int64_t ld : kLds) {
        for (const float* x : x_values) {
          for (const void* out : outs) {
            for (const Parallelism p : requests) {
              for (bool needs_value : {false, true}) {
                ++checked;
                if (!reduce_detail::quick_valid_reduce(rows, cols, x, ld, out, sizeof(float),
                                                       needs_value, p, sizeof(float))) {
                  continue;
                }
                ++accepted;
                const Status named = reduce_detail::check_reduce(
                    "sum", rows, cols, x, ld, out, sizeof(float), needs_value, p, sizeof(float));
                CHECK_MESSAGE(named.ok(), named.message(), " (rows ", rows, ", cols ", cols,
                              ", ldx ", ld, ")");
              }
            }
          }
        }
      }
    }
  }
  // The grid has cases on both sides.
  CHECK(accepted > 0);
  CHECK(accepted < checked);
}

TEST_CASE("quick_valid_softmax implies check_softmax passes") {
  std::vector<double> buffer(256, 1.0);
  std::vector<double> separate(256);
  // y: exactly x, separate, null, overlapping x shifted by one element.
  const double* x = buffer.data();
  const void* ys[] = {buffer.data(), separate.data(), nullptr, buffer.data() + 1};
  int accepted = 0, checked = 0;
  for (std::int64_t rows : kDims) {
    for (std::int64_t cols : kDims) {
      for (std::int64_t ldx : kLds) {
        for (std::int64_t ldy :
             {std::int64_t{-1}, std::int64_t{3}, std::int64_t{4}, std::int64_t{8}}) {
          for (const void* y : ys) {
            for (const Parallelism p : {Parallelism{}, Parallelism::threads(-2)}) {
              ++checked;
              if (!reduce_detail::quick_valid_softmax(rows, cols, x, ldx, y, ldy, p,
                                                      sizeof(double))) {
                continue;
              }
              ++accepted;
              const Status named =
                  reduce_detail::check_softmax(rows, cols, x, ldx, y, ldy, p, sizeof(double));
              CHECK_MESSAGE(named.ok(), named.message(), " (rows ", rows, ", cols ", cols, ", ldx ",
                            ldx, ", ldy ", ldy, ")");
            }
          }
        }
      }
    }
  }
  CHECK(accepted > 0);
  CHECK(accepted < checked);
}

TEST_CASE("quick_valid_gemv and quick_valid_dot imply the named checks pass") {
  std::vector<float> a(512, 1.0f), v(64, 1.0f);
  const std::int64_t incs[] = {-2, -1, 0, 1, 3, std::int64_t{1} << 20};
  const void* ys[] = {v.data(), nullptr, a.data() + 1};
  int accepted = 0;
  for (std::int64_t m : kDims) {
    for (std::int64_t n : kDims) {
      for (std::int64_t lda : kLds) {
        for (std::int64_t inc : incs) {
          for (const void* y : ys) {
            for (Transpose t : {Transpose::kNo, Transpose::kYes}) {
              // A of f32, and A of a half format (2-byte elements).
              for (std::size_t a_element : {sizeof(float), std::size_t{2}}) {
                if (blas1_detail::quick_valid_gemv(Layout::kRowMajor, t, m, n, a.data(), lda,
                                                   v.data() + 32, inc, y, 1, Parallelism{},
                                                   sizeof(float), a_element)) {
                  ++accepted;
                  const Status named = blas1_detail::check_gemv(
                      Layout::kRowMajor, t, m, n, a.data(), lda, v.data() + 32, inc, y, 1,
                      Parallelism{}, sizeof(float), a_element);
                  CHECK_MESSAGE(named.ok(), named.message());
                }
              }
            }
          }
        }
      }
      for (std::int64_t inc : incs) {
        float result = 0;
        if (blas1_detail::quick_valid_dot(m, a.data(), inc, v.data(), 1, &result, Parallelism{},
                                          sizeof(float))) {
          ++accepted;
          const Status named = blas1_detail::check_dot(m, a.data(), inc, v.data(), 1, &result,
                                                       Parallelism{}, sizeof(float));
          CHECK_MESSAGE(named.ok(), named.message());
        }
      }
    }
  }
  CHECK(accepted > 0);
}

}  // namespace
}  // namespace tessera
