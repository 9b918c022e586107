# ctest: fails when the link-closure report written at configure time lists a forbidden
# library (see LoiterLayers.cmake). cmake -DREPORT=<file> -P check_link_closure.cmake
file(READ "${REPORT}" text)
string(FIND "${text}" "forbidden found:\n" at)
string(SUBSTRING "${text}" ${at} -1 tail)
string(REPLACE "forbidden found:\n" "" tail "${tail}")
string(STRIP "${tail}" tail)
if(NOT tail STREQUAL "")
  message(FATAL_ERROR "a layer links what it must not (target -> ... -> library):\n${tail}")
endif()
message(STATUS "link closure clean: ${REPORT}")
