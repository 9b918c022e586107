# The scenario catalogue as CMake sees it, read from its data file (catalogue.txt: id,
# family, protocol, run; the binary embeds the same file). ctest needs the ids at configure
# time to give each scenario its own test and labels. Sets:
#   LOITER_CATALOGUE       "id:family" for each scenario, in catalogue order
#   LOITER_ON_REQUEST      the ids only run when named (the floods, the soak)
#   LOITER_DEFAULT_HTTP1   the ids of the default run on a cleartext HTTP/1.1 target
#   LOITER_DEFAULT_TLS     the ids of the default run on an HTTP/1.1 target over TLS ([tls]):
#                          LOITER_DEFAULT_HTTP1 and the tls family, in catalogue order
#   LOITER_DEFAULT_H2      the ids of the default run on an [h2] target
#   LOITER_DEFAULT_H3      the ids of the default run on an [h3] target (the h3 family alone)
# A scenario of protocol any runs on every target but an [h3] one (over HTTP/1.1 or HTTP/2,
# as it speaks): it is in the first three default lists; one of protocol every also runs over
# HTTP/3 on an [h3] target: it is in all four.
# In the source tree the file is suites/catalogue/catalogue.txt; installed, it is beside
# this one.
set(LOITER_CATALOGUE_FILE "${CMAKE_CURRENT_LIST_DIR}/../suites/catalogue/catalogue.txt")
if(NOT EXISTS "${LOITER_CATALOGUE_FILE}")
  set(LOITER_CATALOGUE_FILE "${CMAKE_CURRENT_LIST_DIR}/catalogue.txt")
endif()
file(STRINGS "${LOITER_CATALOGUE_FILE}" _loiter_catalogue_lines REGEX "^[^#]")
set(LOITER_CATALOGUE "")
set(LOITER_ON_REQUEST "")
set(LOITER_DEFAULT_HTTP1 "")
set(LOITER_DEFAULT_TLS "")
set(LOITER_DEFAULT_H2 "")
set(LOITER_DEFAULT_H3 "")
foreach(_loiter_line IN LISTS _loiter_catalogue_lines)
  string(REGEX MATCH "^([a-z0-9-]+) +([a-z0-9-]+) +(http1|tls|h2|h3|any|every) +(default|on-request) *$"
         _loiter_match "${_loiter_line}")
  if(NOT _loiter_match)
    message(FATAL_ERROR "${LOITER_CATALOGUE_FILE}: not 'id family protocol run': "
                        "'${_loiter_line}'")
  endif()
  list(APPEND LOITER_CATALOGUE "${CMAKE_MATCH_1}:${CMAKE_MATCH_2}")
  if(CMAKE_MATCH_4 STREQUAL "on-request")
    list(APPEND LOITER_ON_REQUEST "${CMAKE_MATCH_1}")
  elseif(CMAKE_MATCH_3 STREQUAL "h2")
    list(APPEND LOITER_DEFAULT_H2 "${CMAKE_MATCH_1}")
  elseif(CMAKE_MATCH_3 STREQUAL "h3")
    list(APPEND LOITER_DEFAULT_H3 "${CMAKE_MATCH_1}")
  elseif(CMAKE_MATCH_3 STREQUAL "any" OR CMAKE_MATCH_3 STREQUAL "every")
    list(APPEND LOITER_DEFAULT_HTTP1 "${CMAKE_MATCH_1}")
    list(APPEND LOITER_DEFAULT_TLS "${CMAKE_MATCH_1}")
    list(APPEND LOITER_DEFAULT_H2 "${CMAKE_MATCH_1}")
    if(CMAKE_MATCH_3 STREQUAL "every")
      list(APPEND LOITER_DEFAULT_H3 "${CMAKE_MATCH_1}")
    endif()
  elseif(CMAKE_MATCH_3 STREQUAL "tls")
    list(APPEND LOITER_DEFAULT_TLS "${CMAKE_MATCH_1}")
  else()
    list(APPEND LOITER_DEFAULT_HTTP1 "${CMAKE_MATCH_1}")
    list(APPEND LOITER_DEFAULT_TLS "${CMAKE_MATCH_1}")
  endif()
endforeach()
