# jolt_add_plugin(<target> KIND sink|workload SOURCES ... [LIBS ...])
# Builds lib<target>.so with the SDK; in-tree plugins land in JOLT_PLUGIN_BUILD_DIR and install
# to the plugin folder; out-of-tree plugins (find_package(JoltSdk)) build where they are.
function(jolt_add_plugin target)
  cmake_parse_arguments(P "" "KIND" "SOURCES;LIBS" ${ARGN})
  add_library(${target} MODULE ${P_SOURCES})
  set_target_properties(${target} PROPERTIES PREFIX "lib" CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(TARGET jolt_sdk)
    target_link_libraries(${target} PRIVATE jolt_sdk ${P_LIBS})
  else()
    target_link_libraries(${target} PRIVATE jolt::jolt_sdk ${P_LIBS})
  endif()
  if(DEFINED JOLT_PLUGIN_BUILD_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${JOLT_PLUGIN_BUILD_DIR})
    install(TARGETS ${target} LIBRARY DESTINATION ${JOLT_INSTALL_PLUGIN_DIR})
  endif()
endfunction()
