// The reference BLAS's argument checks for the level-2 routines beyond
// gemv and trmv (blas_args.hpp), in its order: 0 when the arguments are
// valid, else the number of the first bad one in the Fortran routine.
// Each line gives the routine whose numbering it follows; the others of
// the family share it (hemv: symv; hbmv: sbmv; tbsv: tbmv; geru/gerc:
// ger; her: syr; ...).
#pragma once

#include <cstdint>

namespace tessera::blas {

// SGBMV: trans 1, m 2, n 3, kl 4, ku 5, lda 8 (< kl + ku + 1), incx 10, incy 13.
int gbmv_argument_error(char trans, std::int64_t m, std::int64_t n, std::int64_t kl,
                        std::int64_t ku, std::int64_t lda, std::int64_t incx, std::int64_t incy);
// SSYMV: uplo 1, n 2, lda 5, incx 7, incy 10.
int symv_argument_error(char uplo, std::int64_t n, std::int64_t lda, std::int64_t incx,
                        std::int64_t incy);
// SSBMV: uplo 1, n 2, k 3, lda 6 (< k + 1), incx 8, incy 11.
int sbmv_argument_error(char uplo, std::int64_t n, std::int64_t k, std::int64_t lda,
                        std::int64_t incx, std::int64_t incy);
// SSPMV: uplo 1, n 2, incx 6, incy 9.
int spmv_argument_error(char uplo, std::int64_t n, std::int64_t incx, std::int64_t incy);
// STBMV: uplo 1, trans 2, diag 3, n 4, k 5, lda 7 (< k + 1), incx 9.
int tbmv_argument_error(char uplo, char trans, char diag, std::int64_t n, std::int64_t k,
                        std::int64_t lda, std::int64_t incx);
// STPMV: uplo 1, trans 2, diag 3, n 4, incx 7.
int tpmv_argument_error(char uplo, char trans, char diag, std::int64_t n, std::int64_t incx);
// SGER: m 1, n 2, incx 5, incy 7, lda 9.
int ger_argument_error(std::int64_t m, std::int64_t n, std::int64_t incx, std::int64_t incy,
                       std::int64_t lda);
// SSYR: uplo 1, n 2, incx 5, lda 7.
int syr_argument_error(char uplo, std::int64_t n, std::int64_t incx, std::int64_t lda);
// SSPR: uplo 1, n 2, incx 5.
int spr_argument_error(char uplo, std::int64_t n, std::int64_t incx);
// SSYR2: uplo 1, n 2, incx 5, incy 7, lda 9.
int syr2_argument_error(char uplo, std::int64_t n, std::int64_t incx, std::int64_t incy,
                        std::int64_t lda);
// SSPR2: uplo 1, n 2, incx 5, incy 7.
int spr2_argument_error(char uplo, std::int64_t n, std::int64_t incx, std::int64_t incy);

}  // namespace tessera::blas
