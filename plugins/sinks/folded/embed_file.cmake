# Turns one file into a C++ source defining `extern const std::string_view ${SYMBOL}` holding its
# exact bytes. Run as: cmake -DINPUT=<file> -DOUTPUT=<cpp> -DSYMBOL=<name> -P embed_file.cmake
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
# Break the initializer into lines of 16 bytes so the generated file stays readable.
string(REGEX REPLACE "(('\\\\x[0-9a-f][0-9a-f]',){16})" "\\1\n  " bytes "${bytes}")
get_filename_component(name ${INPUT} NAME)
file(WRITE ${OUTPUT}.tmp
"// Generated from ${name} by embed_file.cmake; do not edit.
#include <string_view>
namespace {
const char kBytes[] = {
  ${bytes}'\\0'};
}  // namespace
namespace jolt::heap {
extern const std::string_view ${SYMBOL};
const std::string_view ${SYMBOL}(kBytes, ${size});
}  // namespace jolt::heap
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
