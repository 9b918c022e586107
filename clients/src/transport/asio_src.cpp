// Asio's and Beast's non-template code (the scheduler and reactor, socket operations, TLS
// contexts and streams' engine, Beast's field tables, its zlib and base64), compiled once here
// rather than inline in every translation unit that includes their headers: every target of
// loiter's that uses them is compiled with BOOST_ASIO_SEPARATE_COMPILATION and
// BOOST_BEAST_SEPARATE_COMPILATION (loiter_asio, CMakeLists.txt) and links this.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
