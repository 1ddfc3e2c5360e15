/*
 * memstage_inorder.h - the default memory stage's per-request code
 * (memstage_inorder.c), inline so that the SM can call it without an
 * indirect call when the stage is the default.
 */
#ifndef WC_CORE_MEMSTAGE_INORDER_H
#define WC_CORE_MEMSTAGE_INORDER_H

#include "core/memstage_sm.h"

extern const wc_mstage_ops wc_mstage_inorder;

typedef struct wc_inorder {
    wc_mstage base; /* first */
    unsigned nreq, next;
    uint32_t load;
    uint64_t stall_from;
    const wc_mem_req *reqs; /* the SM's coalescer buffer (stable while the stage is full) */
} wc_inorder;

static inline void wc_inorder_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs,
                                     unsigned n, uint32_t load, uint64_t now)
{
    wc_inorder *s = (wc_inorder *)ms;
    s->reqs = reqs;
    s->nreq = n;
    s->next = 0;
    s->load = load;
    ms->full = ms->holding = true;
    ms->retry_at = now + 1;
}

/* One request per cycle; a reservation fail retries next cycle when the miss
 * queue was full (it drains by itself), else at the next fill. */
static inline void wc_inorder_cycle(wc_mstage *ms, uint64_t now)
{
    wc_inorder *s = (wc_inorder *)ms;
    if (s->stall_from) {
        wc_sm_add_stall(ms->sm, now - s->stall_from);
        s->stall_from = 0;
    }
    wc_fail_reason why = WC_FAIL_NONE;
    wc_outcome o = wc_sm_present(ms->sm, &s->reqs[s->next], s->load, now, &why);
    if (o == WC_RESERVATION_FAIL) {
        s->stall_from = now;
        ms->retry_at = why == WC_FAIL_MISS_QUEUE_FULL ? now + 1 : WC_NEVER;
        return;
    }
    if (++s->next < s->nreq) {
        ms->retry_at = now + 1;
        return;
    }
    ms->full = ms->holding = false;
    ms->retry_at = WC_NEVER;
    wc_sm_stage_freed(ms->sm, now);
    wc_sm_inst_sent(ms->sm, s->load);
    s->load = WC_NO_REC;
}

#endif
