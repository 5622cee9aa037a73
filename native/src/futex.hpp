// Parking: block a thread until a 32-bit atomic word changes. Linux uses the
// futex syscall directly; elsewhere C++20 std::atomic::wait/notify.
//
// Why futex and not std::atomic::wait on Linux (bench-dispatch --only wake:
// a thread parks, another changes the word and wakes it 300 us later):
// raw futex median ~3.3 us; libstdc++ 12's atomic::wait ~21-45 us (it spins
// and yields on its own before sleeping and routes waits and wakes through a
// shared table of waiter counts). Raw futex also has a timed wait, which
// idle release needs.
//
// Neither call is a memory fence: callers synchronise through the word's
// own atomic operations; the futex only blocks and unblocks.
#pragma once

#include <atomic>
#include <cstdint>

namespace tessera::native {

// Blocks while word == expected, until woken, for at most timeout_ns
// (< 0: no limit). May return spuriously; callers re-check the word.
// Returns false when the timeout expired.
bool futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected,
                std::int64_t timeout_ns) noexcept;

// Wakes every thread blocked on word.
void futex_wake_all(std::atomic<std::uint32_t>* word) noexcept;

// False where futex_wait cannot time out (then idle release cannot happen:
// a parked worker only wakes for work or shutdown).
bool futex_has_timeout() noexcept;

}  // namespace tessera::native
