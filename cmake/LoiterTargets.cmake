# loiter_add_target(NAME <name> TARGET <bundled-name-or-target-file> [PROTOCOL http1|tls|h2]
#                   [SCENARIOS <id>...] [LABELS <label>...] [TIMEOUT <seconds>]
#                   [ARGS <check option>...])
#
# Registers the scenario catalogue against one target with ctest, in the calling project
# (loiter as a subdirectory or found with find_package): one test per scenario, named
# <name>.<id>, labelled `scenario`, the scenario's family and <name> (plus LABELS). Each
# runs `loiter check --target <target> --scenario <id>` (exit 0 passes, anything else
# fails), its run directory under <build>/loiter-runs/<name>/<id>/, its JUnit XML in
# <build>/junit/<name>.<id>.xml. A scenario the target does not declare what it needs for
# is reported by ctest as skipped, its reason in the output. A relative target file is taken
# from the calling CMakeLists.txt's directory.
# Without SCENARIOS: the default run of the target's PROTOCOL, as the catalogue's data file
# says (suites/catalogue/catalogue.txt): what `loiter check` runs on it, without the
# scenarios of other protocols, which could never run there; the floods and the soak are
# left out. PROTOCOL is http1 (cleartext HTTP/1.1), tls (HTTP/1.1 over TLS: the http1
# scenarios and the tls family) or h2 (HTTP/2, over TLS or not); without it, the target
# file says: h2 if it has an [h2] table, else tls if it has [tls], else http1.
# ARGS are passed to every test's `loiter check`, e.g. `--set deadlines.header=0.5` (the
# target's deadlines, and the server's flags its command takes from them) or
# `--load-duration 8`.
include_guard(GLOBAL)

function(loiter_add_target)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;TARGET;TIMEOUT;PROTOCOL" "SCENARIOS;LABELS;ARGS")
  if(NOT ARG_NAME OR NOT ARG_TARGET)
    message(FATAL_ERROR "loiter_add_target: NAME and TARGET are required")
  endif()
  if(NOT TARGET loiter::loiter)
    message(FATAL_ERROR "loiter_add_target: no loiter::loiter executable "
                        "(add_subdirectory(loiter) or find_package(loiter) first)")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 180)
  endif()
  set(target "${ARG_TARGET}")
  if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${target}" AND NOT IS_DIRECTORY
     "${CMAKE_CURRENT_SOURCE_DIR}/${target}")
    set(target "${CMAKE_CURRENT_SOURCE_DIR}/${target}")
  endif()
  if(NOT ARG_PROTOCOL)
    _loiter_target_protocol("${target}" ARG_PROTOCOL)
  elseif(NOT ARG_PROTOCOL MATCHES "^(http1|tls|h2)$")
    message(FATAL_ERROR "loiter_add_target(${ARG_NAME}): PROTOCOL is http1, tls or h2, not "
                        "'${ARG_PROTOCOL}'")
  endif()
  # LOITER_CATALOGUE and LOITER_DEFAULT_* in this function's scope, wherever it is called
  # from.
  include(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/LoiterCatalogue.cmake)
  set(known "")
  foreach(entry IN LISTS LOITER_CATALOGUE)
    string(REPLACE ":" ";" parts "${entry}")
    list(GET parts 0 id)
    list(GET parts 1 family)
    list(APPEND known "${id}")
    if(ARG_SCENARIOS AND NOT id IN_LIST ARG_SCENARIOS)
      continue()
    endif()
    # As in `loiter check`: its default run, of the target's protocol (the other's skipped).
    if(NOT ARG_SCENARIOS)
      string(TOUPPER "${ARG_PROTOCOL}" protocol)
      if(NOT id IN_LIST LOITER_DEFAULT_${protocol})
        continue()
      endif()
    endif()
    _loiter_add_scenario_test("${ARG_NAME}" "${target}" "${id}" "${family}" "${ARG_TIMEOUT}"
                              "${ARG_ARGS}" ${ARG_LABELS})
  endforeach()
  foreach(id IN LISTS ARG_SCENARIOS)
    if(NOT id IN_LIST known)
      message(FATAL_ERROR "loiter_add_target(${ARG_NAME}): no scenario '${id}' "
                          "(the catalogue: ${known})")
    endif()
  endforeach()
endfunction()

# The protocol a target file declares: h3 with an [h3] table, h2 with [h2], tls with [tls],
# else http1.
# A bundled target's file is looked for beside loiter's sources (add_subdirectory) or in
# the installed share/loiter/targets; not found, http1.
function(_loiter_target_protocol target out)
  set(file "")
  if(EXISTS "${target}" AND NOT IS_DIRECTORY "${target}")
    set(file "${target}")
  else()
    set(here "${CMAKE_CURRENT_FUNCTION_LIST_DIR}")
    foreach(dir IN ITEMS "${here}/../fixtures/targets" "${here}/../../../share/loiter/targets"
                         "${here}/../../../../share/loiter/targets")
      if(EXISTS "${dir}/${target}.toml")
        set(file "${dir}/${target}.toml")
        break()
      endif()
    endforeach()
  endif()
  set(protocol http1)
  if(file)
    file(STRINGS "${file}" tables REGEX "^[ \t]*\\[(tls|h2|h3)\\][ \t]*(#.*)?$")
    if(tables MATCHES "\\[h3\\]")
      set(protocol h3)
    elseif(tables MATCHES "\\[h2\\]")
      set(protocol h2)
    elseif(tables MATCHES "\\[tls\\]")
      set(protocol tls)
    endif()
  endif()
  set(${out} ${protocol} PARENT_SCOPE)
endfunction()

# One ctest test: one scenario against one target, one `loiter check` process; `args` the
# extra options of check (a list), ARGN the extra labels.
function(_loiter_add_scenario_test name target id family timeout args)
  set(test_name "${name}.${id}")
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/junit)  # --junit refuses a missing directory
  add_test(NAME ${test_name}
    COMMAND $<TARGET_FILE:loiter::loiter> check --target ${target} --scenario ${id} ${args}
            --runs ${CMAKE_BINARY_DIR}/loiter-runs/${name}/${id}
            --junit ${CMAKE_BINARY_DIR}/junit/${test_name}.xml)
  # A list value is fine for set_tests_properties (the 3.25 pitfall is in
  # gtest_discover_tests, which flattens PROPERTIES). check's summary line names a skip.
  # COST: a scenario takes seconds (a deadline and the clients' patience), a unit test less:
  # without timings of its own (a clean build) ctest starts the costliest first.
  set_tests_properties(${test_name} PROPERTIES
    SKIP_REGULAR_EXPRESSION "(^|\n)0 passed, 0 failed, 1 skipped"
    TIMEOUT ${timeout}
    COST 4
    LABELS "scenario;${family};${name};${ARGN}")
  # Load and flood scenarios time regular traffic: nothing else may run beside them.
  if(family STREQUAL "load" OR family STREQUAL "flood")
    set_tests_properties(${test_name} PROPERTIES RUN_SERIAL TRUE)
  endif()
endfunction()
