// HTTP/2 frames round-trip through FrameReader however the bytes are split, bytes that are
// not frames make it fail, and HPACK blocks decode back (nghttp2's own inflater agrees).
#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

#include <string>

#include "loiter/clients/h2/frames.hpp"
#include "loiter/clients/h2/hpack.hpp"

namespace loiter::clients::h2 {
namespace {

std::vector<Frame> read_all(FrameReader& reader) {
  std::vector<Frame> frames;
  while (auto frame = reader.next()) frames.push_back(std::move(*frame));
  return frames;
}

// Each writer's bytes come back as the frame it wrote: type, flags, stream, payload.
TEST(FrameReader, ReadsBackEveryWrittenFrame) {
  const std::string bytes = settings({{setting::initial_window_size, 0}}) + settings_ack() +
                            ping(0x0102030405060708, true) + window_update(3, 1024) +
                            rst_stream(5, code::cancel) + goaway(7, code::enhance_your_calm) +
                            headers(1, "abc", true, false) + continuation(1, "de", true) +
                            data(1, "hello", true);
  FrameReader reader;
  reader.feed(bytes);
  const auto frames = read_all(reader);
  ASSERT_EQ(frames.size(), 9u);
  EXPECT_TRUE(frames[0].is(Type::settings));
  EXPECT_EQ(parse_settings(frames[0].payload), (Settings{{setting::initial_window_size, 0}}));
  EXPECT_EQ(frames[1].flags, flag::ack);
  EXPECT_EQ(frames[1].length, 0u);
  EXPECT_EQ(frames[2].payload, std::string("\1\2\3\4\5\6\7\10", 8));
  EXPECT_EQ(frames[3].stream, 3u);
  EXPECT_EQ(parse_window_update(frames[3].payload), 1024u);
  EXPECT_EQ(parse_rst_stream(frames[4].payload), code::cancel);
  const auto away = parse_goaway(frames[5].payload);
  ASSERT_TRUE(away);
  EXPECT_EQ(away->last_stream, 7u);
  EXPECT_EQ(away->error_code, code::enhance_your_calm);
  EXPECT_EQ(frames[6].flags, flag::end_stream);
  EXPECT_EQ(frames[7].flags, flag::end_headers);
  EXPECT_EQ(frames[8].payload, "hello");
  EXPECT_FALSE(reader.failed());
}

// Fed a byte at a time, the reader yields the same frames, each once it is whole.
TEST(FrameReader, AssemblesFramesSplitAcrossFeeds) {
  const std::string bytes = data(1, std::string(300, 'x'), false) + ping(9) + settings_ack();
  FrameReader reader;
  std::vector<Frame> frames;
  for (char c : bytes) {
    reader.feed(std::string_view(&c, 1));
    while (auto frame = reader.next()) frames.push_back(std::move(*frame));
  }
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].payload.size(), 300u);
  EXPECT_TRUE(frames[1].is(Type::ping));
  EXPECT_TRUE(frames[2].is(Type::settings));
}

// A frame longer than the reader's limit fails it, and it takes nothing more.
TEST(FrameReader, FailsOnAFrameLongerThanItsLimit) {
  FrameReader reader(kDefaultMaxFrame);
  reader.feed(data(1, std::string(kDefaultMaxFrame + 1, 'x'), false));
  EXPECT_FALSE(reader.next());
  EXPECT_TRUE(reader.failed());
  reader.feed(ping(1));
  EXPECT_FALSE(reader.next());
}

// A server answering the preface in HTTP/1.1 is not read as frames.
TEST(FrameReader, FailsOnAnHttp1Answer) {
  FrameReader reader;
  reader.feed("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
  EXPECT_FALSE(reader.next());
  EXPECT_TRUE(reader.failed());
}

// Short payloads do not parse.
TEST(FrameParsers, RefuseShortPayloads) {
  EXPECT_FALSE(parse_goaway("1234567"));
  EXPECT_FALSE(parse_rst_stream("123"));
  EXPECT_FALSE(parse_window_update("12"));
  EXPECT_FALSE(parse_settings("12345"));
}

// The preface is the RFC's 24 bytes.
TEST(Frames, PrefaceIsTheRfcsTwentyFourBytes) { EXPECT_EQ(kPreface.size(), 24u); }

// A request's block decodes back to its fields, also the second time (through the dynamic
// table), and nghttp2's own inflater reads the same fields.
TEST(Hpack, BlocksDecodeBackAndNghttp2Agrees) {
  const auto fields = request_headers("GET", "/health", "localhost", false, {{"x-a", "1"}});
  Encoder encoder;
  Decoder decoder;
  const auto first = encoder.encode(fields);
  const auto second = encoder.encode(fields);
  EXPECT_LT(second.size(), first.size());  // indexed the second time
  EXPECT_EQ(decoder.decode(first), fields);
  EXPECT_EQ(decoder.decode(second), fields);

  nghttp2_hd_inflater* inflater = nullptr;
  ASSERT_EQ(nghttp2_hd_inflate_new(&inflater), 0);
  HeaderList theirs;
  const auto* in = reinterpret_cast<const std::uint8_t*>(first.data());
  std::size_t left = first.size();
  for (int flags = 0; !(flags & NGHTTP2_HD_INFLATE_FINAL);) {
    nghttp2_nv nv;
    const auto n = nghttp2_hd_inflate_hd2(inflater, &nv, &flags, in, left, 1);
    ASSERT_GE(n, 0);
    in += n;
    left -= static_cast<std::size_t>(n);
    if (flags & NGHTTP2_HD_INFLATE_EMIT) {
      theirs.emplace_back(std::string(reinterpret_cast<const char*>(nv.name), nv.namelen),
                          std::string(reinterpret_cast<const char*>(nv.value), nv.valuelen));
    }
  }
  nghttp2_hd_inflate_del(inflater);
  EXPECT_EQ(theirs, fields);
  EXPECT_EQ(fields.at(1), (std::pair<std::string, std::string>{":scheme", "http"}));
}

// A block that is not HPACK does not decode.
TEST(Hpack, GarbageDoesNotDecode) {
  Decoder decoder;
  EXPECT_FALSE(decoder.decode(std::string("\xff\xff\xff\xff\xff\xff", 6)));
}

}  // namespace
}  // namespace loiter::clients::h2
