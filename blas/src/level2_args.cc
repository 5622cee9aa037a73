#include "blas/src/level2_args.hpp"

#include <algorithm>
#include <initializer_list>

#include "blas/src/blas_args.hpp"

namespace tessera::blas {
namespace {

// One check of the reference's list: the argument number it reports when
// `bad` holds.
struct Check {
  bool bad;
  int info;
};

// The first failing check's number, in the list's order; 0 if none.
int first_bad(std::initializer_list<Check> checks) {
  for (const Check& c : checks) {
    if (c.bad) return c.info;
  }
  return 0;
}

bool bad_uplo(char uplo) { return option(uplo, "UL") == 0; }
std::int64_t at_least_1(std::int64_t v) { return std::max<std::int64_t>(1, v); }

}  // namespace

int gbmv_argument_error(char trans, std::int64_t m, std::int64_t n, std::int64_t kl,
                        std::int64_t ku, std::int64_t lda, std::int64_t incx, std::int64_t incy) {
  return first_bad({{option(trans, "NTC") == 0, 1}, {m < 0, 2}, {n < 0, 3}, {kl < 0, 4},
                    {ku < 0, 5}, {lda < kl + ku + 1, 8}, {incx == 0, 10}, {incy == 0, 13}});
}

int symv_argument_error(char uplo, std::int64_t n, std::int64_t lda, std::int64_t incx,
                        std::int64_t incy) {
  return first_bad({{bad_uplo(uplo), 1}, {n < 0, 2}, {lda < at_least_1(n), 5}, {incx == 0, 7},
                    {incy == 0, 10}});
}

int sbmv_argument_error(char uplo, std::int64_t n, std::int64_t k, std::int64_t lda,
                        std::int64_t incx, std::int64_t incy) {
  return first_bad({{bad_uplo(uplo), 1}, {n < 0, 2}, {k < 0, 3}, {lda < k + 1, 6},
                    {incx == 0, 8}, {incy == 0, 11}});
}

int spmv_argument_error(char uplo, std::int64_t n, std::int64_t incx, std::int64_t incy) {
  return first_bad({{bad_uplo(uplo), 1}, {n < 0, 2}, {incx == 0, 6}, {incy == 0, 9}});
}

int tbmv_argument_error(char uplo, char trans, char diag, std::int64_t n, std::int64_t k,
                        std::int64_t lda, std::int64_t incx) {
  return first_bad({{bad_uplo(uplo), 1}, {option(trans, "NTC") == 0, 2},
                    {option(diag, "NU") == 0, 3}, {n < 0, 4}, {k < 0, 5}, {lda < k + 1, 7},
                    {incx == 0, 9}});
}

int tpmv_argument_error(char uplo, char trans, char diag, std::int64_t n, std::int64_t incx) {
  return first_bad({{bad_uplo(uplo), 1}, {option(trans, "NTC") == 0, 2},
                    {option(diag, "NU") == 0, 3}, {n < 0, 4}, {incx == 0, 7}});
}

int ger_argument_error(std::int64_t m, std::int64_t n, std::int64_t incx, std::int64_t incy,
                       std::int64_t lda) {
  return first_bad(
      {{m < 0, 1}, {n < 0, 2}, {incx == 0, 5}, {incy == 0, 7}, {lda < at_least_1(m), 9}});
}

int syr_argument_error(char uplo, std::int64_t n, std::int64_t incx, std::int64_t lda) {
  return first_bad(
      {{bad_uplo(uplo), 1}, {n < 0, 2}, {incx == 0, 5}, {lda < at_least_1(n), 7}});
}

int spr_argument_error(char uplo, std::int64_t n, std::int64_t incx) {
  return first_bad({{bad_uplo(uplo), 1}, {n < 0, 2}, {incx == 0, 5}});
}

int syr2_argument_error(char uplo, std::int64_t n, std::int64_t incx, std::int64_t incy,
                        std::int64_t lda) {
  return first_bad({{bad_uplo(uplo), 1}, {n < 0, 2}, {incx == 0, 5}, {incy == 0, 7},
                    {lda < at_least_1(n), 9}});
}

int spr2_argument_error(char uplo, std::int64_t n, std::int64_t incx, std::int64_t incy) {
  return first_bad({{bad_uplo(uplo), 1}, {n < 0, 2}, {incx == 0, 5}, {incy == 0, 7}});
}

}  // namespace tessera::blas
