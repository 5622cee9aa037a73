# Platform module for CMAKE_SYSTEM_NAME WASI (WebAssembly System Interface,
# preview1 command modules). CMake 3.25 ships none: without this file it
# warns "System is unknown to cmake", names objects .obj and gives
# executables no suffix. toolchains/wasi-sdk.cmake puts this folder on
# CMAKE_MODULE_PATH before project(). Newer CMake releases that know WASI
# are shadowed by this file, which is harmless: it sets the same things.
set(WASI 1)
# A POSIX-like libc (wasi-libc, from musl): object and archive names as on
# Unix; this also selects .o over .obj.
set(UNIX 1)

set(CMAKE_EXECUTABLE_SUFFIX ".wasm")
set(CMAKE_STATIC_LIBRARY_PREFIX "lib")
set(CMAKE_STATIC_LIBRARY_SUFFIX ".a")
set(CMAKE_FIND_LIBRARY_PREFIXES "lib")
set(CMAKE_FIND_LIBRARY_SUFFIXES ".a")

# Preview1 has no dynamic linking.
set_property(GLOBAL PROPERTY TARGET_SUPPORTS_SHARED_LIBS FALSE)
set(CMAKE_DL_LIBS "")

# Search locations relative to CMAKE_FIND_ROOT_PATH (the sysroot).
set(CMAKE_SYSTEM_INCLUDE_PATH /include/wasm32-wasi /include)
set(CMAKE_SYSTEM_LIBRARY_PATH /lib/wasm32-wasi /lib)
set(CMAKE_SYSTEM_PROGRAM_PATH /bin)
