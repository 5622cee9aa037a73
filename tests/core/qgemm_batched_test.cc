// Batched MatMulInteger (tessera/quantized.hpp): every entry against the
// reference and bit for bit against the single call, in the strided form
// (shared operands included), with pointer arrays and with a prepacked B,
// on every level; the same bits for every worker count; bad arguments named
// before any entry is written.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "qgemm_test_util.hpp"

namespace tessera {
namespace {

namespace tq = test::qgemm;
using tq::QOperands;
using tq::QShape;

// batch entries of one shape: entry i's A, B and C at i * (one matrix's
// bytes + pad) in three arrays, or shared (stride 0) when asked.
struct Batch {
  QShape s;
  std::int64_t batch = 0;
  std::int64_t a_stride = 0, b_stride = 0, c_stride = 0;  // bytes, bytes, elements
  std::vector<std::uint8_t> a, b;
  std::vector<std::int32_t> c0;
  QOperands q;  // the zero points and scales every entry shares
};

Batch make_batch(const QShape& s, std::int64_t batch, bool share_a, bool share_b,
                 std::uint64_t seed) {
  Batch x;
  x.s = s;
  x.batch = batch;
  x.q = tq::make_operands(s, seed);
  x.a_stride = share_a ? 0 : static_cast<std::int64_t>(s.a_len()) + 5;
  x.b_stride = share_b ? 0 : static_cast<std::int64_t>(s.b_len()) + 3;
  x.c_stride = static_cast<std::int64_t>(s.c_len()) + 7;
  test::Rng rng(seed + 1);
  x.a.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, x.a_stride * (batch - 1) + static_cast<std::int64_t>(s.a_len()))));
  x.b.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, x.b_stride * (batch - 1) + static_cast<std::int64_t>(s.b_len()))));
  x.c0.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, x.c_stride * batch)));
  for (auto& v : x.a) v = static_cast<std::uint8_t>(rng.next());
  for (auto& v : x.b) v = static_cast<std::uint8_t>(rng.next());
  for (auto& v : x.c0) v = static_cast<std::int32_t>(rng.next());
  return x;
}

// Entry i's operands as a single call's (QOperands with its A, B, C0).
QOperands entry(const Batch& x, std::int64_t i) {
  QOperands o = x.q;
  o.a.assign(x.a.begin() + i * x.a_stride, x.a.begin() + i * x.a_stride + static_cast<std::ptrdiff_t>(x.s.a_len()));
  o.b.assign(x.b.begin() + i * x.b_stride, x.b.begin() + i * x.b_stride + static_cast<std::ptrdiff_t>(x.s.b_len()));
  o.c0.assign(x.c0.begin() + i * x.c_stride, x.c0.begin() + i * x.c_stride + static_cast<std::ptrdiff_t>(x.s.c_len()));
  if (o.a.empty()) o.a.resize(1);
  if (o.b.empty()) o.b.resize(1);
  if (o.c0.empty()) o.c0.resize(1);
  return o;
}

Status run_strided(const Context& context, const Batch& x, std::vector<std::int32_t>* c,
                   Parallelism par = {}) {
  *c = x.c0;
  const IntMatrix a{x.s.a_type, x.a.data(), x.s.lda(), x.s.ta};
  const IntMatrix b{x.s.b_type, x.b.data(), x.s.ldb(), x.s.tb};
  return try_gemm_integer_strided_batched(context, x.s.layout, x.s.m, x.s.n, x.s.k, a, x.a_stride,
                                          tq::a_quant(x.q), b, x.b_stride,
                                          tq::b_quant(x.s, x.q), x.s.beta, c->data(),
                                          x.s.ldc(), x.c_stride, x.batch, par);
}

// Every entry of c equals the reference (and so the single call, whose
// tests hold it to the same reference), padding untouched.
void check_entries(const Batch& x, const std::vector<std::int32_t>& c, const std::string& what) {
  for (std::int64_t i = 0; i < x.batch; ++i) {
    const std::vector<std::int32_t> want = tq::expected_int32(x.s, entry(x, i));
    const std::vector<std::int32_t> got(c.begin() + i * x.c_stride,
                                        c.begin() + i * x.c_stride + static_cast<std::ptrdiff_t>(x.s.c_len()));
    REQUIRE_MESSAGE(std::vector<std::int32_t>(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(x.s.c_len())) == got,
                    what, " entry ", i, " ", x.s.describe());
  }
  // The gaps between entries are never written.
  for (std::int64_t i = 0; i < x.batch; ++i) {
    for (std::int64_t p = static_cast<std::int64_t>(x.s.c_len()); p < x.c_stride; ++p) {
      REQUIRE(c[static_cast<std::size_t>(i * x.c_stride + p)] == x.c0[static_cast<std::size_t>(i * x.c_stride + p)]);
    }
  }
}

std::vector<QShape> shapes() {
  std::vector<QShape> out;
  QShape s;
  s.m = 7, s.n = 13, s.k = 29;
  out.push_back(s);
  s = {};
  s.layout = Layout::kColMajor, s.ta = Transpose::kYes, s.m = 17, s.n = 70, s.k = 65;
  s.a_type = IntType::kS8, s.per_column = true, s.beta = 1, s.lda_pad = 2;
  out.push_back(s);
  s = {};
  s.tb = Transpose::kYes, s.m = 1, s.n = 33, s.k = 301, s.b_type = IntType::kU8;
  out.push_back(s);
  s = {};
  s.m = 64, s.n = 64, s.k = 64, s.per_column = true;
  out.push_back(s);
  return out;
}

TEST_CASE("batched integer gemm: strided, shared operands and pointer arrays give each entry's exact sums") {
  for (const Context& context : test::contexts_under_test()) {
    std::uint64_t seed = 40;
    for (const QShape& s : shapes()) {
      for (int share = 0; share < 3; ++share) {
        const Batch x = make_batch(s, 5, share == 1, share == 2, ++seed);
        std::vector<std::int32_t> c;
        const Status st = run_strided(context, x, &c);
        REQUIRE_MESSAGE(st.ok(), st.to_string());
        check_entries(x, c, test::level_label(context) + (share == 1 ? " shared A" : share == 2 ? " shared B" : ""));
        // Pointer arrays over the same entries, listed in reverse.
        std::vector<const void*> as, bs;
        std::vector<std::int32_t*> cs;
        std::vector<std::int32_t> c2 = x.c0;
        for (std::int64_t i = 0; i < x.batch; ++i) {
          as.push_back(x.a.data() + i * x.a_stride);
          bs.push_back(x.b.data() + i * x.b_stride);
          cs.push_back(c2.data() + i * x.c_stride);
        }
        const Status sp = try_gemm_integer_batched(
            context, s.layout, s.m, s.n, s.k, IntMatrix{s.a_type, nullptr, s.lda(), s.ta}, as.data(),
            tq::a_quant(x.q), IntMatrix{s.b_type, nullptr, s.ldb(), s.tb}, bs.data(),
            tq::b_quant(s, x.q), s.beta, cs.data(), s.ldc(), x.batch);
        REQUIRE_MESSAGE(sp.ok(), sp.to_string());
        CHECK(c2 == c);
      }
    }
  }
}

TEST_CASE("batched integer gemm: one prepacked B for every entry") {
  for (Isa isa : test::host_isas()) {
    const Context context = test::context_for(isa);
    for (const QShape& s0 : shapes()) {
      if (s0.layout != Layout::kRowMajor) continue;
      const Batch x = make_batch(s0, 4, false, true, 77);
      PackedIntRhs packed;
      const IntMatrix b{s0.b_type, x.b.data(), s0.ldb(), s0.tb};
      REQUIRE(try_prepack_integer_rhs(context, s0.layout, s0.k, s0.n, b, &packed).ok());
      std::vector<std::int32_t> c = x.c0;
      const Status st = try_gemm_integer_strided_batched(
          context, s0.layout, s0.m, s0.n, s0.k, IntMatrix{s0.a_type, x.a.data(), s0.lda(), s0.ta},
          x.a_stride, tq::a_quant(x.q), packed, tq::b_quant(s0, x.q), s0.beta,
          c.data(), s0.ldc(), x.c_stride, x.batch);
      REQUIRE_MESSAGE(st.ok(), st.to_string());
      check_entries(x, c, std::string(isa_name(isa)) + " packed");
    }
  }
}

TEST_CASE("batched integer gemm: the same bits for every worker count") {
  // Many small entries (whole entries per worker) and few large ones
  // (entries in order, each on the pool).
  QShape small;
  small.m = 9, small.n = 20, small.k = 40, small.per_column = true;
  QShape large;
  large.m = 130, large.n = 140, large.k = 200;
  // A pair, not a structured binding: Emscripten 3.1.6's clang 14 cannot
  // capture a binding in the lambdas the check macros expand to.
  for (const std::pair<QShape, std::int64_t>& entry :
       {std::pair{small, std::int64_t{64}}, std::pair{large, std::int64_t{3}}}) {
    const QShape& s = entry.first;
    const std::int64_t batch = entry.second;
    const Batch x = make_batch(s, batch, false, false, 5);
    for (Isa isa : test::host_isas()) {
      const Context context = test::context_for(isa);
      std::vector<std::int32_t> want;
      REQUIRE(run_strided(context, x, &want, Parallelism::serial()).ok());
      check_entries(x, want, isa_name(isa));
      for (int w : {2, 3, 8}) {
        std::vector<std::int32_t> got;
        REQUIRE(run_strided(context, x, &got, Parallelism::threads(w)).ok());
        REQUIRE_MESSAGE(got == want, isa_name(isa), " threads ", w, " batch ", batch);
      }
      std::vector<std::int32_t> automatic;
      REQUIRE(run_strided(context, x, &automatic).ok());
      CHECK(automatic == want);
    }
  }
}

TEST_CASE("batched integer gemm: bad arguments are named and nothing is written") {
  const Context context;
  QShape s;
  s.m = 4, s.n = 5, s.k = 6;
  Batch x = make_batch(s, 3, false, false, 9);
  const IntMatrix a{s.a_type, x.a.data(), s.lda(), s.ta};
  const IntMatrix b{s.b_type, x.b.data(), s.ldb(), s.tb};
  const QuantParams qa = QuantParams::per_tensor(3), qb = QuantParams::per_tensor(-2);
  std::vector<std::int32_t> c = x.c0;
  auto strided = [&](std::int64_t sa, std::int64_t sb, std::int32_t* out, std::int64_t sc,
                     std::int64_t batch) {
    return try_gemm_integer_strided_batched(context, s.layout, s.m, s.n, s.k, a, sa, qa, b, sb, qb,
                                            0, out, s.ldc(), sc, batch);
  };
  struct Case {
    Status status;
    const char* text;
  };
  const Case cases[] = {
      {strided(x.a_stride, x.b_stride, c.data(), x.c_stride, -1), "batch must be >= 0"},
      {strided(-1, x.b_stride, c.data(), x.c_stride, 3), "stride_a must be >= 0"},
      {strided(x.a_stride, -4, c.data(), x.c_stride, 3), "stride_b must be >= 0"},
      {strided(x.a_stride, x.b_stride, c.data(), 3, 3), "c[0] overlaps c[1]"},
      {strided(x.a_stride, x.b_stride, c.data(), 0, 2), "c[0] overlaps c[1]"},
      {strided(x.a_stride, x.b_stride, nullptr, x.c_stride, 3), "entry 0: c is null"},
  };
  for (const Case& t : cases) {
    CHECK(t.status.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(t.status.message().find(t.text) != std::string::npos, t.status.message(),
                  " (expected '", t.text, "')");
  }
  // C's last entry over an input's: A (24 bytes, shared by the entries)
  // inside the bytes of C's entry 2 (elements 80-99 of one array).
  std::vector<std::int32_t> shared(256);
  const IntMatrix a_in_c{s.a_type, shared.data() + 85, s.lda(), s.ta};
  const Status over = try_gemm_integer_strided_batched(context, s.layout, s.m, s.n, s.k, a_in_c,
                                                       0, qa, b, x.b_stride, qb, 0, shared.data(),
                                                       s.ldc(), 40, 3);
  CHECK(over.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(over.message().find("c[2] overlaps a[0]") != std::string::npos, over.message());
  // Pointer arrays: a null array, a null entry (named with its index).
  std::vector<const void*> as = {x.a.data(), x.a.data() + x.a_stride, nullptr};
  std::vector<const void*> bs = {x.b.data(), x.b.data(), x.b.data()};
  std::vector<std::int32_t*> cs = {c.data(), c.data() + x.c_stride, c.data() + 2 * x.c_stride};
  const Status null_array = try_gemm_integer_batched(context, s.layout, s.m, s.n, s.k, a, nullptr,
                                                     qa, b, bs.data(), qb, 0, cs.data(), s.ldc(), 3);
  CHECK_MESSAGE(null_array.message().find("a_entries is null") != std::string::npos, null_array.message());
  const Status null_entry = try_gemm_integer_batched(context, s.layout, s.m, s.n, s.k, a, as.data(),
                                                     qa, b, bs.data(), qb, 0, cs.data(), s.ldc(), 3);
  CHECK_MESSAGE(null_entry.message().find("a[2] is null") != std::string::npos, null_entry.message());
  // Nothing was written by any of them.
  CHECK(c == x.c0);
  // An empty batch is valid and writes nothing.
  CHECK(strided(x.a_stride, x.b_stride, c.data(), x.c_stride, 0).ok());
  CHECK(c == x.c0);
}

}  // namespace
}  // namespace tessera
