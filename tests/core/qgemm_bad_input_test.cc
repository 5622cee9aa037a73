// Integer GEMM bad input (design.md §Bad input): every case is
// invalid_argument naming the argument, and the output is untouched.
#include <limits>

#include "tests/core/qgemm_test_util.hpp"

namespace tessera {
namespace {

using test::qgemm::QOperands;
using test::qgemm::QShape;

// One call of each output stage with every argument in a field, so a case
// changes one of them.
struct Call {
  QShape s;
  QOperands o;
  Layout layout;
  std::int64_t m, n, k;
  IntMatrix a, b;
  QuantParams qa, qb, qy;
  std::int32_t beta = 0;
  std::vector<std::int32_t> zb;  // n per-column zero points
  std::vector<float> scales;
  std::vector<std::int32_t> c;
  std::vector<std::uint8_t> y;
  std::vector<float> f;
  std::int64_t ldc;
  IntType y_type = IntType::kU8;
  GemmEpilogue<float> ep;
  std::vector<float> bias;

  Call() {
    s.m = 4, s.n = 6, s.k = 5;
    o = test::qgemm::make_operands(s, 11);
    layout = s.layout;
    m = s.m, n = s.n, k = s.k;
    a = test::qgemm::a_matrix(s, o);
    b = test::qgemm::b_matrix(s, o);
    qa = QuantParams::per_tensor(3, 0.25f);
    qb = QuantParams::per_tensor(-2, 0.5f);
    qy = QuantParams::per_tensor(4, 2.0f);
    zb.assign(static_cast<std::size_t>(n), 1);
    scales.assign(static_cast<std::size_t>(n), 0.125f);
    c.assign(s.c_len(), 0x5A5A5A5A);
    y.assign(s.c_len(), 0x5A);
    f.assign(s.c_len(), 9.0f);
    ldc = s.ldc();
    bias.assign(static_cast<std::size_t>(n), 1.0f);
  }
  Status int32(const Context& context) {
    return try_gemm_integer(context, layout, m, n, k, a, qa, b, qb, beta, c.data(), ldc);
  }
  Status requantize(const Context& context) {
    return try_qlinear_gemm(context, layout, m, n, k, a, qa, b, qb, y_type, qy, y.data(), ldc);
  }
  Status to_float(const Context& context) {
    return try_gemm_integer_to_f32(context, layout, m, n, k, a, qa, b, qb, f.data(), ldc, ep);
  }
  // The outputs as they were before the call.
  std::vector<std::int32_t> c0;
  std::vector<std::uint8_t> y0;
  std::vector<float> f0;
  void snapshot() { c0 = c, y0 = y, f0 = f; }
  bool untouched() const { return c == c0 && y == y0 && f == f0; }
};

void expect(const Status& st, const Call& call, const std::string& mentions, const char* what) {
  CHECK_MESSAGE(st.code() == StatusCode::kInvalidArgument, what, ": ", st.to_string());
  CHECK_MESSAGE(test::contains(st.message(), mentions), what, ": '", st.message(),
                "' should mention '", mentions, "'");
  CHECK_MESSAGE(call.untouched(), what, ": the output was written");
}

TEST_CASE("integer gemm: every bad argument is named, before anything is written") {
  const Context context = test::context_for(test::host_isas().back());
  {
    Call x;
    REQUIRE(x.int32(context).ok());
    REQUIRE(x.requantize(context).ok());
    REQUIRE(x.to_float(context).ok());
  }
  // Each case: a change to one argument, the stage it runs, what the
  // message must name.
  struct Case {
    const char* what;
    void (*change)(Call&);
    int stage;  // 0 int32, 1 requantize, 2 float
    const char* mentions;
  };
  const Case cases[] = {
      {"negative m", [](Call& x) { x.m = -1; }, 0, "m must be >= 0"},
      {"negative k", [](Call& x) { x.k = -3; }, 0, "k must be >= 0"},
      {"negative n", [](Call& x) { x.n = -2; }, 1, "n must be >= 0"},
      {"m*n*k overflows", [](Call& x) { x.m = x.n = x.k = std::int64_t{1} << 22; }, 0, "overflows"},
      {"bad layout", [](Call& x) { x.layout = static_cast<Layout>(7); }, 0, "layout"},
      {"bad a.trans", [](Call& x) { x.a.trans = static_cast<Transpose>(3); }, 0, "a.trans"},
      {"bad b.trans", [](Call& x) { x.b.trans = static_cast<Transpose>(3); }, 0, "b.trans"},
      {"bad a.type", [](Call& x) { x.a.type = static_cast<IntType>(5); }, 0, "a.type"},
      {"bad b.type", [](Call& x) { x.b.type = static_cast<IntType>(5); }, 2, "b.type"},
      {"null a", [](Call& x) { x.a.data = nullptr; }, 0, "a is null"},
      {"null b", [](Call& x) { x.b.data = nullptr; }, 1, "b is null"},
      {"short a.ld", [](Call& x) { x.a.ld = x.k - 1; }, 0, "a.ld"},
      {"short b.ld", [](Call& x) { x.b.ld = 1; }, 0, "b.ld"},
      {"short ldc", [](Call& x) { x.ldc = x.n - 1; }, 0, "ldc"},
      {"short ldy", [](Call& x) { x.ldc = x.n - 1; }, 1, "ldy"},
      {"u8 zero point 300", [](Call& x) { x.qa.zero_point = 300; }, 0, "qa.zero_point = 300 is not a u8 value"},
      {"s8 zero point -129", [](Call& x) { x.qb.zero_point = -129; }, 0, "qb.zero_point = -129 is not a s8 value"},
      {"A per column", [](Call& x) { x.qa.count = x.n; }, 0, "qa must be per tensor"},
      {"qb count wrong", [](Call& x) { x.qb = QuantParams::per_column(x.zb.data(), x.scales.data(), x.n - 1); }, 0, "qb.count = 5 must be 1 (per tensor) or n = 6"},
      {"qb zero points null", [](Call& x) { x.qb = QuantParams::per_column(nullptr, x.scales.data(), x.n); }, 0, "qb.zero_points is null"},
      {"qb scales null", [](Call& x) { x.qb = QuantParams::per_column(x.zb.data(), nullptr, x.n); }, 1, "qb.scales is null"},
      {"qb per-column zero point out of range", [](Call& x) { x.zb[4] = 200; x.qb = QuantParams::per_column(x.zb.data(), x.scales.data(), x.n); }, 0, "qb.zero_points[4] = 200"},
      {"qb arrays with count 1", [](Call& x) { x.qb.zero_points = x.zb.data(); }, 0, "is set (per column) but qb.count = 1, not n = 6"},
      {"beta 2", [](Call& x) { x.beta = 2; }, 0, "beta = 2 must be 0 or 1"},
      {"zero a scale", [](Call& x) { x.qa.scale = 0.0f; }, 1, "qa.scale"},
      {"NaN b scale", [](Call& x) { x.qb.scale = std::numeric_limits<float>::quiet_NaN(); }, 2, "qb.scale"},
      {"negative per-column scale", [](Call& x) { x.scales[2] = -1.0f; x.qb = QuantParams::per_column(x.zb.data(), x.scales.data(), x.n); }, 1, "qb.scales[2]"},
      {"infinite y scale", [](Call& x) { x.qy.scale = std::numeric_limits<float>::infinity(); }, 1, "qy.scale"},
      {"y zero point out of range", [](Call& x) { x.qy.zero_point = 256; }, 1, "qy.zero_point = 256"},
      {"s8 y zero point out of range", [](Call& x) { x.y_type = IntType::kS8; x.qy.zero_point = 128; }, 1, "qy.zero_point = 128 is not a s8 value"},
      {"bad y_type", [](Call& x) { x.y_type = static_cast<IntType>(9); }, 1, "y_type"},
      {"multiplier overflows", [](Call& x) { x.qa.scale = 3e38f; x.qb.scale = 3e38f; }, 1, "multiplier"},
      {"bias null", [](Call& x) { x.ep.bias_kind = BiasKind::kPerColumn; }, 2, "epilogue.bias is null"},
      {"bad bias kind", [](Call& x) { x.ep.bias = x.bias.data(); x.ep.bias_kind = static_cast<BiasKind>(4); }, 2, "epilogue.bias_kind"},
      {"bad activation", [](Call& x) { x.ep.activation = static_cast<Activation>(9); }, 2, "epilogue.activation"},
      {"bias inside y", [](Call& x) { x.ep.bias = x.f.data() + 1; x.ep.bias_kind = BiasKind::kPerColumn; }, 2, "overlaps epilogue.bias"},
      {"c over a", [](Call& x) { x.a.data = reinterpret_cast<const std::uint8_t*>(x.c.data()) + 2; }, 0, "c overlaps a"},
      {"y over b", [](Call& x) { x.b.data = x.y.data(); }, 1, "y overlaps b"},
      {"c over per-column zero points", [](Call& x) { x.c.assign(x.c.size(), 1); x.qb = QuantParams::per_column(x.c.data(), x.scales.data(), x.n); }, 0, "c overlaps qb.zero_points"},
  };
  for (const Case& c : cases) {
    Call x;
    c.change(x);
    x.snapshot();
    const Status st = c.stage == 0 ? x.int32(context) : c.stage == 1 ? x.requantize(context)
                                                                       : x.to_float(context);
    expect(st, x, c.mentions, c.what);
  }
}

TEST_CASE("integer gemm: parallelism threads(-2) and an empty PackedIntRhs are refused") {
  const Context context = test::context_for(test::host_isas().back());
  Call x;
  x.snapshot();
  const Status par = try_gemm_integer(context, x.layout, x.m, x.n, x.k, x.a, x.qa, x.b, x.qb, 0,
                                      x.c.data(), x.ldc, Parallelism::threads(-2));
  expect(par, x, "parallelism", "threads(-2)");
  const PackedIntRhs empty;
  const Status st = try_gemm_integer(context, x.layout, x.m, x.n, x.k, x.a, x.qa, empty, x.qb, 0,
                                     x.c.data(), x.ldc);
  expect(st, x, "empty PackedIntRhs", "empty packed");
  PackedIntRhs packed;
  const Status pre = try_prepack_integer_rhs(context, x.layout, x.k, x.n,
                                             IntMatrix{IntType::kS8, nullptr, x.n}, &packed);
  CHECK(pre.code() == StatusCode::kInvalidArgument);
  CHECK(test::contains(pre.message(), "b is null"));
  CHECK(packed.empty());
}

}  // namespace
}  // namespace tessera
