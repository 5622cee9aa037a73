// Cross-target bits of the integer GEMM: exact integer sums and an output
// stage of single float operations in a fixed order give the same bytes on
// every level and target, so one pin per case holds everywhere (every
// native level, WASI, wasi-threads, both Emscripten builds, aarch64 with and
// without the dot product). The pins are FNV-1a 64 of the outputs on the
// seeded operands of `tessera-cli qgemm` (cli/qgemm_seeded.hpp); the test's
// own reference from the definition (qgemm_test_util.hpp) must give them
// too, so they are not only what the code under test happened to print.
#include <cinttypes>
#include <cstdio>

#include "cli/qgemm_seeded.hpp"
#include "support/test_support.hpp"
#include "tests/core/qgemm_test_util.hpp"

namespace tessera {
namespace {

struct Case {
  Layout layout;
  Transpose ta, tb;
  std::int64_t m, n, k;
  IntType a_type, b_type;
  bool per_column;
  int stage;  // 0 int32, 1 requantized u8, 2 f32 with bias + relu
  std::uint64_t pin;
};

const Case kCases[] = {
    {Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 131, 67, 300, IntType::kU8, IntType::kS8, true, 0,
     0x744996cf4910d7c6ull},
    {Layout::kColMajor, Transpose::kYes, Transpose::kYes, 45, 90, 77, IntType::kS8, IntType::kS8, false, 0,
     0x3bb614df10166f21ull},
    {Layout::kRowMajor, Transpose::kNo, Transpose::kYes, 64, 33, 129, IntType::kU8, IntType::kU8, true, 1,
     0xf891d3654d471fcfull},
    {Layout::kRowMajor, Transpose::kNo, Transpose::kNo, 17, 100, 1000, IntType::kU8, IntType::kS8, true, 2,
     0x0230c1ef1b5bcbc2ull},
};

// The case's operands (seeded, row-major as cli/qgemm_seeded.hpp makes
// them, read through the case's layout and transposes: only the bytes
// matter) as a QShape and QOperands of the test's reference.
void operands(const Case& c, test::qgemm::QShape* s, test::qgemm::QOperands* o) {
  s->layout = c.layout, s->ta = c.ta, s->tb = c.tb;
  s->m = c.m, s->n = c.n, s->k = c.k;
  s->a_type = c.a_type, s->b_type = c.b_type;
  s->per_column = c.per_column;
  const cli::QGemmSeeded q = cli::make_qgemm_seeded(c.m, c.n, c.k, c.a_type == IntType::kS8,
                                                    c.b_type == IntType::kS8, 7);
  o->a = q.a;
  o->b = q.b;
  o->za = q.za;
  o->zb = c.per_column ? q.zb : std::vector<std::int32_t>{q.zb[0]};
  o->a_scale = 0.0125f;
  o->b_scales.clear();
  for (std::size_t j = 0; j < o->zb.size(); ++j) o->b_scales.push_back(0.004f + 0.0001f * j);
  o->c0.assign(s->c_len(), 0);
}

std::uint64_t run(const Context& context, const Case& c) {
  test::qgemm::QShape s;
  test::qgemm::QOperands o;
  operands(c, &s, &o);
  const IntMatrix a = test::qgemm::a_matrix(s, o), b = test::qgemm::b_matrix(s, o);
  const QuantParams qa = test::qgemm::a_quant(o), qb = test::qgemm::b_quant(s, o);
  switch (c.stage) {
    case 0: {
      std::vector<std::int32_t> out(s.c_len());
      REQUIRE(try_gemm_integer(context, s.layout, s.m, s.n, s.k, a, qa, b, qb, 0, out.data(),
                               s.ldc()).ok());
      return test::qgemm::fnv1a64(out.data(), out.size() * 4);
    }
    case 1: {
      std::vector<std::uint8_t> out(s.c_len());
      REQUIRE(try_qlinear_gemm(context, s.layout, s.m, s.n, s.k, a, qa, b, qb, IntType::kU8,
                               QuantParams::per_tensor(128, 0.05f), out.data(), s.ldc()).ok());
      return test::qgemm::fnv1a64(out.data(), out.size());
    }
    default: {
      std::vector<float> bias(static_cast<std::size_t>(s.n));
      for (std::size_t j = 0; j < bias.size(); ++j) bias[j] = static_cast<float>(j % 7) - 3.0f;
      GemmEpilogue<float> ep;
      ep.bias = bias.data();
      ep.bias_kind = BiasKind::kPerColumn;
      ep.activation = Activation::kRelu;
      std::vector<float> out(s.c_len());
      REQUIRE(try_gemm_integer_to_f32(context, s.layout, s.m, s.n, s.k, a, qa, b, qb, out.data(),
                                      s.ldc(), ep).ok());
      return test::qgemm::fnv1a64(out.data(), out.size() * 4);
    }
  }
}

// The case's hash from the test's own reference.
std::uint64_t reference(const Case& c) {
  test::qgemm::QShape s;
  test::qgemm::QOperands o;
  operands(c, &s, &o);
  const std::vector<std::int32_t> sums = test::qgemm::reference_sums(s, o);
  auto sum = [&](std::int64_t i, std::int64_t j) { return sums[static_cast<std::size_t>(i * s.n + j)]; };
  auto b_scale = [&](std::int64_t j) { return o.b_scales[c.per_column ? static_cast<std::size_t>(j) : 0]; };
  if (c.stage == 0) {
    std::vector<std::int32_t> out(s.c_len());
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j) out[s.c_at(i, j)] = sum(i, j);
    return test::qgemm::fnv1a64(out.data(), out.size() * 4);
  }
  if (c.stage == 1) {
    std::vector<std::uint8_t> out(s.c_len());
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j)
        out[s.c_at(i, j)] = test::qgemm::requantize(sum(i, j), o.a_scale * b_scale(j) / 0.05f, 128,
                                                     IntType::kU8);
    return test::qgemm::fnv1a64(out.data(), out.size());
  }
  std::vector<float> out(s.c_len());
  for (std::int64_t i = 0; i < s.m; ++i) {
    for (std::int64_t j = 0; j < s.n; ++j) {
      const float x = static_cast<float>(sum(i, j)) * (o.a_scale * b_scale(j)) +
                      (static_cast<float>(j % 7) - 3.0f);
      out[s.c_at(i, j)] = x < 0.0f ? 0.0f : x;  // no -0 or NaN can arise here
    }
  }
  return test::qgemm::fnv1a64(out.data(), out.size() * 4);
}

TEST_CASE("integer gemm: pinned output hashes, the same on every level and target") {
  for (const Case& c : kCases) {
    char text[64];
    std::snprintf(text, sizeof text, "%016" PRIx64, reference(c));
    CHECK_MESSAGE(reference(c) == c.pin, "the reference gives ", text);
    for (const Context& context : test::contexts_under_test()) {
      std::snprintf(text, sizeof text, "%016" PRIx64, run(context, c));
      CHECK_MESSAGE(run(context, c) == c.pin, test::level_label(context), " gives ", text);
    }
  }
}

}  // namespace
}  // namespace tessera
