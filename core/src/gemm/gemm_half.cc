// GEMM on f16 / bf16 operands (tessera/half.hpp, design.md §Half
// precision), exact mode: validate every argument, reduce the call to the
// canonical f32 problem with its 16-bit sides as widened sources, and run
// the packed path, which widens them panel by panel as it packs
// (run_gemm), so the f32 kernels see the panels of the widened operands.
// A 16-bit C is computed in an f32 copy and rounded into C once the
// product has succeeded.
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "core/src/base/validate.hpp"
#include "core/src/base/workspace.hpp"
#include "core/src/gemm/gemm_call.hpp"
#include "core/src/gemm/gemm_half.hpp"
#include "core/src/gemm/gemm_packed_rhs.hpp"
#include "tessera/half.hpp"

namespace tessera {

const char* storage_name(Storage storage) noexcept {
  switch (storage) {
    case Storage::kF32: return "f32";
    case Storage::kF16: return "f16";
    case Storage::kBf16: return "bf16";
  }
  return "unknown";
}

const char* half_gemm_mode_name(HalfGemmMode mode) noexcept {
  switch (mode) {
    case HalfGemmMode::kExact: return "exact";
    case HalfGemmMode::kFast: return "fast";
  }
  return "unknown";
}

namespace gemm_detail {

Status check_storage(Storage storage, const char* name) {
  const auto value = static_cast<unsigned>(storage);
  if (value > static_cast<unsigned>(Storage::kBf16)) {
    return Status::invalid_argument(std::string(name) + ".storage is not a Storage value (got " +
                                    std::to_string(value) + ")");
  }
  return {};
}

core::WidenFn widen_of(const core::HalfKernels& kernels, Storage storage) {
  return storage == Storage::kF16 ? kernels.f16_to_f32 : kernels.bf16_to_f32;
}

namespace {

std::size_t storage_bytes(Storage storage) {
  return storage == Storage::kF32 ? sizeof(float) : sizeof(std::uint16_t);
}

core::NarrowFn narrow_of(const core::HalfKernels& kernels, Storage storage) {
  return storage == Storage::kF16 ? kernels.f32_to_f16 : kernels.f32_to_bf16;
}

// The mode's value.
Status check_mode(HalfGemmMode mode) {
  const auto value = static_cast<unsigned>(mode);
  if (value > static_cast<unsigned>(HalfGemmMode::kFast)) {
    return Status::invalid_argument("options.mode is not a HalfGemmMode value (got " +
                                    std::to_string(value) + ")");
  }
  return {};
}

// The fast mode's kernel set for a call on `state`, or the error naming why
// it cannot run there (never an exact run in its place): the pair dot
// multiplies bf16 by bf16, so both sides are bf16 (an f32 or f16 side
// would have to be rounded first), B is data (a PackedRhs holds f32
// panels), the level has a pair-dot set and the CPU the feature it needs.
Status fast_set(const detail::ContextState& state, Storage a, Storage b, bool b_packed,
                const core::GemmKernelSet<float>** out) {
  const auto level = [&] {
    return std::string("ISA level ") + isa_name(state.table->isa) + " (" +
           kernel_family_name(state.table->family) + ")";
  };
  if (a != Storage::kBf16 || (!b_packed && b != Storage::kBf16)) {
    const bool a_off = a != Storage::kBf16;
    return Status::unsupported(std::string("options.mode fast multiplies bf16 by bf16 (") +
                               (a_off ? "a" : "b") + " is " + storage_name(a_off ? a : b) +
                               "); use HalfGemmMode::kExact");
  }
  if (b_packed) {
    return Status::unsupported(
        "options.mode fast takes b as bf16 data, not a PackedRhs (whose panels are f32); use "
        "HalfGemmMode::kExact");
  }
  const core::GemmKernels& gemm = state.table->gemm;
  if (gemm.bf16_pairs == nullptr) {
    return Status::unsupported("options.mode fast: " + level() +
                               " has no bf16 dot-product GEMM kernel (the avx512, avx512_vnni "
                               "and amx levels have one, vdpbf16ps); use HalfGemmMode::kExact");
  }
  if (!(platform::cpu_features().*gemm.bf16_pairs_needs)) {
    return Status::unsupported("options.mode fast: this CPU has no " +
                               std::string(gemm.bf16_pairs_feature) + " (" + level() +
                               "), which its bf16 dot-product GEMM kernel needs; use "
                               "HalfGemmMode::kExact");
  }
  *out = gemm.bf16_pairs;
  return {};
}

// The f32 elements each 16-bit side of `pr` spans from its first element
// (0 for an f32 side; strides are positive in a canonical problem): what
// widening it whole takes.
struct WideSpans {
  std::int64_t a = 0, b = 0;
};
WideSpans wide_spans(const core::GemmProblem<float>& pr, const core::GemmSources& sources) {
  const auto span = [](std::int64_t rows, std::int64_t cols, std::int64_t rs, std::int64_t cs) {
    return (rows - 1) * rs + (cols - 1) * cs + 1;
  };
  return {sources.a.active() ? span(pr.m, pr.k, pr.rs_a, pr.cs_a) : 0,
          sources.b.active() ? span(pr.k, pr.n, pr.rs_b, pr.cs_b) : 0};
}

// Each 16-bit side of `pr` widened whole (its stored span) into `wide`
// (spans.a + spans.b floats), and the problem on the widened copies: then
// it is an f32 problem like any other, and its bits are sgemm's on the
// widened operands by construction.
void widen_whole(const core::GemmSources& sources, const WideSpans& spans, float* wide,
                 core::GemmProblem<float>* pr) {
  if (sources.a.active()) {
    sources.a.widen(sources.a.data, wide, static_cast<std::size_t>(spans.a));
    pr->a = wide;
  }
  if (sources.b.active()) {
    sources.b.widen(sources.b.data, wide + spans.a, static_cast<std::size_t>(spans.b));
    pr->b = wide + spans.a;
  }
}

// The 16-bit sides of a product are widened whole, and the f32 call runs
// (the direct path where it suits), when they span at most this many
// bytes widened: a small product spends more on the packed path's set-up
// and padded panels than on widening (8 x 8 x 8 f16 on AVX-512 took ~0.5 us
// through the packed path against 0.06 us for sgemm; see the commit).
// Larger sides are widened panel by panel as they are packed, so no call
// ever holds a big f32 copy.
inline constexpr std::int64_t kWidenWholeBytes = 256 * 1024;

}  // namespace

Status run_widened(const detail::ContextState& state, const core::GemmProblem<float>& pr,
                   const core::GemmSources& sources, Parallelism parallelism,
                   const float* packed_a, const float* packed_b) {
  if (!sources.any()) return run_canonical(state, pr, parallelism, packed_a, packed_b);
  if (trivial(pr)) return run_trivial(state, pr);
  // The naive family (whatever the size: it has no packing) and small
  // products: the sides widened whole, then the f32 call.
  const WideSpans spans = wide_spans(pr, sources);
  const std::int64_t whole = spans.a + spans.b;
  if (state.table->family == KernelFamily::kNaive ||
      whole <= kWidenWholeBytes / static_cast<std::int64_t>(sizeof(float))) {
    core::Workspace workspace(static_cast<std::size_t>(whole) * sizeof(float));
    if (workspace.data() == nullptr) {
      return Status(StatusCode::kOutOfMemory, "gemm: cannot allocate the widened operands");
    }
    core::GemmProblem<float> wide = pr;
    widen_whole(sources, spans, static_cast<float*>(workspace.data()), &wide);
    return run_canonical(state, wide, parallelism, packed_a, packed_b);
  }
  const core::GemmKernelSet<float>* ks = kernel_set<float>(*state.table);
  if (ks == nullptr) {
    return Status::internal(std::string("kernel table ") + isa_name(state.table->isa) +
                            " has no gemm f32");
  }
  const core::GemmBlocking blocking = context_blocking<float>(state, *ks);
  core::GemmRequest request = gemm_request(state, *ks, blocking, pr.m, pr.n, pr.k, parallelism,
                                           packed_a != nullptr, packed_b != nullptr, false);
  // The direct paths read A and B in place; a 16-bit side past the bound
  // above is read only through packing. Every path gives the same bits
  // (design.md §Reproducibility), and products this large suit the packed
  // path anyway.
  request.direct_ok = false;
  const core::GemmDecision decision = core::decide_gemm(request);
  if (decision.direct) return Status::internal("gemm: a widened operand on the direct path");
  return core::run_gemm(*ks, pr, decision, packed_a, packed_b, state.executor, sources);
}

namespace {

// One call of the half GEMM, packed B or not.
struct HalfCall {
  Layout layout = Layout::kRowMajor;
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  std::int64_t m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  GemmInput a, b;
  const PackedRhs* packed = nullptr;  // in b's place
  GemmOutput c;
  const HalfGemmOptions* options = nullptr;
  Parallelism parallelism;
};

// C in f16 / bf16: the f32 copy the product runs in, its lines (rows in
// row-major, columns in column-major) `inner` floats apart. Allocated only
// for a 16-bit C: the thread's cached workspace block stays free for the
// product's own buffers otherwise.
class WideC {
 public:
  WideC(bool needed, std::int64_t outer, std::int64_t inner) : outer_(outer), inner_(inner) {
    if (needed) workspace_.emplace(static_cast<std::size_t>(outer * inner) * sizeof(float));
  }
  float* data() const {
    return workspace_ ? static_cast<float*>(workspace_->data()) : nullptr;
  }
  std::int64_t ld() const { return inner_; }
  void widen_from(const std::uint16_t* c, std::int64_t ldc, core::WidenFn widen) const {
    for (std::int64_t o = 0; o < outer_; ++o) {
      widen(c + o * ldc, data() + o * inner_, static_cast<std::size_t>(inner_));
    }
  }
  void narrow_into(std::uint16_t* c, std::int64_t ldc, core::NarrowFn narrow) const {
    for (std::int64_t o = 0; o < outer_; ++o) {
      narrow(data() + o * inner_, c + o * ldc, static_cast<std::size_t>(inner_));
    }
  }

 private:
  std::int64_t outer_, inner_;
  std::optional<core::Workspace> workspace_;
};

// The bytes each operand's stored matrix spans (check_stored's), for the
// batched form's checks.
struct HalfCallSpans {
  std::size_t a = 0, b = 0, c = 0;
};

// Checks every argument of `x`; runs it unless `check_only` is given, which
// then receives the operands' spans.
Status run_half_call(const Context& context, HalfCall x, HalfCallSpans* check_only = nullptr) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  const HalfGemmOptions& options = *x.options;
  const bool has_packed = x.packed != nullptr;
  // Measured by the full checks (a packed B gives n and k first).
  core::Stored sa{}, sb{}, sc{};
  // The GEMM's integer quick check (gemm_validate.hpp) with every operand
  // measured at 4 bytes an element: those spans hold the real ones, so when
  // it passes, every full check below would too (a 16-bit C with a bias,
  // whose overlap needs C's exact span, and the other modes always take the
  // full checks). The full checks name the argument when something is off.
  // A small product's checks were ~500 of its ~1900 instructions.
  constexpr unsigned kLastStorage = static_cast<unsigned>(Storage::kBf16);
  const bool quick =
      !has_packed && check_only == nullptr && options.mode == HalfGemmMode::kExact &&
      static_cast<unsigned>(x.a.storage) <= kLastStorage &&
      static_cast<unsigned>(x.b.storage) <= kLastStorage &&
      static_cast<unsigned>(x.c.storage) <= kLastStorage &&
      (x.c.storage == Storage::kF32 || options.epilogue.bias_kind == BiasKind::kNone) &&
      quick_valid(x.layout, x.ta, x.tb, x.m, x.n, x.k, x.a.data, x.a.ld, x.b.data, x.b.ld,
                  x.c.data, x.c.ld, x.parallelism, sizeof(float));
  const float* packed_data = nullptr;
  const core::GemmKernelSet<float>* fast = nullptr;  // the fast mode's set
  if (!quick) {
    TESSERA_RETURN_IF_ERROR(core::check_enums(x.layout, &x.ta, has_packed ? nullptr : &x.tb));
    TESSERA_RETURN_IF_ERROR(check_storage(x.a.storage, "a"));
    if (!has_packed) TESSERA_RETURN_IF_ERROR(check_storage(x.b.storage, "b"));
    TESSERA_RETURN_IF_ERROR(check_storage(x.c.storage, "c"));
    TESSERA_RETURN_IF_ERROR(check_mode(options.mode));
    if (options.mode == HalfGemmMode::kFast) {
      TESSERA_RETURN_IF_ERROR(fast_set(*state, x.a.storage, x.b.storage, has_packed, &fast));
    }
    if (has_packed) {
      TESSERA_RETURN_IF_ERROR(
          check_packed_rhs<float>(*state, x.layout, *x.packed, &packed_data, &x.n, &x.k));
      TESSERA_RETURN_IF_ERROR(core::check_dim(x.m, "m"));
      TESSERA_RETURN_IF_ERROR(core::check_mnk(x.m, x.n, x.k));
      TESSERA_RETURN_IF_ERROR(core::check_parallelism(x.parallelism));
    } else {
      TESSERA_RETURN_IF_ERROR(core::check_product(x.m, x.n, x.k, x.parallelism));
    }
    const bool na = x.ta == Transpose::kNo, nb = x.tb == Transpose::kNo;
    sa = {"a", "lda", x.a.data, na ? x.m : x.k, na ? x.k : x.m, x.a.ld};
    sb = {"b", "ldb", x.b.data, nb ? x.k : x.n, nb ? x.n : x.k, x.b.ld};
    sc = {"c", "ldc", x.c.data, x.m, x.n, x.c.ld};
    TESSERA_RETURN_IF_ERROR(core::check_stored(x.layout, storage_bytes(x.a.storage), &sa));
    if (!has_packed) {
      TESSERA_RETURN_IF_ERROR(core::check_stored(x.layout, storage_bytes(x.b.storage), &sb));
    }
    TESSERA_RETURN_IF_ERROR(core::check_stored(x.layout, storage_bytes(x.c.storage), &sc));
    TESSERA_RETURN_IF_ERROR(core::check_no_alias(sc, sa));
    if (!has_packed) TESSERA_RETURN_IF_ERROR(core::check_no_alias(sc, sb));
  }
  const bool c_wide = x.c.storage == Storage::kF32;
  core::GemmEpilogueSpec<float> epilogue;
  TESSERA_RETURN_IF_ERROR(check_epilogue(options.epilogue, x.layout, x.m, x.n,
                                         c_wide ? static_cast<const float*>(x.c.data) : nullptr,
                                         x.c.ld, &epilogue));
  if (!c_wide && epilogue.bias != nullptr) {
    // check_epilogue measures C in floats; a 16-bit C is measured here.
    const std::int64_t len = options.epilogue.bias_kind == BiasKind::kPerColumn ? x.n : x.m;
    if (core::ranges_overlap(x.c.data, sc.bytes, options.epilogue.bias,
                             static_cast<std::size_t>(len) * sizeof(float))) {
      return Status::invalid_argument("epilogue.bias overlaps c");
    }
  }
  // Where the product lands: C itself, or an f32 copy of a 16-bit C.
  const bool row = x.layout == Layout::kRowMajor;
  const std::int64_t outer = row ? x.m : x.n, inner = row ? x.n : x.m;
  const std::uint64_t wide_bytes = static_cast<std::uint64_t>(outer) *
                                   static_cast<std::uint64_t>(inner) * sizeof(float);
  if (!c_wide && wide_bytes > std::numeric_limits<std::size_t>::max() / 2) {
    return Status::invalid_argument("c (" + core::str(x.m) + " x " + core::str(x.n) +
                                    ") is too large for its f32 copy on this target");
  }
  if (check_only != nullptr) {
    *check_only = {sa.bytes, has_packed ? 0 : sb.bytes, sc.bytes};
    return {};
  }
  if (x.m == 0 || x.n == 0) return {};

  WideC wide(!c_wide, outer, inner);
  float* c32 = static_cast<float*>(x.c.data);
  std::int64_t ldc32 = x.c.ld;
  const core::HalfKernels& half = *state->table->half;
  if (!c_wide) {
    if (wide.data() == nullptr) {
      return Status(StatusCode::kOutOfMemory, "gemm: cannot allocate the f32 copy of c (" +
                                                  core::str(static_cast<std::int64_t>(wide_bytes)) +
                                                  " bytes)");
    }
    c32 = wide.data();
    ldc32 = wide.ld();
    // beta == 0 never reads C (BLAS).
    if (x.beta != 0.0f) {
      wide.widen_from(static_cast<const std::uint16_t*>(x.c.data), x.c.ld,
                      widen_of(half, x.c.storage));
    }
  }

  // The canonical problem, with each 16-bit side moved to the sources.
  core::GemmProblem<float> pr = canonical_problem(
      x.layout, x.ta, has_packed ? Transpose::kNo : x.tb, x.m, x.n, x.k, x.alpha,
      static_cast<const float*>(x.a.data), x.a.ld,
      has_packed ? nullptr : static_cast<const float*>(x.b.data), x.b.ld, x.beta, c32, ldc32);
  pr.epilogue = epilogue;
  // Row-major: canonical A is the caller's A; column-major computes C^T,
  // whose A is op(B)^T.
  const GemmInput* canon_a = row ? &x.a : (has_packed ? nullptr : &x.b);
  const GemmInput* canon_b = row ? (has_packed ? nullptr : &x.b) : &x.a;
  core::GemmSources sources;
  const auto move_to_sources = [&](const GemmInput* in, const float** side,
                                   core::WidenedOperand* source) {
    if (in == nullptr || in->storage == Storage::kF32) return;
    source->data = static_cast<const std::uint16_t*>(in->data);
    source->widen = widen_of(half, in->storage);
    *side = nullptr;
  };
  move_to_sources(canon_a, &pr.a, &sources.a);
  move_to_sources(canon_b, &pr.b, &sources.b);
  const float* packed_a = has_packed && !row ? packed_data : nullptr;
  const float* packed_b = has_packed && row ? packed_data : nullptr;
  if (fast != nullptr) {
    TESSERA_RETURN_IF_ERROR(run_bf16_pairs(*state, *fast, pr, sources.a.data, sources.b.data,
                                           x.parallelism));
  } else {
    TESSERA_RETURN_IF_ERROR(run_widened(*state, pr, sources, x.parallelism, packed_a, packed_b));
  }
  if (!c_wide) {
    wide.narrow_into(static_cast<std::uint16_t*>(x.c.data), x.c.ld, narrow_of(half, x.c.storage));
  }
  return {};
}

// Entry i of a strided operand: `stride` elements of `element` bytes apart.
template <class P>
P* entry(P* base, std::int64_t i, std::int64_t stride, std::size_t element) {
  using Byte = std::conditional_t<std::is_const_v<P>, const unsigned char, unsigned char>;
  if (base == nullptr) return nullptr;
  return reinterpret_cast<Byte*>(base) + static_cast<std::size_t>(i * stride) * element;
}

// The batched form's own checks, after entry 0's: each operand's last entry
// addressable, the C entries disjoint from each other and from every A and
// B entry (whole batch spans: conservative, as the f32 batched form's).
Status check_batch(const HalfCall& x, const HalfCallSpans& spans, std::int64_t stride_a,
                   std::int64_t stride_b, std::int64_t stride_c, std::int64_t batch) {
  struct Operand {
    const char* name;
    const char* stride_name;
    const void* data;
    std::int64_t stride;
    std::size_t element, span;
    std::size_t total = 0;  // bytes from data to the last entry's end
  };
  Operand ops[] = {{"a", "stride_a", x.a.data, stride_a, storage_bytes(x.a.storage), spans.a},
                   {"b", "stride_b", x.b.data, stride_b, storage_bytes(x.b.storage), spans.b},
                   {"c", "stride_c", x.c.data, stride_c, storage_bytes(x.c.storage), spans.c}};
  for (Operand& op : ops) {
    if (op.stride < 0) {
      return Status::invalid_argument(std::string(op.stride_name) + " must be >= 0 (got " +
                                      core::str(op.stride) + ")");
    }
    if (op.span == 0) continue;
    std::int64_t offset = 0;
    const std::int64_t span_elements = static_cast<std::int64_t>(op.span / op.element);
    if (!core::mul_ok(batch - 1, op.stride, &offset) ||
        offset > core::max_span_elements(op.element) - span_elements) {
      return Status::invalid_argument(std::string(op.name) + ": " + core::str(batch) +
                                      " entries " + op.stride_name + " = " + core::str(op.stride) +
                                      " apart span more memory than this target can address");
    }
    op.total = static_cast<std::size_t>(offset) * op.element + op.span;
  }
  const Operand& c = ops[2];
  if (c.span == 0) return {};
  if (batch > 1 && static_cast<std::size_t>(c.stride) * c.element < c.span) {
    return Status::invalid_argument("c: entries stride_c = " + core::str(c.stride) +
                                    " apart overlap (one C spans " + core::str(static_cast<std::int64_t>(c.span / c.element)) +
                                    " elements)");
  }
  for (int i = 0; i < 2; ++i) {
    if (ops[i].total != 0 && core::ranges_overlap(c.data, c.total, ops[i].data, ops[i].total)) {
      return Status::invalid_argument(std::string("c's entries overlap ") + ops[i].name +
                                      "'s: the output must not share memory with an input");
    }
  }
  return {};
}

}  // namespace
}  // namespace gemm_detail

Status try_gemm_strided_batched(const Context& context, Layout layout, Transpose trans_a,
                                Transpose trans_b, std::int64_t m, std::int64_t n,
                                std::int64_t k, float alpha, GemmInput a, std::int64_t stride_a,
                                GemmInput b, std::int64_t stride_b, float beta, GemmOutput c,
                                std::int64_t stride_c, std::int64_t batch,
                                const HalfGemmOptions& options, Parallelism parallelism) {
  if (batch < 0) {
    return Status::invalid_argument("batch must be >= 0 (got " + core::str(batch) + ")");
  }
  const gemm_detail::HalfCall call{.layout = layout, .ta = trans_a, .tb = trans_b, .m = m, .n = n,
                                   .k = k, .alpha = alpha, .beta = beta, .a = a, .b = b, .c = c,
                                   .options = &options, .parallelism = parallelism};
  // Entry 0 stands for every entry's shape, storages, leading dimensions
  // and epilogue; then the batch's own checks, all before C_0 is written.
  gemm_detail::HalfCallSpans spans;
  TESSERA_RETURN_IF_ERROR(gemm_detail::run_half_call(context, call, &spans));
  TESSERA_RETURN_IF_ERROR(
      gemm_detail::check_batch(call, spans, stride_a, stride_b, stride_c, batch));
  for (std::int64_t i = 0; i < batch; ++i) {
    gemm_detail::HalfCall entry = call;
    entry.a.data = gemm_detail::entry(a.data, i, stride_a, gemm_detail::storage_bytes(a.storage));
    entry.b.data = gemm_detail::entry(b.data, i, stride_b, gemm_detail::storage_bytes(b.storage));
    entry.c.data = gemm_detail::entry(c.data, i, stride_c, gemm_detail::storage_bytes(c.storage));
    TESSERA_RETURN_IF_ERROR(gemm_detail::run_half_call(context, entry));
  }
  return {};
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a, Transpose trans_b,
                std::int64_t m, std::int64_t n, std::int64_t k, float alpha, GemmInput a,
                GemmInput b, float beta, GemmOutput c, const HalfGemmOptions& options,
                Parallelism parallelism) {
  const gemm_detail::HalfCall call{.layout = layout, .ta = trans_a, .tb = trans_b, .m = m, .n = n,
                                   .k = k, .alpha = alpha, .beta = beta, .a = a, .b = b, .c = c,
                                   .options = &options, .parallelism = parallelism};
  return gemm_detail::run_half_call(context, call);
}

Status try_gemm(const Context& context, Layout layout, Transpose trans_a, std::int64_t m,
                float alpha, GemmInput a, const PackedRhs& b, float beta, GemmOutput c,
                const HalfGemmOptions& options, Parallelism parallelism) {
  // n and k come from the PackedRhs; b is its place.
  const gemm_detail::HalfCall call{.layout = layout, .ta = trans_a, .tb = Transpose::kNo, .m = m,
                                   .n = 0, .k = 0, .alpha = alpha, .beta = beta, .a = a,
                                   .b = GemmInput(), .packed = &b, .c = c, .options = &options,
                                   .parallelism = parallelism};
  return gemm_detail::run_half_call(context, call);
}

}  // namespace tessera
