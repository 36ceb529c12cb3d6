# fp8_add_mlir_object(<output.o> <source.mlir> FP8_OPT_ARGS <args...>)
#
# Compiles an MLIR file with this project's fp8-opt (typically
# --fp8-cpu-pipeline) into a position-independent object file, for C++
# harnesses and benchmarks that link code produced by the lowering:
#   fp8-opt -> mlir-translate --mlir-to-llvmir -> opt -O3 -> llc -O3.
# Functions marked `llvm.emit_c_interface` are callable from C++ as
# `_mlir_ciface_<name>` with StridedMemRefType descriptors
# (mlir/ExecutionEngine/CRunnerUtils.h).
find_program(FP8_MLIR_TRANSLATE mlir-translate HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_program(FP8_LLVM_OPT opt HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_program(FP8_LLC llc HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)

# The objects run on the build machine (tests, benchmarks): tune for it. The
# integer FP8 expansion uses per-lane variable shifts, which x86-64 gets only
# from AVX2 on; the baseline target makes the exhaustive test ~3x slower.
set(FP8_MLIR_OBJECT_CPU "native" CACHE STRING
    "-mcpu for objects compiled from MLIR by fp8_add_mlir_object")

function(fp8_add_mlir_object output source)
  cmake_parse_arguments(ARG "" "" "FP8_OPT_ARGS" ${ARGN})
  set(base ${CMAKE_CURRENT_BINARY_DIR}/${output})
  add_custom_command(OUTPUT ${base}
    COMMAND $<TARGET_FILE:fp8-opt> ${source} ${ARG_FP8_OPT_ARGS} -o ${base}.llvm.mlir
    COMMAND ${FP8_MLIR_TRANSLATE} --mlir-to-llvmir ${base}.llvm.mlir -o ${base}.ll
    COMMAND ${FP8_LLVM_OPT} -O3 -mtriple=${LLVM_HOST_TRIPLE}
            -mcpu=${FP8_MLIR_OBJECT_CPU} ${base}.ll -o ${base}.bc
    COMMAND ${FP8_LLC} -O3 -mtriple=${LLVM_HOST_TRIPLE}
            -mcpu=${FP8_MLIR_OBJECT_CPU} -filetype=obj
            -relocation-model=pic ${base}.bc -o ${base}
    DEPENDS fp8-opt ${source}
    COMMENT "Compiling ${output} from ${source} through fp8-opt"
    VERBATIM)
endfunction()
