// The context the GEMM commands (gemm, qgemm) time on: the requested level,
// able to run --threads participants.
#pragma once

#include <optional>
#include <string>

#include "tessera/tessera.hpp"

namespace tessera::cli {

// A context at `isa` (nullopt: the best) that can run `threads` (0:
// automatic) participants. The machine's topology is kept (its caches fix
// the blocking, hence the bits); when it has fewer CPUs than asked for,
// extra logical CPUs are added to a copy of it, unpinned, so an explicit
// --threads N really runs N, and *note says so.
Status make_context(std::optional<Isa> isa, int threads, Context* out, std::string* note);

// Prints "  context: N participants (why)", the resolved policy's count.
void print_context_line(const Context& context);

}  // namespace tessera::cli
