// Shared by the package tests: the seeded inputs and output hash of
// tessera-cli gemm (cli/seeded_inputs.hpp, restated here in
// JavaScript so the package's hash can be compared with the native one),
// and an independent double-precision reference GEMM.

const M64 = (1n << 64n) - 1n;

// splitmix64 of (seed, stream, index) -> its top 12 bits as (k - 2048) / 2048.
export function seededValue(seed, stream, index) {
  let z = (BigInt(seed) * 0x9E3779B97F4A7C15n + BigInt(stream) * 0xD1B54A32D192ED03n +
           (BigInt(index) + 1n) * 0x9E3779B97F4A7C15n) & M64;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M64;
  z ^= z >> 31n;
  return (Number(z >> 52n) - 2048) / 2048;
}

export function seeded(Type, count, seed, stream) {
  const out = new Type(count);
  for (let i = 0; i < count; ++i) out[i] = seededValue(seed, stream, i);
  return out;
}

// FNV-1a 64 of a typed array's bytes, as 16 hex digits.
export function fnv1a64(array) {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & M64;
  return h.toString(16).padStart(16, '0');
}

// C = alpha op(A) op(B) + beta C, row-major, in double precision; also the
// per-element bound 2 (k + 4) eps sum |a||b| (+ |beta c| rounding) within
// which an f32/f64 result must lie.
export function referenceGemm({ m, n, k, a, b, c, alpha = 1, beta = 0, transA = false, transB = false,
                                lda = transA ? m : k, ldb = transB ? k : n, ldc = n }, eps) {
  const ref = new Float64Array(m * n);
  const bound = new Float64Array(m * n);
  for (let i = 0; i < m; ++i) {
    for (let j = 0; j < n; ++j) {
      let sum = 0, abs = 0;
      for (let p = 0; p < k; ++p) {
        const x = transA ? a[p * lda + i] : a[i * lda + p];
        const y = transB ? b[j * ldb + p] : b[p * ldb + j];
        sum += x * y;
        abs += Math.abs(x * y);
      }
      const old = c ? c[i * ldc + j] : 0;
      ref[i * n + j] = alpha * sum + (beta === 0 ? 0 : beta * old);
      bound[i * n + j] = 2 * (k + 4) * eps * (Math.abs(alpha) * abs + Math.abs(beta * old)) + 1e-300;
    }
  }
  return { ref, bound };
}

// The first element outside the bound, or null.
export function firstMismatch(result, ldc, m, n, ref, bound) {
  for (let i = 0; i < m; ++i) {
    for (let j = 0; j < n; ++j) {
      const got = result[i * ldc + j];
      const want = ref[i * n + j];
      if (!(Math.abs(got - want) <= bound[i * n + j])) return { i, j, got, want, bound: bound[i * n + j] };
    }
  }
  return null;
}
