# loiter as other projects use it (labels consumer, package): examples/cmake-consumer
# through add_subdirectory and through find_package after `cmake --install`, and the
# Debian package (cmake/tests/*.sh hold the steps).
include_guard(GLOBAL)

# loiter_consumer_test(<test name> <script> [ALONE] <argument>...)
# ALONE (RUN_SERIAL): for what builds in the build tree it is given (scripts/package, the
# nested add_subdirectory build): a binary relinked there under a running test fails it
# (HostileInputs: "cannot start build/bin/loiter" while the package test ran beside it).
# The installed consumer only reads the tree (`cmake --install` copies it) and runs two
# nginx gates, as the nginx tests beside it do.
function(loiter_consumer_test name label script)
  cmake_parse_arguments(PARSE_ARGV 3 ARG "ALONE" "" "")
  add_test(NAME ${name} COMMAND ${PROJECT_SOURCE_DIR}/cmake/tests/${script}
                                ${ARG_UNPARSED_ARGUMENTS}
                                ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  set_tests_properties(${name} PROPERTIES LABELS "${label};integration" TIMEOUT 1200
                                          RUN_SERIAL ${ARG_ALONE})
endfunction()

# add_subdirectory(loiter): ctest -N lists the catalogue against nginx and nothing of
# loiter's own, and `ctest -L gate` passes against nginx (builds loiter once, nested).
# Label `rebuild` too: it builds loiter again (~5 min on 2 cores), so scripts/test leaves it
# out; `ctest -L rebuild` runs it.
loiter_consumer_test(Consumer.AsASubdirectoryRegistersOnlyTheCatalogueAndGatesNginx
  "consumer;rebuild" consumer_test.sh ALONE subdirectory)
# The same through find_package(loiter) after `cmake --install` of this build.
loiter_consumer_test(Consumer.FoundInstalledRegistersOnlyTheCatalogueAndGatesNginx consumer
  consumer_test.sh installed)
# scripts/package's .deb declares its Depends and, unpacked, runs check with its own server.
loiter_consumer_test(Package.DebUnpackedRunsCheckWithItsOwnReferenceServer package
  package_test.sh ALONE)
