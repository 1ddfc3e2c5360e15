/*
 * events.h - a binary min-heap of timed responses (fills and bypassed
 * responses arriving at SMs).  Ties break by insertion order so runs are
 * deterministic.
 */
#ifndef WC_CORE_EVENTS_H
#define WC_CORE_EVENTS_H

#include <stdlib.h>

#include "warpcache/common.h"

enum { WC_EV_FILL = 0, WC_EV_BYPASS = 1, WC_EV_FILL_HI = 2 };

typedef struct wc_event {
    uint64_t time, seq;
    uint64_t addr;
    /* WC_EV_BYPASS: the request's cookie.  Fills: the chunks of the line
     * that arrived, 32 at a time (WC_EV_FILL_HI: chunks 32..63), which keeps
     * an event at 32 bytes.  One plain field, not a union, so the compiler
     * keeps a new event in registers and writes it once into the heap. */
    uint32_t arg;
    uint16_t sm;
    uint8_t kind;
} wc_event;

typedef struct wc_heap {
    wc_event *ev;
    size_t n, cap;
    uint64_t seq;
} wc_heap;

static inline bool wc_ev_before(const wc_event *a, const wc_event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline int wc_heap_push(wc_heap *h, wc_event e)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 1024;
        wc_event *p = realloc(h->ev, cap * sizeof *p);
        if (!p) return -1;
        h->ev = p;
        h->cap = cap;
    }
    e.seq = h->seq++;
    size_t i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!wc_ev_before(&e, &h->ev[parent])) break;
        h->ev[i] = h->ev[parent];
        i = parent;
    }
    h->ev[i] = e;
    return 0;
}

static inline uint64_t wc_heap_top_time(const wc_heap *h)
{
    return h->n ? h->ev[0].time : WC_NEVER;
}

/* Bottom-up deletion: the hole left by the top walks down the smaller-child
 * path to a leaf (one comparison per level), then the last event, which came
 * from the bottom and usually belongs near it, sifts up from there.  (Events
 * are totally ordered by (time, seq), so any correct heap pops the same
 * sequence.) */
static inline wc_event wc_heap_pop(wc_heap *h)
{
    wc_event top = h->ev[0];
    size_t n = --h->n;
    if (n == 0) return top;
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && wc_ev_before(&h->ev[c + 1], &h->ev[c])) c++;
        h->ev[i] = h->ev[c];
        i = c;
    }
    wc_event last = h->ev[n];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!wc_ev_before(&last, &h->ev[parent])) break;
        h->ev[i] = h->ev[parent];
        i = parent;
    }
    h->ev[i] = last;
    return top;
}

#endif
