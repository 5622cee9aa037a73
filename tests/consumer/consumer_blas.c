/* A program written for the BLAS, linked against libtessera_blas instead
 * (shared or static): SGEMM and CBLAS DGEMM checked against a loop of its
 * own, and its own XERBLA, which must receive the reference BLAS's routine
 * name and parameter number for a bad leading dimension. Declarations are
 * the program's own, as a Fortran-calling C program writes them. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc);
void cblas_dgemm(int order, int trans_a, int trans_b, int m, int n, int k, double alpha,
                 const double* a, int lda, const double* b, int ldb, double beta, double* c,
                 int ldc);

static char seen_name[7];
static int seen_info = 0;

/* The program's XERBLA replaces the library's. */
void xerbla_(const char* name, const int* info, size_t len) {
  size_t n = len < 6 ? len : 6;
  memcpy(seen_name, name, n);
  seen_name[n] = '\0';
  seen_info = *info;
}

int main(void) {
  enum { M = 5, N = 7, K = 3 };
  float a[M * K], b[K * N], c[M * N];
  double ad[M * K], bd[K * N], cd[M * N];
  int i, j, p, failures = 0;
  const int m = M, n = N, k = K, bad_lda = M - 1;
  const float one = 1.0f, zero = 0.0f;

  for (i = 0; i < M * K; ++i) a[i] = (float)(i % 5 - 2), ad[i] = a[i];
  for (i = 0; i < K * N; ++i) b[i] = (float)(i % 3 - 1), bd[i] = b[i];
  /* Column-major, as Fortran: a(i, p) = a[i + p * M]. */
  sgemm_("N", "N", &m, &n, &k, &one, a, &m, b, &k, &zero, c, &m);
  for (i = 0; i < M; ++i) {
    for (j = 0; j < N; ++j) {
      float s = 0;
      for (p = 0; p < K; ++p) s += a[i + p * M] * b[p + j * K];
      if (c[i + j * M] != s) ++failures;
    }
  }
  /* Row-major through CBLAS (CblasRowMajor 101, CblasNoTrans 111). */
  cblas_dgemm(101, 111, 111, M, N, K, 1.0, ad, K, bd, N, 0.0, cd, N);
  for (i = 0; i < M; ++i) {
    for (j = 0; j < N; ++j) {
      double s = 0;
      for (p = 0; p < K; ++p) s += ad[i * K + p] * bd[p * N + j];
      if (cd[i * N + j] != s) ++failures;
    }
  }
  sgemm_("N", "N", &m, &n, &k, &one, a, &bad_lda, b, &k, &zero, c, &m);
  if (strcmp(seen_name, "SGEMM ") != 0 || seen_info != 8) {
    printf("FAIL: XERBLA saw <%s> %d, want <SGEMM > 8\n", seen_name, seen_info);
    ++failures;
  }
  printf("tessera BLAS consumer: %s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
