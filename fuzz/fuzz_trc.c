/*
 * fuzz_trc.c - libFuzzer target for the trc reader (see fuzz_common.h and
 * scripts/fuzz.sh).  Build: clang -fsanitize=fuzzer,address against the
 * library sources.
 */
#include <stdlib.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_one(data, size, WC_TRACE_TRC) < 0) abort(); /* an error must say why */
    return 0;
}
