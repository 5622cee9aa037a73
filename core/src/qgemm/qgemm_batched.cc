// Batched MatMulInteger (tessera/quantized.hpp): validate every entry and
// the overlaps between them, ask the batch plan how to use the context's
// participants, then run each entry through the single call's path
// (qgemm_call.hpp), so each entry's bits are try_gemm_integer's for it,
// whatever the plan.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/src/base/entry_ranges.hpp"
#include "core/src/base/validate.hpp"
#include "core/src/parallel/batch_plan.hpp"
#include "core/src/parallel/batch_runner.hpp"
#include "core/src/qgemm/qgemm_call.hpp"
#include "tessera/platform/executor.hpp"

namespace tessera::qgemm_detail {
namespace {

using core::Range;
using core::RangeList;
using core::str;

// Where entry i's operands are: strided from a base, or from pointer arrays.
struct Entries {
  bool lists = false;
  const std::uint8_t* a = nullptr;
  const std::uint8_t* b = nullptr;
  std::int32_t* c = nullptr;
  std::int64_t stride_a = 0, stride_b = 0, stride_c = 0;  // bytes, bytes, elements
  const void* const* a_list = nullptr;
  const void* const* b_list = nullptr;
  std::int32_t* const* c_list = nullptr;

  const void* a_at(std::int64_t i) const { return lists ? a_list[i] : a + i * stride_a; }
  const void* b_at(std::int64_t i) const { return lists ? b_list[i] : b + i * stride_b; }
  std::int32_t* c_at(std::int64_t i) const { return lists ? c_list[i] : c + i * stride_c; }
};

struct BatchedCall {
  QGemmCall proto;   // every entry's arguments but its three pointers
  IntMatrix b;       // B as stored (proto.b points at a per-entry copy), unless packed
  Entries entries;
  std::int64_t batch = 0;
};

// Entry i's single call; `b` holds its B.
QGemmCall entry_call(const BatchedCall& x, std::int64_t i, IntMatrix* b) {
  QGemmCall call = x.proto;
  call.a.data = x.entries.a_at(i);
  if (x.proto.packed == nullptr) {
    *b = x.b;
    b->data = x.entries.b_at(i);
    call.b = b;
  }
  call.y = x.entries.c_at(i);
  return call;
}

Status entry_error(std::int64_t i, const Status& s) {
  return Status(s.code(), "entry " + str(i) + ": " + s.message());
}

// The bytes of a stored rows x cols matrix of `element`-byte values, as
// check_stored counts them (the entry's call passed its checks).
Range range_of(Layout layout, const void* data, std::int64_t rows, std::int64_t cols,
               std::int64_t ld, std::size_t element, std::int64_t entry) {
  core::Stored s{"", "", data, rows, cols, ld};
  if (!core::check_stored(layout, element, &s).ok()) return {0, 0, entry};
  return {reinterpret_cast<std::uintptr_t>(data), s.bytes, entry};
}

// The strided form's entries must be addressable: (batch - 1) * stride
// bytes past the base.
Status check_stride(std::int64_t stride, std::int64_t element, std::int64_t batch,
                    const char* name) {
  if (stride < 0) return Status::invalid_argument(std::string(name) + " must be >= 0 (got " + str(stride) + ")");
  std::int64_t span = 0;
  if (!core::mul_ok(batch - 1, stride, &span) || !core::mul_ok(span, element, &span) ||
      span > core::max_span_elements(1)) {
    return Status::invalid_argument(std::string(name) + " = " + str(stride) + " over " +
                                    str(batch) +
                                    " entries spans more memory than this target can address");
  }
  return {};
}

Status check_batched(const detail::ContextState& state, const BatchedCall& x) {
  TESSERA_RETURN_IF_ERROR(core::check_dim(x.batch, "batch"));
  const Entries& e = x.entries;
  if (x.batch == 0) {
    // Nothing is read or written: the arguments that are not pointers.
    TESSERA_RETURN_IF_ERROR(core::check_enums(x.proto.layout, &x.proto.a.trans,
                                              x.proto.packed == nullptr ? &x.b.trans : nullptr));
    TESSERA_RETURN_IF_ERROR(core::check_dim(x.proto.m, "m"));
    TESSERA_RETURN_IF_ERROR(core::check_dim(x.proto.n, "n"));
    TESSERA_RETURN_IF_ERROR(core::check_dim(x.proto.k, "k"));
    return core::check_parallelism(x.proto.parallelism);
  }
  if (e.lists) {
    if (e.a_list == nullptr) return Status::invalid_argument("a_entries is null (batch = " + str(x.batch) + ")");
    if (x.proto.packed == nullptr && e.b_list == nullptr) {
      return Status::invalid_argument("b_entries is null (batch = " + str(x.batch) + ")");
    }
    if (e.c_list == nullptr) return Status::invalid_argument("c_entries is null (batch = " + str(x.batch) + ")");
  } else {
    TESSERA_RETURN_IF_ERROR(check_stride(e.stride_a, 1, x.batch, "stride_a"));
    if (x.proto.packed == nullptr) TESSERA_RETURN_IF_ERROR(check_stride(e.stride_b, 1, x.batch, "stride_b"));
    TESSERA_RETURN_IF_ERROR(check_stride(e.stride_c, 4, x.batch, "stride_c"));
  }
  // Entry 0 as a single call checks every argument; the others differ only
  // in their pointers: each stored matrix is checked, and the outputs'
  // overlaps across the batch below.
  {
    IntMatrix b;
    const Status s = check_call(state, entry_call(x, 0, &b));
    if (!s.ok()) return x.batch == 1 ? s : entry_error(0, s);
  }
  const QGemmCall& p = x.proto;
  const bool na = p.a.trans == Transpose::kNo;
  const bool nb = x.b.trans == Transpose::kNo;
  for (std::int64_t i = 1; i < x.batch; ++i) {
    const std::string a_name = "a[" + str(i) + "]", b_name = "b[" + str(i) + "]";
    const std::string c_name = "c[" + str(i) + "]";
    core::Stored sa{a_name.c_str(), "a.ld", e.a_at(i), na ? p.m : p.k, na ? p.k : p.m, p.a.ld};
    TESSERA_RETURN_IF_ERROR(core::check_stored(p.layout, 1, &sa));
    if (p.packed == nullptr) {
      core::Stored sb{b_name.c_str(), "b.ld", e.b_at(i), nb ? p.k : p.n, nb ? p.n : p.k, x.b.ld};
      TESSERA_RETURN_IF_ERROR(core::check_stored(p.layout, 1, &sb));
    }
    core::Stored sc{c_name.c_str(), "ldc", e.c_at(i), p.m, p.n, p.ldy};
    TESSERA_RETURN_IF_ERROR(core::check_stored(p.layout, 4, &sc));
  }
  if (x.batch == 1) return {};
  // No C entry shares a byte with another, or with any A or B entry or B's
  // per-column zero points.
  RangeList c;
  c.prepare(static_cast<std::size_t>(x.batch));
  for (std::int64_t i = 0; i < x.batch; ++i) {
    c.push_back(range_of(p.layout, e.c_at(i), p.m, p.n, p.ldy, 4, i));
  }
  if (const Range* first = core::sort_and_find_overlap(&c)) {
    const std::int64_t lo = std::min(first->entry, (first + 1)->entry);
    const std::int64_t hi = std::max(first->entry, (first + 1)->entry);
    return Status::invalid_argument("c[" + str(lo) + "] overlaps c[" + str(hi) +
                                    "]: the outputs must not share memory" +
                                    (e.lists ? std::string() : " (stride_c = " + str(e.stride_c) + ")"));
  }
  // An input range against the sorted, disjoint C ranges; `name` an
  // operand's (entry i: "a[i]") or, with whole, an array's own.
  auto check_input = [&](const Range& in, const char* name, bool whole = false) -> Status {
    const Range* hit = core::overlapping_output(c, in);
    if (hit == nullptr) return {};
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false
    // positive) on the temporaries of one long concatenation here.
    std::string message = "c[";
    message += str(hit->entry);
    message += "] overlaps ";
    message += name;
    if (!whole) {
      message += '[';
      message += str(in.entry);
      message += ']';
    }
    message += ": the outputs must not share memory with an input";
    return Status::invalid_argument(std::move(message));
  };
  if (per_column(p.qb) && p.qb.zero_points != nullptr) {
    const Range zb{reinterpret_cast<std::uintptr_t>(p.qb.zero_points),
                   static_cast<std::size_t>(p.qb.count) * sizeof(std::int32_t), 0};
    TESSERA_RETURN_IF_ERROR(check_input(zb, "qb.zero_points", true));
  }
  for (std::int64_t i = 0; i < x.batch; ++i) {
    TESSERA_RETURN_IF_ERROR(check_input(
        range_of(p.layout, e.a_at(i), na ? p.m : p.k, na ? p.k : p.m, p.a.ld, 1, i), "a"));
    if (p.packed == nullptr) {
      TESSERA_RETURN_IF_ERROR(check_input(
          range_of(p.layout, e.b_at(i), nb ? p.k : p.n, nb ? p.n : p.k, x.b.ld, 1, i), "b"));
    }
  }
  return {};
}

// The batch plan: as batched f32 gemm's, with an 8-bit multiply-add a
// quarter of an f32 one's work (kQGemmWorkDivisor: the depth the plan
// sees) and one-byte elements.
core::BatchPlan plan_for(const detail::ContextState& state, const BatchedCall& x) {
  if (state.nested_call()) return {core::BatchPlanKind::kSerial, 1, ""};
  const auto k = static_cast<std::uint64_t>(x.proto.k);
  const core::BatchShape shape{static_cast<std::uint64_t>(x.batch),
                               static_cast<std::uint64_t>(x.proto.m),
                               static_cast<std::uint64_t>(x.proto.n),
                               (k + core::kQGemmWorkDivisor - 1) / core::kQGemmWorkDivisor, 1};
  return core::resolve_batch(shape, x.proto.parallelism, state.parallel_facts,
                             state.compute_knobs, state.knobs, /*explain=*/false);
}

Status run_entry(const detail::ContextState& state, const BatchedCall& x, std::int64_t i,
                 Parallelism parallelism) {
  IntMatrix b;
  QGemmCall call = entry_call(x, i, &b);
  call.parallelism = parallelism;
  return run_call(state, call);
}

Status run_batched(const Context& context, const BatchedCall& x) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(check_batched(*state, x));
  if (x.batch == 0 || x.proto.m == 0 || x.proto.n == 0) return {};
  const core::BatchPlan plan = plan_for(*state, x);
  switch (plan.kind) {
    case core::BatchPlanKind::kSerial:
      for (std::int64_t i = 0; i < x.batch; ++i) {
        TESSERA_RETURN_IF_ERROR(run_entry(*state, x, i, Parallelism::serial()));
      }
      return {};
    case core::BatchPlanKind::kSequentialInternal:
      for (std::int64_t i = 0; i < x.batch; ++i) {
        TESSERA_RETURN_IF_ERROR(run_entry(*state, x, i, x.proto.parallelism));
      }
      return {};
    case core::BatchPlanKind::kBatchParallel: break;
  }
  // Whole entries per worker, each serial inside (batch_runner.hpp); the
  // lowest failing entry is reported (only out-of-memory can fail here).
  const int workers = std::max(1, std::min(plan.workers, state->kernel_width()));
  std::int64_t failed = -1;
  const Status s = core::run_entries_parallel(
      state->executor, workers, x.batch,
      [&](std::int64_t i, std::int64_t) { return run_entry(*state, x, i, Parallelism::serial()); },
      &failed);
  return s.ok() ? s : entry_error(failed, s);
}

BatchedCall batched_call(Layout layout, std::int64_t m, std::int64_t n, std::int64_t k,
                         const IntMatrix& a, const QuantParams& qa, const QuantParams& qb,
                         std::int32_t beta, std::int64_t ldc, std::int64_t batch,
                         Parallelism parallelism) {
  BatchedCall x;
  x.proto.layout = layout;
  x.proto.m = m, x.proto.n = n, x.proto.k = k;
  x.proto.a = a;
  x.proto.qa = qa;
  x.proto.qb = qb;
  x.proto.beta = beta;
  x.proto.ldy = ldc;
  x.proto.parallelism = parallelism;
  x.batch = batch;
  return x;
}

}  // namespace
}  // namespace tessera::qgemm_detail

namespace tessera {

using qgemm_detail::BatchedCall;
using qgemm_detail::batched_call;

Status try_gemm_integer_strided_batched(const Context& context, Layout layout, std::int64_t m,
                                        std::int64_t n, std::int64_t k, const IntMatrix& a,
                                        std::int64_t stride_a, const QuantParams& qa,
                                        const IntMatrix& b, std::int64_t stride_b,
                                        const QuantParams& qb, std::int32_t beta,
                                        std::int32_t* c, std::int64_t ldc, std::int64_t stride_c,
                                        std::int64_t batch, Parallelism parallelism) {
  BatchedCall x = batched_call(layout, m, n, k, a, qa, qb, beta, ldc, batch, parallelism);
  x.b = b;
  x.entries.a = static_cast<const std::uint8_t*>(a.data);
  x.entries.b = static_cast<const std::uint8_t*>(b.data);
  x.entries.c = c;
  x.entries.stride_a = stride_a, x.entries.stride_b = stride_b, x.entries.stride_c = stride_c;
  return qgemm_detail::run_batched(context, x);
}

Status try_gemm_integer_strided_batched(const Context& context, Layout layout, std::int64_t m,
                                        std::int64_t n, std::int64_t k, const IntMatrix& a,
                                        std::int64_t stride_a, const QuantParams& qa,
                                        const PackedIntRhs& b, const QuantParams& qb,
                                        std::int32_t beta, std::int32_t* c, std::int64_t ldc,
                                        std::int64_t stride_c, std::int64_t batch,
                                        Parallelism parallelism) {
  BatchedCall x = batched_call(layout, m, n, k, a, qa, qb, beta, ldc, batch, parallelism);
  x.proto.packed = &b;
  x.entries.a = static_cast<const std::uint8_t*>(a.data);
  x.entries.c = c;
  x.entries.stride_a = stride_a, x.entries.stride_c = stride_c;
  return qgemm_detail::run_batched(context, x);
}

Status try_gemm_integer_batched(const Context& context, Layout layout, std::int64_t m,
                                std::int64_t n, std::int64_t k, const IntMatrix& a,
                                const void* const* a_entries, const QuantParams& qa,
                                const IntMatrix& b, const void* const* b_entries,
                                const QuantParams& qb, std::int32_t beta,
                                std::int32_t* const* c_entries, std::int64_t ldc,
                                std::int64_t batch, Parallelism parallelism) {
  BatchedCall x = batched_call(layout, m, n, k, a, qa, qb, beta, ldc, batch, parallelism);
  x.b = b;
  x.entries.lists = true;
  x.entries.a_list = a_entries, x.entries.b_list = b_entries, x.entries.c_list = c_entries;
  return qgemm_detail::run_batched(context, x);
}

}  // namespace tessera
