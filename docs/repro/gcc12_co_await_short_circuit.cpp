// g++ 12.2 wrong code with Boost.Asio awaitables: a co_await in the right operand of && / || or in an arm
// of ?: is executed even when it must not be, unless the && / || / ?: is the whole condition of an `if`
// or the whole initializer/assigned value of a bool (same type, no conversion).  c is false below, so
// f() must never run; `runs` counts how often it did.
#include <boost/asio.hpp>
#include <cstdio>
namespace asio = boost::asio;
int runs = 0, finished = 0;
asio::awaitable<bool> f(bool r) {
  ++runs;
  co_await asio::post(co_await asio::this_coro::executor, asio::use_awaitable);
  ++finished;
  co_return r;
}
asio::awaitable<bool> and_then(bool c) { co_return c && co_await f(true); }
#define SHOW(what) std::printf("%-40s f ran=%d, completed=%d  %s\n", what, runs, finished, runs ? "WRONG" : "ok"); runs = finished = 0
asio::awaitable<void> body(bool c) {
  bool b = false; int i = 0; (void)b; (void)i;
  if (c && co_await f(true)) b = true;
  SHOW("if (c && co_await f())");
  b = c && co_await f(true);
  SHOW("b = c && co_await f();      bool b");
  while (c && co_await f(true)) {}
  SHOW("while (c && co_await f()) {}");
  if ((c && co_await f(true)) || i == 42) b = 1;
  SHOW("if ((c && co_await f()) || i == 42)");
  i = c && co_await f(true);
  SHOW("i = c && co_await f();      int i");
  b = co_await and_then(c);
  SHOW("co_return c && co_await f();");
  i = c ? co_await f(true) : false;
  SHOW("i = c ? co_await f() : false;   int i");
}
int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  asio::io_context io;
  asio::co_spawn(io, body(false), asio::detached);
  io.run();
}
