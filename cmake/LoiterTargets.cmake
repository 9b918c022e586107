# loiter_add_target(NAME <name> TARGET <bundled-name-or-target-file>
#                   [SCENARIOS <id>...] [LABELS <label>...] [TIMEOUT <seconds>])
#
# Registers the scenario catalogue against one target with ctest: one test per scenario,
# named <name>.<id>, labelled `scenario`, the scenario's family and <name> (plus LABELS),
# each writing JUnit XML to <build>/junit/<name>.<id>.xml. A scenario the target does not
# declare what it needs for is reported by ctest as skipped, with the reason in its output.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/LoiterCatalogue.cmake)

function(loiter_add_target)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;TARGET;TIMEOUT" "SCENARIOS;LABELS")
  if(NOT ARG_NAME OR NOT ARG_TARGET)
    message(FATAL_ERROR "loiter_add_target: NAME and TARGET are required")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 180)
  endif()
  foreach(entry IN LISTS LOITER_CATALOGUE)
    string(REPLACE ":" ";" parts "${entry}")
    list(GET parts 0 id)
    list(GET parts 1 family)
    if(ARG_SCENARIOS AND NOT id IN_LIST ARG_SCENARIOS)
      continue()
    endif()
    string(REPLACE "-" "_" gtest_id "${id}")
    set(test_name "${ARG_NAME}.${id}")
    add_test(NAME ${test_name}
      COMMAND $<TARGET_FILE:loiter_catalogue_test>
              --gtest_filter=Catalogue/ScenarioTest.ServerKeepsItsPromises/${gtest_id}
              --gtest_output=xml:${CMAKE_BINARY_DIR}/junit/${test_name}.xml)
    # A list value is fine for set_tests_properties (the 3.25 pitfall is in
    # gtest_discover_tests, which flattens PROPERTIES).
    set_tests_properties(${test_name} PROPERTIES
      ENVIRONMENT "LOITER_TARGET=${ARG_TARGET}"
      SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
      TIMEOUT ${ARG_TIMEOUT}
      LABELS "scenario;${family};${ARG_NAME};${ARG_LABELS}")
    # Load scenarios time regular traffic: nothing else may run beside them.
    if(family STREQUAL "load")
      set_tests_properties(${test_name} PROPERTIES RUN_SERIAL TRUE)
    endif()
  endforeach()
endfunction()
