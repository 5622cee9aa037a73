// What every compute subcommand prints when a call fails, and after its
// timed runs: --check's verdict against the naive family and --hash of the
// result bits. One format for all of them: the ctests and the README's cross-target checks
// match "check: ok" and "hash: <16 hex digits> ".
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/tessera.hpp"

namespace tessera::cli {

// Elements compared against their error bounds: how many lie outside, and
// the worst error as a fraction of its bound.
struct BoundTally {
  std::int64_t outside = 0;
  double worst = 0;
  void add(double err, double bound);
};

// Prints "tessera-cli: <status>" to stderr; returns kExitUsage for an
// invalid argument (the user's to fix), kExitFailure otherwise.
int report_failure(const Status& status);

// The naive family's context, which --check compares against.
Status make_naive_context(Context* out);

// Prints "check: ok|MISMATCH against the naive family" followed by
// `detail` (printf-style); returns kExitOk or kExitFailure.
int report_check(bool ok, const char* detail, ...) __attribute__((format(printf, 2, 3)));

// report_check for a tally: "... (N elements outside the bound; worst error
// W of the bound)"; `scope` (", entry by entry") goes before the brackets.
int report_bounds(const BoundTally& tally, const char* scope = "");

// Prints "hash: <FNV-1a 64 of the bytes> (FNV-1a 64 of the <dtype> <what>
// bits, <isa>)".
void report_hash(const void* data, std::size_t bytes, Dtype dtype, Isa isa,
                 const char* what = "output");
// The same for an output of another element type ("int32", "u8").
void report_hash(const void* data, std::size_t bytes, const char* type, Isa isa,
                 const char* what = "output");

}  // namespace tessera::cli
