// The bf16 pair-dot traits of the half GEMM's fast mode: avx512::F32 in
// every respect (loads, stores, alpha, beta, epilogues) but the depth step
// of the GEMM microkernel (gemm_microkernel.hpp, depth_step), which is
// vdpbf16ps. Each 32-bit lane of an operand holds two bf16 values of
// consecutive depth, element 2p in the low half and 2p + 1 in the high one
// (gemm_half_fast.cc pairs them), so the f32 kernels' packing, which moves
// 32-bit words, carries pairs unchanged.
//
// vdpbf16ps, per lane (Intel SDM; measured bit for bit on AMD Zen 4 over
// 2 * 10^7 random operands, denormals and NaNs included): acc += hi(a) *
// hi(b), then acc += lo(a) * lo(b), each a fused multiply-add rounded to
// nearest even, with denormal inputs read as zero and denormal results
// flushed to zero, whatever MXCSR says. The bf16 products are exact in f32,
// so the only roundings are the two additions.
//
// Compiled only into gemm_bf16_avx512.cc, the one file built with
// -mavx512bf16, and reached only on CPUs with AVX512_BF16.
#pragma once

#include <immintrin.h>

#include "core/src/simd/vec_avx512.hpp"

namespace tessera::simd::avx512 {

struct Bf16Pairs : F32 {
  // No half-width view: the direct path's narrow tiles would multiply with
  // F32's plain mul_add, not this dot.
  using Narrow = void;
  static Reg dot(Reg a, Reg b, Reg acc) {
    return _mm512_dpbf16_ps(acc, reinterpret_cast<__m512bh>(a), reinterpret_cast<__m512bh>(b));
  }
};

}  // namespace tessera::simd::avx512
