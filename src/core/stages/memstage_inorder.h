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
 * queue was full (it drains by itself), else at the next fill.  A miss-queue
 * fail the L1 says holds until a slot frees (wc_stage_fail_holds_until) is
 * not retried in the cycles before: the stage sleeps to that cycle (a fill
 * wakes it earlier) and counts their attempts when it next runs, one fail
 * each, as their retries would have; the stall from the first fail to the
 * cycle it runs is what their one-cycle stalls added up to.  `env` is
 * ms->env, passed by the SM, which has it in a register. */
static inline void wc_inorder_step(wc_stage_env *env, wc_mstage *ms, uint64_t now)
{
    wc_inorder *s = (wc_inorder *)ms;
    if (s->stall_from) { /* the stage failed last time it ran (never at cycle 0) */
        if (ms->wake_on_fill) {
            ms->wake_on_fill = false;
            wc_stage_count_fails(env, s->stall_why, now - 1 - s->stall_from);
        }
        wc_stage_add_stall(env, now - s->stall_from, s->stall_why);
        s->stall_from = 0;
    }
    wc_fail_reason why = WC_FAIL_NONE;
    wc_outcome o = wc_stage_present(env, s->cur, s->load, now, &why);
    if (o == WC_RESERVATION_FAIL) {
        s->stall_from = now;
        s->stall_why = why;
        if (why != WC_FAIL_MISS_QUEUE_FULL) {
            ms->retry_at = WC_NEVER;
            return;
        }
        uint64_t until = wc_stage_fail_holds_until(env, now);
        ms->wake_on_fill = until > now + 1;
        ms->retry_at = ms->wake_on_fill ? until : now + 1;
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
