// What the CBLAS entry points share: the reference CBLAS's enum values, its
// RowMajorStrg flag (raised during a row-major call, so that a
// cblas_xerbla maps parameter numbers computed on the swapped Fortran
// arguments back to the C call's), and its error handler.
#pragma once

#include <cstdint>

#include "blas/src/blas_args.hpp"

extern "C" {

enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 };
enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 };
enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 };

// 1 during a row-major call, else 0 (defined in cblas.cc).
extern TESSERA_BLAS_API int RowMajorStrg;

// The reference CBLAS's error handler (its testers define their own);
// xerbla.cc has the default.
TESSERA_BLAS_API void cblas_xerbla(int info, const char* routine, const char* form, ...);

}  // extern "C"

namespace tessera::blas {

// CBLAS passes complex scalars and arrays as void*: the value of a
// scalar, and an array typed (const in, mutable out).
template <class T>
T cblas_scalar(const void* p) {
  return *static_cast<const T*>(p);
}
template <class T>
const T* cblas_array(const void* p) {
  return static_cast<const T*>(p);
}
template <class T>
T* cblas_array(void* p) {
  return static_cast<T*>(p);
}

// Raises RowMajorStrg for a row-major call and clears it on return, as the
// reference does.
struct RowMajorFlag {
  explicit RowMajorFlag(bool row_major) { RowMajorStrg = row_major ? 1 : 0; }
  ~RowMajorFlag() { RowMajorStrg = 0; }
  RowMajorFlag(const RowMajorFlag&) = delete;
  RowMajorFlag& operator=(const RowMajorFlag&) = delete;
};

// The enum values as the Fortran option characters; 0 for anything else.
inline char trans_char(int trans) {
  switch (trans) {
    case CblasNoTrans: return 'N';
    case CblasTrans: return 'T';
    case CblasConjTrans: return 'C';
    default: return 0;
  }
}
inline char uplo_char(int uplo) {
  return uplo == CblasUpper ? 'U' : uplo == CblasLower ? 'L' : 0;
}
inline char side_char(int side) {
  return side == CblasLeft ? 'L' : side == CblasRight ? 'R' : 0;
}
inline char diag_char(int diag) {
  return diag == CblasNonUnit ? 'N' : diag == CblasUnit ? 'U' : 0;
}

// Row-major calls run as the column-major routine on the transposed view
// (what the reference CBLAS passes to Fortran): the triangle flips, and so
// does the transpose of a triangular or rank-k operand.
inline char flip_uplo(char u) { return u == 'U' ? 'L' : 'U'; }
inline char flip_trans(char t) { return t == 'N' ? 'T' : 'N'; }
inline char flip_side(char s) { return s == 'L' ? 'R' : 'L'; }

// `info`, the Fortran routine's check of the arguments the reference CBLAS
// passes it, reported as the C call's parameter number (one more: the
// layout comes first). True when it was an error.
inline bool fortran_check_failed(int info, const char* routine) {
  if (info == 0) return false;
  cblas_xerbla(info + 1, routine, "");
  return true;
}

// Reports an invalid enum argument (parameter `info` of the C call); a
// row-major call's flag stays raised during the report, as the reference's.
inline void bad_enum(int info, const char* routine, const char* what, int value) {
  cblas_xerbla(info, routine, "Illegal %s setting, %d\n", what, value);
}

// False (reported as parameter 1, with RowMajorStrg down: the reference
// never raised it) unless `order` is a layout.
inline bool valid_layout(int order, const char* routine) {
  if (order == CblasRowMajor || order == CblasColMajor) return true;
  RowMajorStrg = 0;
  bad_enum(1, routine, "layout", order);
  return false;
}

// The column-major problem the reference hands to Fortran for a call with
// a side (symm, trsm): in row-major, B (m x n) is B^T column-major and the
// stored A reads as A^T, so the side and the triangle flip and m and n
// swap; a transpose flag stays as it is.
struct SidedShape {
  char side, uplo;
  std::int64_t m, n;
};
inline SidedShape column_major_shape(int order, char side, char uplo, std::int64_t m,
                                     std::int64_t n) {
  if (order != CblasRowMajor) return {side, uplo, m, n};
  return {flip_side(side), flip_uplo(uplo), n, m};
}

// The checks of a cblas_?gemm call, in the reference CBLAS's order: the
// layout, TransA (2) and TransB (3), then the Fortran routine's checks on
// the arguments the reference passes it (A with B and M with N swapped in
// row-major). False once one failed (reported); else *ta and *tb hold the
// transposes as option characters. The caller holds the RowMajorFlag.
inline bool gemm_call_ok(const char* routine, int order, int trans_a, int trans_b, int m, int n,
                         int k, int lda, int ldb, int ldc, char* ta, char* tb) {
  if (!valid_layout(order, routine)) return false;
  *ta = trans_char(trans_a), *tb = trans_char(trans_b);
  if (*ta == 0) {
    bad_enum(2, routine, "TransA", trans_a);
    return false;
  }
  if (*tb == 0) {
    bad_enum(3, routine, "TransB", trans_b);
    return false;
  }
  const int info = order == CblasRowMajor
                       ? gemm_argument_error(*tb, *ta, n, m, k, ldb, lda, ldc)
                       : gemm_argument_error(*ta, *tb, m, n, k, lda, ldb, ldc);
  return !fortran_check_failed(info, routine);
}

}  // namespace tessera::blas
