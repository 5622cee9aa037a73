// tessera-cli convert f16|bf16 N [--threads N] [--isa L] [--reps R]
//                               [--check] [--hash] [--seed S]
//
// Converts N seeded f32 values to the half format and the result back to
// f32, timing each direction (median of the repetitions) and printing its
// rate in GB/s of bytes read plus written. The inputs are seeded bit
// patterns: mostly values in and around the format's range (normals,
// subnormals, overflow), one in sixteen any pattern at all (NaN payloads,
// infinities). --check compares both directions with the naive family bit
// for bit (exit 1 on a mismatch); --hash prints FNV-1a 64 of the narrowed
// bits followed by the widened ones, the same on every level and target.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "arg_parser.hpp"
#include "check_report.hpp"
#include "commands.hpp"
#include "context_for_threads.hpp"
#include "run_options.hpp"
#include "seeded_inputs.hpp"
#include "tessera/tessera.hpp"

namespace tessera::cli {
namespace {

enum class HalfFormat { kF16, kBf16 };
constexpr Named<HalfFormat> kFormatNames[] = {{"f16", HalfFormat::kF16}, {"bf16", HalfFormat::kBf16}};

struct ConvertOptions : RunOptions {
  HalfFormat format = HalfFormat::kF16;
  std::size_t n = 0;
};

ArgTable convert_table(ConvertOptions* o) {
  constexpr IntegerSyntax kDigits = IntegerSyntax::kDigits;
  return {
      .command = "convert",
      .unknown_options = UnknownOptions::kDashAndMore,
      .positional_check = PositionalCheck::kAfterCounting,
      .positionals =
          {
              positional("FORMAT", choice<HalfFormat>(kFormatNames, &o->format),
                         {.bad = "FORMAT must be f16 or bf16 (got '{}')"}),
              // 2^31 elements at most: a run of the CLI, not a memory test.
              positional("N", integer(kDigits, 0, std::int64_t{1} << 31, &o->n),
                         {.bad = "N must be an integer in [0, 2^31] (got '{}')"}),
          },
      .count_message = "expected FORMAT N",
      .options = {
          option("--threads", integer(kDigits, 0, 4096, &o->threads),
                 {.bad = "must be an integer in [0, 4096] (got '{}')"}),
          option("--isa", isa_level(&o->isa), {.bad = "'{}' is not a level"}),
          option("--reps", integer(kDigits, 1, 100000, &o->reps),
                 {.bad = "must be an integer in [1, 100000] (got '{}')"}),
          option("--seed", integer(kDigits, 0, kInt64Max, &o->seed),
                 {.bad = "must be a non-negative integer (got '{}')"}),
          flag("--check", &o->check),
          flag("--hash", &o->hash),
      }};
}

// Bit patterns whose exponent mostly falls in [2^-27, 2^19) (a little past
// f16's range at both ends), 1 in 16 unrestricted.
std::vector<float> seeded_patterns(std::size_t n, std::uint64_t seed) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = seeded_bits(seed, 7, i);
    auto bits = static_cast<std::uint32_t>(r);
    if ((r >> 32 & 15) != 0) {
      const auto exponent = static_cast<std::uint32_t>(100 + (r >> 36) % 46);
      bits = (bits & 0x807FFFFFu) | exponent << 23;
    }
    std::memcpy(&x[i], &bits, sizeof bits);
  }
  return x;
}

template <class Half>
Status narrow(const Context& c, const std::vector<float>& x, std::vector<std::uint16_t>& y,
              Parallelism p) {
  return try_convert(c, std::span<const float>(x),
                     std::span<Half>(reinterpret_cast<Half*>(y.data()), y.size()), p);
}
template <class Half>
Status widen(const Context& c, const std::vector<std::uint16_t>& x, std::vector<float>& y,
             Parallelism p) {
  return try_convert(c, std::span<const Half>(reinterpret_cast<const Half*>(x.data()), x.size()),
                     std::span<float>(y), p);
}

// Times `reps` calls; prints the median and GB/s of `bytes` a call.
template <class F>
Status timed(const char* what, int reps, double bytes, F&& call) {
  std::vector<double> seconds;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    if (Status s = call(); !s.ok()) return s;
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  std::printf("%s: median %.6f s of %d (min %.6f, max %.6f), GB/s: %.2f\n", what, median, reps,
              seconds.front(), seconds.back(), median > 0 ? bytes / median / 1e9 : 0.0);
  return {};
}

template <class Half>
int run_format(const ConvertOptions& o) {
  Context context;
  std::string note;
  if (Status s = make_context(o.isa, o.threads, &context, &note); !s.ok()) return report_failure(s);
  const Parallelism p = o.threads > 0 ? Parallelism::threads(o.threads) : Parallelism();
  const char* name = o.format == HalfFormat::kF16 ? "f16" : "bf16";
  const std::vector<float> x = seeded_patterns(o.n, o.seed);
  std::vector<std::uint16_t> h(o.n);
  std::vector<float> back(o.n);
  std::printf("convert f32 <-> %s n=%zu isa=%s\n", name, o.n, isa_name(context.isa()));
  if (!note.empty()) std::printf("  %s\n", note.c_str());
  print_context_line(context);
  const double bytes = static_cast<double>(o.n) * 6;
  const std::string to = std::string("f32 -> ") + name;
  const std::string from = std::string(name) + " -> f32";
  if (Status s = timed(to.c_str(), o.reps, bytes, [&] { return narrow<Half>(context, x, h, p); });
      !s.ok()) {
    return report_failure(s);
  }
  if (Status s = timed(from.c_str(), o.reps, bytes, [&] { return widen<Half>(context, h, back, p); });
      !s.ok()) {
    return report_failure(s);
  }
  int exit_code = kExitOk;
  if (o.check) {
    Context naive;
    if (Status s = make_naive_context(&naive); !s.ok()) return report_failure(s);
    std::vector<std::uint16_t> h_ref(o.n);
    std::vector<float> back_ref(o.n);
    if (Status s = narrow<Half>(naive, x, h_ref, Parallelism::serial()); !s.ok()) return report_failure(s);
    if (Status s = widen<Half>(naive, h, back_ref, Parallelism::serial()); !s.ok()) return report_failure(s);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < o.n; ++i) {
      bad += h[i] != h_ref[i] ? 1 : 0;
      bad += std::memcmp(&back[i], &back_ref[i], sizeof(float)) != 0 ? 1 : 0;
    }
    exit_code = report_check(bad == 0, " (%zu values differ in their bits)", bad);
  }
  if (o.hash) {
    std::vector<unsigned char> both(o.n * 6);
    if (o.n > 0) {  // (memcpy must not see the null data of empty vectors)
      std::memcpy(both.data(), h.data(), o.n * 2);
      std::memcpy(both.data() + o.n * 2, back.data(), o.n * 4);
    }
    report_hash(both.data(), both.size(), name, context.isa(), "narrowed and widened");
  }
  return exit_code;
}

}  // namespace

int run_convert(const Args& args) {
  ConvertOptions o;
  if (const int code = parse_args(convert_table(&o), args); code != kExitOk || parse_only()) {
    return code;
  }
  return o.format == HalfFormat::kF16 ? run_format<f16>(o) : run_format<bf16>(o);
}

}  // namespace tessera::cli
