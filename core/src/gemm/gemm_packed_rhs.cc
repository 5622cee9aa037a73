// Prepacked B (PackedRhs): pack op(B) once for a context's ISA level and
// blocking, then multiply many A's by it with the same bits as the plain
// call (the packed panels are the bytes the driver would have packed).
#include <memory>
#include <new>

#include "core/src/base/bandwidth_split.hpp"
#include "core/src/gemm/gemm_call.hpp"
#include "core/src/gemm/gemm_half.hpp"
#include "core/src/gemm/gemm_packed_rhs.hpp"
#include "tessera/gemm.hpp"
#include "tessera/half.hpp"

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

namespace gemm_detail {

template <class T>
Status check_packed_rhs(const detail::ContextState& state, Layout layout, const PackedRhs& packed,
                        const T** data, std::int64_t* n, std::int64_t* k) {
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
  if (pb->table != state.table) {
    return Status::invalid_argument(
        std::string("b was packed for ISA level ") + isa_name(pb->isa) + " (" +
        kernel_family_name(pb->table->family) + ") but the context uses " +
        isa_name(state.table->isa) + " (" + kernel_family_name(state.table->family) +
        "): pack it again with this context");
  }
  const core::GemmKernelSet<T>* ks = kernel_set<T>(*state.table);
  if (ks == nullptr) return Status::internal("kernel table has no gemm kernels");
  const std::int64_t kc = context_blocking(state, *ks).kc;
  if (kc != pb->kc) {
    return Status::invalid_argument("b was packed with depth blocking kc = " + core::str(pb->kc) +
                                    " but the context blocks with kc = " + core::str(kc) +
                                    ": pack it again with this context");
  }
  *data = static_cast<const T*>(pb->data);
  *n = pb->n;
  *k = pb->k;
  return {};
}
template Status check_packed_rhs<float>(const detail::ContextState&, Layout, const PackedRhs&,
                                        const float**, std::int64_t*, std::int64_t*);
template Status check_packed_rhs<double>(const detail::ContextState&, Layout, const PackedRhs&,
                                         const double**, std::int64_t*, std::int64_t*);

namespace {

// `b` holds T, or f16 / bf16 (`storage`, T = float), widened as it is
// packed: the packed bytes are those of the widened B.
template <class T>
Status prepack_impl(const Context& context, Layout layout, Transpose tb,
                    std::int64_t k, std::int64_t n, const void* b,
                    std::int64_t ldb, PackedRhs* out, Storage storage = Storage::kF32) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (out == nullptr) return Status::invalid_argument("out is null");
  TESSERA_RETURN_IF_ERROR(core::check_enums(layout, nullptr, &tb));
  TESSERA_RETURN_IF_ERROR(check_storage(storage, "b"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(k, "k"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(n, "n"));
  TESSERA_RETURN_IF_ERROR(core::check_mnk(1, n, k));
  const bool nb = tb == Transpose::kNo;
  const bool widened = storage != Storage::kF32;
  core::Stored sb{"b", "ldb", b, nb ? k : n, nb ? n : k, ldb};
  TESSERA_RETURN_IF_ERROR(
      core::check_stored(layout, widened ? sizeof(std::uint16_t) : sizeof(T), &sb));
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
  packed->kc = context_blocking(*state, *ks).kc;
  packed->table = state->table;
  const std::int64_t elements = core::packed_size(n, k, packed->panel);
  std::int64_t bytes = 0;
  if (!core::mul_ok(elements, static_cast<std::int64_t>(sizeof(T)), &bytes) ||
      static_cast<std::uint64_t>(bytes) > std::numeric_limits<std::size_t>::max() / 2) {
    return Status::invalid_argument("b (" + core::str(k) + " x " + core::str(n) +
                                    ") is too large to pack on this target");
  }
  packed->bytes = static_cast<std::size_t>(bytes);
  if (bytes > 0) {
    packed->data = ::operator new(packed->bytes, std::align_val_t{64}, std::nothrow);
    if (packed->data == nullptr) {
      return Status(StatusCode::kOutOfMemory,
                    "prepack_rhs: cannot allocate " + core::str(bytes) + " bytes");
    }
    std::int64_t rs, cs;  // op(B)(p, j) = b[p*rs + j*cs]
    core::op_strides(layout, tb, ldb, &rs, &cs);
    // Packed along j (width) by depth p, on either side.
    core::WidenedOperand source;
    if (widened) {
      source.data = static_cast<const std::uint16_t*>(b);
      source.widen = widen_of(*state->table->half, storage);
    }
    // A copy, bound by memory: split by panels on the bandwidth
    // resolver's workers (packing is a pure permutation, so the bytes do
    // not depend on who packs which panel). Packed serially, B of a
    // 1000 x 1000 dtrmm (its one copy, before the product writes B) took
    // 4% of the call's samples on two threads (Zen 4) while the other
    // worker waited 5% more; split, the call went from 11.05-11.56 ms to
    // 10.63-11.16 (OpenBLAS 9.86-10.21).
    const std::int64_t panels = (n + packed->panel - 1) / packed->panel;
    const std::uint64_t copied = 2 * static_cast<std::uint64_t>(bytes);
    const core::BandwidthPlan plan = core::plan_bandwidth_workers(
        *state, copied, static_cast<std::uint64_t>(panels), Parallelism{});
    core::run_bandwidth_split(
        *state, plan.workers, static_cast<std::size_t>(panels), 1,
        [&](std::size_t q0, std::size_t q1) {
          core::pack_whole_panels(*ks, packed->side_a, n, k, packed->kc,
                                  widened ? nullptr : static_cast<const T*>(b), cs, rs,
                                  static_cast<T*>(packed->data), static_cast<std::int64_t>(q0),
                                  static_cast<std::int64_t>(q1), source);
        });
  }
  *out = PackedRhs(std::move(packed));
  return {};
}

template <class T>
Status packed_gemm_impl(const Context& context, Layout layout, Transpose ta,
                        std::int64_t m, T alpha, const T* a, std::int64_t lda,
                        const PackedRhs& packed, T beta, T* c,
                        std::int64_t ldc, Parallelism parallelism,
                        const GemmEpilogue<T>* epilogue = nullptr) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(core::check_enums(layout, &ta, nullptr));
  const T* data = nullptr;
  std::int64_t n = 0, k = 0;
  TESSERA_RETURN_IF_ERROR(check_packed_rhs(*state, layout, packed, &data, &n, &k));
  TESSERA_RETURN_IF_ERROR(core::check_dim(m, "m"));
  TESSERA_RETURN_IF_ERROR(core::check_mnk(m, n, k));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(parallelism));
  const bool na = ta == Transpose::kNo;
  core::Stored sa{"a", "lda", a, na ? m : k, na ? k : m, lda};
  core::Stored sc{"c", "ldc", c, m, n, ldc};
  TESSERA_RETURN_IF_ERROR(core::check_stored(layout, sizeof(T), &sa));
  TESSERA_RETURN_IF_ERROR(core::check_stored(layout, sizeof(T), &sc));
  TESSERA_RETURN_IF_ERROR(core::check_no_alias(sc, sa));

  // The packed operand is canonical B (row-major) or canonical A
  // (column-major, computed transposed); the other side is `a`.
  const bool row = layout == Layout::kRowMajor;
  core::GemmProblem<T> pr = canonical_problem(layout, ta, Transpose::kNo, m, n, k, alpha, a,
                                              lda, static_cast<const T*>(nullptr), 0, beta, c,
                                              ldc);
  if (epilogue != nullptr) {
    TESSERA_RETURN_IF_ERROR(check_epilogue(*epilogue, layout, m, n, c, ldc, &pr.epilogue));
  }
  return run_canonical(*state, pr, parallelism, row ? static_cast<const T*>(nullptr) : data,
                       row ? data : static_cast<const T*>(nullptr));
}

}  // namespace
}  // namespace gemm_detail

Status try_prepack_rhs(const Context& context, Layout layout,
                       Transpose trans_b, std::int64_t k, std::int64_t n,
                       const float* b, std::int64_t ldb, PackedRhs* out) {
  return gemm_detail::prepack_impl<float>(context, layout, trans_b, k, n, b, ldb, out);
}

Status try_prepack_rhs(const Context& context, Layout layout,
                       Transpose trans_b, std::int64_t k, std::int64_t n,
                       const double* b, std::int64_t ldb, PackedRhs* out) {
  return gemm_detail::prepack_impl<double>(context, layout, trans_b, k, n, b, ldb, out);
}

Status try_prepack_rhs(const Context& context, Layout layout, Transpose trans_b,
                       std::int64_t k, std::int64_t n, GemmInput b, PackedRhs* out) {
  return gemm_detail::prepack_impl<float>(context, layout, trans_b, k, n, b.data, b.ld, out,
                                          b.storage);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, float alpha, const float* a, std::int64_t lda,
                const PackedRhs& b, float beta, float* c, std::int64_t ldc,
                Parallelism parallelism) {
  return gemm_detail::packed_gemm_impl(context, layout, trans_a, m, alpha, a, lda, b, beta, c,
                          ldc, parallelism);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, double alpha, const double* a,
                std::int64_t lda, const PackedRhs& b, double beta, double* c,
                std::int64_t ldc, Parallelism parallelism) {
  return gemm_detail::packed_gemm_impl(context, layout, trans_a, m, alpha, a, lda, b, beta, c,
                          ldc, parallelism);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, float alpha, const float* a, std::int64_t lda,
                const PackedRhs& b, float beta, float* c, std::int64_t ldc,
                const GemmEpilogue<float>& epilogue, Parallelism parallelism) {
  return gemm_detail::packed_gemm_impl(context, layout, trans_a, m, alpha, a, lda, b, beta, c,
                                       ldc, parallelism, &epilogue);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a,
                std::int64_t m, double alpha, const double* a,
                std::int64_t lda, const PackedRhs& b, double beta, double* c,
                std::int64_t ldc, const GemmEpilogue<double>& epilogue,
                Parallelism parallelism) {
  return gemm_detail::packed_gemm_impl(context, layout, trans_a, m, alpha, a, lda, b, beta, c,
                                       ldc, parallelism, &epilogue);
}

}  // namespace tessera
