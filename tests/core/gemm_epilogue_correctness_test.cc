// Fused GEMM epilogues (bias per row/column, relu/gelu/sigmoid): on every
// level the host supports and the naive family, on edge shapes, the fused
// result equals the documented order applied to the plain GEMM's output
// (bit for bit for none/relu) and is within the bound of an independent
// long-double reference.
#include <doctest/doctest.h>

#include "gemm_epilogue_test_util.hpp"

namespace tessera::test::gemm {
namespace {

std::vector<Shape> epilogue_shapes() {
  std::vector<Shape> shapes;
  const std::int64_t dims[][3] = {{0, 5, 3}, {4, 0, 3}, {1, 1, 1},  {7, 5, 0},   {13, 37, 11},
                                  {9, 33, 17}, {31, 67, 300}, {8, 32, 64}, {17, 1, 29},
                                  {1, 97, 5}, {9, 35, 1100},  // 1100: past kc = 1024 (AVX-512)
                                  // The packed path (rows of B >= 2 KiB, k > 16) with
                                  // partial row tiles and a partial column panel.
                                  {20, 530, 20}};
  // Slow targets take the largest C (20 x 530: most of the elements, each
  // checked against a long-double activation, software arithmetic under
  // qemu-aarch64 and wasm) in two of its eight forms.
  const bool slow = slow_target();
  for (const auto& d : dims) {
    for (int layout = 0; layout < 2; ++layout) {
      for (int t = 0; t < 4; ++t) {
        if (slow && d[0] * d[1] > 4000 && t != 1 + 2 * layout) continue;
        Shape s;
        s.layout = layout == 0 ? Layout::kRowMajor : Layout::kColMajor;
        s.ta = (t & 1) ? Transpose::kYes : Transpose::kNo;
        s.tb = (t & 2) ? Transpose::kYes : Transpose::kNo;
        s.m = d[0], s.n = d[1], s.k = d[2];
        s.lda_pad = t == 3 ? 5 : 0;
        s.ldc_pad = t == 1 ? 129 : 0;  // large ldc
        s.alpha = t == 2 ? -0.75 : 1.0;
        s.beta = t == 0 ? 0.0 : (t == 1 ? 1.0 : -0.5);
        shapes.push_back(s);
      }
    }
  }
  // alpha == 0: C = act(beta C + bias), A and B unread.
  Shape z;
  z.m = 11, z.n = 19, z.k = 7, z.alpha = 0.0, z.beta = 0.5;
  shapes.push_back(z);
  z.layout = Layout::kColMajor;
  shapes.push_back(z);
  return shapes;
}

// A shape with its operands and their exact product: formed once per dtype
// for every level (the long-double product is most of this test's work:
// software arithmetic on aarch64, whose long double is quad precision, and
// on wasm).
template <class T>
struct ShapeData {
  Shape s;
  Operands<T> o;
  ExactProduct product;
};

template <class T>
const std::vector<ShapeData<T>>& shape_data() {
  static const std::vector<ShapeData<T>> data = [] {
    std::vector<ShapeData<T>> all;
    std::uint64_t seed = 1;
    for (const Shape& s : epilogue_shapes()) {
      ShapeData<T> d{s, make_operands<T>(s, seed++), {}};
      d.product = exact_product(s, d.o);
      all.push_back(std::move(d));
    }
    return all;
  }();
  return data;
}

template <class T>
void check_level(const Context& context, const std::string& level) {
  std::uint64_t seed = 1000;
  for (const ShapeData<T>& d : shape_data<T>()) {
    const Shape& s = d.s;
    std::vector<T> plain;
    const Status ps = run(context, s, d.o, &plain);
    REQUIRE_MESSAGE(ps.ok(), ps.to_string());
    for (const EpilogueCase& e : epilogue_cases()) {
      const std::vector<T> bias = make_bias<T>(s, e, seed++);
      std::vector<T> fused;
      const Status st = run_epilogue(context, s, d.o, e, bias, &fused);
      REQUIRE_MESSAGE(st.ok(), st.to_string());
      check_order(s, e, bias, plain, fused, level);
      check_reference(s, d.o, d.product, e, bias, fused, level);
    }
  }
}

TEST_CASE("fused epilogue = plain GEMM, + bias, act on every level (f32, f64)") {
  for (Isa isa : host_isas()) {
    const Context context = context_for(isa);
    check_level<float>(context, std::string(isa_name(isa)) + " f32");
    check_level<double>(context, std::string(isa_name(isa)) + " f64");
  }
}

TEST_CASE("the naive family's epilogue is the reference's") {
  const Context context = naive_context();
  check_level<float>(context, "naive f32");
  check_level<double>(context, "naive f64");
}

TEST_CASE("relu keeps NaN and -0; bias is not added without a bias kind") {
  // C = 0 * A B + beta C with k = 0 and alpha == 0: the epilogue alone.
  for (Isa isa : host_isas()) {
    const Context context = context_for(isa);
    std::vector<float> c = {-0.0f, std::numeric_limits<float>::quiet_NaN(), -2.0f, 3.0f};
    GemmEpilogue<float> ep;
    ep.activation = Activation::kRelu;
    const Status s = try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 1, 4, 0,
                              1.0f, nullptr, 1, nullptr, 4, 1.0f, c.data(), 4, ep);
    REQUIRE_MESSAGE(s.ok(), s.to_string());
    CHECK(std::signbit(c[0]));
    CHECK(std::isnan(c[1]));
    CHECK(c[2] == 0.0f);
    CHECK(c[3] == 3.0f);
  }
}

}  // namespace
}  // namespace tessera::test::gemm
