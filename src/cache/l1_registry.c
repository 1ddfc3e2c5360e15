/*
 * l1_registry.c - every L1 organisation by name (the -l1_org option).  A new
 * organisation is one file defining a wc_l1_ops and registering it with
 * WC_PLUGIN(l1_org, ...); the list is generated (warpcache/plugin.h).
 */
#include <string.h>

#include "cache/l1_impl.h"

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
