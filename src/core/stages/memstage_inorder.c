/*
 * memstage_inorder.c - the default memory stage (Fermi class, GPGPU-Sim's
 * LD/ST unit): it holds one instruction's coalesced requests and presents
 * one per cycle to the L1.  A reservation fail leaves the request in place:
 * it is retried the next cycle for MISS_QUEUE_FULL (the queue drains by
 * itself) and at the SM's next fill for the other reasons, which only a fill
 * can resolve.  The stage is full while it holds anything, so the SM's
 * coalescer buffer cannot change under it: it works on that buffer directly.
 * Its accept and cycle are inline in memstage_inorder.h, so the SM calls them
 * directly when this is its stage (they run once per request).
 */
#include <stdlib.h>

#include "core/stages/memstage_inorder.h"

static wc_mstage *io_create(wc_stage_env *env, const wc_param_values *params, wc_err *err)
{
    wc_inorder *s = calloc(1, sizeof *s);
    if (!s) {
        wc_errf(err, "out of memory (memory stage)");
        return NULL;
    }
    s->base.env = env;
    s->base.retry_at = WC_NEVER;
    s->load = WC_NO_REC;
    return &s->base;
}

static void io_destroy(wc_mstage *ms)
{
    free(ms);
}

const wc_mstage_ops wc_mstage_inorder = {
    .name = "inorder",
    .help = "one instruction's requests, one per cycle, retried on a reservation fail (default)",
    .create = io_create,
    .destroy = io_destroy,
    .accept = wc_inorder_accept,
    .cycle = wc_inorder_cycle,
};
WC_PLUGIN(stage, wc_mstage_inorder, 10);
