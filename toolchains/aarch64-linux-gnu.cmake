# Toolchain: Linux on aarch64 (NEON), cross-compiled with Debian's
# g++-aarch64-linux-gnu; programs (tests, tessera-cli) run under user-mode
# qemu (Debian's qemu-user) with the cross libc as the loader prefix.
#
#   cmake --preset aarch64                   (or)
#   cmake -S . -B build/aarch64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=toolchains/aarch64-linux-gnu.cmake
cmake_minimum_required(VERSION 3.25)

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(TESSERA_CROSS_PREFIX aarch64-linux-gnu)
set(TESSERA_CROSS_ROOT "/usr/${TESSERA_CROSS_PREFIX}")

set(CMAKE_C_COMPILER "${TESSERA_CROSS_PREFIX}-gcc")
set(CMAKE_CXX_COMPILER "${TESSERA_CROSS_PREFIX}-g++")

# find_*: target headers and libraries only from the cross root.
set(CMAKE_FIND_ROOT_PATH "${TESSERA_CROSS_ROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# -L: where qemu finds the aarch64 dynamic loader and shared libraries.
find_program(TESSERA_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(TESSERA_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${TESSERA_QEMU_AARCH64};-L;${TESSERA_CROSS_ROOT}")
endif()
