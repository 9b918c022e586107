# Precompiled headers (loiter's own build only): Asio, Beast, fmt and the standard library
# parsed once into a PCH that every Asio-using target reuses, plus gtest/gmock in a second
# one for the tests. Parsing those headers is most of what such a file costs at -O2
# (<boost/asio.hpp> alone ~4 s of CPU, a whole client file ~6 s), and a clean build (CI's,
# no ccache hits) parses them once per translation unit otherwise.
#
# One PCH per set of flags: GCC takes a PCH only where every macro its headers test is
# defined as when it was made (it falls back to parsing, silently, otherwise; add
# -Winvalid-pch to see why). The owners below are object libraries of their own with the
# flags of every user: loiter_asio's BOOST_ASIO_NO_DEPRECATED, fmt's FMT_SHARED, gtest's
# GTEST_HAS_PTHREAD. Boost.JSON stays out (its *_DYN_LINK macros come only with
# Boost::json's users), and so does every header of the plain-data rooms' own: the judge
# and its tests never get a PCH (no Asio in their translation units, as in their links).
#
# -DLOITER_PRECOMPILE_HEADERS=OFF: no PCH (each file parses what it includes, as a compiler
# without PCH support would).
include_guard(GLOBAL)

option(LOITER_PRECOMPILE_HEADERS "Precompile Asio, Beast, fmt (and gtest) for loiter's targets"
       ${PROJECT_IS_TOP_LEVEL})

# What the Asio-using rooms include most, and what is heaviest to parse.
set(loiter_pch_asio_headers
  <algorithm> <array> <chrono> <cstddef> <cstdint> <filesystem> <functional> <map>
  <memory> <optional> <stdexcept> <string> <string_view> <utility> <vector>
  <fmt/format.h> <fmt/ranges.h>
  <boost/asio/as_tuple.hpp> <boost/asio/awaitable.hpp> <boost/asio/co_spawn.hpp>
  <boost/asio/connect.hpp> <boost/asio/detached.hpp> <boost/asio/io_context.hpp>
  <boost/asio/ip/tcp.hpp> <boost/asio/post.hpp> <boost/asio/steady_timer.hpp>
  <boost/asio/use_awaitable.hpp> <boost/asio/write.hpp> <boost/asio/ssl.hpp>
  <boost/beast/core/flat_buffer.hpp> <boost/beast/http.hpp>)

if(LOITER_PRECOMPILE_HEADERS)
  # An object library needs a source: an empty one, generated.
  set(loiter_pch_source ${PROJECT_BINARY_DIR}/loiter_pch.cpp)
  file(CONFIGURE OUTPUT ${loiter_pch_source}
       CONTENT "// The PCH owners' one source: empty (cmake/LoiterPrecompiledHeaders.cmake).\n")
  add_library(loiter_pch_asio OBJECT ${loiter_pch_source})
  target_link_libraries(loiter_pch_asio PRIVATE loiter_asio fmt::fmt)
  target_precompile_headers(loiter_pch_asio PRIVATE ${loiter_pch_asio_headers})
  if(LOITER_BUILD_TESTS)
    add_library(loiter_pch_test OBJECT ${loiter_pch_source})
    target_link_libraries(loiter_pch_test PRIVATE loiter_asio fmt::fmt GTest::gmock)
    target_precompile_headers(loiter_pch_test PRIVATE ${loiter_pch_asio_headers}
                              <gtest/gtest.h> <gmock/gmock.h>)
  endif()
endif()

# loiter_precompiled_headers(ASIO <target>... TESTS <target>...)
# ASIO: targets that link loiter_asio; TESTS: test executables that link loiter_asio and
# gtest. Nothing when LOITER_PRECOMPILE_HEADERS is OFF.
function(loiter_precompiled_headers)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "" "ASIO;TESTS")
  if(NOT LOITER_PRECOMPILE_HEADERS)
    return()
  endif()
  foreach(target IN LISTS ARG_ASIO)
    target_precompile_headers(${target} REUSE_FROM loiter_pch_asio)
  endforeach()
  foreach(target IN LISTS ARG_TESTS)
    target_precompile_headers(${target} REUSE_FROM loiter_pch_test)
  endforeach()
endfunction()
