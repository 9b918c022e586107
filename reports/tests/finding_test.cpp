// text(): the sentence a reader sees says what the finding's data says (same facts, same
// figures), for findings as the judge makes them; classes name themselves and back; SCHEMA.md
// lists every code.
#include "loiter/reports/finding.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

namespace loiter::reports {
namespace {

using ::testing::HasSubstr;

Finding still_open(std::string subject) {
  return {.code = codes::kStillOpen,
          .scenario = "silent",
          .klass = FindingClass::deadline,
          .subject = std::move(subject),
          .count = 2,
          .of = 3,
          .measured = 2.0,
          .bound = 1.0,
          .unit = "s",
          .since = Since::connect};
}

// A deadline finding says how many, out of how many, and the deadline it broke; still open
// is as far as the client watched: when it stopped, and that nothing later was seen (a 408
// at three times the deadline comes after it).
TEST(FindingText, StillOpenNamesTheCountThePatienceAndTheDeadline) {
  EXPECT_EQ(text(still_open("")),
            "2/3 connections still open when the client stopped watching, 2.000 s after connect "
            "(deadline 1.000 s from connect): the server had not ended them by then, and what it "
            "did later loiter did not see");
  EXPECT_EQ(text(still_open("partial-header")),
            "partial-header: 2/3 connections still open when the client stopped watching, "
            "2.000 s after connect (deadline 1.000 s from connect): the server had not ended "
            "them by then, and what it did later loiter did not see");
}

// Connections left open after the 408 the server sent at the deadline: the 408 and when it
// came are named, with the close that never followed.
TEST(FindingText, StillOpenAfterA408NamesThe408) {
  auto open = still_open("");
  open.count = 100;
  open.of = 100;
  open.measured = 4.0;
  open.bound = 2.0;
  open.since = Since::request_head;
  open.status = 408;
  open.answered_at = 2.001;
  EXPECT_EQ(text(open),
            "100/100 connections were answered 408 2.001 s after the request head (deadline "
            "2.000 s from it) but still open when the client stopped watching, 4.000 s after "
            "connect: the server sent its 408 and never closed");
}

// A closure outside the window names the window's edge, the extreme and the window itself.
TEST(FindingText, ClosedEarlyNamesTheEdgeTheEarliestAndTheWindow) {
  Finding early{.code = codes::kClosedEarly,
                .klass = FindingClass::deadline,
                .count = 1,
                .of = 2,
                .measured = 0.3,
                .bound = 0.75,
                .unit = "s",
                .since = Since::last_response,
                .deadline = 1.0,
                .slack = 0.25};
  EXPECT_EQ(text(early),
            "1/2 connections closed early, before 0.750 s (earliest 0.300 s; deadline 1.000 s ± "
            "0.250 s from the last response)");
  early.code = codes::kClosedLate;
  early.measured = 1.3;
  early.bound = 1.25;
  early.since = Since::request_head;
  EXPECT_THAT(text(early), HasSubstr("1/2 connections closed late, after 1.250 s (latest 1.300 s; "
                                     "deadline 1.000 s ± 0.250 s from the request head)"));
}

// Late closes from connect whose deadline ran from a late accept: the sentence names the
// accept queue that still held connections a deadline before they closed, and its figures.
TEST(FindingText, ALateCloseAfterAWaitInTheAcceptQueueNamesTheQueue) {
  Finding late{.code = codes::kClosedLate,
               .klass = FindingClass::deadline,
               .count = 270,
               .of = 1000,
               .measured = 1.999,
               .bound = 1.25,
               .unit = "s",
               .since = Since::connect,
               .deadline = 1.0,
               .slack = 0.25,
               .accept_queue = 858,
               .backlog = 4096,
               .accept_waited = 270};
  EXPECT_EQ(text(late),
            "270/1000 connections closed late, after 1.250 s (latest 1.999 s; deadline 1.000 s ± "
            "0.250 s from connect): for 270 of them the server's accept queue still held "
            "connections (up to 858 of backlog 4096) a deadline before they closed, so a deadline "
            "the server starts at its accept ran late from connect (a slow accept loop, or one "
            "that stops at a connection limit)");
}

// With a named deadline the sentence leads with the cause: how long after its origin the
// connections closed, and which deadline runs from there.
TEST(FindingText, ANamedDeadlineSaysWhereItRunsFrom) {
  Finding early{.code = codes::kClosedEarly,
                .klass = FindingClass::deadline,
                .count = 100,
                .of = 100,
                .measured = 0.996,
                .bound = 1.75,
                .unit = "s",
                .since = Since::last_response,
                .deadline = 2.0,
                .slack = 0.25,
                .deadline_name = "idle"};
  EXPECT_EQ(text(early),
            "100/100 connections closed early, 0.996 s after the last response (before 1.750 s): "
            "the idle deadline runs from the last response (2.000 s ± 0.250 s)");
  early.code = codes::kClosedLate;
  early.measured = 3.017;
  early.bound = 2.25;
  early.since = Since::second_request_head;
  early.deadline_name = "header";
  EXPECT_EQ(text(early),
            "100/100 connections closed late, 3.017 s after the second request head's first byte "
            "(after 2.250 s): the header deadline runs from the second request head's first byte "
            "(2.000 s ± 0.250 s)");
  early.since = Since::handshake;
  EXPECT_EQ(text(early),
            "100/100 connections closed late, 3.017 s after the TLS handshake's completion "
            "(after 2.250 s): the header deadline runs from the TLS handshake's completion "
            "(2.000 s ± 0.250 s)");
}

// Early closes that all came at the deadline counted from connect say so: the deadline ran
// from connect, where it runs from the last response.
TEST(FindingText, AnEarlyCloseAtTheDeadlineFromConnectSaysFromConnect) {
  const Finding early{.code = codes::kClosedEarly,
                      .klass = FindingClass::deadline,
                      .count = 100,
                      .of = 100,
                      .measured = 0.996,
                      .bound = 1.75,
                      .unit = "s",
                      .since = Since::last_response,
                      .deadline = 2.0,
                      .slack = 0.25,
                      .deadline_name = "idle",
                      .after_connect = 2.003};
  EXPECT_EQ(text(early),
            "100/100 connections closed early, 0.996 s after the last response (before 1.750 s) "
            "but 2.003 s after connect: at the idle deadline (2.000 s ± 0.250 s) counted from "
            "connect, where it runs from the last response");
}

TEST(FindingText, WrongEndingListsTheEndingsAllowed) {
  const Finding reset{.code = codes::kWrongEnding,
                      .klass = FindingClass::answer,
                      .count = 1,
                      .of = 1,
                      .ending = "reset",
                      .expected_endings = {"close", "408+close"}};
  EXPECT_EQ(text(reset), "1/1 connections ended as reset, expected close or 408+close");
}

// A cut connection had to get whole responses, or (absent) to be closed by the client.
TEST(FindingText, CutOffSaysWhatEachConnectionHadToGet) {
  Finding cut{.code = codes::kCutOff,
              .klass = FindingClass::deadline,
              .count = 1,
              .of = 2,
              .measured = 1.002,
              .bound = 1.0,
              .unit = "s",
              .ending = "close",
              .responses = 1,
              .status = 200};
  EXPECT_EQ(text(cut),
            "1/2 connections were cut off before 1 whole 200 response(s) came, ended as close at "
            "the median 1.002 s after connect: the exchange, meant to outlast the 1.000 s "
            "deadline, must not be cut");
  cut.responses.reset();
  cut.status.reset();
  EXPECT_THAT(text(cut),
              HasSubstr("were cut off by the server before the client closed it, ended as"));
  cut.bound = 0;  // keepalive-reuse: nothing to outlast but its own requests
  EXPECT_THAT(text(cut), ::testing::EndsWith("after connect: the exchange must not be cut"));
}

// Slow readers cut while still reading: what was cut, when, and that they were reading.
TEST(FindingText, CutOffSlowReadersSaysTheyWereStillReading) {
  const Finding cut{.code = codes::kCutOff,
                    .klass = FindingClass::deadline,
                    .count = 100,
                    .of = 100,
                    .measured = 5.437,
                    .bound = 2.0,
                    .unit = "s",
                    .ending = "reset",
                    .responses = 1,
                    .status = 200,
                    .read_gap = 0.2};
  EXPECT_EQ(text(cut),
            "100/100 slow but steady readers were cut off before 1 whole 200 response(s) came, "
            "ended as reset at the median 5.437 s after connect while still reading (their last "
            "bytes 0.200 s before the cut): a reader that keeps making progress must not be "
            "cut, however far past the 2.000 s deadline its response runs");
  auto at_the_cut = cut;
  at_the_cut.read_gap = 0.0;
  EXPECT_THAT(text(at_the_cut), HasSubstr("while still reading (bytes still arriving up to the "
                                          "cut): a reader"));
}

// FD counts are whole numbers, and what is left is derived from the figure and its bound.
TEST(FindingText, FdsNotRecoveredSaysHowManyAreLeft) {
  const Finding fds{.code = codes::kFdsNotRecovered,
                    .klass = FindingClass::resources,
                    .measured = 39,
                    .bound = 19,
                    .deadline = 5.0,
                    .baseline = 19,
                    .peak = 39};
  EXPECT_EQ(text(fds), "FDs 19→39, not back to 19 within 5.000 s: 20 left");
}

// FDs left for every connection the server's FIN ended: shut down, never closed.
TEST(FindingText, FdsNotRecoveredAfterTheServersFinSaysShutDownButNeverClosed) {
  const Finding fds{.code = codes::kFdsNotRecovered,
                    .klass = FindingClass::resources,
                    .count = 20,
                    .of = 20,
                    .measured = 39,
                    .bound = 19,
                    .deadline = 5.0,
                    .baseline = 19,
                    .peak = 39};
  EXPECT_EQ(text(fds),
            "FDs 19→39, not back to 19 within 5.000 s: 20 left; the client saw the server's FIN "
            "on 20/20 connections, yet as many FDs stay: shut down but not closed");
}

TEST(FindingText, ConnectFailuresNameTheLimitTheyPointAt) {
  Finding failed{.code = codes::kConnectFailed,
                 .klass = FindingClass::capacity,
                 .count = 2,
                 .of = 3,
                 .error = "Too many open files",
                 .limit = ConnectLimit::client_nofile};
  EXPECT_EQ(text(failed),
            "2/3 connections could not connect: Too many open files (the client's RLIMIT_NOFILE)");
  failed.limit = ConnectLimit::none;
  EXPECT_EQ(text(failed), "2/3 connections could not connect: Too many open files");
}

TEST(FindingText, Non2xxListsWhatTheFailedRequestsGot) {
  const Finding failed{.code = codes::kNon2xx,
                       .klass = FindingClass::answer,
                       .count = 10,
                       .of = 5000,
                       .failures = {{"503", 7}, {"reset", 3}}};
  EXPECT_EQ(text(failed),
            "10/5000 dispatched regular requests were not answered 2xx: 503×7, reset×3");
  const Finding closed{.code = codes::kNon2xx,
                       .klass = FindingClass::answer,
                       .count = 383,
                       .of = 125000,
                       .failures = {{"closed", 383}}};
  EXPECT_THAT(text(closed), HasSubstr("closed×383 (closed: the server closed a busy keep-alive "
                                      "connection with a request in flight"));
  EXPECT_THAT(text(closed), HasSubstr("its idle deadline may run from connect instead of from "
                                      "the last response)"));
}

// A connection that outlived its deadline while progress kept coming names the progress: how
// much had come by the deadline, and when the last came.
TEST(FindingText, OutlivedByProgressCountsTheLinesThatKeptComing) {
  const Finding lines{.code = codes::kOutlivedByProgress,
                      .klass = FindingClass::deadline,
                      .count = 100,
                      .of = 100,
                      .measured = 1.9,
                      .bound = 1.0,
                      .unit = "s",
                      .since = Since::connect,
                      .progress = "header line",
                      .progress_by_deadline = 3};
  EXPECT_EQ(text(lines),
            "100/100 connections outlived the 1.000 s deadline from connect while header lines "
            "kept arriving: up to 3 header lines by the deadline, the last at 1.900 s after "
            "connect");
}

// A latency finding made at a client limit says so, with the share loiter's load thread
// wanted a CPU; without one it is the server's latency alone.
TEST(FindingText, AP99AtAClientLimitNamesTheLoadThreadsShare) {
  Finding f{.code = codes::kP99OverBound,
            .scenario = "soak",
            .klass = FindingClass::capacity,
            .measured = 807.0,
            .bound = 200.0,
            .unit = "ms"};
  EXPECT_EQ(text(f), "regular p99 807.00 ms (from intended send time) exceeds the target's bound "
                     "200.00 ms");
  f.klass = FindingClass::infrastructure;
  f.client_busy = 0.934;
  EXPECT_EQ(text(f),
            "regular p99 807.00 ms (from intended send time) exceeds the target's bound 200.00 ms; "
            "a client limit: loiter's load thread wanted a CPU 93% of the load's wall time, so "
            "this latency is loiter's as much as the server's (lower --load-rate, or give loiter "
            "a core of its own)");
  f.code = codes::kP99Grew;
  f.before = 2.5;
  EXPECT_THAT(text(f), HasSubstr("up from 2.50 ms in the first: above the bound of 200.00 ms; a "
                                 "client limit: loiter's load thread wanted a CPU 93%"));
}

// Timeouts alone at a client limit: the same words, naming the timeouts.
TEST(FindingText, TimeoutsAtAClientLimitNameTheLoadThreadsShare) {
  const Finding f{.code = codes::kNon2xx,
                  .scenario = "soak",
                  .klass = FindingClass::infrastructure,
                  .count = 10,
                  .of = 5000,
                  .failures = {{"timeout", 10}},
                  .client_busy = 0.93};
  EXPECT_EQ(text(f),
            "10/5000 dispatched regular requests were not answered 2xx: timeout×10; a client "
            "limit: loiter's load thread wanted a CPU 93% of the load's wall time, so these "
            "timeouts are loiter's as much as the server's (lower --load-rate, or give loiter a "
            "core of its own)");
}

// Connections not held at once while the fleet's thread was short of CPU: the same words,
// naming that thread.
TEST(FindingText, NotHeldAtOnceAtAClientLimitNamesTheFleetsThread) {
  const Finding f{.code = codes::kNotHeldAtOnce,
                  .scenario = "held-capacity",
                  .klass = FindingClass::infrastructure,
                  .count = 1,
                  .of = 3,
                  .measured = 0.51,
                  .unit = "s",
                  .connected_late = 1,
                  .most_at_once = 2,
                  .connections = 3,
                  .client_busy = 0.92};
  EXPECT_THAT(text(f), HasSubstr("for a slower opening; a client limit: the thread of loiter's "
                                 "that drove these connections wanted a CPU 92% of the run"));
}

// A code this loiter does not render (a loiter-run/2 sentence) shows the sentence it came with.
TEST(FindingText, AnUnknownCodeShowsTheSentenceItWasReadWith) {
  const Finding old{.code = codes::kText, .sentence = "100/100 connections still open"};
  EXPECT_EQ(text(old), "100/100 connections still open");
}

// Every code the judge makes has a sentence of its own, never the bare code.
TEST(FindingText, EveryKnownCodeRendersASentence) {
  for (const auto code : known_codes()) {
    EXPECT_NE(text(Finding{.code = std::string(code)}), code) << code;
  }
  EXPECT_EQ(known_codes().size(), 41u);
}

// SCHEMA.md's findings table names every code loiter makes.
TEST(FindingText, TheSchemaListsEveryCode) {
  std::ifstream in(LOITER_SCHEMA_MD);
  ASSERT_TRUE(in) << "cannot read " << LOITER_SCHEMA_MD;
  const std::string schema{std::istreambuf_iterator<char>(in), {}};
  for (const auto code : known_codes()) {
    EXPECT_THAT(schema, HasSubstr(fmt::format("| `{}` |", code))) << code;
  }
}

TEST(FindingClass, NamesItselfAndBack) {
  for (const auto klass : kFindingClasses) {
    EXPECT_EQ(finding_class_from_string(to_string(klass)), klass);
  }
  EXPECT_FALSE(finding_class_from_string("timing").has_value());
}

// Logs and test failures show the class, the code and the sentence.
TEST(FindingText, PrintsClassCodeAndSentence) {
  std::ostringstream out;
  out << still_open("");
  EXPECT_THAT(out.str(), HasSubstr("[deadline] still-open: 2/3 connections still open"));
}

}  // namespace
}  // namespace loiter::reports
