// Ending labels: what a record's ending is as a value, and the words a report prints for it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loiter/clients/record.hpp"

namespace loiter::clients {
namespace ending_label_test {  // named: unity batches put other tests' helpers beside these

using namespace std::chrono_literals;

ConnectionRecord ended(Ending ending) {
  ConnectionRecord r;
  r.ending = ending;
  r.ended_at = 2s;
  return r;
}

TEST(EndingLabel, EachLabelHasItsWords) {
  EXPECT_EQ(to_string(ends::closed), "close");
  EXPECT_EQ(to_string(ends::reset), "reset");
  EXPECT_EQ(to_string(ends::alert), "alert");
  EXPECT_EQ(to_string(ends::of(Ending::connect_failed)), "connect-failed");
  EXPECT_EQ(to_string(ends::with_status(408, Ending::close)), "408+close");
  EXPECT_EQ(to_string(ends::goaway(Ending::reset)), "goaway+reset");
  EXPECT_EQ(to_string(ends::stream_answered(408)), "408");
  EXPECT_EQ(to_string(ends::stream_reset), "rst-stream");
}

// Labels compare as values: a 408 before the close is not a plain close, nor a 408 answer
// that ended only the stream.
TEST(EndingLabel, LabelsAreTold) {
  EXPECT_NE(ends::closed, ends::with_status(408, Ending::close));
  EXPECT_NE(ends::with_status(408, Ending::close), ends::with_status(408, Ending::reset));
  EXPECT_NE(ends::stream_answered(408), ends::with_status(408, Ending::close));
  EXPECT_NE(ends::goaway(Ending::close), ends::closed);
  EXPECT_EQ(ends::with_status(408, Ending::close), ends::with_status(408, Ending::close));
}

// An unsolicited response before the server's close leads its label; a GOAWAY before it
// leads over that; the client's own ending is only its own.
TEST(EndingLabel, ARecordsEndingIsLedByWhatCameBeforeIt) {
  auto answered = ended(Ending::close);
  answered.responses.push_back({.status = 408, .reason = "Request Timeout", .fields = {},
                                .started = 1s, .complete = 1s, .body_bytes = 0});
  EXPECT_EQ(ending_of(answered), ends::with_status(408, Ending::close));
  EXPECT_EQ(ending_label(answered), "408+close");

  auto goaway = answered;
  goaway.h2.emplace();
  goaway.h2->goaway = H2Goaway{.at = 1s, .last_stream = 0, .code = 0, .frames_sent = 0};
  EXPECT_EQ(ending_of(goaway), ends::goaway(Ending::close));

  auto client = ended(Ending::client_close);
  client.responses = answered.responses;
  EXPECT_EQ(ending_of(client), ends::of(Ending::client_close));
}

}  // namespace ending_label_test
}  // namespace loiter::clients
