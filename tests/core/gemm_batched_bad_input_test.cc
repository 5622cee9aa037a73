// Batched GEMM bad input (design.md §Bad input, design.md §Bad input): each case returns
// invalid_argument naming the argument (and entry), and no C entry is
// written.
#include "tests/core/gemm_batched_test_util.hpp"

namespace tessera {
namespace {

using test::gemm::Batch;
using test::gemm::Shape;

Shape small_shape() {
  Shape s;
  s.m = 4, s.n = 5, s.k = 3;
  s.beta = 1;
  return s;
}

void expect_rejected(const Status& st, const std::vector<float>& c, const std::vector<float>& c0,
                     const std::string& mentions, const char* what) {
  CHECK_MESSAGE(st.code() == StatusCode::kInvalidArgument, what, ": ", st.to_string());
  CHECK_MESSAGE(st.message().find(mentions) != std::string::npos, what, ": '", st.message(),
                "' should mention '", mentions, "'");
  CHECK_MESSAGE(test::gemm::same_bits(c, c0), what, ": C was written");
}

// The strided call with one argument changed.
// The entries of a strided batch as pointer arrays (C entries in `c`, a
// copy of x.c), for the pointer-array form.
struct EntryPointers {
  std::vector<const float*> a, b;
  std::vector<float*> c;
};
EntryPointers entry_pointers(const Batch<float>& x, std::vector<float>& c) {
  EntryPointers p;
  for (std::int64_t i = 0; i < x.count; ++i) {
    p.a.push_back(x.a.data() + i * x.stride_a);
    p.b.push_back(x.b.data() + i * x.stride_b);
    p.c.push_back(c.data() + i * x.stride_c);
  }
  return p;
}

struct Strided {
  Shape s = small_shape();
  Batch<float> x = test::gemm::make_batch<float>(small_shape(), 4, 3);
  std::int64_t batch = 4, stride_a = x.stride_a, stride_b = x.stride_b, stride_c = x.stride_c;
  std::int64_t lda = s.lda(), ldb = s.ldb(), ldc = s.ldc();
  const float* a = x.a.data();
  const float* b = x.b.data();
  std::vector<float> c = x.c;
  float* cp = c.data();
  Status run(const Context& context) {
    return try_gemm_strided_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f, a, lda,
                                    stride_a, b, ldb, stride_b, 1.0f, cp, ldc, stride_c, batch);
  }
};

TEST_CASE("strided batch: bad arguments are named and C is untouched") {
  const Context context = test::context_for(test::gemm::best_isa());
  struct Bad {
    const char* what;
    void (*change)(Strided*);
    const char* mentions;
  };
  const Bad cases[] = {
      {"batch < 0", [](Strided* t) { t->batch = -1; }, "batch"},
      {"m < 0", [](Strided* t) { t->s.m = -2; }, "m must be"},
      {"lda too small", [](Strided* t) { t->lda = 1; }, "lda"},
      {"a null", [](Strided* t) { t->a = nullptr; }, "a is null"},
      {"b null", [](Strided* t) { t->b = nullptr; }, "b is null"},
      {"c null", [](Strided* t) { t->cp = nullptr; }, "c is null"},
      {"stride_a < 0", [](Strided* t) { t->stride_a = -1; }, "stride_a"},
      {"stride_c 0", [](Strided* t) { t->stride_c = 0; }, "stride_c"},
      {"stride_c below one C", [](Strided* t) { t->stride_c = t->s.m * t->s.n - 1; }, "stride_c"},
      // C entry 2 lands on A entry 0's memory: c = a + ... is an input
      // overlap across entries, which no single entry's check sees.
      {"c entry overlaps an a entry",
       [](Strided*) {},  // set up below, in one allocation
       "overlaps a[0]"},
  };
  for (const Bad& bad : cases) {
    Strided t;
    bad.change(&t);
    if (std::string(bad.what) == "c entry overlaps an a entry") {
      // C entries 2 and 3 lie on A's entry 0.
      std::vector<float> pool(static_cast<std::size_t>(t.x.stride_c * 6 + t.x.a.size()), 1.0f);
      t.cp = pool.data();
      t.a = pool.data() + 2 * t.x.stride_c;
      const std::vector<float> before = pool;
      const Status st = t.run(context);
      expect_rejected(st, pool, before, bad.mentions, bad.what);
      continue;
    }
    const Status st = t.run(context);
    expect_rejected(st, t.c, t.x.c, bad.mentions, bad.what);
  }
}

TEST_CASE("strided batch: a stride_c of one C span and shared A (stride 0) are valid") {
  const Context context = test::context_for(test::gemm::best_isa());
  Strided t;
  t.stride_c = t.s.m * t.s.n;  // tight packing, ldc = n
  t.stride_a = 0;
  CHECK(t.run(context).ok());
}

TEST_CASE("pointer-array batch: null arrays, null entries and overlapping entries are named") {
  const Context context = test::context_for(test::gemm::best_isa());
  const Shape s = small_shape();
  const Batch<float> x = test::gemm::make_batch<float>(s, 5, 11);
  std::vector<float> c = x.c;
  const EntryPointers p = entry_pointers(x, c);
  const std::vector<const float*>& a = p.a;
  const std::vector<const float*>& b = p.b;
  const std::vector<float*>& cs = p.c;
  auto run = [&](const float* const* pa, const float* const* pb, float* const* pc,
                 std::int64_t batch) {
    return try_gemm_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f, pa, s.lda(), pb,
                            s.ldb(), 1.0f, pc, s.ldc(), batch);
  };
  expect_rejected(run(nullptr, b.data(), cs.data(), 5), c, x.c, "a is null", "null a array");
  expect_rejected(run(a.data(), nullptr, cs.data(), 5), c, x.c, "b is null", "null b array");
  expect_rejected(run(a.data(), b.data(), nullptr, 5), c, x.c, "c is null", "null c array");
  expect_rejected(run(a.data(), b.data(), cs.data(), -3), c, x.c, "batch", "batch < 0");
  {
    auto a2 = a;
    a2[3] = nullptr;
    expect_rejected(run(a2.data(), b.data(), cs.data(), 5), c, x.c, "a[3] is null", "null a[3]");
  }
  {
    auto c2 = cs;
    c2[4] = c2[1] + 1;  // inside entry 1
    expect_rejected(run(a.data(), b.data(), c2.data(), 5), c, x.c, "overlaps", "c[4] on c[1]");
  }
  {
    // An input of one entry is the output of another.
    std::vector<const float*> a2 = a;
    a2[0] = cs[2];
    expect_rejected(run(a2.data(), b.data(), cs.data(), 5), c, x.c, "c[2] overlaps a[0]",
                    "a[0] is c[2]");
  }
  // Null arrays with batch 0: nothing to read, nothing written.
  CHECK(run(nullptr, nullptr, nullptr, 0).ok());
  CHECK(test::gemm::same_bits(c, x.c));
}

TEST_CASE("pointer-array batch beyond the in-place range lists: overlaps are still named") {
  // 40 entries: past the 16 ranges a list holds in place, so the heap path
  // of the validation's range lists is the one checked here.
  const Context context = test::context_for(test::gemm::best_isa());
  const Shape s = small_shape();
  const Batch<float> x = test::gemm::make_batch<float>(s, 40, 13);
  std::vector<float> c = x.c;
  const EntryPointers p = entry_pointers(x, c);
  const std::vector<const float*>& a = p.a;
  const std::vector<const float*>& b = p.b;
  const std::vector<float*>& cs = p.c;
  auto run = [&](const float* const* pa, float* const* pc) {
    return try_gemm_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f, pa, s.lda(),
                            b.data(), s.ldb(), 1.0f, pc, s.ldc(), x.count);
  };
  {
    auto c2 = cs;
    c2[37] = c2[5] + 1;  // inside entry 5
    expect_rejected(run(a.data(), c2.data()), c, x.c, "overlaps", "c[37] on c[5]");
  }
  {
    std::vector<const float*> a2 = a;
    a2[31] = cs[22];
    expect_rejected(run(a2.data(), cs.data()), c, x.c, "c[22] overlaps a[31]", "a[31] is c[22]");
  }
  CHECK(run(a.data(), cs.data()).ok());
}

TEST_CASE("prepacked batch: empty PackedRhs, wrong dtype and layout are named") {
  const Context context = test::context_for(test::gemm::best_isa());
  const Shape s = small_shape();
  const Batch<float> x = test::gemm::make_batch<float>(s, 3, 21, true);
  std::vector<float> c = x.c;
  auto run = [&](const PackedRhs& p, Layout layout) {
    return try_gemm_strided_batched(context, layout, s.ta, s.m, 1.0f, x.a.data(), s.lda(),
                                    x.stride_a, p, 1.0f, c.data(), s.ldc(), x.stride_c, x.count);
  };
  expect_rejected(run(PackedRhs(), s.layout), c, x.c, "empty PackedRhs", "empty");
  PackedRhs packed;
  REQUIRE(try_prepack_rhs(context, s.layout, s.tb, s.k, s.n, x.b.data(), s.ldb(), &packed).ok());
  expect_rejected(run(packed, Layout::kColMajor), c, x.c, "layout", "layout mismatch");
  std::vector<double> bd(x.b.begin(), x.b.end());
  PackedRhs packed_f64;
  REQUIRE(try_prepack_rhs(context, s.layout, s.tb, s.k, s.n, bd.data(), s.ldb(), &packed_f64).ok());
  expect_rejected(run(packed_f64, s.layout), c, x.c, "f64", "dtype mismatch");
}

}  // namespace
}  // namespace tessera
