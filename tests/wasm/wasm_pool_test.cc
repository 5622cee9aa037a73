// The wasm threads pool (design.md §Wasm threads pool), run under node with
// TESSERA_WASM_THREADS set by CTest to 1, 2 and 4 (tests/CMakeLists.txt): the
// default context's width follows the knob and says so, work really spreads
// over that many threads, results match the serial reference, nested and
// concurrent calls stay serial. The wasi and emscripten-st builds report 1
// thread and why.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "core/src/base/context_state.hpp"
#include "core/src/parallel/execute_ranges.hpp"
#include "support/test_support.hpp"
#include "tessera/execution.hpp"
#include "tessera/platform/build_config.h"
#include "tessera/platform/executor.hpp"
#include "wasm/src/wasm_threads_pool.hpp"

#if TESSERA_THREADS_USABLE
#include "wasm/src/wasm_thread_support.hpp"
#endif

namespace tessera {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int expected_width() {
  const char* text = std::getenv("TESSERA_WASM_THREADS");
  return text != nullptr ? std::atoi(text) : 8;
}

TEST_CASE("the resolved policy reports the wasm width and why") {
  const Context context;
  REQUIRE(context.status().ok());
  const ResolvedExecutionPolicy r = context.resolved_policy();
  if (!TESSERA_THREADS_USABLE) {
    CHECK(r.effective_threads == 1);
    CHECK(contains(r.threads_reason, "threads unusable on this target"));
    CHECK(contains(r.threads_reason, "built without threads"));
    CHECK(contains(r.to_json(), "\"effective_threads\":1"));
    // An explicit request for more resolves to 1, with a diagnostic, never a trap.
    ContextOptions options;
    options.policy.num_threads = 4;
    Context wide;
    REQUIRE(Context::create(options, &wide).ok());
    CHECK(wide.resolved_policy().effective_threads == 1);
    bool said_why = false;
    for (const std::string& f : wide.resolved_policy().fallbacks) {
      said_why = said_why || contains(f, "resolved to 1 participant");
    }
    CHECK(said_why);
    return;
  }
  CHECK(r.effective_threads == expected_width());
  CHECK(contains(r.threads_reason, "TESSERA_WASM_THREADS = " + std::to_string(expected_width())));
  CHECK(context.state()->executor->width() == expected_width());
}

#if TESSERA_THREADS_USABLE
// Runs regions until every participant index has been seen on a distinct
// thread (workers start asynchronously, as Web Workers do), or 10 s pass.
int distinct_threads_reached(platform::Executor& executor, int width) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::size_t best = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<std::uintptr_t> ids(width);
    executor.run(width, [&](int p) { ids[p] = wasm::current_thread_id(); });
    std::set<std::uintptr_t> distinct;
    for (std::uintptr_t id : ids) distinct.insert(id);
    best = std::max(best, distinct.size());
    if (best == static_cast<std::size_t>(width)) break;
  }
  return static_cast<int>(best);
}

TEST_CASE("execute_ranges spreads over the pool and matches the serial result") {
  const Context context;
  REQUIRE(context.status().ok());
  platform::Executor& executor = *context.state()->executor;
  const int width = executor.width();
  CHECK(distinct_threads_reached(executor, width) == width);

  const std::size_t n = 1 << 20;
  std::vector<double> out(n, -1.0);
  std::vector<int> block_of(n, -1);
  int blocks = 0;
  {
    std::atomic<int> calls{0};
    core::execute_ranges({&executor, width}, n, {1024, 64, 0, 0}, [&](std::size_t b, std::size_t e) {
      const int block = calls.fetch_add(1);
      for (std::size_t i = b; i < e; ++i) {
        out[i] = static_cast<double>(i) * 0.5 + 1.0;
        block_of[i] = block;
      }
    });
    blocks = calls.load();
  }
  CHECK(blocks == width);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    wrong += out[i] == static_cast<double>(i) * 0.5 + 1.0 ? 0 : 1;
  }
  CHECK(wrong == 0);

  // The elementwise kernels through the pool, against the naive family.
  const auto a = test::random_f32(300001, 11), b = test::random_f32(300001, 12);
  std::vector<float> expected(a.size()), actual(a.size());
  REQUIRE(try_mul(test::naive_context(), a, b, expected).ok());
  REQUIRE(try_mul(context, a, b, actual).ok());
  CHECK(std::memcmp(expected.data(), actual.data(), a.size() * 4) == 0);
}

TEST_CASE("nested regions run serially on the worker that reached them") {
  const Context context;
  platform::Executor& executor = *context.state()->executor;
  const int width = executor.width();
  std::vector<int> inner_threads(width, 0);
  executor.run(width, [&](int p) {
    std::set<std::uintptr_t> seen;
    executor.run(width, [&](int) {
      seen.insert(wasm::current_thread_id());
    });
    inner_threads[p] = static_cast<int>(seen.size());
  });
  CHECK(inner_threads == std::vector<int>(width, 1));
}

TEST_CASE("counters are per context and count dispatches") {
  ContextOptions options;
  options.policy.counters = true;
  Context counted;
  REQUIRE(Context::create(options, &counted).ok());
  platform::Executor& executor = *counted.state()->executor;
  for (int i = 0; i < 10; ++i) executor.run(executor.width(), [](int) {});
  const auto c = counted.counters();
  if (executor.width() > 1) {
    CHECK(c.dispatches == 10);
  } else {
    CHECK(c.dispatches == 0);  // width 1 never starts a region
  }
  // The default context (counters off) sees none of it.
  CHECK(Context().counters().dispatches == 0);
}

// What a JS instance's dispose() relies on: a pool someone holds is left
// alone, an idle one has its threads ended (joined) and is destroyed when
// every started worker was running (one that never ran keeps its pool's memory),
// and the next request of that width gets a pool that works.
TEST_CASE("release_idle_wasm_pools: a held pool stays, an idle one ends, the next starts anew") {
  // A width the default context does not use in this run (2 when it is not).
  const int width = expected_width() == 2 ? 3 : 2;
  std::shared_ptr<wasm::WasmThreadsPool> pool = wasm::shared_wasm_pool(width);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  // Workers whose pthread_create succeeded (with a small pre-started
  // pthread pool some fail: their share runs on the caller).
  const int started = width - 1 - static_cast<int>(pool->start_failures().size());
  while (pool->ready_workers() < started && std::chrono::steady_clock::now() < deadline) {
  }
  const bool running = pool->ready_workers() == started;
  MESSAGE("width-" << width << " pool: " << started << " workers started, "
                   << pool->ready_workers() << " running");
  wasm::release_idle_wasm_pools();
  CHECK(wasm::shared_wasm_pool(width) == pool);  // held: kept
  std::weak_ptr<wasm::WasmThreadsPool> weak = pool;
  pool.reset();
  wasm::release_idle_wasm_pools();
  CHECK(weak.expired() == running);
  std::shared_ptr<wasm::WasmThreadsPool> next = wasm::shared_wasm_pool(width);
  std::atomic<int> ran{0};
  next->run(width, [&](int) { ran.fetch_add(1); }, nullptr);
  CHECK(ran.load() == width);
}

// The pool's workers allocate (their GEMM workspaces), so malloc must be
// thread-safe: on wasi-threads that is tessera's own (wasi_threads_malloc.cc;
// Zig's wasi-libc malloc takes no lock). Every participant allocates,
// fills, checks and frees blocks of many sizes and alignments at once; a
// heap two threads corrupt hands out overlapping blocks, which the fill
// check sees (or traps).
TEST_CASE("malloc and free from every participant at once keep every block intact") {
  const Context context;
  REQUIRE(context.status().ok());
  platform::Executor& executor = *context.state()->executor;
  const int width = executor.width();
  REQUIRE(distinct_threads_reached(executor, width) == width);
  std::atomic<long> damaged{0}, failed{0};
  for (int round = 0; round < 20; ++round) {
    executor.run(width, [&](int p) {
      constexpr int kSlots = 32;
      unsigned char* blocks[kSlots] = {};
      std::size_t sizes[kSlots] = {};
      std::uint32_t x = 2654435761u * static_cast<std::uint32_t>(p + 1 + round * 64);
      for (int i = 0; i < 4000; ++i) {
        x = x * 1103515245u + 12345u;
        const int s = static_cast<int>((x >> 7) % kSlots);
        const unsigned char mark = static_cast<unsigned char>(p * kSlots + s + 1);
        if (blocks[s] != nullptr) {
          for (std::size_t k = 0; k < sizes[s]; ++k) {
            if (blocks[s][k] != mark) {
              damaged.fetch_add(1);
              break;
            }
          }
          std::free(blocks[s]);
          blocks[s] = nullptr;
          continue;
        }
        sizes[s] = 1 + (x >> 12) % 3000;
        const std::size_t align = std::size_t{16} << ((x >> 24) % 4);  // 16..128
        const std::size_t rounded = (sizes[s] + align - 1) / align * align;
        blocks[s] = static_cast<unsigned char*>((x & 1) != 0 ? std::malloc(sizes[s])
                                                             : std::aligned_alloc(align, rounded));
        if (blocks[s] == nullptr) {
          failed.fetch_add(1);
          continue;
        }
        std::memset(blocks[s], mark, sizes[s]);
      }
      for (unsigned char* b : blocks) std::free(b);
    });
  }
  CHECK(damaged.load() == 0);
  CHECK(failed.load() == 0);
}
#endif

#if TESSERA_THREADS_USABLE && defined(__wasi__)
// Run by CTest through `run-wasi.mjs --no-thread-spawn` with
// TESSERA_TEST_NO_THREAD_SPAWN=1: a host whose thread-spawn fails. The
// module must not trap: the context runs serially, and says why.
TEST_CASE("a host whose thread-spawn fails: serial, with the reason") {
  const char* expected = std::getenv("TESSERA_TEST_NO_THREAD_SPAWN");
  if (expected == nullptr || std::string(expected) != "1") return;
  const Context context;
  REQUIRE(context.status().ok());
  const ResolvedExecutionPolicy r = context.resolved_policy();
  CHECK(r.effective_threads == 1);
  const std::string json = r.to_json();
  CHECK_MESSAGE(contains(json, "thread-spawn returned -1"), json);
  CHECK_MESSAGE(contains(json, "running serially"), json);
  std::atomic<int> ran{0};
  context.state()->executor->run(1, [&](int) { ran.fetch_add(1); });
  CHECK(ran.load() == 1);
}
#endif

}  // namespace
}  // namespace tessera
