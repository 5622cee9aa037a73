// tessera-cli mpi-gemm M N K --grid PxQ [--block B] [--dtype f32|f64]
//                     [--trans-a] [--trans-b] [--threads N] [--isa L]
//                     [--reps R] [--check] [--hash] [--seed S] [--policy]
//
// Run under mpirun with P*Q ranks: C = op(A) op(B) (alpha 1, beta 0) with
// tessera::mpi::gemm on the seeded operands of `tessera-cli gemm` (the same
// generator and streams, so --hash prints the same hash as `tessera-cli
// gemm M N K --hash` on the same ISA level), distributed block-cyclically
// with B x B blocks (default: one block per grid row and column, i.e. a
// plain 2D block distribution, the depth blocks rounded up to a multiple of
// the depth slice kc). Prints, on rank 0, the grid and the depth
// slice, the median over --reps of the slowest rank's time with GFLOP/s and
// its communication/compute split. --policy prints every rank's resolved
// execution policy (its share of the node); --check compares C with
// one-process tessera::gemm on rank 0, bit for bit; --hash gathers C and
// prints FNV-1a 64 of its bits. Built only with TESSERA_MPI.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "arg_parser.hpp"
#include "check_report.hpp"
#include "commands.hpp"
#include "run_options.hpp"
#include "seeded_inputs.hpp"
#include "tessera/mpi.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

struct Grid {
  int rows = 0, cols = 0;
};

// "PxQ", P and Q in [1, 65536].
bool parse_grid(std::string_view text, Grid* out) {
  const std::size_t by = text.find('x');
  if (by == std::string_view::npos) return false;
  std::int64_t p = 0, q = 0;
  const auto side = [](std::string_view digits, std::int64_t* value) {
    return judge_integer(digits, IntegerSyntax::kDigits, 1, 65536, false, value) ==
           Verdict::kAccepted;
  };
  if (!side(text.substr(0, by), &p) || !side(text.substr(by + 1), &q)) return false;
  *out = {static_cast<int>(p), static_cast<int>(q)};
  return true;
}

struct MpiGemmOptions : RunOptions {
  MpiGemmOptions() { reps = 3; }  // the other commands' default is 5
  std::int64_t m = 0, n = 0, k = 0;
  Grid grid;
  std::int64_t block = 0;  // 0: one block per grid row / column
  Transpose ta = Transpose::kNo, tb = Transpose::kNo;
  bool policy = false;
};

ArgTable mpi_gemm_table(MpiGemmOptions* o) {
  constexpr IntegerSyntax kDigits = IntegerSyntax::kDigits;
  auto dimension = [](const char* name, std::int64_t* out) {
    return positional(name, integer(kDigits, 0, std::int64_t{1} << 31, out),
                      {.bad = "M, N and K must be integers in [0, 2^31] (got '{}')"});
  };
  return {
      .command = "mpi-gemm",
      .unknown_options = UnknownOptions::kLeadingDash,
      .positional_check = PositionalCheck::kAfterCounting,
      .positionals = {dimension("M", &o->m), dimension("N", &o->n), dimension("K", &o->k)},
      .count_message = "needs M N K",
      .options = {
          required(option("--grid", text(&parse_grid, &o->grid),
                          {.bad = "must be PxQ with P, Q >= 1 (got '{}')"}),
                   "needs --grid PxQ"),
          option("--block", integer(kDigits, 1, std::int64_t{1} << 40, &o->block),
                 {.bad = "must be an integer >= 1 (got '{}')"}),
          option("--dtype", dtype(&o->dtype), {.bad = "must be f32 or f64 (got '{}')"}),
          flag("--trans-a", &o->ta, Transpose::kYes),
          flag("--trans-b", &o->tb, Transpose::kYes),
          option("--threads", integer(kDigits, 0, 4096, &o->threads),
                 {.bad = "must be an integer in [0, 4096] (got '{}')"}),
          option("--isa", isa_level(&o->isa), {.bad = "'{}' is not a level name"}),
          option("--reps", integer(kDigits, 1, 100000, &o->reps),
                 {.bad = "must be an integer in [1, 100000] (got '{}')"}),
          option("--seed", integer(kDigits, 0, std::int64_t{1} << 40, &o->seed),
                 {.bad = "must be a non-negative integer (got '{}')"}),
          flag("--check", &o->check),
          flag("--hash", &o->hash),
          flag("--policy", &o->policy),
      }};
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a <= 0 ? 1 : (a + b - 1) / b; }

// The local part of a seeded stored matrix (rows x cols, element (r, c) =
// seeded_value(seed, stream, r * cols + c), as `tessera-cli gemm` fills it).
template <class T>
std::vector<T> seeded_local(const mpi::BlockDescriptor& d, int row, int col, std::uint64_t seed,
                            std::uint64_t stream) {
  const std::int64_t lr = mpi::local_extent(d.rows, d.row_block, row, d.grid_rows);
  std::vector<T> part(static_cast<std::size_t>(std::max<std::int64_t>(1, lr * d.lld)), T(0));
  for (std::int64_t i = 0; i < d.rows; ++i) {
    if (mpi::owner_of(i, d.row_block, d.grid_rows) != row) continue;
    const std::int64_t li = mpi::local_index(i, d.row_block, d.grid_rows);
    for (std::int64_t j = 0; j < d.cols; ++j) {
      if (mpi::owner_of(j, d.col_block, d.grid_cols) != col) continue;
      part[li * d.lld + mpi::local_index(j, d.col_block, d.grid_cols)] =
          static_cast<T>(seeded_value(seed, stream, static_cast<std::uint64_t>(i * d.cols + j)));
    }
  }
  return part;
}

// C gathered on rank 0 (row-major m x n); empty elsewhere.
template <class T>
std::vector<T> gather(const std::vector<T>& local, const mpi::BlockDescriptor& d, int rank,
                      int size) {
  const int row = rank / d.grid_cols, col = rank % d.grid_cols;
  const std::int64_t lr = mpi::local_extent(d.rows, d.row_block, row, d.grid_rows);
  const std::int64_t lc = mpi::local_extent(d.cols, d.col_block, col, d.grid_cols);
  std::vector<T> packed(static_cast<std::size_t>(std::max<std::int64_t>(1, lr * lc)));
  for (std::int64_t r = 0; r < lr; ++r) {
    std::memcpy(packed.data() + r * lc, local.data() + r * d.lld, sizeof(T) * lc);
  }
  std::vector<int> counts(size), offsets(size);
  std::int64_t total = 0;
  for (int p = 0; p < size; ++p) {
    const std::int64_t c = mpi::local_extent(d.rows, d.row_block, p / d.grid_cols, d.grid_rows) *
                           mpi::local_extent(d.cols, d.col_block, p % d.grid_cols, d.grid_cols);
    counts[p] = static_cast<int>(c);
    offsets[p] = static_cast<int>(total);
    total += c;
  }
  std::vector<T> all(rank == 0 ? static_cast<std::size_t>(std::max<std::int64_t>(1, total)) : 1);
  const MPI_Datatype type = sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
  MPI_Gatherv(packed.data(), static_cast<int>(lr * lc), type, all.data(), counts.data(),
              offsets.data(), type, 0, MPI_COMM_WORLD);
  if (rank != 0) return {};
  std::vector<T> c(static_cast<std::size_t>(d.rows * d.cols));
  for (int p = 0; p < size; ++p) {
    const int pr = p / d.grid_cols, pc = p % d.grid_cols;
    const std::int64_t plc = mpi::local_extent(d.cols, d.col_block, pc, d.grid_cols);
    for (std::int64_t i = 0; i < d.rows; ++i) {
      if (mpi::owner_of(i, d.row_block, d.grid_rows) != pr) continue;
      const std::int64_t li = mpi::local_index(i, d.row_block, d.grid_rows);
      for (std::int64_t j = 0; j < d.cols; ++j) {
        if (mpi::owner_of(j, d.col_block, d.grid_cols) != pc) continue;
        c[i * d.cols + j] =
            all[offsets[p] + li * plc + mpi::local_index(j, d.col_block, d.grid_cols)];
      }
    }
  }
  return c;
}

template <class T>
int run_typed(const MpiGemmOptions& o, const Context& context, int rank, int size) {
  const int P = o.grid.rows, Q = o.grid.cols;
  const int row = rank / Q, col = rank % Q;
  const bool at = o.ta == Transpose::kYes, bt = o.tb == Transpose::kYes;
  const std::int64_t mb = o.block ? o.block : ceil_div(o.m, P);
  const std::int64_t nb = o.block ? o.block : ceil_div(o.n, Q);
  // The depth blocks: a multiple of the depth slice kc, so that each slice
  // has one owner and is broadcast from its storage without a copy.
  GemmPlan plan;
  const Status planned =
      try_plan_gemm(context, o.dtype, Layout::kRowMajor, o.m, o.n, o.k, {}, &plan);
  const std::int64_t kc = planned.ok() ? std::max<std::int64_t>(1, plan.kc) : 1;
  const std::int64_t kb = o.block ? o.block : ceil_div(ceil_div(o.k, std::max(P, Q)), kc) * kc;
  // op(A) m x k with blocks mb x kb, op(B) k x n with kb x nb, as stored.
  const auto da =
      mpi::make_descriptor(at ? o.k : o.m, at ? o.m : o.k, at ? kb : mb, at ? mb : kb, P, Q, col);
  const auto db =
      mpi::make_descriptor(bt ? o.n : o.k, bt ? o.k : o.n, bt ? nb : kb, bt ? kb : nb, P, Q, col);
  const auto dc = mpi::make_descriptor(o.m, o.n, mb, nb, P, Q, col);
  const std::vector<T> a = seeded_local<T>(da, row, col, o.seed, 1);
  const std::vector<T> b = seeded_local<T>(db, row, col, o.seed, 2);
  std::vector<T> c(static_cast<std::size_t>(
      std::max<std::int64_t>(1, mpi::local_extent(o.m, mb, row, P) * dc.lld)));

  std::vector<double> seconds, comm, compute, pack;
  mpi::GemmStats stats;
  for (int rep = 0; rep < o.reps; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = mpi::gemm(context, MPI_COMM_WORLD, o.ta, o.tb, T(1), a.data(), da, b.data(),
                               db, T(0), c.data(), dc, &stats);
    double mine[4] = {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                      stats.comm_seconds, stats.compute_seconds, stats.pack_seconds};
    if (!s.ok()) {
      if (rank == 0) std::fprintf(stderr, "tessera-cli: mpi-gemm: %s\n", s.to_string().c_str());
      return kExitFailure;  // every rank got the same status
    }
    double slowest[4];
    MPI_Allreduce(mine, slowest, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    seconds.push_back(slowest[0]);
    comm.push_back(slowest[1]);
    compute.push_back(slowest[2]);
    pack.push_back(slowest[3]);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  if (rank == 0) {
    const double t = median(seconds);
    const double flops = 2.0 * static_cast<double>(o.m) * o.n * o.k;
    std::printf("mpi-gemm: %" PRId64 "x%" PRId64 "x%" PRId64
                " %s %s%s on a %dx%d grid (%d rank%s), "
                "blocks %" PRId64 "x%" PRId64 " (depth %" PRId64 "), kc %" PRId64 " (%" PRId64
                " slices), %s\n",
                o.m, o.n, o.k, dtype_name(o.dtype), at ? "T" : "N", bt ? "T" : "N", P, Q, size,
                size == 1 ? "" : "s", mb, nb, kb, stats.kc, stats.slices, isa_name(context.isa()));
    std::printf(
        "time: median %.6f s of %d (min %.6f, max %.6f), %.2f GFLOP/s; slowest "
        "rank: "
        "waiting for panels %.6f s, packing %.6f s, local gemm %.6f s\n",
        t, o.reps, *std::min_element(seconds.begin(), seconds.end()),
        *std::max_element(seconds.begin(), seconds.end()), t > 0 ? flops / t * 1e-9 : 0.0,
        median(comm), median(pack), median(compute));
  }

  if (!o.check && !o.hash) return kExitOk;
  const std::vector<T> whole = gather(c, dc, rank, size);
  int exit_code = kExitOk;
  if (rank == 0) {
    if (o.check) {
      // One process, the same seeded operands, the same context.
      std::vector<T> fa(static_cast<std::size_t>(o.m * o.k)),
          fb(static_cast<std::size_t>(o.k * o.n)), fc(static_cast<std::size_t>(o.m * o.n));
      fill_seeded(fa.data(), fa.size(), o.seed, 1);
      fill_seeded(fb.data(), fb.size(), o.seed, 2);
      const Status s = try_gemm(context, Layout::kRowMajor, o.ta, o.tb, o.m, o.n, o.k, T(1),
                                fa.data(), std::max<std::int64_t>(1, at ? o.m : o.k), fb.data(),
                                std::max<std::int64_t>(1, bt ? o.k : o.n), T(0), fc.data(),
                                std::max<std::int64_t>(1, o.n));
      std::int64_t differ = 0;
      for (std::size_t i = 0; i < fc.size(); ++i) {
        differ += std::memcmp(&fc[i], &whole[i], sizeof(T)) != 0;
      }
      if (!s.ok()) {
        std::printf("check: one-process gemm failed: %s\n", s.to_string().c_str());
        exit_code = kExitFailure;
      } else if (differ != 0) {
        std::printf("check: MISMATCH: %" PRId64
                    " of %zu elements differ from one-process "
                    "tessera::gemm\n",
                    differ, fc.size());
        exit_code = kExitFailure;
      } else {
        std::printf(
            "check: ok, bit-identical to one-process tessera::gemm "
            "(%zu elements)\n",
            fc.size());
      }
    }
    if (o.hash) report_hash(whole.data(), whole.size() * sizeof(T), o.dtype, context.isa());
  }
  MPI_Bcast(&exit_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return exit_code;
}

// Every rank's resolved policy, printed by rank 0 in rank order.
void print_policies(const Context& context, int rank, int size) {
  const ResolvedExecutionPolicy r = context.resolved_policy();
  std::string line = "rank " + std::to_string(rank) + ": " + std::to_string(r.effective_threads) +
                     " thread" + (r.effective_threads == 1 ? "" : "s") + " on CPUs {" +
                     platform::format_cpu_list(platform::read_topology().cpu_ids()) + "} (" +
                     r.threads_reason + ")";
  for (const std::string& f : r.fallbacks) line += "\n  " + f;
  int length = static_cast<int>(line.size());
  std::vector<int> lengths(size), offsets(size);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int p = 0; p < size; ++p) {
    offsets[p] = total;
    total += lengths[p];
  }
  std::string all(static_cast<std::size_t>(rank == 0 ? std::max(total, 1) : 1), '\0');
  MPI_Gatherv(line.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  if (rank != 0) return;
  for (int p = 0; p < size; ++p) {
    std::printf("%s\n", all.substr(offsets[p], lengths[p]).c_str());
  }
}

}  // namespace

int run_mpi_gemm(const Args& args) {
  MpiGemmOptions o;
  if (const int code = parse_args(mpi_gemm_table(&o), args); code != kExitOk || parse_only()) {
    return code;
  }

  MPI_Init(nullptr, nullptr);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ContextOptions options;
  options.isa = o.isa;
  options.policy.num_threads = o.threads;
  Context context;
  const Status made = mpi::make_rank_context(MPI_COMM_WORLD, options, &context);
  int ok = made.ok() ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  int exit_code = kExitFailure;
  if (!made.ok()) {
    std::fprintf(stderr, "tessera-cli: mpi-gemm: rank %d: %s\n", rank, made.to_string().c_str());
  } else if (all_ok) {
    if (o.policy) print_policies(context, rank, size);
    exit_code = o.dtype == Dtype::kF32 ? run_typed<float>(o, context, rank, size)
                                       : run_typed<double>(o, context, rank, size);
  }
  MPI_Finalize();
  return exit_code;
}

}  // namespace tessera::cli
