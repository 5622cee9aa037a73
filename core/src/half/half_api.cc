// f32 <-> f16 / bf16 conversions (tessera/half.hpp): validate, then the
// context's kernels over blocks on the bandwidth resolver's workers. Each
// output is a function of its input alone, so the blocks never change a bit.
#include "tessera/half.hpp"

#include <algorithm>
#include <string>

#include "core/src/base/bandwidth_split.hpp"
#include "core/src/base/context_state.hpp"
#include "core/src/base/validate.hpp"
#include "core/src/simd/half_bits.hpp"

namespace tessera {
namespace {

// Elements per block: what one worker claims at a time (a multiple of
// every level's register width).
constexpr std::size_t kBlock = 16384;

template <class From, class To, class Kernel>
Status convert(const Context& context, std::span<const From> x, std::span<To> y,
               Parallelism parallelism, Kernel kernel_of) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  TESSERA_RETURN_IF_ERROR(core::check_parallelism(parallelism));
  TESSERA_RETURN_IF_ERROR(core::check_map_operands(x.data(), x.size(), sizeof(From), y.data(),
                                                    y.size(), sizeof(To)));
  const std::size_t n = x.size();
  const auto kernel = kernel_of(*state->table->half);
  const auto* in = reinterpret_cast<const typename decltype(kernel_of)::In*>(x.data());
  auto* out = reinterpret_cast<typename decltype(kernel_of)::Out*>(y.data());
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  const core::BandwidthPlan plan = core::plan_bandwidth_workers(
      *state, n * (sizeof(From) + sizeof(To)), blocks, parallelism);
  core::run_bandwidth_split(*state, plan.workers, blocks, 1, [&](std::size_t b0, std::size_t b1) {
    const std::size_t at = b0 * kBlock;
    kernel(in + at, out + at, std::min(b1 * kBlock, n) - at);
  });
  return {};
}

// Which entry of the table, and its element types as the kernels see them.
struct Narrow {
  using In = float;
  using Out = std::uint16_t;
  core::NarrowFn core::HalfKernels::*entry;
  core::NarrowFn operator()(const core::HalfKernels& k) const { return k.*entry; }
};
struct Widen {
  using In = std::uint16_t;
  using Out = float;
  core::WidenFn core::HalfKernels::*entry;
  core::WidenFn operator()(const core::HalfKernels& k) const { return k.*entry; }
};

}  // namespace

f16 to_f16(float x) noexcept { return {half::f32_to_f16_bits(half::bits_of(x))}; }
bf16 to_bf16(float x) noexcept {
  return {half::f32_to_bf16_bits(half::bits_of(x))};
}
float to_float(f16 x) noexcept { return half::float_of(half::f16_to_f32_bits(x.bits)); }
float to_float(bf16 x) noexcept { return half::float_of(half::bf16_to_f32_bits(x.bits)); }

Status try_convert(const Context& context, std::span<const float> x, std::span<f16> y,
                   Parallelism parallelism) {
  return convert(context, x, y, parallelism, Narrow{&core::HalfKernels::f32_to_f16});
}
Status try_convert(const Context& context, std::span<const f16> x, std::span<float> y,
                   Parallelism parallelism) {
  return convert(context, x, y, parallelism, Widen{&core::HalfKernels::f16_to_f32});
}
Status try_convert(const Context& context, std::span<const float> x, std::span<bf16> y,
                   Parallelism parallelism) {
  return convert(context, x, y, parallelism, Narrow{&core::HalfKernels::f32_to_bf16});
}
Status try_convert(const Context& context, std::span<const bf16> x, std::span<float> y,
                   Parallelism parallelism) {
  return convert(context, x, y, parallelism, Widen{&core::HalfKernels::bf16_to_f32});
}

}  // namespace tessera
