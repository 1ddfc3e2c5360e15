/*
 * events.h - the queue of timed responses (fills and bypassed responses
 * arriving at SMs), popped in (time, insertion) order so runs are
 * deterministic.
 *
 * Responses mostly arrive in the order they were sent: the memory side
 * answers a request after a latency that grows with the queues it passed,
 * so most pushes are no earlier than the previous one.  Those go to
 * ring[0], a FIFO ring that stays sorted by construction (O(1) push and
 * pop); the others (an L2 hit overtaking a DRAM fetch, say) go to ring[1]
 * when no earlier than its last event (hits answer after a latency that
 * grows with the queues too), and only the rest to a binary min-heap.
 * Every event has a unique (time, seq) and all three parts are sorted by
 * it, so popping the smallest of the heads gives exactly the order one heap
 * gave (tests/test_events.c checks it against a sort).
 */
#ifndef WC_CORE_EVENTS_H
#define WC_CORE_EVENTS_H

#include <stdlib.h>
#include <string.h>

#include "warpcache/common.h"

enum { WC_EV_FILL = 0, WC_EV_BYPASS = 1, WC_EV_FILL_HI = 2, WC_EV_IFILL = 3 /* icache.c */ };

typedef struct wc_event {
    uint64_t time, seq;
    uint64_t addr;
    /* WC_EV_BYPASS: the request's cookie.  Fills: the chunks of the line
     * that arrived, 32 at a time (WC_EV_FILL_HI: chunks 32..63), which keeps
     * an event at 32 bytes.  One plain field, not a union, so the compiler
     * keeps a new event in registers and writes it once into the queue. */
    uint32_t arg;
    uint16_t sm;
    uint8_t kind;
} wc_event;

/* A FIFO ring of events sorted by (time, seq) by construction: only an
 * event no earlier than its last is appended. */
typedef struct wc_evring {
    wc_event *ev; /* ev[(head + i) & mask] */
    size_t head, n, mask;
    uint64_t last; /* time of the last event (0 while empty: it then takes any time) */
} wc_evring;

typedef struct wc_evq {
    wc_evring ring[2]; /* [0]: in-order pushes; [1]: in order among the earlier ones */
    wc_event *heap;    /* the out-of-order rest: a binary min-heap */
    size_t n_heap, cap_heap;
    uint64_t seq;
    uint64_t top; /* time of the next event, WC_NEVER when empty: the run loop reads it
                     several times per step, the queue changes once per event */
} wc_evq;

static inline bool wc_ev_before(const wc_event *a, const wc_event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void wc_evq_init(wc_evq *q)
{
    memset(q, 0, sizeof *q);
    q->top = WC_NEVER;
}

static inline void wc_evq_free(wc_evq *q)
{
    free(q->ring[0].ev);
    free(q->ring[1].ev);
    free(q->heap);
    wc_evq_init(q);
}

/* Time of the next event, WC_NEVER when there is none. */
static inline uint64_t wc_evq_top_time(const wc_evq *q)
{
    return q->top;
}

static inline uint64_t wc_evring_head_time(const wc_evring *r)
{
    return r->n ? r->ev[r->head].time : WC_NEVER;
}

static inline void wc_evq_set_top(wc_evq *q)
{
    uint64_t a = wc_evring_head_time(&q->ring[0]);
    uint64_t b = wc_evring_head_time(&q->ring[1]);
    uint64_t c = q->n_heap ? q->heap[0].time : WC_NEVER;
    a = a < b ? a : b;
    q->top = a < c ? a : c;
}

/* Out of line: doubling a ring or the heap happens a few times per run. */
static __attribute__((noinline)) int wc_evring_grow(wc_evring *r)
{
    size_t cap = r->ev ? (r->mask + 1) * 2 : 1024;
    wc_event *p = malloc(cap * sizeof *p);
    if (!p) return -1;
    for (size_t i = 0; i < r->n; i++) p[i] = r->ev[(r->head + i) & r->mask];
    free(r->ev);
    r->ev = p;
    r->head = 0;
    r->mask = cap - 1;
    return 0;
}

static inline __attribute__((always_inline)) int wc_evring_append(wc_evring *r, wc_event e)
{
    if (!r->ev || r->n > r->mask) {
        if (wc_evring_grow(r) < 0) return -1;
    }
    r->ev[(r->head + r->n++) & r->mask] = e;
    r->last = e.time;
    return 0;
}

static inline wc_event wc_evring_pop(wc_evring *r)
{
    wc_event e = r->ev[r->head];
    r->head = (r->head + 1) & r->mask;
    if (--r->n == 0) r->last = 0; /* an empty ring takes any time */
    return e;
}

static __attribute__((noinline)) int wc_evq_grow_heap(wc_evq *q)
{
    size_t cap = q->cap_heap ? q->cap_heap * 2 : 256;
    wc_event *p = realloc(q->heap, cap * sizeof *p);
    if (!p) return -1;
    q->heap = p;
    q->cap_heap = cap;
    return 0;
}

/* An event earlier than the first ring's tail: appended to the second ring
 * when no earlier than its tail (L2 hits overtaking DRAM fetches mostly come
 * in order among themselves), else sifted into the heap. */
static __attribute__((noinline)) int wc_evq_push_late(wc_evq *q, wc_event e)
{
    if (e.time >= q->ring[1].last) return wc_evring_append(&q->ring[1], e);
    if (q->n_heap == q->cap_heap && wc_evq_grow_heap(q) < 0) return -1;
    size_t i = q->n_heap++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!wc_ev_before(&e, &q->heap[parent])) break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = e;
    return 0;
}

/* Queues `e`; -1 when the queue could not grow. */
static inline __attribute__((always_inline)) int wc_evq_push(wc_evq *q, wc_event e)
{
    e.seq = q->seq++;
    if (e.time < q->top) q->top = e.time;
    if (e.time < q->ring[0].last) return wc_evq_push_late(q, e);
    return wc_evring_append(&q->ring[0], e); /* in order */
}

/* Bottom-up deletion: the hole left by the top walks down the smaller-child
 * path to a leaf (one comparison per level), then the last event, which came
 * from the bottom and usually belongs near it, sifts up from there. */
static inline wc_event wc_evq_pop_heap(wc_evq *q)
{
    wc_event *h = q->heap;
    wc_event top = h[0];
    size_t n = --q->n_heap;
    if (n == 0) return top;
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && wc_ev_before(&h[c + 1], &h[c])) c++;
        h[i] = h[c];
        i = c;
    }
    wc_event last = h[n];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!wc_ev_before(&last, &h[parent])) break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = last;
    return top;
}

/* The next event; the queue must not be empty.  The three parts' heads are
 * compared by (time, seq), every event's unique key, so the order is exactly
 * one heap's whichever part holds an event.  The first ring alone (most
 * pops) costs two tests more than a ring pop, and its new head's time is
 * the next event's (the other parts are empty), so the top is set from it
 * alone. */
static inline wc_event wc_evq_pop(wc_evq *q)
{
    wc_evring *r0 = &q->ring[0], *r1 = &q->ring[1];
    if (!r1->n && !q->n_heap) {
        wc_event e = wc_evring_pop(r0);
        q->top = wc_evring_head_time(r0);
        return e;
    }
    /* 0, 1: a ring; 2: the heap */
    unsigned from = r0->n ? 0 : 1;
    const wc_event *best = from == 0 ? &r0->ev[r0->head] : NULL;
    if (r1->n && (!best || wc_ev_before(&r1->ev[r1->head], best))) {
        best = &r1->ev[r1->head];
        from = 1;
    }
    if (q->n_heap && (!best || wc_ev_before(&q->heap[0], best))) from = 2;
    wc_event e = from == 2 ? wc_evq_pop_heap(q) : wc_evring_pop(&q->ring[from]);
    wc_evq_set_top(q);
    return e;
}

#endif
