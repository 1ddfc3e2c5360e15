/*
 * l1_registry.c - every L1 organisation by name (the -l1_org option).  A new
 * organisation is one file defining a wc_l1_ops and registering it with
 * WC_PLUGIN(l1_org, ...); the list is generated (warpcache/plugin.h).
 */
#include <string.h>

#include "cache/l1_impl.h"
#include "warpcache/knob.h"

WC_PLUGIN_LIST(l1_org);

const wc_l1_ops *const *wc_l1_list(size_t *count)
{
    *count = wc_plugins_l1_org_n;
    return wc_plugins_l1_org;
}

const wc_l1_ops *wc_l1_find(const char *name)
{
    if (!name) return NULL;
    size_t n;
    const wc_l1_ops *const *all = wc_l1_list(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    return NULL;
}

/* The knob l1_mode (warpcache/knob.h): an organisation with modes
 * (wc_l1_ops.n_modes: TSC+'s fine and coarse, the decoupled L1D's
 * thresholds) switches on WC_L1_CTL_MODE. */
static void apply_l1_mode(const wc_knob_site *s, uint64_t v)
{
    if (s->l1->ops->ctl) s->l1->ops->ctl(s->l1, WC_L1_CTL_MODE, (int64_t)v);
}

const wc_knob_desc wc_knob_l1_mode = {
    .name = "l1_mode",
    .consumer = "L1 organisation (one with modes)",
    .help = "the organisation's mode (wc_l1_ops.n_modes)",
    .max = UINT32_MAX,
    .apply = apply_l1_mode,
};
WC_PLUGIN(knob, wc_knob_l1_mode, 10);
