// GEMM: C <- alpha * op(A) * op(B) + beta * C, for f32 and f64
// (design.md §Kernel core).
//
// It replaces the serial loop
//     for (i = 0; i < m; ++i)
//       for (j = 0; j < n; ++j) {
//         T s = 0;
//         for (p = 0; p < k; ++p) s += op(A)(i, p) * op(B)(p, j);
//         C(i, j) = alpha * s + beta * C(i, j);
//       }
// where op(X) is X or its transpose, op(A) is m x k, op(B) is k x n, C is
// m x n, and X(r, c) is x[r*ldx + c] (row-major) or x[r + c*ldx]
// (column-major) of the matrix as stored.
//
// BLAS semantics: beta == 0 never reads C (NaN or Inf in C do not leak);
// m == 0 or n == 0 does nothing; k == 0 or alpha == 0 sets C = beta * C
// without reading A or B (C = 0 when beta == 0; C untouched when beta == 1).
// NaN and Inf in A or B propagate as IEEE arithmetic says.
//
// Validation (design.md §Bad input), before anything is written: negative
// dimensions, m*n*k or any extent overflowing, null pointers with non-zero
// extents, leading dimensions below the stored row length (or below 1), C's
// accessed byte range overlapping A's or B's, and an unknown layout or
// transpose value are invalid_argument errors naming the argument.
//
// Threading and reproducibility: `parallelism` picks how many of the
// context's participants one call uses (tessera/parallelism.hpp). The depth
// is cut into slices whose size comes from the cache model only, the slices
// run in a fixed order and each output tile is computed by one worker, so
// the result is bit-for-bit the same for every worker count on the same
// machine and ISA level. Different ISA levels agree within rounding (each
// element within about k * eps * sum|a||b| of the exact result), not
// bitwise; the SSE2 and SIMD128 levels use the same tiles, blocking and
// operation order and give the same bits as each other.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "tessera/context.hpp"
#include "tessera/error.hpp"
#include "tessera/parallelism.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

enum class Layout : std::uint8_t { kRowMajor = 0, kColMajor = 1 };
enum class Transpose : std::uint8_t { kNo = 0, kYes = 1 };
enum class Dtype : std::uint8_t { kF32 = 0, kF64 = 1 };

const char* layout_name(Layout layout) noexcept;        // "row-major"
const char* transpose_name(Transpose trans) noexcept;   // "N" / "T"
const char* dtype_name(Dtype dtype) noexcept;           // "f32" / "f64"

namespace detail {
struct PackedRhsState;
}

// op(B) packed once for repeated products with different A (prepack_rhs).
// The packing depends on the ISA level and the depth blocking of the
// context it was made with; gemm on a context with another level (or
// blocking) is an explicit error, never a silent repack. Move-only; an
// empty PackedRhs (default-constructed or moved from) is rejected by gemm.
class PackedRhs {
 public:
  PackedRhs() noexcept;
  ~PackedRhs();
  PackedRhs(PackedRhs&&) noexcept;
  PackedRhs& operator=(PackedRhs&&) noexcept;
  PackedRhs(const PackedRhs&) = delete;
  PackedRhs& operator=(const PackedRhs&) = delete;

  bool empty() const noexcept { return state_ == nullptr; }
  Dtype dtype() const noexcept;
  Isa isa() const noexcept;
  Layout layout() const noexcept;
  std::int64_t k() const noexcept;  // rows of op(B)
  std::int64_t n() const noexcept;  // columns of op(B)
  std::size_t bytes() const noexcept;

  // Internal.
  const detail::PackedRhsState* state() const noexcept { return state_.get(); }
  explicit PackedRhs(std::unique_ptr<detail::PackedRhsState> state) noexcept;

 private:
  std::unique_ptr<detail::PackedRhsState> state_;
};

// What a gemm call on this context would do, and why (pure: nothing runs).
struct GemmPlan {
  Dtype dtype = Dtype::kF32;
  Isa isa = Isa::kScalar;
  KernelFamily family = KernelFamily::kOptimized;
  std::int64_t m = 0, n = 0, k = 0;  // as the caller gave them
  int mr = 0, nr = 0;                // register tile (canonical row-major)
  std::int64_t mc = 0, nc = 0, kc = 0;
  int width = 1;                     // participants a call may use (executor
                                     // width, lowered by max_threads_per_kernel)
  int workers = 1;
  int tier = 1;
  std::string worker_rule;           // which design.md §Compute resolver rule
  std::string worker_reason;
  std::string grain;                 // the job-grain rule and its numbers
  std::int64_t jobs_per_step = 0;    // n_mc x n_nt of the first column block
  bool shared_a_prepack = false;
  bool direct = false;               // small-problem path: A read in place
  bool direct_packs_b = false;       // ... and B packed once up front (its rows
                                     // 2 KiB or more apart; B not transposed)
  std::string cache_facts;           // where the blocking's cache sizes came from
  std::string to_string() const;     // multi-line, for CLIs and logs
};

Status try_plan_gemm(const Context& context, Dtype dtype, Layout layout,
                     std::int64_t m, std::int64_t n, std::int64_t k,
                     Parallelism parallelism, GemmPlan* out);

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, float alpha, const float* a, std::int64_t lda,
                const float* b, std::int64_t ldb, float beta, float* c,
                std::int64_t ldc, Parallelism parallelism = {});
Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, double alpha, const double* a,
                std::int64_t lda, const double* b, std::int64_t ldb,
                double beta, double* c, std::int64_t ldc,
                Parallelism parallelism = {});

// A triangle of C only (BLAS's SYRK family, and what other libraries call
// gemmt): the same product, but only the elements (i, j) of C with
// i / row_group >= j (Triangle::kLower) or i / row_group <= j
// (Triangle::kUpper) are computed; the rest of C is neither read nor
// written. row_group > 1 keeps the triangle of a matrix whose rows come in
// groups: a complex matrix held as reals, each complex row two real rows
// (row_group 2). Each computed element has the bits try_gemm gives it, for
// every worker count. Validation as try_gemm's, and triangle.part must be
// a Triangle value, triangle.row_group at least 1.
enum class Triangle : std::uint8_t { kLower = 0, kUpper = 1 };
struct GemmTriangle {
  Triangle part = Triangle::kLower;
  std::int64_t row_group = 1;
};
Status try_gemm_triangle(const Context& context, Layout layout, Transpose trans_a,
                         Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                         float alpha, const float* a, std::int64_t lda, const float* b,
                         std::int64_t ldb, float beta, float* c, std::int64_t ldc,
                         GemmTriangle triangle, Parallelism parallelism = {});
Status try_gemm_triangle(const Context& context, Layout layout, Transpose trans_a,
                         Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                         double alpha, const double* a, std::int64_t lda, const double* b,
                         std::int64_t ldb, double beta, double* c, std::int64_t ldc,
                         GemmTriangle triangle, Parallelism parallelism = {});

// A product whose left operand is triangular (BLAS's TRMM out of place):
// C = alpha op(A) op(B) + beta C, A m x m, op(B) m x n. Of A only the
// triangle triangular.part names is used, and not its diagonal when
// triangular.unit_diagonal (ones there): the other elements may hold
// anything, NaN included, and never reach C (A's array still spans all m
// x m elements at lda, as TRMM's does). group > 1 keeps the triangle of a
// matrix of group x group blocks (a complex matrix in 1m's real form,
// each element a 2 x 2 block: 2): A(i, j) is in the lower triangle when i
// / group >= j / group, and a unit diagonal makes each diagonal block the
// identity. The kernels multiply only the depths each register tile's
// rows use, about half the products of the full GEMM. Bits: the same for
// every worker count. Validation as try_gemm's (k = m), triangular.part
// must be a Triangle value, triangular.group at least 1 and a divisor of m.
struct TriangularOperand {
  Triangle part = Triangle::kLower;  // of A as stored, before trans_a
  bool unit_diagonal = false;
  std::int64_t group = 1;
};
Status try_gemm_triangular(const Context& context, Layout layout, Transpose trans_a,
                           Transpose trans_b, std::int64_t m, std::int64_t n, float alpha,
                           const float* a, std::int64_t lda, const float* b, std::int64_t ldb,
                           float beta, float* c, std::int64_t ldc, TriangularOperand triangular,
                           Parallelism parallelism = {});
Status try_gemm_triangular(const Context& context, Layout layout, Transpose trans_a,
                           Transpose trans_b, std::int64_t m, std::int64_t n, double alpha,
                           const double* a, std::int64_t lda, const double* b, std::int64_t ldb,
                           double beta, double* c, std::int64_t ldc, TriangularOperand triangular,
                           Parallelism parallelism = {});

// Packs op(B) (k x n, stored per layout/trans_b with leading dimension ldb)
// for `context`'s ISA level. Needs the optimized family. *out is replaced
// only on success.
// Fused epilogue: C = act(alpha op(A) op(B) + beta C + bias), applied in
// the microkernel's store of the last depth slice (no second pass over C).
// Per element, in this order: x = the value plain try_gemm would store
// (rounded to T); x = x + bias (T addition, skipped without bias); C =
// act(x). bias: per column (length n, bias[j]) or per row (length m,
// bias[i]) of C as the caller sees it, in either layout. relu keeps NaN and
// -0 (x < 0 ? 0 : x); gelu is the tanh form 0.5x(1 + tanh(sqrt(2/pi)(x +
// 0.044715x^3))); sigmoid 1/(1 + e^-x). With k == 0 or alpha == 0, C =
// act(beta C + bias). Bits: same on every worker count; SSE2 == SIMD128.
enum class BiasKind : std::uint8_t { kNone = 0, kPerColumn = 1, kPerRow = 2 };
enum class Activation : std::uint8_t { kNone = 0, kRelu = 1, kGelu = 2, kSigmoid = 3 };
const char* bias_kind_name(BiasKind kind) noexcept;         // "none" / "column" / "row"
const char* activation_name(Activation act) noexcept;       // "none" / "relu" / ...

template <class T>
struct GemmEpilogue {
  const T* bias = nullptr;  // required unless bias_kind == kNone
  BiasKind bias_kind = BiasKind::kNone;
  Activation activation = Activation::kNone;
};

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, float alpha, const float* a, std::int64_t lda,
                const float* b, std::int64_t ldb, float beta, float* c,
                std::int64_t ldc, const GemmEpilogue<float>& epilogue,
                Parallelism parallelism = {});
Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, double alpha, const double* a,
                std::int64_t lda, const double* b, std::int64_t ldb,
                double beta, double* c, std::int64_t ldc,
                const GemmEpilogue<double>& epilogue, Parallelism parallelism = {});

Status try_prepack_rhs(const Context& context, Layout layout,
                       Transpose trans_b, std::int64_t k, std::int64_t n,
                       const float* b, std::int64_t ldb, PackedRhs* out);
Status try_prepack_rhs(const Context& context, Layout layout,
                       Transpose trans_b, std::int64_t k, std::int64_t n,
                       const double* b, std::int64_t ldb, PackedRhs* out);

// gemm with a prepacked op(B): n and k come from `b`; `layout` must be the
// one b was packed with, the dtype must match and the context must use the
// ISA level (and blocking) b was packed for. Bits equal those of the
// unpacked call on the same context.
Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, float alpha, const float* a, std::int64_t lda,
                const PackedRhs& b, float beta, float* c, std::int64_t ldc,
                Parallelism parallelism = {});
Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, double alpha, const double* a,
                std::int64_t lda, const PackedRhs& b, double beta, double* c,
                std::int64_t ldc, Parallelism parallelism = {});
// A triangular left operand (try_gemm_triangular above) against a
// prepacked B, which must be m deep (b.k() == m). TRMM in place packs B
// this way before writing it.
Status try_gemm_triangular(const Context& context, Layout layout, Transpose trans_a,
                           std::int64_t m, float alpha, const float* a, std::int64_t lda,
                           const PackedRhs& b, float beta, float* c, std::int64_t ldc,
                           TriangularOperand triangular, Parallelism parallelism = {});
Status try_gemm_triangular(const Context& context, Layout layout, Transpose trans_a,
                           std::int64_t m, double alpha, const double* a, std::int64_t lda,
                           const PackedRhs& b, double beta, double* c, std::int64_t ldc,
                           TriangularOperand triangular, Parallelism parallelism = {});
// Prepacked B with a fused epilogue (as above).
Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, float alpha, const float* a, std::int64_t lda,
                const PackedRhs& b, float beta, float* c, std::int64_t ldc,
                const GemmEpilogue<float>& epilogue, Parallelism parallelism = {});
Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, double alpha, const double* a,
                std::int64_t lda, const PackedRhs& b, double beta, double* c,
                std::int64_t ldc, const GemmEpilogue<double>& epilogue,
                Parallelism parallelism = {});

#if TESSERA_HAS_EXCEPTIONS
// Throwing forms (tessera::Error carries the Status).
template <class T>
inline void gemm(const Context& context, Layout layout, Transpose trans_a,
                 Transpose trans_b, std::int64_t m, std::int64_t n,
                 std::int64_t k, T alpha, const T* a, std::int64_t lda,
                 const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
                 Parallelism parallelism = {}) {
  throw_if_error(try_gemm(context, layout, trans_a, trans_b, m, n, k, alpha, a,
                          lda, b, ldb, beta, c, ldc, parallelism));
}
template <class T>
inline void gemm(const Context& context, Layout layout, Transpose trans_a,
                 std::int64_t m, T alpha, const T* a, std::int64_t lda,
                 const PackedRhs& b, T beta, T* c, std::int64_t ldc,
                 Parallelism parallelism = {}) {
  throw_if_error(try_gemm(context, layout, trans_a, m, alpha, a, lda, b, beta,
                          c, ldc, parallelism));
}
template <class T>
inline PackedRhs prepack_rhs(const Context& context, Layout layout,
                             Transpose trans_b, std::int64_t k, std::int64_t n,
                             const T* b, std::int64_t ldb) {
  PackedRhs packed;
  throw_if_error(try_prepack_rhs(context, layout, trans_b, k, n, b, ldb, &packed));
  return packed;
}
inline GemmPlan plan_gemm(const Context& context, Dtype dtype, Layout layout,
                          std::int64_t m, std::int64_t n, std::int64_t k,
                          Parallelism parallelism = {}) {
  GemmPlan plan;
  throw_if_error(try_plan_gemm(context, dtype, layout, m, n, k, parallelism, &plan));
  return plan;
}
#endif

}  // namespace tessera
TESSERA_CXX_API_END
