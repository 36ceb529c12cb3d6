/*===- embed.c - fp8-pipeline through the C API --------------------------===*\
|*                                                                            *|
|* Usage: embed-c GRAPH.mlir [PIPELINE-OPTIONS]                               *|
|* Parses GRAPH, runs fp8-pipeline with the options (default               *|
|* "report=false") and prints the FP8 graph. Exit status 1 with a message on *|
|* stderr when the file cannot be read or parsed, the options are invalid or *|
|* the pipeline fails.                                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#include "fp8-c/FP8.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>

static void printTo(MlirStringRef text, void *stream) {
  fwrite(text.data, 1, text.length, (FILE *)stream);
}

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (text && fread(text, 1, size, f) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s GRAPH.mlir [PIPELINE-OPTIONS]\n", argv[0]);
    return 1;
  }
  char *text = readFile(argv[1]);
  if (!text) {
    fprintf(stderr, "embed-c: cannot read '%s'\n", argv[1]);
    return 1;
  }

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  fp8RegisterRequiredDialects(registry);
  fp8RegisterDialect(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  fp8RegisterPasses();

  int status = 1;
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  free(text);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "embed-c: cannot parse '%s'\n", argv[1]);
    mlirContextDestroy(ctx);
    return 1;
  }
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  const char *options = argc > 2 ? argv[2] : "report=false";
  if (mlirLogicalResultIsFailure(fp8BuildPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(options), printTo, stderr))) {
    fprintf(stderr, "\n");
  } else if (mlirLogicalResultIsFailure(
                 mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "embed-c: fp8-pipeline failed\n");
  } else {
    mlirOperationPrint(mlirModuleGetOperation(module), printTo, stdout);
    printf("\n");
    status = 0;
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return status;
}
