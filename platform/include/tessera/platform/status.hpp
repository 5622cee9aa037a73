// Status: the error currency of tessera's core. The core never throws; every
// fallible call returns a Status. The C++ facade turns a failed Status into a
// tessera::Error (where exceptions exist), the C API returns its code, the JS
// layer throws an Error carrying the same code and message.
#pragma once

#include <string>
#include <utility>

#include "tessera/platform/build_config.h"  // TESSERA_CXX_API_BEGIN

TESSERA_CXX_API_BEGIN
namespace tessera {

// Stable numeric values: they are the C API's tsr_status values too.
enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument = 1,  // a caller-supplied value is wrong; message names it
  kUnsupported = 2,      // valid request this build/CPU cannot serve
  kOutOfMemory = 3,
  kInternal = 4,         // a tessera bug: please report
};

// Short fixed name of a code ("invalid argument"), never null.
const char* status_code_name(StatusCode code) noexcept;

// An ok Status is one null pointer: every call returns one and every
// validation step passes one back, so success must cost a store and a test
// (a 16-element dot is ~15 ns of work). The code and message of a failure
// live on the heap.
class [[nodiscard]] Status {
 public:
  Status() noexcept = default;
  // StatusCode::kOk makes an ok Status; the message is then dropped.
  Status(StatusCode code, std::string message);
  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&& other) noexcept : failure_(std::exchange(other.failure_, nullptr)) {}
  Status& operator=(Status&& other) noexcept {
    std::swap(failure_, other.failure_);
    return *this;
  }
  ~Status() {
    if (failure_ != nullptr) release();
  }

  static Status invalid_argument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  }
  static Status unsupported(std::string message) {
    return Status(StatusCode::kUnsupported, std::move(message));
  }
  static Status internal(std::string message) {
    return Status(StatusCode::kInternal, std::move(message));
  }

  bool ok() const noexcept { return failure_ == nullptr; }
  StatusCode code() const noexcept;
  // Empty when ok.
  const std::string& message() const noexcept;
  // "invalid argument: m must be >= 0 (got -1)"
  std::string to_string() const;

 private:
  struct Failure;
  void release() noexcept;
  Failure* failure_ = nullptr;
};

// Propagate a failed Status to the caller.
#define TESSERA_RETURN_IF_ERROR(expr)                \
  do {                                               \
    ::tessera::Status tessera_status_ = (expr);      \
    if (!tessera_status_.ok()) return tessera_status_; \
  } while (false)

}  // namespace tessera
TESSERA_CXX_API_END
