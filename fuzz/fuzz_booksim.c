/*
 * fuzz_booksim.c - libFuzzer target for the booksim file reader
 * (src/config/booksim.c): any bytes must either parse, with values inside
 * the ranges the crossbar model accepts, or be refused with a message that
 * names the file.
 */
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void note(void *ctx, const char *name, const char *where)
{
    (void)ctx;
    if (!name[0] || strncmp(where, "fuzz.icnt", 9) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wc_booksim b;
    wc_err err = {{0}};
    if (wc_booksim_parse((const char *)data, size, "fuzz.icnt", &b, note, NULL, &err) < 0) {
        if (strncmp(err.msg, "fuzz.icnt:", 10) != 0) abort(); /* errors say where */
        return 0;
    }
    if (b.speedup_x100 < 1 || b.speedup_x100 > 6400 || b.vc_buf < 1 || b.vc_buf > 65536) abort();
    return 0;
}
