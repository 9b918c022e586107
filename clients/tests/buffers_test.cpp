// The response size that stalls a server's send path: from tcp_wmem's maximum and the
// receive buffer the kernel gives the client.
#include "loiter/clients/transport/buffers.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace loiter::clients {
namespace {

namespace fs = std::filesystem;

fs::path file_with(const std::string& text) {
  const auto path = fs::temp_directory_path() / ("loiter-tcp-wmem-" + std::to_string(::getpid()));
  std::ofstream(path) << text;
  return path;
}

// tcp_wmem's third figure and the kernel's (doubled) receive buffer, twice over.
TEST(KernelBuffers, AStallingResponseIsTwiceTheSendMaximumAndTheReceiveBuffer) {
  const auto path = file_with("4096\t16384\t4194304\n");
  const auto buffers = kernel_buffers(65536, path);
  fs::remove(path);
  EXPECT_EQ(buffers.send_max, 4194304u);
  EXPECT_GE(buffers.receive, 65536u);  // Linux doubles what is asked
  EXPECT_EQ(stalling_response_bytes(buffers), 2 * (4194304u + buffers.receive));
}

// A tcp_wmem that cannot be read is named.
TEST(KernelBuffers, AnUnreadableTcpWmemIsNamed) {
  const auto path = file_with("4096 16384\n");
  EXPECT_THROW(
      {
        try {
          kernel_buffers(0, path);
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos);
          throw;
        }
      },
      std::runtime_error);
  fs::remove(path);
}

}  // namespace
}  // namespace loiter::clients
