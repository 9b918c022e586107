// report.json round-trips, matches its golden text, writes missing figures as null, and
// names what is malformed.
#include "loiter/reports/json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "golden.hpp"
#include "sample_report.hpp"

namespace loiter::reports {
namespace {

TEST(Json, RoundTripsARunReportToAnEqualOne) {
  const auto report = testing::sample_report();
  const auto back = run_report_from_json(boost::json::parse(run_report_text(report)));
  EXPECT_TRUE(back == report);
  ASSERT_EQ(back.scenarios.size(), 4u);
  EXPECT_EQ(back.scenarios[3].status, Status::info);
  EXPECT_EQ(back.scenarios[1].status, Status::fail);
  EXPECT_FALSE(back.scenarios[1].figures[0].values[0].second.has_value());
  EXPECT_EQ(back.scenarios[0].plots.at(0).marks.at(1).to, 1.1);
  EXPECT_TRUE(back.scenarios[0].plots.at(0).series.at(1).fit);
}

// Only a fitted line carries "fit"; a series without it (any older document) is not one.
TEST(Json, WritesFitOnlyOnAFittedLine) {
  const auto document = to_json(testing::sample_report());
  const auto& series = document.at("scenarios").at(0).at("plots").at(0).at("series").as_array();
  EXPECT_FALSE(series.at(0).as_object().contains("fit"));
  EXPECT_EQ(series.at(1).at("fit"), true);
  auto without = document;
  without.at("scenarios").at(0).at("plots").at(0).at("series").at(1).as_object().erase("fit");
  EXPECT_FALSE(run_report_from_json(without).scenarios[0].plots[0].series[1].fit);
}

// A TLS target's declaration is written and read back; a document without it is cleartext.
TEST(Json, RoundTripsATlsTargetsDeclaration) {
  auto report = testing::sample_tls_report();
  EXPECT_EQ(run_report_from_json(to_json(report)), report);
  report.target_tls->alpn = {"h2", "http/1.1"};
  report.target_tls->server_name = "localhost";
  report.target_tls->handshake_s = 1.5;
  report.target_tls->header_from = "handshake";
  const auto document = to_json(report);
  EXPECT_EQ(document.at("target_tls").at("handshake").as_double(), 1.5);
  EXPECT_EQ(run_report_from_json(document), report);
  EXPECT_FALSE(to_json(testing::sample_report()).as_object().contains("target_tls"));
  EXPECT_EQ(run_report_from_json(to_json(testing::sample_report())).target_tls, std::nullopt);
}

// A run against a server loiter did not start says where it was and which checks it did
// not make; both are read back, and a document without them reads as a started server's.
TEST(Json, RoundTripsTheServerConnectedToAndTheChecksNotMade) {
  const auto report = testing::sample_connected_report();
  const auto document = to_json(report);
  EXPECT_EQ(document.at("connected").as_string(), "127.0.0.1:8443");
  EXPECT_EQ(document.at("not_made").at("checks").as_array().size(), 2u);
  EXPECT_EQ(run_report_from_json(document), report);
  const auto started = to_json(testing::sample_report()).as_object();
  EXPECT_FALSE(started.contains("connected"));
  EXPECT_FALSE(started.contains("not_made"));
  EXPECT_EQ(run_report_from_json(started).not_made, std::nullopt);
}

// The protocol spoken to the target is written and read back; a document without it (drive,
// older documents) reads as empty.
TEST(Json, RoundTripsTheTargetsProtocol) {
  auto report = testing::sample_report();
  report.target_protocol = "h2c";
  const auto document = to_json(report);
  EXPECT_EQ(document.at("target_protocol").as_string(), "h2c");
  EXPECT_EQ(run_report_from_json(document), report);
  EXPECT_FALSE(to_json(testing::sample_report()).as_object().contains("target_protocol"));
  EXPECT_EQ(run_report_from_json(to_json(testing::sample_report())).target_protocol, "");
}

// A title says what loiter spoke: h2c, HTTP/2 over TLS, HTTP/3, TLS, or nothing for HTTP/1.1.
TEST(Json, ATitleSaysWhatLoiterSpoke) {
  auto report = testing::sample_report();
  EXPECT_EQ(over(report), "");
  report.target_protocol = "http/1.1";
  EXPECT_EQ(over(report), "");
  EXPECT_EQ(over(testing::sample_tls_report()), " over TLS");
  report.target_protocol = "h2c";
  EXPECT_EQ(over(report), " over h2c");
  report.target_protocol = "h2";
  EXPECT_EQ(over(report), " over HTTP/2 and TLS");
  // An [h3] target (caddy-h3) with its TLS declared too: HTTP/3, never "over TLS".
  auto h3 = testing::sample_tls_report();
  h3.target_protocol = "h3";
  EXPECT_EQ(over(h3), " over HTTP/3 (QUIC)");
}

TEST(Json, ReportTextMatchesGolden) {
  const auto text = run_report_text(testing::sample_report());
  EXPECT_EQ(text, testing::golden_or_update("report.json", text));
}

// A loiter-run/3 document as this loiter writes it (the golden file) reads back as the report
// it was written from, and is written again byte for byte.
TEST(Json, ReadsTheGoldenDocumentBackAndWritesItAgainTheSame) {
  const auto stored = testing::read_golden("report.json");
  const auto back = run_report_from_json(boost::json::parse(stored));
  EXPECT_EQ(back, testing::sample_report());
  EXPECT_EQ(run_report_text(back), stored);
}

TEST(Json, WritesUnmeasuredFiguresAsNull) {
  const auto text = boost::json::serialize(to_json(testing::sample_report()));
  EXPECT_THAT(text, ::testing::HasSubstr(R"("name":"min","value":null)"));
  EXPECT_THAT(text, ::testing::HasSubstr(R"("schema":"loiter-run/3")"));
  EXPECT_THAT(text, ::testing::HasSubstr(R"("name":"peak","value":106})"));
}

// A finding is an object: its code, class and figures as JSON values, its sentence beside.
TEST(Json, WritesEachFindingAsDataWithItsText) {
  const auto text = boost::json::serialize(to_json(testing::sample_report()));
  EXPECT_THAT(
      text,
      ::testing::HasSubstr(
          R"({"code":"still-open","class":"deadline","scenario":"silent-again",)"
          R"("subject":"","count":100,"of":100,"measured":2,"bound":1,"unit":"s",)"
          R"("since":"connect","text":"100/100 connections still open when the client stopped )"));
}

// Every detail a finding can carry comes back as it was written.
TEST(Json, RoundTripsEveryDetailOfAFinding) {
  auto report = testing::sample_report();
  report.scenarios[1].findings.push_back({.code = codes::kNon2xx,
                                          .scenario = "silent-again",
                                          .klass = FindingClass::answer,
                                          .subject = "silent",
                                          .count = 10,
                                          .of = 5000,
                                          .measured = 0.25,
                                          .bound = std::nullopt,
                                          .unit = "ms",
                                          .since = Since::request_head,
                                          .deadline = 1.5,
                                          .slack = 0.25,
                                          .ending = "408+close",
                                          .expected_endings = {"close", "408+close"},
                                          .error = "Connection refused",
                                          .limit = ConnectLimit::server,
                                          .responses = 2,
                                          .status = 200,
                                          .failures = {{"503", 7}, {"reset", 3}},
                                          .baseline = 6,
                                          .peak = 106,
                                          .pool = 32,
                                          .connected_late = 1,
                                          .most_at_once = 2,
                                          .connections = 3,
                                          .explanation = "open on both ends",
                                          .progress = "header line",
                                          .progress_by_deadline = 3,
                                          .deadline_name = "idle",
                                          .deadline_key = "[h3] idle",
                                          .descriptor = "socket",
                                          .before = 3.5,
                                          .answered_at = 2.015,
                                          .after_connect = 2.003,
                                          .read_gap = 0.2,
                                          .udp_drops = 7,
                                          .udp_rcvbuf_errors = 9});
  const auto back = run_report_from_json(boost::json::parse(run_report_text(report)));
  EXPECT_EQ(back.scenarios[1].findings, report.scenarios[1].findings);
}

// A newer loiter's code this one cannot word: the sentence written beside it is shown.
TEST(Json, KeepsTheSentenceOfACodeItDoesNotKnow) {
  auto document = to_json(testing::sample_report());
  auto& finding = document.at("scenarios").at(1).at("findings").at(0).as_object();
  finding["code"] = "from-the-future";
  finding["text"] = "something new";
  const auto back = run_report_from_json(document);
  EXPECT_EQ(text(back.scenarios[1].findings.at(0)), "something new");
}

// Stored loiter-run/2 documents still read: each sentence a finding with code "text", its
// class from the scenario's status.
TEST(Json, ReadsLoiterRun2FindingsAsSentences) {
  auto document = to_json(testing::sample_report());
  document.as_object()["schema"] = "loiter-run/2";
  auto& scenarios = document.at("scenarios").as_array();
  scenarios.at(1).as_object()["findings"] = boost::json::array{"100/100 connections still open"};
  scenarios.at(2).as_object()["status"] = "error";
  scenarios.at(2).as_object()["findings"] = boost::json::array{"the server never answered"};
  const auto back = run_report_from_json(document);
  const auto& failed = back.scenarios.at(1).findings.at(0);
  EXPECT_EQ(failed.code, "text");
  EXPECT_EQ(failed.scenario, "silent-again");
  EXPECT_EQ(failed.klass, FindingClass::deadline);
  EXPECT_EQ(text(failed), "100/100 connections still open");
  EXPECT_EQ(back.scenarios.at(2).findings.at(0).klass, FindingClass::infrastructure);
}

// A loiter-run/3 finding is an object; a bare sentence there is malformed.
TEST(Json, NamesAFindingThatIsNotAnObject) {
  auto document = to_json(testing::sample_report());
  document.at("scenarios").at(1).as_object()["findings"] = boost::json::array{"a sentence"};
  EXPECT_THAT([&] { run_report_from_json(document); },
              ::testing::ThrowsMessage<std::runtime_error>(
                  ::testing::HasSubstr("scenarios[1].findings[0]: must be an object")));
}

// A loiter-run/2 finding is a sentence; anything else there is named by its place.
TEST(Json, NamesALoiterRun2FindingThatIsNotASentence) {
  auto document = to_json(testing::sample_report());
  document.as_object()["schema"] = "loiter-run/2";
  EXPECT_THAT([&] { run_report_from_json(document); },
              ::testing::ThrowsMessage<std::runtime_error>(
                  ::testing::HasSubstr("report: scenarios[1].findings[0]: must be a string")));
}

// What is wrong inside a finding or a plot is said with the key and the place it is in.
TEST(Json, NamesWhereAFindingOrAMarkIsMalformed) {
  const auto malformed = [](auto change) {
    auto document = to_json(testing::sample_report());
    change(document);
    try {
      run_report_from_json(document);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_EQ(
      malformed([](auto& d) { d.at("scenarios").at(1).at("findings").at(0).at("class") = "x"; }),
      "report: scenarios[1].findings[0]: key 'class' is 'x', not one of 'deadline', "
      "'resources', 'answer', 'capacity', 'infrastructure', 'crash'");
  EXPECT_EQ(malformed([](auto& d) {
              d.at("scenarios").at(1).at("findings").at(0).as_object()["failures"] = {{"503", -1}};
            }),
            "report: scenarios[1].findings[0].failures.'503': must be a whole number, 0 or more");
  EXPECT_EQ(malformed([](auto& d) {
              d.at("scenarios").at(1).at("findings").at(0).as_object()["code"] = "from-the-future";
              d.at("scenarios").at(1).at("findings").at(0).as_object().erase("text");
            }),
            "report: scenarios[1].findings[0]: missing key 'text'");
  EXPECT_EQ(malformed([](auto& d) {
              d.at("scenarios").at(0).at("plots").at(0).at("marks").at(1).at("axis") = "z";
            }),
            "report: scenarios[0].plots[0].marks[1]: key 'axis' is 'z', not 'x' or 'y'");
  EXPECT_EQ(malformed([](auto& d) {
              d.at("scenarios").at(0).at("plots").at(0).at("series").at(0).at("points").at(1) =
                  boost::json::array{0.1, nullptr};
            }),
            "report: scenarios[0].plots[0].series[0].points[1][1]: must be a number");
  EXPECT_EQ(
      malformed([](auto& d) {
        d.at("scenarios").at(1).at("figures").at(0).at("values").at(0).as_object().erase("name");
      }),
      "report: scenarios[1].figures[0].values[0]: missing key 'name'");
}

// A connect limit a newer loiter names reads as none: the sentence leaves it out.
TEST(Json, ReadsAConnectLimitItDoesNotKnowAsNone) {
  auto report = testing::sample_report();
  report.scenarios[1].findings[0].limit = ConnectLimit::server;
  auto document = to_json(report);
  auto& finding = document.at("scenarios").at(1).at("findings").at(0).as_object();
  EXPECT_EQ(finding.at("limit"), "server");
  finding["limit"] = "client-memory";
  EXPECT_EQ(run_report_from_json(document).scenarios[1].findings[0].limit, ConnectLimit::none);
}

// Where a deadline runs from is written as its word and read back from it; a word this loiter
// does not know is refused, with the words it may be.
TEST(Json, ReadsEachSinceByItsWordAndRefusesAnother) {
  auto report = testing::sample_report();
  for (const auto since :
       {Since::connect, Since::request_head, Since::last_response, Since::second_request_head,
        Since::handshake, Since::quiet, Since::read_pause}) {
    report.scenarios[1].findings[0].since = since;
    const auto document = to_json(report);
    EXPECT_EQ(document.at("scenarios").at(1).at("findings").at(0).at("since").as_string(),
              to_string(since));
    EXPECT_EQ(run_report_from_json(document).scenarios[1].findings[0].since, since);
  }
  auto document = to_json(report);
  document.at("scenarios").at(1).at("findings").at(0).as_object()["since"] = "first-byte";
  EXPECT_THAT([&] { run_report_from_json(document); },
              ::testing::ThrowsMessage<std::runtime_error>(::testing::StrEq(
                  "report: scenarios[1].findings[0]: key 'since' is 'first-byte', not one of "
                  "'connect', 'request-head', 'last-response', 'second-request-head', "
                  "'handshake', 'quiet', 'read-pause', 'stream-open', 'stream-headers', "
                  "'stream-request', 'first-initial'")));
}

TEST(Json, RejectsAnotherSchemaByName) {
  auto document = to_json(testing::sample_report());
  document.as_object()["schema"] = "loiter-run/99";
  EXPECT_THAT([&] { run_report_from_json(document); },
              ::testing::ThrowsMessage<std::runtime_error>(::testing::HasSubstr("loiter-run/99")));
}

TEST(Json, NamesAMissingKey) {
  auto document = to_json(testing::sample_report());
  document.as_object().erase("target");
  EXPECT_THAT([&] { run_report_from_json(document); },
              ::testing::ThrowsMessage<std::runtime_error>(::testing::HasSubstr("'target'")));
}

TEST(Json, NamesAMalformedPlot) {
  auto document = to_json(testing::sample_report());
  auto& plot = document.at("scenarios").at(0).at("plots").at(0).as_object();
  plot["style"] = "pie";
  EXPECT_THAT([&] { run_report_from_json(document); },
              ::testing::ThrowsMessage<std::runtime_error>(::testing::HasSubstr(
                  "scenarios[0].plots[0]: key 'style' is 'pie', not one of 'line', 'step'")));
}

// A target that was not run keeps why, with no scenarios; a document written before the
// target's version and description were kept still reads, with them empty.
TEST(Json, KeepsWhyATargetWasNotRunAndReadsDocumentsWithoutItsVersion) {
  const RunReport skipped{.loiter_version = "0.1.0",
                          .target = "apache",
                          .target_version = "not installed",
                          .not_run = "apache2 is not installed",
                          .started_at = "2026-12-01T02:00:00Z"};
  EXPECT_TRUE(run_report_from_json(to_json(skipped)) == skipped);
  auto older = to_json(testing::sample_report());
  older.as_object().erase("target_version");
  older.as_object().erase("target_description");
  const auto back = run_report_from_json(older);
  EXPECT_EQ(back.target_version, "");
  EXPECT_EQ(back.target_description, "");
  EXPECT_THAT(boost::json::serialize(to_json(testing::sample_report())),
              ::testing::Not(::testing::HasSubstr("not_run")));
}

// Doubles in fixed notation with their shortest round-trip digits: the point moves, no digit
// is lost or added.
TEST(Json, WritesDoublesInFixedNotationWithEveryDigit) {
  EXPECT_EQ(compact_text(boost::json::value(-2.5e-7)), "-0.00000025");
  EXPECT_EQ(compact_text(boost::json::value(1.25e17)), "125000000000000000");
  EXPECT_EQ(compact_text(boost::json::value(0.1)), "0.1");
}

}  // namespace
}  // namespace loiter::reports
