/* A C user of tessera (the C API, tessera/tessera.h): a context, a product
 * checked against a loop of its own, and a bad argument that must come back
 * as TSR_INVALID_ARGUMENT with a message naming it. Exits 1 on a mismatch. */
#include <stdio.h>
#include <string.h>

#include <tessera/tessera.h>

static int failures = 0;

static void expect(int ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

int main(void) {
  enum { M = 19, N = 23, K = 11 };
  double a[M * K], b[K * N], c[M * N], want[M * N];
  int i, j, p;
  tsr_context* context = NULL;
  const char* isa = "";
  tsr_status s;

  for (i = 0; i < M * K; ++i) a[i] = (double)(i % 9 - 4);
  for (i = 0; i < K * N; ++i) b[i] = (double)(i % 4 - 1);
  for (i = 0; i < M * N; ++i) c[i] = 1.0;
  /* alpha 2, beta 1: exact in double for these small integers. */
  for (i = 0; i < M; ++i) {
    for (j = 0; j < N; ++j) {
      double sum = 0;
      for (p = 0; p < K; ++p) sum += a[i * K + p] * b[p * N + j];
      want[i * N + j] = 2 * sum + 1.0;
    }
  }

  s = tsr_context_create(NULL, &context);
  expect(s == TSR_OK, "tsr_context_create");
  expect(tsr_context_isa(context, &isa) == TSR_OK, "tsr_context_isa");
  s = tsr_dgemm(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, M, N, K, 2.0, a, K, b, N,
                1.0, c, N, 0);
  expect(s == TSR_OK, "tsr_dgemm");
  expect(memcmp(c, want, sizeof c) == 0, "tsr_dgemm equals the consumer's loop");

  s = tsr_dgemm(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, M, N, K, 2.0, a, K, b, N,
                1.0, c, N - 1, 0);
  expect(s == TSR_INVALID_ARGUMENT, "a bad ldc is TSR_INVALID_ARGUMENT");
  expect(strstr(tsr_last_error_message(), "ldc") != NULL, "the message names ldc");
  expect(memcmp(c, want, sizeof c) == 0, "nothing written on bad input");

  tsr_context_destroy(context);
  printf("tessera C API (%s, isa %s): %s\n", TESSERA_TARGET_NAME, isa, failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
