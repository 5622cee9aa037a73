// The CBLAS gemm, gemv and dot (cblas_sgemm, cblas_dgemm, cblas_sgemv, cblas_dgemv,
// cblas_sdot, cblas_ddot), row- and column-major, over the same tessera
// calls as the Fortran routines.
//
// Errors follow the reference CBLAS exactly, so that its testers (and
// programs with their own cblas_xerbla) see what they expect: the layout is
// parameter 1, the transposes 2 and 3, and the other arguments are checked
// as the reference's Fortran routine checks them, numbered one higher. In
// row-major the reference passes the arguments to Fortran swapped (A with
// B, M with N) and raises the global RowMajorStrg during the call, by which
// a cblas_xerbla maps the numbers back; tessera reports the same numbers
// with the same flag (and runs row-major natively, without the swap).
#include <cstddef>

#include "blas/src/cblas_args.hpp"
#include "blas/src/disjoint.hpp"
#include "tessera/blas1.hpp"
#include "tessera/gemm.hpp"

// The reference CBLAS's flag (declared in cblas_args.hpp).
TESSERA_BLAS_API int RowMajorStrg = 0;

namespace tessera::blas {
namespace {

template <class T>
void gemm(const char* routine, int order, int trans_a, int trans_b, int m, int n, int k, T alpha,
          const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  RowMajorFlag flag(order == CblasRowMajor);
  char ta, tb;
  if (!gemm_call_ok(routine, order, trans_a, trans_b, m, n, k, lda, ldb, ldc, &ta, &tb)) return;
  const bool row = order == CblasRowMajor;
  if (m == 0 || n == 0) return;
  const Transpose ota = checked_transpose(ta), otb = checked_transpose(tb);
  Status s = gemm_disjoint(row ? Layout::kRowMajor : Layout::kColMajor, ota, otb, m, n, k, alpha,
                           a, lda, b, ldb, beta, c, ldc);
  if (!s.ok()) report_failure(routine, s);
}

template <class T>
void gemv(const char* routine, int order, int trans, int m, int n, T alpha, const T* a, int lda,
          const T* x, int incx, T beta, T* y, int incy) {
  RowMajorFlag flag(order == CblasRowMajor);
  if (!valid_layout(order, routine)) return;
  const char t = trans_char(trans);
  if (t == 0) return bad_enum(2, routine, "TransA", trans);
  // Row-major: the reference calls Fortran with the transpose flipped on
  // the stored matrix seen column-major (N x M, lda).
  const bool row = order == CblasRowMajor;
  const int info = row ? gemv_argument_error(flip_trans(t), n, m, lda, incx, incy)
                       : gemv_argument_error(t, m, n, lda, incx, incy);
  if (fortran_check_failed(info, routine)) return;
  if (m == 0 || n == 0) return;
  const Transpose ot = checked_transpose(t);
  Status s = gemv_disjoint(row ? Layout::kRowMajor : Layout::kColMajor, ot, m, n, alpha, a, lda,
                           x, incx, beta, y, incy);
  if (!s.ok()) report_failure(routine, s);
}

}  // namespace
}  // namespace tessera::blas

extern "C" {

TESSERA_BLAS_API void cblas_sgemm(int order, int trans_a, int trans_b, int m, int n, int k,
                                  float alpha, const float* a, int lda, const float* b, int ldb,
                                  float beta, float* c, int ldc) {
  tessera::blas::gemm("cblas_sgemm", order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                      beta, c, ldc);
}

TESSERA_BLAS_API void cblas_dgemm(int order, int trans_a, int trans_b, int m, int n, int k,
                                  double alpha, const double* a, int lda, const double* b,
                                  int ldb, double beta, double* c, int ldc) {
  tessera::blas::gemm("cblas_dgemm", order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                      beta, c, ldc);
}

TESSERA_BLAS_API void cblas_sgemv(int order, int trans, int m, int n, float alpha, const float* a,
                                  int lda, const float* x, int incx, float beta, float* y,
                                  int incy) {
  tessera::blas::gemv("cblas_sgemv", order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API void cblas_dgemv(int order, int trans, int m, int n, double alpha,
                                  const double* a, int lda, const double* x, int incx,
                                  double beta, double* y, int incy) {
  tessera::blas::gemv("cblas_dgemv", order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

TESSERA_BLAS_API float cblas_sdot(int n, const float* x, int incx, const float* y, int incy) {
  return sdot_(&n, x, &incx, y, &incy);
}

TESSERA_BLAS_API double cblas_ddot(int n, const double* x, int incx, const double* y,
                                   int incy) {
  return ddot_(&n, x, &incx, y, &incy);
}

}  // extern "C"
