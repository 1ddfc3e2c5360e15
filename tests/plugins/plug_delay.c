/*
 * plug_delay.c - a test plug-in (tests/cli_plugins.sh): the memory stage
 * "plug_delay" is the in-order stage (memstage_inorder.h) with each
 * instruction's first request presented PLUG_DELAY cycles later than
 * inorder would.  A chain of dependent loads therefore takes exactly
 * PLUG_DELAY cycles more per load.  It exists to show that a memory stage is
 * one file (make PLUGINS=tests/plugins/plug_delay.c).
 */
#include <stdlib.h>

#include "core/stages/memstage_inorder.h"

enum { PLUG_DELAY = 100 };

/* No parameters (no .params): the schema's parser refuses any given. */
static wc_mstage *delay_create(wc_stage_env *env, const wc_param_values *params, wc_err *err)
{
    (void)params;
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

static void delay_destroy(wc_mstage *ms)
{
    free(ms);
}

static void delay_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n,
                         uint32_t load, uint64_t now)
{
    wc_inorder_accept(ms, slot, reqs, n, load, now);
    ms->retry_at += PLUG_DELAY;
}

const wc_mstage_ops plug_mstage_delay = {
    .name = "plug_delay",
    .help = "test plug-in: the inorder stage, 100 cycles later",
    .create = delay_create,
    .destroy = delay_destroy,
    .accept = delay_accept,
    .cycle = wc_inorder_cycle,
};
WC_PLUGIN(stage, plug_mstage_delay, 1000);
