// A connection record survives the trip to JSON text and back (what a client process sends
// its parent), every field of it; and the parent merges its client processes' records back
// into whole fleets in index order.
#include "loiter/suites/runner/record_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>

#include "golden.hpp"
#include "loiter/suites/runner/client_lines.hpp"

namespace loiter::suites {
namespace {

using namespace std::chrono_literals;
using clients::ConnectionRecord;
using ::testing::ElementsAre;

// Odd nanosecond counts, so a lossy conversion anywhere shows.
clients::ConnectionRecord every_field(clients::Clock::time_point origin) {
  ConnectionRecord r;
  r.kind = "held-recheck";
  r.source = "127.0.0.3:40312";
  r.connect_start = origin + 1'234'567'891ns;
  r.connect_took = 123'457ns;
  r.sends = {{.at = 7ns, .bytes = 58}, {.at = 2'500'000'001ns, .bytes = 61}};
  r.requests = 2;
  r.first_byte = 301'003ns;
  r.bytes_received = 4'099;
  clients::Response first{.status = 200,
                          .reason = "OK",
                          .fields = {},
                          .started = 301'003ns,
                          .complete = 302'777ns,
                          .body_bytes = 2};
  first.fields.add("Content-Length", "2");
  first.fields.add("X-Quote", "a \"b\"\t\\c");
  r.responses.push_back(first);
  r.responses.push_back({.status = 408,
                         .reason = "Request Timeout",
                         .fields = {},
                         .started = 3'000'000'017ns,
                         .complete = std::nullopt,
                         .body_bytes = 9});
  r.progress = {{.at = 11ns, .bytes = 1'024}, {.at = 1'000'000'013ns, .bytes = 4'096}};
  r.pause = clients::ReadPause{.from = 1'000'000'017ns,
                               .until = 3'000'000'019ns,
                               .filled = 1'200'000'023ns,
                               .unsent = 8'000'000,
                               .ended_while_paused = true};
  r.tls = clients::TlsRecord{.handshake_done = 987'651ns,
                             .handshake_sent = 517,
                             .handshake_received = 1'203,
                             .version = "TLSv1.3",
                             .alpn = "http/1.1",
                             .alert = std::nullopt};
  r.h2 = clients::H2Record{
      .server_settings = 401'007ns,
      .settings_ack = 402'009ns,
      .goaway =
          clients::H2Goaway{
              .at = 4'000'000'027ns, .last_stream = 3, .code = 11, .frames_sent = 1'001},
      .resets = {{.at = 3'100'000'029ns, .stream = 5, .code = 8}},
      .reset_count = 17,
      .frames_sent = 1'003,
      .frames_received = 9,
      .window_updates = 4,
      .latencies = {12'000'003ns, 250'000'001ns}};
  r.ending = clients::Ending::client_close;
  r.ended_at = 5'000'000'021ns;
  r.client_closed = 4'999'999'999ns;
  r.error = "Connection reset by peer";
  r.error_number = ECONNRESET;
  return r;
}

std::vector<std::tuple<unsigned, std::string, std::vector<clients::Fields::Field>,
                       clients::Duration, std::optional<clients::Duration>, std::size_t>>
responses_of(const ConnectionRecord& r) {
  std::vector<std::tuple<unsigned, std::string, std::vector<clients::Fields::Field>,
                         clients::Duration, std::optional<clients::Duration>, std::size_t>>
      out;
  for (const auto& x : r.responses) {
    out.emplace_back(x.status, x.reason, x.fields.list(), x.started, x.complete, x.body_bytes);
  }
  return out;
}

std::vector<std::pair<clients::Duration, std::size_t>> sends_of(const ConnectionRecord& r) {
  std::vector<std::pair<clients::Duration, std::size_t>> out;
  for (const auto& s : r.sends) out.emplace_back(s.at, s.bytes);
  return out;
}

std::vector<std::pair<clients::Duration, std::size_t>> progress_of(const ConnectionRecord& r) {
  std::vector<std::pair<clients::Duration, std::size_t>> out;
  for (const auto& p : r.progress) out.emplace_back(p.at, p.bytes);
  return out;
}

FleetRecord parsed_record(const std::string& line, clients::Clock::time_point origin) {
  auto parsed = parse_client_line(std::string_view(line).substr(0, line.size() - 1), origin);
  return std::get<FleetRecord>(std::move(parsed));
}

TEST(RecordJson, EveryFieldSurvivesTheTripToTextAndBack) {
  const auto origin = clients::Clock::now();
  const auto sent = every_field(origin);
  const auto line = record_line(2, 41, sent, origin);
  ASSERT_EQ(line.back(), '\n');
  ASSERT_EQ(std::ranges::count(line, '\n'), 1);  // one line, whatever the fields hold
  const auto got = parsed_record(line, origin);
  EXPECT_EQ(got.fleet, 2u);
  EXPECT_EQ(got.index, 41u);
  const auto& r = got.record;
  EXPECT_EQ(r.kind, sent.kind);
  EXPECT_EQ(r.source, sent.source);
  EXPECT_EQ(r.connect_start, sent.connect_start);
  EXPECT_EQ(r.connect_took, sent.connect_took);
  EXPECT_EQ(sends_of(r), sends_of(sent));
  EXPECT_EQ(r.requests, sent.requests);
  EXPECT_EQ(r.first_byte, sent.first_byte);
  EXPECT_EQ(r.bytes_received, sent.bytes_received);
  EXPECT_EQ(responses_of(r), responses_of(sent));
  EXPECT_EQ(progress_of(r), progress_of(sent));
  EXPECT_EQ(r.pause, sent.pause);
  EXPECT_EQ(r.tls, sent.tls);
  EXPECT_EQ(r.h2, sent.h2);
  EXPECT_EQ(r.ending, sent.ending);
  EXPECT_EQ(r.ended_at, sent.ended_at);
  EXPECT_EQ(r.client_closed, sent.client_closed);
  EXPECT_EQ(r.error, sent.error);
  EXPECT_EQ(r.error_number, sent.error_number);
  EXPECT_EQ(clients::ending_label(r), clients::ending_label(sent));
}

// Every field's line is what loiter has always written (tests/golden), and the line read
// back writes the same bytes.
TEST(RecordJson, EveryFieldsLineIsWrittenAsEver) {
  const auto origin = clients::Clock::now();
  const auto line = record_line(2, 41, every_field(origin), origin);
  EXPECT_EQ(line, reports::testing::golden_or_update("every-field.jsonl", line));
  const auto back = parsed_record(reports::testing::read_golden("every-field.jsonl"), origin);
  EXPECT_EQ(record_line(back.fleet, back.index, back.record, origin), line);
}

// An h3 flood's counts (and the h3-control client's latencies) survive the trip; an h3
// record without them (any other h3 kind's) leaves them out of its line.
TEST(RecordJson, AnH3FloodsCountsSurviveTheTrip) {
  const auto origin = clients::Clock::now();
  ConnectionRecord flood;
  flood.kind = "h3-qpack-bomb";
  flood.connect_start = origin + 1'000'003ns;
  flood.ending = clients::Ending::close;
  flood.h3 = clients::H3Record{.handshake_done = 2'000'007ns,
                               .alpn = "h3",
                               .close = clients::H3Close{.at = 900'000'011ns,
                                                         .code = 0x107,
                                                         .application = true,
                                                         .reason = "excessive load"},
                               .frames_sent = 2'001,
                               .frames_at_close = 1'003,
                               .streams_opened = 1'005,
                               .streams_refused = 1'004,
                               .streams_answered = 1,
                               .credit_stalled = true,
                               .acks_withheld = true,
                               .retire_frames_received = 17,
                               .path_responses_received = 19,
                               .latencies = {12'000'003ns, 250'000'001ns}};
  const auto line = record_line(0, 3, flood, origin);
  EXPECT_THAT(line, ::testing::HasSubstr("\"frames_at_close\":1003"));
  EXPECT_EQ(parsed_record(line, origin).record.h3, flood.h3);
  ConnectionRecord idle = flood;
  idle.kind = "h3-idle";
  idle.h3 = clients::H3Record{.alpn = "h3"};
  const auto plain = record_line(0, 4, idle, origin);
  EXPECT_THAT(plain, ::testing::Not(::testing::HasSubstr("frames_sent")));
  EXPECT_THAT(plain, ::testing::Not(::testing::HasSubstr("latencies")));
  EXPECT_EQ(parsed_record(plain, origin).record.h3, idle.h3);
}

TEST(RecordJson, ARecordWhoseSlotNeverCameStaysWithoutAConnectStart) {
  const auto origin = clients::Clock::now();
  ConnectionRecord never;
  never.kind = "silent";
  never.ending = clients::Ending::connect_failed;
  const auto r = parsed_record(record_line(0, 0, never, origin), origin).record;
  EXPECT_EQ(r.connect_start, clients::Clock::time_point{});
  EXPECT_EQ(r.first_byte, std::nullopt);
  EXPECT_EQ(r.pause, std::nullopt);
  EXPECT_EQ(r.tls, std::nullopt);
  EXPECT_EQ(r.h2, std::nullopt);
  EXPECT_EQ(r.ending, clients::Ending::connect_failed);
}

// A server's fatal TLS alert comes back as the alert ending with its code, before any
// handshake was done.
TEST(RecordJson, AnAlertEndingKeepsItsCode) {
  const auto origin = clients::Clock::now();
  ConnectionRecord refused;
  refused.kind = "idle-keepalive";
  refused.tls = clients::TlsRecord{.handshake_sent = 300, .alert = 120};
  refused.ending = clients::Ending::alert;
  refused.ended_at = 3'000'001ns;
  const auto r = parsed_record(record_line(0, 0, refused, origin), origin).record;
  EXPECT_EQ(r.ending, clients::Ending::alert);
  EXPECT_EQ(r.tls, refused.tls);
  EXPECT_EQ(clients::ending_label(r), "alert");
}

// An HTTP/2 record without a GOAWAY comes back without one, and the GOAWAY label survives.
TEST(RecordJson, AnH2RecordKeepsItsGoawayOrItsAbsence) {
  const auto origin = clients::Clock::now();
  ConnectionRecord idle;
  idle.kind = "h2-idle";
  idle.h2.emplace();
  idle.ending = clients::Ending::close;
  idle.ended_at = 2'000'000'003ns;
  auto r = parsed_record(record_line(0, 0, idle, origin), origin).record;
  EXPECT_EQ(r.h2, idle.h2);
  EXPECT_EQ(clients::ending_label(r), "close");
  idle.h2->goaway = clients::H2Goaway{.at = 1'999'000'001ns, .last_stream = 1, .code = 0};
  r = parsed_record(record_line(0, 0, idle, origin), origin).record;
  EXPECT_EQ(r.h2, idle.h2);
  EXPECT_EQ(clients::ending_label(r), "goaway+close");
}

TEST(RecordJson, ALineThatIsNoRecordIsRefusedByName) {
  const auto origin = clients::Clock::now();
  EXPECT_THROW(parse_client_line(R"({"fleet":0,"index":1,"record":{"kind":"silent"}})", origin),
               std::invalid_argument);
  EXPECT_THROW(parse_client_line("not json", origin), std::invalid_argument);
  const auto end = parse_client_line(R"({"fleets":[3,1],"records":2})", origin);
  EXPECT_THAT(std::get<ShareEnd>(end).fleets, ElementsAre(3, 1));
  const auto error = error_line("cannot connect");
  EXPECT_EQ(
      std::get<ShareError>(parse_client_line(error.substr(0, error.size() - 1), origin)).message,
      "cannot connect");
}

FleetRecord numbered(std::size_t fleet, std::size_t index) {
  FleetRecord r{.fleet = fleet, .index = index, .record = {}};
  r.record.source = std::to_string(fleet) + "/" + std::to_string(index);
  return r;
}

std::vector<std::string> sources(const std::vector<ConnectionRecord>& fleet) {
  std::vector<std::string> out;
  for (const auto& r : fleet) out.push_back(r.source);
  return out;
}

// Three processes' shares (i % 3), as their lines arrive: interleaved, each in its order.
TEST(MergeFleets, PutsEveryFleetBackInIndexOrder) {
  std::vector<FleetRecord> heard;
  for (std::size_t part : {2, 0, 1}) {
    for (std::size_t i = part; i < 7; i += 3) heard.push_back(numbered(0, i));
    for (std::size_t i = part; i < 2; i += 3) heard.push_back(numbered(1, i));
  }
  const auto fleets = merge_fleets(std::move(heard), 2);
  ASSERT_EQ(fleets.size(), 2u);
  EXPECT_THAT(sources(fleets[0]), ElementsAre("0/0", "0/1", "0/2", "0/3", "0/4", "0/5", "0/6"));
  EXPECT_THAT(sources(fleets[1]), ElementsAre("1/0", "1/1"));
}

TEST(MergeFleets, RefusesARecordSentTwice) {
  EXPECT_THROW(merge_fleets({numbered(0, 0), numbered(0, 1), numbered(0, 1)}, 1),
               std::invalid_argument);
  EXPECT_THROW(merge_fleets({numbered(1, 0)}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace loiter::suites
