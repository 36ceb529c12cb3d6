/*===- memref_copy.c - memrefCopy for libraries carried off this machine --===*\
 *
 * The one function of MLIR's C runner utils (libmlir_c_runner_utils) that
 * the compiled host programs call: memrefCopy, the copy between two strided
 * memrefs of the same shape that memref.copy lowers to. That library needs
 * libMLIR and libLLVM, which the device machine does not have, so
 * bench/gpu/silicon.sh links this into each library it prepares instead.
 * Hidden: each library binds to its own copy.
 *
 * Arguments as MLIR passes them: the element size in bytes and two unranked
 * memrefs {rank, descriptor}, the descriptor being allocated, aligned,
 * offset, sizes[rank], strides[rank] (8-byte words).
\*===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <string.h>

typedef struct {
  int64_t rank;
  int64_t *desc;
} UnrankedMemref;

__attribute__((visibility("hidden"))) void
memrefCopy(int64_t elemSize, UnrankedMemref *src, UnrankedMemref *dst) {
  int64_t rank = src->rank, count = 1;
  const int64_t *sizes = src->desc + 3;
  for (int64_t d = 0; d < rank; ++d)
    count *= sizes[d];
  const char *from = (const char *)(intptr_t)src->desc[1];
  char *to = (char *)(intptr_t)dst->desc[1];
  /* Element i: its index, innermost dimension fastest, through each side's
   * own offset and strides. */
  for (int64_t i = 0; i < count; ++i) {
    int64_t rest = i, s = src->desc[2], t = dst->desc[2];
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t index = rest % sizes[d];
      rest /= sizes[d];
      s += index * src->desc[3 + rank + d];
      t += index * dst->desc[3 + rank + d];
    }
    memcpy(to + t * elemSize, from + s * elemSize, (size_t)elemSize);
  }
}
