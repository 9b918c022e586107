# loiter as other projects use it (labels consumer, package): examples/cmake-consumer
# through add_subdirectory and through find_package after `cmake --install`, and the
# Debian package (cmake/tests/*.sh hold the steps).
include_guard(GLOBAL)

# loiter_consumer_test(<test name> <script> <argument>...)
function(loiter_consumer_test name label script)
  add_test(NAME ${name} COMMAND ${PROJECT_SOURCE_DIR}/cmake/tests/${script} ${ARGN}
                                ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  # Alone (RUN_SERIAL): scripts/package builds in the build tree it is given, and a binary
  # relinked there under a running test fails it (HostileInputs: "cannot start
  # build/bin/loiter" while the package test ran beside it).
  set_tests_properties(${name} PROPERTIES LABELS "${label};integration" TIMEOUT 1200
                                          RUN_SERIAL TRUE)
endfunction()

# add_subdirectory(loiter): ctest -N lists the catalogue against nginx and nothing of
# loiter's own, and `ctest -L gate` passes against nginx (builds loiter once, nested).
# Label `rebuild` too: it builds loiter again (~5 min on 2 cores), so scripts/test leaves it
# out; `ctest -L rebuild` runs it.
loiter_consumer_test(Consumer.AsASubdirectoryRegistersOnlyTheCatalogueAndGatesNginx
  "consumer;rebuild" consumer_test.sh subdirectory)
# The same through find_package(loiter) after `cmake --install` of this build.
loiter_consumer_test(Consumer.FoundInstalledRegistersOnlyTheCatalogueAndGatesNginx consumer
  consumer_test.sh installed)
# scripts/package's .deb declares its Depends and, unpacked, runs check with its own server.
loiter_consumer_test(Package.DebUnpackedRunsCheckWithItsOwnReferenceServer package
  package_test.sh)
