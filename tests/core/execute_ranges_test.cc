// execute_ranges (design.md §execute_ranges): planning rules and the execution
// contract.
#include <doctest/doctest.h>

#include <vector>

#include "core/src/parallel/execute_ranges.hpp"
#include "support/test_support.hpp"
#include "tessera/platform/executor.hpp"
#include "tessera/platform/serial_executor.hpp"

namespace tessera::core {
namespace {

TEST_CASE("plan: an empty total has no blocks") {
  CHECK(plan_ranges(0, {}, 8, 0).blocks == 0);
}

TEST_CASE("plan: a total at or below min_block is one serial block") {
  const RangeSchedule s{100, 1, 0, 0};
  CHECK(plan_ranges(100, s, 8, 0).blocks == 1);
  CHECK(plan_ranges(101, s, 8, 0).blocks == 1);  // 101/100 = 1 piece
  CHECK(plan_ranges(200, s, 8, 0).blocks == 2);
}

TEST_CASE("always_one_block says one block exactly when plan_ranges gives at most one") {
  // Over totals around multiples of min_block, schedules with and without
  // limits, every width and depth: the shortcut's callers skip the
  // executor when it says yes, so it must never say yes to a split, and it
  // says no as soon as some width would split (two min_block pieces).
  for (const RangeSchedule s :
       {RangeSchedule{100, 1, 0, 0}, RangeSchedule{16 * 1024, 64, 0, 0}, RangeSchedule{0, 1, 0, 0},
        RangeSchedule{1, 1, 2, 0}, RangeSchedule{64, 64, 0, 3}}) {
    const std::size_t piece = s.min_block > 1 ? s.min_block : 1;
    for (std::size_t k = 0; k <= 4; ++k) {
      for (std::size_t total : {k * piece, k * piece + 1, k * piece + piece - 1}) {
        bool some_width_splits = false;
        for (int width = 1; width <= 8; ++width) {
          for (int depth = 0; depth <= 1; ++depth) {
            const int blocks = plan_ranges(total, s, width, depth).blocks;
            if (always_one_block(total, s)) CHECK(blocks <= 1);
            some_width_splits = some_width_splits || blocks > 1;
          }
        }
        CHECK(always_one_block(total, s) == !some_width_splits);
      }
    }
  }
}

TEST_CASE("plan: width 1 (serial executor or none) is one block") {
  CHECK(plan_ranges(1 << 20, {1, 1, 0, 0}, 1, 0).blocks == 1);
}

TEST_CASE("plan: nested (depth > 0) is one block") {
  CHECK(plan_ranges(1 << 20, {1, 1, 0, 0}, 8, 1).blocks == 1);
}

TEST_CASE("plan: blocks limited by width, participant limit and preference") {
  CHECK(plan_ranges(1000, {1, 1, 0, 0}, 8, 0).blocks == 8);
  CHECK(plan_ranges(1000, {1, 1, 3, 0}, 8, 0).blocks == 3);
  CHECK(plan_ranges(1000, {1, 1, 0, 2}, 8, 0).blocks == 2);
  CHECK(plan_ranges(1000, {1, 1, 6, 4}, 8, 0).blocks == 4);
}

TEST_CASE("plan: block boundaries are multiples of block_multiple") {
  const RangePlan plan = plan_ranges(1000, {1, 64, 0, 0}, 3, 0);
  CHECK(plan.block_size % 64 == 0);
  CHECK(plan.block_size * (plan.blocks - 1) < 1000);
  CHECK(plan.block_size * plan.blocks >= 1000);
}

TEST_CASE("execute: every index covered exactly once, on any width") {
  for (int width : {1, 2, 3, 4, 7, 8}) {
    for (std::size_t total : {0u, 1u, 5u, 64u, 1000u, 4097u}) {
      test::ReverseSerialExecutor executor(width);
      std::vector<int> hits(total, 0);
      execute_ranges({&executor, width}, total, {1, 8, 0, 0}, [&](std::size_t b, std::size_t e) {
        CHECK(b < e);
        for (std::size_t i = b; i < e; ++i) ++hits[i];
      });
      CHECK(hits == std::vector<int>(total, 1));
    }
  }
}

TEST_CASE("execute: without an executor the call is serial") {
  int calls = 0;
  execute_ranges({nullptr, 8}, 1 << 16, {1, 1, 0, 0}, [&](std::size_t b, std::size_t e) {
    ++calls;
    CHECK(b == 0);
    CHECK(e == (1u << 16));
  });
  CHECK(calls == 1);
}

TEST_CASE("execute: callbacks run inside a region; nested calls are one block") {
  test::ReverseSerialExecutor executor(4);
  const RangeTarget target{&executor, 4};
  int inner_calls = 0;
  execute_ranges(target, 4000, {1, 1, 0, 0}, [&](std::size_t, std::size_t) {
    CHECK(platform::parallel_body_depth() == 1);
    execute_ranges(target, 4000, {1, 1, 0, 0}, [&](std::size_t b, std::size_t e) {
      CHECK(platform::parallel_body_depth() == 2);
      CHECK(b == 0);
      CHECK(e == 4000);
      ++inner_calls;
    });
  });
  CHECK(inner_calls == 4);
  CHECK(executor.runs() == 1);
  CHECK(platform::parallel_body_depth() == 0);
}

TEST_CASE("execute: a nested target is one block even outside any region") {
  test::ReverseSerialExecutor executor(4);
  int calls = 0;
  execute_ranges({&executor, 4, /*nested=*/true}, 4000, {1, 1, 0, 0},
                 [&](std::size_t b, std::size_t e) {
                   CHECK(b == 0);
                   CHECK(e == 4000);
                   ++calls;
                 });
  CHECK(calls == 1);
  CHECK(executor.runs() == 0);
}

TEST_CASE("serial executor runs every participant in order on the caller") {
  std::vector<int> order;
  platform::serial_executor().run(3, [&](int p) { order.push_back(p); });
  CHECK(order == std::vector<int>{0, 1, 2});
  CHECK(platform::serial_executor().width() == 1);
}

}  // namespace
}  // namespace tessera::core
