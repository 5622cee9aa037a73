// tessera: one compute library, the same kernels and the same results,
// natively, in JavaScript and under WASI. The C++ front door.
#pragma once

#include "tessera/context.hpp"
#include "tessera/elementwise.hpp"
#include "tessera/error.hpp"
#include "tessera/gemm.hpp"
#include "tessera/gemm_batched.hpp"
#include "tessera/half.hpp"
#include "tessera/execution.hpp"
#include "tessera/inventory.hpp"
#include "tessera/isa.hpp"
#include "tessera/knobs.hpp"
#include "tessera/profile.hpp"
#include "tessera/quantized.hpp"
#include "tessera/reduce.hpp"
#include "tessera/platform/build_config.h"
#include "tessera/platform/cpu_features.hpp"
#include "tessera/platform/status.hpp"
#include "tessera/blas1.hpp"
