// The integer GEMM's argument checks (design.md §Bad input): each failure
// is invalid_argument naming the argument and its value, and all of them
// run before anything is written.
#include <cmath>
#include <string>

#include "core/src/base/validate.hpp"
#include "core/src/qgemm/qgemm_call.hpp"

namespace tessera::qgemm_detail {
namespace {

using core::str;

Status bad(const QGemmCall&, const std::string& message) {
  return Status::invalid_argument(message);
}

bool valid_type(IntType t) { return static_cast<unsigned>(t) <= 1; }
std::int32_t type_min(IntType t) { return t == IntType::kS8 ? -128 : 0; }
std::int32_t type_max(IntType t) { return t == IntType::kS8 ? 127 : 255; }

Status check_type(const QGemmCall& call, IntType t, const char* name) {
  if (!valid_type(t)) {
    return bad(call, std::string(name) + " is not an IntType value (got " +
                         str(static_cast<int>(t)) + ")");
  }
  return {};
}

Status check_trans(const QGemmCall& call, Transpose t, const char* name) {
  if (t != Transpose::kNo && t != Transpose::kYes) {
    return bad(call, std::string(name) + " is not a Transpose value (got " +
                         str(static_cast<int>(t)) + ")");
  }
  return {};
}

Status check_zero_point(const QGemmCall& call, std::int32_t zp, IntType t,
                        const std::string& name) {
  if (zp < type_min(t) || zp > type_max(t)) {
    return bad(call, name + " = " + str(zp) + " is not a " + int_type_name(t) + " value (" +
                         str(type_min(t)) + ".." + str(type_max(t)) + ")");
  }
  return {};
}

Status check_scale(const QGemmCall& call, float scale, const std::string& name) {
  if (!(std::isfinite(scale) && scale > 0.0f)) {
    return bad(call, name + " = " + std::to_string(scale) + " is not a positive finite number");
  }
  return {};
}

// A per-tensor quantization (count 1, no arrays): A's and the output's.
Status check_per_tensor(const QGemmCall& call, const QuantParams& q, const char* name) {
  if (q.count != 1 || q.zero_points != nullptr || q.scales != nullptr) {
    return bad(call, std::string(name) + " must be per tensor (count 1, zero_points and scales "
                                          "null; got count " + str(q.count) + ")");
  }
  return {};
}

// B's quantization: per tensor, or per column (qgemm_per_column: count n
// with its arrays).
Status check_b_quant(const QGemmCall& call, const QuantParams& q, IntType type, bool scales) {
  if (!per_column(q)) {
    TESSERA_RETURN_IF_ERROR(check_zero_point(call, q.zero_point, type, "qb.zero_point"));
    if (scales) TESSERA_RETURN_IF_ERROR(check_scale(call, q.scale, "qb.scale"));
    return {};
  }
  if (q.count != call.n) {
    if (q.count == 1) {
      return bad(call, "qb.zero_points or qb.scales is set (per column) but qb.count = 1, not n = " +
                           str(call.n));
    }
    return bad(call, "qb.count = " + str(q.count) + " must be 1 (per tensor) or n = " +
                         str(call.n) + " (per column)");
  }
  if (call.n > 0 && q.zero_points == nullptr) {
    return bad(call, "qb.zero_points is null with qb.count = n (per column)");
  }
  if (scales && call.n > 0 && q.scales == nullptr) {
    return bad(call, "qb.scales is null with qb.count = n (per column)");
  }
  for (std::int64_t j = 0; j < q.count; ++j) {
    TESSERA_RETURN_IF_ERROR(
        check_zero_point(call, q.zero_points[j], type, "qb.zero_points[" + str(j) + "]"));
    if (scales) TESSERA_RETURN_IF_ERROR(check_scale(call, q.scales[j], "qb.scales[" + str(j) + "]"));
  }
  return {};
}

// The output (its accessed bytes in *out) must not share a byte with an
// input array.
Status check_apart(const QGemmCall& call, const core::Stored& y, const void* p,
                   std::size_t bytes, const char* name) {
  if (core::ranges_overlap(y.data, y.bytes, p, bytes)) {
    return bad(call, std::string(y.name) + " overlaps " + name +
                         ": the output must not share memory with an input");
  }
  return {};
}

}  // namespace

Status check_call(const detail::ContextState& state, const QGemmCall& call) {
  TESSERA_RETURN_IF_ERROR(core::check_enums(call.layout, nullptr, nullptr));
  TESSERA_RETURN_IF_ERROR(check_trans(call, call.a.trans, "a.trans"));
  if (call.b != nullptr) TESSERA_RETURN_IF_ERROR(check_trans(call, call.b->trans, "b.trans"));
  TESSERA_RETURN_IF_ERROR(check_type(call, call.a.type, "a.type"));
  if (call.b != nullptr) TESSERA_RETURN_IF_ERROR(check_type(call, call.b->type, "b.type"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(call.m, "m"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(call.n, "n"));
  TESSERA_RETURN_IF_ERROR(core::check_dim(call.k, "k"));
  TESSERA_RETURN_IF_ERROR(core::check_mnk(call.m, call.n, call.k));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(call.parallelism));

  const bool na = call.a.trans == Transpose::kNo;
  core::Stored sa{"a", "a.ld", call.a.data, na ? call.m : call.k, na ? call.k : call.m, call.a.ld};
  TESSERA_RETURN_IF_ERROR(core::check_stored(call.layout, 1, &sa));
  core::Stored sb{"b", "b.ld", nullptr, 0, 0, 1};
  IntType b_type = IntType::kS8;
  if (call.b != nullptr) {
    const bool nb = call.b->trans == Transpose::kNo;
    sb = {"b", "b.ld", call.b->data, nb ? call.k : call.n, nb ? call.n : call.k, call.b->ld};
    TESSERA_RETURN_IF_ERROR(core::check_stored(call.layout, 1, &sb));
    b_type = call.b->type;
  } else {
    const detail::PackedIntRhsState* pb = call.packed->state();
    if (pb == nullptr) return bad(call, "b is an empty PackedIntRhs");
    if (pb->isa != state.table->isa || state.table->family != KernelFamily::kOptimized) {
      return bad(call, std::string("b was packed for ") + isa_name(pb->isa) +
                           " but this context runs " +
                           (state.table->family == KernelFamily::kNaive
                                ? std::string("the naive family")
                                : std::string(isa_name(state.table->isa))) +
                           " (pack it with a context of that level)");
    }
    if (pb->k != call.k || pb->n != call.n) {
      return bad(call, "b was packed as " + str(pb->k) + " x " + str(pb->n) +
                           " but this call needs k x n = " + str(call.k) + " x " + str(call.n));
    }
    b_type = pb->type;
  }

  const char* y_name = call.kind == core::QGemmOutputKind::kInt32 ? "c" : "y";
  const char* ld_name = call.kind == core::QGemmOutputKind::kInt32 ? "ldc" : "ldy";
  const std::size_t y_element = call.kind == core::QGemmOutputKind::kRequantize ? 1 : 4;
  core::Stored sy{y_name, ld_name, call.y, call.m, call.n, call.ldy};
  TESSERA_RETURN_IF_ERROR(core::check_stored(call.layout, y_element, &sy));

  TESSERA_RETURN_IF_ERROR(check_per_tensor(call, call.qa, "qa"));
  TESSERA_RETURN_IF_ERROR(check_zero_point(call, call.qa.zero_point, call.a.type, "qa.zero_point"));
  const bool scales = call.kind != core::QGemmOutputKind::kInt32;
  if (scales) TESSERA_RETURN_IF_ERROR(check_scale(call, call.qa.scale, "qa.scale"));
  TESSERA_RETURN_IF_ERROR(check_b_quant(call, call.qb, b_type, scales));

  switch (call.kind) {
    case core::QGemmOutputKind::kInt32:
      if (call.beta != 0 && call.beta != 1) {
        return bad(call, "beta = " + str(call.beta) + " must be 0 or 1 (accumulate into c)");
      }
      break;
    case core::QGemmOutputKind::kRequantize: {
      TESSERA_RETURN_IF_ERROR(check_type(call, call.y_type, "y_type"));
      TESSERA_RETURN_IF_ERROR(check_per_tensor(call, call.qy, "qy"));
      TESSERA_RETURN_IF_ERROR(check_scale(call, call.qy.scale, "qy.scale"));
      TESSERA_RETURN_IF_ERROR(
          check_zero_point(call, call.qy.zero_point, call.y_type, "qy.zero_point"));
      // The multipliers the output stage will use must be finite.
      for (std::int64_t j = 0; j < quant_count(call.qb); ++j) {
        const float multiplier = call.qa.scale * b_scale(call.qb, j) / call.qy.scale;
        if (!std::isfinite(multiplier)) {
          return bad(call, "the multiplier qa.scale * qb.scale" +
                               (per_column(call.qb) ? "s[" + str(j) + "]" : std::string()) +
                               " / qy.scale is not finite");
        }
      }
      break;
    }
    case core::QGemmOutputKind::kFloat: {
      const GemmEpilogue<float>& ep = call.epilogue;
      if (static_cast<unsigned>(ep.bias_kind) > 2) {
        return bad(call, "epilogue.bias_kind is not a BiasKind value (got " +
                             str(static_cast<int>(ep.bias_kind)) + ")");
      }
      if (static_cast<unsigned>(ep.activation) > 3) {
        return bad(call, "epilogue.activation is not an Activation value (got " +
                             str(static_cast<int>(ep.activation)) + ")");
      }
      if (ep.bias_kind != BiasKind::kNone && ep.bias == nullptr) {
        return bad(call, std::string("epilogue.bias is null with bias_kind ") +
                             bias_kind_name(ep.bias_kind));
      }
      for (std::int64_t j = 0; j < quant_count(call.qb); ++j) {
        if (!std::isfinite(call.qa.scale * b_scale(call.qb, j))) {
          return bad(call, "the scale qa.scale * qb.scale" +
                               (per_column(call.qb) ? "s[" + str(j) + "]" : std::string()) +
                               " is not finite");
        }
      }
      if (ep.bias_kind != BiasKind::kNone) {
        const std::int64_t len = ep.bias_kind == BiasKind::kPerColumn ? call.n : call.m;
        TESSERA_RETURN_IF_ERROR(check_apart(call, sy, ep.bias, len * sizeof(float), "epilogue.bias"));
      }
      break;
    }
  }

  // The output shares no byte with A, B or the quantization arrays.
  TESSERA_RETURN_IF_ERROR(check_apart(call, sy, sa.data, sa.bytes, "a"));
  if (call.b != nullptr) TESSERA_RETURN_IF_ERROR(check_apart(call, sy, sb.data, sb.bytes, "b"));
  if (per_column(call.qb)) {
    const auto n = static_cast<std::size_t>(call.qb.count);
    TESSERA_RETURN_IF_ERROR(
        check_apart(call, sy, call.qb.zero_points, n * sizeof(std::int32_t), "qb.zero_points"));
    if (call.qb.scales != nullptr) {
      TESSERA_RETURN_IF_ERROR(check_apart(call, sy, call.qb.scales, n * sizeof(float), "qb.scales"));
    }
  }
  return {};
}

}  // namespace tessera::qgemm_detail
