// jolt::json_quote / append_json_escaped: the escapes JSON requires, UTF-8 untouched.
#include <doctest/doctest.h>

#include <jolt/json.hpp>

TEST_CASE("quotes, backslashes and control characters are escaped") {
  CHECK(jolt::json_quote("plain") == "\"plain\"");
  CHECK(jolt::json_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(jolt::json_quote("\n\r\t\b\f") == "\"\\n\\r\\t\\b\\f\"");
  CHECK(jolt::json_quote(std::string_view("\0\x01\x1f", 3)) == "\"\\u0000\\u0001\\u001f\"");
  CHECK(jolt::json_quote("</script> é ∑") == "\"</script> é ∑\"");  // '/' and UTF-8 as is
  CHECK(jolt::json_quote("") == "\"\"");
}

TEST_CASE("append_json_escaped appends without quotes") {
  std::string out = "{\"k\":\"";
  jolt::append_json_escaped(out, "Stage1Batch::prove \"x\"");
  out += "\"}";
  CHECK(out == "{\"k\":\"Stage1Batch::prove \\\"x\\\"\"}");
}
