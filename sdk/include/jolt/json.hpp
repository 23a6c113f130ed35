// JSON string escaping for sinks and tools that write JSON by hand (the in-tree sinks use
// RapidJSON's writer, which applies the same rules).
//
// clang-format off
//   std::string line = "{\"span\": " + jolt::json_quote(span.name) + "}";
//   jolt::append_json_escaped(out, label);        // escapes only, no quotes
// clang-format on
//
// Escapes '"', '\\' and every control character (U+0000..U+001F, as \b \f \n \r \t or \u00XX);
// every other byte, UTF-8 included, is copied unchanged. Pure functions; thread-safe.
#pragma once
#include <string>
#include <string_view>

namespace jolt {

// Appends `text` escaped for use inside a JSON string literal (no surrounding quotes).
void append_json_escaped(std::string& out, std::string_view text);

// `text` as a complete JSON string literal, quotes included.
std::string json_quote(std::string_view text);

}  // namespace jolt
