// fp8-translate prints one error, without a dump of the module (issue 19).
//
// No translation: one line (upstream's driver printed "must be specified at
// least once!" once per registered translation).
// RUN: not fp8-translate %s 2>&1 | FileCheck %s --check-prefix=NOMODE
// NOMODE: fp8-translate: no translation given: pass exactly one, e.g. --fp8-extract-gpu-object or --mlir-to-llvmir (--help lists them)
// NOMODE-NOT: translation
// RUN: not fp8-translate --fp8-extract-gpu-object --mlir-to-llvmir %s 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: fp8-translate: more than one translation given
//
// A module without gpu.binary: the error on the module's location and
// nothing else (was followed by the whole module, 452 KB for a model).
// RUN: not fp8-translate --fp8-extract-gpu-object %s 2>&1 | FileCheck %s --check-prefix=NOBIN
// NOBIN: error: no gpu.binary object to extract (run gpu-module-to-binary / fp8-gpu-pipeline first)
// NOBIN-NOT: see current operation
// NOBIN-NOT: arith.addf
// NOBIN-NOT: error:
//
// A missing input file: one line, status 1.
// RUN: not fp8-translate --fp8-extract-gpu-object %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: fp8-translate: {{.*}}does-not-exist.mlir
// NOFILE-NOT: fp8-translate

func.func @f(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  return %0 : f32
}
