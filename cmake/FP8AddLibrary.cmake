# fp8_declare_library(<name> MLIR_LIBS <upstream MLIR libraries...>)
#
# Completes a library made with add_mlir_dialect_library /
# add_mlir_conversion_library / add_mlir_library (always with
# EXCLUDE_FROM_LIBMLIR and DISABLE_INSTALL: the project installs its own
# export set, not MLIR's):
#  - declares the upstream MLIR libraries it really uses. Each name must be a
#    target of MLIR's CMake package (checked here, so a typo or a removed
#    library fails at configure time); mlir_target_link_libraries links
#    libMLIR.so in their place (MLIR_LINK_MLIR_DYLIB);
#  - adds it to the FP8MLIRTargets export set (cmake/FP8Install.cmake).
function(fp8_declare_library name)
  cmake_parse_arguments(ARG "" "" "MLIR_LIBS" ${ARGN})
  foreach(lib ${ARG_MLIR_LIBS})
    if(NOT TARGET ${lib})
      message(FATAL_ERROR "${name}: '${lib}' is not a library of MLIR's CMake package")
    endif()
  endforeach()
  mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  install(TARGETS ${name} EXPORT FP8MLIRTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  set_property(GLOBAL APPEND PROPERTY FP8_LIBRARIES ${name})
endfunction()
