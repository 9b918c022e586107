# loiter_check_link_closure(<target> FORBIDDEN <lib>... TEST <name>)
#
# Keeps a layer honest: once every target is defined, walks <target>'s link closure (its
# LINK_LIBRARIES and, transitively, each library's INTERFACE_LINK_LIBRARIES, aliases
# resolved) and registers the ctest test <name>, which fails naming the forbidden libraries
# found in it and the chain that brought each one in.
include_guard(GLOBAL)

function(loiter_check_link_closure target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TEST" "FORBIDDEN")
  set_property(GLOBAL APPEND PROPERTY LOITER_LAYER_CHECKS "${target}")
  set_property(GLOBAL PROPERTY LOITER_LAYER_${target}_FORBIDDEN "${ARG_FORBIDDEN}")
  set_property(GLOBAL PROPERTY LOITER_LAYER_${target}_TEST "${ARG_TEST}")
endfunction()

# The libraries `lib` links, as names (generator expressions reduced to their target).
function(_loiter_links_of lib out)
  set(links "")
  get_target_property(type ${lib} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(direct ${lib} LINK_LIBRARIES)
    if(direct)
      list(APPEND links ${direct})
    endif()
  endif()
  get_target_property(interface ${lib} INTERFACE_LINK_LIBRARIES)
  if(interface)
    list(APPEND links ${interface})
  endif()
  set(names "")
  foreach(link IN LISTS links)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" link "${link}")
    if(link MATCHES "^\\$<" OR link MATCHES "^-")
      continue()
    endif()
    list(APPEND names "${link}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

function(_loiter_check_layers)
  get_property(checks GLOBAL PROPERTY LOITER_LAYER_CHECKS)
  foreach(target IN LISTS checks)
    get_property(forbidden GLOBAL PROPERTY LOITER_LAYER_${target}_FORBIDDEN)
    get_property(test GLOBAL PROPERTY LOITER_LAYER_${target}_TEST)
    # Breadth-first over the closure; each entry remembers how it was reached.
    set(queue "${target}")
    set(seen "${target}")
    set(chain_${target} "${target}")
    set(found "")
    while(queue)
      list(POP_FRONT queue lib)
      if(NOT TARGET ${lib})
        continue()
      endif()
      _loiter_links_of(${lib} links)
      foreach(link IN LISTS links)
        set(name "${link}")
        if(TARGET ${link})
          get_target_property(aliased ${link} ALIASED_TARGET)
          if(aliased)
            set(name "${aliased}")
          endif()
        endif()
        if(link IN_LIST forbidden OR name IN_LIST forbidden)
          list(APPEND found "${chain_${lib}} -> ${link}")
        endif()
        if(NOT name IN_LIST seen)
          list(APPEND seen "${name}")
          list(APPEND queue "${name}")
          set(chain_${name} "${chain_${lib}} -> ${link}")
        endif()
      endforeach()
    endwhile()
    list(REMOVE_DUPLICATES found)
    set(report "${PROJECT_BINARY_DIR}/layers/${target}.txt")
    list(JOIN seen "\n" closure)
    list(JOIN found "\n" found_lines)
    file(WRITE "${report}" "closure of ${target}:\n${closure}\n\nforbidden found:\n${found_lines}\n")
    add_test(NAME ${test} COMMAND ${CMAKE_COMMAND} -DREPORT=${report}
             -P ${PROJECT_SOURCE_DIR}/cmake/check_link_closure.cmake)
    set_tests_properties(${test} PROPERTIES LABELS "unit;layers")
  endforeach()
endfunction()

cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL _loiter_check_layers)

# loiter_room_library(<room> SOURCES <file>... [LINK <lib>...] [PRIVATE_LINK <lib>...])
#
# One layer's library: loiter_<room> (alias loiter::<room>), its interface in include/,
# its private headers in src/.
function(loiter_room_library room)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;LINK;PRIVATE_LINK")
  add_library(loiter_${room} ${ARG_SOURCES})
  add_library(loiter::${room} ALIAS loiter_${room})
  target_include_directories(loiter_${room} PUBLIC include PRIVATE src)
  target_link_libraries(loiter_${room} PUBLIC ${ARG_LINK} PRIVATE ${ARG_PRIVATE_LINK})
endfunction()

# loiter_plain_data(<target>...)
#
# The plain-data layers (judge, reports, document, the CLI's commands but drive and shard):
# their sources compile with cmake/plain first on the include path, where Boost.Asio's,
# Beast's, OpenSSL's, toml++'s and nghttp2's first headers are an #error. A source that
# includes one of them, directly or through any header, fails the build naming itself: the
# check costs nothing, the build is the test.
function(loiter_plain_data)
  foreach(target IN LISTS ARGN)
    target_include_directories(${target} BEFORE PRIVATE ${PROJECT_SOURCE_DIR}/cmake/plain)
  endforeach()
endfunction()

# The check can fail: a source that includes Asio (or OpenSSL) with cmake/plain first on its
# include path does not compile, and says which library it included.
if(LOITER_BUILD_TESTS)
  foreach(library IN ITEMS asio:Asio:Boost.Asio openssl:OpenSSL:OpenSSL)
    string(REPLACE ":" ";" parts "${library}")
    list(GET parts 0 file)
    list(GET parts 1 test)
    list(GET parts 2 name)
    add_test(NAME Layers.PlainDataRefuses${test}
      COMMAND ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only -Wfatal-errors
              -I${PROJECT_SOURCE_DIR}/cmake/plain
              ${PROJECT_SOURCE_DIR}/cmake/tests/includes_${file}.cpp)
    set_tests_properties(Layers.PlainDataRefuses${test} PROPERTIES LABELS "unit;layers"
      PASS_REGULAR_EXPRESSION "a plain-data layer includes ${name}")
  endforeach()
endif()
