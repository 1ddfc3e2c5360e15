/*
 * touchmap.h - a hash map from a cache line address to who last touched (or
 * brought in) that line: the side tables of the L1 analyses (contention.c,
 * locality.c).  Open addressing with linear probing and backward-shift
 * deletion, grown at half load, so a lookup is a few probes and the table
 * never holds tombstones.
 */
#ifndef WC_ANALYSIS_TOUCHMAP_H
#define WC_ANALYSIS_TOUCHMAP_H

#include <stdbool.h>
#include <stdint.h>

/* A warp's identity as the analyses compare it.  A block id is unique within
 * a kernel launch and a block keeps its warp slots for its life, so (kernel,
 * block, slot) names one warp; sm tells cores apart; lanes is the thread mask
 * of the touching request (intra-thread vs inter-thread locality). */
typedef struct wc_toucher {
    uint32_t kernel; /* launch id (wc_req_kernel) */
    uint32_t block;  /* linear block id within the kernel */
    uint32_t lanes;  /* warp lanes of the request */
    uint16_t slot;   /* warp slot within the SM */
    uint16_t sm;
} wc_toucher;

typedef struct wc_touchmap_entry {
    uint64_t key; /* line address + 1; 0 = empty */
    wc_toucher who;
} wc_touchmap_entry;

typedef struct wc_touchmap {
    wc_touchmap_entry *e;
    uint64_t mask; /* capacity - 1 (capacity a power of two, 0 when unused) */
    uint64_t used;
} wc_touchmap;

void wc_touchmap_free(wc_touchmap *m);
/* The entry of `line`, or NULL. */
wc_toucher *wc_touchmap_get(const wc_touchmap *m, uint64_t line);
/* The entry of `line`, created (contents undefined) if absent; *is_new says
 * which.  NULL when out of memory (the map is unchanged). */
wc_toucher *wc_touchmap_put(wc_touchmap *m, uint64_t line, bool *is_new);
/* Removes `line`; returns whether it was there. */
bool wc_touchmap_del(wc_touchmap *m, uint64_t line);

#endif
