// Tuned profiles (design.md §Profiles): the file round-trips, every
// malformed key is an error naming it, a profile measured elsewhere is
// rejected with the reason (or applied as portable with a warning), a
// matching one sets its knobs and blocking where nothing else did, and a
// profiled context keeps the reproducibility contract.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace tessera {
namespace {

using test::ScopedEnv;

Profile sample() {
  Profile p;
  p.measured_on = this_host_profile_key(Context().isa());
  p.knobs.par_mnk_per_worker = 3000000;
  p.knobs.gemv_parallel_bytes = 123456;
  p.gemm_f32 = GemmBlockingChoice{136, 48, 1024};
  p.changes_bits = true;
  p.notes = {"sgemm kc 136: 1.0 GFLOP/s \"quoted\"", "second"};
  return p;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool has_fallback(const Context& c, const std::string& part) {
  for (const std::string& f : c.resolved_policy().fallbacks) {
    if (contains(f, part)) return true;
  }
  return false;
}

Context with(const Profile& profile, bool portable = false, Knobs knobs = {}) {
  ContextOptions options;
  options.read_environment = false;
  options.profile = profile;
  options.profile_portable = portable;
  options.knobs = knobs;
  Context c;
  REQUIRE(Context::create(options, &c).ok());
  return c;
}

GemmPlan plan_of(const Context& c) {
  GemmPlan plan;
  REQUIRE(try_plan_gemm(c, Dtype::kF32, Layout::kRowMajor, 512, 512, 512, Parallelism::serial(),
                        &plan)
              .ok());
  return plan;
}

TEST_CASE("a profile round-trips through its JSON file") {
  const Profile p = sample();
  const std::string json = profile_to_json(p);
  Profile back;
  REQUIRE(parse_profile(json, &back).ok());
  CHECK(back.measured_on == p.measured_on);
  CHECK(back.knobs.par_mnk_per_worker == p.knobs.par_mnk_per_worker);
  CHECK(back.knobs.gemv_parallel_bytes == p.knobs.gemv_parallel_bytes);
  CHECK_FALSE(back.knobs.parallel_threshold.has_value());
  CHECK(back.gemm_f32 == p.gemm_f32);
  CHECK_FALSE(back.gemm_f64.has_value());
  CHECK(back.changes_bits);
  CHECK(back.notes == p.notes);
  CHECK(profile_to_json(back) == json);  // deterministic
}

TEST_CASE("every malformed key of a profile is an error naming it") {
  const std::string good = profile_to_json(sample());
  auto replaced = [&](const std::string& from, const std::string& to) {
    const std::size_t at = good.find(from);
    REQUIRE(at != std::string::npos);
    return good.substr(0, at) + to + good.substr(at + from.size());
  };
  const std::string family = "\"cpu_family\":" + std::to_string(sample().measured_on.cpu_family);
  const struct {
    std::string text;
    const char* message;
  } cases[] = {
      {"{", "profile: not JSON"},
      {"[1]", "one JSON object"},
      {replaced("{", "{\"extra\":1,"), "profile: extra is not a key of a tessera profile"},
      {replaced("\"tessera_profile\":1", "\"tessera_profile\":2"), "tessera_profile is 2"},
      {replaced("\"changes_bits\":true", "\"changes_bits\":\"yes\""),
       "changes_bits must be true or false"},
      {replaced(family, "\"cpu_family\":\"x\""), "measured_on.cpu_family must be an integer"},
      {replaced("\"isa\":", "\"isa\":\"avx9000\",\"was\":"), "measured_on.was is not a key"},
      {replaced("\"tessera_version\":", "\"tessera_version\":1,\"x\":"), "measured_on.x"},
      {replaced("\"settings\":{", "\"settings\":{\"TESSERA_NUM_THREADS\":2,"),
       "settings.TESSERA_NUM_THREADS is not a setting a profile may hold"},
      {replaced("\"TESSERA_PAR_MNK_PER_WORKER\":3000000", "\"TESSERA_PAR_MNK_PER_WORKER\":0"),
       "TESSERA_PAR_MNK_PER_WORKER = 0 is out of range"},
      {replaced("\"TESSERA_PAR_MNK_PER_WORKER\":3000000", "\"TESSERA_PAR_MNK_PER_WORKER\":-1"),
       "settings.TESSERA_PAR_MNK_PER_WORKER must be a non-negative integer"},
      {replaced("\"kc\":136", "\"kc\":0"), "settings.gemm_f32_blocking.kc must be an integer in"},
      {replaced(",\"nc\":1024", ""), "settings.gemm_f32_blocking.nc is missing"},
      {replaced("\"notes\":[", "\"notes\":[1,"), "notes must hold strings"},
      {replaced(",\"notes\":[", ",\"notes\":{},\"n\":["), "profile: n is not a key"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    Profile p;
    const Status s = parse_profile(c.text, &p);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(contains(s.message(), c.message));
  }
  // A profile's isa must name a level.
  Profile p;
  const Status isa = parse_profile(replaced("\"isa\":\"", "\"isa\":\"x"), &p);
  CHECK(contains(isa.message(), "measured_on.isa is not an ISA level"));
}

TEST_CASE("a matching profile sets its knobs and GEMM blocking; settings in force win") {
  const Context c = with(sample());
  CHECK(c.knobs().par_mnk_per_worker == 3000000u);
  CHECK(contains(c.resolved_policy().profile, "applied from ContextOptions::profile"));
  CHECK_FALSE(has_fallback(c, "profile"));
  const GemmPlan plan = plan_of(c);
  CHECK(plan.kc == 136);
  CHECK(plan.mc == 48 / plan.mr * plan.mr);
  CHECK(contains(plan.cache_facts, "tuned profile"));

  Knobs mine;
  mine.par_mnk_per_worker = 5;
  const Context overridden = with(sample(), false, mine);
  CHECK(overridden.knobs().par_mnk_per_worker == 5u);
  CHECK(overridden.knobs().gemv_parallel_bytes == 123456u);
  CHECK(contains(overridden.resolved_policy().profile,
                 "TESSERA_PAR_MNK_PER_WORKER=3000000 (overridden by the setting in force)"));
}

TEST_CASE("a profile's pool classes shape the pool the context resolves") {
  Profile p = sample();
  p.knobs.pool_classes = 3;
  const Context c = with(p);
  CHECK(c.resolved_policy().pool_classes == 3);
  CHECK(contains(c.resolved_policy().profile, "TESSERA_POOL_CLASSES=3"));
  Knobs mine;
  mine.pool_classes = 1;
  CHECK(with(p, false, mine).resolved_policy().pool_classes == 1);
}

TEST_CASE("TESSERA_DIRECT_SLICE_BYTES moves small GEMMs between the direct and packed paths, same bits") {
  // 48 x 200 x 96 f32: wider than two direct panels on every level, deeper
  // than the shallow rule, rows under the direct path's 2 KiB; A's depth
  // slice is 48 * 96 * 4 = 18 KiB, so the budget alone decides.
  const std::int64_t m = 48, n = 200, k = 96;
  const auto a = test::random_f32(static_cast<std::size_t>(m * k), 31);
  const auto b = test::random_f32(static_cast<std::size_t>(k * n), 32);
  for (Isa isa : test::host_isas()) {
    INFO(isa_name(isa));
    std::vector<float> c_out[2];
    bool direct[2] = {false, false}, has_direct = false;
    const std::uint64_t budgets[2] = {1024, std::uint64_t{1} << 20};
    for (int i = 0; i < 2; ++i) {
      ContextOptions options;
      options.read_environment = false;
      options.isa = isa;
      options.knobs.direct_slice_bytes = budgets[i];
      Context c;
      REQUIRE(Context::create(options, &c).ok());
      GemmPlan plan;
      REQUIRE(try_plan_gemm(c, Dtype::kF32, Layout::kRowMajor, m, n, k, Parallelism::serial(),
                            &plan)
                  .ok());
      direct[i] = plan.direct;
      // Whether the level has a direct path at all: an 8^3 product takes it.
      REQUIRE(try_plan_gemm(c, Dtype::kF32, Layout::kRowMajor, 8, 8, 8, Parallelism::serial(),
                            &plan)
                  .ok());
      has_direct = plan.direct;
      c_out[i].assign(static_cast<std::size_t>(m * n), 0.0f);
      REQUIRE(try_gemm(c, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, m, n, k, 1.0f,
                       a.data(), k, b.data(), n, 0.0f, c_out[i].data(), n, Parallelism::serial())
                  .ok());
    }
    CHECK_FALSE(direct[0]);  // 1 KiB: the slice does not fit, packed
    CHECK(direct[1] == has_direct);  // 1 MiB: it fits
    CHECK(std::memcmp(c_out[0].data(), c_out[1].data(), c_out[0].size() * sizeof(float)) == 0);
  }
  Profile p = sample();
  p.knobs.direct_slice_bytes = 4096;
  const Context profiled = with(p);
  CHECK(profiled.knobs().direct_slice_bytes == 4096u);
  CHECK(contains(profiled.resolved_policy().profile, "TESSERA_DIRECT_SLICE_BYTES=4096"));
}

TEST_CASE("a profile measured elsewhere is not applied, and says why; portable applies it") {
  Profile foreign = sample();
  foreign.measured_on.cpu_model += 1;
  const Context c = with(foreign);
  CHECK(has_fallback(c, "profile ContextOptions::profile not applied: measured on "));
  CHECK(contains(c.resolved_policy().profile, "none"));
  CHECK_FALSE(c.knobs().par_mnk_per_worker.has_value());
  CHECK(plan_of(c).kc != 136);

  Profile old_version = sample();
  old_version.measured_on.tessera_version = "0.0.1";
  CHECK(has_fallback(with(old_version), "measured with tessera 0.0.1"));

  const Context portable = with(foreign, true);
  CHECK(has_fallback(portable, "applied although measured on"));
  CHECK(plan_of(portable).kc == 136);
}

TEST_CASE("a profile made in code holds speed knobs only") {
  Profile p = sample();
  p.knobs.num_threads = 2;
  ContextOptions options;
  options.read_environment = false;
  options.profile = p;
  Context c;
  const Status s = Context::create(options, &c);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(contains(s.message(), "TESSERA_NUM_THREADS is not a setting a profile may hold"));
  p = sample();
  p.gemm_f64 = GemmBlockingChoice{0, 8, 8};
  options.profile = p;
  CHECK(contains(Context::create(options, &c).message(), "gemm_f64_blocking.kc"));
}

TEST_CASE("TESSERA_PROFILE names the file; a bad file or path fails the context naming it") {
  const char* path = "tessera-profile-test.json";
  {
    std::FILE* f = std::fopen(path, "wb");
    REQUIRE(f != nullptr);
    const std::string json = profile_to_json(sample());
    REQUIRE(std::fwrite(json.data(), 1, json.size(), f) == json.size());
    std::fclose(f);
  }
  {
    ScopedEnv env("TESSERA_PROFILE", path);
    Context c;
    REQUIRE(Context::create(ContextOptions{}, &c).ok());
    CHECK(contains(c.resolved_policy().profile, std::string("TESSERA_PROFILE='") + path + "'"));
    CHECK(c.knobs().par_mnk_per_worker == 3000000u);
  }
  {
    std::FILE* f = std::fopen(path, "wb");
    REQUIRE(f != nullptr);
    std::fputs("{\"tessera_profile\":1}", f);
    std::fclose(f);
    ScopedEnv env("TESSERA_PROFILE", path);
    Context c;
    const Status s = Context::create(ContextOptions{}, &c);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(contains(s.message(), "profile: changes_bits is missing"));
    CHECK(contains(s.message(), path));
  }
  std::remove(path);
  {
    ScopedEnv env("TESSERA_PROFILE", "no-such-dir/profile.json");
    Context c;
    CHECK(contains(Context::create(ContextOptions{}, &c).message(),
                   "cannot open 'no-such-dir/profile.json'"));
  }
  {
    ScopedEnv env("TESSERA_PROFILE_PORTABLE", "yes");
    Context c;
    CHECK(contains(Context::create(ContextOptions{}, &c).message(), "TESSERA_PROFILE_PORTABLE"));
  }
}

TEST_CASE("with a profile whose kc differs, results are the same for every worker count") {
  const Profile p = sample();
  const std::int64_t m = 203, n = 190, k = 517;
  std::vector<float> a(m * k), b(k * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 37) % 101) / 50.f - 1;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>((i * 53) % 97) / 48.f - 1;
  std::vector<std::vector<float>> results;
  for (int threads : {1, 2, 3}) {
    ContextOptions options;
    options.read_environment = false;
    options.profile = p;
    options.policy.num_threads = threads;
    Context c;
    REQUIRE(Context::create(options, &c).ok());
    CHECK(contains(c.resolved_policy().profile, "it changes results"));
    std::vector<float> out(m * n);
    REQUIRE(try_gemm(c, Layout::kRowMajor, Transpose::kNo, Transpose::kNo, m, n, k, 1.f, a.data(),
                     k, b.data(), n, 0.f, out.data(), n, Parallelism::threads(threads))
                .ok());
    results.push_back(out);
  }
  CHECK(std::memcmp(results[0].data(), results[1].data(), results[0].size() * 4) == 0);
  CHECK(std::memcmp(results[0].data(), results[2].data(), results[0].size() * 4) == 0);
}

}  // namespace
}  // namespace tessera
