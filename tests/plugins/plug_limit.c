/*
 * plug_limit.c - a test plug-in (tests/cli_plugins.sh): the controller
 * "plug_limit" sets the warp_limit knob of every SM to 2 at each kernel's
 * start and records the limit on the timeline (key plug_limit, SM -1), so it
 * must behave exactly as `swl:warp_limit=2`.  It exists to show that a
 * controller is one file (make PLUGINS=tests/plugins/plug_limit.c).
 */
#include "warpcache/control.h"

enum { PLUG_LIMIT = 2 };

/* No parameters (no .params): the schema's parser refuses any given. */
/* The knob's id, kept as the state (a plain integer in the pointer). */
static int limit_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    (void)params;
    int knob = wc_ctl_knob(c, "warp_limit", err);
    if (knob < 0) return -1;
    c->priv = (void *)(uintptr_t)knob;
    return 0;
}

static void limit_kernel_begin(wc_ctl *c, wc_ctl_io *io)
{
    wc_knob_id knob = (wc_knob_id)(uintptr_t)c->priv;
    for (unsigned i = 0; i < io->n_sm; i++) wc_knob_set(io, i, knob, PLUG_LIMIT);
    wc_sim_record(io->sim, io->now, -1, "plug_limit", PLUG_LIMIT);
}

const wc_controller_ops plug_ctl_limit = {
    .name = "plug_limit",
    .help = "test plug-in: warp limit 2 on every SM, recorded on the timeline",
    .create = limit_create,
    .kernel_begin = limit_kernel_begin,
};
WC_PLUGIN(controller, plug_ctl_limit, 1000);
