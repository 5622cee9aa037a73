// Scratch memory for the drivers' pack buffers (GEMM, integer GEMM).
//
// Each thread keeps one cached block (core/src/base/buffer.hpp) that grows to the
// largest size it has needed, so steady-state calls allocate nothing. A
// re-entrant acquisition on the same thread (an application executor that
// runs another tessera call on the caller while it waits) finds the block in
// use and gets a private allocation instead, never a shared one.
#pragma once

#include <cstddef>

namespace tessera::core {

class Workspace {
 public:
  // Acquires at least `bytes` bytes; data() is null if allocation failed.
  explicit Workspace(std::size_t bytes) noexcept;
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  void* data() const noexcept { return data_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;  // a private block's size
  bool cached_ = false;    // the thread's cached block (else a private one)
};

}  // namespace tessera::core
