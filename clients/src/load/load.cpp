// spawn_load: the options checked, the engine made with the exchange of the protocol asked
// for (load_engine.hpp), and started.
#include "loiter/clients/load/load.hpp"

#include <stdexcept>

#include "load_engine.hpp"

namespace loiter::clients {

void spawn_load(asio::io_context& io, const LoadOptions& options, LoadResult& out) {
  using namespace load_detail;
  check_options(options);
  switch (options.protocol) {
    case LoadProtocol::http1:
      return start_engine(make_h1_load(io.get_executor(), options, out));
    case LoadProtocol::h2:
      return start_engine(make_h2_load(io.get_executor(), options, out));
    case LoadProtocol::h3:
      return start_engine(make_h3_load(io.get_executor(), options, out));
  }
}

}  // namespace loiter::clients
