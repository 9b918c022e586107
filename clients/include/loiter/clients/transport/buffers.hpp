// How large a response must be to stall a server's send path on this machine: larger than
// all the kernel can hold for it, the server's send buffer at its most (tcp_wmem's maximum,
// which loopback autotuning reaches) plus the client's receive buffer. A smaller response
// is taken whole by the kernel, the server's writes return at once, and no send deadline
// of the server's is ever put to the test, however slowly the client reads.
#pragma once

#include <cstddef>
#include <filesystem>

namespace loiter::clients {

struct KernelBuffers {
  std::size_t send_max = 0;  // the third figure of /proc/sys/net/ipv4/tcp_wmem
  std::size_t receive = 0;   // SO_RCVBUF as the kernel set it for the asked size

  std::size_t total() const { return send_max + receive; }
};

// The response is this many times the buffers, so a stall comes well before its end.
inline constexpr std::size_t kStallMargin = 2;

// Reads tcp_wmem (at `tcp_wmem`) and the receive buffer a socket gets when asked for
// `receive_buffer` bytes (0: the default). Throws std::runtime_error naming the file or call
// that failed.
KernelBuffers kernel_buffers(int receive_buffer,
                             const std::filesystem::path& tcp_wmem = "/proc/sys/net/ipv4/tcp_wmem");

// kStallMargin x the buffers: a response that cannot fit in them.
std::size_t stalling_response_bytes(const KernelBuffers& buffers);

}  // namespace loiter::clients
