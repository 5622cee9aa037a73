// GEMM results: every ISA level the host supports against an exact
// reference (within the k-scaled bound of gemm_test_util.hpp), on edge
// shapes, both layouts, all transposes, padded leading dimensions and
// assorted alpha/beta; BLAS semantics of the trivial cases; NaN handling;
// the internal driver with tiny blocking (every loop of the BLIS nest).
#include <algorithm>

#include "core/src/base/context_state.hpp"
#include "core/src/gemm/gemm_blocking.hpp"
#include "core/src/gemm/gemm_call.hpp"
#include "core/src/gemm/gemm_driver.hpp"
#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

using test::gemm::Operands;
using test::gemm::Shape;

struct Mnk {
  std::int64_t m, n, k;
};

// Edges of every tile in use (mr 4/6/8/14, nr 4..64, kc 128..512), primes,
// 1 and sizes straddling the direct-path limit. Column remainders of the
// one-worker direct path's wide panels (64 f32, 32 f64 on AVX-512) take
// tiles of 1 to 4 vectors: 11 x 57 and 50 x 120 give the 4-vector masked
// tail in both dtypes (f32: 57, 56; f64: 25, 24 columns).
const Mnk kShapes[] = {
    {1, 1, 1},    {1, 7, 3},     {7, 1, 5},     {2, 3, 4},      {5, 5, 1},
    {13, 17, 19}, {14, 32, 8},   {15, 33, 9},   {16, 16, 16},   {28, 64, 33},
    {29, 65, 70}, {6, 16, 100},  {7, 17, 257},  {100, 3, 130},  {3, 100, 129},
    {64, 64, 64}, {127, 129, 131}, {130, 70, 300}, {300, 40, 20}, {45, 300, 513},
    {160, 161, 162}, {11, 57, 21}, {50, 120, 24},
    // One row tile of the direct path across whole panels (direct()'s
    // in-line loop): m a tile's rows (4, 6, 8), n whole panels.
    {4, 32, 3},   {6, 64, 2},    {8, 32, 1},    {8, 64, 9},
};

const double kAlphas[] = {1.0, -1.0, 0.5, 2.0, -0.75};
const double kBetas[] = {0.0, 1.0, -1.0, 0.25, 3.0};

std::vector<Shape> shapes(bool small_only) {
  std::vector<Shape> out;
  int index = 0;
  for (const Mnk& d : kShapes) {
    if (small_only && d.m * d.n * d.k > 70 * 70 * 70) continue;
    for (int variant = 0; variant < 8; ++variant, ++index) {
      Shape s;
      s.layout = variant % 2 == 0 ? Layout::kRowMajor : Layout::kColMajor;
      s.ta = (variant / 2) % 2 == 0 ? Transpose::kNo : Transpose::kYes;
      s.tb = (variant / 4) % 2 == 0 ? Transpose::kNo : Transpose::kYes;
      s.m = d.m, s.n = d.n, s.k = d.k;
      s.lda_pad = index % 3 == 0 ? 3 : 0;
      s.ldb_pad = index % 5 == 1 ? 7 : 0;
      s.ldc_pad = index % 4 == 2 ? 5 : 0;
      s.alpha = kAlphas[index % 5];
      s.beta = kBetas[(index / 5) % 5];
      out.push_back(s);
    }
  }
  return out;
}

template <class T>
void check_level(Isa isa) {
  const Context context = test::context_for(isa);
  int index = 0;
  for (const Shape& s : shapes(test::gemm::slow_target())) {
    const Operands<T> o = test::gemm::make_operands<T>(s, 1000 + index++);
    std::vector<T> c;
    const Status status = test::gemm::run(context, s, o, &c);
    REQUIRE_MESSAGE(status.ok(), status.to_string());
    test::gemm::check_close(s, o, c, std::string(isa_name(isa)) + " " + dtype_name(sizeof(T) == 4 ? Dtype::kF32 : Dtype::kF64));
  }
}

TEST_CASE("naive gemm computes the textbook product") {
  // [1 2 3; 4 5 6] x [7 8; 9 10; 11 12] = [58 64; 139 154], exact in f32.
  const float a[] = {1, 2, 3, 4, 5, 6};
  const float b[] = {7, 8, 9, 10, 11, 12};
  float c[] = {1, 1, 1, 1};
  REQUIRE(try_gemm(test::naive_context(), Layout::kRowMajor, Transpose::kNo, Transpose::kNo,
                   2, 2, 3, 2.0f, a, 3, b, 2, -1.0f, c, 2)
              .ok());
  CHECK(c[0] == 115.0f);  // 2*58 - 1
  CHECK(c[1] == 127.0f);
  CHECK(c[2] == 277.0f);
  CHECK(c[3] == 307.0f);
}

TEST_CASE("every level computes the same products as the exact reference, f32") {
  for (Isa isa : test::host_isas()) check_level<float>(isa);
  check_level<float>(Isa::kScalar);
}

TEST_CASE("every level computes the same products as the exact reference, f64") {
  for (Isa isa : test::host_isas()) check_level<double>(isa);
}

TEST_CASE("the naive family is within the same bound") {
  const Context naive = test::naive_context();
  int index = 0;
  for (const Shape& s : shapes(true)) {
    if (index++ % 3 != 0) continue;
    const Operands<double> o = test::gemm::make_operands<double>(s, 5000 + index);
    std::vector<double> c;
    REQUIRE(test::gemm::run(naive, s, o, &c).ok());
    test::gemm::check_close(s, o, c, "naive f64");
  }
}

template <class T>
void check_beta_zero_never_reads_c(Isa isa) {
  const Context context = test::context_for(isa);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  // Small (direct path) and larger (packed driver), square and edge shapes.
  for (const Mnk d : {Mnk{5, 7, 3}, Mnk{33, 35, 40}, Mnk{150, 90, 200}}) {
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      Shape s;
      s.layout = layout, s.m = d.m, s.n = d.n, s.k = d.k, s.alpha = 1.5, s.beta = 0;
      Operands<T> o = test::gemm::make_operands<T>(s, 77);
      for (std::int64_t i = 0; i < s.m; ++i) {
        for (std::int64_t j = 0; j < s.n; ++j) o.c[test::gemm::at(layout, i, j, s.ldc())] = nan;
      }
      std::vector<T> c;
      REQUIRE(test::gemm::run(context, s, o, &c).ok());
      test::gemm::check_close(s, o, c, std::string("beta=0 over NaN C, ") + isa_name(isa));
    }
  }
}

TEST_CASE("beta == 0 never reads C: NaN in C does not leak") {
  for (Isa isa : test::host_isas()) {
    check_beta_zero_never_reads_c<float>(isa);
    check_beta_zero_never_reads_c<double>(isa);
  }
  check_beta_zero_never_reads_c<float>(Isa::kScalar);
}

TEST_CASE("zero-sized problems follow BLAS") {
  for (const Context& context : {test::context_for(test::gemm::best_isa()), test::naive_context()}) {
    const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    float c[4] = {1, 2, 3, 4};
    // m == 0 or n == 0: nothing happens, even with null operands.
    CHECK(try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 0, 2, 2, 1.0f,
                   nullptr, 2, b, 2, 0.0f, nullptr, 2)
              .ok());
    CHECK(try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 2, 0, 2, 1.0f,
                   a, 2, nullptr, 1, 0.0f, nullptr, 1)
              .ok());
    // k == 0: C = beta * C; A and B may be null.
    REQUIRE(try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 2, 2, 0, 1.0f,
                     nullptr, 1, nullptr, 2, 3.0f, c, 2)
                .ok());
    CHECK(c[0] == 3.0f);
    CHECK(c[3] == 12.0f);
    // k == 0, beta == 0: C = 0 without reading it.
    float nan_c[4] = {NAN, NAN, NAN, NAN};
    REQUIRE(try_gemm(context, Layout::kColMajor, Transpose::kNo, Transpose::kNo, 2, 2, 0, 1.0f,
                     nullptr, 2, nullptr, 1, 0.0f, nan_c, 2)
                .ok());
    for (float x : nan_c) CHECK(x == 0.0f);
    // beta == 1 and k == 0: untouched (bits included).
    float keep[4] = {-0.0f, NAN, 1e-45f, 5};
    REQUIRE(try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 2, 2, 0, 1.0f,
                     nullptr, 1, nullptr, 2, 1.0f, keep, 2)
                .ok());
    CHECK(std::signbit(keep[0]));
    CHECK(std::isnan(keep[1]));
    CHECK(keep[2] == 1e-45f);
    // alpha == 0: A and B are not read (NaN there does not propagate).
    const float nan_ab[4] = {NAN, NAN, NAN, NAN};
    float c2[4] = {1, 2, 3, 4};
    REQUIRE(try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 2, 2, 2, 0.0f,
                     nan_ab, 2, nan_ab, 2, 0.5f, c2, 2)
                .ok());
    CHECK(c2[0] == 0.5f);
    CHECK(c2[3] == 2.0f);
  }
}

TEST_CASE("NaN and Inf in A propagate to their row of C on every level") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    for (const Mnk d : {Mnk{9, 20, 7}, Mnk{70, 80, 300}}) {
      Shape s;
      s.m = d.m, s.n = d.n, s.k = d.k;
      Operands<float> o = test::gemm::make_operands<float>(s, 99);
      o.a[test::gemm::at(s.layout, 3, 2, s.lda())] = NAN;
      o.a[test::gemm::at(s.layout, 5, s.k - 1, s.lda())] = INFINITY;
      std::vector<float> c;
      REQUIRE(test::gemm::run(context, s, o, &c).ok());
      int wrong = 0;
      for (std::int64_t j = 0; j < s.n; ++j) {
        if (!std::isnan(c[test::gemm::at(s.layout, 3, j, s.ldc())])) ++wrong;
        if (!std::isinf(c[test::gemm::at(s.layout, 5, j, s.ldc())])) ++wrong;
        if (!std::isfinite(c[test::gemm::at(s.layout, 4, j, s.ldc())])) ++wrong;
      }
      CHECK_MESSAGE(wrong == 0, isa_name(isa), " ", d.m, "x", d.n, "x", d.k);
    }
  }
}

// The internal driver with tiny blocking: many column blocks, depth slices
// and row blocks on small shapes; bits equal for every worker count and
// between the packed driver and the direct path (same kc).
template <class T>
void check_tiny_blocking(Isa isa) {
  auto executor = std::make_shared<test::ReverseSerialExecutor>(4);
  const Context context = test::gemm::context_with(isa, executor);
  const detail::ContextState* state = nullptr;
  REQUIRE(detail::context_state(context, &state).ok());
  const core::GemmKernelSet<T>* ks = gemm_detail::kernel_set<T>(*state->table);
  REQUIRE(ks != nullptr);
  const core::GemmBlocking tiny{2 * ks->mr, 2 * ks->nr, 5};
  // The request of a width-4 executor without tiers, for each shape below.
  auto request = [&](std::int64_t m, std::int64_t n, std::int64_t k, Parallelism p) {
    core::GemmRequest r;
    r.m = m, r.n = n, r.k = k;
    r.mr = ks->mr, r.nr = ks->nr, r.direct_mr = ks->direct_mr, r.direct_nr = ks->direct_nr;
    r.cache_blocking = tiny;
    r.site.parallelism = p;
    r.site.width = 4;
    r.site.explain = true;
    r.knobs = state->compute_knobs;
    return r;
  };
  int index = 0;
  // Partial panels of every width up to four vectors (AVX-512's 64-wide
  // panel: 71 = 64 + 7, 84 = 64 + 20, 100 = 64 + 36, 130 = 2 x 64 + 2).
  for (const Mnk d : {Mnk{1, 1, 1}, Mnk{37, 71, 23}, Mnk{60, 9, 11}, Mnk{5, 130, 16},
                      Mnk{7, 84, 5}, Mnk{13, 100, 9}}) {
    Shape s;
    s.m = d.m, s.n = d.n, s.k = d.k, s.alpha = -1.25, s.beta = index % 2 ? 0.5 : 0.0;
    s.ldc_pad = 3;
    const Operands<T> o = test::gemm::make_operands<T>(s, 300 + index++);
    core::GemmProblem<T> pr;
    pr.m = s.m, pr.n = s.n, pr.k = s.k, pr.alpha = T(s.alpha), pr.beta = T(s.beta);
    pr.a = o.a.data(), pr.rs_a = s.lda(), pr.cs_a = 1;
    pr.b = o.b.data(), pr.rs_b = s.ldb(), pr.cs_b = 1;
    pr.ldc = s.ldc();
    std::vector<T> first;
    for (int w = 1; w <= 4; ++w) {
      std::vector<T> c = o.c;
      pr.c = c.data();
      const core::GemmDecision decision =
          core::decide_gemm(request(s.m, s.n, s.k, Parallelism::threads(w)));
      const std::int64_t jobs = (s.m + ks->mr - 1) / ks->mr *
                                ((std::min<std::int64_t>(s.n, tiny.nc) + ks->nr - 1) / ks->nr);
      CHECK(decision.compute.workers == std::min<std::int64_t>(w, jobs));
      REQUIRE(core::run_gemm(*ks, pr, decision, static_cast<const T*>(nullptr),
                             static_cast<const T*>(nullptr), executor.get())
                  .ok());
      test::gemm::check_close(s, o, c, std::string("tiny blocking ") + isa_name(isa));
      if (w == 1) {
        first = c;
      } else {
        CHECK_MESSAGE(test::gemm::same_bits(first, c), isa_name(isa), " workers ", w, " ", s.describe());
      }
    }
    // The direct path with the same kc gives the same bits as the driver.
    std::vector<T> c = o.c;
    pr.c = c.data();
    core::GemmRequest direct = request(s.m, s.n, s.k, Parallelism::serial());
    direct.direct_ok = direct.direct_fits = true;
    core::GemmDecision decision = core::decide_gemm(direct);
    decision.direct = true;
    REQUIRE(core::run_direct(*ks, pr, decision.blocking.kc, static_cast<const T*>(nullptr)).ok());
    CHECK_MESSAGE(test::gemm::same_bits(first, c), isa_name(isa), " direct ", s.describe());
    // The direct path split over 2..4 workers (tile by tile): same bits.
    for (int w = 2; w <= 4; ++w) {
      std::vector<T> cw = o.c;
      pr.c = cw.data();
      decision.compute.workers = w;
      REQUIRE(core::run_direct_parallel(*ks, pr, decision, static_cast<const T*>(nullptr),
                                        executor.get())
                  .ok());
      CHECK_MESSAGE(test::gemm::same_bits(first, cw), isa_name(isa), " direct x", w, " ",
                    s.describe());
    }
  }
}

// C's rows off their 64-byte lines: a shallow packed product on 64-byte
// vectors computes the leading columns up to the first line apart
// (core::misaligned_lead_columns, gemm_call.hpp). The result must be the
// same bits as into an aligned C, with a column bias (which the second part
// sees shifted), for beta 0 and not, on one worker and two.
template <class T>
void check_misaligned_c(Isa isa) {
  const Context context = test::context_for(isa);
  const detail::ContextState* state = nullptr;
  REQUIRE(detail::context_state(context, &state).ok());
  const core::GemmKernelSet<T>* ks = gemm_detail::kernel_set<T>(*state->table);
  const bool splits = ks != nullptr && ks->lanes * static_cast<int>(sizeof(T)) == 64;
  constexpr std::int64_t kPerLine = 64 / sizeof(T);
  int index = 0;
  // n * sizeof(T) >= 2 KiB: the packed path. k up to the split's limit,
  // and one past it (not split: same bits all the same).
  // Column-major C: the canonical problem's rows are C's columns, and its
  // columns (the split ones) C's rows; a per-column bias is a row bias there.
  for (const Mnk d : {Mnk{61, 600, 32}, Mnk{130, 1024, 64}, Mnk{7, 520, 128}, Mnk{20, 700, 129},
                      Mnk{600, 61, 32}}) {
    Shape s;
    s.layout = d.m > d.n ? Layout::kColMajor : Layout::kRowMajor;
    s.m = d.m, s.n = d.n, s.k = d.k, s.alpha = 1.5, s.beta = index % 2 ? -0.5 : 0.0;
    // ldc a multiple of a line: every line of C shares its offset.
    const std::int64_t line = s.layout == Layout::kRowMajor ? s.n : s.m;
    s.ldc_pad = (kPerLine - line % kPerLine) % kPerLine;
    const Operands<T> o = test::gemm::make_operands<T>(s, 500 + index++);
    std::vector<T> bias(static_cast<std::size_t>(s.n));
    for (std::size_t j = 0; j < bias.size(); ++j) bias[j] = T(0.25) * T(j % 13) - T(1);
    const GemmEpilogue<T> epilogue{bias.data(), BiasKind::kPerColumn, Activation::kRelu};
    const std::size_t size = o.c.size();
    // One buffer with room to slide C by whole elements within a line.
    std::vector<T> storage(size + 2 * kPerLine);
    const auto misalignment = reinterpret_cast<std::uintptr_t>(storage.data()) % 64;
    REQUIRE(misalignment % sizeof(T) == 0);
    T* const aligned = storage.data() + (64 - misalignment) % 64 / sizeof(T);
    for (const Parallelism p : {Parallelism::serial(), Parallelism::threads(2)}) {
      std::vector<T> first;
      for (std::int64_t offset : {std::int64_t{0}, std::int64_t{1}, kPerLine / 4, kPerLine - 1}) {
        T* const c = aligned + offset;
        std::copy(o.c.begin(), o.c.end(), c);
        core::GemmProblem<T> pr;
        pr.m = s.m + s.n - line, pr.n = line, pr.k = s.k, pr.c = c, pr.ldc = s.ldc();
        const std::int64_t lead = core::misaligned_lead_columns(pr, splits ? ks->lanes : 0);
        CHECK(lead == (splits && offset != 0 && s.k <= core::kSplitMisalignedMaxK
                           ? kPerLine - offset
                           : 0));
        REQUIRE(try_gemm(context, s.layout, Transpose::kNo, Transpose::kNo, s.m, s.n,
                         s.k, T(s.alpha), o.a.data(), s.lda(), o.b.data(), s.ldb(), T(s.beta), c,
                         s.ldc(), epilogue, p)
                    .ok());
        std::vector<T> result(c, c + size);
        if (offset == 0) {
          first = result;
          // The reference check of the plain product lives elsewhere; here
          // the aligned result must not be garbage: relu'd, finite.
          CHECK(std::all_of(first.begin(), first.end(),
                            [](T x) { return std::isfinite(x) && (x >= T(0) || x == T(-777)); }));
        } else {
          CHECK_MESSAGE(test::gemm::same_bits(first, result), isa_name(isa), " C offset ", offset,
                        " elements, ", s.describe());
        }
      }
    }
  }
}

TEST_CASE("C off its cache lines: the same bits as into an aligned C") {
  for (Isa isa : test::host_isas()) {
    check_misaligned_c<float>(isa);
    check_misaligned_c<double>(isa);
  }
}

TEST_CASE("the driver's loops with tiny blocking: exact within bound, same bits") {
  for (Isa isa : test::host_isas()) {
    check_tiny_blocking<float>(isa);
    check_tiny_blocking<double>(isa);
  }
}

TEST_CASE("blocking: multiples of the tile, never from the worker count") {
  const core::CacheFacts facts{32 * 1024, 1024 * 1024, 32 * 1024 * 1024, "test"};
  const core::CacheFacts no_l3{48 * 1024, 2 * 1024 * 1024, 0, "test"};
  // 12-way 48 KiB (Intel and Zen 5): nine ways of 4 KiB for the A micro-panel.
  const core::CacheFacts ways12{48 * 1024, 1024 * 1024, 0, "test", 12, 16};
  // An odd way count: 5 - floor(5 / 4) = 4 ways of 8 KiB.
  const core::CacheFacts ways5{40 * 1024, 1024 * 1024, 0, "test", 5, 8};
  // An Intel Xeon core: 48 KiB 12-way L1d, 2 MiB L2 (an A block of half).
  const core::CacheFacts xeon{48 * 1024, 2 * 1024 * 1024, 64 * 1024 * 1024, "test", 12, 16};
  struct Case {
    core::CacheFacts facts;
    std::uint64_t a_panel_budget;  // bytes the A micro-panel may take
  };
  // Unknown ways (facts, no_l3): three quarters of the L1d.
  for (const Case& c : {Case{facts, 24 * 1024}, Case{no_l3, 36 * 1024}, Case{ways12, 36 * 1024},
                        Case{ways5, 32 * 1024}, Case{xeon, 36 * 1024}}) {
    const core::CacheFacts& f = c.facts;
    for (int bytes : {4, 8}) {
      const core::GemmBlocking b =
          core::gemm_blocking(14, 32, bytes, core::GemmBlockingRule::kCacheModel, f);
      CHECK(b.mc % 14 == 0);
      CHECK(b.nc % 32 == 0);
      CHECK(b.kc % 8 == 0);
      // The cache model's fractions (gemm_blocking.hpp): A micro-panel in
      // three quarters of the L1d's ways (kc a multiple of 8 in 128..1024), A block L2/4
      // (L2/2 from 2 MiB), B block L3/4 (L2/2 without an L3), at most 4 x L2.
      const auto a_panel = static_cast<std::uint64_t>(b.kc * 14 * bytes);
      CHECK(a_panel <= c.a_panel_budget);
      CHECK(a_panel > c.a_panel_budget - 8 * 14 * bytes);
      const std::uint64_t a_block_budget = f.l2 >= 2 * 1024 * 1024 ? f.l2 / 2 : f.l2 / 4;
      CHECK(static_cast<std::uint64_t>(b.mc * b.kc * bytes) <= a_block_budget);
      CHECK(static_cast<std::uint64_t>((b.mc + 14) * b.kc * bytes) > a_block_budget);
      const std::uint64_t b_budget = std::min(f.l3 != 0 ? f.l3 / 4 : f.l2 / 2, 4 * f.l2);
      CHECK(static_cast<std::uint64_t>(b.nc * b.kc * bytes) <= b_budget);
      CHECK((static_cast<std::uint64_t>((b.nc + 32) * b.kc * bytes) > b_budget || b.nc == 4096));
    }
  }
  // The clamps: a huge L1 stops at kc 1024, a tiny one at 128.
  const core::CacheFacts huge{1024 * 1024, 8 * 1024 * 1024, 0, "test"};
  const core::CacheFacts tiny{4 * 1024, 256 * 1024, 0, "test"};
  CHECK(core::gemm_blocking(8, 32, 4, core::GemmBlockingRule::kCacheModel, huge).kc == 1024);
  CHECK(core::gemm_blocking(8, 32, 8, core::GemmBlockingRule::kCacheModel, tiny).kc == 128);
  // The fixed portable table ignores every cache fact.
  const core::GemmBlocking p1 = core::gemm_blocking(6, 8, 4, core::GemmBlockingRule::kFixedPortable, facts);
  const core::GemmBlocking p2 = core::gemm_blocking(6, 8, 4, core::GemmBlockingRule::kFixedPortable, core::CacheFacts{});
  CHECK(p1.kc == p2.kc);
  CHECK(p1.mc == p2.mc);
  CHECK(p1.nc == p2.nc);
  // Row blocks shrink for many workers but stay multiples of mr.
  for (int w : {1, 2, 3, 7, 64}) {
    const std::int64_t mc = core::row_block_for_workers(280, 1000, 14, w);
    CHECK(mc % 14 == 0);
    CHECK(mc <= 280);
    CHECK(mc >= 14);
  }
}

TEST_CASE("split by columns: A shared, so every run of column tiles is a chunk") {
  // Two workers on m = 64 (row blocks of 60 and 4 at the cache model's
  // mc) and 31 column tiles (n = 976, nr = 32): LAPACK's dpotrf update,
  // canonically. Private packing's chunks are whole row blocks here (31
  // tiles do not halve), one of 60 rows and one of 4.
  core::GemmRequest r;
  r.m = 64, r.n = 976, r.k = 960;
  r.mr = 6, r.nr = 32, r.direct_mr = 8, r.direct_nr = 16;
  r.cache_blocking.mc = 60, r.cache_blocking.nc = 1024, r.cache_blocking.kc = 512;
  r.site.parallelism = Parallelism::threads(2);
  r.site.width = 2;
  const core::GemmDecision d = core::decide_gemm(r);
  REQUIRE(d.compute.workers == 2);
  CHECK(d.blocking.mc == 60);  // split by columns keeps the cache model's mc
  CHECK(d.shared_a);
  CHECK(d.first_block.jobs == 2 * 31);
  // Chunks smaller than a row block's 31 tiles, at least two per worker.
  CHECK(d.first_block.grain < 31);
  CHECK((d.first_block.jobs + d.first_block.grain - 1) / d.first_block.grain >= 4);
  // Split by rows (m not small next to n), private packing stays.
  r.m = 600, r.n = 976;
  const core::GemmDecision rows = core::decide_gemm(r);
  CHECK_FALSE(rows.shared_a);
}

}  // namespace
}  // namespace tessera
