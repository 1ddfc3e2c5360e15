/*
 * repl_impl.h - what the replacement policies (repl/repl_*.c, registered
 * with WC_PLUGIN) share: the scan helpers.  Private to src/cache/.
 *
 * Policies keep per-line state in wc_line.repl and anything else in the
 * instance their create() returns; the tag array calls on_insert when a way is
 * (re)allocated, on_hit on every later access, victim() only when the set has
 * no invalid way, on_evict when a valid line leaves.  Victims are never
 * RESERVED ways (a fill is pending on them).
 */
#ifndef WC_CACHE_REPL_IMPL_H
#define WC_CACHE_REPL_IMPL_H

#include "warpcache/cache.h"

/* By name for the LRU fast paths (tag_array.c, l1_core.c) and tests. */
extern const wc_repl_ops wc_repl_lru, wc_repl_fifo, wc_repl_nru, wc_repl_srrip, wc_repl_ship,
    wc_repl_pdp;

/* For tests (repl_ship.c): the SHCT counter the signature of `pc` maps to. */
unsigned wc_repl_ship_counter(const void *st, uint64_t pc);

/* The non-reserved way with the smallest repl value (the oldest stamp); ties
 * go to the lowest way.  -1 when every way is reserved. */
static inline int wc_repl_min_way(const wc_line *set, uint32_t assoc)
{
    int best = -1;
    uint64_t best_v = UINT64_MAX;
    for (uint32_t w = 0; w < assoc; w++) {
        if (set[w].state == WC_LINE_RESERVED) continue;
        if (best < 0 || set[w].repl < best_v) {
            best = (int)w;
            best_v = set[w].repl;
        }
    }
    return best;
}

/* LRU's victim (the non-reserved way with the oldest stamp, wc_repl_min_way)
 * found in the same pass as the first invalid way: one walk over the set
 * instead of two when the set is full, the common case in a busy cache.
 * Inline for the L1 core's miss path (tagstore_array.h, arr_pick). */
static inline int wc_lru_pick(const wc_line *s, uint32_t assoc)
{
    int best = -1;
    uint64_t best_v = UINT64_MAX;
    for (uint32_t w = 0; w < assoc; w++) {
        if (s[w].state == WC_LINE_INVALID) return (int)w;
        if (s[w].state == WC_LINE_RESERVED) continue;
        if (best < 0 || s[w].repl < best_v) {
            best = (int)w;
            best_v = s[w].repl;
        }
    }
    return best;
}

#endif
