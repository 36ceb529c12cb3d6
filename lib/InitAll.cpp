//===- InitAll.cpp - register the fp8 dialect's passes ---------------------===//
#include "fp8/InitAll.h"

void mlir::fp8::registerFP8Passes() {
  // Each pass group registers itself here as it lands (graph passes in
  // lib/Transforms, lowerings in lib/Conversion).
}
