#include "core/src/qgemm/qgemm_driver.hpp"

#include <algorithm>
#include <string>

#include "core/src/base/workspace.hpp"
#include "core/src/parallel/home_range_cursor.hpp"
#include "core/src/parallel/job_cursor.hpp"
#include "tessera/platform/executor.hpp"

namespace tessera::core {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t round_up(std::int64_t a, std::int64_t b) { return ceil_div(a, b) * b; }

std::int64_t groups_of(const QGemmKernelSet& ks, std::int64_t k) {
  return ceil_div(k, qgemm_k_group(ks.packing));
}

// `budget` bytes of panels `bytes` each, whole tiles of `tile`, at least
// one tile and at most what `extent` needs.
std::int64_t fit(std::uint64_t budget, std::int64_t bytes_per_line, int tile,
                 std::int64_t extent) {
  const std::int64_t lines = bytes_per_line > 0 ? static_cast<std::int64_t>(budget) / bytes_per_line : tile;
  const std::int64_t most = round_up(std::max<std::int64_t>(extent, 1), tile);
  return std::clamp(lines / tile * tile, static_cast<std::int64_t>(tile), most);
}

}  // namespace

QGemmBlocking qgemm_blocking(const QGemmKernelSet& ks, std::int64_t m, std::int64_t n,
                             std::int64_t k, const CacheFacts& caches) {
  constexpr std::uint64_t kDefaultL2 = 512 * 1024;
  const std::uint64_t l2 = caches.l2 != 0 ? caches.l2 : kDefaultL2;
  const std::uint64_t b_budget =
      caches.l3 != 0 ? std::min(caches.l3 / 4, 4 * l2) : l2 / 2;
  const std::int64_t groups = groups_of(ks, k);
  QGemmBlocking b;
  // Bytes per row of A and per column of B, whole depth.
  b.mc = fit(l2 / 2, qgemm_a_panel_bytes(ks.packing, 1, groups), ks.mr, m);
  b.nc = fit(b_budget, qgemm_b_panel_bytes(1, groups), ks.nr, n);
  return b;
}

QGemmDecision decide_qgemm(const QGemmRequest& r) {
  QGemmDecision d;
  d.blocking = r.blocking;
  const std::int64_t n_nt = ceil_div(std::min(r.n, r.blocking.nc), r.nr);
  ComputeRequest request = r.site;
  request.mnk = static_cast<std::uint64_t>(r.m) * static_cast<std::uint64_t>(r.n) *
                static_cast<std::uint64_t>(r.k) / kQGemmWorkDivisor;
  request.jobs = ceil_div(r.m, r.mr) * n_nt;
  d.compute = resolve_compute(request, r.knobs);
  const int w = d.compute.workers;
  // Rows or columns among the workers, as the f32 driver decides
  // (compute_resolver.hpp). Integer GEMM, two workers, rows against
  // columns: 128 x 4096 x 4096 B prepacked 1049-1136 against 1319-1379 GOP/s
  // (avx512_vnni); 128 x 2048^2 1102-1173 against 1491-1545 (amx).
  d.blocking.mc = split_columns(r.m, r.n, n_nt, w)
                      ? r.blocking.mc
                      : row_block_for_workers(r.blocking.mc, r.m, r.mr, w);
  const std::int64_t n_mc = ceil_div(r.m, d.blocking.mc);
  d.grain = packed_lhs_grain(n_mc, n_nt, w, r.knobs.packed_oversample);
  auto block = [&](std::int64_t width) {
    QGemmColumnBlock b;
    const std::int64_t nt = ceil_div(width, r.nr);
    b.jobs = n_mc * nt;
    b.grain = packed_lhs_grain(n_mc, nt, w, r.knobs.packed_oversample).grain;
    b.pack_panels = r.b_prepacked ? 0 : nt;
    b.pack_grain = generic_grain(b.pack_panels, w, r.knobs.parallel_oversample).grain;
    return b;
  };
  const std::int64_t nc = r.blocking.nc;
  d.first_block = block(std::min(r.n, nc));
  d.last_block = r.n > nc ? block(r.n - (r.n - 1) / nc * nc) : d.first_block;
  return d;
}

Status run_qgemm(const QGemmKernelSet& ks, const QGemmProblem& pr, const QGemmDecision& d,
                 const QPackedB* packed_b, platform::Executor* executor) {
  const int mr = ks.mr, nr = ks.nr;
  const std::int64_t m = pr.m, n = pr.n, k = pr.k;
  const std::int64_t mc = d.blocking.mc, nc = d.blocking.nc;
  const int w = d.compute.workers;
  const std::int64_t groups = groups_of(ks, k);
  const std::int64_t a_panel = qgemm_a_panel_bytes(ks.packing, mr, groups);
  const std::int64_t b_panel = qgemm_b_panel_bytes(nr, groups);
  // A read as stored (qgemm_direct_a): only a depth that is not a whole
  // number of groups leaves a last group to pack (zero past k), one panel
  // of one group per mr rows.
  const bool direct_a = qgemm_direct_a(ks.packing, pr.a_type) && pr.cs_a == 1;
  const std::int64_t kg = qgemm_k_group(ks.packing);
  const std::int64_t full_groups = k / kg;
  const std::int64_t a_group = qgemm_a_panel_bytes(ks.packing, mr, 1);  // one group of a panel
  const bool has_tail = full_groups * kg != k;

  // B's zero points in the kernel's domain: one, or one per column.
  const std::int32_t b_shift = qgemm_b_shift(ks.packing, pr.b_type);
  const bool zb_per_column = pr.zb.step != 0;
  bool any_zb = false;
  for (std::int64_t j = 0; j < (zb_per_column ? n : 1); ++j) {
    if (pr.zb.at(j) + b_shift != 0) any_zb = true;
  }

  // One workspace, each part rounded to 64 bytes: the B block and its
  // column sums (unless B is prepacked), B's zero points (per column), and
  // per worker an A block with its row sums.
  auto line = [](std::int64_t bytes) { return round_up(std::max<std::int64_t>(bytes, 1), 64); };
  const std::int64_t b_bytes = packed_b != nullptr ? 0 : line(ceil_div(std::min(nc, n), nr) * b_panel);
  const std::int64_t sums_bytes = packed_b != nullptr ? 0 : line(round_up(std::min(nc, n), nr) * 4);
  const std::int64_t zb_bytes = line((zb_per_column ? n : 1) * 4);
  const std::int64_t own_a_bytes =
      line(ceil_div(std::min(mc, m), mr) * (direct_a ? (has_tail ? a_group : 0) : a_panel));
  const std::int64_t own_sums_bytes = line(round_up(std::min(mc, m), mr) * 4);
  const std::int64_t own_bytes = own_a_bytes + own_sums_bytes;
  const std::int64_t total = b_bytes + sums_bytes + zb_bytes + own_bytes * w;
  Workspace workspace(static_cast<std::size_t>(total));
  if (workspace.data() == nullptr) {
    return Status(StatusCode::kOutOfMemory, "integer gemm: cannot allocate " +
                                                std::to_string(total) + " bytes of pack buffers");
  }
  auto* const base = static_cast<std::uint8_t*>(workspace.data());
  std::uint8_t* const b_buf = base;
  auto* const col_sums_buf = reinterpret_cast<std::int32_t*>(base + b_bytes);
  auto* const zb_c = reinterpret_cast<std::int32_t*>(base + b_bytes + sums_bytes);
  std::uint8_t* const own_base = base + b_bytes + sums_bytes + zb_bytes;
  for (std::int64_t j = 0; j < (zb_per_column ? n : 1); ++j) zb_c[j] = pr.zb.at(j) + b_shift;

  QGemmCorrection correction;
  correction.za = pr.za + qgemm_a_shift(ks.packing, pr.a_type);
  correction.k = k;

  for (std::int64_t jc = 0; jc < n; jc += nc) {
    const std::int64_t nc_eff = std::min(nc, n - jc);
    const std::int64_t n_nt = ceil_div(nc_eff, nr);
    const std::uint8_t* const b_block =
        packed_b != nullptr ? packed_b->panels + (jc / nr) * b_panel : b_buf;
    const std::int32_t* const col_sums =
        packed_b != nullptr ? packed_b->col_sums + jc : col_sums_buf;

    // Phase 1: B panels [q0, q1) of this block, and their column sums.
    auto pack_range = [&](std::int64_t q0, std::int64_t q1) {
      const std::int64_t j0 = q0 * nr;
      const std::int64_t cols = std::min(q1 * nr, nc_eff) - j0;
      ks.pack_b(k, cols, pr.b + (jc + j0) * pr.cs_b, pr.rs_b, pr.cs_b, pr.b_type,
                b_buf + q0 * b_panel, col_sums_buf + j0);
    };

    // Phase 2: job q -> (row block q / n_nt, column tile q % n_nt).
    auto run_jobs = [&](std::uint8_t* own, std::int64_t q0, std::int64_t q1,
                        std::int64_t* packed_ic) {
      auto* const own_sums = reinterpret_cast<std::int32_t*>(own + own_a_bytes);
      for (std::int64_t q = q0; q < q1; ++q) {
        const std::int64_t ic_index = q / n_nt;
        const std::int64_t jt = q % n_nt;
        const std::int64_t ic = ic_index * mc;
        const std::int64_t rows = std::min(mc, m - ic);
        const std::uint8_t* a_block = pr.a + ic * pr.rs_a;
        if (*packed_ic != ic_index) {
          if (!direct_a) {
            ks.pack_a(rows, k, a_block, pr.rs_a, pr.cs_a, pr.a_type, own,
                      any_zb ? own_sums : nullptr);
          } else {
            if (any_zb) ks.sum_a_rows(rows, k, a_block, pr.rs_a, pr.a_type, own_sums);
            if (has_tail) {
              ks.pack_a(rows, k - full_groups * kg, a_block + full_groups * kg, pr.rs_a, 1,
                        pr.a_type, own, nullptr);
            }
          }
          *packed_ic = ic_index;
        }
        const std::int64_t j0 = jt * nr;
        const std::int64_t cols = std::min<std::int64_t>(nr, nc_eff - j0);
        QGemmCorrection c = correction;
        c.zb = {zb_c + (zb_per_column ? jc + j0 : 0), zb_per_column ? 1 : 0};
        c.col_sums = col_sums + j0;
        for (std::int64_t r0 = 0; r0 < rows; r0 += mr) {
          c.row_sums = any_zb ? own_sums + r0 : nullptr;
          QGemmLhs lhs;
          if (direct_a) {
            lhs = {a_block + r0 * pr.rs_a, pr.rs_a, kg, full_groups,
                   has_tail ? own + (r0 / mr) * a_group : nullptr};
          } else if (ks.a_layout == QPackedALayout::kRowMajor) {
            lhs = {own + (r0 / mr) * a_panel, groups * 4, 4, groups, nullptr};
          } else {
            lhs = {own + (r0 / mr) * a_panel, 4, a_group, groups, nullptr};
          }
          ks.tile(std::min<std::int64_t>(mr, rows - r0), cols, groups, lhs,
                  b_block + jt * b_panel, c, pr.output.at(ic + r0, jc + j0));
        }
      }
    };

    const QGemmColumnBlock& plan = jc + nc >= n ? d.last_block : d.first_block;
    const std::int64_t nb = packed_b != nullptr ? 0 : n_nt;
    if (w == 1) {
      if (nb > 0) pack_range(0, nb);
      std::int64_t packed_ic = -1;
      run_jobs(own_base, 0, plan.jobs, &packed_ic);
      continue;
    }
    if (nb > 0) {
      JobCursor cursor(plan.pack_panels, plan.pack_grain);
      executor->run(w, [&](int) {
        const platform::ParallelBodyScope region;
        std::int64_t b, e;
        while (cursor.next_chunk(&b, &e)) pack_range(b, e);
      });
    }
    // Home ranges: a participant computes the same tiles on every call of
    // the same product (home_range_cursor.hpp).
    HomeRangeCursor cursor(plan.jobs, plan.grain, w);
    executor->run(w, [&](int participant) {
      const platform::ParallelBodyScope region;
      std::uint8_t* own = own_base + own_bytes * participant;
      std::int64_t packed_ic = -1;
      std::int64_t b, e;
      while (cursor.next_chunk(participant, &b, &e)) run_jobs(own, b, e, &packed_ic);
    });
  }
  return {};
}

}  // namespace tessera::core
