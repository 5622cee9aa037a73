// DynamicQuantizeLinear (tessera/quantized.hpp): validate, find x's range
// in fixed blocks (the block minima and maxima combined in block order:
// exact, so the worker count never matters), form the scale and zero point
// as onnxruntime does, then quantize the blocks. Bandwidth-bound: the
// bandwidth resolver picks the workers (design.md §Bandwidth resolver).
#include <algorithm>
#include <string>
#include <vector>

#include "core/src/base/bandwidth_split.hpp"
#include "core/src/base/context_state.hpp"
#include "core/src/base/validate.hpp"
#include "tessera/quantized.hpp"

namespace tessera {
namespace {

// Elements per block of the range pass: what one worker claims at a time.
constexpr std::size_t kRangeBlock = 16384;

}  // namespace

Status try_dynamic_quantize_linear(const Context& context, std::span<const float> x,
                                   std::span<std::uint8_t> y, float* scale,
                                   std::uint8_t* zero_point, Parallelism parallelism) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(parallelism));
  TESSERA_RETURN_IF_ERROR(
      core::check_map_operands(x.data(), x.size(), sizeof(float), y.data(), y.size(), 1));
  if (scale == nullptr) return Status::invalid_argument("scale is null");
  if (zero_point == nullptr) return Status::invalid_argument("zero_point is null");
  const std::size_t n = x.size();
  if (core::ranges_overlap(x.data(), n * sizeof(float), scale, sizeof(float)) ||
      core::ranges_overlap(y.data(), n, scale, sizeof(float))) {
    return Status::invalid_argument("scale overlaps x or y");
  }
  if (core::ranges_overlap(x.data(), n * sizeof(float), zero_point, 1) ||
      core::ranges_overlap(y.data(), n, zero_point, 1)) {
    return Status::invalid_argument("zero_point overlaps x or y");
  }
  const core::QuantizeKernels& k = *state->table->quantize;

  // x's range, block by block: read once (4 bytes an element).
  const std::size_t blocks = (n + kRangeBlock - 1) / kRangeBlock;
  std::vector<float> lo(blocks), hi(blocks);
  std::vector<std::size_t> bad(blocks);
  const core::BandwidthPlan range_plan =
      core::plan_bandwidth_workers(*state, n * sizeof(float), blocks, parallelism);
  core::run_bandwidth_split(*state, range_plan.workers, blocks, 1,
                            [&](std::size_t b0, std::size_t b1) {
                              for (std::size_t b = b0; b < b1; ++b) {
                                const std::size_t at = b * kRangeBlock;
                                k.range(x.data() + at, std::min(kRangeBlock, n - at), &lo[b],
                                        &hi[b], &bad[b]);
                              }
                            });
  float mn = 0.0f, mx = 0.0f;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t len = std::min(kRangeBlock, n - b * kRangeBlock);
    if (bad[b] < len) {
      const std::size_t at = b * kRangeBlock + bad[b];
      return Status::invalid_argument("x[" + std::to_string(at) + "] = " + std::to_string(x[at]) +
                                      " is not finite: DynamicQuantizeLinear needs finite values");
    }
    mn = b == 0 ? lo[b] : std::min(mn, lo[b]);
    mx = b == 0 ? hi[b] : std::max(mx, hi[b]);
  }
  // onnxruntime's GetQuantizationParameter, operation for operation: the
  // range made to include 0, scale = (max - min) / 255 (1 for an empty
  // range), zero point = round_half_even(clamp(0 - min / scale, 0, 255)).
  mn = std::min(mn, 0.0f);
  mx = std::max(mx, 0.0f);
  const float s = mx == mn ? 1.0f : (mx - mn) / 255.0f;
  const float initial = 0.0f - mn / s;
  const float clamped = std::max(0.0f, std::min(255.0f, initial));
  const auto zp = static_cast<std::int32_t>((clamped + 12582912.0f) - 12582912.0f);

  // y: 5 bytes an element.
  const core::BandwidthPlan plan =
      core::plan_bandwidth_workers(*state, n * (sizeof(float) + 1), blocks, parallelism);
  core::run_bandwidth_split(*state, plan.workers, blocks, 1, [&](std::size_t b0, std::size_t b1) {
    const std::size_t at = b0 * kRangeBlock;
    const std::size_t end = std::min(b1 * kRangeBlock, n);
    k.quantize_u8(x.data() + at, end - at, s, zp, y.data() + at);
  });
  *scale = s;
  *zero_point = static_cast<std::uint8_t>(zp);
  return {};
}

}  // namespace tessera
