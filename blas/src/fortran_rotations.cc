// The Fortran rotation routines (rotations.hpp): SROT/DROT, CSROT/ZDROT,
// SROTG/DROTG, CROTG/ZROTG, SROTM/DROTM, SROTMG/DROTMG.
#include <complex>

#include "blas/src/blas_args.hpp"
#include "blas/src/rotations.hpp"

using tessera::blas::c32;
using tessera::blas::c64;

extern "C" {

TESSERA_BLAS_API void srot_(const int* n, float* x, const int* incx, float* y, const int* incy,
                            const float* c, const float* s) {
  tessera::blas::rot(*n, x, *incx, y, *incy, *c, *s);
}
TESSERA_BLAS_API void drot_(const int* n, double* x, const int* incx, double* y,
                            const int* incy, const double* c, const double* s) {
  tessera::blas::rot(*n, x, *incx, y, *incy, *c, *s);
}
TESSERA_BLAS_API void csrot_(const int* n, c32* x, const int* incx, c32* y, const int* incy,
                             const float* c, const float* s) {
  tessera::blas::rot(*n, x, *incx, y, *incy, *c, *s);
}
TESSERA_BLAS_API void zdrot_(const int* n, c64* x, const int* incx, c64* y, const int* incy,
                             const double* c, const double* s) {
  tessera::blas::rot(*n, x, *incx, y, *incy, *c, *s);
}

TESSERA_BLAS_API void srotg_(float* a, float* b, float* c, float* s) {
  tessera::blas::rotg(a, b, c, s);
}
TESSERA_BLAS_API void drotg_(double* a, double* b, double* c, double* s) {
  tessera::blas::rotg(a, b, c, s);
}
TESSERA_BLAS_API void crotg_(c32* a, const c32* b, float* c, c32* s) {
  tessera::blas::rotg(a, b, c, s);
}
TESSERA_BLAS_API void zrotg_(c64* a, const c64* b, double* c, c64* s) {
  tessera::blas::rotg(a, b, c, s);
}

TESSERA_BLAS_API void srotm_(const int* n, float* x, const int* incx, float* y,
                             const int* incy, const float* param) {
  tessera::blas::rotm(*n, x, *incx, y, *incy, param);
}
TESSERA_BLAS_API void drotm_(const int* n, double* x, const int* incx, double* y,
                             const int* incy, const double* param) {
  tessera::blas::rotm(*n, x, *incx, y, *incy, param);
}

TESSERA_BLAS_API void srotmg_(float* d1, float* d2, float* x1, const float* y1, float* param) {
  tessera::blas::rotmg(d1, d2, x1, *y1, param);
}
TESSERA_BLAS_API void drotmg_(double* d1, double* d2, double* x1, const double* y1,
                              double* param) {
  tessera::blas::rotmg(d1, d2, x1, *y1, param);
}

}  // extern "C"
