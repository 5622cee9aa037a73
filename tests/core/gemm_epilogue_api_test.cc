// Fused epilogue entry points: bad input (named, nothing written), the C API
// (same bits as the C++ call), and the cross-target pinned hash of the
// 128-bit levels (SSE2 natively, SIMD128 in wasm: same tiles, same
// unfused operation order, vmath written once over the traits).
#include <doctest/doctest.h>

#include <cinttypes>
#include <cstdio>

#include "cli/seeded_inputs.hpp"
#include "gemm_epilogue_test_util.hpp"
#include "tessera/tessera.h"

namespace tessera::test::gemm {
namespace {

TEST_CASE("bad epilogues are named and C is not written") {
  const Context context = context_for(best_isa());
  std::vector<float> a(12, 1.0f), b(12, 1.0f), bias(4, 1.0f);
  std::vector<float> c(9, 5.0f);
  auto call = [&](GemmEpilogue<float> ep) {
    return try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 3, 3, 4, 1.0f,
                    a.data(), 4, b.data(), 3, 0.0f, c.data(), 3, ep);
  };
  GemmEpilogue<float> ep;
  ep.bias_kind = static_cast<BiasKind>(7);
  ep.bias = bias.data();
  Status s = call(ep);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("bias_kind") != std::string::npos);
  ep.bias_kind = BiasKind::kPerRow;
  ep.activation = static_cast<Activation>(9);
  s = call(ep);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("activation") != std::string::npos);
  ep.activation = Activation::kRelu;
  ep.bias = nullptr;
  s = call(ep);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("epilogue.bias") != std::string::npos);
  ep.bias = c.data() + 2;  // inside C
  s = call(ep);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("overlaps") != std::string::npos);
  for (float x : c) CHECK(x == 5.0f);
}

TEST_CASE("C tsr_sgemm_ex / tsr_dgemm_ex equal the C++ calls and reject bad enums") {
  for (Isa isa : host_isas()) {
    tsr_context_options options = {isa_name(isa), 0, 1, nullptr, nullptr, 0};
    tsr_context* context = nullptr;
    REQUIRE(tsr_context_create(&options, &context) == TSR_OK);
    const Context cpp = context_for(isa);
    Shape s;
    s.m = 19, s.n = 23, s.k = 31, s.beta = 0.5;
    const Operands<float> o = make_operands<float>(s, 3);
    const EpilogueCase e{BiasKind::kPerColumn, Activation::kGelu};
    const std::vector<float> bias = make_bias<float>(s, e, 4);
    std::vector<float> want;
    REQUIRE(run_epilogue(cpp, s, o, e, bias, &want).ok());
    std::vector<float> c = o.c;
    REQUIRE(tsr_sgemm_ex(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n, s.k, 1.0f,
                         o.a.data(), s.lda(), o.b.data(), s.ldb(), 0.5f, c.data(), s.ldc(),
                         bias.data(), TSR_BIAS_PER_COLUMN, TSR_ACT_GELU, 0) == TSR_OK);
    CHECK(same_bits(want, c));
    const Operands<double> od = make_operands<double>(s, 3);
    const EpilogueCase ed{BiasKind::kPerRow, Activation::kSigmoid};
    const std::vector<double> biasd = make_bias<double>(s, ed, 4);
    std::vector<double> wantd;
    REQUIRE(run_epilogue(cpp, s, od, ed, biasd, &wantd).ok());
    std::vector<double> cd = od.c;
    REQUIRE(tsr_dgemm_ex(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n, s.k, 1.0,
                         od.a.data(), s.lda(), od.b.data(), s.ldb(), 0.5, cd.data(), s.ldc(),
                         biasd.data(), TSR_BIAS_PER_ROW, TSR_ACT_SIGMOID, 0) == TSR_OK);
    CHECK(same_bits(wantd, cd));
    // 256 must not wrap to "none" when narrowed.
    c = o.c;
    CHECK(tsr_sgemm_ex(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n, s.k, 1.0f,
                       o.a.data(), s.lda(), o.b.data(), s.ldb(), 0.5f, c.data(), s.ldc(),
                       bias.data(), static_cast<tsr_bias_kind>(256), TSR_ACT_RELU,
                       0) == TSR_INVALID_ARGUMENT);
    CHECK(std::string(tsr_last_error_message()).find("bias_kind") != std::string::npos);
    CHECK(tsr_sgemm_ex(context, TSR_ROW_MAJOR, TSR_NO_TRANS, TSR_NO_TRANS, s.m, s.n, s.k, 1.0f,
                       o.a.data(), s.lda(), o.b.data(), s.ldb(), 0.5f, c.data(), s.ldc(),
                       bias.data(), TSR_BIAS_PER_ROW, static_cast<tsr_activation>(256),
                       0) == TSR_INVALID_ARGUMENT);
    CHECK(std::string(tsr_last_error_message()).find("activation") != std::string::npos);
    CHECK(same_bits(o.c, c));
    tsr_context_destroy(context);
  }
}

// Inputs of `tessera-cli gemm M N K --bias col --act ACT --hash` (seeded
// generator of the CLI, bias seed 4): 131 x 67 x 300 row-major, alpha 0.75,
// beta -0.5 (depth crosses the fixed kc of 256).
template <class T>
std::uint64_t epilogue_hash(const Context& context, Activation act, BiasKind kind) {
  const std::int64_t m = 131, n = 67, k = 300;
  std::vector<T> a(m * k), b(k * n), c(m * n), bias(kind == BiasKind::kPerRow ? m : n);
  cli::fill_seeded(a.data(), a.size(), 7, 1);
  cli::fill_seeded(b.data(), b.size(), 7, 2);
  cli::fill_seeded(c.data(), c.size(), 7, 3);
  cli::fill_seeded(bias.data(), bias.size(), 7, 4);
  GemmEpilogue<T> ep{bias.data(), kind, act};
  const Status s = try_gemm(context, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, m, n, k,
                            T(0.75), a.data(), k, b.data(), n, T(-0.5), c.data(), n, ep);
  REQUIRE_MESSAGE(s.ok(), s.to_string());
  return cli::fnv1a64(c.data(), c.size() * sizeof(T));
}

// Produced by a native x86-64 SSE2 run; WASI and Emscripten (SIMD128) must
// reproduce them. {f32, f64} per activation: relu (column bias), gelu
// (row bias), sigmoid (column bias).
constexpr std::uint64_t kEpiloguePins[3][2] = {
    {0xa7daa45a84584a3eull, 0x645a757b67fe40feull},
    {0xd614cdbc583d47d3ull, 0xbde822343605187cull},
    {0xe154b94e216010cbull, 0x99dacddd3a09a908ull},
};

TEST_CASE("the 128-bit levels give the pinned epilogue bits on every target") {
  const Activation acts[3] = {Activation::kRelu, Activation::kGelu, Activation::kSigmoid};
  const BiasKind kinds[3] = {BiasKind::kPerColumn, BiasKind::kPerRow, BiasKind::kPerColumn};
  bool ran = false;
  for (Isa isa : host_isas()) {
    if (isa != Isa::kSse2 && isa != Isa::kSimd128) continue;
    ran = true;
    const Context context = context_for(isa);
    for (int i = 0; i < 3; ++i) {
      const std::uint64_t f32 = epilogue_hash<float>(context, acts[i], kinds[i]);
      const std::uint64_t f64 = epilogue_hash<double>(context, acts[i], kinds[i]);
      char text[128];
      std::snprintf(text, sizeof text, "%s on %s: f32 %016" PRIx64 ", f64 %016" PRIx64,
                    activation_name(acts[i]), isa_name(isa), f32, f64);
      CHECK_MESSAGE(f32 == kEpiloguePins[i][0], text);
      CHECK_MESSAGE(f64 == kEpiloguePins[i][1], text);
    }
  }
  if (!ran) MESSAGE("no 128-bit x86/wasm level on this target");
}

}  // namespace
}  // namespace tessera::test::gemm
