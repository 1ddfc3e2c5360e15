/*
 * ctl_swl.c - static warp limiting (SWL; seed 002's SWT/"best static warp
 * limit", CCWS's SWL baseline): every scheduler of every SM considers only its
 * warp_limit oldest warps for the whole run.  The limit is the per-SM
 * warp_limit knob, so the engine's barrier rule applies: warps waiting at a
 * barrier do not count, and a block whose oldest warps wait for younger ones
 * cannot deadlock (src/core/sched.h).
 */
#include <stdlib.h>
#include <string.h>

#include "warpcache/control.h"

static int swl_param(void *ctx, const char *key, const char *value, wc_err *err)
{
    if (strcmp(key, "warp_limit") != 0)
        return wc_errf(err, "unknown parameter '%s' (warp_limit)", key);
    char *end;
    unsigned long v = strtoul(value, &end, 10);
    if (*end || v == 0 || v > 65536)
        return wc_errf(err, "warp_limit=%s: must be a number of warps from 1 to 65536", value);
    *(uint32_t *)ctx = (uint32_t)v;
    return 0;
}

static int swl_create(wc_ctl *c, const char *params, wc_err *err)
{
    uint32_t *limit = calloc(1, sizeof *limit);
    if (!limit) return wc_errf(err, "out of memory");
    c->priv = limit;
    if (wc_params_each("swl", params, swl_param, limit, err) < 0) return -1;
    if (!*limit) return wc_errf(err, "swl: give warp_limit=N, e.g. swl:warp_limit=4");
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
    .help = "static warp limiting: warp_limit=N active warps per scheduler",
    .create = swl_create,
    .destroy = swl_destroy,
    .kernel_begin = swl_kernel_begin,
};
WC_PLUGIN(controller, wc_ctl_swl, 20);
