// SUMMA on a P x Q grid (tessera/mpi.hpp), with the next depth slice's
// panels in flight (non-blocking broadcasts) while this slice's local gemm
// runs. Inputs are already in op() form: A is m x k, B is k x n, both
// block-cyclic with A's row blocks equal to C's and B's column blocks equal
// to C's; their depth blocks are free (a slice may take pieces from several
// owners: each piece is broadcast by its owner and placed in the panel).
//
// The lookahead overlaps only where the MPI library moves data while the
// rank computes (RDMA networks, an asynchronous progress thread). Open MPI
// over shared memory progresses a broadcast only inside MPI calls, and there
// the lookahead measured the same as none (4096^3 f32, 2 ranks, 2x1 and 1x2).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "mpi/src/agreement.hpp"
#include "mpi/src/mpi_types.hpp"
#include "tessera/gemm.hpp"
#include "tessera/mpi.hpp"

namespace tessera::mpi::detail {

struct Grid {
  MPI_Comm world = MPI_COMM_NULL;     // the whole grid
  MPI_Comm row_comm = MPI_COMM_NULL;  // my grid row; rank there = grid column
  MPI_Comm col_comm = MPI_COMM_NULL;  // my grid column; rank there = grid row
  int row = 0, col = 0;
};

// A piece of depth [begin, end) held by one grid column (A) or row (B).
struct Piece {
  std::int64_t begin = 0, end = 0;
  int owner = 0;
};

// The depth slice [s0, s0 + w) cut where the distribution's depth blocks
// change owner. Neighbouring blocks share an owner only on a grid of one
// row (column), where they are also neighbours in local storage, so a piece
// is always contiguous in its owner's local part. (block <= the extent: the
// caller clamps it, so p - p % block + block does not overflow.)
inline std::vector<Piece> pieces_of(std::int64_t s0, std::int64_t w, std::int64_t block,
                                    int count) {
  std::vector<Piece> pieces;
  for (std::int64_t p = s0; p < s0 + w;) {
    const std::int64_t end = std::min(s0 + w, p - p % block + block);
    const int owner = owner_of(p, block, count);
    if (!pieces.empty() && pieces.back().owner == owner) {
      pieces.back().end = end;
    } else {
      pieces.push_back({p, end, owner});
    }
    p = end;
  }
  return pieces;
}

template <class T>
class Summa {
 public:
  Summa(const Context& context, const Grid& grid, std::int64_t k, std::int64_t kc, const T* a,
        const BlockDescriptor& da, const T* b, const BlockDescriptor& db, T alpha, T beta, T* c,
        const BlockDescriptor& dc)
      : context_(context),
        grid_(grid),
        k_(k),
        kc_(kc),
        a_(a),
        da_(da),
        b_(b),
        db_(db),
        alpha_(alpha),
        beta_(beta),
        c_(c),
        dc_(dc) {
    m_loc_ = local_extent(dc.rows, dc.row_block, grid.row, dc.grid_rows);
    n_loc_ = local_extent(dc.cols, dc.col_block, grid.col, dc.grid_cols);
  }

  Status run(GemmStats* stats) {
    using Clock = std::chrono::steady_clock;
    const std::int64_t slices = (k_ + kc_ - 1) / kc_;
    if (stats != nullptr) {
      stats->kc = kc_;
      stats->slices = slices;
    }
    if (slices == 0) {
      return scale_c();
    }
    // The two slices' panels stay with the calling thread between calls, as
    // the GEMM's workspace does: receiving into fresh pages every call cost
    // more than the broadcasts themselves (4096^3 f32 on a 2x1 grid of this
    // 2-vCPU VM: 0.24 s of page faults in a 0.71 s call, 0.03 s when kept).
    static thread_local Slice buffers[2];
    // Allocated here, agreed, before the first broadcast: a rank that cannot
    // allocate must not leave the others waiting for it.
    Status allocated;
    for (Slice& slice : buffers) {
      if (panel(&slice.a_panel, &slice.a_capacity, m_loc_ * std::min(kc_, k_)) == nullptr ||
          panel(&slice.b_panel, &slice.b_capacity, std::min(kc_, k_) * n_loc_) == nullptr) {
        allocated = Status(StatusCode::kOutOfMemory, "allocating the SUMMA panels");
      }
    }
    TESSERA_RETURN_IF_ERROR(agree(grid_.world, allocated, {}));
    Status first_error;
    auto timed_start = [&](std::int64_t s) {
      const auto t = Clock::now();
      start(s, &buffers[s % 2]);
      if (stats != nullptr) {
        stats->pack_seconds += std::chrono::duration<double>(Clock::now() - t).count();
      }
    };
    timed_start(0);
    for (std::int64_t s = 0; s < slices; ++s) {
      Slice& now = buffers[s % 2];
      if (s + 1 < slices) timed_start(s + 1);
      const auto t0 = Clock::now();
      finish(&now);
      const auto t1 = Clock::now();
      // After a failure the rank keeps taking part in the broadcasts (the
      // other ranks wait for them) but computes nothing more.
      if (first_error.ok()) {
        first_error = local_gemm(now, s == 0 ? beta_ : T(1));
      }
      const auto t2 = Clock::now();
      if (stats != nullptr) {
        stats->comm_seconds += std::chrono::duration<double>(t1 - t0).count();
        stats->compute_seconds += std::chrono::duration<double>(t2 - t1).count();
      }
    }
    return first_error;
  }

 private:
  // A depth slice's operands for the local gemm: op(A) columns and op(B)
  // rows [begin, begin + width). A rank that owns a whole slice of an
  // operand multiplies its own storage in place and broadcasts from it (a
  // strided datatype, no copy); otherwise the slice is assembled in a panel
  // that the broadcasts fill directly, the owner of each piece copying its
  // own piece in first.
  struct Slice {
    std::int64_t begin = 0, width = 0;
    const T* a = nullptr;  // m_loc x width, leading dimension lda
    std::int64_t lda = 1;
    const T* b = nullptr;  // width x n_loc, leading dimension ldb
    std::int64_t ldb = 1;
    std::unique_ptr<T[]> a_panel,
        b_panel;  // uninitialised: every element is received or copied
    std::size_t a_capacity = 0, b_capacity = 0;
    std::vector<MPI_Request> requests;
  };

  // At least `elements` (>= 1) of storage, kept between calls; null when
  // it cannot be allocated.
  static T* panel(std::unique_ptr<T[]>* buffer, std::size_t* capacity, std::int64_t elements) {
    const auto need = static_cast<std::size_t>(std::max<std::int64_t>(1, elements));
    if (*capacity < need) {
      buffer->reset(new (std::nothrow) T[need]);
      *capacity = *buffer ? need : 0;
    }
    return buffer->get();
  }

  // Posts one broadcast of `rows` x `cols` elements at `data` with leading
  // dimension `ld` (a vector datatype: every rank's layout may differ, the
  // type signature is the same rows * cols elements).
  void broadcast(T* data, std::int64_t rows, std::int64_t cols, std::int64_t ld, int root,
                 MPI_Comm comm, Slice* slice) {
    MPI_Datatype block;
    MPI_Type_vector(static_cast<int>(rows), static_cast<int>(cols), static_cast<int>(ld),
                    mpi_type<T>(), &block);
    MPI_Type_commit(&block);
    slice->requests.emplace_back();
    MPI_Ibcast(data, rows * cols > 0 ? 1 : 0, block, root, comm, &slice->requests.back());
    MPI_Type_free(&block);  // freed once the broadcast completes
  }

  // Places this rank's pieces and posts every broadcast of slice s.
  void start(std::int64_t s, Slice* slice) {
    slice->begin = s * kc_;
    slice->width = std::min(kc_, k_ - slice->begin);
    const std::int64_t w = slice->width;
    slice->requests.clear();

    // A: columns [begin, end) of op(A), owned by grid column `owner`,
    // broadcast along the grid row.
    const std::vector<Piece> a_pieces = pieces_of(slice->begin, w, da_.col_block, da_.grid_cols);
    // (A rank holding no rows may pass a null a_: it takes the panel path,
    // which copies nothing, and no pointer is formed from a_.)
    if (a_pieces.size() == 1 && grid_.col == a_pieces[0].owner && m_loc_ > 0) {
      T* own = const_cast<T*>(a_) + local_index(slice->begin, da_.col_block, da_.grid_cols);
      slice->a = own;
      slice->lda = da_.lld;
      broadcast(own, m_loc_, w, da_.lld, grid_.col, grid_.row_comm, slice);
    } else {
      T* p = panel(&slice->a_panel, &slice->a_capacity, m_loc_ * w);
      slice->a = p;
      slice->lda = w;
      for (const Piece& piece : a_pieces) {
        const std::int64_t pw = piece.end - piece.begin;
        T* at = p + (piece.begin - slice->begin);
        if (grid_.col == piece.owner && m_loc_ > 0) {
          const T* from = a_ + local_index(piece.begin, da_.col_block, da_.grid_cols);
          for (std::int64_t r = 0; r < m_loc_; ++r) {
            std::memcpy(at + r * w, from + r * da_.lld, sizeof(T) * pw);
          }
        }
        broadcast(at, m_loc_, pw, w, piece.owner, grid_.row_comm, slice);
      }
    }
    // B: rows [begin, end) of op(B), owned by grid row `owner`, broadcast
    // along the grid column.
    const std::vector<Piece> b_pieces = pieces_of(slice->begin, w, db_.row_block, db_.grid_rows);
    if (b_pieces.size() == 1 && grid_.row == b_pieces[0].owner && n_loc_ > 0) {
      T* own =
          const_cast<T*>(b_) + local_index(slice->begin, db_.row_block, db_.grid_rows) * db_.lld;
      slice->b = own;
      slice->ldb = db_.lld;
      broadcast(own, w, n_loc_, db_.lld, grid_.row, grid_.col_comm, slice);
    } else {
      T* p = panel(&slice->b_panel, &slice->b_capacity, w * n_loc_);
      const std::int64_t ld = std::max<std::int64_t>(1, n_loc_);
      slice->b = p;
      slice->ldb = ld;
      for (const Piece& piece : b_pieces) {
        const std::int64_t pw = piece.end - piece.begin;
        T* rows = p + (piece.begin - slice->begin) * ld;
        if (grid_.row == piece.owner && n_loc_ > 0) {
          const T* from = b_ + local_index(piece.begin, db_.row_block, db_.grid_rows) * db_.lld;
          for (std::int64_t r = 0; r < pw; ++r) {
            std::memcpy(rows + r * ld, from + r * db_.lld, sizeof(T) * n_loc_);
          }
        }
        broadcast(rows, pw, n_loc_, ld, piece.owner, grid_.col_comm, slice);
      }
    }
  }

  // Waits for slice's broadcasts.
  void finish(Slice* slice) {
    MPI_Waitall(static_cast<int>(slice->requests.size()), slice->requests.data(),
                MPI_STATUSES_IGNORE);
    slice->requests.clear();
  }

  Status local_gemm(const Slice& slice, T beta) {
    if (m_loc_ == 0 || n_loc_ == 0) return {};
    return try_gemm(context_, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, m_loc_, n_loc_,
                    slice.width, alpha_, slice.a, std::max<std::int64_t>(1, slice.lda), slice.b,
                    std::max<std::int64_t>(1, slice.ldb), beta, c_, dc_.lld);
  }

  // k == 0: C = beta * C, as the one-process call does.
  Status scale_c() {
    if (m_loc_ == 0 || n_loc_ == 0) return {};
    return try_gemm(context_, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, m_loc_, n_loc_, 0,
                    alpha_, static_cast<const T*>(nullptr), 1, static_cast<const T*>(nullptr),
                    std::max<std::int64_t>(1, n_loc_), beta_, c_, dc_.lld);
  }

  const Context& context_;
  const Grid& grid_;
  std::int64_t k_, kc_;
  const T* a_;
  const BlockDescriptor& da_;
  const T* b_;
  const BlockDescriptor& db_;
  T alpha_, beta_;
  T* c_;
  const BlockDescriptor& dc_;
  std::int64_t m_loc_ = 0, n_loc_ = 0;
};

}  // namespace tessera::mpi::detail
