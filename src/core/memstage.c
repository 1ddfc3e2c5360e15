/*
 * memstage.c - the memory-stage registry (memstage.h): stages/memstage_*.c
 * register with WC_PLUGIN(stage, ...); the list is generated
 * (warpcache/plugin.h).
 */
#include <string.h>

#include "core/memstage.h"

WC_PLUGIN_LIST(stage);

const wc_mstage_ops *const *wc_mstage_list(size_t *count)
{
    *count = wc_plugins_stage_n;
    return wc_plugins_stage;
}

const wc_mstage_ops *wc_mstage_find(const char *name)
{
    for (size_t i = 0; i < wc_plugins_stage_n; i++)
        if (strcmp(wc_plugins_stage[i]->name, name) == 0) return wc_plugins_stage[i];
    return NULL;
}
