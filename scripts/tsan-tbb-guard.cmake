# Included after project() by the `tsan` preset (CMAKE_PROJECT_INCLUDE in CMakePresets.json).
# find_package(TBB) silently falls back to Debian's uninstrumented libtbb when TBB_DIR holds no
# TBBConfig.cmake, and TSan then reports false races (see .ci/tsan.supp); stop the configure
# instead and say how to build the instrumented library.
if(NOT EXISTS "${TBB_DIR}/TBBConfig.cmake")
  message(FATAL_ERROR
    "tsan preset: no TSan-instrumented oneTBB in ${TBB_DIR}. "
    "Run scripts/build-tsan-tbb.sh (it builds Debian's onetbb source package with "
    "-fsanitize=thread into build-tsan-tbb/install), then configure again.")
endif()
