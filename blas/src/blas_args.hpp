// Argument handling shared by the Fortran-BLAS and CBLAS entry points:
// option characters as the reference BLAS reads them (LSAME: first letter,
// either case), and the error report through XERBLA with the routine's
// name and the BLAS parameter number, so a program's own XERBLA takes over
// exactly as with the reference library.
#pragma once

#include <cstddef>
#include <cstdint>

#include "blas/src/scalar.hpp"
#include "tessera/gemm.hpp"
#include "tessera/platform/status.hpp"

// The library is compiled with hidden visibility; its BLAS and CBLAS entry
// points are exported by this (and listed in blas/blas.map).
//
// The Fortran entry points never declare gfortran's hidden lengths of
// their CHARACTER arguments (passed after the others), although Fortran
// callers pass them: C callers (f2py, LAPACKE, R) do not, and on x86-64
// the stack slots of a function's declared arguments belong to it, so an
// entry point declaring lengths its caller did not pass may overwrite the
// caller's frame (GCC writes a tail call's outgoing arguments there;
// SciPy's strsv wrapper crashed so). A function may ignore arguments it
// is given but must not claim ones it is not.
#define TESSERA_BLAS_API __attribute__((visibility("default")))

extern "C" {
// The Fortran error handler (gfortran calling convention: the routine name
// is a CHARACTER*(*) whose length comes as a hidden trailing argument).
// libtessera_blas defines a default (blas/src/xerbla.cc); a program's own
// definition wins, as with the reference BLAS.
TESSERA_BLAS_API void xerbla_(const char* srname, const int* info, std::size_t srname_len);
TESSERA_BLAS_API float sdot_(const int* n, const float* x, const int* incx, const float* y,
                             const int* incy);
TESSERA_BLAS_API double ddot_(const int* n, const double* x, const int* incx, const double* y,
                              const int* incy);
}

namespace tessera::blas {

// Reports argument `info` (1-based) of `routine` ("SGEMM") to XERBLA.
void report_bad_argument(const char* routine, int info);

// A failure of the tessera call itself after the BLAS checks passed (out
// of memory, or an overlap the BLAS does not define): BLAS routines have no
// status to return, so it is written to stderr with the routine's name.
void report_failure(const char* routine, const Status& status);

// 'N'/'n' -> kNo, 'T'/'t'/'C'/'c' -> kYes (conjugation is the identity for
// real data); anything else: false.
bool parse_transpose(char c, Transpose* out);
// The transpose of a character the argument checks already accepted (the
// routines parse after checking; a rejected one never gets here).
Transpose checked_transpose(char c);

// The reference BLAS's argument checks, in its order: 0 when the arguments
// are valid, else the number of the first bad one in the Fortran routine
// (SGEMM: transa 1, transb 2, m 3, n 4, k 5, lda 8, ldb 10, ldc 13; SGEMV:
// trans 1, m 2, n 3, lda 6, incx 8, incy 11). Column-major, as Fortran.
int gemm_argument_error(char transa, char transb, std::int64_t m, std::int64_t n,
                        std::int64_t k, std::int64_t lda, std::int64_t ldb, std::int64_t ldc);
int gemv_argument_error(char trans, std::int64_t m, std::int64_t n, std::int64_t lda,
                        std::int64_t incx, std::int64_t incy);

// An option character as LSAME reads it (first letter, either case),
// returned upper case when it is one of `allowed` ("LR", "UL", "NTC",
// "NU"), else 0.
char option(char c, const char* allowed);

// SSYMM: side 1, uplo 2, m 3, n 4, lda 7, ldb 9, ldc 12.
int symm_argument_error(char side, char uplo, std::int64_t m, std::int64_t n, std::int64_t lda,
                        std::int64_t ldb, std::int64_t ldc);
// SSYRK: uplo 1, trans 2, n 3, k 4, lda 7, ldc 10. `transes` are the
// transposes the routine takes: "NTC" (real), "NT" (csyrk), "NC" (cherk).
int syrk_argument_error(char uplo, char trans, std::int64_t n, std::int64_t k, std::int64_t lda,
                        std::int64_t ldc, const char* transes = "NTC");
// The transposes a rank-k routine (syrk, syr2k, herk, her2k) of type T
// takes: all three on real data, N/T for the complex symmetric forms, N/C
// for the Hermitian ones.
template <class T>
const char* rank_k_transes(bool hermitian) {
  if constexpr (kIsComplex<T>) {
    return hermitian ? "NC" : "NT";
  } else {
    (void)hermitian;
    return "NTC";
  }
}
// SSYR2K: uplo 1, trans 2, n 3, k 4, lda 7, ldb 9, ldc 12 (transes as SSYRK).
int syr2k_argument_error(char uplo, char trans, std::int64_t n, std::int64_t k, std::int64_t lda,
                         std::int64_t ldb, std::int64_t ldc, const char* transes = "NTC");
// STRSM and STRMM: side 1, uplo 2, transa 3, diag 4, m 5, n 6, lda 9, ldb 11.
int trsm_argument_error(char side, char uplo, char transa, char diag, std::int64_t m,
                        std::int64_t n, std::int64_t lda, std::int64_t ldb);
// STRMV: uplo 1, trans 2, diag 3, n 4, lda 6, incx 8.
int trmv_argument_error(char uplo, char trans, char diag, std::int64_t n, std::int64_t lda,
                        std::int64_t incx);

// The default context: threads from tessera's policy (TESSERA_NUM_THREADS,
// the machine's cores), never more than one pool per process.
const Context& blas_context();

}  // namespace tessera::blas
