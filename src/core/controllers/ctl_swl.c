/*
 * ctl_swl.c - static warp limiting (SWL; seed 002's SWT/"best static warp
 * limit", CCWS's SWL baseline): every scheduler of every SM considers only its
 * warp_limit oldest warps for the whole run.  The limit is the per-SM
 * warp_limit knob, so the engine's barrier rule applies: warps waiting at a
 * barrier do not count, and a block whose oldest warps wait for younger ones
 * cannot deadlock (src/core/sched.h).
 */
#include <stdlib.h>
#include "warpcache/control.h"

static const wc_param_desc swl_params[] = {
    {.key = "warp_limit",
     .min = 1,
     .max = 65536,
     .required = true,
     .unit = "warps",
     .help = "active warps per scheduler"},
    {0},
};

typedef struct swl {
    uint32_t limit;
    wc_knob_id knob; /* warp_limit */
} swl;

static int swl_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    swl *s = calloc(1, sizeof *s);
    if (!s) return wc_errf(err, "out of memory");
    c->priv = s;
    s->limit = (uint32_t)wc_param_u(params, "warp_limit");
    int knob = wc_ctl_knob(c, "warp_limit", err);
    if (knob < 0) return -1;
    s->knob = (wc_knob_id)knob;
    return 0;
}

static void swl_destroy(wc_ctl *c)
{
    free(c->priv);
}

static void swl_kernel_begin(wc_ctl *c, wc_ctl_io *io)
{
    const swl *s = c->priv;
    for (unsigned i = 0; i < io->n_sm; i++) wc_knob_set(io, i, s->knob, s->limit);
}

const wc_controller_ops wc_ctl_swl = {
    .name = "swl",
    .help = "static warp limiting: every scheduler considers only its warp_limit oldest warps",
    .params = swl_params,
    .create = swl_create,
    .destroy = swl_destroy,
    .kernel_begin = swl_kernel_begin,
};
WC_PLUGIN(controller, wc_ctl_swl, 20);
