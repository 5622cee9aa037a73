// Shared helpers of the batched GEMM tests: a batch of independent problems
// of one Shape laid out in strided buffers (with sentinel gaps between the
// entries), and the two things a batched result is compared with: single
// try_gemm called entry by entry (same arithmetic, so the same bits) and the
// independent double reference of gemm_test_util.hpp.
#pragma once

#include <vector>

#include "tests/core/gemm_test_util.hpp"

namespace tessera::test::gemm {

template <class T>
struct Batch {
  Shape s;
  std::int64_t count = 0;
  std::int64_t stride_a = 0, stride_b = 0, stride_c = 0;  // elements
  std::vector<T> a, b, c;                                 // c: before the call
  std::vector<Operands<T>> entries;                       // each entry alone
};

// `count` entries of shape `s`, entry i's operands from seed + i; gap
// elements of sentinel after every entry; shared_b: one B for all (stride 0).
template <class T>
Batch<T> make_batch(const Shape& s, std::int64_t count, std::uint64_t seed, bool shared_b = false,
                    std::int64_t gap = 3) {
  Batch<T> x;
  x.s = s;
  x.count = count;
  const Operands<T> probe = make_operands<T>(s, seed);
  x.stride_a = static_cast<std::int64_t>(probe.a.size()) + gap;
  x.stride_b = shared_b ? 0 : static_cast<std::int64_t>(probe.b.size()) + gap;
  x.stride_c = static_cast<std::int64_t>(probe.c.size()) + gap;
  const std::int64_t n = std::max<std::int64_t>(count, 1);
  x.a.assign(static_cast<std::size_t>(x.stride_a * n), T(-777));
  x.b.assign(static_cast<std::size_t>(shared_b ? probe.b.size() : x.stride_b * n), T(-777));
  x.c.assign(static_cast<std::size_t>(x.stride_c * n), T(-777));
  for (std::int64_t i = 0; i < count; ++i) {
    Operands<T> o = make_operands<T>(s, seed + static_cast<std::uint64_t>(i));
    if (shared_b && i > 0) o.b = x.entries[0].b;
    std::copy(o.a.begin(), o.a.end(), x.a.begin() + i * x.stride_a);
    if (!shared_b || i == 0) std::copy(o.b.begin(), o.b.end(), x.b.begin() + i * x.stride_b);
    std::copy(o.c.begin(), o.c.end(), x.c.begin() + i * x.stride_c);
    x.entries.push_back(std::move(o));
  }
  return x;
}

// Single try_gemm on every entry in order, serial: the bits a batched call
// must reproduce.
template <class T>
std::vector<T> loop_of_single(const Context& context, const Batch<T>& x) {
  std::vector<T> c = x.c;
  for (std::int64_t i = 0; i < x.count; ++i) {
    const Status st =
        try_gemm(context, x.s.layout, x.s.ta, x.s.tb, x.s.m, x.s.n, x.s.k,
                 static_cast<T>(x.s.alpha), x.a.data() + i * x.stride_a, x.s.lda(),
                 x.b.data() + i * x.stride_b, x.s.ldb(), static_cast<T>(x.s.beta),
                 c.data() + i * x.stride_c, x.s.ldc(), Parallelism::serial());
    REQUIRE_MESSAGE(st.ok(), st.to_string());
  }
  return c;
}

template <class T>
Status run_strided(const Context& context, const Batch<T>& x, std::vector<T>* c,
                   Parallelism parallelism = {}) {
  *c = x.c;
  return try_gemm_strided_batched(context, x.s.layout, x.s.ta, x.s.tb, x.s.m, x.s.n, x.s.k,
                                  static_cast<T>(x.s.alpha), x.a.data(), x.s.lda(), x.stride_a,
                                  x.b.data(), x.s.ldb(), x.stride_b, static_cast<T>(x.s.beta),
                                  c->data(), x.s.ldc(), x.stride_c, x.count, parallelism);
}

template <class T>
Status run_arrays(const Context& context, const Batch<T>& x, std::vector<T>* c,
                  Parallelism parallelism = {}) {
  *c = x.c;
  std::vector<const T*> a, b;
  std::vector<T*> cs;
  for (std::int64_t i = 0; i < x.count; ++i) {
    a.push_back(x.a.data() + i * x.stride_a);
    b.push_back(x.b.data() + i * x.stride_b);
    cs.push_back(c->data() + i * x.stride_c);
  }
  return try_gemm_batched(context, x.s.layout, x.s.ta, x.s.tb, x.s.m, x.s.n, x.s.k,
                          static_cast<T>(x.s.alpha), a.data(), x.s.lda(), b.data(), x.s.ldb(),
                          static_cast<T>(x.s.beta), cs.data(), x.s.ldc(), x.count, parallelism);
}

// Every entry against the double reference (check_close, which also checks
// C's padding), and the gaps between entries still hold the sentinel.
template <class T>
void check_entries_close(const Batch<T>& x, const std::vector<T>& c, const std::string& where) {
  for (std::int64_t i = 0; i < x.count; ++i) {
    const auto first = c.begin() + i * x.stride_c;
    const std::vector<T> ci(first, first + static_cast<std::int64_t>(x.entries[i].c.size()));
    check_close(x.s, x.entries[static_cast<std::size_t>(i)], ci,
                where + " entry " + std::to_string(i));
    for (auto g = first + static_cast<std::int64_t>(ci.size()); g != first + x.stride_c; ++g) {
      CHECK_MESSAGE(*g == T(-777), where, ": gap after entry ", i, " was written");
    }
  }
}

}  // namespace tessera::test::gemm
