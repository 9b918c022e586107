// A survey's values in words, shared by its console table and survey.html. Private to
// reports/.
#pragma once

#include <string>
#include <vector>

#include "loiter/reports/survey.hpp"

namespace loiter::reports::survey_words {

// "loiter 0.1.0 survey of nginx at 127.0.0.1:8080 over HTTP/1.1"; the endpoint once where
// it is the target too (--connect without a target file): "loiter 0.1.0 survey of
// 127.0.0.1:8080 over HTTP/1.1"
std::string title(const Survey& survey);
// "5 connections per probe, max wait 120 s, slack 0.25 s, took 412.5 s"
std::string settings(const Survey& survey);
// "server pid 4242: FDs 11 before, 16 at peak, 11 after (back); RSS 5.1 MiB before, 5.4 MiB at peak"
std::string server(const SurveyServer& server);
// The title, with the pace of a paced probe: "a head trickled a byte at a time, a byte every
// 0.90 s".
std::string behaviour(const SurveyMeasure& measure);
// The median and what it runs from, "2.00 s from connect"; "none within 120 s" when the
// agreeing connections were still open; empty for a measure not measured.
std::string time(const SurveyMeasure& measure, double max_wait);
// "2.000/2.001/2.004 s", or "-" without a time.
std::string spread(const SurveyMeasure& measure);
// "5/5": the connections that agreed, of those probed.
std::string agreement(const SurveyMeasure& measure);
// "not measured: <why>"
std::string not_measured(const SurveyMeasure& measure);
// What a reader needs beside the row: whether progress extends the deadline, where the
// deadline runs from, every ending when they did not all agree.
std::vector<std::string> facts(const SurveyMeasure& measure);

}  // namespace loiter::reports::survey_words
