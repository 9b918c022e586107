// g++ 12.2 wrong code, GCC PR 106188: a coroutine with NO local variable at all whose
// if/while/switch condition contains co_await gets its condition flag (__ifcd_N) laid out
// at offset 0 of the coroutine frame, where coroutine_handle::resume() expects the resume
// function pointer.  The first resume() after a real suspension jumps to address 0.
#include <coroutine>
#include <cstdio>
struct co { struct promise_type { co get_return_object() { return {}; }
  std::suspend_never initial_suspend() noexcept { return {}; } std::suspend_never final_suspend() noexcept { return {}; }
  void return_void() {} void unhandled_exception() {} }; };
std::coroutine_handle<> pending;
struct later { bool v; bool await_ready() { return false; }          // suspends, like I/O
  void await_suspend(std::coroutine_handle<> h) { pending = h; } bool await_resume() { return v; } };
int reached = 0;
co no_locals() {                       // crashes (no local variable in the body)
  if (!co_await later{true}) co_return;
  ++reached;
}
co with_a_local() {                    // identical, plus one local: fine
  int unused = 0; (void)unused;
  if (!co_await later{true}) co_return;
  ++reached;
}
int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  with_a_local(); pending.resume(); std::printf("with a local: reached=%d\n", reached);
  no_locals();    pending.resume(); std::printf("no locals:    reached=%d\n", reached);
}
