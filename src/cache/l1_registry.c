/*
 * l1_registry.c - every L1 organisation by name (the -l1_org option).  A new
 * organisation is one file defining a wc_l1_ops, its extern in l1_impl.h, and
 * one line below.
 */
#include <string.h>

#include "cache/l1_impl.h"

static const wc_l1_ops *const l1_all[] = {
    &wc_l1_conventional, &wc_l1_dl1d_static, &wc_l1_ball,    &wc_l1_profiled_bypass,
    &wc_l1_tsc,          &wc_l1_dsc,         &wc_l1_tscplus,
};

const wc_l1_ops *const *wc_l1_list(size_t *count)
{
    *count = sizeof l1_all / sizeof l1_all[0];
    return l1_all;
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
