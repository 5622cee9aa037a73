// A thread-safe malloc for wasm32-wasip1-threads programs (the wasi-threads
// preset). Zig 0.11 builds wasi-libc single-threaded: its malloc (emmalloc)
// takes no lock, and tessera's pool workers allocate (their GEMM workspaces),
// so two threads in it at once corrupt the heap. These strong definitions
// replace libc's weak ones in every program that starts threads: start_thread
// (wasm_thread_support_wasi.cc) calls thread_safe_malloc_linked() below, so
// the linker takes this file from the archive whenever it takes that one,
// and a strong definition wins over libc's weak one wherever it comes on the
// link line.
//
// Design: size classes, four per power of two (at most 25 % rounding), each
// with a free list; blocks are never split or merged, so a freed block is
// reused by a request of its class. Memory comes from memory.grow in chunks
// of at least 1 MiB; libc's own allocator keeps the heap the linker left it
// and also only grows memory, so the two never meet. One lock: allocations are
// rare in tessera's hot paths (a worker's workspace is allocated once and
// reused), so it is almost never contended.
//
// Every block starts with a 16-byte header; the pointer handed out follows
// it, so it is 16-byte aligned. A larger alignment is served from a bigger
// block with a second header right before the aligned pointer that says how
// far back the block's own payload starts.
#include "tessera/platform/build_config.h"

#if TESSERA_THREADS_USABLE && defined(__wasi__)

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "wasm/src/wasm_thread_support.hpp"

namespace {

constexpr std::size_t kHeader = 16;
constexpr std::size_t kPage = 65536;
constexpr std::size_t kMinChunk = std::size_t{1} << 20;
constexpr std::uint32_t kMagic = 0x7e55e7a1u;
// Class c holds blocks of (4 + c % 4) << (c / 4 - 2) bytes; 64 bytes is the
// smallest (class 24: from there on every class is a multiple of 16, so
// blocks carved one after another all stay 16-byte aligned), and sizes up to
// 3.5 GiB have a class.
constexpr int kMinClass = 24;
constexpr int kClasses = 4 * 32;

struct Header {
  std::uint32_t size_class;
  std::uint32_t offset;  // aligned pointer minus the block's own payload
  std::uint32_t magic;
  std::uint32_t unused;
};
static_assert(sizeof(Header) == kHeader);

struct FreeBlock {
  FreeBlock* next;
};

tessera::wasm::SpinLock g_lock;
FreeBlock* g_free[kClasses] = {};
std::uintptr_t g_bump = 0;  // next unused byte of the current chunk
std::uintptr_t g_end = 0;   // end of the current chunk

std::size_t class_bytes(int c) {
  return (std::size_t{4} + static_cast<std::size_t>(c % 4)) << (c / 4 - 2);
}

// The smallest class holding `bytes`, or -1 when none does.
int class_for(std::size_t bytes) {
  if (bytes <= 64) return kMinClass;
  const int k = 31 - __builtin_clz(static_cast<std::uint32_t>(bytes));  // 2^k <= bytes
  const std::size_t base = std::size_t{1} << k;
  const std::size_t step = base >> 2;
  const std::size_t j = (bytes - base + step - 1) / step;  // 0..4
  const int c = 4 * k + static_cast<int>(j);
  return c < kClasses && class_bytes(c) >= bytes ? c : -1;
}

// A fresh block of `bytes` (a class size) from the current chunk, growing
// the memory when it does not fit. Called with the lock held.
void* carve(std::size_t bytes) {
  if (g_end - g_bump < bytes) {
    const std::size_t want = bytes > kMinChunk ? bytes : kMinChunk;
    const std::size_t pages = (want + kPage - 1) / kPage;
    const std::size_t old_pages = __builtin_wasm_memory_grow(0, pages);
    if (old_pages == static_cast<std::size_t>(-1)) return nullptr;
    const std::uintptr_t start = old_pages * kPage;
    // Contiguous with the current chunk unless libc grew memory in between.
    if (start != g_end) g_bump = start;
    g_end = start + pages * kPage;
  }
  void* block = reinterpret_cast<void*>(g_bump);
  g_bump += bytes;
  return block;
}

// A payload of `size` bytes aligned to `align` (a power of two), or null.
void* allocate(std::size_t size, std::size_t align) {
  const std::size_t extra = align > kHeader ? align + kHeader : 0;
  if (size > SIZE_MAX - kHeader - extra) return nullptr;
  const int c = class_for(size + kHeader + extra);
  if (c < 0) return nullptr;
  char* block;
  g_lock.lock();
  if (g_free[c] != nullptr) {
    FreeBlock* f = g_free[c];
    g_free[c] = f->next;
    block = reinterpret_cast<char*>(f);
  } else {
    block = static_cast<char*>(carve(class_bytes(c)));
  }
  g_lock.unlock();
  if (block == nullptr) return nullptr;
  char* payload = block + kHeader;
  char* p = payload;
  if (align > kHeader && reinterpret_cast<std::uintptr_t>(p) % align != 0) {
    const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(payload) + kHeader;
    p = reinterpret_cast<char*>((first + align - 1) & ~(align - 1));
  }
  const Header h{static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(p - payload), kMagic,
                 0};
  std::memcpy(block, &h, sizeof h);
  if (p != payload) std::memcpy(p - kHeader, &h, sizeof h);
  return p;
}

Header header_of(void* p) {
  Header h;
  std::memcpy(&h, static_cast<char*>(p) - kHeader, sizeof h);
  if (h.magic != kMagic || h.size_class >= kClasses) __builtin_trap();  // not ours: heap corrupt
  return h;
}

std::size_t usable_bytes(void* p) {
  const Header h = header_of(p);
  return class_bytes(static_cast<int>(h.size_class)) - kHeader - h.offset;
}

bool is_power_of_two(std::size_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

namespace tessera::wasm {
bool thread_safe_malloc_linked() { return true; }
}  // namespace tessera::wasm

extern "C" {

void* malloc(std::size_t size) {
  void* p = allocate(size, kHeader);
  if (p == nullptr) errno = ENOMEM;
  return p;
}

void free(void* p) {
  if (p == nullptr) return;
  const Header h = header_of(p);
  char* block = static_cast<char*>(p) - h.offset - kHeader;
  g_lock.lock();
  auto* f = reinterpret_cast<FreeBlock*>(block);
  f->next = g_free[h.size_class];
  g_free[h.size_class] = f;
  g_lock.unlock();
}

void* calloc(std::size_t count, std::size_t size) {
  if (size != 0 && count > SIZE_MAX / size) {
    errno = ENOMEM;
    return nullptr;
  }
  void* p = malloc(count * size);
  // Recycled blocks hold old data; fresh memory.grow pages are zero, but
  // which one this is is not tracked.
  if (p != nullptr) std::memset(p, 0, count * size);
  return p;
}

void* realloc(void* p, std::size_t size) {
  if (p == nullptr) return malloc(size);
  const std::size_t have = usable_bytes(p);
  if (size <= have) return p;
  void* q = malloc(size);
  if (q == nullptr) return nullptr;  // p stays valid, as C requires
  std::memcpy(q, p, have);
  free(p);
  return q;
}

void* aligned_alloc(std::size_t align, std::size_t size) {
  if (!is_power_of_two(align)) {
    errno = EINVAL;
    return nullptr;
  }
  void* p = allocate(size, align);
  if (p == nullptr) errno = ENOMEM;
  return p;
}

void* memalign(std::size_t align, std::size_t size) { return aligned_alloc(align, size); }

int posix_memalign(void** out, std::size_t align, std::size_t size) {
  if (!is_power_of_two(align) || align % sizeof(void*) != 0) return EINVAL;
  void* p = allocate(size, align);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

std::size_t malloc_usable_size(void* p) { return p != nullptr ? usable_bytes(p) : 0; }

}  // extern "C"

#endif  // TESSERA_THREADS_USABLE && __wasi__
