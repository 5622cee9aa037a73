// Linear memory has no pages to choose (platform/large_pages.hpp).
#include "tessera/platform/large_pages.hpp"

namespace tessera::platform {

std::size_t large_page_bytes() noexcept { return 0; }
bool advise_large_pages(void*, std::size_t) noexcept { return false; }

}  // namespace tessera::platform
