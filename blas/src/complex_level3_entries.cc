// CGEMM/ZGEMM and cblas_cgemm/cblas_zgemm over complex_gemm_colmajor
// (complex_gemm.hpp). A row-major call computes C^T = op(B)^T op(A)^T in
// column-major, as the reference CBLAS hands it to Fortran (A and B, m and
// n swapped; a conjugate transpose stays one).
#include <complex>
#include <cstddef>

#include "blas/src/cblas_args.hpp"
#include "blas/src/complex_gemm.hpp"
#include "blas/src/scalar.hpp"

namespace tessera::blas::complex3 {

template <class R>
void fortran_gemm(const char* routine, const char* transa, const char* transb, const int* m,
                  const int* n, const int* k, const std::complex<R>* alpha,
                  const std::complex<R>* a, const int* lda, const std::complex<R>* b,
                  const int* ldb, const std::complex<R>* beta, std::complex<R>* c,
                  const int* ldc) {
  const int info = gemm_argument_error(*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc);
  if (info != 0) {
    report_bad_argument(routine, info);
    return;
  }
  const Status s = complex_gemm_colmajor(option(*transa, "NTC"), option(*transb, "NTC"), *m, *n,
                                         *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
  if (!s.ok()) report_failure(routine, s);
}

template <class R>
void cblas_gemm(const char* routine, int order, int trans_a, int trans_b, int m, int n, int k,
                const void* alpha, const void* a, int lda, const void* b, int ldb,
                const void* beta, void* c, int ldc) {
  using C = std::complex<R>;
  RowMajorFlag flag(order == CblasRowMajor);
  char ta, tb;
  if (!gemm_call_ok(routine, order, trans_a, trans_b, m, n, k, lda, ldb, ldc, &ta, &tb)) return;
  const bool row = order == CblasRowMajor;
  const C al = cblas_scalar<C>(alpha), be = cblas_scalar<C>(beta);
  const C* ap = cblas_array<C>(a);
  const C* bp = cblas_array<C>(b);
  C* cp = cblas_array<C>(c);
  const Status s = row ? complex_gemm_colmajor(tb, ta, n, m, k, al, bp, ldb, ap, lda, be, cp, ldc)
                       : complex_gemm_colmajor(ta, tb, m, n, k, al, ap, lda, bp, ldb, be, cp, ldc);
  if (!s.ok()) report_failure(routine, s);
}

}  // namespace tessera::blas::complex3

using tessera::blas::c32;
using tessera::blas::c64;

extern "C" {

TESSERA_BLAS_API void cgemm_(const char* transa, const char* transb, const int* m, const int* n,
                             const int* k, const c32* alpha, const c32* a, const int* lda,
                             const c32* b, const int* ldb, const c32* beta, c32* c,
                             const int* ldc) {
  tessera::blas::complex3::fortran_gemm("CGEMM ", transa, transb, m, n, k, alpha, a, lda, b, ldb,
                                        beta, c, ldc);
}
TESSERA_BLAS_API void zgemm_(const char* transa, const char* transb, const int* m, const int* n,
                             const int* k, const c64* alpha, const c64* a, const int* lda,
                             const c64* b, const int* ldb, const c64* beta, c64* c,
                             const int* ldc) {
  tessera::blas::complex3::fortran_gemm("ZGEMM ", transa, transb, m, n, k, alpha, a, lda, b, ldb,
                                        beta, c, ldc);
}

TESSERA_BLAS_API void cblas_cgemm(int order, int trans_a, int trans_b, int m, int n, int k,
                                  const void* alpha, const void* a, int lda, const void* b, int ldb,
                                  const void* beta, void* c, int ldc) {
  tessera::blas::complex3::cblas_gemm<float>("cblas_cgemm", order, trans_a, trans_b, m, n, k, alpha,
                                             a, lda, b, ldb, beta, c, ldc);
}
TESSERA_BLAS_API void cblas_zgemm(int order, int trans_a, int trans_b, int m, int n, int k,
                                  const void* alpha, const void* a, int lda, const void* b, int ldb,
                                  const void* beta, void* c, int ldc) {
  tessera::blas::complex3::cblas_gemm<double>("cblas_zgemm", order, trans_a, trans_b, m, n, k,
                                              alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // extern "C"
