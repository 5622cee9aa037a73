// tessera::mpi::gemm: validation on every rank, collective agreement, then
// the transposes (when asked) and SUMMA (tessera/mpi.hpp).
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mpi/src/agreement.hpp"
#include "mpi/src/summa.hpp"
#include "mpi/src/transpose.hpp"
#include "tessera/mpi.hpp"

namespace tessera::mpi {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

// One distributed operand as stored, named as in messages.
struct Operand {
  const char* name;       // "desc_a"
  const char* data_name;  // "a"
  const void* data;
  const BlockDescriptor* desc;
  std::int64_t local_rows = 0, local_cols = 0;
};

Status check_descriptor(Operand* o, int row, int col) {
  const BlockDescriptor& d = *o->desc;
  const std::string n = o->name;
  if (d.rows < 0 || d.cols < 0) {
    return Status::invalid_argument(n + ".rows and .cols must be >= 0 (got " + str(d.rows) + " x " +
                                    str(d.cols) + ")");
  }
  if (d.row_block < 1 || d.col_block < 1) {
    return Status::invalid_argument(n + ".row_block and .col_block must be >= 1 (got " +
                                    str(d.row_block) + " x " + str(d.col_block) + ")");
  }
  o->local_rows = local_extent(d.rows, d.row_block, row, d.grid_rows);
  o->local_cols = local_extent(d.cols, d.col_block, col, d.grid_cols);
  if (d.lld < std::max<std::int64_t>(1, o->local_cols)) {
    return Status::invalid_argument(
        n + ".lld = " + str(d.lld) + " is smaller than this rank's local columns " +
        str(std::max<std::int64_t>(1, o->local_cols)) + " (row-major local storage)");
  }
  if (o->local_rows > 0 && o->local_cols > 0 && o->data == nullptr) {
    return Status::invalid_argument(std::string(o->data_name) + " is null but this rank holds " +
                                    str(o->local_rows) + " x " + str(o->local_cols) + " of it");
  }
  if (d.lld > INT_MAX) {
    return Status::unsupported(n + ".lld = " + str(d.lld) +
                               " is above 2^31 - 1 (MPI datatypes take int strides)");
  }
  if (o->local_rows > 0 && d.lld > INT64_MAX / o->local_rows) {
    return Status::invalid_argument(n + ": local rows x lld overflows 64 bits");
  }
  return {};
}

// Byte range [first, last) of an operand's local part, empty when it holds
// nothing.
std::pair<std::uintptr_t, std::uintptr_t> byte_range(const Operand& o, std::size_t element) {
  if (o.local_rows == 0 || o.local_cols == 0) return {0, 0};
  const auto first = reinterpret_cast<std::uintptr_t>(o.data);
  const std::int64_t span = (o.local_rows - 1) * o.desc->lld + o.local_cols;
  return {first, first + static_cast<std::uintptr_t>(span) * element};
}

template <class T>
Status check_local(const Context& context, Transpose ta, Transpose tb, Operand* a, Operand* b,
                   Operand* c, int rank, int size, int* row, int* col, std::int64_t* kc,
                   std::int64_t* kernels) {
  TESSERA_RETURN_IF_ERROR(context.status());
  if (ta != Transpose::kNo && ta != Transpose::kYes) {
    return Status::invalid_argument("trans_a is not a Transpose value (got " +
                                    str(static_cast<int>(ta)) + ")");
  }
  if (tb != Transpose::kNo && tb != Transpose::kYes) {
    return Status::invalid_argument("trans_b is not a Transpose value (got " +
                                    str(static_cast<int>(tb)) + ")");
  }
  const BlockDescriptor& dc = *c->desc;
  for (const Operand* o : {a, b, c}) {
    const BlockDescriptor& d = *o->desc;
    if (d.grid_rows < 1 || d.grid_cols < 1) {
      return Status::invalid_argument(std::string(o->name) +
                                      ".grid_rows and .grid_cols must be >= 1 (got " +
                                      str(d.grid_rows) + " x " + str(d.grid_cols) + ")");
    }
    if (d.grid_rows != dc.grid_rows || d.grid_cols != dc.grid_cols) {
      return Status::invalid_argument(std::string(o->name) + "'s grid " + str(d.grid_rows) + "x" +
                                      str(d.grid_cols) + " differs from desc_c's " +
                                      str(dc.grid_rows) + "x" + str(dc.grid_cols));
    }
  }
  if (static_cast<std::int64_t>(dc.grid_rows) * dc.grid_cols != size) {
    return Status::invalid_argument("the grid " + str(dc.grid_rows) + "x" + str(dc.grid_cols) +
                                    " does not match the communicator's " + str(size) +
                                    (size == 1 ? " rank" : " ranks"));
  }
  *row = rank / dc.grid_cols;
  *col = rank % dc.grid_cols;
  for (Operand* o : {a, b, c}) TESSERA_RETURN_IF_ERROR(check_descriptor(o, *row, *col));

  // op(A) is m x k, op(B) k x n, C m x n.
  const BlockDescriptor& da = *a->desc;
  const BlockDescriptor& db = *b->desc;
  const bool at = ta == Transpose::kYes, bt = tb == Transpose::kYes;
  const std::int64_t m = dc.rows, n = dc.cols;
  const std::int64_t a_rows = at ? da.cols : da.rows, k = at ? da.rows : da.cols;
  const std::int64_t b_rows = bt ? db.cols : db.rows, b_cols = bt ? db.rows : db.cols;
  if (a_rows != m) {
    return Status::invalid_argument("op(A) has " + str(a_rows) + " rows but C has " + str(m) +
                                    " (desc_a, desc_c)");
  }
  if (b_cols != n) {
    return Status::invalid_argument("op(B) has " + str(b_cols) + " columns but C has " + str(n) +
                                    " (desc_b, desc_c)");
  }
  if (b_rows != k) {
    return Status::invalid_argument("op(B) has " + str(b_rows) + " rows but op(A) has " + str(k) +
                                    " columns (desc_a, desc_b)");
  }
  // C's rows are distributed as op(A)'s, its columns as op(B)'s.
  const std::int64_t a_row_block = at ? da.col_block : da.row_block;
  const std::int64_t b_col_block = bt ? db.row_block : db.col_block;
  if (a_row_block != dc.row_block) {
    return Status::invalid_argument("op(A)'s row block " + str(a_row_block) + " (desc_a." +
                                    (at ? "col_block" : "row_block") +
                                    ") must equal desc_c.row_block = " + str(dc.row_block));
  }
  if (b_col_block != dc.col_block) {
    return Status::invalid_argument("op(B)'s column block " + str(b_col_block) + " (desc_b." +
                                    (bt ? "row_block" : "col_block") +
                                    ") must equal desc_c.col_block = " + str(dc.col_block));
  }
  // C is written while A and B are read (and broadcast).
  const auto rc = byte_range(*c, sizeof(T));
  for (const Operand* o : {a, b}) {
    const auto r = byte_range(*o, sizeof(T));
    if (rc.first < rc.second && r.first < r.second && rc.first < r.second && r.first < rc.second) {
      return Status::invalid_argument(std::string("c overlaps ") + o->data_name +
                                      " in this rank's memory");
    }
  }

  // The depth slice of the one-process product, and the kernels that give
  // the bits (ISA level and family; agreed across ranks by the caller). The
  // naive family has no slices (plan.kc 0): it sums the whole depth in
  // double and rounds once, so it gets one slice, the whole depth.
  GemmPlan plan;
  TESSERA_RETURN_IF_ERROR(try_plan_gemm(context, sizeof(T) == 4 ? Dtype::kF32 : Dtype::kF64,
                                        Layout::kRowMajor, m, n, k, {}, &plan));
  *kc = plan.kc > 0 ? plan.kc : std::max<std::int64_t>(1, k);
  *kernels = static_cast<std::int64_t>(plan.isa) * 16 + static_cast<std::int64_t>(plan.family);
  // One broadcast carries a local part of one slice.
  const std::int64_t m_loc = c->local_rows, n_loc = c->local_cols;
  if (m_loc * *kc > INT_MAX || *kc * n_loc > INT_MAX) {
    return Status::unsupported("a local panel above 2^31 elements (local " + str(m_loc) + " x " +
                               str(n_loc) + ", kc " + str(*kc) + "): use a larger grid");
  }
  // A transposed operand moves in one MPI_Alltoallv, whose counts are int.
  for (const auto& [o, transposed] : {std::pair{a, at}, std::pair{b, bt}}) {
    if (!transposed) continue;
    const BlockDescriptor& d = *o->desc;
    const std::int64_t t_rows = local_extent(d.cols, d.col_block, *row, d.grid_rows);
    const std::int64_t t_cols = local_extent(d.rows, d.row_block, *col, d.grid_cols);
    if (o->local_rows * o->local_cols > INT_MAX || t_rows * t_cols > INT_MAX) {
      return Status::unsupported(std::string("transposing ") + o->data_name +
                                 " with a local part above 2^31 elements: use a larger grid");
    }
  }
  return {};
}

template <class T>
Status distributed_gemm(const Context& context, MPI_Comm comm, Transpose ta, Transpose tb, T alpha,
                        const T* a, const BlockDescriptor& desc_a, const T* b,
                        const BlockDescriptor& desc_b, T beta, T* c, const BlockDescriptor& desc_c,
                        GemmStats* stats) {
  if (comm == MPI_COMM_NULL) return Status::invalid_argument("comm is MPI_COMM_NULL");
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (stats != nullptr) *stats = {};

  Operand oa{"desc_a", "a", a, &desc_a}, ob{"desc_b", "b", b, &desc_b},
      oc{"desc_c", "c", c, &desc_c};
  int row = 0, col = 0;
  std::int64_t kc = 0, kernels = 0;
  const Status local =
      check_local<T>(context, ta, tb, &oa, &ob, &oc, rank, size, &row, &col, &kc, &kernels);
  // Bits of alpha and beta, so that every rank computes the same product.
  const double alpha_d = static_cast<double>(alpha), beta_d = static_cast<double>(beta);
  std::int64_t alpha_bits = 0, beta_bits = 0;
  std::memcpy(&alpha_bits, &alpha_d, sizeof alpha_bits);
  std::memcpy(&beta_bits, &beta_d, sizeof beta_bits);
  std::vector<detail::SharedField> shared;
  for (const Operand* o : {&oa, &ob, &oc}) {
    const std::string n = o->name;
    const BlockDescriptor& d = *o->desc;
    shared.push_back({n + ".rows", d.rows});
    shared.push_back({n + ".cols", d.cols});
    shared.push_back({n + ".row_block", d.row_block});
    shared.push_back({n + ".col_block", d.col_block});
    shared.push_back({n + ".grid_rows", d.grid_rows});
    shared.push_back({n + ".grid_cols", d.grid_cols});
  }
  shared.push_back({"trans_a", static_cast<int>(ta)});
  shared.push_back({"trans_b", static_cast<int>(tb)});
  shared.push_back({"alpha (its bits)", alpha_bits});
  shared.push_back({"beta (its bits)", beta_bits});
  // Ranks whose contexts run different ISA levels cut the depth differently
  // and would broadcast mismatched panels; kc is compared among the ranks
  // whose own checks passed (the others report their error).
  shared.push_back(
      {"the GEMM kernels (ISA level or kernel family; give every rank the same "
       "TESSERA_ISA and family)",
       kernels, local.ok()});
  shared.push_back(
      {"the depth slice kc (the ranks' cache models differ: give every rank the same TESSERA_ISA "
       "on identical CPUs)",
       kc, local.ok()});
  const Status agreed = detail::agree(comm, local, shared);
  if (!agreed.ok()) return agreed;

  detail::Grid grid;
  grid.world = comm;
  grid.row = row;
  grid.col = col;
  MPI_Comm_split(comm, row, col, &grid.row_comm);
  MPI_Comm_split(comm, col, row, &grid.col_comm);

  const auto t0 = std::chrono::steady_clock::now();
  // Blocks larger than their extent distribute exactly as one block of the
  // extent; clamped, no block arithmetic below can overflow.
  auto clamped = [](BlockDescriptor d) {
    d.row_block = std::min(d.row_block, std::max<std::int64_t>(1, d.rows));
    d.col_block = std::min(d.col_block, std::max<std::int64_t>(1, d.cols));
    return d;
  };
  std::vector<T> a_t, b_t;
  const T* a_op = a;
  const T* b_op = b;
  BlockDescriptor da = clamped(desc_a), db = clamped(desc_b);
  const BlockDescriptor dc = clamped(desc_c);
  Status status;
  if (ta == Transpose::kYes) {
    status = detail::transpose_distributed(comm, row, col, a, da, &a_t);
    da = detail::transposed_descriptor(da, col);
    a_op = a_t.data();
  }
  if (status.ok() && tb == Transpose::kYes) {
    status = detail::transpose_distributed(comm, row, col, b, db, &b_t);
    db = detail::transposed_descriptor(db, col);
    b_op = b_t.data();
  }
  if (stats != nullptr) {
    stats->comm_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (status.ok()) {
    detail::Summa<T> summa(context, grid, da.cols, kc, a_op, da, b_op, db, alpha, beta, c, dc);
    status = summa.run(stats);
  }
  MPI_Comm_free(&grid.row_comm);
  MPI_Comm_free(&grid.col_comm);
  // Every failure past the agreement above is already agreed (allocation)
  // or cannot happen (a local gemm after these checks); if a local gemm did
  // fail, its rank still took part in every broadcast, and now every rank
  // reports it.
  return detail::agree(comm, status, {});
}

}  // namespace

Status gemm(const Context& context, MPI_Comm comm, Transpose trans_a, Transpose trans_b,
            float alpha, const float* a, const BlockDescriptor& desc_a, const float* b,
            const BlockDescriptor& desc_b, float beta, float* c, const BlockDescriptor& desc_c,
            GemmStats* stats) {
  return distributed_gemm<float>(context, comm, trans_a, trans_b, alpha, a, desc_a, b, desc_b, beta,
                                 c, desc_c, stats);
}

Status gemm(const Context& context, MPI_Comm comm, Transpose trans_a, Transpose trans_b,
            double alpha, const double* a, const BlockDescriptor& desc_a, const double* b,
            const BlockDescriptor& desc_b, double beta, double* c, const BlockDescriptor& desc_c,
            GemmStats* stats) {
  return distributed_gemm<double>(context, comm, trans_a, trans_b, alpha, a, desc_a, b, desc_b,
                                  beta, c, desc_c, stats);
}

}  // namespace tessera::mpi
