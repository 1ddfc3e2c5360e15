/*
 * respond.c - responses on their way back to the SMs: the event queue the
 * SMs' sends fill (wc_sim_push_response) and, with -icnt_model islip, the
 * responses that wait for the crossbar's records (wc_sim_defer_response,
 * wc_sim_run_xbar).  The SMs call in here and the run loop (gpu.c) drains
 * the queue, so neither calls the other for it.
 */
#include <stdlib.h>

#include "core/gpu.h"
#include "mem/xbar.h"

/* A response waiting for the crossbar (-icnt_model islip). */
typedef struct wc_deferred {
    wc_event ev;
    uint32_t hi;
} wc_deferred;

void wc_sim_push_response_slow(wc_sim *g, wc_event ev, uint32_t hi)
{
    int rc = wc_evq_push(&g->events, ev);
    if (ev.kind == WC_EV_FILL && hi && rc == 0) {
        ev.arg = hi;
        ev.kind = WC_EV_FILL_HI;
        rc = wc_evq_push(&g->events, ev);
    }
    if (rc < 0 && !g->failed) {
        g->failed = true;
        wc_errf(g->err, "out of memory (event queue)");
    }
}

/* Room in g->deferred for record id `rec` (out of line: the table grows
 * only until it holds the most records in flight). */
static __attribute__((noinline)) bool deferred_grow(wc_sim *g, uint32_t rec)
{
    uint32_t cap = g->cap_deferred ? g->cap_deferred : 256;
    while (cap <= rec) cap *= 2;
    wc_deferred *d = realloc(g->deferred, cap * sizeof *d);
    if (!d) {
        if (!g->failed) wc_errf(g->err, "out of memory (interconnect)");
        g->failed = true;
        return false;
    }
    g->deferred = d;
    g->cap_deferred = cap;
    return true;
}

void wc_sim_defer_response(wc_sim *g, uint32_t rec, const wc_event *ev, uint32_t hi)
{
    if (rec >= g->cap_deferred && !deferred_grow(g, rec)) return;
    wc_deferred *d = &g->deferred[rec];
    d->ev = *ev;
    d->hi = hi;
}

/* Runs the crossbar as far as it is known at cycle `now` and queues the
 * responses it completed.  No request sent from `now` on has a reply ready
 * at its L2 before now + latency + L2 latency (the trip up and the ROP
 * latency), so every cycle before that can be simulated already: the
 * engine need not visit each cycle the crossbar works in (see run_kernel). */
void wc_sim_run_xbar(wc_sim *g, uint64_t now)
{
    /* Nothing the crossbar holds reaches its SM by now: it runs later, in
     * one call for the cycles of many (a failed send is reported now). */
    if (now < wc_xbar_due(g->mem.xbar) && !g->mem.failed) return;
    const uint32_t *recs;
    const uint64_t *times;
    size_t n =
        wc_xbar_advance(g->mem.xbar, now + g->mem.latency + g->mem.l2_latency - 1, &recs, &times);
    for (size_t k = 0; k < n; k++) {
        wc_deferred *d = &g->deferred[recs[k]];
        d->ev.time = times[k];
        wc_sim_push_response(g, d->ev, d->hi);
    }
    if (g->mem.failed && !g->failed) {
        g->failed = true;
        wc_errf(g->err, "out of memory (interconnect)");
    }
}
