// The names of the descriptor types as the run directory and report.json spell them: those
// of fixtures::to_string(FdType), in FdType's order. Private to the document.
#pragma once

#include <array>
#include <string_view>

#include "loiter/fixtures/probe/sample.hpp"

namespace loiter::suites {

inline constexpr std::array<std::string_view, fixtures::kFdTypeCount> kFdTypeNames{
    "socket", "pipe", "file", "anon_inode", "other"};

}  // namespace loiter::suites
