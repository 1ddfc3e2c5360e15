/*
 * model_internal.h - pieces shared by the files of the reuse-distance model
 * (src/model/): the binary heap of timed events and the line splitter.
 */
#ifndef WC_MODEL_INTERNAL_H
#define WC_MODEL_INTERNAL_H

#include <stdlib.h>

#include "warpcache/model.h"

/* A timed event: a stack effect (slot = line slot) or a warp wake-up (slot =
 * warp slot).  Events at the same time are ordered by seq (issue order). */
typedef struct wc_mev {
    uint64_t time, seq;
    uint32_t slot;
    uint32_t miss; /* effect of a miss (releases its MSHR share) */
} wc_mev;

typedef struct wc_mheap {
    wc_mev *v;
    size_t n, cap;
} wc_mheap;

static inline bool wc_mev_before(const wc_mev *a, const wc_mev *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline int wc_mheap_push(wc_mheap *h, wc_mev e)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        wc_mev *v = realloc(h->v, cap * sizeof *v);
        if (!v) return -1;
        h->v = v;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (!wc_mev_before(&e, &h->v[p])) break;
        h->v[i] = h->v[p];
        i = p;
    }
    h->v[i] = e;
    return 0;
}

static inline wc_mev wc_mheap_pop(wc_mheap *h)
{
    wc_mev top = h->v[0], last = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && wc_mev_before(&h->v[c + 1], &h->v[c])) c++;
        if (!wc_mev_before(&h->v[c], &last)) break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n) h->v[i] = last;
    return top;
}

static inline void wc_mheap_free(wc_mheap *h)
{
    free(h->v);
    h->v = NULL;
    h->n = h->cap = 0;
}

/* Line addresses (byte address >> line_log2) touched by the active lanes of a
 * memory instruction, unique, in order of first touching lane: the per-warp
 * coalescing of seed 003 section 4.1.  Returns the count (<= 64). */
unsigned wc_model_split_lines(const wc_winst *in, unsigned line_log2, uint64_t *out);

#endif
