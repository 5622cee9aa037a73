// The half GEMM's fast mode (design.md §Half precision): bf16 x bf16 on the
// CPU's bf16 pair dot product (GemmKernels::bf16_pairs). Each side of the
// canonical problem becomes a matrix of 32-bit words, word (i, q) of A
// holding A(i, 2q) in its low half and A(i, 2q + 1) in its high one (B
// likewise along its depth), +0 past an odd depth; the product of those
// word matrices, ceil(k / 2) deep, is an f32 problem like any other for
// the driver, whose packing moves words and whose depth step is the pair
// dot. A side already laid out that way (depth contiguous, even, on
// 4-byte boundaries) is read in place; any other is paired into a copy
// first, one pass over it.
#include <cstdint>
#include <cstring>
#include <string>

#include "core/src/base/bandwidth_split.hpp"
#include "core/src/base/workspace.hpp"
#include "core/src/gemm/gemm_call.hpp"
#include "core/src/gemm/gemm_half.hpp"

namespace tessera::gemm_detail {
namespace {

// The word of two depth-adjacent values (hi absent past an odd depth).
inline std::uint32_t pair_word(std::uint16_t lo, std::uint16_t hi) {
  return static_cast<std::uint32_t>(lo) | (static_cast<std::uint32_t>(hi) << 16);
}

// Whether `data`, with its depth at unit stride and its lines `line` values
// apart, is a word matrix already: then it needs no copy.
bool pairs_in_place(const std::uint16_t* data, std::int64_t depth, std::int64_t line) {
  return depth % 2 == 0 && line % 2 == 0 &&
         reinterpret_cast<std::uintptr_t>(data) % sizeof(std::uint32_t) == 0;
}

// A side to pair into a copy: `lines` lines of `depth` values (value d of
// line l at data[l*s_line + d*s_depth]) into out, word (l, q) at
// out[l*o_line + q*o_depth].
struct PairJob {
  const std::uint16_t* data;
  std::int64_t lines, depth, s_line, s_depth;
  std::uint32_t* out;
  std::int64_t o_line, o_depth;

  // Row-major B (its lines are columns, contiguous) pairs two rows at a
  // time, one row of words per pair; every other layout pairs line by line.
  bool by_rows() const { return s_line == 1 && o_line == 1; }
  // The units split over workers: word rows, or lines.
  std::int64_t units() const { return by_rows() ? (depth + 1) / 2 : lines; }

  void run(std::int64_t u0, std::int64_t u1) const {
    const std::int64_t pairs = (depth + 1) / 2;
    if (by_rows()) {
      for (std::int64_t q = u0; q < u1; ++q) {
        const std::uint16_t* lo = data + 2 * q * s_depth;
        std::uint32_t* row = out + q * o_depth;
        if (2 * q + 1 < depth) {
          const std::uint16_t* hi = lo + s_depth;
          for (std::int64_t l = 0; l < lines; ++l) row[l] = pair_word(lo[l], hi[l]);
        } else {
          for (std::int64_t l = 0; l < lines; ++l) row[l] = pair_word(lo[l], 0);
        }
      }
      return;
    }
    for (std::int64_t l = u0; l < u1; ++l) {
      const std::uint16_t* line = data + l * s_line;
      std::uint32_t* words = out + l * o_line;
      for (std::int64_t q = 0; q < pairs; ++q) {
        const std::uint16_t lo = line[2 * q * s_depth];
        const std::uint16_t hi = 2 * q + 1 < depth ? line[(2 * q + 1) * s_depth] : 0;
        words[q * o_depth] = pair_word(lo, hi);
      }
    }
  }
};

// Runs `job` on the bandwidth resolver's workers (a copy is bound by
// memory: 2 bytes read and 4 written per value). Paired serially, B of a
// 1024^3 product (2 MiB) cost ~9% of the product's time on two threads.
void pair(const detail::ContextState& state, const PairJob& job, Parallelism parallelism) {
  const auto units = static_cast<std::uint64_t>(job.units());
  const std::uint64_t bytes = static_cast<std::uint64_t>(job.lines) *
                              static_cast<std::uint64_t>(job.depth) * 4;
  const core::BandwidthPlan plan = core::plan_bandwidth_workers(state, bytes, units, parallelism);
  core::run_bandwidth_split(state, plan.workers, static_cast<std::size_t>(units), 1,
                            [&](std::size_t u0, std::size_t u1) {
                              job.run(static_cast<std::int64_t>(u0),
                                      static_cast<std::int64_t>(u1));
                            });
}

}  // namespace

Status run_bf16_pairs(const detail::ContextState& state, const core::GemmKernelSet<float>& set,
                      const core::GemmProblem<float>& pr, const std::uint16_t* a,
                      const std::uint16_t* b, Parallelism parallelism) {
  if (trivial(pr)) return run_trivial(state, pr);
  const std::int64_t pairs = (pr.k + 1) / 2;
  // A's lines are its rows (depth along cs_a); B's are its columns (depth
  // along rs_b). A copy is row-major words: A m x pairs, B pairs x n.
  const bool a_in_place = pr.cs_a == 1 && pairs_in_place(a, pr.k, pr.rs_a);
  const bool b_in_place = pr.rs_b == 1 && pairs_in_place(b, pr.k, pr.cs_b);
  const std::int64_t a_words = a_in_place ? 0 : pr.m * pairs;
  const std::int64_t b_words = b_in_place ? 0 : pairs * pr.n;
  core::Workspace workspace(static_cast<std::size_t>(a_words + b_words) * sizeof(std::uint32_t));
  if (a_words + b_words > 0 && workspace.data() == nullptr) {
    return Status(StatusCode::kOutOfMemory, "gemm: cannot allocate the bf16 pairs of a and b");
  }
  auto* copies = static_cast<std::uint32_t*>(workspace.data());
  const auto as_words = [](const void* p) { return static_cast<const float*>(p); };
  // The problem on the word matrices, each side in place or its copy.
  core::GemmProblem<float> words = pr;
  words.k = pairs;
  if (a_in_place) {
    words.a = as_words(a), words.rs_a = pr.rs_a / 2, words.cs_a = 1;
  } else {
    pair(state, {a, pr.m, pr.k, pr.rs_a, pr.cs_a, copies, pairs, 1}, parallelism);
    words.a = as_words(copies), words.rs_a = pairs, words.cs_a = 1;
  }
  if (b_in_place) {
    words.b = as_words(b), words.rs_b = 1, words.cs_b = pr.cs_b / 2;
  } else {
    std::uint32_t* out = copies + a_words;
    pair(state, {b, pr.n, pr.k, pr.cs_b, pr.rs_b, out, 1, pr.n}, parallelism);
    words.b = as_words(out), words.rs_b = pr.n, words.cs_b = 1;
  }
  return execute_on<float>(state, set, blocking_of(set), words, parallelism, nullptr, nullptr);
}

}  // namespace tessera::gemm_detail
