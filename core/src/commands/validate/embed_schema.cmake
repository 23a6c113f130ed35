# cmake -DINPUT=schema.json -DOUTPUT=out.cpp -P embed_schema.cmake
# Writes a translation unit defining jolt::validate::embedded_summary_schema() over the file text.
file(READ ${INPUT} text)
set(delim "JOLTSCHEMA")
string(FIND "${text}" ")${delim}" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter ${delim}")
endif()
file(WRITE ${OUTPUT}.tmp
  "// Generated from ${INPUT}; do not edit.\n#include <string_view>\n"
  "namespace jolt::validate {\n"
  "std::string_view embedded_summary_schema() {\n"
  "  static constexpr char kText[] = R\"${delim}(${text})${delim}\";\n"
  "  return {kText, sizeof(kText) - 1};\n}\n}  // namespace jolt::validate\n")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
