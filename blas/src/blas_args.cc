#include "blas/src/blas_args.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace tessera::blas {

void report_bad_argument(const char* routine, int info) {
  xerbla_(routine, &info, std::strlen(routine));
}

void report_failure(const char* routine, const Status& status) {
  std::fprintf(stderr, "tessera BLAS: %s failed: %s\n", routine, status.to_string().c_str());
}

bool parse_transpose(char c, Transpose* out) {
  switch (c) {
    case 'N': case 'n': *out = Transpose::kNo; return true;
    case 'T': case 't': case 'C': case 'c': *out = Transpose::kYes; return true;
    default: return false;
  }
}

Transpose checked_transpose(char c) {
  Transpose t = Transpose::kNo;
  parse_transpose(c, &t);
  return t;
}

int gemm_argument_error(char transa, char transb, std::int64_t m, std::int64_t n,
                        std::int64_t k, std::int64_t lda, std::int64_t ldb, std::int64_t ldc) {
  Transpose ta, tb;
  if (!parse_transpose(transa, &ta)) return 1;
  if (!parse_transpose(transb, &tb)) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  // Rows of A and B as stored: op(A) is m x k, op(B) is k x n.
  const std::int64_t nrowa = ta == Transpose::kYes ? k : m;
  const std::int64_t nrowb = tb == Transpose::kYes ? n : k;
  if (lda < std::max<std::int64_t>(1, nrowa)) return 8;
  if (ldb < std::max<std::int64_t>(1, nrowb)) return 10;
  if (ldc < std::max<std::int64_t>(1, m)) return 13;
  return 0;
}

int gemv_argument_error(char trans, std::int64_t m, std::int64_t n, std::int64_t lda,
                        std::int64_t incx, std::int64_t incy) {
  Transpose t;
  if (!parse_transpose(trans, &t)) return 1;
  if (m < 0) return 2;
  if (n < 0) return 3;
  if (lda < std::max<std::int64_t>(1, m)) return 6;
  if (incx == 0) return 8;
  if (incy == 0) return 11;
  return 0;
}

char option(char c, const char* allowed) {
  const char up = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return up != 0 && std::strchr(allowed, up) != nullptr ? up : 0;
}

int symm_argument_error(char side, char uplo, std::int64_t m, std::int64_t n, std::int64_t lda,
                        std::int64_t ldb, std::int64_t ldc) {
  const char s = option(side, "LR");
  if (s == 0) return 1;
  if (option(uplo, "UL") == 0) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  // A is m x m (left) or n x n (right).
  if (lda < std::max<std::int64_t>(1, s == 'L' ? m : n)) return 7;
  if (ldb < std::max<std::int64_t>(1, m)) return 9;
  if (ldc < std::max<std::int64_t>(1, m)) return 12;
  return 0;
}

int syrk_argument_error(char uplo, char trans, std::int64_t n, std::int64_t k, std::int64_t lda,
                        std::int64_t ldc, const char* transes) {
  if (option(uplo, "UL") == 0) return 1;
  const char t = option(trans, transes);
  if (t == 0) return 2;
  if (n < 0) return 3;
  if (k < 0) return 4;
  // A is n x k (no transpose) or k x n.
  if (lda < std::max<std::int64_t>(1, t == 'N' ? n : k)) return 7;
  if (ldc < std::max<std::int64_t>(1, n)) return 10;
  return 0;
}

int syr2k_argument_error(char uplo, char trans, std::int64_t n, std::int64_t k, std::int64_t lda,
                         std::int64_t ldb, std::int64_t ldc, const char* transes) {
  if (option(uplo, "UL") == 0) return 1;
  const char t = option(trans, transes);
  if (t == 0) return 2;
  if (n < 0) return 3;
  if (k < 0) return 4;
  // A and B are n x k (no transpose) or k x n.
  const std::int64_t rows = std::max<std::int64_t>(1, t == 'N' ? n : k);
  if (lda < rows) return 7;
  if (ldb < rows) return 9;
  if (ldc < std::max<std::int64_t>(1, n)) return 12;
  return 0;
}

int trsm_argument_error(char side, char uplo, char transa, char diag, std::int64_t m,
                        std::int64_t n, std::int64_t lda, std::int64_t ldb) {
  const char s = option(side, "LR");
  if (s == 0) return 1;
  if (option(uplo, "UL") == 0) return 2;
  if (option(transa, "NTC") == 0) return 3;
  if (option(diag, "NU") == 0) return 4;
  if (m < 0) return 5;
  if (n < 0) return 6;
  if (lda < std::max<std::int64_t>(1, s == 'L' ? m : n)) return 9;
  if (ldb < std::max<std::int64_t>(1, m)) return 11;
  return 0;
}

int trmv_argument_error(char uplo, char trans, char diag, std::int64_t n, std::int64_t lda,
                        std::int64_t incx) {
  if (option(uplo, "UL") == 0) return 1;
  if (option(trans, "NTC") == 0) return 2;
  if (option(diag, "NU") == 0) return 3;
  if (n < 0) return 4;
  if (lda < std::max<std::int64_t>(1, n)) return 6;
  if (incx == 0) return 8;
  return 0;
}

const Context& blas_context() {
  static const Context context;
  return context;
}

}  // namespace tessera::blas
