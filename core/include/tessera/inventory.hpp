// The kernel inventory: what this build registered, what this CPU can run,
// and which implementation a call on a given context would select.
#pragma once

#include <string>
#include <vector>

#include "tessera/context.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

struct KernelRecord {
  std::string op;      // "add", "relu", "gemm", "dot", "gemv"
  std::string dtype;   // "f32", "f64"
  KernelFamily family;
  Isa isa;
  bool runnable;       // this CPU can execute it
  bool selected;       // a call on the given context would use it
};

std::vector<KernelRecord> kernel_inventory(const Context& context);

}  // namespace tessera
TESSERA_CXX_API_END
