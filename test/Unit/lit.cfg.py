# -*- Python -*-
# Runs the GoogleTest binaries under <build>/unittests as part of check-fp8.
import os

import lit.formats

config.name = "FP8-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.fp8_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(config.llvm_build_mode, "Tests")
