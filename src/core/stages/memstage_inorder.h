/*
 * memstage_inorder.h - the default memory stage's per-request code
 * (memstage_inorder.c), inline so that the SM can call it without an
 * indirect call when the stage is the default.  It is written against the
 * public stage API (warpcache/stage.h) like every other stage; the only
 * thing special about it is that the engine (sm.c, mem_issue.c) includes
 * this header and calls it directly.
 */
#ifndef WC_CORE_MEMSTAGE_INORDER_H
#define WC_CORE_MEMSTAGE_INORDER_H

#include "warpcache/stage.h"

extern const wc_mstage_ops wc_mstage_inorder;

typedef struct wc_inorder {
    wc_mstage base;              /* first */
    const wc_mem_req *cur, *end; /* the next request and the end of the instruction's */
    uint32_t load;
    uint64_t stall_from;
    wc_fail_reason stall_why; /* the reason of the fail that started the stall */
} wc_inorder;

/* `reqs` is the SM's coalescer buffer: stable while the stage is full. */
static inline void wc_inorder_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs,
                                     unsigned n, uint32_t load, uint64_t now)
{
    wc_inorder *s = (wc_inorder *)ms;
    s->cur = reqs;
    s->end = reqs + n;
    s->load = load;
    ms->full = ms->holding = true;
    ms->retry_at = now + 1;
}

/* One request per cycle; a reservation fail retries next cycle when the miss
 * queue was full (it drains by itself), else at the next fill.  `env` is
 * ms->env, passed by the SM, which has it in a register. */
static inline void wc_inorder_step(wc_stage_env *env, wc_mstage *ms, uint64_t now)
{
    wc_inorder *s = (wc_inorder *)ms;
    if (s->stall_from) {
        wc_stage_add_stall(env, now - s->stall_from, s->stall_why);
        s->stall_from = 0;
    }
    wc_fail_reason why = WC_FAIL_NONE;
    wc_outcome o = wc_stage_present(env, s->cur, s->load, now, &why);
    if (o == WC_RESERVATION_FAIL) {
        s->stall_from = now;
        s->stall_why = why;
        ms->retry_at = why == WC_FAIL_MISS_QUEUE_FULL ? now + 1 : WC_NEVER;
        return;
    }
    if (++s->cur < s->end) {
        ms->retry_at = now + 1;
        return;
    }
    ms->full = ms->holding = false;
    ms->retry_at = WC_NEVER;
    wc_stage_freed(env, now);
    wc_stage_inst_sent(env, s->load);
    s->load = WC_NO_REC;
}

static inline void wc_inorder_cycle(wc_mstage *ms, uint64_t now)
{
    wc_inorder_step(ms->env, ms, now);
}

#endif
