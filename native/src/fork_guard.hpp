// fork() and the pool: a child process inherits the pool objects but not
// their worker threads (only the forking thread survives a fork). A region
// posted there would wait forever for workers that do not exist, and joining
// them would be undefined. So every pool remembers the process generation it
// was created in; in a child the pool is "orphaned": its regions run
// serially on the caller (counted as serial fallbacks), its destructor
// neither joins nor detaches the absent threads, and the registry hands
// out fresh pools.
#pragma once

#include <cstdint>

namespace tessera::native {

// Increments in every child process after fork() (registered with
// pthread_atfork by the first call to install_fork_handler). A relaxed load
// of one global: cheap enough for every region.
std::uint32_t fork_generation() noexcept;

// Registers the handler once per process (idempotent, thread-safe).
void install_fork_handler() noexcept;

}  // namespace tessera::native
