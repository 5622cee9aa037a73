#include "core/src/base/workspace.hpp"

#include "core/src/base/buffer.hpp"

namespace tessera::core {
namespace {

struct ThreadCache {
  void* block = nullptr;
  std::size_t size = 0;
  bool in_use = false;
  ~ThreadCache() { release_buffer(block, size); }
};

thread_local ThreadCache t_cache;

}  // namespace

Workspace::Workspace(std::size_t bytes) noexcept {
  if (bytes == 0) bytes = 64;
  ThreadCache& cache = t_cache;
  if (!cache.in_use) {
    if (cache.size < bytes) {
      release_buffer(cache.block, cache.size);
      cache.block = allocate_buffer(bytes);
      cache.size = cache.block != nullptr ? bytes : 0;
    }
    if (cache.block != nullptr) {
      cache.in_use = true;
      cached_ = true;
      data_ = cache.block;
      return;
    }
  }
  data_ = allocate_buffer(bytes);
  bytes_ = bytes;
}

Workspace::~Workspace() {
  if (cached_) {
    t_cache.in_use = false;
  } else {
    release_buffer(data_, bytes_);
  }
}

}  // namespace tessera::core
