// tessera/mpi.h over tessera/mpi.hpp. Argument errors found here (null
// descriptors, unknown transposes) are local to a rank, so they are agreed
// across ranks like every other error before any rank returns.
#include <new>
#include <string>

#include "mpi/src/agreement.hpp"
#include "tessera/c_interop.hpp"
#include "tessera/mpi.h"
#include "tessera/mpi.hpp"

namespace {

using tessera::Status;
using tessera::c_interop::report;

tessera::mpi::BlockDescriptor from_c(const tsr_mpi_descriptor& d) {
  tessera::mpi::BlockDescriptor out;
  out.rows = d.rows;
  out.cols = d.cols;
  out.row_block = d.row_block;
  out.col_block = d.col_block;
  out.grid_rows = d.grid_rows;
  out.grid_cols = d.grid_cols;
  out.lld = d.lld;
  return out;
}

// No exception crosses the C API: the only one tessera::mpi can throw is
// std::bad_alloc from a small bookkeeping allocation.
template <class F>
tsr_status guarded(F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return report(Status(tessera::StatusCode::kOutOfMemory, "out of memory"));
  } catch (...) {
    return report(Status::internal("unexpected exception in tessera::mpi"));
  }
}

template <class T>
tsr_status gemm_c(const tsr_context* context, MPI_Comm comm, tsr_transpose trans_a,
                  tsr_transpose trans_b, T alpha, const T* a, const tsr_mpi_descriptor* desc_a,
                  const T* b, const tsr_mpi_descriptor* desc_b, T beta, T* c,
                  const tsr_mpi_descriptor* desc_c) {
  if (comm == MPI_COMM_NULL) return report(Status::invalid_argument("comm is MPI_COMM_NULL"));
  Status local;
  tessera::Transpose ta = tessera::Transpose::kNo, tb = tessera::Transpose::kNo;
  if (desc_a == nullptr || desc_b == nullptr || desc_c == nullptr) {
    local = Status::invalid_argument(std::string(desc_a == nullptr   ? "desc_a"
                                                 : desc_b == nullptr ? "desc_b"
                                                                     : "desc_c") +
                                     " is null");
  }
  if (local.ok()) local = tessera::c_interop::transpose_from_c(trans_a, "trans_a", &ta);
  if (local.ok()) local = tessera::c_interop::transpose_from_c(trans_b, "trans_b", &tb);
  const Status agreed = tessera::mpi::detail::agree(comm, local, {});
  if (!agreed.ok()) return report(agreed);
  return report(tessera::mpi::gemm(tessera::c_interop::context_of(context), comm, ta, tb, alpha, a,
                                   from_c(*desc_a), b, from_c(*desc_b), beta, c, from_c(*desc_c)));
}

tsr_status rank_context_c(MPI_Comm comm, const tsr_context_options* options,
                          const tsr_execution_policy* policy, tsr_context** out) {
  if (comm == MPI_COMM_NULL) return report(Status::invalid_argument("comm is MPI_COMM_NULL"));
  // Collective: every rank takes part in make_rank_context's exchange even
  // when its own arguments are wrong, and all report the first error.
  tessera::ContextOptions opts;
  Status local = out == nullptr
                     ? Status::invalid_argument("out is null")
                     : tessera::c_interop::context_options_from_c(options, policy, &opts);
  tessera::Context context;
  const Status made = tessera::mpi::make_rank_context(comm, opts, &context);
  if (local.ok()) local = made;
  const Status agreed = tessera::mpi::detail::agree(comm, local, {});
  if (!agreed.ok()) return report(agreed);
  tsr_context* handle = tessera::c_interop::new_handle(std::move(context));
  if (handle == nullptr) {
    return report(Status(tessera::StatusCode::kOutOfMemory, "allocating the context"));
  }
  *out = handle;
  return report({});
}

}  // namespace

extern "C" {

int64_t tsr_mpi_local_extent(int64_t global, int64_t block, int position, int count) {
  return tessera::mpi::local_extent(global, block, position, count);
}

tsr_status tsr_mpi_sgemm(const tsr_context* context, MPI_Comm comm, tsr_transpose trans_a,
                         tsr_transpose trans_b, float alpha, const float* a,
                         const tsr_mpi_descriptor* desc_a, const float* b,
                         const tsr_mpi_descriptor* desc_b, float beta, float* c,
                         const tsr_mpi_descriptor* desc_c) {
  return guarded([&] {
    return gemm_c(context, comm, trans_a, trans_b, alpha, a, desc_a, b, desc_b, beta, c, desc_c);
  });
}

tsr_status tsr_mpi_dgemm(const tsr_context* context, MPI_Comm comm, tsr_transpose trans_a,
                         tsr_transpose trans_b, double alpha, const double* a,
                         const tsr_mpi_descriptor* desc_a, const double* b,
                         const tsr_mpi_descriptor* desc_b, double beta, double* c,
                         const tsr_mpi_descriptor* desc_c) {
  return guarded([&] {
    return gemm_c(context, comm, trans_a, trans_b, alpha, a, desc_a, b, desc_b, beta, c, desc_c);
  });
}

tsr_status tsr_mpi_rank_context_create(MPI_Comm comm, const tsr_context_options* options,
                                       const tsr_execution_policy* policy, tsr_context** out) {
  return guarded([&] { return rank_context_c(comm, options, policy, out); });
}

}  // extern "C"
