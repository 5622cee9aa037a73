// The integer GEMM's C++ entry points (tessera/quantized.hpp): each builds a
// QGemmCall, checks it, and runs the canonical problem on the context's
// level (qgemm_call.hpp).
#include <algorithm>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/src/base/buffer.hpp"
#include "core/src/base/plan_report.hpp"
#include "core/src/base/validate.hpp"
#include "core/src/parallel/cache_facts.hpp"
#include "core/src/qgemm/qgemm_call.hpp"
#include "tessera/quantized.hpp"

namespace tessera {

const char* int_type_name(IntType type) noexcept {
  switch (type) {
    case IntType::kU8: return "u8";
    case IntType::kS8: return "s8";
  }
  return "unknown";
}

namespace detail {
PackedIntRhsState::~PackedIntRhsState() {
  core::release_buffer(panels, bytes);
}
}  // namespace detail

PackedIntRhs::PackedIntRhs() noexcept = default;
PackedIntRhs::~PackedIntRhs() = default;
PackedIntRhs::PackedIntRhs(PackedIntRhs&&) noexcept = default;
PackedIntRhs& PackedIntRhs::operator=(PackedIntRhs&&) noexcept = default;
PackedIntRhs::PackedIntRhs(std::unique_ptr<detail::PackedIntRhsState> state) noexcept
    : state_(std::move(state)) {}
IntType PackedIntRhs::type() const noexcept { return state_ ? state_->type : IntType::kS8; }
Isa PackedIntRhs::isa() const noexcept { return state_ ? state_->isa : Isa::kScalar; }
std::int64_t PackedIntRhs::k() const noexcept { return state_ ? state_->k : 0; }
std::int64_t PackedIntRhs::n() const noexcept { return state_ ? state_->n : 0; }
std::size_t PackedIntRhs::bytes() const noexcept { return state_ ? state_->bytes : 0; }

namespace qgemm_detail {
namespace {

const core::QGemmKernelSet* kernel_set(const detail::ContextState& state) {
  return state.table->family == KernelFamily::kOptimized ? state.table->qgemm.set : nullptr;
}

// The canonical problem of a checked call: op(A) and op(B) as strides into
// the stored bytes, and the output's element (i, j) at (i*rs + j*cs).
core::QGemmProblem canonical_problem(const QGemmCall& call) {
  core::QGemmProblem pr;
  pr.m = call.m, pr.n = call.n, pr.k = call.k;
  pr.a = static_cast<const std::uint8_t*>(call.a.data);
  core::op_strides(call.layout, call.a.trans, call.a.ld, &pr.rs_a, &pr.cs_a);
  pr.a_type = call.a.type;
  pr.za = call.qa.zero_point;
  if (call.b != nullptr) {
    pr.b = static_cast<const std::uint8_t*>(call.b->data);
    core::op_strides(call.layout, call.b->trans, call.b->ld, &pr.rs_b, &pr.cs_b);
    pr.b_type = call.b->type;
  } else {
    pr.b_type = call.packed->state()->type;
  }
  pr.zb = per_column(call.qb) ? core::QGemmPerColumn<std::int32_t>{call.qb.zero_points, 1}
                              : core::QGemmPerColumn<std::int32_t>{&call.qb.zero_point, 0};
  core::QGemmOutputStage& o = pr.output;
  o.kind = call.kind;
  o.out = call.y;
  const bool row = call.layout == Layout::kRowMajor;
  o.rs = row ? call.ldy : 1;
  o.cs = row ? 1 : call.ldy;
  o.accumulate = call.beta == 1;
  o.y_type = call.y_type;
  o.y_zero_point = call.qy.zero_point;
  o.bias = call.epilogue.bias;
  o.bias_kind = call.epilogue.bias_kind;
  o.activation = call.epilogue.activation;
  return pr;
}

}  // namespace

core::QGemmRequest qgemm_request(const detail::ContextState& state,
                                 const core::QGemmKernelSet& ks, std::int64_t m,
                                 std::int64_t n, std::int64_t k, Parallelism parallelism,
                                 bool b_prepacked, bool explain) {
  core::QGemmRequest r;
  r.m = m, r.n = n, r.k = k;
  r.mr = ks.mr, r.nr = ks.nr;
  r.blocking = core::qgemm_blocking(ks, m, n, k, core::host_cache_facts());
  r.b_prepacked = b_prepacked;
  r.site = state.compute_request(parallelism, explain);
  r.knobs = state.compute_knobs;
  return r;
}

Status run_call(const detail::ContextState& state, const QGemmCall& call) {
  if (call.m == 0 || call.n == 0) return {};
  core::QGemmProblem pr = canonical_problem(call);
  // The output stage's per-column factors, formed once per call in f32
  // exactly as onnxruntime forms them: a_scale * b_scale[j] / y_scale
  // (requantize), a_scale * b_scale[j] (float).
  std::vector<float> factors;
  if (call.kind != core::QGemmOutputKind::kInt32) {
    factors.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, quant_count(call.qb))));
    for (std::int64_t j = 0; j < quant_count(call.qb); ++j) {
      const float ab = call.qa.scale * b_scale(call.qb, j);
      factors[static_cast<std::size_t>(j)] =
          call.kind == core::QGemmOutputKind::kRequantize ? ab / call.qy.scale : ab;
    }
    const core::QGemmPerColumn<float> per{factors.data(), per_column(call.qb) ? 1 : 0};
    (call.kind == core::QGemmOutputKind::kRequantize ? pr.output.multiplier : pr.output.scale) = per;
  }
  if (state.table->family == KernelFamily::kNaive) {
    if (state.table->qgemm.naive == nullptr) return Status::internal("naive table has no qgemm");
    if (call.packed != nullptr) return Status::internal("a packed b reached the naive family");
    state.table->qgemm.naive(pr);
    return {};
  }
  const core::QGemmKernelSet* ks = kernel_set(state);
  if (ks == nullptr) {
    return Status::internal(std::string("kernel table ") + isa_name(state.table->isa) +
                            " has no integer gemm");
  }
  const core::QGemmDecision decision = core::decide_qgemm(
      qgemm_request(state, *ks, pr.m, pr.n, pr.k, call.parallelism, call.packed != nullptr, false));
  core::QPackedB packed;
  if (call.packed != nullptr) {
    packed.panels = call.packed->state()->panels;
    packed.col_sums = call.packed->state()->col_sums;
  }
  return core::run_qgemm(*ks, pr, decision, call.packed != nullptr ? &packed : nullptr,
                         state.executor);
}

namespace {

Status checked_run(const Context& context, const QGemmCall& call) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(check_call(*state, call));
  return run_call(*state, call);
}

QGemmCall base_call(Layout layout, std::int64_t m, std::int64_t n, std::int64_t k,
                    const IntMatrix& a, const QuantParams& qa, const QuantParams& qb,
                    Parallelism parallelism) {
  QGemmCall call;
  call.layout = layout;
  call.m = m, call.n = n, call.k = k;
  call.a = a;
  call.qa = qa;
  call.qb = qb;
  call.parallelism = parallelism;
  return call;
}

}  // namespace
}  // namespace qgemm_detail

using qgemm_detail::base_call;
using qgemm_detail::checked_run;
using qgemm_detail::QGemmCall;

Status try_gemm_integer(const Context& context, Layout layout, std::int64_t m, std::int64_t n,
                        std::int64_t k, const IntMatrix& a, const QuantParams& qa,
                        const IntMatrix& b, const QuantParams& qb, std::int32_t beta,
                        std::int32_t* c, std::int64_t ldc, Parallelism parallelism) {
  QGemmCall call = base_call(layout, m, n, k, a, qa, qb, parallelism);
  call.b = &b;
  call.beta = beta;
  call.y = c;
  call.ldy = ldc;
  return checked_run(context, call);
}

Status try_gemm_integer(const Context& context, Layout layout, std::int64_t m, std::int64_t n,
                        std::int64_t k, const IntMatrix& a, const QuantParams& qa,
                        const PackedIntRhs& b, const QuantParams& qb, std::int32_t beta,
                        std::int32_t* c, std::int64_t ldc, Parallelism parallelism) {
  QGemmCall call = base_call(layout, m, n, k, a, qa, qb, parallelism);
  call.packed = &b;
  call.beta = beta;
  call.y = c;
  call.ldy = ldc;
  return checked_run(context, call);
}

namespace {

QGemmCall requantize_call(QGemmCall call, IntType y_type, const QuantParams& qy, void* y,
                          std::int64_t ldy) {
  call.kind = core::QGemmOutputKind::kRequantize;
  call.y_type = y_type;
  call.qy = qy;
  call.y = y;
  call.ldy = ldy;
  return call;
}

QGemmCall float_call(QGemmCall call, float* y, std::int64_t ldy, const GemmEpilogue<float>& ep) {
  call.kind = core::QGemmOutputKind::kFloat;
  call.y = y;
  call.ldy = ldy;
  call.epilogue = ep;
  return call;
}

}  // namespace

Status try_qlinear_gemm(const Context& context, Layout layout, std::int64_t m, std::int64_t n,
                        std::int64_t k, const IntMatrix& a, const QuantParams& qa,
                        const IntMatrix& b, const QuantParams& qb, IntType y_type,
                        const QuantParams& qy, void* y, std::int64_t ldy,
                        Parallelism parallelism) {
  QGemmCall call = base_call(layout, m, n, k, a, qa, qb, parallelism);
  call.b = &b;
  return checked_run(context, requantize_call(call, y_type, qy, y, ldy));
}

Status try_qlinear_gemm(const Context& context, Layout layout, std::int64_t m, std::int64_t n,
                        std::int64_t k, const IntMatrix& a, const QuantParams& qa,
                        const PackedIntRhs& b, const QuantParams& qb, IntType y_type,
                        const QuantParams& qy, void* y, std::int64_t ldy,
                        Parallelism parallelism) {
  QGemmCall call = base_call(layout, m, n, k, a, qa, qb, parallelism);
  call.packed = &b;
  return checked_run(context, requantize_call(call, y_type, qy, y, ldy));
}

Status try_gemm_integer_to_f32(const Context& context, Layout layout, std::int64_t m,
                               std::int64_t n, std::int64_t k, const IntMatrix& a,
                               const QuantParams& qa, const IntMatrix& b, const QuantParams& qb,
                               float* y, std::int64_t ldy, const GemmEpilogue<float>& epilogue,
                               Parallelism parallelism) {
  QGemmCall call = base_call(layout, m, n, k, a, qa, qb, parallelism);
  call.b = &b;
  return checked_run(context, float_call(call, y, ldy, epilogue));
}

Status try_gemm_integer_to_f32(const Context& context, Layout layout, std::int64_t m,
                               std::int64_t n, std::int64_t k, const IntMatrix& a,
                               const QuantParams& qa, const PackedIntRhs& b,
                               const QuantParams& qb, float* y, std::int64_t ldy,
                               const GemmEpilogue<float>& epilogue, Parallelism parallelism) {
  QGemmCall call = base_call(layout, m, n, k, a, qa, qb, parallelism);
  call.packed = &b;
  return checked_run(context, float_call(call, y, ldy, epilogue));
}

Status try_prepack_integer_rhs(const Context& context, Layout layout, std::int64_t k,
                               std::int64_t n, const IntMatrix& b, PackedIntRhs* out) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (out == nullptr) return Status::invalid_argument("out is null");
  TESSERA_RETURN_IF_ERROR(core::check_enums(layout, nullptr, nullptr));
  if (b.trans != Transpose::kNo && b.trans != Transpose::kYes) {
    return Status::invalid_argument("b.trans is not a Transpose value (got " +
                                    std::to_string(static_cast<int>(b.trans)) + ")");
  }
  if (static_cast<unsigned>(b.type) > 1) {
    return Status::invalid_argument("b.type is not an IntType value (got " +
                                    std::to_string(static_cast<int>(b.type)) + ")");
  }
  TESSERA_RETURN_IF_ERROR(core::check_dim(k, "k"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(n, "n"));
  TESSERA_RETURN_IF_ERROR(core::check_mnk(1, n, k));
  const bool nb = b.trans == Transpose::kNo;
  core::Stored sb{"b", "b.ld", b.data, nb ? k : n, nb ? n : k, b.ld};
  TESSERA_RETURN_IF_ERROR(core::check_stored(layout, 1, &sb));
  const core::QGemmKernelSet* ks = qgemm_detail::kernel_set(*state);
  if (ks == nullptr) {
    return Status::unsupported(std::string("integer prepacking needs the optimized family (this "
                                           "context runs the naive one)"));
  }
  const std::int64_t groups = (k + core::qgemm_k_group(ks->packing) - 1) / core::qgemm_k_group(ks->packing);
  const std::int64_t panels = (n + ks->nr - 1) / ks->nr;
  const std::int64_t panel_bytes = core::qgemm_b_panel_bytes(ks->nr, groups);
  std::int64_t panel_total = 0, bytes = 0;
  if (!core::mul_ok(panels, panel_bytes, &panel_total) ||
      __builtin_add_overflow(panel_total, panels * ks->nr * 4 + 64, &bytes)) {
    return Status(StatusCode::kOutOfMemory, "prepack_integer_rhs: the packed b would overflow");
  }
  auto st = std::make_unique<detail::PackedIntRhsState>();
  st->panels = static_cast<std::uint8_t*>(core::allocate_buffer(static_cast<std::size_t>(bytes)));
  st->bytes = static_cast<std::size_t>(bytes);  // what release_buffer needs
  if (st->panels == nullptr) {
    return Status(StatusCode::kOutOfMemory,
                  "prepack_integer_rhs: cannot allocate " + std::to_string(bytes) + " bytes");
  }
  st->col_sums = reinterpret_cast<std::int32_t*>(st->panels + (panel_total + 63) / 64 * 64);
  st->isa = state->table->isa;
  st->set = ks;
  st->type = b.type;
  st->k = k;
  st->n = n;
  std::int64_t rs, cs;
  core::op_strides(layout, b.trans, b.ld, &rs, &cs);
  if (n > 0) {
    ks->pack_b(k, n, static_cast<const std::uint8_t*>(b.data), rs, cs, b.type, st->panels,
               st->col_sums);
  }
  *out = PackedIntRhs(std::move(st));
  return {};
}

std::string IntGemmPlan::to_string() const {
  std::string s = "integer gemm " + std::to_string(m) + " x " + std::to_string(n) + " x " +
                  std::to_string(k) + " on " + isa_name(isa) + " (" +
                  kernel_family_name(family) + ")\n";
  if (family == KernelFamily::kNaive) return s + "  naive reference, serial\n";
  s += "  tile mr x nr = " + std::to_string(mr) + " x " + std::to_string(nr) + ", " + kernel +
       ", depth groups of " + std::to_string(k_group) + "; blocking mc = " + std::to_string(mc) +
       ", nc = " + std::to_string(nc) + " (no depth slices)\n";
  s += "  workers " + std::to_string(workers) + " of width " + std::to_string(width) +
       ", tier " + std::to_string(tier) + " (" + worker_rule + ": " + worker_reason + "); " +
       std::to_string(jobs_per_step) + " tiles, " + grain + "\n";
  return s;
}

Status try_plan_gemm_integer(const Context& context, std::int64_t m, std::int64_t n,
                             std::int64_t k, Parallelism parallelism, IntGemmPlan* out) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  if (out == nullptr) return Status::invalid_argument("out is null");
  TESSERA_RETURN_IF_ERROR(core::check_product(m, n, k, parallelism));
  IntGemmPlan plan;
  plan.isa = state->table->isa;
  plan.family = state->table->family;
  plan.m = m, plan.n = n, plan.k = k;
  plan.width = state->kernel_width();
  const core::QGemmKernelSet* ks = qgemm_detail::kernel_set(*state);
  if (ks != nullptr) {
    const core::QGemmDecision d = core::decide_qgemm(
        qgemm_detail::qgemm_request(*state, *ks, m, n, k, parallelism, false, true));
    plan.mr = ks->mr, plan.nr = ks->nr;
    plan.k_group = core::qgemm_k_group(ks->packing);
    plan.kernel = ks->dot;
    plan.mc = d.blocking.mc, plan.nc = d.blocking.nc;
    core::report_workers(d, &plan);
  }
  *out = plan;
  return {};
}

}  // namespace tessera
