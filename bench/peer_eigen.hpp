// Eigen as a peer, compiled with the host's ISA flags. Eigen vectorises at
// compile time only, so a bench built for the x86-64 baseline runs Eigen on
// SSE2 while tessera dispatches to AVX-512 at run time: an unfair pair. This
// file's implementation is the one place Eigen is instantiated, and it is
// compiled with -march=native (the benches are built on the machine that
// runs them, by ./dev bench); the rest of the bench keeps the baseline flags.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::bench::eigen_peer {

bool available();
// "Eigen 3.4.0, SIMD AVX512, FMA, ..., OpenMP threads", or why absent.
std::string describe();

// Row-major C (m x n) = A (m x k) * B (k x n), contiguous; `threads` through
// Eigen::setNbThreads (one without OpenMP).
void gemm(const float* a, const float* b, float* c, int m, int n, int k, int threads);
void gemm(const double* a, const double* b, double* c, int m, int n, int k, int threads);
// y (m) = A (m x n, row-major) * x (n).
void gemv(const float* a, const float* x, float* y, int m, int n, int threads);
void gemv(const double* a, const double* x, double* y, int m, int n, int threads);
double dot(const float* x, const float* y, std::int64_t n, int threads);
double dot(const double* x, const double* y, std::int64_t n, int threads);

// One-row f32 operations for the small-call bench (array expressions, one
// thread): y = a + b, max(x, 0), exp(x); the sum, maximum and first index
// of the maximum; softmax of one row (max subtracted).
void add(const float* a, const float* b, float* y, int n);
void relu(const float* x, float* y, int n);
void exp(const float* x, float* y, int n);
float sum(const float* x, int n);
float max(const float* x, int n);
std::int64_t argmax(const float* x, int n);
void softmax(const float* x, float* y, int n);

}  // namespace tessera::bench::eigen_peer
