// What a wasm build claims about itself, checked against independent
// sources: the compiler's own target-feature macros (set by -msimd128 and
// -pthread on this test file's compile, not by tessera's code), and actually
// running SIMD128 instructions and a thread. A module built without the
// feature it reports, or reporting less than it was built with, fails here.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "tessera/platform/build_config.h"
#include "tessera/platform/cpu_features.hpp"
#include "tessera/tessera.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif
#if TESSERA_THREADS_USABLE && defined(__EMSCRIPTEN__)
#include <pthread.h>
#elif TESSERA_THREADS_USABLE
#include "wasm/src/wasm_thread_support.hpp"
#endif

namespace tessera {
namespace {

#if defined(__wasm_simd128__)
constexpr bool kCompiledWithSimd128 = true;
#else
constexpr bool kCompiledWithSimd128 = false;
#endif
// -pthread (Emscripten) or +atomics,+bulk_memory (wasi-threads) turn on the
// features of a shared memory; without them no thread can ever share this
// module's memory.
#if defined(__wasm_atomics__) && (defined(_REENTRANT) || defined(__wasi__))
constexpr bool kCompiledWithThreads = true;
#else
constexpr bool kCompiledWithThreads = false;
#endif

bool contains(const std::vector<Isa>& isas, Isa isa) {
  return std::find(isas.begin(), isas.end(), isa) != isas.end();
}

// First in this file: it needs one pre-started Emscripten worker that
// tessera's own pool (created with the first context below) has not taken.
// The worker goes back to Emscripten's pool when joined.
TEST_CASE("threads usable matches the build") {
  CHECK((TESSERA_THREADS_USABLE != 0) == kCompiledWithThreads);
#if TESSERA_THREADS_USABLE && defined(__wasi__)
  // A thread must really start (through the host's thread-spawn) and run.
  std::atomic<int> ran{0};
  wasm::WasmThread thread;
  std::string error;
  const bool started = wasm::start_thread(
      [](void* arg) { static_cast<std::atomic<int>*>(arg)->fetch_add(1); }, &ran, &thread, &error);
  REQUIRE_MESSAGE(started, error);
  if (!started) return;
  wasm::join_thread(&thread);
  CHECK(ran.load() == 1);
#elif TESSERA_THREADS_USABLE
  // A thread must really start and run while this one waits for it.
  // pthread_create rather than std::thread: with -fno-exceptions a failed
  // std::thread aborts, this reports EAGAIN (pool exhausted) as a failure.
  std::atomic<int> ran{0};
  pthread_t thread;
  const int rc = pthread_create(
      &thread, nullptr,
      [](void* arg) -> void* {
        static_cast<std::atomic<int>*>(arg)->fetch_add(1);
        return nullptr;
      },
      &ran);
  REQUIRE(rc == 0);
  if (rc != 0) return;  // without exceptions a failed REQUIRE continues
  REQUIRE(pthread_join(thread, nullptr) == 0);
  CHECK(ran.load() == 1);
#endif
}

TEST_CASE("cpu features report the wasm32 architecture") {
  const platform::CpuFeatures& f = platform::cpu_features();
  CHECK(f.arch == platform::CpuArch::kWasm32);
  CHECK_FALSE(f.sse2);
  CHECK_FALSE(f.avx2);
  CHECK_FALSE(f.avx512f);
  CHECK_FALSE(f.neon);
}

TEST_CASE("simd128 is reported exactly when the module was built with it") {
  CHECK(platform::cpu_features().simd128 == kCompiledWithSimd128);
  CHECK((TESSERA_BUILT_SIMD128 != 0) == kCompiledWithSimd128);
  const std::vector<Isa> isas = supported_isas();
  CHECK(contains(isas, Isa::kScalar));
  CHECK(contains(isas, Isa::kSimd128) == kCompiledWithSimd128);
  // Relaxed SIMD: present exactly in a module built with it (which this
  // host then validated: it is running).
  CHECK(platform::cpu_features().relaxed_simd == (TESSERA_BUILT_SIMD128_RELAXED != 0));
  CHECK(contains(isas, Isa::kSimd128Relaxed) == (TESSERA_BUILT_SIMD128_RELAXED != 0));
  // No level of another architecture, whatever the ISA list holds.
  for (int i = 0; i < kIsaCount; ++i) {
    const Isa isa = static_cast<Isa>(i);
    if (isa != Isa::kScalar && isa != Isa::kSimd128 && isa != Isa::kSimd128Relaxed) {
      CHECK_FALSE(contains(isas, isa));
    }
  }
}

#if defined(__wasm_simd128__)
TEST_CASE("simd128 instructions execute in this module") {
  // Validation of a module with v128 code already proves engine support;
  // this also checks lane order and IEEE results of the ops the kernels use.
  alignas(16) float a[4] = {1.0f, -2.0f, 0.5f, 3.0e38f};
  alignas(16) float b[4] = {0.25f, 2.0f, -0.5f, 3.0e38f};
  alignas(16) float sum[4];
  alignas(16) float prod[4];
  const v128_t va = wasm_v128_load(a);
  const v128_t vb = wasm_v128_load(b);
  wasm_v128_store(sum, wasm_f32x4_add(va, vb));
  wasm_v128_store(prod, wasm_f32x4_mul(va, vb));
  for (int i = 0; i < 4; ++i) {
    CHECK(sum[i] == a[i] + b[i]);
    CHECK(prod[i] == a[i] * b[i]);
  }
}

TEST_CASE("the default context selects the highest wasm level built") {
  ContextOptions options;
  options.read_environment = false;
  Context context;
  REQUIRE(Context::create(options, &context).ok());
  CHECK(context.isa() ==
        (TESSERA_BUILT_SIMD128_RELAXED != 0 ? Isa::kSimd128Relaxed : Isa::kSimd128));
}
#endif

}  // namespace
}  // namespace tessera
