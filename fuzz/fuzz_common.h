/*
 * fuzz_common.h - shared body of the libFuzzer targets in fuzz/: parse one
 * in-memory trace with wc_trace_open_mem and drain it, bounded (the input may
 * legitimately declare billions of empty blocks), so any crash, leak or hang
 * is a reader bug.  Also used by tests/test_trace_corpus.c to replay saved
 * inputs.
 */
#ifndef WC_FUZZ_COMMON_H
#define WC_FUZZ_COMMON_H

#include <string.h>

#include "warpcache/traceio.h"

#define FUZZ_MAX_BLOCKS 64
#define FUZZ_MAX_INSTS  100000

/* 1 = read fine, 0 = rejected with a message, -1 = rejected without a message. */
static inline int fuzz_one(const void *data, size_t size, wc_trace_format fmt)
{
    wc_err err;
    err.msg[0] = 0;
    wc_source *src = wc_trace_open_mem(data, size, fmt, &err);
    if (!src) return err.msg[0] ? 0 : -1;
    wc_kernel k;
    wc_winst in;
    int rc;
    unsigned long insts = 0;
    while ((rc = src->ops->next_kernel(src, &k, &err)) > 0) {
        uint64_t nb = wc_dim3_count(k.grid);
        if (nb > FUZZ_MAX_BLOCKS) nb = FUZZ_MAX_BLOCKS;
        uint32_t nw = wc_kernel_warps_per_block(&k);
        void *blk[2] = {NULL, NULL};
        /* Two blocks open at once, as the engine does. */
        for (uint64_t b = 0; b < nb && rc >= 0; b++) {
            if (src->ops->open_block(src, b, &blk[b & 1], &err) < 0) {
                rc = -1;
                blk[b & 1] = NULL;
                break;
            }
            for (uint32_t w = 0; w < nw && rc >= 0; w++) {
                int r;
                while ((r = src->ops->next_inst(src, blk[b & 1], w, &in, &err)) > 0)
                    if (++insts > FUZZ_MAX_INSTS) break;
                if (r < 0) rc = -1;
            }
            if (blk[(b + 1) & 1]) {
                src->ops->close_block(src, blk[(b + 1) & 1]);
                blk[(b + 1) & 1] = NULL;
            }
        }
        for (int i = 0; i < 2; i++)
            if (blk[i]) src->ops->close_block(src, blk[i]);
        if (rc < 0 || insts > FUZZ_MAX_INSTS) break;
    }
    wc_source_destroy(src);
    if (rc < 0) return err.msg[0] ? 0 : -1;
    return 1;
}

#endif
