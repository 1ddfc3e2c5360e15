/*
 * memstage.c - the memory-stage registry (memstage.h): stages/memstage_*.c
 * register with WC_PLUGIN(stage, ...); the list is generated
 * (warpcache/plugin.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/memstage.h"
#include "util/nearest.h"

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

int wc_mstage_parse(const char *spec, const wc_mstage_ops **ops, wc_param_values *params,
                    wc_err *err)
{
    char name[64] = "";
    const char *text;
    bool fits = wc_spec_split(*spec ? spec : "inorder", strlen(*spec ? spec : "inorder"), name,
                              sizeof name, &text, NULL);
    if (!fits || !(*ops = wc_mstage_find(name))) {
        char known[256] = "", hint[96] = "";
        wc_nearest near;
        wc_nearest_init(&near, name);
        for (size_t i = 0; i < wc_plugins_stage_n; i++) {
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                     wc_plugins_stage[i]->name);
            wc_nearest_consider(&near, wc_plugins_stage[i]->name);
        }
        if (fits && wc_nearest_best(&near))
            snprintf(hint, sizeof hint, "did you mean '%s'? ", near.best);
        return wc_errf(err, "unknown memory stage '%.*s' (%sknown: %s)", (int)strcspn(spec, ":"),
                       spec, hint, known);
    }
    return wc_param_parse(params, (*ops)->params, (*ops)->name, text, err);
}
