#include "tessera/inventory.hpp"

#include "core/src/base/context_state.hpp"
#include "core/src/registry/kernel_registry.hpp"
#include "tessera/platform/cpu_features.hpp"

namespace tessera {
namespace {

struct Entry {
  const char* op;
  const char* dtype;
  bool present;
  // A CPU feature this entry needs beyond its table's (null: none).
  bool platform::CpuFeatures::*needs = nullptr;
};

// Every operation a table may provide, in inventory order.
std::vector<Entry> entries_of(const core::KernelTable& t) {
  std::vector<Entry> entries;
  // Every elementwise op with every operand form, per dtype (the scalar
  // and broadcast forms are entries of the same table).
  const auto add_elementwise = [&](const char* dtype, const auto& ops) {
    for (int i = 0; i < kBinaryOpCount; ++i) {
      entries.push_back({binary_op_name(static_cast<BinaryOp>(i)), dtype,
                         ops.binary[i] != nullptr && ops.binary_scalar_rhs[i] != nullptr &&
                             ops.binary_scalar_lhs[i] != nullptr});
    }
    for (int i = 0; i < kUnaryOpCount; ++i) {
      entries.push_back({unary_op_name(static_cast<UnaryOp>(i)), dtype, ops.unary[i] != nullptr});
    }
  };
  add_elementwise("f32", t.elementwise->f32);
  add_elementwise("f64", t.elementwise->f64);
  entries.insert(entries.end(), {
      {"gemm", "f32", t.gemm.f32 != nullptr || t.gemm.naive_f32 != nullptr},
      {"gemm", "f64", t.gemm.f64 != nullptr || t.gemm.naive_f64 != nullptr},
      // Fused bias/activation epilogues: the kernel set's store path (and
      // its epilogue-only routine for k == 0 / alpha == 0).
      {"gemm_epilogue", "f32",
       (t.gemm.f32 != nullptr && t.gemm.f32->epilogue_only != nullptr) ||
           t.gemm.naive_f32 != nullptr},
      {"gemm_epilogue", "f64",
       (t.gemm.f64 != nullptr && t.gemm.f64->epilogue_only != nullptr) ||
           t.gemm.naive_f64 != nullptr},
      // Batched GEMM runs single gemm's kernels entry by entry.
      {"gemm_batched", "f32", t.gemm.f32 != nullptr || t.gemm.naive_f32 != nullptr},
      {"gemm_batched", "f64", t.gemm.f64 != nullptr || t.gemm.naive_f64 != nullptr},
      {"dot", "f32", t.blas1->f32.dot != nullptr || t.blas1->f32.naive_dot != nullptr},
      {"dot", "f64", t.blas1->f64.dot != nullptr || t.blas1->f64.naive_dot != nullptr},
      {"gemv", "f32", (t.blas1->f32.gemv_rows != nullptr && t.blas1->f32.gemv_cols != nullptr) ||
                          t.blas1->f32.naive_gemv != nullptr},
      {"gemv", "f64", (t.blas1->f64.gemv_rows != nullptr && t.blas1->f64.gemv_cols != nullptr) ||
                          t.blas1->f64.naive_gemv != nullptr},
  });
  // Last-axis reductions (argmax runs the max kernels) and softmax.
  const auto add_reduce = [&](const char* dtype, const auto& set) {
    for (int i = 0; i < kReduceOpCount; ++i) {
      const bool max = static_cast<ReduceOp>(i) == ReduceOp::kMax;
      entries.push_back({reduce_op_name(static_cast<ReduceOp>(i)), dtype,
                         (max ? set.max : set.sum) != nullptr || set.naive_reduce != nullptr});
    }
    entries.push_back({"argmax", dtype, set.max != nullptr || set.naive_argmax != nullptr});
    const bool softmax = (set.max != nullptr && set.exp_sum != nullptr &&
                          set.divide != nullptr && set.log_finish != nullptr &&
                          set.log != nullptr) ||
                         set.naive_softmax != nullptr;
    entries.push_back({"softmax", dtype, softmax});
    entries.push_back({"log_softmax", dtype, softmax});
  };
  add_reduce("f32", t.reduce->f32);
  add_reduce("f64", t.reduce->f64);
  // The integer GEMM (its outputs int32, requantized and float, and the
  // batched int32 form share the kernel set) and DynamicQuantizeLinear.
  const bool qgemm = t.qgemm.set != nullptr || t.qgemm.naive != nullptr;
  entries.insert(entries.end(), {
      {"gemm_integer", "u8/s8", qgemm},
      {"gemm_integer_batched", "u8/s8", qgemm},
      {"qlinear_gemm", "u8/s8", qgemm},
      {"gemm_integer_to_f32", "u8/s8", qgemm},
      {"dynamic_quantize_linear", "f32", t.quantize != nullptr && t.quantize->range != nullptr},
  });
  // Half-precision storage: the conversions each way.
  const bool f16 = t.half != nullptr && t.half->f32_to_f16 != nullptr && t.half->f16_to_f32 != nullptr;
  const bool bf16 = t.half != nullptr && t.half->f32_to_bf16 != nullptr && t.half->bf16_to_f32 != nullptr;
  entries.insert(entries.end(), {{"convert", "f32<->f16", f16}, {"convert", "f32<->bf16", bf16}});
  // gemv of a half-format A: the level's kernels, or (naive family) the
  // naive conversion and f32 gemv.
  const bool naive_half_gemv = t.blas1->f32.naive_gemv != nullptr;
  entries.insert(entries.end(),
                 {{"gemv", "f16 A", f16 && ((t.blas1->f16.rows != nullptr && t.blas1->f16.cols != nullptr) || naive_half_gemv)},
                  {"gemv", "bf16 A", bf16 && ((t.blas1->bf16.rows != nullptr && t.blas1->bf16.cols != nullptr) || naive_half_gemv)},
                  {"dot", "f16", f16 && (t.blas1->f16.dot != nullptr || t.blas1->f32.naive_dot != nullptr)},
                  {"dot", "bf16", bf16 && (t.blas1->bf16.dot != nullptr || t.blas1->f32.naive_dot != nullptr)}});
  // GEMM on half operands: exact mode is the f32 GEMM (its packing widens),
  // so it runs where the f32 GEMM and the conversions do; bf16 fast mode is
  // the level's pair-dot set, runnable where the CPU also has the feature
  // it needs; f16 fast mode has no kernel on any level.
  const bool sgemm = t.gemm.f32 != nullptr || t.gemm.naive_f32 != nullptr;
  entries.insert(entries.end(), {{"gemm_half", "f16 exact", f16 && sgemm},
                                 {"gemm_half", "bf16 exact", bf16 && sgemm},
                                 {"gemm_half", "bf16 fast", t.gemm.bf16_pairs != nullptr,
                                  t.gemm.bf16_pairs_needs}});
  return entries;
}

}  // namespace

std::vector<KernelRecord> kernel_inventory(const Context& context) {
  const core::KernelTable* selected =
      context.state() != nullptr ? context.state()->table : nullptr;
  std::vector<KernelRecord> records;
  const platform::CpuFeatures& cpu = platform::cpu_features();
  for (const core::KernelTable* table : core::registered_tables()) {
    for (const Entry& e : entries_of(*table)) {
      if (!e.present) continue;
      records.push_back({e.op, e.dtype, table->family, table->isa,
                         core::table_runnable(*table, cpu) && (e.needs == nullptr || cpu.*e.needs),
                         table == selected});
    }
  }
  return records;
}

}  // namespace tessera
