// JSON parsing shared by the validators. Input is untrusted (any file a user points validate
// at), so parsing must not crash on anything:
//  - RapidJSON's iterative parser (no recursion: deep nesting cannot overflow the stack);
//  - UTF-8 validated while parsing (a string with invalid UTF-8 is a parse error, so later
//    code that prints keys or builds JSON pointers from them never walks past a bad sequence);
//  - nesting deeper than kMaxNestingDepth is refused after parsing (checked without recursion),
//    because the schema validator and the checks walk the document recursively.
#pragma once
#include <cstddef>
#include <string_view>

#include <rapidjson/document.h>

#include "trace_validator.hpp"

namespace jolt::validate {

// Artifacts nest a handful of levels; 256 leaves room for any hand-written args object.
inline constexpr std::size_t kMaxNestingDepth = 256;

// Parses `text` into `d`; on failure appends the reason to r.errors and returns false.
bool parse_json(std::string_view text, rapidjson::Document& d, Report& r);

// The checks behind validate_chrome_trace / validate_summary on an already parsed document.
void check_chrome_trace(const rapidjson::Document& d, Report& r);
void check_summary(const rapidjson::Document& d, std::string_view schema_text, Report& r);

}  // namespace jolt::validate
