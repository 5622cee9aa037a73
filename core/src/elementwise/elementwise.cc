// Elementwise drivers: validate, then split [0, n) with execute_ranges and
// call the context's kernel on each block.
#include "tessera/elementwise.hpp"

#include "core/src/api/context_state.hpp"
#include "core/src/api/validate.hpp"
#include "core/src/parallel/execute_ranges.hpp"

namespace tessera {
namespace {

// 16 Ki floats (64 KiB per operand) per block at least: below that a
// fork/join costs more than the streaming work it would share. Blocks are
// cut at multiples of 64 elements (a 256-byte line pair, every SIMD width)
// so no vector straddles two workers.
constexpr core::RangeSchedule kStreamingSchedule = {16 * 1024, 64, 0, 0};

Status check_lengths(std::size_t n, std::size_t other, const char* name) {
  if (other != n) {
    return Status::invalid_argument(
        std::string(name) + " has " + std::to_string(other) +
        " elements but the first input has " + std::to_string(n));
  }
  return {};
}

Status binary(const Context& context, std::span<const float> a,
              std::span<const float> b, std::span<float> out,
              core::BinaryF32Fn core::ElementwiseKernels::*entry) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  const std::size_t n = a.size();
  TESSERA_RETURN_IF_ERROR(check_lengths(n, b.size(), "b"));
  TESSERA_RETURN_IF_ERROR(check_lengths(n, out.size(), "out"));
  TESSERA_RETURN_IF_ERROR(core::check_pointer(a.data(), n, "a"));
  TESSERA_RETURN_IF_ERROR(core::check_pointer(b.data(), n, "b"));
  TESSERA_RETURN_IF_ERROR(core::check_pointer(out.data(), n, "out"));
  const std::size_t bytes = n * sizeof(float);
  TESSERA_RETURN_IF_ERROR(
      core::check_in_place_or_disjoint(a.data(), out.data(), bytes, "a", "out"));
  TESSERA_RETURN_IF_ERROR(
      core::check_in_place_or_disjoint(b.data(), out.data(), bytes, "b", "out"));

  const core::BinaryF32Fn fn = state->table->elementwise.*entry;
  if (fn == nullptr) return Status::internal("kernel table has no entry");
  core::execute_ranges(state->range_target(), n, kStreamingSchedule,
                       [&](std::size_t begin, std::size_t end) {
                         fn(a.data() + begin, b.data() + begin,
                            out.data() + begin, end - begin);
                       });
  return {};
}

}  // namespace

Status try_add(const Context& context, std::span<const float> a,
               std::span<const float> b, std::span<float> out) {
  return binary(context, a, b, out, &core::ElementwiseKernels::add_f32);
}

Status try_mul(const Context& context, std::span<const float> a,
               std::span<const float> b, std::span<float> out) {
  return binary(context, a, b, out, &core::ElementwiseKernels::mul_f32);
}

Status try_relu(const Context& context, std::span<const float> x,
                std::span<float> out) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  const std::size_t n = x.size();
  TESSERA_RETURN_IF_ERROR(check_lengths(n, out.size(), "out"));
  TESSERA_RETURN_IF_ERROR(core::check_pointer(x.data(), n, "x"));
  TESSERA_RETURN_IF_ERROR(core::check_pointer(out.data(), n, "out"));
  TESSERA_RETURN_IF_ERROR(core::check_in_place_or_disjoint(
      x.data(), out.data(), n * sizeof(float), "x", "out"));
  const core::UnaryF32Fn fn = state->table->elementwise.relu_f32;
  core::execute_ranges(state->range_target(), n, kStreamingSchedule,
                       [&](std::size_t begin, std::size_t end) {
                         fn(x.data() + begin, out.data() + begin, end - begin);
                       });
  return {};
}

}  // namespace tessera
