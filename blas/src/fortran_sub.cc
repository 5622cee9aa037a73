// The rest of the reference library's Fortran interface:
//   - SDSDOT/DSDOT (sums in double) and SCABS1/DCABS1 (|re| + |im|);
//   - the *SUB subroutines the reference CBLAS calls instead of Fortran
//     functions (SDOTSUB(N, X, INCX, Y, INCY, DOT) stores SDOT's value in
//     its last argument; one for every level-1 function);
//   - LSAME (case-insensitive comparison of two letters) and XERBLA_ARRAY
//     (XERBLA for a name passed as a character array, from C);
//   - the reference CBLAS's CBLAS_CallFromC flag, which its Fortran XERBLA
//     reads and tessera never needs (its CBLAS reports to cblas_xerbla
//     directly); exported because programs built against the reference
//     may refer to it.
#include <algorithm>
#include <complex>
#include <cstddef>

#include "blas/src/blas_args.hpp"
#include "blas/src/level1_dot.hpp"
#include "blas/src/scalar.hpp"

using tessera::blas::c32;
using tessera::blas::c64;
using tessera::blas::c_complex_double;
using tessera::blas::c_complex_float;

extern "C" {

TESSERA_BLAS_API int CBLAS_CallFromC = 0;

TESSERA_BLAS_API float sdsdot_(const int* n, const float* sb, const float* x, const int* incx,
                               const float* y, const int* incy) {
  return static_cast<float>(tessera::blas::dot_in_double(*sb, *n, x, *incx, y, *incy));
}
TESSERA_BLAS_API double dsdot_(const int* n, const float* x, const int* incx, const float* y,
                               const int* incy) {
  return tessera::blas::dot_in_double(0.0, *n, x, *incx, y, *incy);
}

TESSERA_BLAS_API float scabs1_(const c32* z) { return tessera::blas::abs1(*z); }
TESSERA_BLAS_API double dcabs1_(const c64* z) { return tessera::blas::abs1(*z); }

// The functions these wrap are the library's own exports, so a program
// that replaces one (as with XERBLA) replaces its *SUB form too.
float sasum_(const int*, const float*, const int*);
double dasum_(const int*, const double*, const int*);
float scasum_(const int*, const c32*, const int*);
double dzasum_(const int*, const c64*, const int*);
float snrm2_(const int*, const float*, const int*);
double dnrm2_(const int*, const double*, const int*);
float scnrm2_(const int*, const c32*, const int*);
double dznrm2_(const int*, const c64*, const int*);
int isamax_(const int*, const float*, const int*);
int idamax_(const int*, const double*, const int*);
int icamax_(const int*, const c32*, const int*);
int izamax_(const int*, const c64*, const int*);
c_complex_float cdotu_(const int*, const c32*, const int*, const c32*, const int*);
c_complex_float cdotc_(const int*, const c32*, const int*, const c32*, const int*);
c_complex_double zdotu_(const int*, const c64*, const int*, const c64*, const int*);
c_complex_double zdotc_(const int*, const c64*, const int*, const c64*, const int*);

TESSERA_BLAS_API void sdotsub_(const int* n, const float* x, const int* incx, const float* y,
                               const int* incy, float* dot) {
  *dot = sdot_(n, x, incx, y, incy);
}
TESSERA_BLAS_API void ddotsub_(const int* n, const double* x, const int* incx, const double* y,
                               const int* incy, double* dot) {
  *dot = ddot_(n, x, incx, y, incy);
}
TESSERA_BLAS_API void sdsdotsub_(const int* n, const float* sb, const float* x, const int* incx,
                                 const float* y, const int* incy, float* dot) {
  *dot = sdsdot_(n, sb, x, incx, y, incy);
}
TESSERA_BLAS_API void dsdotsub_(const int* n, const float* x, const int* incx, const float* y,
                                const int* incy, double* dot) {
  *dot = dsdot_(n, x, incx, y, incy);
}
TESSERA_BLAS_API void cdotusub_(const int* n, const c32* x, const int* incx, const c32* y,
                                const int* incy, c32* dot) {
  *dot = tessera::blas::from_c(cdotu_(n, x, incx, y, incy));
}
TESSERA_BLAS_API void cdotcsub_(const int* n, const c32* x, const int* incx, const c32* y,
                                const int* incy, c32* dot) {
  *dot = tessera::blas::from_c(cdotc_(n, x, incx, y, incy));
}
TESSERA_BLAS_API void zdotusub_(const int* n, const c64* x, const int* incx, const c64* y,
                                const int* incy, c64* dot) {
  *dot = tessera::blas::from_c(zdotu_(n, x, incx, y, incy));
}
TESSERA_BLAS_API void zdotcsub_(const int* n, const c64* x, const int* incx, const c64* y,
                                const int* incy, c64* dot) {
  *dot = tessera::blas::from_c(zdotc_(n, x, incx, y, incy));
}

TESSERA_BLAS_API void sasumsub_(const int* n, const float* x, const int* incx, float* r) {
  *r = sasum_(n, x, incx);
}
TESSERA_BLAS_API void dasumsub_(const int* n, const double* x, const int* incx, double* r) {
  *r = dasum_(n, x, incx);
}
TESSERA_BLAS_API void scasumsub_(const int* n, const c32* x, const int* incx, float* r) {
  *r = scasum_(n, x, incx);
}
TESSERA_BLAS_API void dzasumsub_(const int* n, const c64* x, const int* incx, double* r) {
  *r = dzasum_(n, x, incx);
}

TESSERA_BLAS_API void snrm2sub_(const int* n, const float* x, const int* incx, float* r) {
  *r = snrm2_(n, x, incx);
}
TESSERA_BLAS_API void dnrm2sub_(const int* n, const double* x, const int* incx, double* r) {
  *r = dnrm2_(n, x, incx);
}
TESSERA_BLAS_API void scnrm2sub_(const int* n, const c32* x, const int* incx, float* r) {
  *r = scnrm2_(n, x, incx);
}
TESSERA_BLAS_API void dznrm2sub_(const int* n, const c64* x, const int* incx, double* r) {
  *r = dznrm2_(n, x, incx);
}

TESSERA_BLAS_API void isamaxsub_(const int* n, const float* x, const int* incx, int* r) {
  *r = isamax_(n, x, incx);
}
TESSERA_BLAS_API void idamaxsub_(const int* n, const double* x, const int* incx, int* r) {
  *r = idamax_(n, x, incx);
}
TESSERA_BLAS_API void icamaxsub_(const int* n, const c32* x, const int* incx, int* r) {
  *r = icamax_(n, x, incx);
}
TESSERA_BLAS_API void izamaxsub_(const int* n, const c64* x, const int* incx, int* r) {
  *r = izamax_(n, x, incx);
}

TESSERA_BLAS_API void scabs1sub_(const c32* z, float* r) { *r = scabs1_(z); }
TESSERA_BLAS_API void dcabs1sub_(const c64* z, double* r) { *r = dcabs1_(z); }

// LOGICAL LSAME(CA, CB): the letters equal, either case.
TESSERA_BLAS_API int lsame_(const char* ca, const char* cb) {
  const auto upper = [](char c) {
    return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  };
  return upper(*ca) == upper(*cb) ? 1 : 0;
}

// XERBLA_ARRAY(SRNAME_ARRAY, SRNAME_LEN, INFO): XERBLA with the first
// (at most 32) characters as a blank-padded CHARACTER*32 name.
TESSERA_BLAS_API void xerbla_array_(const char* name, const int* length, const int* info) {
  char padded[32];
  std::fill(padded, padded + 32, ' ');
  std::copy(name, name + std::clamp(*length, 0, 32), padded);
  xerbla_(padded, info, sizeof padded);
}

}  // extern "C"
