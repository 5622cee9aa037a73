// tessera::Error: the exception the C++ facade throws for a failed Status in
// builds with exceptions. Builds without them (the wasm targets use
// -fno-exceptions) call the try_* functions, which return the Status.
#pragma once

#include <stdexcept>

#include "tessera/platform/status.hpp"
#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

#if defined(__cpp_exceptions)
class Error : public std::runtime_error {
 public:
  explicit Error(Status status)
      : std::runtime_error(status.to_string()), status_(std::move(status)) {}
  StatusCode code() const noexcept { return status_.code(); }
  const Status& status() const noexcept { return status_; }

 private:
  Status status_;
};

inline void throw_if_error(Status status) {
  if (!status.ok()) throw Error(std::move(status));
}
#define TESSERA_HAS_EXCEPTIONS 1
#else
#define TESSERA_HAS_EXCEPTIONS 0
#endif

}  // namespace tessera
TESSERA_CXX_API_END
