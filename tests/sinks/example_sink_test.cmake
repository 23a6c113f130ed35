# ctest driver: install the SDK component of the build tree into a temp prefix, build
# examples/sink-markdown out of tree against it, and load the result on a synthetic Profile.
# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DLOADER=... -DGENERATOR=... -P this
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/run)
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix --component sdk)
step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/sink-markdown -B ${WORK_DIR}/build
     -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=RelWithDebInfo)
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
if(NOT EXISTS ${WORK_DIR}/build/libmarkdown_top_spans.so)
  message(FATAL_ERROR "the example did not produce libmarkdown_top_spans.so")
endif()
step(${LOADER} ${WORK_DIR}/build/libmarkdown_top_spans.so ${WORK_DIR}/run)
