// tessera::mpi under mpirun (tests/CMakeLists.txt runs it on 1, 2 and 4
// ranks): on every process grid the ranks can form, the distributed GEMM
// gives the bits of one-process tessera::gemm on the same matrices, stays
// within the rounding bound of a double-precision reference, reports bad
// arguments on every rank before writing, and each rank's context takes
// only its share of the node.
//
// Every rank builds the whole seeded problem (small matrices), so its local
// parts and the references come from the same values. A failure prints the
// rank and the case; the exit code is non-zero on every rank if any failed.
#include <mpi.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "tessera/mpi.hpp"
#include "tessera/tessera.hpp"

namespace {

using tessera::Transpose;
using tessera::mpi::BlockDescriptor;

int g_rank = 0, g_size = 1;
int g_cases = 0, g_failures = 0;

void fail(const std::string& where, const std::string& what) {
  ++g_failures;
  std::printf("rank %d: FAIL %s: %s\n", g_rank, where.c_str(), what.c_str());
}

// Values in [-1, 1) with every mantissa bit random, from (stream, index):
// their products round, so a sum taken in another order or sliced
// differently changes the bits (exact small integers would hide that).
double seeded(std::uint64_t stream, std::uint64_t index) {
  std::uint64_t z = stream * 0x9E3779B97F4A7C15ull + (index + 1) * 0xD1B54A32D192ED03ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
}

// A whole matrix (row-major, rows x cols) and its local part on grid
// position (row, col) under descriptor d.
template <class T>
std::vector<T> local_part(const std::vector<T>& whole, const BlockDescriptor& d, int row, int col) {
  using namespace tessera::mpi;
  const std::int64_t lr = local_extent(d.rows, d.row_block, row, d.grid_rows);
  std::vector<T> part(static_cast<std::size_t>(std::max<std::int64_t>(1, lr * d.lld)), T(-7));
  for (std::int64_t i = 0; i < d.rows; ++i) {
    if (owner_of(i, d.row_block, d.grid_rows) != row) continue;
    for (std::int64_t j = 0; j < d.cols; ++j) {
      if (owner_of(j, d.col_block, d.grid_cols) != col) continue;
      part[local_index(i, d.row_block, d.grid_rows) * d.lld +
           local_index(j, d.col_block, d.grid_cols)] = whole[i * d.cols + j];
    }
  }
  return part;
}

template <class T>
bool same_bits(T x, T y) {
  return std::memcmp(&x, &y, sizeof(T)) == 0;
}

struct Case {
  std::int64_t m, n, k;
  Transpose ta, tb;
  std::int64_t mb, nb, kb_a, kb_b;  // C's blocks; depth blocks of op(A), op(B)
  double alpha, beta;
  bool nan_c;  // C starts as NaN (beta must be 0: never read)
};

std::string describe(const Case& c, int P, int Q, const char* dtype) {
  char text[256];
  std::snprintf(text, sizeof text,
                "%s %dx%d grid, %" PRId64 "x%" PRId64 "x%" PRId64 " %s%s, blocks %" PRId64
                "x%" PRId64 " depth %" PRId64 "/%" PRId64 ", alpha %g beta %g%s",
                dtype, P, Q, c.m, c.n, c.k, c.ta == Transpose::kYes ? "T" : "N",
                c.tb == Transpose::kYes ? "T" : "N", c.mb, c.nb, c.kb_a, c.kb_b, c.alpha, c.beta,
                c.nan_c ? " (C NaN)" : "");
  return text;
}

template <class T>
void run_case(const tessera::Context& context, int P, int Q, const Case& cs) {
  ++g_cases;
  const char* dtype = sizeof(T) == 4 ? "f32" : "f64";
  const std::string name = describe(cs, P, Q, dtype);
  const int row = g_rank / Q, col = g_rank % Q;
  const bool at = cs.ta == Transpose::kYes, bt = cs.tb == Transpose::kYes;

  // Stored shapes and blocks: op(A) is m x k with row block mb and depth
  // block kb_a; stored transposed, the blocks swap with the extents.
  const std::int64_t a_rows = at ? cs.k : cs.m, a_cols = at ? cs.m : cs.k;
  const std::int64_t b_rows = bt ? cs.n : cs.k, b_cols = bt ? cs.k : cs.n;
  const BlockDescriptor da = tessera::mpi::make_descriptor(a_rows, a_cols, at ? cs.kb_a : cs.mb,
                                                           at ? cs.mb : cs.kb_a, P, Q, col);
  const BlockDescriptor db = tessera::mpi::make_descriptor(b_rows, b_cols, bt ? cs.nb : cs.kb_b,
                                                           bt ? cs.kb_b : cs.nb, P, Q, col);
  BlockDescriptor dc = tessera::mpi::make_descriptor(cs.m, cs.n, cs.mb, cs.nb, P, Q, col);
  dc.lld += 3;  // a leading dimension beyond the local columns

  std::vector<T> a(static_cast<std::size_t>(a_rows * a_cols)),
      b(static_cast<std::size_t>(b_rows * b_cols)), c(static_cast<std::size_t>(cs.m * cs.n));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<T>(seeded(1, i));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<T>(seeded(2, i));
  for (std::size_t i = 0; i < c.size(); ++i) {
    c[i] = cs.nan_c ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(seeded(3, i));
  }

  // One-process tessera::gemm on the whole problem.
  std::vector<T> expected = c;
  const tessera::Status one = tessera::try_gemm(
      context, tessera::Layout::kRowMajor, cs.ta, cs.tb, cs.m, cs.n, cs.k, static_cast<T>(cs.alpha),
      a.data(), std::max<std::int64_t>(1, a_cols), b.data(), std::max<std::int64_t>(1, b_cols),
      static_cast<T>(cs.beta), expected.data(), std::max<std::int64_t>(1, cs.n));
  if (!one.ok()) return fail(name, "one-process gemm: " + one.to_string());

  std::vector<T> la = local_part(a, da, row, col), lb = local_part(b, db, row, col),
                 lc = local_part(c, dc, row, col);
  // A rank that holds none of a matrix passes null for it (allowed).
  auto held = [&](std::vector<T>& part, const BlockDescriptor& d) -> T* {
    using tessera::mpi::local_extent;
    return local_extent(d.rows, d.row_block, row, P) * local_extent(d.cols, d.col_block, col, Q) > 0
               ? part.data()
               : nullptr;
  };
  tessera::mpi::GemmStats stats;
  const tessera::Status s = tessera::mpi::gemm(
      context, MPI_COMM_WORLD, cs.ta, cs.tb, static_cast<T>(cs.alpha), held(la, da), da,
      held(lb, db), db, static_cast<T>(cs.beta), held(lc, dc), dc, &stats);
  if (!s.ok()) return fail(name, s.to_string());

  // Every local element: the one-process bits, and within the rounding
  // bound of a double-precision sum of the same operands.
  using namespace tessera::mpi;
  const double eps = std::numeric_limits<T>::epsilon();
  int reported = 0;
  for (std::int64_t i = 0; i < cs.m; ++i) {
    if (owner_of(i, dc.row_block, P) != row) continue;
    for (std::int64_t j = 0; j < cs.n; ++j) {
      if (owner_of(j, dc.col_block, Q) != col) continue;
      const T got = lc[local_index(i, dc.row_block, P) * dc.lld + local_index(j, dc.col_block, Q)];
      double sum = 0, magnitude = 0;
      for (std::int64_t p = 0; p < cs.k; ++p) {
        const double x = at ? a[p * a_cols + i] : a[i * a_cols + p];
        const double y = bt ? b[j * b_cols + p] : b[p * b_cols + j];
        sum += x * y;
        magnitude += std::fabs(x * y);
      }
      const double c0 = cs.beta == 0 ? 0.0 : static_cast<double>(c[i * cs.n + j]);
      const double want = cs.alpha * sum + cs.beta * c0;
      const double bound =
          2 * (cs.k + 2) * eps * (std::fabs(cs.alpha) * magnitude + std::fabs(cs.beta * c0)) +
          std::numeric_limits<T>::min();
      const T one_process = expected[i * cs.n + j];
      if ((!same_bits(got, one_process) || !(std::fabs(got - want) <= bound)) && reported++ < 3) {
        char text[200];
        std::snprintf(text, sizeof text,
                      "C(%" PRId64 ", %" PRId64
                      ") = %.17g, one-process %.17g, double %.17g "
                      "(bound %.3g)",
                      i, j, static_cast<double>(got), static_cast<double>(one_process), want,
                      bound);
        fail(name, text);
      }
    }
  }
  // Padding between the local columns and lld is never written.
  const std::int64_t lr = local_extent(dc.rows, dc.row_block, row, P);
  const std::int64_t lcols = local_extent(dc.cols, dc.col_block, col, Q);
  for (std::int64_t r = 0; r < lr; ++r) {
    for (std::int64_t j = lcols; j < dc.lld; ++j) {
      if (lc[r * dc.lld + j] != T(-7) && reported++ < 3) fail(name, "wrote into the lld padding");
    }
  }
  if (cs.k > 0 && stats.slices != (cs.k + stats.kc - 1) / stats.kc) {
    fail(name,
         "stats: " + std::to_string(stats.slices) + " slices for kc " + std::to_string(stats.kc));
  }
}

template <class T>
void correctness(const tessera::Context& context, int P, int Q) {
  tessera::GemmPlan plan;
  if (!tessera::try_plan_gemm(context, sizeof(T) == 4 ? tessera::Dtype::kF32 : tessera::Dtype::kF64,
                              tessera::Layout::kRowMajor, 64, 64, 64, {}, &plan)
           .ok()) {
    return fail("plan", "try_plan_gemm failed");
  }
  const std::int64_t kc = plan.kc;
  const std::int64_t shapes[][3] = {
      {0, 5, 7}, {5, 0, 7}, {6, 5, 0}, {1, 1, 1}, {7, 11, 13}, {37, 29, 2 * kc + 17}, {23, 31, kc}};
  const std::int64_t blocks[][4] = {
      {4, 3, 5, 7}, {1, 1, 1, 1}, {16, 16, kc, kc}, {100, 100, 3 * kc, 2}};
  const double scalars[][2] = {{1, 0}, {-0.5, 0.25}, {1, 1}, {2, 0}};
  int rotate = 0;
  for (const auto& shape : shapes) {
    for (Transpose ta : {Transpose::kNo, Transpose::kYes}) {
      for (Transpose tb : {Transpose::kNo, Transpose::kYes}) {
        const auto& blk = blocks[rotate % 4];
        const auto& sc = scalars[(rotate / 4 + rotate) % 4];
        ++rotate;
        Case cs{shape[0], shape[1], shape[2], ta,    tb,    blk[0],
                blk[1],   blk[2],   blk[3],   sc[0], sc[1], sc[1] == 0 && rotate % 2 == 0};
        run_case<T>(context, P, Q, cs);
      }
    }
  }
  // Every block setting on one shape spanning several slices, and blocks
  // far beyond the extents (one block each; no block arithmetic may
  // overflow).
  const std::int64_t huge = std::int64_t{1} << 62;
  for (const auto& blk : blocks) {
    run_case<T>(context, P, Q,
                Case{19, 17, kc + 5, Transpose::kNo, Transpose::kYes, blk[0], blk[1], blk[2],
                     blk[3], 1, 0, false});
  }
  run_case<T>(context, P, Q,
              Case{19, 17, 2 * kc + 3, Transpose::kYes, Transpose::kNo, huge, huge, huge, huge, 1,
                   0, false});
}

// The naive family (one double-precision sum per element, no depth slices)
// gives its one-process bits too.
template <class T>
void naive_family(int P, int Q) {
  tessera::ContextOptions options;
  options.family = tessera::KernelFamily::kNaive;
  tessera::Context naive;
  const tessera::Status made = tessera::mpi::make_rank_context(MPI_COMM_WORLD, options, &naive);
  if (!made.ok()) return fail("naive context", made.to_string());
  run_case<T>(naive, P, Q,
              Case{23, 19, 1700, Transpose::kNo, Transpose::kNo, 4, 3, 5, 7, -0.5, 0.25, false});
}

// A call that must fail on every rank with `expected` in the message and
// leave C as it was.
void expect_error(const std::string& name, const std::string& expected,
                  const tessera::Context& context, const BlockDescriptor& da,
                  const BlockDescriptor& db, BlockDescriptor dc, bool null_c = false) {
  ++g_cases;
  std::vector<float> a(4096, 1.0f), b(4096, 1.0f), c(4096, 5.0f);
  const tessera::Status s =
      tessera::mpi::gemm(context, MPI_COMM_WORLD, Transpose::kNo, Transpose::kNo, 1.0f, a.data(),
                         da, b.data(), db, 0.0f, null_c ? nullptr : c.data(), dc);
  if (s.ok()) return fail(name, "accepted");
  if (s.message().find(expected) == std::string::npos) {
    return fail(name, "message '" + s.message() + "' lacks '" + expected + "'");
  }
  for (float x : c) {
    if (x != 5.0f) return fail(name, "C was written before the error");
  }
}

void bad_input(const tessera::Context& context, int P, int Q) {
  const int col = g_rank % Q;
  const std::string grid = std::to_string(P) + "x" + std::to_string(Q);
  auto d = [&](std::int64_t r, std::int64_t c) {
    return tessera::mpi::make_descriptor(r, c, 4, 4, P, Q, col);
  };
  const int last = g_size - 1;

  BlockDescriptor wrong_grid = d(9, 9);
  wrong_grid.grid_rows = P + 1;
  expect_error(grid + " grid mismatch", "does not match the communicator's", context, wrong_grid,
               wrong_grid, wrong_grid);

  BlockDescriptor bad_lld = d(9, 9);
  if (g_rank == last) bad_lld.lld = 0;
  expect_error(grid + " bad lld on one rank",
               "rank " + std::to_string(last) + ": desc_c.lld = 0 is smaller", context, d(9, 9),
               d(9, 9), bad_lld);

  if (g_size > 1) {
    BlockDescriptor inconsistent = d(9, 9);
    if (g_rank == last) inconsistent.rows = 10;
    expect_error(grid + " inconsistent descriptor", "desc_a.rows differs across ranks (9 to 10)",
                 context, inconsistent, d(9, 9), d(9, 9));
  }

  expect_error(grid + " mismatched shapes", "op(B) has 8 rows but op(A) has 9 columns", context,
               d(9, 9), d(8, 9), d(9, 9));

  BlockDescriptor misaligned = tessera::mpi::make_descriptor(9, 9, 2, 4, P, Q, col);
  expect_error(grid + " misaligned blocks",
               "op(A)'s row block 4 (desc_a.row_block) must equal desc_c.row_block = 2", context,
               d(9, 9), d(9, 9), misaligned);

  BlockDescriptor zero_block = d(9, 9);
  zero_block.col_block = 0;
  expect_error(grid + " zero block", "desc_b.row_block and .col_block must be >= 1", context,
               d(9, 9), zero_block, d(9, 9));

  expect_error(grid + " null c", "c is null but this rank holds", context, d(9, 9), d(9, 9),
               d(9, 9), /*null_c=*/true);
}

// The rank's context never takes more than its share: the ranks of this
// node together use at most max(cores, ranks) participants, and ranks that
// see the same CPUs say they share them.
void rank_context() {
  ++g_cases;
  tessera::Context context;
  const tessera::Status s = tessera::mpi::make_rank_context(MPI_COMM_WORLD, {}, &context);
  if (!s.ok()) return fail("make_rank_context", s.to_string());
  const tessera::ResolvedExecutionPolicy r = context.resolved_policy();
  const tessera::Topology whole = tessera::platform::read_topology();
  int mine = r.effective_threads, total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  // All ranks of these tests run on one node.
  int cores = whole.physical_core_count(), most_cores = 0;
  MPI_Allreduce(&cores, &most_cores, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const int visible = whole.logical_count();
  int all_visible = 0;
  MPI_Allreduce(&visible, &all_visible, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  std::string fallbacks;
  for (const std::string& f : r.fallbacks) fallbacks += f + "; ";
  if (g_size > 1 && all_visible == visible && visible > 1) {
    // Unbound ranks (or bound to the same set): the total fits the node.
    if (total > std::max(most_cores, g_size)) {
      fail("rank context", std::to_string(g_size) + " ranks take " + std::to_string(total) +
                               " participants on " + std::to_string(most_cores) + " cores");
    }
    if (fallbacks.find("MPI_COMM_TYPE_SHARED: " + std::to_string(g_size)) == std::string::npos) {
      fail("rank context", "no node-share reason in: " + fallbacks);
    }
  }
  if (mine > cores) {
    fail("rank context", "effective threads " + std::to_string(mine) + " above the " +
                             std::to_string(cores) + " visible physical cores");
  }
  std::printf("rank %d: %d participant%s on CPUs {%s} (%s)%s%s\n", g_rank, mine,
              mine == 1 ? "" : "s", tessera::platform::format_cpu_list(whole.cpu_ids()).c_str(),
              r.threads_reason.c_str(), fallbacks.empty() ? "" : "; ", fallbacks.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);

  rank_context();
  tessera::Context context;
  const tessera::Status made = tessera::mpi::make_rank_context(MPI_COMM_WORLD, {}, &context);
  if (!made.ok()) fail("make_rank_context", made.to_string());
  for (int P = 1; P <= g_size && made.ok(); ++P) {
    if (g_size % P != 0) continue;
    const int Q = g_size / P;
    correctness<float>(context, P, Q);
    correctness<double>(context, P, Q);
    naive_family<float>(P, Q);
    bad_input(context, P, Q);
  }

  int failures = 0;
  MPI_Allreduce(&g_failures, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) {
    std::printf("mpi tests: %d cases on %d rank%s, %d failure%s\n", g_cases, g_size,
                g_size == 1 ? "" : "s", failures, failures == 1 ? "" : "s");
  }
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
