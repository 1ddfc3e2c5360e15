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

static int swl_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    uint32_t *limit = calloc(1, sizeof *limit);
    if (!limit) return wc_errf(err, "out of memory");
    c->priv = limit;
    *limit = (uint32_t)wc_param_u(params, "warp_limit");
    return 0;
}

static void swl_destroy(wc_ctl *c)
{
    free(c->priv);
}

static void swl_kernel_begin(wc_ctl *c, wc_ctl_io *io)
{
    for (unsigned i = 0; i < io->n_sm; i++) io->knobs[i].warp_limit = *(uint32_t *)c->priv;
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
