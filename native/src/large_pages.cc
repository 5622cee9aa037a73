#include "tessera/platform/large_pages.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tessera::platform {

#if defined(__linux__) && defined(MADV_HUGEPAGE)

// x86-64's and aarch64's (4 KiB base pages) transparent huge page size.
std::size_t large_page_bytes() noexcept { return std::size_t{2} << 20; }

bool advise_large_pages(void* p, std::size_t bytes) noexcept {
  return p != nullptr && bytes != 0 && madvise(p, bytes, MADV_HUGEPAGE) == 0;
}

#else

std::size_t large_page_bytes() noexcept { return 0; }
bool advise_large_pages(void*, std::size_t) noexcept { return false; }

#endif

}  // namespace tessera::platform
