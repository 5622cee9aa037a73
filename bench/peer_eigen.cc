#include "peer_eigen.hpp"

#if defined(TESSERA_BENCH_HAVE_EIGEN)
#include <Eigen/Core>
#endif

namespace tessera::bench::eigen_peer {

#if defined(TESSERA_BENCH_HAVE_EIGEN)
namespace {

template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <class T>
void gemm_impl(const T* a, const T* b, T* c, int m, int n, int k, int threads) {
  Eigen::setNbThreads(threads);
  Eigen::Map<const RowMajor<T>> am(a, m, k);
  Eigen::Map<const RowMajor<T>> bm(b, k, n);
  Eigen::Map<RowMajor<T>> cm(c, m, n);
  cm.noalias() = am * bm;
}

template <class T>
void gemv_impl(const T* a, const T* x, T* y, int m, int n, int threads) {
  Eigen::setNbThreads(threads);
  Eigen::Map<const RowMajor<T>> am(a, m, n);
  Eigen::Map<const Vector<T>> xv(x, n);
  Eigen::Map<Vector<T>> yv(y, m);
  yv.noalias() = am * xv;
}

template <class T>
double dot_impl(const T* x, const T* y, std::int64_t n, int threads) {
  Eigen::setNbThreads(threads);
  Eigen::Map<const Vector<T>> xv(x, static_cast<Eigen::Index>(n));
  Eigen::Map<const Vector<T>> yv(y, static_cast<Eigen::Index>(n));
  return static_cast<double>(xv.dot(yv));
}

using Row = Eigen::Array<float, Eigen::Dynamic, 1>;
using ConstRowMap = Eigen::Map<const Row>;
using RowMap = Eigen::Map<Row>;

}  // namespace

void add(const float* a, const float* b, float* y, int n) {
  RowMap(y, n) = ConstRowMap(a, n) + ConstRowMap(b, n);
}
void relu(const float* x, float* y, int n) { RowMap(y, n) = ConstRowMap(x, n).max(0.0f); }
void exp(const float* x, float* y, int n) { RowMap(y, n) = ConstRowMap(x, n).exp(); }
float sum(const float* x, int n) { return ConstRowMap(x, n).sum(); }
float max(const float* x, int n) { return ConstRowMap(x, n).maxCoeff(); }
std::int64_t argmax(const float* x, int n) {
  Eigen::Index index = 0;
  ConstRowMap(x, n).maxCoeff(&index);
  return static_cast<std::int64_t>(index);
}
void softmax(const float* x, float* y, int n) {
  const ConstRowMap xr(x, n);
  RowMap yr(y, n);
  yr = (xr - xr.maxCoeff()).exp();
  yr /= yr.sum();
}

bool available() { return true; }

std::string describe() {
  std::string text =
      "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) +
      "." + std::to_string(EIGEN_MINOR_VERSION) + ", SIMD " + Eigen::SimdInstructionSetsInUse();
#if defined(TESSERA_BENCH_EIGEN_HOST_FLAGS)
  text += " (built with " TESSERA_BENCH_EIGEN_HOST_FLAGS ")";
#else
  text += " (built with the baseline flags: no host-flag option for this compiler)";
#endif
#if defined(_OPENMP)
  text += ", OpenMP threads";
#else
  text += ", one thread (no OpenMP)";
#endif
  return text;
}

void gemm(const float* a, const float* b, float* c, int m, int n, int k, int threads) {
  gemm_impl(a, b, c, m, n, k, threads);
}
void gemm(const double* a, const double* b, double* c, int m, int n, int k, int threads) {
  gemm_impl(a, b, c, m, n, k, threads);
}
void gemv(const float* a, const float* x, float* y, int m, int n, int threads) {
  gemv_impl(a, x, y, m, n, threads);
}
void gemv(const double* a, const double* x, double* y, int m, int n, int threads) {
  gemv_impl(a, x, y, m, n, threads);
}
double dot(const float* x, const float* y, std::int64_t n, int threads) {
  return dot_impl(x, y, n, threads);
}
double dot(const double* x, const double* y, std::int64_t n, int threads) {
  return dot_impl(x, y, n, threads);
}

#else  // no Eigen: available() says so and nothing else may be called

bool available() { return false; }
std::string describe() { return "Eigen: not found at configure time (not measured)"; }
void gemm(const float*, const float*, float*, int, int, int, int) {}
void gemm(const double*, const double*, double*, int, int, int, int) {}
void gemv(const float*, const float*, float*, int, int, int) {}
void gemv(const double*, const double*, double*, int, int, int) {}
double dot(const float*, const float*, std::int64_t, int) { return 0; }
double dot(const double*, const double*, std::int64_t, int) { return 0; }
void add(const float*, const float*, float*, int) {}
void relu(const float*, float*, int) {}
void exp(const float*, float*, int) {}
float sum(const float*, int) { return 0; }
float max(const float*, int) { return 0; }
std::int64_t argmax(const float*, int) { return 0; }
void softmax(const float*, float*, int) {}

#endif

}  // namespace tessera::bench::eigen_peer
