/*
 * events.h - the queue of timed responses (fills and bypassed responses
 * arriving at SMs), popped in (time, insertion) order so runs are
 * deterministic.
 *
 * Responses mostly arrive in the order they were sent: the memory side
 * answers a request after a latency that grows with the queues it passed,
 * so most pushes are no earlier than the previous one.  Those go to `run`,
 * a FIFO ring that stays sorted by construction (O(1) push and pop); the
 * others (an L2 hit overtaking a DRAM fetch, say) go to a binary min-heap.
 * Every event has a unique (time, seq) and both parts are sorted by it, so
 * popping the smaller of the two heads gives exactly the order one heap
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

typedef struct wc_evq {
    wc_event *run; /* ring, sorted by (time, seq): run[(head + i) & mask] */
    size_t head, n_run, mask;
    uint64_t run_last; /* time of the ring's last event (0 while it is empty) */
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
    free(q->run);
    free(q->heap);
    wc_evq_init(q);
}

/* Time of the next event, WC_NEVER when there is none. */
static inline uint64_t wc_evq_top_time(const wc_evq *q)
{
    return q->top;
}

static inline void wc_evq_set_top(wc_evq *q)
{
    uint64_t a = q->n_run ? q->run[q->head].time : WC_NEVER;
    uint64_t b = q->n_heap ? q->heap[0].time : WC_NEVER;
    q->top = a < b ? a : b;
}

/* Out of line: doubling the ring or the heap happens a few times per run. */
static __attribute__((noinline)) int wc_evq_grow_run(wc_evq *q)
{
    size_t cap = q->run ? (q->mask + 1) * 2 : 1024;
    wc_event *p = malloc(cap * sizeof *p);
    if (!p) return -1;
    for (size_t i = 0; i < q->n_run; i++) p[i] = q->run[(q->head + i) & q->mask];
    free(q->run);
    q->run = p;
    q->head = 0;
    q->mask = cap - 1;
    return 0;
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

/* An event earlier than the ring's tail: sifted into the heap. */
static __attribute__((noinline)) int wc_evq_push_heap(wc_evq *q, wc_event e)
{
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
    if (e.time < q->run_last) return wc_evq_push_heap(q, e);
    if (!q->run || q->n_run > q->mask) { /* in order: appended to the ring */
        if (wc_evq_grow_run(q) < 0) return -1;
    }
    q->run[(q->head + q->n_run++) & q->mask] = e;
    q->run_last = e.time;
    return 0;
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

/* The next event; the queue must not be empty. */
static inline wc_event wc_evq_pop(wc_evq *q)
{
    wc_event e;
    /* On equal times the ring's head is the older event: a heap event was
     * pushed earlier than the ring's tail then, and the ring cannot empty
     * (to take any time again) before that tail and so that event leave.
     * Times alone decide. */
    if (q->n_heap && (!q->n_run || q->heap[0].time < q->run[q->head].time)) {
        e = wc_evq_pop_heap(q);
    } else {
        e = q->run[q->head];
        q->head = (q->head + 1) & q->mask;
        if (--q->n_run == 0) q->run_last = 0; /* an empty ring takes any time */
    }
    wc_evq_set_top(q);
    return e;
}

#endif
