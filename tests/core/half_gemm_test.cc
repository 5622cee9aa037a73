// GEMM on f16 / bf16 operands (tessera/half.hpp), exact mode: on every
// level the host runs and the naive family, the bits of try_gemm (f32) on
// the widened operands on the same level, and within the double
// reference's rounding bound of the widened inputs; both layouts, every
// transpose, padded leading dimensions, alpha and beta (0 included), edge
// shapes (0, 1, primes, past the register tile and the depth slice), every
// storage mix of A and B, a C in f16 / bf16 (the f32 result rounded), the
// fused epilogues, prepacked B from 16-bit storage; bit identity for every
// worker count; bad input named with C untouched; the C API.
#include <cstring>
#include <memory>

#include "support/counting_executor.hpp"
#include "support/test_support.hpp"
#include "tessera/half.hpp"
#include "tessera/tessera.h"
#include "tests/core/gemm_test_util.hpp"

namespace tessera {
namespace {

using test::gemm::Operands;
using test::gemm::Shape;

// A side's storage and, for a 16-bit one, its bits.
struct Side {
  Storage storage = Storage::kF32;
  std::vector<std::uint16_t> bits;
  const std::vector<float>* wide = nullptr;  // the values (widened)
  GemmInput input(std::int64_t ld) const {
    switch (storage) {
      case Storage::kF16: return {reinterpret_cast<const f16*>(bits.data()), ld};
      case Storage::kBf16: return {reinterpret_cast<const bf16*>(bits.data()), ld};
      case Storage::kF32: break;
    }
    return {wide->data(), ld};
  }
};

// Rounds `values` to `storage` in place (the naive family's conversions,
// independent of the level under test) and returns the bits.
std::vector<std::uint16_t> round_to(Storage storage, std::vector<float>* values) {
  std::vector<std::uint16_t> bits(values->size());
  if (storage == Storage::kF32 || values->empty()) return bits;
  const Context naive = test::naive_context();
  if (storage == Storage::kF16) {
    auto* h = reinterpret_cast<f16*>(bits.data());
    REQUIRE(try_convert(naive, std::span<const float>(*values), std::span<f16>(h, bits.size())).ok());
    REQUIRE(try_convert(naive, std::span<const f16>(h, bits.size()), std::span<float>(*values)).ok());
  } else {
    auto* h = reinterpret_cast<bf16*>(bits.data());
    REQUIRE(try_convert(naive, std::span<const float>(*values), std::span<bf16>(h, bits.size())).ok());
    REQUIRE(try_convert(naive, std::span<const bf16>(h, bits.size()), std::span<float>(*values)).ok());
  }
  return bits;
}

// Operands whose A and B (and C, for a 16-bit C) hold values of their
// storage: `wide` is the f32 problem of the widened values.
struct HalfOperands {
  Operands<float> wide;
  Side a, b;
  Storage c_storage = Storage::kF32;
  std::vector<std::uint16_t> c_bits;
};

HalfOperands make_half(const Shape& s, Storage a, Storage b, Storage c, std::uint64_t seed) {
  HalfOperands h;
  h.wide = test::gemm::make_operands<float>(s, seed);
  h.a.storage = a, h.b.storage = b, h.c_storage = c;
  h.a.bits = round_to(a, &h.wide.a);
  h.b.bits = round_to(b, &h.wide.b);
  h.c_bits = round_to(c, &h.wide.c);
  h.a.wide = &h.wide.a;
  h.b.wide = &h.wide.b;
  return h;
}

const char* label(Storage s) { return storage_name(s); }

std::string mix(const HalfOperands& h) {
  return std::string("A ") + label(h.a.storage) + " B " + label(h.b.storage) + " C " +
         label(h.c_storage);
}

// The half call; an f32 C lands in *c32, a 16-bit one in *c16.
Status run_half(const Context& context, const Shape& s, const HalfOperands& h,
                std::vector<float>* c32, std::vector<std::uint16_t>* c16,
                const HalfGemmOptions& options = {}, Parallelism parallelism = {}) {
  GemmOutput out;
  if (h.c_storage == Storage::kF32) {
    *c32 = h.wide.c;
    out = GemmOutput(c32->data(), s.ldc());
  } else {
    *c16 = h.c_bits;
    out.storage = h.c_storage;
    out.data = c16->data();
    out.ld = s.ldc();
  }
  return try_gemm(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, static_cast<float>(s.alpha),
                  h.a.input(s.lda()), h.b.input(s.ldb()), static_cast<float>(s.beta), out,
                  options, parallelism);
}

// What the exact mode must give: try_gemm (f32) on the widened operands,
// rounded to a 16-bit C's storage by the naive family's conversion.
std::vector<std::uint16_t> narrowed(Storage storage, const std::vector<float>& c) {
  std::vector<float> copy = c;
  return round_to(storage, &copy);
}

bool same_u16(const std::vector<std::uint16_t>& x, const std::vector<std::uint16_t>& y) {
  return x == y;
}

const Storage kStorages[] = {Storage::kF32, Storage::kF16, Storage::kBf16};

TEST_CASE("half gemm exact: sgemm's bits on the widened operands, every level, shapes, mixes") {
  // Edge shapes: empty, 1, primes, past every level's register tile
  // (AVX-512 f32 6 x 64) and, with k 600, past the depth slice.
  const std::int64_t dims[][3] = {{0, 5, 3}, {4, 3, 0}, {1, 1, 1},  {5, 7, 3},   {7, 13, 17},
                                  {6, 64, 65}, {17, 130, 33}, {61, 37, 29}, {13, 71, 600}};
  const double scalars[][2] = {{1, 0}, {0.5, -1.5}, {0, 2}};
  std::uint64_t seed = 11;
  for (const Context& context : test::contexts_under_test()) {
    const std::string level = test::level_label(context);
    int checked = 0;
    test::gemm::for_each_layout_shape(dims, [&](Shape s) {
      ++seed;
      const auto& sc = scalars[seed % 3];
      s.alpha = sc[0], s.beta = sc[1];
      s.lda_pad = (seed % 2) * 3, s.ldb_pad = (seed % 3), s.ldc_pad = (seed % 2) * 5;
      // Every mix of A and B storages in turn, a 16-bit C every third.
      const Storage a = kStorages[seed % 3], b = kStorages[(seed / 3) % 3];
      const Storage c = seed % 3 == 0 ? kStorages[1 + (seed / 9) % 2] : Storage::kF32;
      const HalfOperands h = make_half(s, a, b, c, seed);
      std::vector<float> want, got;
      std::vector<std::uint16_t> got16;
      REQUIRE(test::gemm::run(context, s, h.wide, &want).ok());
      const Status status = run_half(context, s, h, &got, &got16);
      REQUIRE_MESSAGE(status.ok(), status.to_string());
      if (c == Storage::kF32) {
        CHECK_MESSAGE(test::gemm::same_bits(got, want), level, " ", mix(h), " ", s.describe());
        test::gemm::check_close(s, h.wide, got, level + " " + mix(h));
      } else {
        CHECK_MESSAGE(same_u16(got16, narrowed(c, want)), level, " ", mix(h), " ", s.describe());
      }
      ++checked;
    });
    CHECK(checked == 2 * 2 * 2 * 9);
  }
}

TEST_CASE("half gemm exact: operands past the whole-widening bound, widened panel by panel") {
  // Products whose 16-bit sides span more than 256 KiB widened go through
  // the packed path's widening (gemm_driver.cc pack_widened); the cases
  // above are small enough to be widened whole. Every layout, transpose,
  // padded leading dimensions and each 16-bit side alone and together.
  const bool slow = test::gemm::slow_target();
  const Storage mixes[][2] = {{Storage::kF16, Storage::kF32},
                              {Storage::kF32, Storage::kBf16},
                              {Storage::kBf16, Storage::kF16}};
  std::uint64_t seed = 300;
  for (const Context& context : test::contexts_under_test()) {
    const std::string level = test::level_label(context);
    if (level == "naive") continue;  // widens whole at every size
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Transpose ta : {Transpose::kNo, Transpose::kYes}) {
        for (Transpose tb : {Transpose::kNo, Transpose::kYes}) {
          ++seed;
          Shape s;
          s.layout = layout, s.ta = ta, s.tb = tb;
          s.m = 181, s.n = slow ? 131 : 203, s.k = slow ? 601 : 389;
          s.alpha = 0.75, s.beta = seed % 2 ? 0.0 : -0.5;
          s.lda_pad = 3, s.ldb_pad = seed % 2, s.ldc_pad = 2;
          const auto& sides = mixes[seed % 3];
          const HalfOperands h = make_half(s, sides[0], sides[1], Storage::kF32, seed);
          // Past the bound (the f32 elements of the 16-bit sides).
          const std::int64_t wide = (sides[0] != Storage::kF32 ? s.m * s.k : 0) +
                                    (sides[1] != Storage::kF32 ? s.k * s.n : 0);
          REQUIRE(wide * 4 > 256 * 1024);
          std::vector<float> want, got;
          std::vector<std::uint16_t> unused;
          REQUIRE(test::gemm::run(context, s, h.wide, &want).ok());
          REQUIRE(run_half(context, s, h, &got, &unused).ok());
          CHECK_MESSAGE(test::gemm::same_bits(got, want), level, " ", mix(h), " ", s.describe());
        }
      }
    }
  }
}

TEST_CASE("half gemm exact: the fused epilogues, as sgemm's on the widened operands") {
  std::uint64_t seed = 500;
  for (const Context& context : test::contexts_under_test()) {
    const std::string level = test::level_label(context);
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      for (BiasKind kind : {BiasKind::kNone, BiasKind::kPerColumn, BiasKind::kPerRow}) {
        for (Activation act : {Activation::kNone, Activation::kRelu, Activation::kGelu,
                               Activation::kSigmoid}) {
          ++seed;
          Shape s;
          s.layout = layout, s.m = 19, s.n = 70, s.k = 41, s.beta = seed % 2 ? 0.0 : 0.75;
          const Storage c = seed % 3 == 0 ? Storage::kBf16 : Storage::kF32;
          const HalfOperands h = make_half(s, Storage::kF16, Storage::kBf16, c, seed);
          const std::vector<float> bias = test::random_f32(70, seed);
          GemmEpilogue<float> ep;
          ep.bias_kind = kind, ep.activation = act;
          if (kind != BiasKind::kNone) ep.bias = bias.data();
          HalfGemmOptions options;
          options.epilogue = ep;
          std::vector<float> want = h.wide.c, got;
          std::vector<std::uint16_t> got16;
          REQUIRE(try_gemm(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f, h.wide.a.data(),
                           s.lda(), h.wide.b.data(), s.ldb(), static_cast<float>(s.beta),
                           want.data(), s.ldc(), ep)
                      .ok());
          REQUIRE(run_half(context, s, h, &got, &got16, options).ok());
          const std::string what = level + " " + bias_kind_name(kind) + " " + activation_name(act);
          if (c == Storage::kF32) {
            CHECK_MESSAGE(test::gemm::same_bits(got, want), what, " ", s.describe());
          } else {
            CHECK_MESSAGE(same_u16(got16, narrowed(c, want)), what, " ", s.describe());
          }
        }
      }
    }
  }
}

TEST_CASE("half gemm exact: B prepacked from f16 / bf16 is the widened B's packing") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      for (Transpose tb : {Transpose::kNo, Transpose::kYes}) {
        for (Storage storage : {Storage::kF16, Storage::kBf16}) {
          Shape s;
          s.layout = layout, s.tb = tb, s.m = 23, s.n = 67, s.k = 531, s.beta = 0.5;
          s.ldb_pad = 2;
          const HalfOperands h = make_half(s, Storage::kBf16, storage, Storage::kF32, 900);
          PackedRhs from_half, from_wide;
          REQUIRE(try_prepack_rhs(context, layout, tb, s.k, s.n, h.b.input(s.ldb()), &from_half).ok());
          REQUIRE(try_prepack_rhs(context, layout, tb, s.k, s.n, h.wide.b.data(), s.ldb(), &from_wide).ok());
          CHECK(from_half.dtype() == Dtype::kF32);
          REQUIRE(from_half.bytes() == from_wide.bytes());
          std::vector<float> want, got = h.wide.c, got_half_a = h.wide.c;
          REQUIRE(test::gemm::run(context, s, h.wide, &want).ok());
          // f32 A times the packed 16-bit B, through the f32 entry point.
          REQUIRE(try_gemm(context, layout, s.ta, s.m, 1.0f, h.wide.a.data(), s.lda(), from_half,
                           0.5f, got.data(), s.ldc())
                      .ok());
          CHECK_MESSAGE(test::gemm::same_bits(got, want), isa_name(isa), " ", s.describe());
          // bf16 A times it, through the half entry point.
          REQUIRE(try_gemm(context, layout, s.ta, s.m, 1.0f, h.a.input(s.lda()), from_half, 0.5f,
                           GemmOutput(got_half_a.data(), s.ldc()))
                      .ok());
          CHECK_MESSAGE(test::gemm::same_bits(got_half_a, want), isa_name(isa), " ", s.describe());
        }
      }
    }
  }
}

TEST_CASE("half gemm exact: bit-identical for 1, 2, 3, 4, 7 and 8 workers on every level") {
  const bool slow = test::gemm::slow_target();
  for (Isa isa : test::host_isas()) {
    auto counter = std::make_shared<test::CountingExecutor>(test::gemm::wide_executor(8));
    const Context context = test::gemm::context_with(isa, counter);
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      Shape s;
      s.layout = layout, s.ta = Transpose::kYes, s.m = slow ? 97 : 203, s.n = slow ? 131 : 257;
      s.k = slow ? 300 : 700, s.alpha = 1.25, s.beta = 0.5;
      const HalfOperands h = make_half(s, Storage::kF16, Storage::kBf16, Storage::kF32, 31);
      std::vector<float> one, want;
      std::vector<std::uint16_t> unused;
      REQUIRE(run_half(context, s, h, &one, &unused, {}, Parallelism::threads(1)).ok());
      REQUIRE(test::gemm::run(context, s, h.wide, &want, Parallelism::threads(1)).ok());
      CHECK_MESSAGE(test::gemm::same_bits(one, want), isa_name(isa), " ", s.describe());
      for (int w : test::kWorkerCounts) {
        std::vector<float> c;
        REQUIRE(run_half(context, s, h, &c, &unused, {}, Parallelism::threads(w)).ok());
        CHECK_MESSAGE(test::gemm::same_bits(c, one), isa_name(isa), " workers ", w, ": ",
                      s.describe());
      }
    }
    CHECK_MESSAGE(counter->multi_runs() >= 8, counter->multi_runs(), " split runs");
  }
}

TEST_CASE("half gemm exact: strided batches, each entry the single call's bits") {
  const bool slow = test::gemm::slow_target();
  for (const Context& context : test::contexts_under_test()) {
    const std::string level = test::level_label(context);
    for (Layout layout : {Layout::kRowMajor, Layout::kColMajor}) {
      Shape s;
      s.layout = layout, s.tb = Transpose::kYes, s.m = 13, s.n = slow ? 37 : 70, s.k = 29;
      s.beta = 0.5;
      constexpr std::int64_t kBatch = 3;
      // Entries laid end to end with a gap of 5; B shared (stride 0).
      std::vector<HalfOperands> entries;
      for (std::int64_t i = 0; i < kBatch; ++i) {
        entries.push_back(make_half(s, Storage::kF16, Storage::kBf16, Storage::kBf16, 70 + i));
      }
      const std::int64_t sa = static_cast<std::int64_t>(entries[0].a.bits.size()) + 5;
      const std::int64_t scs = static_cast<std::int64_t>(entries[0].c_bits.size()) + 5;
      std::vector<std::uint16_t> a(static_cast<std::size_t>(sa * kBatch), 0x7E00);
      std::vector<std::uint16_t> c(static_cast<std::size_t>(scs * kBatch), 0x1234);
      for (std::int64_t i = 0; i < kBatch; ++i) {
        std::copy(entries[i].a.bits.begin(), entries[i].a.bits.end(), a.begin() + i * sa);
        std::copy(entries[i].c_bits.begin(), entries[i].c_bits.end(), c.begin() + i * scs);
      }
      const HalfOperands& shared_b = entries[0];
      GemmOutput out;
      out.storage = Storage::kBf16, out.data = c.data(), out.ld = s.ldc();
      REQUIRE(try_gemm_strided_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f,
                                       {reinterpret_cast<const f16*>(a.data()), s.lda()}, sa,
                                       shared_b.b.input(s.ldb()), 0, 0.5f, out, scs, kBatch)
                  .ok());
      for (std::int64_t i = 0; i < kBatch; ++i) {
        HalfOperands one = entries[i];
        one.b = shared_b.b;
        one.wide.b = shared_b.wide.b;
        one.b.wide = &one.wide.b;
        one.a.wide = &one.wide.a;
        std::vector<float> unused;
        std::vector<std::uint16_t> want;
        REQUIRE(run_half(context, s, one, &unused, &want).ok());
        const std::vector<std::uint16_t> got(c.begin() + i * scs, c.begin() + i * scs + static_cast<std::int64_t>(want.size()));
        CHECK_MESSAGE(same_u16(got, want), level, " entry ", i, " ", s.describe());
        // The gap between entries is untouched.
        CHECK(c[static_cast<std::size_t>(i * scs) + want.size()] == 0x1234);
      }
      // Entries of C that overlap each other, and C over A: errors, C untouched.
      const std::vector<std::uint16_t> before = c;
      Status st = try_gemm_strided_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f,
                                           {reinterpret_cast<const f16*>(a.data()), s.lda()}, sa,
                                           shared_b.b.input(s.ldb()), 0, 0.5f, out, 7, kBatch);
      CHECK(st.code() == StatusCode::kInvalidArgument);
      CHECK_MESSAGE(test::contains(st.message(), "stride_c"), st.message());
      // One buffer: A's entries at 0, sa, 2 sa, and a C starting on A's
      // entry 1 (room for all of it after).
      std::vector<std::uint16_t> shared(static_cast<std::size_t>(sa * kBatch + scs), 0x3C00);
      std::copy(a.begin(), a.end(), shared.begin());
      GemmOutput over_a;
      over_a.storage = Storage::kF16, over_a.data = shared.data() + sa, over_a.ld = s.ldc();
      const GemmInput a_shared{reinterpret_cast<const f16*>(shared.data()), s.lda()};
      st = try_gemm_strided_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f, a_shared,
                                    sa, shared_b.b.input(s.ldb()), 0, 0.5f, over_a, scs, 1);
      CHECK(st.ok());  // a batch of one reads A's entry 0 only, which C does not touch
      st = try_gemm_strided_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f, a_shared,
                                    sa, shared_b.b.input(s.ldb()), 0, 0.5f, over_a, scs, 2);
      CHECK(st.code() == StatusCode::kInvalidArgument);
      CHECK_MESSAGE(test::contains(st.message(), "overlap a"), st.message());
      st = try_gemm_strided_batched(context, s.layout, s.ta, s.tb, s.m, s.n, s.k, 1.0f,
                                    {reinterpret_cast<const f16*>(a.data()), s.lda()}, -1,
                                    shared_b.b.input(s.ldb()), 0, 0.5f, out, scs, 2);
      CHECK_MESSAGE(test::contains(st.message(), "stride_a must be >= 0"), st.message());
      CHECK(c == before);
    }
  }
}

TEST_CASE("half gemm: bad input is an error naming the argument, C untouched") {
  const Context context;
  std::vector<std::uint16_t> a(64, 0x3C00), b(64, 0x3C00);
  std::vector<float> c(64, 7.0f);
  const auto* a16 = reinterpret_cast<const f16*>(a.data());
  const auto* b16 = reinterpret_cast<const f16*>(b.data());
  const auto call = [&](GemmInput in_a, GemmInput in_b, GemmOutput out,
                        const HalfGemmOptions& options = {}) {
    return try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 8, 8, 8, 1.0f,
                    in_a, in_b, 0.0f, out, options);
  };
  Status s = call({a16, 7}, {b16, 8}, {c.data(), 8});
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(test::contains(s.message(), "lda"), s.message());
  // The fast mode multiplies bf16 by bf16 only (half_gemm_fast_test.cc has
  // the rest of its errors).
  HalfGemmOptions fast;
  fast.mode = HalfGemmMode::kFast;
  s = call({a16, 8}, {b16, 8}, {c.data(), 8}, fast);
  CHECK(s.code() == StatusCode::kUnsupported);
  CHECK_MESSAGE(test::contains(s.message(), "options.mode fast multiplies bf16 by bf16"),
                s.message());
  HalfGemmOptions bad_mode;
  bad_mode.mode = static_cast<HalfGemmMode>(9);
  s = call({a16, 8}, {b16, 8}, {c.data(), 8}, bad_mode);
  CHECK_MESSAGE(test::contains(s.message(), "options.mode"), s.message());
  GemmInput bad_storage(a16, 8);
  bad_storage.storage = static_cast<Storage>(5);
  s = call(bad_storage, {b16, 8}, {c.data(), 8});
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(test::contains(s.message(), "a.storage"), s.message());
  CHECK(c[0] == 7.0f);
  // A 16-bit C inside A's bytes: A spans 128 bytes from a.data().
  GemmOutput inside;
  inside.storage = Storage::kF16, inside.data = a.data() + 4, inside.ld = 8;
  s = call({a16, 8}, {b16, 8}, inside);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(test::contains(s.message(), "c"), s.message());
  CHECK(a[4] == 0x3C00);
  // A bias inside a 16-bit C: C spans 128 bytes, the bias starts 64 in.
  std::vector<std::uint16_t> c16(64, 0x4000);
  HalfGemmOptions with_bias;
  with_bias.epilogue.bias_kind = BiasKind::kPerColumn;
  with_bias.epilogue.bias = reinterpret_cast<const float*>(c16.data() + 32);
  s = call({a16, 8}, {b16, 8}, {reinterpret_cast<f16*>(c16.data()), 8}, with_bias);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(test::contains(s.message(), "epilogue.bias"), s.message());
  CHECK(c16[0] == 0x4000);
  // The naive family has no packed format.
  PackedRhs packed;
  s = try_prepack_rhs(test::naive_context(), Layout::kRowMajor, Transpose::kNo, 8, 8, {b16, 8},
                      &packed);
  CHECK(s.code() == StatusCode::kUnsupported);
}

TEST_CASE("half gemm: the C API") {
  // A = [[1, 2], [3, 4]], B = [[1, 0], [-1, 1]]: AB = [[-1, 2], [-1, 4]].
  const std::uint16_t a_f16[4] = {0x3C00, 0x4000, 0x4200, 0x4400};
  const std::uint16_t b_f16[4] = {0x3C00, 0x0000, 0xBC00, 0x3C00};
  const std::uint16_t a_bf16[4] = {0x3F80, 0x4000, 0x4040, 0x4080};
  const std::uint16_t b_bf16[4] = {0x3F80, 0x0000, 0xBF80, 0x3F80};
  float c[4] = {};
  REQUIRE(tsr_gemm_f16(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1.0f, a_f16, 2,
                       b_f16, 2, 0.0f, c, 2, 0) == TSR_OK);
  CHECK(c[0] == -1.0f);
  CHECK(c[1] == 2.0f);
  CHECK(c[2] == -1.0f);
  CHECK(c[3] == 4.0f);
  float d[4] = {};
  REQUIRE(tsr_gemm_bf16(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1.0f, a_bf16,
                        2, b_bf16, 2, 0.0f, d, 2, 0) == TSR_OK);
  CHECK(std::memcmp(c, d, sizeof(c)) == 0);
  // Mixed: f16 A, f32 B (identity), bf16 C with a row bias and relu.
  const float eye[4] = {1.0f, 0.0f, 0.0f, 1.0f};
  const float bias[2] = {-2.0f, 0.5f};
  std::uint16_t e[4] = {};
  REQUIRE(tsr_gemm_half(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1.0f,
                        TSR_STORAGE_F16, a_f16, 2, TSR_STORAGE_F32, eye, 2, 0.0f, TSR_STORAGE_BF16,
                        e, 2, bias, TSR_BIAS_PER_ROW, TSR_ACT_RELU, TSR_HALF_EXACT, 0) == TSR_OK);
  // relu(A + row bias) = [[0, 0], [3.5, 4.5]] in bf16.
  CHECK(e[0] == 0x0000);
  CHECK(e[1] == 0x0000);
  CHECK(e[2] == 0x4060);
  CHECK(e[3] == 0x4090);
  CHECK(tsr_gemm_half(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1.0f,
                      TSR_STORAGE_F16, a_f16, 2, TSR_STORAGE_F16, b_f16, 2, 0.0f, TSR_STORAGE_F32,
                      c, 2, nullptr, TSR_BIAS_NONE, TSR_ACT_NONE, TSR_HALF_FAST, 0) ==
        TSR_UNSUPPORTED);
  CHECK(test::contains(tsr_last_error_message(), "fast"));
  CHECK(tsr_gemm_half(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, 2, 2, 2, 1.0f,
                      static_cast<tsr_storage>(7), a_f16, 2, TSR_STORAGE_F16, b_f16, 2, 0.0f,
                      TSR_STORAGE_F32, c, 2, nullptr, TSR_BIAS_NONE, TSR_ACT_NONE, TSR_HALF_EXACT,
                      0) == TSR_INVALID_ARGUMENT);
  CHECK(test::contains(tsr_last_error_message(), "a_storage"));
  // Prepacked f16 B, bf16 A.
  tsr_packed_rhs* packed = nullptr;
  REQUIRE(tsr_gemm_half_prepack_rhs(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 2, TSR_STORAGE_F16,
                                    b_f16, 2, &packed) == TSR_OK);
  float f[4] = {};
  REQUIRE(tsr_gemm_half_packed(nullptr, TSR_ROW_MAJOR, TSR_NO_TRANS, 2, 1.0f, TSR_STORAGE_BF16,
                               a_bf16, 2, packed, 0.0f, TSR_STORAGE_F32, f, 2, nullptr,
                               TSR_BIAS_NONE, TSR_ACT_NONE, TSR_HALF_EXACT, 0) == TSR_OK);
  tsr_packed_rhs_destroy(packed);
  CHECK(std::memcmp(c, f, sizeof(c)) == 0);
}

}  // namespace
}  // namespace tessera
