// Batched GEMM results: every entry equals single try_gemm on it bit for
// bit (the batch runs the same arithmetic) and is within the error bound of
// an independent double reference; strided, pointer-array and prepacked-B
// forms; batch 0, 1 and primes; m, n, k of 0 and 1; transposes; both
// layouts; a B shared by the whole batch (stride 0).
#include "tests/core/gemm_batched_test_util.hpp"

namespace tessera {
namespace {

using test::gemm::Batch;
using test::gemm::Shape;

std::vector<Shape> shapes() {
  std::vector<Shape> out;
  // 37 x 29 x 70 and 66 x 70 x 40 take 16 KiB or more of A and B an entry:
  // the batch then hands each entry its successor's operands to prefetch,
  // and 66 x 70 runs the one-worker direct path's wide tiles.
  const std::int64_t dims[][3] = {{0, 5, 3},   {4, 0, 3},    {4, 5, 0},    {1, 1, 1},
                                  {1, 9, 4},   {7, 1, 6},    {5, 6, 1},    {13, 17, 11},
                                  {37, 29, 70}, {66, 70, 40}};
  int i = 0;
  for (const auto& d : dims) {
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      Shape s;
      s.layout = layout;
      s.ta = i % 2 ? Transpose::kYes : Transpose::kNo;
      s.tb = i % 3 ? Transpose::kNo : Transpose::kYes;
      s.m = d[0], s.n = d[1], s.k = d[2];
      s.lda_pad = i % 2, s.ldb_pad = (i / 2) % 2, s.ldc_pad = i % 3;
      const double alphas[] = {1.0, -0.5, 0.0, 2.0};
      const double betas[] = {0.0, 1.0, -1.5, 0.25};
      s.alpha = alphas[i % 4];
      s.beta = betas[(i / 4) % 4];
      out.push_back(s);
      ++i;
    }
  }
  return out;
}

template <class T>
void check_forms(const Context& context, const Shape& s, std::int64_t count, bool shared_b,
                 std::uint64_t seed) {
  const Batch<T> x = test::gemm::make_batch<T>(s, count, seed, shared_b);
  const std::vector<T> expected = test::gemm::loop_of_single(context, x);
  const std::string where = s.describe() + " batch " + std::to_string(count) +
                            (shared_b ? " shared b" : "");
  // The loop of single calls against the reference (entries and the gaps
  // between them); each batched form must then give its bits, gaps included.
  test::gemm::check_entries_close(x, expected, "single loop " + where);
  std::vector<T> c;
  Status st = test::gemm::run_strided(context, x, &c);
  REQUIRE_MESSAGE(st.ok(), st.to_string());
  CHECK_MESSAGE(test::gemm::same_bits(expected, c), "strided vs single loop: ", where);
  st = test::gemm::run_arrays(context, x, &c);
  REQUIRE_MESSAGE(st.ok(), st.to_string());
  CHECK_MESSAGE(test::gemm::same_bits(expected, c), "pointer arrays vs single loop: ", where);
}

TEST_CASE("strided and pointer-array batches equal single gemm per entry and the reference") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    std::uint64_t seed = 100;
    for (const Shape& s : shapes()) {
      for (std::int64_t count : {0, 1, 2, 7, 13}) {
        for (bool shared_b : {false, true}) {
          check_forms<float>(context, s, count, shared_b, seed);
          check_forms<double>(context, s, count, shared_b, seed + 1);
          seed += 2;
        }
      }
    }
  }
}

template <class T>
void check_prepacked(const Context& context, const Shape& s, std::int64_t count,
                     std::uint64_t seed) {
  const Batch<T> x = test::gemm::make_batch<T>(s, count, seed, true);
  PackedRhs packed;
  Status st = try_prepack_rhs(context, s.layout, s.tb, s.k, s.n, x.b.data(), s.ldb(), &packed);
  REQUIRE_MESSAGE(st.ok(), st.to_string());
  // The unpacked loop: a prepacked B gives the bits of the unpacked call.
  const std::vector<T> expected = test::gemm::loop_of_single(context, x);
  std::vector<T> c = x.c;
  st = try_gemm_strided_batched(context, s.layout, s.ta, s.m, static_cast<T>(s.alpha), x.a.data(),
                                s.lda(), x.stride_a, packed, static_cast<T>(s.beta), c.data(),
                                s.ldc(), x.stride_c, count);
  REQUIRE_MESSAGE(st.ok(), st.to_string());
  CHECK_MESSAGE(test::gemm::same_bits(expected, c), "prepacked batch: ", s.describe());
  test::gemm::check_entries_close(x, c, "prepacked " + s.describe());
}

TEST_CASE("a prepacked B applied to a batch of A's equals the unpacked loop and the reference") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    if (context.family() != KernelFamily::kOptimized) continue;
    std::uint64_t seed = 5000;
    for (const Shape& s : shapes()) {
      for (std::int64_t count : {0, 1, 5, 11}) {
        check_prepacked<float>(context, s, count, seed++);
        check_prepacked<double>(context, s, count, seed++);
      }
    }
  }
}

#if TESSERA_HAS_EXCEPTIONS
TEST_CASE("the throwing forms run the batch and throw the Status on bad input") {
  const Context context = test::context_for(test::gemm::best_isa());
  Shape s;
  s.m = 3, s.n = 4, s.k = 5;
  const Batch<float> x = test::gemm::make_batch<float>(s, 3, 77);
  std::vector<float> c = x.c;
  gemm_strided_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f, x.a.data(), s.lda(),
                       x.stride_a, x.b.data(), s.ldb(), x.stride_b, 0.0f, c.data(), s.ldc(),
                       x.stride_c, x.count);
  CHECK(test::gemm::same_bits(test::gemm::loop_of_single(context, x), c));
  CHECK_THROWS_AS(gemm_strided_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f,
                                       x.a.data(), s.lda(), x.stride_a, x.b.data(), s.ldb(),
                                       x.stride_b, 0.0f, c.data(), s.ldc(), x.stride_c,
                                       std::int64_t{-1}),
                  Error);
}
#endif

}  // namespace
}  // namespace tessera
