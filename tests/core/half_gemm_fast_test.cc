// The half GEMM's fast mode (HalfGemmMode::kFast): bf16 x bf16 on the
// CPU's bf16 pair dot product. Where a level the host runs has it, the
// result is checked bit for bit against a scalar model written here from
// the instruction's definition (Intel SDM, VDPBF16PS: per pair of depth
// values, acc += a_hi * b_hi, then acc += a_lo * b_lo, each a fused
// multiply-add rounded to nearest even, denormal inputs read as zero and
// denormal results flushed), summed in the contract's depth slices of 2048
// values (design.md §Half precision); against the double reference's
// rounding bound with alpha, beta, the epilogues and a bf16 C; bit for bit
// across worker counts and against the single calls of a batch. Everywhere
// else the mode is an error naming what is missing, C untouched.
#include <cmath>
#include <cstring>
#include <memory>

#include "support/counting_executor.hpp"
#include "support/test_support.hpp"
#include "tessera/half.hpp"
#include "tessera/inventory.hpp"
#include "tessera/platform/cpu_features.hpp"
#include "tessera/tessera.h"
#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

using test::gemm::Shape;

// The depth values one slice of the fast mode sums before it adds the
// slice to C (the documented contract: 1024 pairs).
constexpr std::int64_t kSliceDepth = 2048;

float float_of(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}
std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
// A denormal read as (or flushed to) a zero of its sign.
float flushed(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
float widen(std::uint16_t h) { return flushed(float_of(static_cast<std::uint32_t>(h) << 16)); }

// bf16 operands: values in [-1, 1) rounded to bf16 (round to nearest even,
// written here), a few of them denormal, zero or huge, as the model must
// also get those right.
struct Bf16Operands {
  std::vector<std::uint16_t> a, b, c16;
  std::vector<float> wa, wb;  // widened (exactly: no flushing), for check_close
  std::vector<float> c;       // C before the call
};

std::uint16_t to_bf16(float x) {
  const std::uint32_t u = bits_of(x);
  return static_cast<std::uint16_t>((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}

Bf16Operands make_bf16(const Shape& s, std::uint64_t seed, bool specials) {
  const test::gemm::Operands<float> o = test::gemm::make_operands<float>(s, seed);
  Bf16Operands h;
  test::Rng rng(seed * 7 + 1);
  const auto round = [&](const std::vector<float>& v, std::vector<std::uint16_t>* bits,
                         std::vector<float>* wide) {
    bits->resize(v.size());
    wide->resize(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      std::uint16_t h16 = to_bf16(v[i]);
      if (specials) {
        const std::uint64_t r = rng.next() % 64;
        if (r == 0) h16 = static_cast<std::uint16_t>(0x0001 + rng.next() % 0x7F);  // denormal
        if (r == 1) h16 = 0x8000;                                                    // -0
        if (r == 2) h16 = static_cast<std::uint16_t>(0x0080 + rng.next() % 0x180);  // tiny
      }
      (*bits)[i] = h16;
      (*wide)[i] = float_of(static_cast<std::uint32_t>(h16) << 16);
    }
  };
  round(o.a, &h.a, &h.wa);
  round(o.b, &h.b, &h.wb);
  h.c = o.c;
  h.c16.resize(o.c.size());
  for (std::size_t i = 0; i < o.c.size(); ++i) h.c16[i] = to_bf16(o.c[i]);
  return h;
}

// The model of one element, alpha 1 and beta 0 or 1 (so the store adds no
// rounding of its own): each slice's pair chain from +0, the slices added
// to C in order.
float model_element(const Shape& s, const Bf16Operands& h, std::int64_t i, std::int64_t j,
                    float c0) {
  float c = s.beta == 0 ? 0.0f : c0;
  for (std::int64_t p0 = 0; p0 < s.k; p0 += kSliceDepth) {
    const std::int64_t end = std::min(s.k, p0 + kSliceDepth);
    float acc = 0.0f;
    for (std::int64_t p = p0; p < end; p += 2) {
      const bool hi = p + 1 < end;
      const float ah = hi ? widen(test::gemm::op_a(s, h.a, i, p + 1)) : 0.0f;
      const float bh = hi ? widen(test::gemm::op_b(s, h.b, p + 1, j)) : 0.0f;
      acc = flushed(std::fma(ah, bh, acc));
      acc = flushed(std::fma(widen(test::gemm::op_a(s, h.a, i, p)),
                             widen(test::gemm::op_b(s, h.b, p, j)), acc));
    }
    c = p0 == 0 && s.beta == 0 ? acc : acc + c;
  }
  return c;
}

HalfGemmOptions fast_options() {
  HalfGemmOptions options;
  options.mode = HalfGemmMode::kFast;
  return options;
}

Status run_fast(const Context& context, const Shape& s, const Bf16Operands& h,
                std::vector<float>* c, const HalfGemmOptions& options = fast_options(),
                Parallelism parallelism = {}) {
  *c = h.c;
  return try_gemm(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, static_cast<float>(s.alpha),
                  {reinterpret_cast<const bf16*>(h.a.data()), s.lda()},
                  {reinterpret_cast<const bf16*>(h.b.data()), s.ldb()},
                  static_cast<float>(s.beta), GemmOutput(c->data(), s.ldc()), options,
                  parallelism);
}

// The levels the host runs that run the fast mode, and the others.
bool cpu_has_pair_dot() { return platform::cpu_features().avx512bf16; }
bool level_has_pair_dot(Isa isa) {
  return isa == Isa::kAvx512 || isa == Isa::kAvx512Vnni || isa == Isa::kAmx;
}
std::vector<Isa> fast_isas() {
  std::vector<Isa> isas;
  if (!cpu_has_pair_dot()) return isas;
  for (Isa isa : test::host_isas()) {
    if (level_has_pair_dot(isa)) isas.push_back(isa);
  }
  return isas;
}

bool same(float x, float y) { return bits_of(x) == bits_of(y) || (std::isnan(x) && std::isnan(y)); }

TEST_CASE("half gemm fast: the pair-dot model's bits, layouts, transposes, odd and sliced depths") {
  const std::vector<Isa> isas = fast_isas();
  if (isas.empty()) {
    MESSAGE("no level of this host runs the fast mode (AVX512_BF16 on an avx512 level)");
    return;
  }
  // Odd depths (a last pair with +0 above), the register tile's edges
  // (6 x 64), the direct and packed paths, one and three depth slices.
  const std::int64_t dims[][3] = {{1, 1, 1},   {5, 7, 3},    {7, 13, 17},   {6, 64, 2},
                                  {37, 129, 64}, {61, 37, 29}, {97, 131, 301}, {13, 70, 2050},
                                  {29, 67, 4101}};
  std::uint64_t seed = 3;
  for (Isa isa : isas) {
    const Context context = test::context_for(isa);
    test::gemm::for_each_layout_shape(dims, [&](Shape s) {
      ++seed;
      s.beta = static_cast<double>(seed % 2);
      // Odd pads put some in-place word reads off 4-byte boundaries (then
      // the side is paired into a copy).
      s.lda_pad = seed % 3, s.ldb_pad = (seed / 3) % 2, s.ldc_pad = seed % 2;
      const Bf16Operands h = make_bf16(s, seed, seed % 4 == 0);
      std::vector<float> c;
      const Status status = run_fast(context, s, h, &c);
      REQUIRE_MESSAGE(status.ok(), status.to_string());
      std::int64_t bad = 0;
      std::string first;
      for (std::int64_t i = 0; i < s.m; ++i) {
        for (std::int64_t j = 0; j < s.n; ++j) {
          const auto at = static_cast<std::size_t>(test::gemm::at(s.layout, i, j, s.ldc()));
          const float want = model_element(s, h, i, j, h.c[at]);
          if (!same(c[at], want) && bad++ == 0) {
            first = test::gemm::mismatch_text(i, j, c[at], "model", want);
          }
        }
      }
      CHECK_MESSAGE(bad == 0, isa_name(isa), " ", s.describe(), ": ", bad, " elements, ", first);
    });
  }
}

TEST_CASE("half gemm fast: alpha, beta, epilogues and a bf16 C within the reference's bound") {
  const std::vector<Isa> isas = fast_isas();
  if (isas.empty()) return;
  for (Isa isa : isas) {
    const Context context = test::context_for(isa);
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      Shape s;
      s.layout = layout, s.ta = Transpose::kYes, s.m = 45, s.n = 77, s.k = 2500;
      s.alpha = -0.75, s.beta = 1.5, s.ldc_pad = 3;
      const Bf16Operands h = make_bf16(s, 91, false);
      std::vector<float> c;
      REQUIRE(run_fast(context, s, h, &c).ok());
      const test::gemm::Operands<float> wide{h.wa, h.wb, h.c};
      test::gemm::check_close(s, wide, c, std::string(isa_name(isa)) + " fast");
      // bias + relu: the plain product's values through the same f32 store.
      std::vector<float> bias(static_cast<std::size_t>(s.n));
      for (std::size_t j = 0; j < bias.size(); ++j) bias[j] = 0.25f * static_cast<float>(j % 5) - 0.5f;
      HalfGemmOptions with = fast_options();
      with.epilogue.bias_kind = BiasKind::kPerColumn;
      with.epilogue.bias = bias.data();
      with.epilogue.activation = Activation::kRelu;
      std::vector<float> fused;
      REQUIRE(run_fast(context, s, h, &fused, with).ok());
      std::int64_t bad = 0;
      for (std::int64_t i = 0; i < s.m; ++i) {
        for (std::int64_t j = 0; j < s.n; ++j) {
          const auto at = static_cast<std::size_t>(test::gemm::at(s.layout, i, j, s.ldc()));
          const float want = std::max(c[at] + bias[static_cast<std::size_t>(j)], 0.0f);
          if (!same(fused[at], want)) ++bad;
        }
      }
      CHECK_MESSAGE(bad == 0, isa_name(isa), " bias+relu: ", bad, " elements");
      // A bf16 C: the f32 result rounded to nearest even.
      std::vector<std::uint16_t> c16 = h.c16;
      GemmOutput out;
      out.storage = Storage::kBf16, out.data = c16.data(), out.ld = s.ldc();
      std::vector<float> c_in(h.c.size());
      for (std::size_t i = 0; i < c_in.size(); ++i) c_in[i] = float_of(std::uint32_t{h.c16[i]} << 16);
      Bf16Operands h2 = h;
      h2.c = c_in;
      std::vector<float> want32;
      REQUIRE(run_fast(context, s, h2, &want32).ok());
      REQUIRE(try_gemm(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, static_cast<float>(s.alpha),
                       {reinterpret_cast<const bf16*>(h.a.data()), s.lda()},
                       {reinterpret_cast<const bf16*>(h.b.data()), s.ldb()},
                       static_cast<float>(s.beta), out, fast_options())
                  .ok());
      bad = 0;
      for (std::int64_t i = 0; i < s.m; ++i) {
        for (std::int64_t j = 0; j < s.n; ++j) {
          const auto at = static_cast<std::size_t>(test::gemm::at(s.layout, i, j, s.ldc()));
          if (c16[at] != to_bf16(want32[at])) ++bad;
        }
      }
      CHECK_MESSAGE(bad == 0, isa_name(isa), " bf16 C: ", bad, " elements");
    }
  }
}

TEST_CASE("half gemm fast: bit-identical for 1, 2, 3, 4, 7 and 8 workers, and in batches") {
  const std::vector<Isa> isas = fast_isas();
  if (isas.empty()) return;
  const bool slow = test::gemm::slow_target();
  for (Isa isa : isas) {
    auto counter = std::make_shared<test::CountingExecutor>(test::gemm::wide_executor(8));
    const Context context = test::gemm::context_with(isa, counter);
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      Shape s;
      s.layout = layout, s.tb = Transpose::kYes, s.m = slow ? 97 : 203, s.n = slow ? 131 : 257;
      s.k = slow ? 301 : 2101, s.alpha = 1.25, s.beta = 0.5;
      const Bf16Operands h = make_bf16(s, 57, true);
      std::vector<float> one;
      REQUIRE(run_fast(context, s, h, &one, fast_options(), Parallelism::threads(1)).ok());
      for (int w : test::kWorkerCounts) {
        std::vector<float> c;
        REQUIRE(run_fast(context, s, h, &c, fast_options(), Parallelism::threads(w)).ok());
        CHECK_MESSAGE(test::gemm::same_bits(c, one), isa_name(isa), " workers ", w, ": ",
                      s.describe());
      }
    }
    CHECK_MESSAGE(counter->multi_runs() >= 8, counter->multi_runs(), " split runs");
  }
  // A strided batch of three: each entry the single call's bits.
  const Context context = test::context_for(isas.back());
  Shape s;
  s.m = 19, s.n = 70, s.k = 33;
  const std::int64_t batch = 3;
  std::vector<std::uint16_t> a, b;
  std::vector<Bf16Operands> entries;
  for (std::int64_t e = 0; e < batch; ++e) {
    entries.push_back(make_bf16(s, 100 + static_cast<std::uint64_t>(e), false));
    a.insert(a.end(), entries.back().a.begin(), entries.back().a.end());
    b.insert(b.end(), entries.back().b.begin(), entries.back().b.end());
  }
  const auto stride_a = static_cast<std::int64_t>(entries[0].a.size());
  const auto stride_b = static_cast<std::int64_t>(entries[0].b.size());
  const auto stride_c = static_cast<std::int64_t>(entries[0].c.size());
  std::vector<float> c(static_cast<std::size_t>(stride_c * batch), 0.0f);
  REQUIRE(try_gemm_strided_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f,
                                   {reinterpret_cast<const bf16*>(a.data()), s.lda()}, stride_a,
                                   {reinterpret_cast<const bf16*>(b.data()), s.ldb()}, stride_b,
                                   0.0f, GemmOutput(c.data(), s.ldc()), stride_c, batch,
                                   fast_options())
              .ok());
  for (std::int64_t e = 0; e < batch; ++e) {
    std::vector<float> single;
    REQUIRE(run_fast(context, s, entries[static_cast<std::size_t>(e)], &single).ok());
    CHECK(std::memcmp(single.data(), c.data() + e * stride_c, single.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("half gemm fast: where it cannot run, an error naming why, C untouched") {
  std::vector<std::uint16_t> a(64, 0x3F80), b(64, 0x3F80);
  std::vector<float> c(64, 7.0f);
  const auto* a16 = reinterpret_cast<const bf16*>(a.data());
  const auto* b16 = reinterpret_cast<const bf16*>(b.data());
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    const auto call = [&](GemmInput in_a, GemmInput in_b) {
      return try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 8, 8, 8, 1.0f,
                      in_a, in_b, 0.0f, GemmOutput(c.data(), 8), fast_options());
    };
    // f16 or f32 on either side: the pair dot multiplies bf16 by bf16.
    Status s = call({reinterpret_cast<const f16*>(a.data()), 8}, {b16, 8});
    CHECK(s.code() == StatusCode::kUnsupported);
    CHECK_MESSAGE(test::contains(s.message(), "bf16 by bf16 (a is f16)"), s.message());
    const std::vector<float> f32(64, 1.0f);
    s = call({a16, 8}, {f32.data(), 8});
    CHECK_MESSAGE(test::contains(s.message(), "(b is f32)"), s.message());
    s = call({a16, 8}, {b16, 8});
    if (level_has_pair_dot(isa) && cpu_has_pair_dot()) {
      CHECK_MESSAGE(s.ok(), s.to_string());
      CHECK(c[0] == 8.0f);  // eight products of 1 x 1
      c.assign(64, 7.0f);
    } else {
      CHECK(s.code() == StatusCode::kUnsupported);
      CHECK_MESSAGE(test::contains(s.message(), "options.mode fast"), s.message());
      CHECK_MESSAGE(test::contains(s.message(), isa_name(isa)), s.message());
      if (level_has_pair_dot(isa)) {
        CHECK_MESSAGE(test::contains(s.message(), "AVX512_BF16"), s.message());
      }
    }
    CHECK(c[0] == 7.0f);
    // A prepacked B holds f32 panels: the fast mode takes B as data.
    PackedRhs packed;
    if (try_prepack_rhs(context, Layout::kRowMajor, Transpose::kNo, 8, 8, {b16, 8}, &packed).ok()) {
      s = try_gemm(context, Layout::kRowMajor, Transpose::kNo, 8, 1.0f, {a16, 8}, packed, 0.0f,
                   GemmOutput(c.data(), 8), fast_options());
      CHECK(s.code() == StatusCode::kUnsupported);
      CHECK_MESSAGE(test::contains(s.message(), "PackedRhs"), s.message());
      CHECK(c[0] == 7.0f);
    }
  }
  // The naive family has no pair-dot kernel either.
  const Status s = try_gemm(test::naive_context(), Layout::kRowMajor, Transpose::kNo,
                            Transpose::kNo, 8, 8, 8, 1.0f, {a16, 8}, {b16, 8}, 0.0f,
                            GemmOutput(c.data(), 8), fast_options());
  CHECK(s.code() == StatusCode::kUnsupported);
  CHECK(c[0] == 7.0f);
}

TEST_CASE("half gemm fast: the inventory lists bf16 fast on the avx512 levels, runnable per CPU") {
  const Context context;
  int listed = 0;
  for (const KernelRecord& r : kernel_inventory(context)) {
    if (std::string(r.op) != "gemm_half" || std::string(r.dtype).find("fast") == std::string::npos) {
      continue;
    }
    ++listed;
    CHECK(std::string(r.dtype) == "bf16 fast");
    CHECK_MESSAGE(level_has_pair_dot(r.isa), isa_name(r.isa));
    bool level_runs = false;
    for (Isa isa : test::host_isas()) level_runs = level_runs || isa == r.isa;
    CHECK_MESSAGE(r.runnable == (level_runs && cpu_has_pair_dot()), isa_name(r.isa));
  }
  bool avx512_runs = false;
  for (Isa isa : test::host_isas()) avx512_runs = avx512_runs || isa == Isa::kAvx512;
  if (avx512_runs) CHECK(listed > 0);
}

}  // namespace
}  // namespace tessera
