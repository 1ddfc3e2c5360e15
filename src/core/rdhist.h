/*
 * rdhist.h - the reuse-distance histogram and footprint of the stream of
 * accesses that reach each SM's L1 data store (seed 001,
 * ../shared/papers/001_94c1440347ca7d61.txt, Figure 11: "the reuse distance
 * histogram of L1 access stream ... shaped by different designs"; for the
 * decoupled L1D that is the stream its tag store filtered).  Option
 * -l1_rd_hist 1; off, nothing of it exists (zero cost).
 *
 * An L1 listener (on_access) the engine adds when the option is on.  Every
 * access the L1 took that was not BYPASSED (reservation fails are presented
 * again and counted then) is one reference to its line in its SM's LRU
 * stack (Bennett-Kruskal, src/model/sdstack.h); its distance is the number
 * of distinct lines that SM's data store saw since the line's last access.
 * Each SM's stack starts empty at every kernel launch, so the footprint is
 * per kernel: the distinct lines of each SM's stream, summed over SMs.
 * Counters are cumulative (the engine takes per-kernel differences).
 */
#ifndef WC_CORE_RDHIST_H
#define WC_CORE_RDHIST_H

#include "warpcache/cache.h"
#include "warpcache/stats.h"

typedef struct wc_rdhist wc_rdhist;

wc_rdhist *wc_rdhist_create(unsigned n_sm);
void wc_rdhist_destroy(wc_rdhist *h);
wc_l1_listener wc_rdhist_listener(wc_rdhist *h);
/* Adds the cumulative counters to k (k->rd_on is set). */
void wc_rdhist_add_to(const wc_rdhist *h, wc_kstats *k);
/* True when memory ran out (the histogram is then incomplete). */
bool wc_rdhist_failed(const wc_rdhist *h);

/* The bucket of distance d: 0 for 0, k for [2^(k-1), 2^k), the last one
 * open-ended. */
static inline unsigned wc_rd_bucket(uint64_t d)
{
    unsigned b = 0;
    while (d && b + 1 < WC_RD_BUCKETS) {
        d >>= 1;
        b++;
    }
    return b;
}

#endif
