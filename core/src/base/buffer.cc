#include "core/src/base/buffer.hpp"

#include <new>

#include "tessera/platform/large_pages.hpp"

namespace tessera::core {
namespace {

// The alignment a buffer of `bytes` gets: a large page for two or more.
std::size_t alignment_for(std::size_t bytes) noexcept {
  const std::size_t page = platform::large_page_bytes();
  return page != 0 && bytes >= 2 * page ? page : 64;
}

}  // namespace

void* allocate_buffer(std::size_t bytes) noexcept {
  const std::size_t align = alignment_for(bytes);
  void* p = ::operator new(bytes, std::align_val_t{align}, std::nothrow);
  if (p != nullptr && align > 64) {
    // Whole large pages only: the hint covers what the buffer owns.
    platform::advise_large_pages(p, bytes / align * align);
  }
  return p;
}

void release_buffer(void* p, std::size_t bytes) noexcept {
  if (p != nullptr) ::operator delete(p, std::align_val_t{alignment_for(bytes)});
}

}  // namespace tessera::core
