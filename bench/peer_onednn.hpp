// oneDNN (Debian's libdnnl) as a peer: dnnl_sgemm and dnnl_gemm_u8s8s32,
// its JIT GEMMs for the host's best ISA (oneDNN has no f64 GEMM). It runs on OpenMP (libgomp),
// sized per call with omp_set_num_threads.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::bench::onednn_peer {

bool available();
// "oneDNN 2.6.3 (cpu isa avx512_core_bf16, OpenMP)", or why absent.
std::string describe();
// Row-major C (m x n) = A (m x k) * B (k x n), contiguous. False on a
// oneDNN error (the bench then stops: a peer that failed is no figure).
bool sgemm(const float* a, const float* b, float* c, int m, int n, int k, int threads);
// Row-major C (int32, m x n) = (A (u8, m x k) - a_zero) * B (s8, k x n), the
// integer GEMM (its zero points are per tensor only). False on an error.
bool gemm_u8s8s32(const std::uint8_t* a, std::uint8_t a_zero, const std::int8_t* b,
                  std::int32_t* c, int m, int n, int k, int threads);

// Row-major C (f32, m x n) = A (bf16 bits, m x k) * B (bf16 bits, k x n):
// oneDNN's matmul primitive, which picks its kernel for the host (AMX,
// AVX512-BF16 dot products, or conversion to f32 where the CPU has neither).
// Built once per shape (primitive creation is not timed), then run.
class Bf16Matmul {
 public:
  Bf16Matmul(int m, int n, int k);
  ~Bf16Matmul();
  Bf16Matmul(const Bf16Matmul&) = delete;
  Bf16Matmul& operator=(const Bf16Matmul&) = delete;
  bool ok() const;  // false: not available, or oneDNN refused the shape
  // The implementation oneDNN chose ("brg:avx512_core_amx", ...).
  std::string implementation() const;
  bool run(const std::uint16_t* a, const std::uint16_t* b, float* c, int threads);

 private:
  struct State;
  State* state_ = nullptr;
};

}  // namespace tessera::bench::onednn_peer
