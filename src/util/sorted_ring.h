/*
 * sorted_ring.h - a fixed ring of "free at" times kept in ascending order
 * from its head: the L1's miss queue (src/cache/l1_core.c) and an L2
 * partition's MSHR pool (src/mem/memsys.c).
 *
 * Why a sorted ring: which slot takes a send never mattered, only the multiset
 * of times, so "the slot that frees first" is the head and "n free slots" is a
 * look at the n-th smallest.  A new time replaces the head and is no earlier
 * than it; the times these callers record nearly always grow (the SM port's
 * leave times, DRAM's completion times), so the new time usually belongs at
 * the back, where the insertion starts.
 */
#ifndef WC_UTIL_SORTED_RING_H
#define WC_UTIL_SORTED_RING_H

#include <stdint.h>

/* Replaces the head of r[0..n) (ascending from *head, circular) with t, no
 * earlier than the old head, keeping the order: the head's slot becomes the
 * back and t moves forward past every later time. */
static inline void wc_sorted_ring_replace_head(uint64_t *r, uint32_t n, uint32_t *head, uint64_t t)
{
    uint32_t i = *head; /* the head's slot is now the back */
    *head = i + 1 == n ? 0 : i + 1;
    for (uint32_t k = 1; k < n; k++) { /* the n - 1 others, from the back */
        uint32_t j = i ? i - 1 : n - 1;
        if (r[j] <= t) break;
        r[i] = r[j];
        i = j;
    }
    r[i] = t;
}

#endif
