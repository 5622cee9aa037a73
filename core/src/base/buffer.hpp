// Memory for pack buffers and packed operands: 64-byte aligned; a buffer of
// at least two large pages is aligned to one and the OS is asked to back it
// with large pages (tessera/platform/large_pages.hpp): the packed weights
// of a 1 x 4096 x 4096 integer product (16 MiB) are read in one pass per
// call, and in 4 KiB pages the walk misses the TLB all along (measured:
// 138 against 144-160 GOP/s with the hint, one Zen 4 core).
#pragma once

#include <cstddef>

namespace tessera::core {

// Null when the allocation fails.
void* allocate_buffer(std::size_t bytes) noexcept;
// `bytes` as given to allocate_buffer.
void release_buffer(void* p, std::size_t bytes) noexcept;

}  // namespace tessera::core
