// Elementwise drivers: validate, then split the flat output [0, rows*cols)
// with execute_ranges and call the context's kernels on each block. A block
// of a broadcasting op is walked row segment by row segment; each segment is
// one kernel call of the form its operands need (vector ⊙ vector, vector ⊙
// scalar, scalar ⊙ vector). Every element is one fixed operation, so where
// the blocks fall never changes a bit.
#include "tessera/elementwise.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "core/src/base/context_state.hpp"
#include "core/src/base/validate.hpp"
#include "core/src/parallel/execute_ranges.hpp"

namespace tessera {
namespace {

// 16 Ki elements (64 or 128 KiB per operand) per block at least: below that
// a fork/join costs more than the streaming work it would share. Blocks are
// cut at multiples of 64 elements (every SIMD width, whole cache lines) so
// no vector straddles two workers.
constexpr core::RangeSchedule kStreamingSchedule = {16 * 1024, 64, 0, 0};

// block(begin, end) over [0, n) on the context's range target, or called
// once directly when the schedule gives one block at any width (a small
// call then skips the executor's bookkeeping).
template <class Block>
void run_streaming(const detail::ContextState& state, std::size_t n, Block&& block) {
  if (core::always_one_block(n, kStreamingSchedule)) {
    block(std::size_t{0}, n);
  } else {
    core::execute_ranges(state.range_target(), n, kStreamingSchedule, block);
  }
}

template <class T>
const core::ElementwiseOps<T>& ops_of(const core::KernelTable& table) {
  if constexpr (sizeof(T) == 4) {
    return table.elementwise->f32;
  } else {
    return table.elementwise->f64;
  }
}

const char* shape_name(Broadcast shape) {
  switch (shape) {
    case Broadcast::kFull: return "full";
    case Broadcast::kRow: return "row";
    case Broadcast::kColumn: return "column";
    case Broadcast::kScalar: return "scalar";
  }
  return "?";
}

std::string extent_text(Extent e) {
  return std::to_string(e.rows) + " x " + std::to_string(e.cols);
}

// The element count a `shape` operand of an `e` output (n elements) has in
// *need; false for a value that is no Broadcast.
inline bool needed_elements(Broadcast shape, Extent e, std::size_t n, std::size_t* need) {
  switch (shape) {
    case Broadcast::kFull:
      *need = n;
      return true;
    case Broadcast::kRow:
      *need = e.cols;
      return true;
    case Broadcast::kColumn:
      *need = e.rows;
      return true;
    case Broadcast::kScalar:
      *need = 1;
      return true;
  }
  return false;
}

// needed_elements, or an error naming `name`.
Status operand_size(Broadcast shape, Extent e, std::size_t n, const char* name, std::size_t* out) {
  if (needed_elements(shape, e, n, out)) return {};
  return Status::invalid_argument(std::string(name) + " has an unknown broadcast shape (" +
                                  std::to_string(static_cast<int>(shape)) + ")");
}

template <class T>
Status check_operand(const Operand<T>& x, Extent e, std::size_t n, const char* name,
                     const T* out) {
  std::size_t need = 0;
  TESSERA_RETURN_IF_ERROR(operand_size(x.shape, e, n, name, &need));
  if (x.data.size() != need) {
    return Status::invalid_argument(
        std::string(name) + " has " + std::to_string(x.data.size()) + " elements but a " +
        shape_name(x.shape) + " operand of a " + extent_text(e) + " output needs " +
        std::to_string(need));
  }
  TESSERA_RETURN_IF_ERROR(core::check_pointer(x.data.data(), need, name));
  if (x.shape == Broadcast::kFull) {
    return core::check_in_place_or_disjoint(x.data.data(), out, n * sizeof(T), name, "out");
  }
  // A broadcast operand is read again for later rows: writing over it
  // would change the inputs of elements not yet computed.
  if (core::ranges_overlap(x.data.data(), need * sizeof(T), out, n * sizeof(T))) {
    return Status::invalid_argument(std::string("out overlaps ") + name + ", a " +
                                    shape_name(x.shape) +
                                    " (broadcast) operand: it must not overlap out at all");
  }
  return {};
}

// Where row r's elements [c0, c0 + len) of one operand come from: a pointer
// to len elements, or one value.
template <class T>
struct RowSource {
  const T* p = nullptr;  // null: use `s`
  T s{};
};

template <class T>
RowSource<T> row_source(const Operand<T>& x, std::size_t cols, std::size_t r, std::size_t c0) {
  const T* d = x.data.data();
  switch (x.shape) {
    case Broadcast::kFull: return {d + r * cols + c0, T{}};
    case Broadcast::kRow: return {d + c0, T{}};
    case Broadcast::kColumn: return {nullptr, d[r]};
    case Broadcast::kScalar: return {nullptr, d[0]};
  }
  return {};
}

template <class T>
void segment(const core::ElementwiseOps<T>& k, int op, RowSource<T> a, RowSource<T> b, T* y,
             std::size_t len) {
  if (a.p != nullptr && b.p != nullptr) {
    k.binary[op](a.p, b.p, y, len);
  } else if (a.p != nullptr) {
    k.binary_scalar_rhs[op](a.p, b.s, y, len);
  } else if (b.p != nullptr) {
    k.binary_scalar_lhs[op](a.s, b.p, y, len);
  } else {
    // Both scalar: one value for the segment, computed by the same kernel.
    k.binary_scalar_rhs[op](&a.s, b.s, y, 1);
    std::fill(y + 1, y + len, y[0]);
  }
}

// check_operand as integer tests: true when it would pass.
template <class T>
TESSERA_QUICK_INLINE inline bool quick_operand(const Operand<T>& x, Extent e, std::size_t n,
                                               const T* out) {
  std::size_t need;
  if (!needed_elements(x.shape, e, n, &need) || x.data.size() != need ||
      (need != 0 && x.data.data() == nullptr)) {
    return false;
  }
  if (x.shape == Broadcast::kFull && x.data.data() == out) return true;  // exactly in place
  return !core::ranges_overlap(x.data.data(), need * sizeof(T), out, n * sizeof(T));
}

// Every check of binary() below as integer tests: true when they would all
// pass (the named checks run only when this says no). Rows and columns
// below 2^20 and an output of at most half the address space in bytes, so
// no size computed here overflows, on wasm32 either.
template <class T>
TESSERA_QUICK_INLINE inline bool quick_valid_binary(int op, Extent e, const Operand<T>& a,
                                                    const Operand<T>& b, std::span<T> out) {
  if (op < 0 || op >= kBinaryOpCount || e.rows >= core::kQuickDimLimit ||
      e.cols >= core::kQuickDimLimit ||
      std::uint64_t{e.rows} * e.cols > std::numeric_limits<std::size_t>::max() / 2 / sizeof(T)) {
    return false;
  }
  const std::size_t n = e.rows * e.cols;
  return out.size() == n && (n == 0 || out.data() != nullptr) &&
         quick_operand(a, e, n, out.data()) && quick_operand(b, e, n, out.data());
}

// Every call that binary()'s small-call path does not take: the named
// checks, broadcasting and blocks over workers. Out of line, so that the
// small path's frame holds none of the message formatting.
template <class T>
[[gnu::noinline]] Status binary_general(const Context& context, BinaryOp op, Extent e,
                                        Operand<T> a, Operand<T> b, std::span<T> out) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  const int index = static_cast<int>(op);
  if (!quick_valid_binary(index, e, a, b, out)) {
    if (index < 0 || index >= kBinaryOpCount) {
      return Status::invalid_argument("op is not a binary operation (" + std::to_string(index) +
                                      ")");
    }
    if (e.cols != 0 && e.rows > std::numeric_limits<std::size_t>::max() / sizeof(T) / e.cols) {
      return Status::invalid_argument("extent " + extent_text(e) + " is too large");
    }
    const std::size_t n = e.rows * e.cols;
    if (out.size() != n) {
      return Status::invalid_argument("out has " + std::to_string(out.size()) +
                                      " elements but the " + extent_text(e) + " output needs " +
                                      std::to_string(n));
    }
    TESSERA_RETURN_IF_ERROR(core::check_pointer(out.data(), n, "out"));
    TESSERA_RETURN_IF_ERROR(check_operand(a, e, n, "a", out.data()));
    TESSERA_RETURN_IF_ERROR(check_operand(b, e, n, "b", out.data()));
  }
  const std::size_t n = e.rows * e.cols;
  if (n == 0) return {};

  const core::ElementwiseOps<T>& k = ops_of<T>(*state->table);
  if (k.binary[index] == nullptr || k.binary_scalar_rhs[index] == nullptr ||
      k.binary_scalar_lhs[index] == nullptr) {
    return Status::internal(std::string("kernel table has no ") + binary_op_name(op));
  }
  T* y = out.data();
  // Two whole operands in one block (every small call): the kernel on the
  // caller's spans, without the row walk below.
  if (a.shape == Broadcast::kFull && b.shape == Broadcast::kFull &&
      core::always_one_block(n, kStreamingSchedule)) {
    k.binary[index](a.data.data(), b.data.data(), y, n);
    return {};
  }
  const std::size_t cols = e.cols;
  auto block = [&](std::size_t begin, std::size_t end) {
    std::size_t r = begin / cols, c0 = begin % cols, pos = begin;
    while (pos < end) {
      const std::size_t len = std::min(cols - c0, end - pos);
      segment(k, index, row_source(a, cols, r, c0), row_source(b, cols, r, c0), y + pos, len);
      pos += len;
      ++r;
      c0 = 0;
    }
  };
  run_streaming(*state, n, block);
  return {};
}

// The small call (issue 41): two whole operands that one block covers,
// every check passed as integer tests, a context with its state: the
// kernel on the caller's spans. Anything else, errors included, is
// binary_general's.
template <class T>
Status binary(const Context& context, BinaryOp op, Extent e, Operand<T> a, Operand<T> b,
              std::span<T> out) {
  const int index = static_cast<int>(op);
  const detail::ContextState* state = context.state();
  if (state != nullptr && a.shape == Broadcast::kFull && b.shape == Broadcast::kFull &&
      quick_valid_binary(index, e, a, b, out)) {
    const std::size_t n = e.rows * e.cols;
    const core::BinaryFn<T> fn = ops_of<T>(*state->table).binary[index];
    if (n != 0 && fn != nullptr && core::always_one_block(n, kStreamingSchedule)) {
      fn(a.data.data(), b.data.data(), out.data(), n);
      return {};
    }
  }
  return binary_general(context, op, e, a, b, out);
}

// The same-shape form: the small call's test on three spans, else the
// general path on a 1 x n extent of two full operands (which names b or out
// on a length mismatch, as the extent is a's).
template <class T>
Status binary_same_shape(const Context& context, BinaryOp op, std::span<const T> a,
                         std::span<const T> b, std::span<T> out) {
  const int index = static_cast<int>(op);
  const detail::ContextState* state = context.state();
  const std::size_t n = a.size();
  if (state != nullptr && index >= 0 && index < kBinaryOpCount && n != 0 && b.size() == n &&
      out.size() == n && core::always_one_block(n, kStreamingSchedule) && a.data() != nullptr &&
      b.data() != nullptr && out.data() != nullptr &&
      (a.data() == out.data() ||
       !core::ranges_overlap(a.data(), n * sizeof(T), out.data(), n * sizeof(T))) &&
      (b.data() == out.data() ||
       !core::ranges_overlap(b.data(), n * sizeof(T), out.data(), n * sizeof(T)))) {
    const core::BinaryFn<T> fn = ops_of<T>(*state->table).binary[index];
    if (fn != nullptr) {
      fn(a.data(), b.data(), out.data(), n);
      return {};
    }
  }
  return binary_general(context, op, Extent{1, n}, Operand<T>{a, Broadcast::kFull},
                        Operand<T>{b, Broadcast::kFull}, out);
}

template <class T>
[[gnu::noinline]] Status unary_general(const Context& context, UnaryOp op, std::span<const T> x,
                                       std::span<T> out) {
  const detail::ContextState* state = nullptr;
  TESSERA_RETURN_IF_ERROR(detail::context_state(context, &state));
  const int index = static_cast<int>(op);
  if (index < 0 || index >= kUnaryOpCount) {
    return Status::invalid_argument("op is not a unary operation (" + std::to_string(index) +
                                    ")");
  }
  const std::size_t n = x.size();
  // The checks below as integer tests first; the named ones run when they fail.
  const bool quick = out.size() == n &&
                     n <= std::numeric_limits<std::size_t>::max() / 2 / sizeof(T) &&
                     (n == 0 || (x.data() != nullptr && out.data() != nullptr)) &&
                     (x.data() == out.data() ||
                      !core::ranges_overlap(x.data(), n * sizeof(T), out.data(), n * sizeof(T)));
  if (!quick) {
    if (out.size() != n) {
      return Status::invalid_argument("out has " + std::to_string(out.size()) +
                                      " elements but x has " + std::to_string(n));
    }
    TESSERA_RETURN_IF_ERROR(core::check_pointer(x.data(), n, "x"));
    TESSERA_RETURN_IF_ERROR(core::check_pointer(out.data(), n, "out"));
    TESSERA_RETURN_IF_ERROR(
        core::check_in_place_or_disjoint(x.data(), out.data(), n * sizeof(T), "x", "out"));
  }
  if (n == 0) return {};
  const core::UnaryFn<T> fn = ops_of<T>(*state->table).unary[index];
  if (fn == nullptr) return Status::internal(std::string("kernel table has no ") + unary_op_name(op));
  run_streaming(*state, n, [&](std::size_t begin, std::size_t end) {
    fn(x.data() + begin, out.data() + begin, end - begin);
  });
  return {};
}

// The small call: the same checks as integer tests, one block, the kernel
// on the caller's spans; anything else is unary_general's.
template <class T>
Status unary(const Context& context, UnaryOp op, std::span<const T> x, std::span<T> out) {
  const int index = static_cast<int>(op);
  const detail::ContextState* state = context.state();
  const std::size_t n = x.size();
  if (state != nullptr && index >= 0 && index < kUnaryOpCount && n != 0 && out.size() == n &&
      core::always_one_block(n, kStreamingSchedule) && x.data() != nullptr &&
      out.data() != nullptr &&
      (x.data() == out.data() ||
       !core::ranges_overlap(x.data(), n * sizeof(T), out.data(), n * sizeof(T)))) {
    const core::UnaryFn<T> fn = ops_of<T>(*state->table).unary[index];
    if (fn != nullptr) {
      fn(x.data(), out.data(), n);
      return {};
    }
  }
  return unary_general(context, op, x, out);
}

}  // namespace

const char* binary_op_name(BinaryOp op) noexcept {
  switch (op) {
#define TESSERA_NAME_(name, id) \
  case BinaryOp::id: return #name;
    TESSERA_ELEMENTWISE_BINARY_OPS(TESSERA_NAME_)
#undef TESSERA_NAME_
  }
  return "?";
}

const char* unary_op_name(UnaryOp op) noexcept {
  switch (op) {
#define TESSERA_NAME_(name, id) \
  case UnaryOp::id: return #name;
    TESSERA_ELEMENTWISE_UNARY_OPS(TESSERA_NAME_)
#undef TESSERA_NAME_
  }
  return "?";
}

Status try_binary(const Context& context, BinaryOp op, Extent extent, Operand<float> a,
                  Operand<float> b, std::span<float> out) {
  return binary(context, op, extent, a, b, out);
}
Status try_binary(const Context& context, BinaryOp op, Extent extent, Operand<double> a,
                  Operand<double> b, std::span<double> out) {
  return binary(context, op, extent, a, b, out);
}
Status try_binary(const Context& context, BinaryOp op, std::span<const float> a,
                  std::span<const float> b, std::span<float> out) {
  return binary_same_shape(context, op, a, b, out);
}
Status try_binary(const Context& context, BinaryOp op, std::span<const double> a,
                  std::span<const double> b, std::span<double> out) {
  return binary_same_shape(context, op, a, b, out);
}
Status try_unary(const Context& context, UnaryOp op, std::span<const float> x,
                 std::span<float> out) {
  return unary(context, op, x, out);
}
Status try_unary(const Context& context, UnaryOp op, std::span<const double> x,
                 std::span<double> out) {
  return unary(context, op, x, out);
}

}  // namespace tessera
