# Install rules: the public headers, the libraries, a CMake package
# (find_package(tessera CONFIG) -> tessera::tessera, tessera::tessera_shared)
# with its version file, a pkg-config file and the license. Included by the
# top level when TESSERA_INSTALL is on (by default only as the top-level
# project, as fmt does). Consumer tests: tests/consumer/.
include(CMakePackageConfigHelpers)

set(TESSERA_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tessera"
  CACHE STRING "Where the CMake package files are installed (relative to the prefix)")

set(_targets tessera)
if(TESSERA_BUILD_SHARED)
  list(APPEND _targets tessera_shared)
endif()
install(TARGETS ${_targets} EXPORT tesseraTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" NAMELINK_COMPONENT Development
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

# Headers: everything under core/include is public; of platform/, only the
# headers the public ones include, and the generated build configuration.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/core/include/tessera"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(FILES ${TESSERA_PLATFORM_PUBLIC_HEADERS}
  "${PROJECT_BINARY_DIR}/generated/include/tessera/platform/build_config.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/tessera/platform")
if(TESSERA_INSTALL_DATA_FILES)
  install(FILES ${TESSERA_INSTALL_DATA_FILES} DESTINATION "${CMAKE_INSTALL_DATADIR}/tessera")
endif()
# The license (Apache-2.0) goes with every installed tree, as the license
# asks of a redistribution, where Debian keeps a package's documents.
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/tessera")

install(EXPORT tesseraTargets NAMESPACE tessera:: FILE tesseraTargets.cmake
  DESTINATION "${TESSERA_INSTALL_CMAKEDIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/toolchains/package/tesseraConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/generated/package/tesseraConfig.cmake"
  INSTALL_DESTINATION "${TESSERA_INSTALL_CMAKEDIR}")
# 0.x: a minor release may change the API, so only the same minor version
# satisfies a request.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/generated/package/tesseraConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/generated/package/tesseraConfig.cmake"
  "${PROJECT_BINARY_DIR}/generated/package/tesseraConfigVersion.cmake"
  DESTINATION "${TESSERA_INSTALL_CMAKEDIR}")

# pkg-config: the static library's private needs go in Libs.private: the
# threads library and, for a C program linking the C++ library statically,
# the C++ runtime (GCC's and Debian's clang's: libstdc++).
if(TESSERA_PLATFORM_BACKEND STREQUAL "native")
  set(TESSERA_PC_LIBS_PRIVATE "-pthread -lstdc++ -lm")
else()
  set(TESSERA_PC_LIBS_PRIVATE "")
endif()
# Relocatable: the prefix is found from the .pc file's own folder, so the
# tree can be installed with any --prefix (or moved) and still be right.
file(RELATIVE_PATH TESSERA_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file("${PROJECT_SOURCE_DIR}/toolchains/package/tessera.pc.in"
  "${PROJECT_BINARY_DIR}/generated/package/tessera.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/generated/package/tessera.pc"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
