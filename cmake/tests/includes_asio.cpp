// Compiled by the Layers.PlainDataRefuses* tests with cmake/plain first on the include path:
// it must fail, naming the library (a check that cannot fail proves nothing).
#include <boost/asio/io_context.hpp>
