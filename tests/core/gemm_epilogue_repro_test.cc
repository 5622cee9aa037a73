// Fused epilogues give the same bits for 1, 2, 3, 4, 7 and 8 workers on the
// direct and packed paths, and through a prepacked B (PackedRhs) the same
// bits as with B in place.
#include <doctest/doctest.h>

#include "gemm_epilogue_test_util.hpp"

namespace tessera::test::gemm {
namespace {

template <class T>
void check_workers(Isa isa, const Shape& s) {
  const Operands<T> o = make_operands<T>(s, 99);
  for (const EpilogueCase& e : epilogue_cases()) {
    const std::vector<T> bias = make_bias<T>(s, e, 5);
    std::vector<T> first;
    for (int workers : {1, 2, 3, 4, 7, 8}) {
      const Context context = context_with(isa, wide_executor(workers));
      std::vector<T> c;
      const Status st = run_epilogue(context, s, o, e, bias, &c, Parallelism::threads(workers));
      REQUIRE_MESSAGE(st.ok(), st.to_string());
      if (workers == 1) {
        first = c;
      } else {
        CHECK_MESSAGE(same_bits(first, c), isa_name(isa), " ", s.describe(), " ", e.describe(),
                      ": ", workers, " workers differ from 1");
      }
    }
  }
}

TEST_CASE("epilogue bits are identical for 1, 2, 3, 4, 7, 8 workers (direct and packed paths)") {
  const bool slow = slow_target();
  std::vector<Shape> shapes;
  Shape s;
  s.m = 45, s.n = 77, s.k = 300, s.beta = -0.5;  // direct path, depth sliced on 128-bit levels
  shapes.push_back(s);
  s.m = slow ? 150 : 700, s.n = slow ? 90 : 210, s.k = slow ? 300 : 800, s.alpha = 0.5;
  s.layout = Layout::kColMajor, s.ta = Transpose::kYes;  // packed path, several slices
  shapes.push_back(s);
  for (Isa isa : host_isas()) {
    for (const Shape& shape : shapes) {
      check_workers<float>(isa, shape);
      if (!slow) check_workers<double>(isa, shape);
    }
  }
}

template <class T>
void check_packed_rhs(Isa isa, const Shape& s) {
  const Context context = context_for(isa);
  const Operands<T> o = make_operands<T>(s, 17);
  PackedRhs packed;
  const Status ps = try_prepack_rhs(context, s.layout, s.tb, s.k, s.n, o.b.data(), s.ldb(), &packed);
  REQUIRE_MESSAGE(ps.ok(), ps.to_string());
  const ExactProduct product = exact_product(s, o);
  for (const EpilogueCase& e : epilogue_cases()) {
    const std::vector<T> bias = make_bias<T>(s, e, 8);
    std::vector<T> in_place;
    REQUIRE(run_epilogue(context, s, o, e, bias, &in_place).ok());
    std::vector<T> c = o.c;
    GemmEpilogue<T> ep{e.bias == BiasKind::kNone ? nullptr : bias.data(), e.bias, e.act};
    const Status st = try_gemm(context, s.layout, s.ta, s.m, static_cast<T>(s.alpha), o.a.data(),
                               s.lda(), packed, static_cast<T>(s.beta), c.data(), s.ldc(), ep);
    REQUIRE_MESSAGE(st.ok(), st.to_string());
    CHECK_MESSAGE(same_bits(in_place, c), isa_name(isa), " ", s.describe(), " ", e.describe(),
                  ": PackedRhs differs from B in place");
    check_reference(s, o, product, e, bias, c, std::string("PackedRhs ") + isa_name(isa));
  }
}

TEST_CASE("PackedRhs with an epilogue gives the bits of B in place") {
  for (Isa isa : host_isas()) {
    Shape s;
    s.m = 37, s.n = 53, s.k = 300, s.beta = 1.0;
    check_packed_rhs<float>(isa, s);
    s.layout = Layout::kColMajor, s.tb = Transpose::kYes, s.m = 130, s.n = 70;
    check_packed_rhs<double>(isa, s);
    check_packed_rhs<float>(isa, s);
  }
}

}  // namespace
}  // namespace tessera::test::gemm
