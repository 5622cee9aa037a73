#include "tessera/platform/status.hpp"

namespace tessera {

const char* status_code_name(StatusCode code) noexcept {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kUnsupported: return "unsupported";
    case StatusCode::kOutOfMemory: return "out of memory";
    case StatusCode::kInternal: return "internal error";
  }
  return "unknown status";
}

struct Status::Failure {
  StatusCode code;
  std::string message;
};

Status::Status(StatusCode code, std::string message)
    : failure_(code == StatusCode::kOk ? nullptr : new Failure{code, std::move(message)}) {}

Status::Status(const Status& other)
    : failure_(other.failure_ == nullptr ? nullptr : new Failure(*other.failure_)) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) *this = Status(other);
  return *this;
}

void Status::release() noexcept {
  delete failure_;
  failure_ = nullptr;
}

StatusCode Status::code() const noexcept {
  return failure_ == nullptr ? StatusCode::kOk : failure_->code;
}

const std::string& Status::message() const noexcept {
  static const std::string kEmpty;
  return failure_ == nullptr ? kEmpty : failure_->message;
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  std::string text = status_code_name(failure_->code);
  if (!failure_->message.empty()) {
    text += ": ";
    text += failure_->message;
  }
  return text;
}

}  // namespace tessera
