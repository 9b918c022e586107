// What one probe's connections saw, read into a survey measure: the rules every probe
// shares (read_measures.hpp: those of one measure each). Pure functions of the client records (and,
// for the send probes, when the server's side of each connection closed), so every rule here is
// tested on canned records.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loiter/clients/record.hpp"
#include "loiter/reports/survey.hpp"

namespace loiter::suites::survey {

double in_seconds(clients::Duration d);
// The server ended the connection (close, reset or a TLS alert), not the client or the wait.
bool ended_by_server(const clients::ConnectionRecord& record);
double median_of(std::vector<double> values);  // of a non-empty list

// One connection's answer: how it ended, and when, from the probe's origin.
struct Timed {
  reports::SurveyEnding ending;   // "408+close", "close", "reset", "open", ...
  std::optional<double> seconds;  // nullopt: open when the wait ran out, or no origin
};

// How the record's connection ended, as the survey words it: clients::ending_of's label
// ("408+close", "goaway+close", "open", ...).
reports::SurveyEnding survey_ending(const clients::ConnectionRecord& record);
// An ending the server had no part in: still open, never connected, or ended by the client.
bool not_the_servers(const reports::SurveyEnding& ending);

// What a measure is, before anything is read into it.
struct MeasureHead {
  std::string id;
  std::string title;
  std::string kind;
  std::string from;
  std::string interval;  // a paced probe's pace, in words
};

// The measure of `timed`: the most common ending (an ending by the server before "open",
// "open" before a connection never made), the spread of its times, and how many of them lie
// within the tolerance of their median (the larger of `slack` and a tenth of the median).
reports::SurveyMeasure summarize(const MeasureHead& head, const std::vector<Timed>& timed,
                                 double slack);

// A measure not made, and why.
reports::SurveyMeasure not_measured(const MeasureHead& head, std::string reason);

// The connection's ending, timed from its connect.
Timed from_connect(const clients::ConnectionRecord& record);
// ... from its first send (the whole head of a body probe: the end of the head).
Timed from_first_send(const clients::ConnectionRecord& record);
// ... from its last send (the half head of a second request: its first byte).
Timed from_last_send(const clients::ConnectionRecord& record);
// ... from its first response's last byte (an idle connection).
Timed from_first_response(const clients::ConnectionRecord& record);
// ... from its last whole response.
Timed from_last_response(const clients::ConnectionRecord& record);
// HTTP/2: the connection's end as the server began it, from connect: its GOAWAY where one
// came ("goaway" while the connection stayed open after it), else the ending.
Timed goaway_or_end(const clients::ConnectionRecord& record);
// HTTP/2: the first of a RST_STREAM for its stream ("rst-stream"), a GOAWAY ("goaway+...")
// or the connection's end, from connect.
Timed h2_from_connect(const clients::ConnectionRecord& record);

std::vector<Timed> each(const std::vector<clients::ConnectionRecord>& records,
                        Timed (*read)(const clients::ConnectionRecord&));

// When the server's side of a connection closed (sock_diag: it left ESTABLISHED or was
// gone), by the client's source endpoint ("127.0.0.2:40312"), in seconds since that
// connection's connect; and how it went: a close (FIN_WAIT*, its unsent bytes queued
// behind the FIN) or a reset (gone at once).
struct ServerClose {
  double seconds = 0;
  reports::SurveyEnding ending;
};
using ServerCloses = std::map<std::string, ServerClose>;

// A reader that stopped reading (reader-pause with an endless pause): the server's close,
// timed from when its writes stopped making progress (the pause's `filled`). The client's
// own view where it saw the ending (a reset); the server's side otherwise, since a FIN
// queued behind unread bytes never reaches a reader that reads nothing.
std::vector<Timed> send_stopped(const std::vector<clients::ConnectionRecord>& records,
                                const ServerCloses& closes);

// The progress probe `progress` against its stalled twin: extends when its connections were
// still open at the end of the wait, or were ended later than every stalled one by more than
// the slack. An exposure line says what a client can hold, and for how long.
void judge_progress(reports::SurveyMeasure& progress, const reports::SurveyMeasure& stalled,
                    const std::string& holds, double slack, double max_wait);

// The stalled probe `measure` never ended: the exposure says what a client can hold.
void expose_if_open(reports::SurveyMeasure& measure, const std::string& exposure, double max_wait);

// Seconds as a person reads them: "2.00 s", "0.90 s", "120 s".
std::string seconds_text(double seconds);

}  // namespace loiter::suites::survey
