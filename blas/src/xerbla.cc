// The default XERBLA: the reference BLAS's message ("On entry to SGEMM
// parameter number 8 had an illegal value"), then the call returns without
// touching any output; the reference stops the program there, but a
// library called from Python or R must not end its host (OpenBLAS returns
// too). Weak, so that a program's (or a tester's) own XERBLA replaces it.
#include <cstddef>
#include <cstdarg>
#include <cstdio>
#include <cstring>

extern "C" __attribute__((weak, visibility("default"))) void xerbla_(const char* srname,
                                                                    const int* info,
                                                                    std::size_t srname_len) {
  int len = static_cast<int>(srname_len);
  while (len > 0 && srname[len - 1] == ' ') --len;  // Fortran pads with blanks
  std::fprintf(stderr, " ** On entry to %.*s parameter number %d had an illegal value\n", len,
               srname, *info);
}

// The default cblas_xerbla, as the reference CBLAS's: in a row-major call
// (RowMajorStrg set) the number was computed on the swapped arguments the
// Fortran routine sees, and is mapped back to the C call's parameter
// (gemm: M 4 <-> N 5, lda 9 <-> ldb 11; symm: M 4 <-> N 5;
// trsm: M 6 <-> N 7; gemv: M 3 <-> N 4). Returns
// without ending the program, as xerbla_ above.
extern "C" int RowMajorStrg;

extern "C" __attribute__((weak, visibility("default"))) void cblas_xerbla(int info,
                                                                         const char* routine,
                                                                         const char* form, ...) {
  if (RowMajorStrg != 0) {
    if (std::strstr(routine, "gemm") != nullptr) {
      if (info == 4 || info == 5) info = 9 - info;
      else if (info == 9 || info == 11) info = 20 - info;
    } else if (std::strstr(routine, "symm") != nullptr) {
      if (info == 4 || info == 5) info = 9 - info;
    } else if (std::strstr(routine, "trsm") != nullptr || std::strstr(routine, "trmm") != nullptr) {
      if (info == 6 || info == 7) info = 13 - info;
    } else if (std::strstr(routine, "gemv") != nullptr) {
      if (info == 3 || info == 4) info = 7 - info;
    }
  }
  std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, routine);
  std::va_list args;
  va_start(args, form);
  std::vfprintf(stderr, form, args);
  va_end(args);
}
