/*
 * memstage_sm.h - what the SM offers its memory stage (memstage.h).  These
 * run once per request on the hot path, so they are inline here rather than
 * calls into sm.c; the rarely taken branches (a hit's answer, listeners, a
 * load complete before its last request left) call out.
 */
#ifndef WC_CORE_MEMSTAGE_SM_H
#define WC_CORE_MEMSTAGE_SM_H

#include "core/gpu.h"

/* sm.c */
void wc_sm_respond(void *ctx, uint32_t cookie, uint64_t t);
void wc_sm_load_complete(wc_sm *sm, uint32_t id);
void wc_sm_fanout_access(wc_gpu *g, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                         uint64_t now);
/* Sends a read around the L1: the response goes straight to the warp. */
void wc_sm_send_around(wc_sm *sm, const wc_mem_req *r, uint32_t load, uint64_t now);

/* Presents one request to the L1 for load `load` (WC_NO_REC: none).  On
 * WC_RESERVATION_FAIL nothing changed and *why says why; a hit is answered
 * after the L1 latency; the SM's knobs (streaming bypass) apply, listeners
 * see the access, the warp's scheduler hears of a miss.  sm->hooks says
 * whether any of that is wanted; the plain path is the common case. */
wc_outcome wc_sm_present_hooked(wc_sm *sm, const wc_mem_req *req, uint32_t load, uint64_t now,
                                wc_fail_reason *why);

static inline wc_outcome wc_sm_present(wc_sm *sm, const wc_mem_req *req, uint32_t load,
                                       uint64_t now, wc_fail_reason *why)
{
    /* Knobs, listeners or a scheduler that wants misses: the full version. */
    if (sm->hooks) return wc_sm_present_hooked(sm, req, load, now, why);
    wc_load *ld = load != WC_NO_REC ? &sm->loads[load] : NULL;
    if (ld) ld->outstanding++; /* before access: a hit may answer at once */
    wc_outcome o = sm->l1->ops->access(sm->l1, req, now, why);
    if (o == WC_RESERVATION_FAIL) {
        if (ld) ld->outstanding--;
    } else if (ld && o == WC_HIT) {
        wc_sm_respond(sm, load, now + sm->hit_latency);
    }
    return o;
}

/* Every request of the instruction with load record `load` has been sent. */
static inline void wc_sm_inst_sent(wc_sm *sm, uint32_t load)
{
    if (load == WC_NO_REC) return;
    wc_load *ld = &sm->loads[load];
    ld->all_sent = 1;
    if (ld->outstanding == 0) wc_sm_load_complete(sm, load);
}

/* The stage is no longer full: schedulers whose warps waited for it look
 * again this cycle (the stage runs before issue). */
static inline void wc_sm_stage_freed(wc_sm *sm, uint64_t now)
{
    for (unsigned i = 0; i < sm->n_sched; i++)
        if (sm->sched[i].wake > now) sm->sched[i].wake = now;
    if (sm->wake > now) sm->wake = now;
}

/* Cycles the stage was stalled by a reservation fail of reason `why` (the
 * SM's counter; called once per stall, where the stage ends it; the total is
 * the sum over reasons, taken when statistics are). */
static inline void wc_sm_add_stall(wc_sm *sm, uint64_t cycles, wc_fail_reason why)
{
    sm->stall_by[why] += cycles;
}

#endif
