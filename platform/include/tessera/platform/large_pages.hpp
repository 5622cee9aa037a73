// Large pages for big, long-lived buffers (a model's packed weights, the
// integer GEMM's pack buffers): a hint to the OS that a range is read in
// long streams, so one TLB entry should cover megabytes rather than 4 KiB
// (a 16 MiB packed weight matrix in 4 KiB pages needs more TLB entries than
// a core has). Implemented once per platform backend:
//   native/  Linux: madvise(MADV_HUGEPAGE) (transparent huge pages, also
//            where the system setting is "madvise"); elsewhere nothing;
//   wasm/    nothing (linear memory has no pages to choose).
// Never an error: without the hint the memory is the same, only its pages
// differ.
#pragma once

#include <cstddef>

namespace tessera::platform {

// The size of a large page worth aligning a buffer to (2 MiB natively on
// Linux), or 0 where there is none.
std::size_t large_page_bytes() noexcept;

// Asks for [p, p + bytes) to be backed by large pages; p should be aligned
// to large_page_bytes(). Returns whether the hint was accepted.
bool advise_large_pages(void* p, std::size_t bytes) noexcept;

}  // namespace tessera::platform
