# `cmake --install build --prefix P` installs:
#   P/include/fp8/..., P/include/fp8-c/...  headers (with the generated .inc)
#   P/lib/libFP8*.a                          the static libraries
#   P/bin/fp8-opt, P/bin/fp8-translate       the tools
#   P/lib/cmake/fp8mlir/                     the CMake package FP8MLIR
# An out-of-tree project then does
#   find_package(FP8MLIR REQUIRED CONFIG)   # FP8MLIR_DIR=P/lib/cmake/fp8mlir
#   target_link_libraries(my-tool PRIVATE FP8MLIR::FP8MLIR)
# and gets the dialect, every pass and pipeline, fp8/InitAll.h and the C API
# (examples/embed/). FP8MLIR::FP8MLIR links libMLIR.so and libLLVM.so, like
# the project's own tools.
include(CMakePackageConfigHelpers)

# One target for everything; the libraries it links are exported with it.
add_library(FP8MLIR INTERFACE)
get_property(fp8_libraries GLOBAL PROPERTY FP8_LIBRARIES)
target_link_libraries(FP8MLIR INTERFACE ${fp8_libraries})
target_include_directories(FP8MLIR INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
# Libraries built with the sanitizers (scripts/sanitize.sh) need their
# runtimes wherever they are linked.
if(FP8_ENABLE_SANITIZERS)
  target_link_options(FP8MLIR INTERFACE -fsanitize=address,undefined)
endif()
install(TARGETS FP8MLIR EXPORT FP8MLIRTargets)

install(DIRECTORY include/fp8 include/fp8-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/fp8
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc")

set(FP8MLIR_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/fp8mlir)
install(EXPORT FP8MLIRTargets NAMESPACE FP8MLIR::
  DESTINATION ${FP8MLIR_CMAKE_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/FP8MLIRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/FP8MLIRConfig.cmake
  INSTALL_DESTINATION ${FP8MLIR_CMAKE_DIR})
install(FILES ${PROJECT_BINARY_DIR}/cmake/FP8MLIRConfig.cmake
  DESTINATION ${FP8MLIR_CMAKE_DIR})
