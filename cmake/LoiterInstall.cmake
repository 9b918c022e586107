# Installing loiter: bin/loiter and bin/loiter-reference-server (found beside loiter at run
# time), the bundled target files in share/loiter/targets (also embedded in loiter, here to
# read and copy), and lib/cmake/loiter/ for find_package(loiter CONFIG): the imported
# executable loiter::loiter and loiter_add_target(). CPack makes the Debian package from it.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LOITER_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/loiter)

install(TARGETS loiter EXPORT loiterTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS loiter-reference-server RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
file(GLOB loiter_target_files ${PROJECT_SOURCE_DIR}/fixtures/targets/*.toml)
install(FILES ${loiter_target_files} DESTINATION ${CMAKE_INSTALL_DATADIR}/loiter/targets)

# loiterExports.cmake, not loiterTargets.cmake: LoiterTargets.cmake sits beside it, and a
# case-insensitive file system would take one for the other.
install(EXPORT loiterTargets FILE loiterExports.cmake NAMESPACE loiter::
        DESTINATION ${LOITER_CMAKE_INSTALL_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/loiterConfig.cmake.in
  ${PROJECT_BINARY_DIR}/loiterConfig.cmake INSTALL_DESTINATION ${LOITER_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/loiterConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/loiterConfig.cmake
              ${PROJECT_BINARY_DIR}/loiterConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/LoiterTargets.cmake
              ${PROJECT_SOURCE_DIR}/cmake/LoiterCatalogue.cmake
              ${PROJECT_SOURCE_DIR}/suites/catalogue/catalogue.txt
        DESTINATION ${LOITER_CMAKE_INSTALL_DIR})

# The Debian package (scripts/package), only as the top-level project (an includer's CPack
# is its own). Its runtime libraries are named by hand, as Debian 12 spells them (ldd of
# both binaries; dpkg-shlibdeps would tie the package to the build machine's versions).
if(NOT PROJECT_IS_TOP_LEVEL)
  return()
endif()
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME loiter)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "loiter maintainers <loiter@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Adversarial connection-lifecycle test suite for HTTP servers")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libboost-json1.81.0, libfmt9, libnghttp2-14, libngtcp2-9, libngtcp2-crypto-gnutls2, libnghttp3-3, libgnutls30, libssl3, libtomlplusplus3, libyaml-cpp0.7, libstdc++6, libgcc-s1, libc6")
include(CPack)
