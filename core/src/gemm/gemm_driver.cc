#include "core/src/gemm/gemm_driver.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/src/base/workspace.hpp"
#include "core/src/parallel/home_range_cursor.hpp"
#include "core/src/parallel/job_cursor.hpp"
#include "tessera/platform/executor.hpp"

namespace tessera::core {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t round_up(std::int64_t a, std::int64_t b) { return ceil_div(a, b) * b; }

}  // namespace

GemmDecision decide_gemm(const GemmRequest& r) {
  GemmDecision d;
  d.blocking = r.cache_blocking;
  const std::int64_t n_nt = ceil_div(std::min(r.n, r.cache_blocking.nc), r.nr);
  ComputeRequest request = r.site;
  request.mnk = static_cast<std::uint64_t>(r.m) * static_cast<std::uint64_t>(r.n) *
                static_cast<std::uint64_t>(r.k);
  // The finest job list the driver could build (row blocks of one tile).
  request.jobs = ceil_div(r.m, r.mr) * n_nt;
  d.compute = resolve_compute(request, r.knobs);
  const int w = d.compute.workers;
  const int oversample = r.knobs.parallel_oversample;
  const bool by_columns = split_columns(r.m, r.n, n_nt, w);
  d.blocking.mc =
      by_columns ? r.cache_blocking.mc : row_block_for_workers(r.cache_blocking.mc, r.m, r.mr, w);
  const std::int64_t n_mc = ceil_div(r.m, d.blocking.mc);
  d.direct = r.direct_ok && r.direct_fits;
  if (d.direct) {
    // The direct path's own job list: C tiles of direct_mr x direct_nr, nothing
    // packed (B, when it must be, is packed whole up front), so the
    // generic grain over the whole of C.
    d.first_block.jobs = ceil_div(r.m, r.direct_mr) * ceil_div(r.n, r.direct_nr);
    d.grain = generic_grain(d.first_block.jobs, w, oversample);
    d.first_block.grain = d.grain.grain;
    d.last_block = d.first_block;
    return d;
  }
  const GrainPlan packed = packed_lhs_grain(n_mc, n_nt, w, r.knobs.packed_oversample);
  // Split by columns, the workers share A's row blocks: packed once into
  // the shared slot, any run of column tiles is a chunk. Packed privately
  // the chunks were whole row blocks, halved only while the column tiles
  // divided evenly: a column-major dgemm 976 x 64 x 960 (LAPACK's dpotrf
  // update; canonically 64 rows, row blocks of 60 and 4, 31 column tiles)
  // went to two workers as two chunks, of 60 rows and of 4 (Zen 4, two
  // threads: 33 GFLOP/s against OpenBLAS's 84; benchmarks.md).
  d.shared_a = r.a_prepacked || by_columns || use_shared_a_prepack(w, packed);
  // One column block of `width` columns: its jobs, the grain that claims
  // them, and phase 1's panels (B unless prepacked; shared A unless
  // prepacked).
  auto block = [&](std::int64_t width) {
    ColumnBlockPlan b;
    const std::int64_t nt = ceil_div(width, r.nr);
    b.jobs = n_mc * nt;
    b.grain = d.shared_a ? generic_grain(b.jobs, w, oversample).grain
                         : packed_lhs_grain(n_mc, nt, w, r.knobs.packed_oversample).grain;
    b.pack_panels = (r.b_prepacked ? 0 : nt) +
                    (d.shared_a && !r.a_prepacked ? ceil_div(r.m, r.mr) : 0);
    b.pack_grain = generic_grain(b.pack_panels, w, oversample).grain;
    return b;
  };
  d.grain = d.shared_a ? generic_grain(n_mc * n_nt, w, oversample) : packed;
  d.first_block = block(std::min(r.n, r.cache_blocking.nc));
  d.last_block =
      r.n > r.cache_blocking.nc ? block(r.n - (r.n - 1) / r.cache_blocking.nc * r.cache_blocking.nc)
                                : d.first_block;
  return d;
}

std::int64_t packed_size(std::int64_t extent, std::int64_t depth, int panel) {
  return round_up(extent, panel) * depth;
}

namespace {

// Packs `extent` lines x `depth` of a 16-bit operand into the panels the
// level's pack_a / pack_b would write from its f32 widening. Where a depth
// step's values are contiguous (s_w == 1) they widen straight into the
// panel, which is their packed order; otherwise each panel's lines widen,
// a bounded run of depth at a time, into a line-major scratch that the
// level's own pack then transposes.
template <class T>
void pack_widened(const GemmKernelSet<T>& ks, bool side_a, std::int64_t extent,
                  std::int64_t depth, const std::uint16_t* src, std::int64_t s_w,
                  std::int64_t s_d, WidenFn widen, T* dst) {
  static_assert(std::is_same_v<T, float>, "16-bit operands widen to f32");
  const int panel = side_a ? ks.mr : ks.nr;
  constexpr int kScratch = 2048;  // floats: 8 KiB of stack
  alignas(64) float scratch[kScratch];
  const std::int64_t run = std::max<std::int64_t>(1, kScratch / panel);
  for (std::int64_t w0 = 0; w0 < extent; w0 += panel) {
    const std::int64_t valid = std::min<std::int64_t>(panel, extent - w0);
    const std::uint16_t* lines = src + w0 * s_w;
    T* out = dst + w0 * depth;  // panel w0 / panel, panel x depth values each
    if (s_w == 1) {
      for (std::int64_t p = 0; p < depth; ++p) {
        T* step = out + p * panel;
        widen(lines + p * s_d, step, static_cast<std::size_t>(valid));
        std::fill(step + valid, step + panel, T(0));
      }
      continue;
    }
    for (std::int64_t p0 = 0; p0 < depth; p0 += run) {
      const std::int64_t c = std::min(run, depth - p0);
      for (std::int64_t w = 0; w < valid; ++w) {
        const std::uint16_t* line = lines + w * s_w + p0 * s_d;
        if (s_d == 1) {
          widen(line, scratch + w * c, static_cast<std::size_t>(c));
        } else {
          for (std::int64_t p = 0; p < c; ++p) widen(line + p * s_d, scratch + w * c + p, 1);
        }
      }
      // Line w at scratch + w*c, contiguous in depth.
      if (side_a) {
        ks.pack_a(valid, c, scratch, c, 1, out + p0 * panel);
      } else {
        ks.pack_b(c, valid, scratch, 1, c, out + p0 * panel);
      }
    }
  }
}

// Packs `extent` lines x `depth` of one side, from `src + offset` or from
// the widened operand at the same offset. Line w, depth p at
// offset + w*s_w + p*s_d.
template <class T>
void pack_side(const GemmKernelSet<T>& ks, bool side_a, const WidenedOperand& widened,
               std::int64_t extent, std::int64_t depth, const T* src, std::int64_t offset,
               std::int64_t s_w, std::int64_t s_d, T* dst) {
  if constexpr (std::is_same_v<T, float>) {
    if (widened.active()) {
      pack_widened(ks, side_a, extent, depth, widened.data + offset, s_w, s_d, widened.widen, dst);
      return;
    }
  }
  if (side_a) {
    ks.pack_a(extent, depth, src + offset, s_w, s_d, dst);
  } else {
    ks.pack_b(depth, extent, src + offset, s_d, s_w, dst);
  }
}

// One job of a triangle GEMM: the row block [ic, ic + rows) of C against
// the column tile [c0, c0 + cols), over one depth slice. Its mr-row
// panels that the triangle covers whole run in place, in runs; a panel
// crossing the edge runs into `tile` (mr x nr) over just the columns some
// row of it keeps (B's panel read from that column on), and each row's
// kept columns go to C. The tile holds C's values first unless the slice
// overwrites. Each element gets the same operations wherever its tile lies
// (gemm_kernel.hpp), so the bits are the full GEMM's.
template <class T>
void triangle_job(const GemmKernelSet<T>& ks, const GemmTriangleMask& mask, std::int64_t ic,
                  std::int64_t rows, std::int64_t c0, std::int64_t cols, std::int64_t kc_eff,
                  const T* a_block, const T* b_panel, T* c, std::int64_t ldc, T alpha, T beta,
                  GemmUpdate update, T* tile) {
  const std::int64_t mr = ks.mr, nr = ks.nr;
  const std::int64_t c1 = c0 + cols;
  std::int64_t run = -1;  // first row of a pending run of whole panels
  const auto flush = [&](std::int64_t end) {
    if (run < 0) return;
    ks.column_tile(end - run, cols, kc_eff, a_block + (run - ic) * kc_eff, b_panel,
                   c + run * ldc + c0, ldc, alpha, beta, update, nullptr);
    run = -1;
  };
  for (std::int64_t r0 = ic; r0 < ic + rows; r0 += mr) {
    const std::int64_t r1 = std::min(r0 + mr, ic + rows);
    const GemmTriangleMask::Cover cover = mask.cover(r0, r1, c0, c1);
    if (cover == GemmTriangleMask::Cover::kAll) {
      if (run < 0) run = r0;
      continue;
    }
    flush(r0);
    if (cover == GemmTriangleMask::Cover::kNone) continue;
    // The panel's columns: the runs of its rows are nested, the widest
    // being the last row's (lower) or the first row's (upper).
    std::int64_t lo, hi;
    mask.kept_columns(mask.lower ? r1 - 1 : r0, c0, c1, &lo, &hi);
    const std::int64_t width = hi - lo;
    if (update != GemmUpdate::kOverwrite) {
      for (std::int64_t i = r0; i < r1; ++i) {
        std::copy(c + i * ldc + lo, c + i * ldc + hi, tile + (i - r0) * nr);
      }
    }
    ks.column_tile(r1 - r0, width, kc_eff, a_block + (r0 - ic) * kc_eff, b_panel + (lo - c0),
                   tile, nr, alpha, beta, update, nullptr);
    for (std::int64_t i = r0; i < r1; ++i) {
      std::int64_t j0, j1;
      mask.kept_columns(i, c0, c1, &j0, &j1);
      if (j0 < j1) std::copy(tile + (i - r0) * nr + (j0 - lo), tile + (i - r0) * nr + (j1 - lo),
                             c + i * ldc + j0);
    }
  }
  flush(ic + rows);
}

// A triangular operand's panels, just packed from the array as it is:
// lines [line0, line0 + count) in panels of W from dst, depths [pc, pc +
// kc_eff). Writes the unused elements' zeros and the unit diagonal's
// blocks. Lines of one panel differ only at the depths of the groups of
// the panel's own lines (below them every line uses a depth, or none
// does; the kernel calls never reach the depths no line uses), so that
// square is all it touches.
template <class T>
void mask_packed(const GemmTriangularOperand& t, int W, std::int64_t line0, std::int64_t count,
                 std::int64_t pc, std::int64_t kc_eff, T* dst) {
  const std::int64_t g = t.group;
  for (std::int64_t w0 = line0; w0 < line0 + count; w0 += W) {
    const std::int64_t w1 = std::min<std::int64_t>(w0 + W, line0 + count);
    T* const panel = dst + (w0 - line0) * kc_eff;
    const std::int64_t p0 = std::max(pc, w0 / g * g);
    const std::int64_t p1 = std::min(pc + kc_eff, ((w1 - 1) / g + 1) * g);
    for (std::int64_t p = p0; p < p1; ++p) {
      T* const step = panel + (p - pc) * W - w0;
      for (std::int64_t w = w0; w < w1; ++w) {
        if (p / g == w / g) {
          if (t.unit) step[w] = p % g == w % g ? T(1) : T(0);
        } else if ((p / g < w / g) != t.depth_le_line) {
          step[w] = T(0);
        }
      }
    }
  }
}

// pack_side for lines [line0, line0 + count) of the slice [pc, pc +
// kc_eff): where a triangular operand lies on this side, only the panels
// that use a depth of the slice (the kernels read no other; half of them,
// over the whole product), then masked.
template <class T>
void pack_slice(const GemmKernelSet<T>& ks, bool side_a, const GemmTriangularOperand* t,
                const WidenedOperand& widened, std::int64_t line0, std::int64_t count,
                std::int64_t pc, std::int64_t kc_eff, std::int64_t k, const T* src,
                std::int64_t offset, std::int64_t s_w, std::int64_t s_d, T* dst) {
  if (t == nullptr || t->on_b == side_a) {
    pack_side(ks, side_a, widened, count, kc_eff, src, offset, s_w, s_d, dst);
    return;
  }
  const int W = side_a ? ks.mr : ks.nr;
  for (std::int64_t w0 = 0; w0 < count; w0 += W) {
    const std::int64_t lines = std::min<std::int64_t>(W, count - w0);
    std::int64_t lo, hi;
    t->depths(line0 + w0, line0 + w0 + lines, k, &lo, &hi);
    if (std::max(lo, pc) >= std::min(hi, pc + kc_eff)) continue;
    pack_side(ks, side_a, widened, lines, kc_eff, src, offset + w0 * s_w, s_w, s_d,
              dst + w0 * kc_eff);
  }
  mask_packed(*t, W, line0, count, pc, kc_eff, dst);
}

// One job of a GEMM with a triangular operand: the row block [ic, ic +
// rows) against the column tile [c0, c0 + cols), over the slice [pc, pc +
// kc_eff). Each mr-row panel multiplies only the depths its lines (A) or
// the tile's columns (B) use: panels using the whole slice go in runs,
// the others one call each over their depths, from that depth of both
// packed panels. A panel's first depth gets `first` (C = beta C before
// the sum), later slices add. The depths left out multiply zeros in the
// full product, so each element's sum is the full product's.
template <class T>
void triangular_job(const GemmKernelSet<T>& ks, const GemmTriangularOperand& t,
                    std::int64_t ic, std::int64_t rows, std::int64_t c0, std::int64_t cols,
                    std::int64_t pc, std::int64_t kc_eff, std::int64_t k, const T* a_block,
                    const T* b_panel, T* c, std::int64_t ldc, T alpha, T beta,
                    GemmUpdate first) {
  const std::int64_t mr = ks.mr, nr = ks.nr, pe = pc + kc_eff;
  std::int64_t run = -1;  // first row of a pending run of whole-slice panels
  GemmUpdate run_update = first;
  const auto flush = [&](std::int64_t end) {
    if (run < 0) return;
    ks.column_tile(end - run, cols, kc_eff, a_block + (run - ic) * kc_eff, b_panel,
                   c + run * ldc + c0, ldc, alpha, beta, run_update, nullptr);
    run = -1;
  };
  for (std::int64_t r0 = ic; r0 < ic + rows; r0 += mr) {
    const std::int64_t r1 = std::min(r0 + mr, ic + rows);
    std::int64_t lo, hi;
    if (t.on_b) {
      t.depths(c0, c0 + cols, k, &lo, &hi);
    } else {
      t.depths(r0, r1, k, &lo, &hi);
    }
    const GemmUpdate update = lo >= pc ? first : GemmUpdate::kAccumulate;
    lo = std::max(lo, pc);
    hi = std::min(hi, pe);
    if (lo >= hi) {
      flush(r0);
      continue;
    }
    if (lo == pc && hi == pe) {
      if (run >= 0 && update != run_update) flush(r0);
      if (run < 0) run = r0, run_update = update;
      continue;
    }
    flush(r0);
    ks.column_tile(r1 - r0, cols, hi - lo, a_block + (r0 - ic) * kc_eff + (lo - pc) * mr,
                   b_panel + (lo - pc) * nr, c + r0 * ldc + c0, ldc, alpha, beta, update,
                   nullptr);
  }
  flush(ic + rows);
}

}  // namespace

template <class T>
void pack_whole(const GemmKernelSet<T>& kernels, bool side_a,
                std::int64_t extent, std::int64_t depth, std::int64_t kc,
                const T* src, std::int64_t s_w, std::int64_t s_d, T* dst,
                const WidenedOperand& widened) {
  const int panel = side_a ? kernels.mr : kernels.nr;
  pack_whole_panels(kernels, side_a, extent, depth, kc, src, s_w, s_d, dst, 0,
                    ceil_div(extent, panel), widened);
}

template <class T>
void pack_whole_panels(const GemmKernelSet<T>& kernels, bool side_a, std::int64_t extent,
                       std::int64_t depth, std::int64_t kc, const T* src, std::int64_t s_w,
                       std::int64_t s_d, T* dst, std::int64_t q0, std::int64_t q1,
                       const WidenedOperand& widened) {
  const int panel = side_a ? kernels.mr : kernels.nr;
  const std::int64_t padded = round_up(extent, panel);
  const std::int64_t w0 = q0 * panel, lines = std::min(q1 * panel, extent) - w0;
  if (lines <= 0) return;
  for (std::int64_t pc = 0; pc < depth; pc += kc) {
    const std::int64_t kc_eff = std::min(kc, depth - pc);
    pack_side(kernels, side_a, widened, lines, kc_eff, src, pc * s_d + w0 * s_w, s_w, s_d,
              dst + pc * padded + w0 * kc_eff);
  }
}

template <class T>
Status run_gemm(const GemmKernelSet<T>& ks, const GemmProblem<T>& pr,
                const GemmDecision& d, const T* packed_a, const T* packed_b,
                platform::Executor* executor, const GemmSources& sources,
                const GemmTriangleMask* triangle_mask,
                const GemmTriangularOperand* triangular) {
  const int mr = ks.mr, nr = ks.nr;
  const std::int64_t m = pr.m, n = pr.n, k = pr.k;
  const std::int64_t mc = d.blocking.mc, nc = d.blocking.nc, kc = d.blocking.kc;
  const int w = d.compute.workers;
  const bool pack_shared_a = d.shared_a && packed_a == nullptr;
  const bool own_a = !d.shared_a && packed_a == nullptr;

  // Pack buffers, each rounded to 64 bytes: the B block, the shared A
  // slice, one private A block per worker.
  const std::int64_t kc_max = std::min(kc, k);
  const std::int64_t m_pad = round_up(m, mr);
  const std::int64_t n_pad = round_up(n, nr);
  const std::int64_t per_line = 64 / static_cast<std::int64_t>(sizeof(T));
  // A triangle's edge panels read B's packed panel from a column inside it
  // (triangle_job): levels without lane masks load whole rows of nr from
  // there, up to nr - 1 values past the block's last row, so the B buffer
  // gets that much slack (never written; those lanes are discarded).
  const bool triangle = triangle_mask != nullptr;
  const std::int64_t b_elems =
      packed_b != nullptr
          ? 0
          : round_up(round_up(std::min(nc, n), nr) * kc_max + (triangle ? nr : 0), per_line);
  const std::int64_t shared_elems = pack_shared_a ? round_up(m_pad * kc_max, per_line) : 0;
  const std::int64_t own_elems =
      own_a ? round_up(round_up(std::min(mc, m), mr) * kc_max, per_line) : 0;
  // A triangle's tiles that cross its edge run into a tile of their own
  // (one per worker) and only their kept elements go to C.
  const std::int64_t tile_elems =
      triangle ? round_up(static_cast<std::int64_t>(mr) * nr, per_line) : 0;
  const std::int64_t total = b_elems + shared_elems + (own_elems + tile_elems) * w;
  Workspace workspace(static_cast<std::size_t>(total) * sizeof(T));
  if (workspace.data() == nullptr) {
    return Status(StatusCode::kOutOfMemory,
                  "gemm: cannot allocate " + std::to_string(total * sizeof(T)) +
                      " bytes of pack buffers");
  }
  T* const b_buf = static_cast<T*>(workspace.data());
  T* const shared_buf = b_buf + b_elems;
  T* const own_base = shared_buf + shared_elems;
  T* const tile_base = own_base + own_elems * w;
  // A triangle's jobs of the current column block: those whose block of C
  // holds a kept element; a triangular operand's of the current slice:
  // those that use a depth of it. In job order.
  std::vector<std::int64_t> kept_jobs;
  const bool masked = triangle || triangular != nullptr;

  for (std::int64_t jc = 0; jc < n; jc += nc) {
    const std::int64_t nc_eff = std::min(nc, n - jc);
    const std::int64_t n_nt = ceil_div(nc_eff, nr);
    if (triangle) {
      kept_jobs.clear();
      for (std::int64_t ic = 0; ic < m; ic += mc) {
        for (std::int64_t j0 = 0; j0 < nc_eff; j0 += nr) {
          if (triangle_mask->cover(ic, std::min(ic + mc, m), jc + j0,
                                jc + std::min(j0 + nr, nc_eff)) !=
              GemmTriangleMask::Cover::kNone) {
            kept_jobs.push_back(ic / mc * n_nt + j0 / nr);
          }
        }
      }
      if (kept_jobs.empty()) continue;
    }
    for (std::int64_t pc = 0; pc < k; pc += kc) {
      const std::int64_t kc_eff = std::min(kc, k - pc);
      const GemmUpdate update = slice_update(pr, pc);
      const bool last_slice = pr.epilogue.active() && pc + kc_eff >= k;
      const T* const b_block =
          packed_b != nullptr ? packed_b + packed_offset(pc, jc / nr, nr, kc_eff, n_pad)
                              : b_buf;
      const T* const a_slice = packed_a != nullptr ? packed_a + pc * m_pad
                               : pack_shared_a     ? shared_buf
                                                   : nullptr;
      if (triangular != nullptr) {
        kept_jobs.clear();
        for (std::int64_t ic = 0; ic < m; ic += mc) {
          for (std::int64_t j0 = 0; j0 < nc_eff; j0 += nr) {
            std::int64_t lo, hi;
            if (triangular->on_b) {
              triangular->depths(jc + j0, jc + std::min(j0 + nr, nc_eff), k, &lo, &hi);
            } else {
              triangular->depths(ic, std::min(ic + mc, m), k, &lo, &hi);
            }
            if (std::max(lo, pc) < std::min(hi, pc + kc_eff)) {
              kept_jobs.push_back(ic / mc * n_nt + j0 / nr);
            }
          }
        }
        if (kept_jobs.empty()) continue;
      }

      // Phase 1: B panels [0, nb) then shared A panels [nb, nb + na).
      const std::int64_t nb = packed_b != nullptr ? 0 : n_nt;
      const std::int64_t na = pack_shared_a ? ceil_div(m, mr) : 0;
      auto pack_range = [&](std::int64_t q0, std::int64_t q1) {
        if (q0 < nb) {
          const std::int64_t e = std::min(q1, nb);
          const std::int64_t j0 = q0 * nr;
          const std::int64_t cols = std::min(e * nr, nc_eff) - j0;
          pack_slice(ks, false, triangular, sources.b, jc + j0, cols, pc, kc_eff, k, pr.b,
                     pc * pr.rs_b + (jc + j0) * pr.cs_b, pr.cs_b, pr.rs_b, b_buf + j0 * kc_eff);
          q0 = e;
        }
        if (q0 < q1) {
          const std::int64_t i0 = (q0 - nb) * mr;
          const std::int64_t rows = std::min((q1 - nb) * mr, m) - i0;
          pack_slice(ks, true, triangular, sources.a, i0, rows, pc, kc_eff, k, pr.a,
                     i0 * pr.rs_a + pc * pr.cs_a, pr.rs_a, pr.cs_a, shared_buf + i0 * kc_eff);
        }
      };

      // Phase 2: job q -> (row block q / n_nt, column tile q % n_nt); a
      // triangle's jobs are the kept ones, kept_jobs[q].
      auto run_jobs = [&](T* own, T* tile, std::int64_t q0, std::int64_t q1,
                          std::int64_t* packed_ic) {
        for (std::int64_t job = q0; job < q1; ++job) {
          const std::int64_t q = masked ? kept_jobs[static_cast<std::size_t>(job)] : job;
          const std::int64_t ic_index = q / n_nt;
          const std::int64_t jt = q % n_nt;
          const std::int64_t ic = ic_index * mc;
          const std::int64_t rows = std::min(mc, m - ic);
          const T* a_block;
          if (a_slice != nullptr) {
            a_block = a_slice + ic * kc_eff;
          } else {
            if (*packed_ic != ic_index) {
              pack_slice(ks, true, triangular, sources.a, ic, rows, pc, kc_eff, k, pr.a,
                         ic * pr.rs_a + pc * pr.cs_a, pr.rs_a, pr.cs_a, own);
              *packed_ic = ic_index;
            }
            a_block = own;
          }
          const std::int64_t j0 = jt * nr;
          const std::int64_t cols = std::min<std::int64_t>(nr, nc_eff - j0);
          if (triangle) {
            triangle_job(ks, *triangle_mask, ic, rows, jc + j0, cols, kc_eff, a_block,
                         b_block + j0 * kc_eff, pr.c, pr.ldc, pr.alpha, pr.beta, update, tile);
            continue;
          }
          if (triangular != nullptr) {
            triangular_job(ks, *triangular, ic, rows, jc + j0, cols, pc, kc_eff, k, a_block,
                           b_block + j0 * kc_eff, pr.c, pr.ldc, pr.alpha, pr.beta,
                           slice_update(pr, 0));
            continue;
          }
          // The epilogue rides on the last depth slice only.
          GemmEpilogueSpec<T> ep;
          if (last_slice) ep = pr.epilogue.at(ic, jc + j0);
          ks.column_tile(rows, cols, kc_eff, a_block, b_block + j0 * kc_eff,
                         pr.c + ic * pr.ldc + jc + j0, pr.ldc, pr.alpha,
                         pr.beta, update, last_slice ? &ep : nullptr);
        }
      };

      // The decision's plan for this column block; its counts are the ones
      // computed here from the same widths.
      // A triangle's fewer jobs are claimed with the plan's grain scaled to
      // their count.
      const ColumnBlockPlan& plan = jc + nc >= n ? d.last_block : d.first_block;
      const std::int64_t n_jobs =
          masked ? static_cast<std::int64_t>(kept_jobs.size()) : plan.jobs;
      const std::int64_t grain =
          masked ? std::max<std::int64_t>(1, plan.grain * n_jobs / plan.jobs) : plan.grain;
      if (w == 1) {
        if (nb + na > 0) pack_range(0, nb + na);
        std::int64_t packed_ic = -1;
        run_jobs(own_base, tile_base, 0, n_jobs, &packed_ic);
        continue;
      }
      if (nb + na > 0) {
        JobCursor cursor(plan.pack_panels, plan.pack_grain);
        executor->run(w, [&](int) {
          const platform::ParallelBodyScope region;
          std::int64_t b, e;
          while (cursor.next_chunk(&b, &e)) pack_range(b, e);
        });
      }
      // Home ranges: a participant computes the same C tiles on every call
      // of the same product (home_range_cursor.hpp).
      HomeRangeCursor cursor(n_jobs, grain, w);
      executor->run(w, [&](int participant) {
        const platform::ParallelBodyScope region;
        T* own = own_base + own_elems * participant;
        T* tile = tile_base + tile_elems * participant;
        std::int64_t packed_ic = -1;
        std::int64_t b, e;
        while (cursor.next_chunk(participant, &b, &e)) run_jobs(own, tile, b, e, &packed_ic);
      });
    }
  }
  return {};
}

template <class T>
Status run_direct_with_buffers(const GemmKernelSet<T>& ks, const GemmProblem<T>& pr,
                               std::int64_t kc, const T* packed_b) {
  const bool pack_b =
      packed_b == nullptr && (pr.cs_b != 1 || direct_packs_b(ks, pr.m, pr.n, pr.k, pr.rs_b, 1));
  const std::int64_t kc_max = std::min(kc, pr.k);
  const std::int64_t per_line = 64 / static_cast<std::int64_t>(sizeof(T));
  const std::int64_t scratch = round_up(kc_max * ks.direct_nr, per_line);
  const std::int64_t b_elems = pack_b ? packed_size(pr.n, pr.k, ks.nr) : 0;
  Workspace workspace(static_cast<std::size_t>(scratch + b_elems) * sizeof(T));
  if (workspace.data() == nullptr) {
    return Status(StatusCode::kOutOfMemory, "gemm: cannot allocate pack buffers");
  }
  T* const buf = static_cast<T*>(workspace.data());
  if (pack_b) {
    pack_whole(ks, false, pr.n, pr.k, kc, pr.b, pr.cs_b, pr.rs_b, buf + scratch);
    packed_b = buf + scratch;
  }
  ks.direct(pr, kc, packed_b, buf);
  return {};
}

template <class T>
Status run_direct_parallel(const GemmKernelSet<T>& ks, const GemmProblem<T>& pr,
                           const GemmDecision& d, const T* packed_b,
                           platform::Executor* executor) {
  const std::int64_t kc = d.blocking.kc;
  // A partial last panel is read in place under lane masks where the kernel
  // set has them (16384 x 16 x 512 f32 on AVX-512 packed B into 32-wide
  // panels, half zeros, and ran two workers at 1.3x one; see the commit).
  const int workers = d.compute.workers;
  const bool pack_b = packed_b == nullptr && !direct_reads_b_in_place(ks, pr, workers);
  // A B that needs packing is packed by every participant into a copy of
  // its own, as its first job: packed once by the caller before the fork,
  // the copy was serial work and then crossed to the other core's cache
  // (f32 128 x 1024 x 16, two workers: 139 GFLOP/s against 192 with B read
  // in place; see the commit). Copies of more than kPrivateCopiesBytes in
  // all (a large B, many workers) give way to one copy packed by the caller.
  constexpr std::int64_t kPrivateCopiesBytes = std::int64_t{32} << 20;
  const std::int64_t per_line = 64 / static_cast<std::int64_t>(sizeof(T));
  const std::int64_t b_elems = pack_b ? round_up(packed_size(pr.n, pr.k, ks.nr), per_line) : 0;
  const bool private_copies =
      pack_b && b_elems * workers * static_cast<std::int64_t>(sizeof(T)) <= kPrivateCopiesBytes;
  const std::int64_t copies = !pack_b ? 0 : private_copies ? workers : 1;
  Workspace workspace(pack_b ? static_cast<std::size_t>(b_elems * copies) * sizeof(T) : 64);
  if (workspace.data() == nullptr) {
    return Status(StatusCode::kOutOfMemory, "gemm: cannot allocate pack buffers");
  }
  T* const buffers = static_cast<T*>(workspace.data());
  if (pack_b && !private_copies) {
    pack_whole(ks, false, pr.n, pr.k, kc, pr.b, pr.cs_b, pr.rs_b, buffers);
    packed_b = buffers;
  }
  const std::int64_t tiles = ceil_div(pr.n, ks.direct_nr) * ceil_div(pr.m, ks.direct_mr);
  // Home ranges, as in run_gemm: the same C tiles per participant each call.
  HomeRangeCursor cursor(tiles, d.first_block.grain, workers);
  executor->run(workers, [&](int participant) {
    const platform::ParallelBodyScope region;
    const T* b_panels = packed_b;
    std::int64_t b, e;
    while (cursor.next_chunk(participant, &b, &e)) {
      if (private_copies && b_panels == nullptr) {
        T* const own = buffers + b_elems * participant;
        pack_whole(ks, false, pr.n, pr.k, kc, pr.b, pr.cs_b, pr.rs_b, own);
        b_panels = own;
      }
      ks.direct_tiles(pr, kc, b_panels, b, e);
    }
  });
  return {};
}

template Status run_direct_parallel<float>(const GemmKernelSet<float>&,
                                           const GemmProblem<float>&, const GemmDecision&,
                                           const float*, platform::Executor*);
template Status run_direct_parallel<double>(const GemmKernelSet<double>&,
                                            const GemmProblem<double>&, const GemmDecision&,
                                            const double*, platform::Executor*);
template Status run_direct_with_buffers<float>(const GemmKernelSet<float>&,
                                               const GemmProblem<float>&, std::int64_t,
                                               const float*);
template Status run_direct_with_buffers<double>(const GemmKernelSet<double>&,
                                                const GemmProblem<double>&, std::int64_t,
                                                const double*);
template Status run_gemm<float>(const GemmKernelSet<float>&, const GemmProblem<float>&,
                                const GemmDecision&, const float*, const float*,
                                platform::Executor*, const GemmSources&,
                                const GemmTriangleMask*, const GemmTriangularOperand*);
template Status run_gemm<double>(const GemmKernelSet<double>&, const GemmProblem<double>&,
                                 const GemmDecision&, const double*, const double*,
                                 platform::Executor*, const GemmSources&,
                                 const GemmTriangleMask*, const GemmTriangularOperand*);
template void pack_whole<float>(const GemmKernelSet<float>&, bool, std::int64_t,
                                std::int64_t, std::int64_t, const float*,
                                std::int64_t, std::int64_t, float*, const WidenedOperand&);
template void pack_whole<double>(const GemmKernelSet<double>&, bool, std::int64_t,
                                 std::int64_t, std::int64_t, const double*,
                                 std::int64_t, std::int64_t, double*, const WidenedOperand&);
template void pack_whole_panels<float>(const GemmKernelSet<float>&, bool, std::int64_t,
                                       std::int64_t, std::int64_t, const float*, std::int64_t,
                                       std::int64_t, float*, std::int64_t, std::int64_t,
                                       const WidenedOperand&);
template void pack_whole_panels<double>(const GemmKernelSet<double>&, bool, std::int64_t,
                                        std::int64_t, std::int64_t, const double*, std::int64_t,
                                        std::int64_t, double*, std::int64_t, std::int64_t,
                                        const WidenedOperand&);

}  // namespace tessera::core
