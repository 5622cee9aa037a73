#include "core/src/gemm/gemm_workspace.hpp"

#include <new>

namespace tessera::core {
namespace {

constexpr std::align_val_t kAlignment{64};

void* allocate(std::size_t bytes) noexcept {
  return ::operator new(bytes, kAlignment, std::nothrow);
}

void release(void* p) noexcept {
  if (p != nullptr) ::operator delete(p, kAlignment);
}

struct ThreadCache {
  void* block = nullptr;
  std::size_t size = 0;
  bool in_use = false;
  ~ThreadCache() { release(block); }
};

thread_local ThreadCache t_cache;

}  // namespace

Workspace::Workspace(std::size_t bytes) noexcept {
  if (bytes == 0) bytes = 64;
  ThreadCache& cache = t_cache;
  if (!cache.in_use) {
    if (cache.size < bytes) {
      release(cache.block);
      cache.block = allocate(bytes);
      cache.size = cache.block != nullptr ? bytes : 0;
    }
    if (cache.block != nullptr) {
      cache.in_use = true;
      cached_ = true;
      data_ = cache.block;
      return;
    }
  }
  data_ = allocate(bytes);
}

Workspace::~Workspace() {
  if (cached_) {
    t_cache.in_use = false;
  } else {
    release(data_);
  }
}

}  // namespace tessera::core
