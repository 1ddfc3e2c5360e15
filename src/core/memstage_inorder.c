/*
 * memstage_inorder.c - the default memory stage (Fermi class, GPGPU-Sim's
 * LD/ST unit): it holds one instruction's coalesced requests and presents
 * one per cycle to the L1.  A reservation fail leaves the request in place:
 * it is retried the next cycle for MISS_QUEUE_FULL (the queue drains by
 * itself) and at the SM's next fill for the other reasons, which only a fill
 * can resolve.  The stage is full while it holds anything.
 */
#include <stdlib.h>

#include "core/gpu.h"
#include "core/memstage.h"

typedef struct inorder {
    wc_mstage base; /* first */
    unsigned nreq, next;
    uint32_t load;
    uint64_t stall_from;
    wc_mem_req reqs[WC_MAX_REQS_PER_INST];
} inorder;

static wc_mstage *io_create(wc_sm *sm, const char *params, wc_err *err)
{
    if (params && *params) {
        wc_errf(err, "memory stage inorder takes no parameters (got \"%s\")", params);
        return NULL;
    }
    inorder *s = calloc(1, sizeof *s);
    if (!s) {
        wc_errf(err, "out of memory (memory stage)");
        return NULL;
    }
    s->base.sm = sm;
    s->base.retry_at = WC_NEVER;
    s->load = WC_NO_REC;
    return &s->base;
}

static void io_destroy(wc_mstage *ms)
{
    free(ms);
}

static void io_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n,
                      uint32_t load, uint64_t now)
{
    inorder *s = (inorder *)ms;
    for (unsigned i = 0; i < n; i++) s->reqs[i] = reqs[i];
    s->nreq = n;
    s->next = 0;
    s->load = load;
    ms->full = ms->holding = true;
    ms->retry_at = now + 1;
}

static void io_cycle(wc_mstage *ms, uint64_t now)
{
    inorder *s = (inorder *)ms;
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

const wc_mstage_ops wc_mstage_inorder = {
    .name = "inorder",
    .help = "one instruction's requests, one per cycle, retried on a reservation fail (default)",
    .create = io_create,
    .destroy = io_destroy,
    .accept = io_accept,
    .cycle = io_cycle,
};
