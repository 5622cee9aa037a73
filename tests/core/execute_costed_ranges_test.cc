// execute_costed_ranges (design.md §execute_ranges): grain and participants
// planned from a per-unit cost; the same execution path and contract as
// execute_ranges.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/src/parallel/execute_ranges.hpp"
#include "support/test_support.hpp"
#include "tessera/platform/executor.hpp"

namespace tessera::core {
namespace {

TEST_CASE("cost model: cycles per unit from bytes read, bytes written and compute") {
  CHECK(range_unit_cycles({4, 4, 1, 1}) == doctest::Approx(0.3 * 4 + 0.6 * 4 + 1));
  CHECK(range_unit_cycles({0, 0, 100, 1}) == doctest::Approx(100));
  // Zero, negative and NaN costs are treated as nearly free, never as 0.
  CHECK(range_unit_cycles({}) > 0);
  CHECK(range_unit_cycles({-5, 0, 0, 1}) > 0);
  CHECK(range_unit_cycles({std::nan(""), 0, 0, 1}) > 0);
}

TEST_CASE("plan: work worth less than two minimum blocks is one serial block") {
  const RangeCost cost{8, 4, 0, 1};  // 4.8 cycles per unit
  const double unit = range_unit_cycles(cost);
  const auto small = static_cast<std::size_t>(2 * kMinBlockCycles / unit) - 1;
  CHECK(plan_costed_ranges(small, cost, 8, 0).blocks == 1);
  CHECK(plan_costed_ranges(0, cost, 8, 0).blocks == 0);
  // A free operation on a million units is still tiny.
  CHECK(plan_costed_ranges(1'000'000, RangeCost{}, 8, 0).blocks == 1);
}

TEST_CASE("plan: every block carries at least the minimum work, at most one per participant") {
  for (double compute : {0.0, 1.0, 10.0, 1000.0}) {
    const RangeCost cost{4, 4, compute, 1};
    const double unit = range_unit_cycles(cost);
    for (std::size_t total : {1000u, 100'000u, 10'000'000u}) {
      for (int width : {2, 3, 8, 64}) {
        const RangePlan plan = plan_costed_ranges(total, cost, width, 0);
        CHECK(plan.blocks <= width);
        if (plan.blocks > 1) {
          CHECK(static_cast<double>(plan.block_size) * unit >= kMinBlockCycles);
          CHECK(plan.block_size * static_cast<std::size_t>(plan.blocks - 1) < total);
          CHECK(plan.block_size * static_cast<std::size_t>(plan.blocks) >= total);
        }
      }
    }
  }
}

TEST_CASE("plan: large work uses every participant") {
  const RangeCost cost{4, 4, 2, 1};
  CHECK(plan_costed_ranges(10'000'000, cost, 8, 0).blocks == 8);
  CHECK(plan_costed_ranges(10'000'000, cost, 2, 0).blocks == 2);
}

TEST_CASE("plan: block boundaries are multiples of block_multiple") {
  const RangeCost cost{4, 4, 50, 16};
  const RangePlan plan = plan_costed_ranges(1'000'003, cost, 3, 0);
  REQUIRE(plan.blocks > 1);
  CHECK(plan.block_size % 16 == 0);
}

TEST_CASE("plan: nested or width 1 is one block") {
  const RangeCost cost{4, 4, 100, 1};
  CHECK(plan_costed_ranges(10'000'000, cost, 8, 1).blocks == 1);
  CHECK(plan_costed_ranges(10'000'000, cost, 1, 0).blocks == 1);
}

TEST_CASE("execute: every index covered exactly once on any width") {
  const RangeCost cost{4, 4, 100, 8};
  for (int width : {1, 2, 3, 4, 7, 8}) {
    for (std::size_t total : {0u, 1u, 100u, 5000u, 100'001u}) {
      test::ReverseSerialExecutor executor(width);
      std::vector<int> hits(total, 0);
      execute_costed_ranges({&executor, width}, total, cost, [&](std::size_t b, std::size_t e) {
        CHECK(b < e);
        CHECK(platform::parallel_body_depth() == 1);
        for (std::size_t i = b; i < e; ++i) ++hits[i];
      });
      CHECK(hits == std::vector<int>(total, 1));
      if (total == 100'001u && width > 1) CHECK(executor.runs() == 1);
    }
  }
}

TEST_CASE("execute: nested calls and calls without an executor are one block") {
  const RangeCost cost{4, 4, 100, 1};
  int calls = 0;
  execute_costed_ranges({}, 1'000'000, cost, [&](std::size_t b, std::size_t e) {
    ++calls;
    CHECK(b == 0);
    CHECK(e == 1'000'000u);
  });
  CHECK(calls == 1);

  test::ReverseSerialExecutor executor(4);
  const RangeTarget target{&executor, 4};
  int inner = 0;
  execute_costed_ranges(target, 1'000'000, cost, [&](std::size_t, std::size_t) {
    execute_costed_ranges(target, 1'000'000, cost, [&](std::size_t b, std::size_t e) {
      ++inner;
      CHECK(b == 0);
      CHECK(e == 1'000'000u);
    });
  });
  CHECK(inner == 4);
}

}  // namespace
}  // namespace tessera::core
