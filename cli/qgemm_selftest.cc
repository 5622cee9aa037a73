#include "qgemm_selftest.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

#include "elementwise_problem.hpp"  // ulp_distance
#include "qgemm_seeded.hpp"

namespace tessera::cli {
namespace {

enum class Output { kInt32, kU8, kS8, kF32, kInt32Prepacked };

const char* output_name(Output out) {
  switch (out) {
    case Output::kInt32: return "qgemm_s32";
    case Output::kU8: return "qgemm_u8";
    case Output::kS8: return "qgemm_s8";
    case Output::kF32: return "qgemm_f32";
    case Output::kInt32Prepacked: return "qgemm_packed";
  }
  return "?";
}

struct Case {
  std::int64_t m, n, k;
  Layout layout;
  Transpose ta, tb;
  bool per_column;
  Activation act;  // the f32 output's: every one across the cases
};

// The integer outputs and the f32 output up to its activation are exact;
// gelu and sigmoid are the scalar level's against the naive family's long
// double ones, within their documented bound (tessera/elementwise.hpp) + 1
// ulp for the naive family's own rounding.
bool agree(Output out, Activation act, const std::vector<unsigned char>& want,
           const std::vector<unsigned char>& got) {
  if (want.size() != got.size()) return false;
  if (out != Output::kF32 || act == Activation::kNone || act == Activation::kRelu) {
    return want == got;
  }
  const UnaryOp op = act == Activation::kGelu ? UnaryOp::kGelu : UnaryOp::kSigmoid;
  const double bound = unary_op_ulp_bound(op, false) + 1.0;
  for (std::size_t i = 0; i < want.size(); i += sizeof(float)) {
    float w, g;
    std::memcpy(&w, &want[i], sizeof w);
    std::memcpy(&g, &got[i], sizeof g);
    if (!(ulp_distance(w, g) <= bound)) return false;
  }
  return true;
}

// One case and output on `context`: the bytes of its result.
Status run_case(const Context& context, const Case& t, IntType a_type, IntType b_type, Output out,
                const QGemmSeeded& q, std::vector<unsigned char>* result) {
  const bool row = t.layout == Layout::kRowMajor;
  // The seeded bytes are read as op(X) is stored: only the leading
  // dimension follows from the transpose and the layout.
  const std::int64_t a_cols = t.ta == Transpose::kNo ? t.k : t.m;
  const std::int64_t a_rows = t.ta == Transpose::kNo ? t.m : t.k;
  const std::int64_t b_cols = t.tb == Transpose::kNo ? t.n : t.k;
  const std::int64_t b_rows = t.tb == Transpose::kNo ? t.k : t.n;
  const IntMatrix a{a_type, q.a.data(), row ? a_cols : a_rows, t.ta};
  const IntMatrix b{b_type, q.b.data(), row ? b_cols : b_rows, t.tb};
  const std::int64_t ld = row ? t.n : t.m;
  std::vector<float> scales(static_cast<std::size_t>(t.n));
  for (std::size_t j = 0; j < scales.size(); ++j) scales[j] = 0.001f * float(1 + j % 5);
  const QuantParams qa = QuantParams::per_tensor(q.za, 0.02f);
  const QuantParams qb = t.per_column ? QuantParams::per_column(q.zb.data(), scales.data(), t.n)
                                      : QuantParams::per_tensor(q.zb[0], 0.003f);
  const std::size_t count = static_cast<std::size_t>(t.m * t.n);
  switch (out) {
    case Output::kInt32:
    case Output::kInt32Prepacked: {
      // beta 1 on a seeded C: the accumulate path is checked too.
      std::vector<std::int32_t> c(count);
      for (std::size_t i = 0; i < count; ++i) c[i] = std::int32_t(i % 1013) - 500;
      Status s;
      if (out == Output::kInt32) {
        s = try_gemm_integer(context, t.layout, t.m, t.n, t.k, a, qa, b, qb, 1, c.data(), ld);
      } else {
        PackedIntRhs packed;
        s = try_prepack_integer_rhs(context, t.layout, t.k, t.n, b, &packed);
        if (s.ok()) {
          s = try_gemm_integer(context, t.layout, t.m, t.n, t.k, a, qa, packed, qb, 1, c.data(),
                               ld);
        }
      }
      result->resize(count * sizeof(std::int32_t));
      std::memcpy(result->data(), c.data(), result->size());
      return s;
    }
    case Output::kU8:
    case Output::kS8: {
      const IntType y_type = out == Output::kU8 ? IntType::kU8 : IntType::kS8;
      result->assign(count, 0);
      return try_qlinear_gemm(context, t.layout, t.m, t.n, t.k, a, qa, b, qb, y_type,
                              QuantParams::per_tensor(out == Output::kU8 ? 128 : -3, 0.05f),
                              result->data(), ld);
    }
    case Output::kF32: {
      std::vector<float> y(count), bias(static_cast<std::size_t>(t.n));
      for (std::size_t j = 0; j < bias.size(); ++j) bias[j] = 0.125f * float(int(j % 9) - 4);
      const Activation act = t.act;
      const Status s = try_gemm_integer_to_f32(context, t.layout, t.m, t.n, t.k, a, qa, b, qb,
                                               y.data(), ld,
                                               GemmEpilogue<float>{bias.data(), BiasKind::kPerColumn,
                                                                   act});
      result->resize(count * sizeof(float));
      std::memcpy(result->data(), y.data(), result->size());
      return s;
    }
  }
  return Status::internal("selftest: unknown integer GEMM output");
}

std::size_t mismatches(const Context& naive, const Context& context, Output out) {
  const Case cases[] = {
      {1, 1, 1, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, false, Activation::kNone},
      {7, 5, 3, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, true, Activation::kRelu},
      {17, 33, 9, Layout::kRowMajor, Transpose::kYes, Transpose::kNo, true, Activation::kGelu},
      {64, 64, 64, Layout::kColMajor, Transpose::kNo, Transpose::kYes, false, Activation::kSigmoid},
      {131, 75, 301, Layout::kRowMajor, Transpose::kNo, Transpose::kYes, true, Activation::kGelu},
      {29, 200, 513, Layout::kColMajor, Transpose::kYes, Transpose::kYes, true, Activation::kRelu},
  };
  std::size_t bad = 0;
  for (IntType a_type : {IntType::kU8, IntType::kS8}) {
    for (IntType b_type : {IntType::kS8, IntType::kU8}) {
      for (const Case& t : cases) {
        const QGemmSeeded q = make_qgemm_seeded(t.m, t.n, t.k, a_type == IntType::kS8,
                                                b_type == IntType::kS8, 21);
        std::vector<unsigned char> want, got;
        // The reference packs nothing: the naive family is the plain loop.
        const Output reference = out == Output::kInt32Prepacked ? Output::kInt32 : out;
        const Status s_want = run_case(naive, t, a_type, b_type, reference, q, &want);
        const Status s_got = run_case(context, t, a_type, b_type, out, q, &got);
        // A failed call is a failure too, and says why.
        for (const Status* s : {&s_want, &s_got}) {
          if (!s->ok()) std::fprintf(stderr, "tessera-cli: selftest: %s\n", s->to_string().c_str());
        }
        if (!s_want.ok() || !s_got.ok() || !agree(out, t.act, want, got)) ++bad;
      }
    }
  }
  return bad;
}

}  // namespace

void selftest_qgemm(const Context& naive, const Context& context, int* passes, int* failures) {
  for (Output out : {Output::kInt32, Output::kU8, Output::kS8, Output::kF32,
                     Output::kInt32Prepacked}) {
    const std::size_t bad = mismatches(naive, context, out);
    std::printf("%s %-13s i8  %-8s\n", bad == 0 ? "PASS" : "FAIL", output_name(out),
                isa_name(context.isa()));
    (bad == 0 ? *passes : *failures) += 1;
  }
}

}  // namespace tessera::cli
