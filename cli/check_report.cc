#include "check_report.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

#include "commands.hpp"
#include "seeded_inputs.hpp"

namespace tessera::cli {

int report_failure(const Status& status) {
  std::fprintf(stderr, "tessera-cli: %s\n", status.to_string().c_str());
  return status.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitFailure;
}

Status make_naive_context(Context* out) {
  ContextOptions options;
  options.family = KernelFamily::kNaive;
  return Context::create(options, out);
}

void BoundTally::add(double err, double bound) {
  if (!(err <= bound)) ++outside;  // a NaN error is outside
  if (bound > 0) worst = std::max(worst, err / bound);
}

int report_check(bool ok, const char* detail, ...) {
  std::printf("check: %s against the naive family", ok ? "ok" : "MISMATCH");
  std::va_list args;
  va_start(args, detail);
  std::vprintf(detail, args);
  va_end(args);
  std::printf("\n");
  return ok ? kExitOk : kExitFailure;
}

int report_bounds(const BoundTally& tally, const char* scope) {
  return report_check(tally.outside == 0,
                      "%s (%" PRId64 " elements outside the bound; worst error %.3f of the bound)",
                      scope, tally.outside, tally.worst);
}

void report_hash(const void* data, std::size_t bytes, const char* type, Isa isa,
                 const char* what) {
  std::printf("hash: %016" PRIx64 " (FNV-1a 64 of the %s %s bits, %s)\n", fnv1a64(data, bytes),
              type, what, isa_name(isa));
}

void report_hash(const void* data, std::size_t bytes, Dtype dtype, Isa isa, const char* what) {
  report_hash(data, bytes, dtype_name(dtype), isa, what);
}

}  // namespace tessera::cli
