/*
 * index_impl.h - what the set-index function files (index/index_*.c) share:
 * the common checks on set count and line size.  Each file defines its
 * wc_index_desc (name, letter, init) and registers it with WC_PLUGIN.
 * Private to src/cache/.
 */
#ifndef WC_CACHE_INDEX_IMPL_H
#define WC_CACHE_INDEX_IMPL_H

#include <string.h>

#include "warpcache/cache.h"

/* Resets *ix and fills the fields every index function uses.  Returns -1 with
 * a message naming `what` (the function) when the line size is unusable. */
static inline int wc_index_base_init(wc_index *ix, const char *what, uint32_t nsets,
                                     uint32_t line_bytes, wc_err *err)
{
    memset(ix, 0, sizeof *ix);
    if (!wc_is_pow2(line_bytes))
        return wc_errf(err, "%s set index: line size %u is not a power of two", what, line_bytes);
    ix->nsets = nsets;
    ix->line_log2 = wc_log2(line_bytes);
    return 0;
}

/* The check linear, xor and ipoly share: any power-of-two set count. */
static inline int wc_index_check_pow2_sets(const char *what, uint32_t nsets, wc_err *err)
{
    if (!wc_is_pow2(nsets))
        return wc_errf(err, "%s set index: %u sets is not a power of two", what, nsets);
    return 0;
}

#endif
