// The reproducibility contract (design.md §Reproducibility): changing only the
// worker count leaves every output bit unchanged. For >= 200 random shapes
// (edges of the register tiles and of the depth slices, primes, 0 and 1,
// transposes, both layouts, padded leading dimensions, alpha/beta including 0,
// 1 and negatives, both dtypes) the output of 2, 3, 4, 7 and 8 workers equals
// the single worker's bit for bit, on an executor of width 8 (real threads
// natively, reverse-order participants elsewhere), on the context's own pool,
// and with a prepacked B. And across levels where they promise it: AVX2 and
// AVX-512 give the same bits.
#include <algorithm>
#include <cstring>

#include "core/src/base/context_state.hpp"
#include "core/src/registry/kernel_registry.hpp"
#include "support/test_support.hpp"
#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

using test::gemm::Operands;
using test::gemm::Shape;

using test::kWorkerCounts;

// A dimension near something that matters (a tile or slice edge) or random.
std::int64_t pick_dim(test::Rng& rng, std::int64_t cap, const std::vector<std::int64_t>& edges) {
  switch (rng.uniform_int(0, 5)) {
    case 0: return rng.uniform_int(0, 2);  // 0, 1, 2
    case 1:
    case 2: {
      const std::int64_t e = edges[static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(edges.size()) - 1))];
      return std::clamp<std::int64_t>(e + rng.uniform_int(-1, 1), 0, cap);
    }
    case 3: {
      const std::int64_t primes[] = {3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 97, 101, 131, 257};
      return std::min<std::int64_t>(cap, primes[rng.uniform_int(0, 18)]);
    }
    default: return rng.uniform_int(1, cap);
  }
}

std::vector<Shape> random_shapes(int count, std::uint64_t seed, GemmPlan plan) {
  test::Rng rng(seed);
  const bool slow = test::gemm::slow_target();
  const std::int64_t cap_mn = slow ? 48 : 160;
  const std::int64_t cap_k = slow ? 2 * plan.kc + 3 : std::max<std::int64_t>(300, 2 * plan.kc + 3);
  std::vector<std::int64_t> mn_edges = {plan.mr, 2 * plan.mr, 3 * plan.mr, plan.nr, 2 * plan.nr, 4, 8, 16, 32};
  std::vector<std::int64_t> k_edges = {plan.kc, 2 * plan.kc, 1, 4, 8};
  const double alphas[] = {1, -1, 0, 0.5, -2.25, 3};
  const double betas[] = {0, 1, -1, 0.5, 2, 0};
  std::vector<Shape> out;
  for (int i = 0; i < count; ++i) {
    Shape s;
    s.layout = rng.uniform_int(0, 1) ? Layout::kColMajor : Layout::kRowMajor;
    s.ta = rng.uniform_int(0, 1) ? Transpose::kYes : Transpose::kNo;
    s.tb = rng.uniform_int(0, 1) ? Transpose::kYes : Transpose::kNo;
    s.m = pick_dim(rng, cap_mn, mn_edges);
    s.n = pick_dim(rng, cap_mn, mn_edges);
    s.k = pick_dim(rng, cap_k, k_edges);
    s.lda_pad = rng.uniform_int(0, 3) == 0 ? rng.uniform_int(1, 9) : 0;
    s.ldb_pad = rng.uniform_int(0, 3) == 0 ? rng.uniform_int(1, 9) : 0;
    s.ldc_pad = rng.uniform_int(0, 3) == 0 ? rng.uniform_int(1, 9) : 0;
    s.alpha = alphas[rng.uniform_int(0, 5)];
    s.beta = betas[rng.uniform_int(0, 5)];
    out.push_back(s);
  }
  return out;
}

struct Tally {
  int shapes = 0;
  int runs = 0;
  int multi_worker_runs = 0;  // plans that really used > 1 worker
};

template <class T>
void check_shape(const Context& context, const Shape& s, std::uint64_t seed, int max_workers,
                 Tally* tally) {
  const Operands<T> o = test::gemm::make_operands<T>(s, seed);
  std::vector<T> reference;
  const Status first = test::gemm::run(context, s, o, &reference, Parallelism::threads(1));
  REQUIRE_MESSAGE(first.ok(), first.to_string());
  ++tally->shapes;
  for (int w : kWorkerCounts) {
    if (w == 1 || w > max_workers) continue;
    GemmPlan plan;
    REQUIRE(try_plan_gemm(context, sizeof(T) == 4 ? Dtype::kF32 : Dtype::kF64, s.layout, s.m,
                          s.n, s.k, Parallelism::threads(w), &plan)
                .ok());
    std::vector<T> c;
    REQUIRE(test::gemm::run(context, s, o, &c, Parallelism::threads(w)).ok());
    ++tally->runs;
    if (plan.workers > 1) ++tally->multi_worker_runs;
    CHECK_MESSAGE(test::gemm::same_bits(reference, c), isa_name(context.isa()), " ",
                  sizeof(T) == 4 ? "f32 " : "f64 ", "workers ", w, " (plan ", plan.workers,
                  "): ", s.describe());
  }
}

void check_level(Isa isa, std::shared_ptr<platform::Executor> executor, int count,
                 std::uint64_t seed) {
  const Context context = test::gemm::context_with(isa, executor);
  GemmPlan plan;
  REQUIRE(try_plan_gemm(context, Dtype::kF32, Layout::kRowMajor, 500, 500, 500,
                        Parallelism::threads(8), &plan)
              .ok());
  Tally tally;
  int index = 0;
  for (const Shape& s : random_shapes(count, seed, plan)) {
    if (index++ % 2 == 0) {
      check_shape<float>(context, s, seed + index, executor->width(), &tally);
    } else {
      check_shape<double>(context, s, seed + index, executor->width(), &tally);
    }
  }
  CHECK(tally.shapes == count);
  // The test means something only if most runs really split the work.
  CHECK_MESSAGE(tally.multi_worker_runs * 10 >= tally.runs * 6, tally.multi_worker_runs, " of ",
                tally.runs, " runs used more than one worker");
}

TEST_CASE("outputs are bit-identical for 1, 2, 3, 4, 7 and 8 workers (best level, 240 shapes)") {
  check_level(test::gemm::best_isa(), test::gemm::wide_executor(8), 240, 4242);
}

// The f32 GEMM kernel set of the optimized table of `isa` (avx2_vnni,
// avx512_vnni, amx and neon_dotprod share avx2's, avx512's and neon's: the
// same code).
const void* f32_gemm_set(Isa isa) {
  for (const core::KernelTable* t : core::registered_tables()) {
    if (t->family == KernelFamily::kOptimized && t->isa == isa) return t->gemm.f32;
  }
  return nullptr;
}

TEST_CASE("outputs are bit-identical across worker counts on every other level") {
  const std::vector<Isa> isas = test::host_isas();
  // Each f32 kernel set once: a level running the best level's kernels was
  // checked above, one running a lower level's is checked with it.
  std::vector<const void*> checked = {f32_gemm_set(test::gemm::best_isa())};
  for (std::size_t i = 0; i + 1 < isas.size(); ++i) {
    const void* set = f32_gemm_set(isas[i]);
    if (std::find(checked.begin(), checked.end(), set) != checked.end()) continue;
    checked.push_back(set);
    check_level(isas[i], test::gemm::wide_executor(8), 40, 777 + i);
  }
}

TEST_CASE("outputs are bit-identical across worker counts on the context's own pool") {
  const Context context = test::own_pool_context_8();
  const detail::ContextState* state = context.state();
  REQUIRE(state != nullptr);
  const int width = state->executor->width();
  GemmPlan plan;
  REQUIRE(try_plan_gemm(context, Dtype::kF32, Layout::kRowMajor, 100, 100, 100, {}, &plan).ok());
  Tally tally;
  int index = 0;
  for (const Shape& s : random_shapes(40, 99, plan)) {
    const std::uint64_t seed = 500 + index;
    if (index++ % 2 == 0) {
      check_shape<float>(context, s, seed, width, &tally);
    } else {
      check_shape<double>(context, s, seed, width, &tally);
    }
  }
  MESSAGE("context pool width ", width, ": ", tally.multi_worker_runs, " multi-worker runs");
  if (TESSERA_TEST_HAS_THREADS) {
    CHECK(width == 8);
    CHECK(tally.multi_worker_runs * 10 >= tally.runs * 6);
  }
}

// AVX2 and AVX-512 share the packed tile height (mr 6) and hence the cache
// model's kc, and both fuse: the same slices and per-element operations, so
// the same bits on one machine, through any path (direct, packed, masked
// edges of different widths) and any worker count.
template <class T>
void check_avx2_equals_avx512(const Context& avx2, const Context& avx512,
                              const std::vector<Shape>& shapes, std::uint64_t seed) {
  int index = 0;
  for (const Shape& s : shapes) {
    const Operands<T> o = test::gemm::make_operands<T>(s, seed + index++);
    std::vector<T> narrow, wide;
    REQUIRE(test::gemm::run(avx2, s, o, &narrow, Parallelism::threads(1)).ok());
    const int workers = index % 2 ? 1 : 3;
    REQUIRE(test::gemm::run(avx512, s, o, &wide, Parallelism::threads(workers)).ok());
    CHECK_MESSAGE(test::gemm::same_bits(narrow, wide), (sizeof(T) == 4 ? "f32 " : "f64 "),
                  "avx512 workers ", workers, ": ", s.describe());
  }
}

TEST_CASE("AVX2 and AVX-512 give the same bits (same mr, same kc)") {
  const std::vector<Isa> isas = test::host_isas();
  auto has = [&](Isa isa) { return std::find(isas.begin(), isas.end(), isa) != isas.end(); };
  if (!has(Isa::kAvx512) || !has(Isa::kAvx2)) {
    MESSAGE("skipped: the host does not run both AVX2 and AVX-512");
    return;
  }
  auto executor = test::gemm::wide_executor(4);
  const Context avx2 = test::gemm::context_with(Isa::kAvx2, executor);
  const Context avx512 = test::gemm::context_with(Isa::kAvx512, executor);
  for (const Dtype dtype : {Dtype::kF32, Dtype::kF64}) {
    // Plans of a product that takes the packed path: its tiles and kc.
    GemmPlan p2, p512;
    REQUIRE(try_plan_gemm(avx2, dtype, Layout::kRowMajor, 2048, 2048, 2048, {}, &p2).ok());
    REQUIRE(try_plan_gemm(avx512, dtype, Layout::kRowMajor, 2048, 2048, 2048, {}, &p512).ok());
    REQUIRE(!p512.direct);
    CHECK(p2.mr == p512.mr);
    REQUIRE(p2.kc == p512.kc);
    // Edges of both levels' tiles (AVX-512's 64-wide panels too), and
    // products whose depth slice outgrows a 1 MiB L2, so that there the
    // packed path runs partial f32 panels of 1, 2, 3 and 4 vectors (n mod 64
    // = 2, 20, 40, 60).
    std::vector<Shape> shapes = random_shapes(60, 2718 + static_cast<int>(dtype), p512);
    struct Dims {
      std::int64_t m, n, k;
    };
    for (const Dims d : {Dims{401, 130, 800}, Dims{390, 84, 1000}, Dims{420, 168, 900},
                         Dims{700, 124, 769}, Dims{517, 389, 263}}) {
      Shape s;
      s.m = d.m, s.n = d.n, s.k = d.k, s.alpha = 0.75, s.beta = d.m % 2 ? 0.5 : 0.0;
      s.ldc_pad = 3;
      s.tb = d.n % 2 ? Transpose::kYes : Transpose::kNo;
      shapes.push_back(s);
    }
    if (dtype == Dtype::kF32) {
      check_avx2_equals_avx512<float>(avx2, avx512, shapes, 40);
    } else {
      check_avx2_equals_avx512<double>(avx2, avx512, shapes, 80);
    }
  }
}

template <class T>
void check_prepacked(Isa isa) {
  auto executor = test::gemm::wide_executor(8);
  const Context context = test::gemm::context_with(isa, executor);
  int index = 0;
  GemmPlan plan;
  REQUIRE(try_plan_gemm(context, Dtype::kF32, Layout::kRowMajor, 64, 64, 64, {}, &plan).ok());
  for (const Shape& s : random_shapes(24, 31337 + static_cast<int>(isa), plan)) {
    const Operands<T> o = test::gemm::make_operands<T>(s, 900 + index++);
    PackedRhs packed;
    const Status st = try_prepack_rhs(context, s.layout, s.tb, s.k, s.n, o.b.data(), s.ldb(), &packed);
    REQUIRE_MESSAGE(st.ok(), st.to_string());
    std::vector<T> reference;
    REQUIRE(test::gemm::run(context, s, o, &reference, Parallelism::threads(1)).ok());
    for (int w : {1, 3, 8}) {
      // Twice: the packed operand is reusable.
      for (int rep = 0; rep < 2; ++rep) {
        std::vector<T> c = o.c;
        const Status status = try_gemm(context, s.layout, s.ta, s.m, static_cast<T>(s.alpha),
                                       o.a.data(), s.lda(), packed, static_cast<T>(s.beta),
                                       c.data(), s.ldc(), Parallelism::threads(w));
        REQUIRE_MESSAGE(status.ok(), status.to_string());
        CHECK_MESSAGE(test::gemm::same_bits(reference, c), isa_name(isa), " prepacked, workers ",
                      w, ": ", s.describe());
      }
    }
  }
}

TEST_CASE("a prepacked B gives the bits of the unpacked call, for any worker count") {
  for (Isa isa : test::host_isas()) {
    check_prepacked<float>(isa);
    check_prepacked<double>(isa);
  }
}

// The direct path packs a B whose rows lie 2 KiB or more apart when three
// or more row tiles re-read it, and (AVX2) a B over 16 KiB when more than
// eight do per worker (direct_packs_b); then every worker packs its own
// copy. Packing
// is a permutation, so the bits must be those of B read in place: a strip
// of at most two row tiles (read in place) gives the same rows as the
// whole call, for every worker count, and the whole is exact within the
// bound.
template <class T>
void check_direct_wide_b(Isa isa) {
  const Context context = test::gemm::context_with(isa, test::gemm::wide_executor(8));
  const Dtype dtype = sizeof(T) == 4 ? Dtype::kF32 : Dtype::kF64;
  const std::int64_t wide = 2048 / static_cast<std::int64_t>(sizeof(T));  // elements
  // The direct tile's rows, which direct_packs_b counts: 7 rows, where a
  // wide tile family's edge would waste more than 1/8 of the rows, so the
  // plan reports the direct tile.
  GemmPlan probe;
  REQUIRE(try_plan_gemm(context, dtype, Layout::kRowMajor, 7, wide, 16, {}, &probe).ok());
  if (!probe.direct) {
    MESSAGE(isa_name(isa), ": no direct path, nothing to check");
    return;
  }
  const std::int64_t strip = 2 * probe.mr;  // rows read with B in place
  GemmPlan packs, in_place;
  REQUIRE(try_plan_gemm(context, dtype, Layout::kRowMajor, strip + 1, wide, 16, {}, &packs).ok());
  REQUIRE(try_plan_gemm(context, dtype, Layout::kRowMajor, strip, wide, 16, {}, &in_place).ok());
  CHECK(packs.direct_packs_b);
  CHECK_FALSE(in_place.direct_packs_b);
  // Rows under 2 KiB apart: in place while fewer than eight row tiles
  // re-read B (6 here), whatever its size.
  GemmPlan narrow;
  REQUIRE(
      try_plan_gemm(context, dtype, Layout::kRowMajor, 3 * strip, wide - 1, 16, {}, &narrow).ok());
  CHECK_FALSE(narrow.direct_packs_b);
  // B of 32 KiB (f32) or 64 KiB (f64), rows 512 or 1024 bytes apart, one
  // worker: packed for more than eight row tiles where the kernel set packs
  // for size (AVX2's, which avx2_vnni runs too), not for eight.
  const std::int64_t tiles8 = 8 * probe.mr;
  const Parallelism one = Parallelism::threads(1);
  GemmPlan large_b, fewer_tiles;
  REQUIRE(
      try_plan_gemm(context, dtype, Layout::kRowMajor, tiles8 + 1, 128, 64, one, &large_b).ok());
  REQUIRE(
      try_plan_gemm(context, dtype, Layout::kRowMajor, tiles8, 128, 64, one, &fewer_tiles).ok());
  const bool avx2_set = isa == Isa::kAvx2 || isa == Isa::kAvx2Vnni;
  if (large_b.direct) CHECK(large_b.direct_packs_b == avx2_set);
  CHECK_FALSE(fewer_tiles.direct_packs_b);
  // A copy over 8 MiB is not made: such a B is read in place.
  GemmPlan huge;
  const std::int64_t bytes = static_cast<std::int64_t>(sizeof(T));
  const std::int64_t huge_n = (std::int64_t{8} << 20) / 16 / bytes + 1;
  REQUIRE(try_plan_gemm(context, dtype, Layout::kRowMajor, 64, huge_n, 16, {}, &huge).ok());
  CHECK(huge.direct);
  CHECK_FALSE(huge.direct_packs_b);

  struct Case {
    std::int64_t m, n, k, ldb_pad;
    double alpha, beta;
    // Deep enough (k 64) that the fixed-blocking levels' 16 KiB direct
    // budget may send it to the packed path (the scalar level's 37 x 64
    // f64 slice): checked where it stays direct.
    bool deep = false;
  };
  std::vector<Case> cases = {
      {strip + 1, wide, 16, 0, 1, 0},           {3 * strip + 5, wide + 37, 7, 0, -0.5, 1},
      {97, 2 * wide + 3, 1, 0, 1, 0.5},         {5 * strip, 13, 16, wide, 2, 0},
      {4 * strip + 3, 70, 11, wide + 3, 1, -1}, {tiles8 + 5, 131, 64, 0, 1, 0.5, true}};
  // Eight private copies over 32 MiB in all: one copy, packed by the caller.
  const std::int64_t shared_n = (std::int64_t{4} << 20) / 16 / bytes + 500;
  if (!test::gemm::slow_target()) cases.push_back({strip + 3, shared_n, 16, 0, 1, 0});
  for (const Case& c : cases) {
    Shape s;
    s.m = c.m, s.n = c.n, s.k = c.k, s.ldb_pad = c.ldb_pad, s.alpha = c.alpha, s.beta = c.beta;
    const Operands<T> o = test::gemm::make_operands<T>(s, 31 + static_cast<std::uint64_t>(c.m));
    GemmPlan plan;
    REQUIRE(try_plan_gemm(context, dtype, Layout::kRowMajor, s.m, s.n, s.k, {}, &plan).ok());
    const bool fixed_blocking = isa == Isa::kScalar || isa == Isa::kSse2 || isa == Isa::kSimd128 ||
                                isa == Isa::kSimd128Relaxed;
    const std::int64_t slice_bytes = s.m * std::min(s.k, plan.kc) * bytes;
    if (c.deep && fixed_blocking && slice_bytes > 16 * 1024) {
      // Over their 16 KiB budget (gemm_call.hpp): packed, nothing of the
      // direct path to check.
      CHECK_FALSE_MESSAGE(plan.direct, s.describe());
      continue;
    }
    REQUIRE_MESSAGE(plan.direct, s.describe());
    std::vector<T> whole;
    REQUIRE(test::gemm::run(context, s, o, &whole, Parallelism::threads(1)).ok());
    if (s.n < shared_n) {
      test::gemm::check_close(s, o, whole, std::string(isa_name(isa)) + " packed wide B");
    }
    // Row strips with B in place.
    std::vector<T> strips = o.c;
    for (std::int64_t i = 0; i < s.m; i += strip) {
      const std::int64_t rows = std::min(strip, s.m - i);
      REQUIRE(try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, rows, s.n,
                       s.k, static_cast<T>(s.alpha), o.a.data() + i * s.lda(), s.lda(),
                       o.b.data(), s.ldb(), static_cast<T>(s.beta),
                       strips.data() + i * s.ldc(), s.ldc(), Parallelism::threads(1))
                  .ok());
    }
    CHECK_MESSAGE(test::gemm::same_bits(whole, strips), isa_name(isa),
                  " packed B vs in place: ", s.describe());
    for (int w : {2, 3, 8}) {
      std::vector<T> c_w;
      REQUIRE(test::gemm::run(context, s, o, &c_w, Parallelism::threads(w)).ok());
      CHECK_MESSAGE(test::gemm::same_bits(whole, c_w), isa_name(isa), " workers ", w, ": ",
                    s.describe());
    }
  }
}

TEST_CASE("the direct path's packed wide B gives the bits of B read in place") {
  for (Isa isa : test::host_isas()) {
    check_direct_wide_b<float>(isa);
    check_direct_wide_b<double>(isa);
  }
}

// Products of few columns (the AVX-512 levels run those of at most 8 f32 or
// 4 f64 columns on 256-bit tiles: gemm_microkernel.hpp's V::Narrow), and
// of more, give each element the bits it has inside a product of 64
// columns (whole panels, no edge) over the same operands: the same operations whatever the register width. Row-major:
// the narrow product is C's first n columns; column-major, whose canonical
// problem is C^T, its first m rows. Both transposes of B (packed when its
// rows are strided), depths past the portable levels' slice (kc 256), beta
// 0 and not.
template <class T>
void check_narrow_columns(const Context& context, Parallelism narrow_parallelism) {
  constexpr std::int64_t kWide = 64;
  const T alpha = T(0.75);
  for (const Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
    for (const Transpose tb : {Transpose::kNo, Transpose::kYes}) {
      for (const std::int64_t other : {1, 8, 9, 45}) {
        for (const std::int64_t k : {1, 7, 300}) {
          const bool row = layout == Layout::kRowMajor;
          // The wide call: m x kWide (row-major) or kWide x n (column-major).
          const std::int64_t m = row ? other : kWide, n = row ? kWide : other;
          const std::int64_t lda = row ? k : m, ldc = row ? n : m;
          const std::int64_t ldb = (tb == Transpose::kNo) == row ? n : k;
          const std::size_t a_len = static_cast<std::size_t>(m * k);
          const std::size_t b_len = static_cast<std::size_t>(k * n);
          const std::size_t c_len = static_cast<std::size_t>(m * n);
          const std::vector<float> ra = test::random_f32(a_len, 61 + k);
          const std::vector<float> rb = test::random_f32(b_len, 62 + k);
          const std::vector<float> rc = test::random_f32(c_len, 63);
          // Full mantissas (f64 products of f32 values would be exact, and a
          // multiply and add would agree with the fused form).
          std::vector<T> a(a_len), b(b_len);
          for (std::size_t i = 0; i < a_len; ++i) a[i] = T(ra[i]) * T(1 + 1e-9 * double(i % 97 + 1));
          for (std::size_t i = 0; i < b_len; ++i) b[i] = T(rb[i]) * T(1 + 1e-9 * double(i % 89 + 1));
          for (const T beta : {T(0), T(0.5)}) {
            std::vector<T> wide(rc.begin(), rc.end());
            REQUIRE(try_gemm(context, layout, Transpose::kNo, tb, m, n, k, alpha, a.data(), lda,
                             b.data(), ldb, beta, wide.data(), ldc)
                        .ok());
            for (const std::int64_t few : {1, 2, 3, 4, 5, 7, 8, 12, 20, 40}) {
              std::vector<T> narrow(rc.begin(), rc.end());
              const std::int64_t nm = row ? m : few, nn = row ? few : n;
              REQUIRE(try_gemm(context, layout, Transpose::kNo, tb, nm, nn, k, alpha, a.data(),
                               lda, b.data(), ldb, beta, narrow.data(), ldc, narrow_parallelism)
                          .ok());
              std::int64_t bad = 0;
              for (std::int64_t i = 0; i < nm; ++i) {
                for (std::int64_t j = 0; j < nn; ++j) {
                  const std::size_t at = static_cast<std::size_t>(row ? i * ldc + j : j * ldc + i);
                  bad += std::memcmp(&narrow[at], &wide[at], sizeof(T)) != 0;
                }
              }
              CHECK_MESSAGE(bad == 0, test::level_label(context), " f", 8 * sizeof(T),
                            row ? " row" : " col", " tb ", tb == Transpose::kNo ? "N" : "T",
                            " ", nm, " x ", nn, " x ", k, " beta ", double(beta), ": ", bad,
                            " elements differ");
            }
          }
        }
      }
    }
  }
}

TEST_CASE("products of few columns give the bits of the same columns in a wider product") {
  // Every optimized level (the naive family's products are independent
  // sums already, and slow under an emulator).
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    check_narrow_columns<float>(context, {});
    check_narrow_columns<double>(context, {});
  }
  // On the best level, the narrow products split across three workers (a
  // parallel threshold of 0: every product above the serial gate), the
  // wide ones by the default policy.
  const Context split = test::gemm::context_with(test::gemm::best_isa(), test::gemm::wide_executor(4));
  check_narrow_columns<float>(split, Parallelism::threads(3));
  check_narrow_columns<double>(split, Parallelism::threads(3));
}

}  // namespace
}  // namespace tessera
