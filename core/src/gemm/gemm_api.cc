// The public GEMM entry points: validate every argument (design.md §Bad input),
// reduce the call to the canonical row-major problem, handle the BLAS trivial
// cases, then hand the problem to the naive reference or the packed driver.
#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <string>

#include "core/src/api/context_state.hpp"
#include "core/src/api/validate.hpp"
#include "core/src/gemm/gemm_blocking.hpp"
#include "core/src/gemm/gemm_driver.hpp"
#include "core/src/registry/kernel_registry.hpp"
#include "tessera/gemm.hpp"
#include "tessera/platform/cpu_features.hpp"

namespace tessera {

namespace detail {

struct PackedRhsState {
  Dtype dtype = Dtype::kF32;
  Isa isa = Isa::kScalar;
  Layout layout = Layout::kRowMajor;
  std::int64_t k = 0, n = 0;
  // Column-major products are computed transposed, so there op(B)^T is the
  // canonical A (mr panels); row-major ones keep op(B) as B (nr panels).
  bool side_a = false;
  int panel = 0;
  std::int64_t kc = 0;
  const core::KernelTable* table = nullptr;
  void* data = nullptr;
  std::size_t bytes = 0;

  ~PackedRhsState() {
    if (data != nullptr) ::operator delete(data, std::align_val_t{64});
  }
};

}  // namespace detail

const char* layout_name(Layout layout) noexcept {
  switch (layout) {
    case Layout::kRowMajor: return "row-major";
    case Layout::kColMajor: return "column-major";
  }
  return "unknown";
}

const char* transpose_name(Transpose trans) noexcept {
  switch (trans) {
    case Transpose::kNo: return "N";
    case Transpose::kYes: return "T";
  }
  return "unknown";
}

const char* dtype_name(Dtype dtype) noexcept {
  switch (dtype) {
    case Dtype::kF32: return "f32";
    case Dtype::kF64: return "f64";
  }
  return "unknown";
}

PackedRhs::PackedRhs() noexcept = default;
PackedRhs::~PackedRhs() = default;
PackedRhs::PackedRhs(PackedRhs&&) noexcept = default;
PackedRhs& PackedRhs::operator=(PackedRhs&&) noexcept = default;
PackedRhs::PackedRhs(std::unique_ptr<detail::PackedRhsState> state) noexcept
    : state_(std::move(state)) {}
Dtype PackedRhs::dtype() const noexcept { return state_ ? state_->dtype : Dtype::kF32; }
Isa PackedRhs::isa() const noexcept { return state_ ? state_->isa : Isa::kScalar; }
Layout PackedRhs::layout() const noexcept { return state_ ? state_->layout : Layout::kRowMajor; }
std::int64_t PackedRhs::k() const noexcept { return state_ ? state_->k : 0; }
std::int64_t PackedRhs::n() const noexcept { return state_ ? state_->n : 0; }
std::size_t PackedRhs::bytes() const noexcept { return state_ ? state_->bytes : 0; }

namespace {

using core::GemmProblem;

constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();

#if defined(__GNUC__) || defined(__clang__)
#define TESSERA_QUICK_INLINE __attribute__((always_inline))
#else
#define TESSERA_QUICK_INLINE
#endif

std::string str(std::int64_t v) { return std::to_string(v); }

// a*b into *out; false on overflow (both >= 0).
bool mul_ok(std::int64_t a, std::int64_t b, std::int64_t* out) {
  if (a != 0 && b > kI64Max / a) return false;
  *out = a * b;
  return true;
}

Status check_enums(Layout layout, const Transpose* ta, const Transpose* tb) {
  if (layout != Layout::kRowMajor && layout != Layout::kColMajor) {
    return Status::invalid_argument("layout is not a Layout value (got " +
                                    str(static_cast<int>(layout)) + ")");
  }
  if (ta != nullptr && *ta != Transpose::kNo && *ta != Transpose::kYes) {
    return Status::invalid_argument("trans_a is not a Transpose value (got " +
                                    str(static_cast<int>(*ta)) + ")");
  }
  if (tb != nullptr && *tb != Transpose::kNo && *tb != Transpose::kYes) {
    return Status::invalid_argument("trans_b is not a Transpose value (got " +
                                    str(static_cast<int>(*tb)) + ")");
  }
  return {};
}

Status check_dim(std::int64_t v, const char* name) {
  if (v < 0) {
    return Status::invalid_argument(std::string(name) + " must be >= 0 (got " + str(v) + ")");
  }
  return {};
}

Status check_parallelism(Parallelism p) {
  if (p.raw() < -1) {
    return Status::invalid_argument("parallelism: threads(" + str(p.raw()) +
                                    ") is negative; use Parallelism::serial() or threads(n >= 0)");
  }
  return {};
}

Status check_mnk(std::int64_t m, std::int64_t n, std::int64_t k) {
  std::int64_t mn = 0, mnk = 0;
  if (!mul_ok(m, n, &mn) || !mul_ok(mn, k, &mnk)) {
    return Status::invalid_argument("m*n*k overflows 64 bits (m = " + str(m) + ", n = " +
                                    str(n) + ", k = " + str(k) + ")");
  }
  return {};
}

// One matrix as stored: rows x cols, leading dimension ld, per layout.
struct Stored {
  const char* name;     // "a"
  const char* ld_name;  // "lda"
  const void* data;
  std::int64_t rows, cols, ld;
  std::size_t bytes = 0;  // accessed byte range, filled by check_stored
};

Status check_stored(Layout layout, std::size_t element, Stored* s) {
  const std::int64_t line = layout == Layout::kRowMajor ? s->cols : s->rows;
  const std::int64_t lines = layout == Layout::kRowMajor ? s->rows : s->cols;
  if (s->ld < std::max<std::int64_t>(1, line)) {
    return Status::invalid_argument(
        std::string(s->ld_name) + " = " + str(s->ld) + " is smaller than " +
        (layout == Layout::kRowMajor ? "the row length " : "the column length ") +
        str(std::max<std::int64_t>(1, line)) + " of " + s->name + " (" + str(s->rows) +
        " x " + str(s->cols) + ", " + layout_name(layout) + ")");
  }
  if (s->rows == 0 || s->cols == 0) {
    s->bytes = 0;
    return {};
  }
  // Elements spanned: (lines - 1) * ld + line, then bytes; both must fit.
  std::int64_t span = 0;
  const std::int64_t limit =
      static_cast<std::int64_t>(std::min<std::uint64_t>(
          static_cast<std::uint64_t>(kI64Max),
          std::numeric_limits<std::size_t>::max() / 2)) /
      static_cast<std::int64_t>(element);
  if (!mul_ok(lines - 1, s->ld, &span) || span > limit - line) {
    return Status::invalid_argument(std::string(s->name) + " (" + str(s->rows) + " x " +
                                    str(s->cols) + ", " + s->ld_name + " = " + str(s->ld) +
                                    ") spans more memory than this target can address");
  }
  span += line;
  s->bytes = static_cast<std::size_t>(span) * element;
  if (s->data == nullptr) {
    return Status::invalid_argument(std::string(s->name) + " is null but is " + str(s->rows) +
                                    " x " + str(s->cols));
  }
  return {};
}

Status check_no_alias(const Stored& c, const Stored& in) {
  if (core::ranges_overlap(c.data, c.bytes, in.data, in.bytes)) {
    return Status::invalid_argument(std::string(c.name) + " overlaps " + in.name +
                                    ": the output must not share memory with an input");
  }
  return {};
}

// The whole of the checks below as plain integer tests, no strings: true
// means every full check would pass. Conservative: dimensions of 2^20 or
// more (and leading dimensions of 2^31 or more) are left to the full
// checks, so nothing here can overflow. Keeps validation off the profile
// of small products. Inlined into the caller, whose arguments are already
// in registers: as a call its fourteen arguments went through the stack
// (~4 ns of the ~50 ns fixed cost of a small product).
TESSERA_QUICK_INLINE inline bool quick_valid(
    Layout layout, Transpose ta, Transpose tb, std::int64_t m, std::int64_t n, std::int64_t k,
    const void* a, std::int64_t lda, const void* b, std::int64_t ldb, const void* c,
    std::int64_t ldc, Parallelism parallelism, std::size_t element) {
  constexpr std::uint64_t kDimLimit = std::uint64_t{1} << 20;
  constexpr std::uint64_t kLdLimit = std::uint64_t{1} << 31;
  // Unsigned compares also reject negative values.
  if ((static_cast<unsigned>(layout) | static_cast<unsigned>(ta) | static_cast<unsigned>(tb)) > 1 ||
      parallelism.raw() < -1 || static_cast<std::uint64_t>(m) >= kDimLimit ||
      static_cast<std::uint64_t>(n) >= kDimLimit || static_cast<std::uint64_t>(k) >= kDimLimit ||
      static_cast<std::uint64_t>(lda) >= kLdLimit || static_cast<std::uint64_t>(ldb) >= kLdLimit ||
      static_cast<std::uint64_t>(ldc) >= kLdLimit) {
    return false;
  }
  const bool row = layout == Layout::kRowMajor;
  // Stored (rows, cols) -> leading dimension check and accessed byte span.
  auto span = [&](std::uint64_t rows, std::uint64_t cols, std::uint64_t ld, const void* p,
                  std::uint64_t* bytes) TESSERA_QUICK_INLINE {
    const std::uint64_t line = row ? cols : rows;
    const std::uint64_t lines = row ? rows : cols;
    if (ld < (line > 1 ? line : 1)) return false;
    *bytes = rows == 0 || cols == 0 ? 0 : ((lines - 1) * ld + line) * element;
    return *bytes == 0 || p != nullptr;
  };
  const bool na = ta == Transpose::kNo, nb = tb == Transpose::kNo;
  std::uint64_t ba, bb, bc;
  if (!span(na ? m : k, na ? k : m, lda, a, &ba) || !span(nb ? k : n, nb ? n : k, ldb, b, &bb) ||
      !span(m, n, ldc, c, &bc) || (ba | bb | bc) > std::numeric_limits<std::size_t>::max() / 2) {
    return false;
  }
  // C shares no byte with A or B (empty ranges never overlap).
  const auto ic = reinterpret_cast<std::uintptr_t>(c);
  const auto ia = reinterpret_cast<std::uintptr_t>(a);
  const auto ib = reinterpret_cast<std::uintptr_t>(b);
  const bool overlap_a = bc != 0 && ba != 0 && ic < ia + ba && ia < ic + bc;
  const bool overlap_b = bc != 0 && bb != 0 && ic < ib + bb && ib < ic + bc;
  return !overlap_a && !overlap_b;
}

// Strides of op(X)(r, c) for X as stored: element at x[r*rs + c*cs].
void op_strides(Layout layout, Transpose t, std::int64_t ld, std::int64_t* rs,
                std::int64_t* cs) {
  const bool row = layout == Layout::kRowMajor;
  const bool trans = t == Transpose::kYes;
  if (row != trans) {
    *rs = ld;
    *cs = 1;
  } else {
    *rs = 1;
    *cs = ld;
  }
}

// C = beta*C over the canonical m x n, the whole result when k == 0 or
// alpha == 0 (BLAS: A and B are not read).
template <class T>
void scale_c(const GemmProblem<T>& pr) {
  if (pr.beta == T(1)) return;
  for (std::int64_t i = 0; i < pr.m; ++i) {
    T* row = pr.c + i * pr.ldc;
    if (pr.beta == T(0)) {
      std::fill(row, row + pr.n, T(0));
    } else {
      for (std::int64_t j = 0; j < pr.n; ++j) row[j] = pr.beta * row[j];
    }
  }
}

template <class T>
const core::GemmKernelSet<T>* kernel_set(const core::KernelTable& table);
template <>
const core::GemmKernelSet<float>* kernel_set<float>(const core::KernelTable& t) {
  return t.gemm.f32;
}
template <>
const core::GemmKernelSet<double>* kernel_set<double>(const core::KernelTable& t) {
  return t.gemm.f64;
}

template <class T>
core::NaiveGemmFn<T> naive_fn(const core::KernelTable& table);
template <>
core::NaiveGemmFn<float> naive_fn<float>(const core::KernelTable& t) {
  return t.gemm.naive_f32;
}
template <>
core::NaiveGemmFn<double> naive_fn<double>(const core::KernelTable& t) {
  return t.gemm.naive_f64;
}

template <class T>
constexpr Dtype dtype_of() {
  return sizeof(T) == 4 ? Dtype::kF32 : Dtype::kF64;
}

// The blocking of a kernel set, computed once per registered set (it
// depends only on the tile and the process's cache facts) and looked up by
// the table's ISA level on every call.
template <class T>
core::GemmBlocking blocking_of(const core::GemmKernelSet<T>& ks) {
  return core::gemm_blocking(ks.mr, ks.nr, sizeof(T), ks.blocking, core::host_cache_facts());
}

template <class T>
const core::GemmBlocking& cached_blocking(const core::KernelTable& table) {
  struct Cache {
    core::GemmBlocking by_isa[kIsaCount];
  };
  static const Cache cache = [] {
    Cache c{};
    for (const core::KernelTable* t : core::registered_tables()) {
      if (t->family != KernelFamily::kOptimized) continue;
      if (const core::GemmKernelSet<T>* set = kernel_set<T>(*t)) {
        c.by_isa[static_cast<int>(t->isa)] = blocking_of(*set);
      }
    }
    return c;
  }();
  return cache.by_isa[static_cast<int>(table.isa)];
}

// The L2 size the direct-path rule uses: the cache facts on cache-model
// levels; a fixed 256 KiB on the portable levels, which have no cache facts
// in wasm (the choice never changes the bits, only the speed).
template <class T>
std::uint64_t l2_of(const core::GemmKernelSet<T>& ks) {
  return ks.blocking == core::GemmBlockingRule::kFixedPortable ? 256 * 1024
                                                               : core::host_cache_facts().l2;
}

// decide_gemm's request for a canonical m x n x k problem on `state`: the
// one place a call and a plan (try_plan_gemm) describe their problem, so
// the plan shows exactly what the call runs.
template <class T>
core::GemmRequest gemm_request(const detail::ContextState& state,
                               const core::GemmKernelSet<T>& ks,
                               const core::GemmBlocking& blocking, std::int64_t m,
                               std::int64_t n, std::int64_t k, Parallelism parallelism,
                               bool a_prepacked, bool explain) {
  core::GemmRequest r;
  r.m = m, r.n = n, r.k = k;
  r.mr = ks.mr, r.nr = ks.nr;
  r.cache_blocking = blocking;
  r.direct_ok = ks.direct != nullptr && !a_prepacked;
  r.direct_mr = ks.direct_mr;
  r.direct_fits = core::direct_suits(m, n, k, blocking.kc, ks.nr, sizeof(T), l2_of(ks));
  r.a_prepacked = a_prepacked;
  r.parallelism = parallelism;
  r.width = state.kernel_width();
  r.pool_width = state.executor->width();
  r.pool_classes = state.resolved.pool_classes;
  r.nested = state.nested_call();
  r.knobs = state.compute_knobs;
  r.explain = explain;
  return r;
}

// Runs a validated, non-trivial canonical problem. Inlined (like gemm_impl
// into try_gemm): a 8 x 32 x 1 product took 50 ns through the separate
// calls and 45 ns without them.
template <class T>
TESSERA_QUICK_INLINE inline Status execute(const detail::ContextState& state,
                                           const GemmProblem<T>& pr, Parallelism parallelism,
                                           const T* packed_a, const T* packed_b) {
  if (state.table->family == KernelFamily::kNaive) {
    const core::NaiveGemmFn<T> fn = naive_fn<T>(*state.table);
    if (fn == nullptr) return Status::internal("naive table has no gemm");
    fn(pr);
    return {};
  }
  const core::GemmKernelSet<T>* ks = kernel_set<T>(*state.table);
  if (ks == nullptr) {
    return Status::internal(std::string("kernel table ") + isa_name(state.table->isa) +
                            " has no gemm " + dtype_name(dtype_of<T>()));
  }
  const core::GemmBlocking& blocking = cached_blocking<T>(*state.table);
  const core::GemmRequest request = gemm_request(state, *ks, blocking, pr.m, pr.n, pr.k,
                                                 parallelism, packed_a != nullptr, false);
  // Small products the serial gate keeps on the caller go straight to the
  // direct path: exactly the calls decide_gemm would send there, without
  // building a plan.
  if (request.direct_ok && request.direct_fits) {
    const std::uint64_t mnk = static_cast<std::uint64_t>(pr.m) *
                              static_cast<std::uint64_t>(pr.n) * static_cast<std::uint64_t>(pr.k);
    if (parallelism.is_serial() || core::below_serial_gate(mnk, request.knobs)) {
      return core::run_direct(*ks, pr, blocking.kc, packed_b);
    }
  }
  const core::GemmDecision decision = core::decide_gemm(request);
  if (decision.direct) {
    if (decision.compute.workers == 1) {
      return core::run_direct(*ks, pr, decision.blocking.kc, packed_b);
    }
    return core::run_direct_parallel(*ks, pr, decision, packed_b, state.executor);
  }
  return core::run_gemm(*ks, pr, decision, packed_a, packed_b, state.executor);
}

template <class T>
TESSERA_QUICK_INLINE inline Status gemm_impl(const Context& context, Layout layout,
                                             Transpose ta, Transpose tb, std::int64_t m,
                                             std::int64_t n, std::int64_t k, T alpha, const T* a,
                                             std::int64_t lda, const T* b, std::int64_t ldb,
                                             T beta, T* c, std::int64_t ldc,
                 Parallelism parallelism) {
  const detail::ContextState* state = context.state();
  if (state == nullptr) TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (!quick_valid(layout, ta, tb, m, n, k, a, lda, b, ldb, c, ldc, parallelism,
                   sizeof(T))) {
    // Something is off (or too large for the quick check): the full checks
    // find it and name it.
    TESSERA_RETURN_IF_ERROR(check_enums(layout, &ta, &tb));
    TESSERA_RETURN_IF_ERROR(check_dim(m, "m"));
    TESSERA_RETURN_IF_ERROR(check_dim(n, "n"));
    TESSERA_RETURN_IF_ERROR(check_dim(k, "k"));
    TESSERA_RETURN_IF_ERROR(check_mnk(m, n, k));
    TESSERA_RETURN_IF_ERROR(check_parallelism(parallelism));
    const bool na = ta == Transpose::kNo, nb = tb == Transpose::kNo;
    Stored sa{"a", "lda", a, na ? m : k, na ? k : m, lda};
    Stored sb{"b", "ldb", b, nb ? k : n, nb ? n : k, ldb};
    Stored sc{"c", "ldc", c, m, n, ldc};
    TESSERA_RETURN_IF_ERROR(check_stored(layout, sizeof(T), &sa));
    TESSERA_RETURN_IF_ERROR(check_stored(layout, sizeof(T), &sb));
    TESSERA_RETURN_IF_ERROR(check_stored(layout, sizeof(T), &sc));
    TESSERA_RETURN_IF_ERROR(check_no_alias(sc, sa));
    TESSERA_RETURN_IF_ERROR(check_no_alias(sc, sb));
  }

  if (m == 0 || n == 0) return {};
  GemmProblem<T> pr;
  pr.k = k;
  pr.alpha = alpha;
  pr.beta = beta;
  pr.c = c;
  pr.ldc = ldc;
  std::int64_t rs_a, cs_a, rs_b, cs_b;
  op_strides(layout, ta, lda, &rs_a, &cs_a);
  op_strides(layout, tb, ldb, &rs_b, &cs_b);
  if (layout == Layout::kRowMajor) {
    pr.m = m;
    pr.n = n;
    pr.a = a, pr.rs_a = rs_a, pr.cs_a = cs_a;
    pr.b = b, pr.rs_b = rs_b, pr.cs_b = cs_b;
  } else {
    // C^T (n x m, row-major with ldc) = op(B)^T op(A)^T.
    pr.m = n;
    pr.n = m;
    pr.a = b, pr.rs_a = cs_b, pr.cs_a = rs_b;
    pr.b = a, pr.rs_b = cs_a, pr.cs_b = rs_a;
  }
  if (k == 0 || alpha == T(0)) {
    scale_c(pr);
    return {};
  }
  return execute(*state, pr, parallelism, static_cast<const T*>(nullptr),
                 static_cast<const T*>(nullptr));
}

template <class T>
Status prepack_impl(const Context& context, Layout layout, Transpose tb,
                    std::int64_t k, std::int64_t n, const T* b,
                    std::int64_t ldb, PackedRhs* out) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (out == nullptr) return Status::invalid_argument("out is null");
  TESSERA_RETURN_IF_ERROR(check_enums(layout, nullptr, &tb));
  TESSERA_RETURN_IF_ERROR(check_dim(k, "k"));
  TESSERA_RETURN_IF_ERROR(check_dim(n, "n"));
  TESSERA_RETURN_IF_ERROR(check_mnk(1, n, k));
  const bool nb = tb == Transpose::kNo;
  Stored sb{"b", "ldb", b, nb ? k : n, nb ? n : k, ldb};
  TESSERA_RETURN_IF_ERROR(check_stored(layout, sizeof(T), &sb));
  if (state->table->family == KernelFamily::kNaive) {
    return Status::unsupported(
        "prepack_rhs: the naive family has no packed format (use an optimized context)");
  }
  const core::GemmKernelSet<T>* ks = kernel_set<T>(*state->table);
  if (ks == nullptr) return Status::internal("kernel table has no gemm kernels");

  auto packed = std::make_unique<detail::PackedRhsState>();
  packed->dtype = dtype_of<T>();
  packed->isa = state->table->isa;
  packed->layout = layout;
  packed->k = k;
  packed->n = n;
  packed->side_a = layout == Layout::kColMajor;
  packed->panel = packed->side_a ? ks->mr : ks->nr;
  packed->kc = blocking_of(*ks).kc;
  packed->table = state->table;
  const std::int64_t elements = core::packed_size(n, k, packed->panel);
  std::int64_t bytes = 0;
  if (!mul_ok(elements, static_cast<std::int64_t>(sizeof(T)), &bytes) ||
      static_cast<std::uint64_t>(bytes) > std::numeric_limits<std::size_t>::max() / 2) {
    return Status::invalid_argument("b (" + str(k) + " x " + str(n) +
                                    ") is too large to pack on this target");
  }
  packed->bytes = static_cast<std::size_t>(bytes);
  if (bytes > 0) {
    packed->data = ::operator new(packed->bytes, std::align_val_t{64}, std::nothrow);
    if (packed->data == nullptr) {
      return Status(StatusCode::kOutOfMemory,
                    "prepack_rhs: cannot allocate " + str(bytes) + " bytes");
    }
    std::int64_t rs, cs;  // op(B)(p, j) = b[p*rs + j*cs]
    op_strides(layout, tb, ldb, &rs, &cs);
    // Packed along j (width) by depth p, on either side.
    core::pack_whole(*ks, packed->side_a, n, k, packed->kc, b, cs, rs,
                     static_cast<T*>(packed->data));
  }
  *out = PackedRhs(std::move(packed));
  return {};
}

template <class T>
Status packed_gemm_impl(const Context& context, Layout layout, Transpose ta,
                        std::int64_t m, T alpha, const T* a, std::int64_t lda,
                        const PackedRhs& packed, T beta, T* c,
                        std::int64_t ldc, Parallelism parallelism) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(check_enums(layout, &ta, nullptr));
  const detail::PackedRhsState* pb = packed.state();
  if (pb == nullptr) return Status::invalid_argument("b is an empty PackedRhs");
  if (pb->dtype != dtype_of<T>()) {
    return Status::invalid_argument(std::string("b was packed as ") + dtype_name(pb->dtype) +
                                    " but this call is " + dtype_name(dtype_of<T>()));
  }
  if (pb->layout != layout) {
    return Status::invalid_argument(std::string("layout is ") + layout_name(layout) +
                                    " but b was packed for " + layout_name(pb->layout));
  }
  if (pb->table != state->table) {
    return Status::invalid_argument(
        std::string("b was packed for ISA level ") + isa_name(pb->isa) + " (" +
        kernel_family_name(pb->table->family) + ") but the context uses " +
        isa_name(state->table->isa) + " (" + kernel_family_name(state->table->family) +
        "): pack it again with this context");
  }
  const core::GemmKernelSet<T>* ks = kernel_set<T>(*state->table);
  if (ks == nullptr) return Status::internal("kernel table has no gemm kernels");
  const std::int64_t kc = blocking_of(*ks).kc;
  if (kc != pb->kc) {
    return Status::invalid_argument("b was packed with depth blocking kc = " + str(pb->kc) +
                                    " but the context blocks with kc = " + str(kc) +
                                    ": pack it again with this context");
  }
  const std::int64_t n = pb->n, k = pb->k;
  TESSERA_RETURN_IF_ERROR(check_dim(m, "m"));
  TESSERA_RETURN_IF_ERROR(check_mnk(m, n, k));
  TESSERA_RETURN_IF_ERROR(check_parallelism(parallelism));
  const bool na = ta == Transpose::kNo;
  Stored sa{"a", "lda", a, na ? m : k, na ? k : m, lda};
  Stored sc{"c", "ldc", c, m, n, ldc};
  TESSERA_RETURN_IF_ERROR(check_stored(layout, sizeof(T), &sa));
  TESSERA_RETURN_IF_ERROR(check_stored(layout, sizeof(T), &sc));
  TESSERA_RETURN_IF_ERROR(check_no_alias(sc, sa));

  if (m == 0 || n == 0) return {};
  GemmProblem<T> pr;
  pr.k = k;
  pr.alpha = alpha;
  pr.beta = beta;
  pr.c = c;
  pr.ldc = ldc;
  std::int64_t rs_a, cs_a;
  op_strides(layout, ta, lda, &rs_a, &cs_a);
  const T* data = static_cast<const T*>(pb->data);
  const T* packed_a = nullptr;
  const T* packed_b = nullptr;
  if (layout == Layout::kRowMajor) {
    pr.m = m, pr.n = n;
    pr.a = a, pr.rs_a = rs_a, pr.cs_a = cs_a;
    packed_b = data;
  } else {
    pr.m = n, pr.n = m;
    pr.b = a, pr.rs_b = cs_a, pr.cs_b = rs_a;
    packed_a = data;
  }
  if (k == 0 || alpha == T(0)) {
    scale_c(pr);
    return {};
  }
  return execute(*state, pr, parallelism, packed_a, packed_b);
}

}  // namespace

std::string GemmPlan::to_string() const {
  std::string s;
  s += std::string("gemm ") + dtype_name(dtype) + " " + str(m) + " x " + str(n) + " x " +
       str(k) + " on " + isa_name(isa) + " (" + kernel_family_name(family) + ")\n";
  if (family == KernelFamily::kNaive) {
    s += "  naive reference: serial triple loop, double accumulation\n";
    return s;
  }
  s += "  tile mr x nr = " + str(mr) + " x " + str(nr) + "; blocking mc = " + str(mc) +
       ", nc = " + str(nc) + ", kc = " + str(kc) + "\n";
  s += "  workers " + str(workers) + " of width " + str(width) + ", tier " + str(tier) +
       " (" + worker_rule + "): " + worker_reason + "\n";
  if (direct) {
    s += "  direct path: A and B read in place (no packing); " + str(jobs_per_step) +
         " C tiles" + (workers > 1 ? ", " + grain : std::string()) + "\n";
  } else {
    s += "  jobs per step " + str(jobs_per_step) + ", " + grain +
         (shared_a_prepack ? ", shared A prepack" : ", private A packing") + "\n";
  }
  s += "  cache facts: " + cache_facts + "\n";
  return s;
}

Status try_plan_gemm(const Context& context, Dtype dtype, Layout layout,
                     std::int64_t m, std::int64_t n, std::int64_t k,
                     Parallelism parallelism, GemmPlan* out) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (out == nullptr) return Status::invalid_argument("out is null");
  TESSERA_RETURN_IF_ERROR(check_enums(layout, nullptr, nullptr));
  if (dtype != Dtype::kF32 && dtype != Dtype::kF64) {
    return Status::invalid_argument("dtype is not a Dtype value");
  }
  TESSERA_RETURN_IF_ERROR(check_dim(m, "m"));
  TESSERA_RETURN_IF_ERROR(check_dim(n, "n"));
  TESSERA_RETURN_IF_ERROR(check_dim(k, "k"));
  TESSERA_RETURN_IF_ERROR(check_mnk(m, n, k));
  TESSERA_RETURN_IF_ERROR(check_parallelism(parallelism));
  GemmPlan plan;
  plan.dtype = dtype;
  plan.isa = state->table->isa;
  plan.family = state->table->family;
  plan.m = m, plan.n = n, plan.k = k;
  plan.width = state->kernel_width();
  if (plan.family == KernelFamily::kNaive) {
    plan.worker_rule = "naive";
    plan.worker_reason = "the naive reference is serial";
    *out = plan;
    return {};
  }
  const std::int64_t cm = layout == Layout::kRowMajor ? m : n;
  const std::int64_t cn = layout == Layout::kRowMajor ? n : m;
  auto fill = [&](auto* ks) {
    if (ks == nullptr) return Status::internal("kernel table has no gemm kernels");
    const core::GemmDecision d = core::decide_gemm(
        gemm_request(*state, *ks, blocking_of(*ks), cm, cn, k, parallelism, false, true));
    plan.mr = ks->mr, plan.nr = ks->nr;
    plan.mc = d.blocking.mc, plan.nc = d.blocking.nc, plan.kc = d.blocking.kc;
    plan.workers = d.compute.workers;
    plan.tier = d.compute.tier;
    plan.worker_rule = core::compute_rule_name(d.compute.rule);
    plan.worker_reason = d.compute.reason;
    plan.grain = d.grain.to_string();
    plan.jobs_per_step = d.jobs_first_step;
    plan.shared_a_prepack = d.shared_a;
    plan.direct = d.direct;
    if (d.direct) plan.mr = ks->direct_mr;
    plan.cache_facts = ks->blocking == core::GemmBlockingRule::kFixedPortable
                           ? "not used (fixed portable blocking table)"
                           : core::host_cache_facts().source;
    return Status();
  };
  if (dtype == Dtype::kF32) {
    TESSERA_RETURN_IF_ERROR(fill(state->table->gemm.f32));
  } else {
    TESSERA_RETURN_IF_ERROR(fill(state->table->gemm.f64));
  }
  *out = plan;
  return {};
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, float alpha, const float* a, std::int64_t lda,
                const float* b, std::int64_t ldb, float beta, float* c,
                std::int64_t ldc, Parallelism parallelism) {
  return gemm_impl(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                   ldb, beta, c, ldc, parallelism);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, double alpha, const double* a,
                std::int64_t lda, const double* b, std::int64_t ldb,
                double beta, double* c, std::int64_t ldc,
                Parallelism parallelism) {
  return gemm_impl(context, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                   ldb, beta, c, ldc, parallelism);
}

Status try_prepack_rhs(const Context& context, Layout layout,
                       Transpose trans_b, std::int64_t k, std::int64_t n,
                       const float* b, std::int64_t ldb, PackedRhs* out) {
  return prepack_impl(context, layout, trans_b, k, n, b, ldb, out);
}

Status try_prepack_rhs(const Context& context, Layout layout,
                       Transpose trans_b, std::int64_t k, std::int64_t n,
                       const double* b, std::int64_t ldb, PackedRhs* out) {
  return prepack_impl(context, layout, trans_b, k, n, b, ldb, out);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, float alpha, const float* a, std::int64_t lda,
                const PackedRhs& b, float beta, float* c, std::int64_t ldc,
                Parallelism parallelism) {
  return packed_gemm_impl(context, layout, trans_a, m, alpha, a, lda, b, beta, c,
                          ldc, parallelism);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, double alpha, const double* a,
                std::int64_t lda, const PackedRhs& b, double beta, double* c,
                std::int64_t ldc, Parallelism parallelism) {
  return packed_gemm_impl(context, layout, trans_a, m, alpha, a, lda, b, beta, c,
                          ldc, parallelism);
}

}  // namespace tessera
