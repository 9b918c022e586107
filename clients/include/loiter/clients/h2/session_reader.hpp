// Reads a connection's received bytes as HTTP/2 frames into its record: the server's
// SETTINGS (and its ACK of the client's), GOAWAY, RST_STREAM noted in record.h2; one
// Response a stream in record.responses, in the order their HEADERS arrived (HEADERS and
// CONTINUATION reassembled and decoded for :status, DATA counted into body_bytes, whole at
// END_STREAM; a reset stream's response stays incomplete). With answer_control it also
// collects the replies a well-behaved client owes: a SETTINGS ACK for each SETTINGS, a PING
// ACK for each PING. Nothing here sends or throws; a server that does not speak h2 (or
// sends a header block that does not decode) makes it fail, and later bytes are only counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/hpack.hpp"
#include "loiter/clients/record.hpp"

namespace loiter::clients::h2 {

class SessionReader {
 public:
  explicit SessionReader(bool answer_control = true) : answer_control_(answer_control) {}

  // Bytes that arrived at `at` (since connect), in order; record.h2 must be set.
  void feed(std::string_view bytes, Duration at, ConnectionRecord& record);
  // The replies owed so far (frames, back to back), and how many frames they are; both
  // empty afterwards.
  bool owes() const { return !owed_.empty(); }
  std::pair<std::string, std::size_t> take_owed();
  bool failed() const { return failed_; }
  bool answers_control() const { return answer_control_; }

 private:
  void on_frame(const Frame& frame, Duration at, ConnectionRecord& record);
  void on_header_block(Duration at, ConnectionRecord& record);
  void on_data(const Frame& frame, Duration at, ConnectionRecord& record);
  void on_control(const Frame& frame, Duration at, H2Record& h2);
  // The response of `stream`, if its HEADERS came; null otherwise.
  Response* response_of(std::uint32_t stream, ConnectionRecord& record);

  FrameReader frames_;
  Decoder decoder_;
  std::string block_;              // a header block arriving over HEADERS and CONTINUATION
  std::uint32_t block_stream_ = 0;  // 0: none arriving
  bool block_ends_stream_ = false;
  std::vector<std::pair<std::uint32_t, std::size_t>> streams_;  // stream -> index in responses
  std::string owed_;
  std::size_t owed_frames_ = 0;
  bool answer_control_;
  bool failed_ = false;
};

}  // namespace loiter::clients::h2
