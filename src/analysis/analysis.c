/*
 * analysis.c - the analysis registry (include/warpcache/analysis.h;
 * analyses register with WC_PLUGIN(analysis, ...), the list is generated), the
 * -analysis option and what the engine calls (analyses.h): creation with the
 * simulator, counters into each kernel's extras, derived rates.  It knows the
 * engine only by its public API: the engine calls in, never the reverse.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analyses.h"

WC_PLUGIN_LIST(analysis);

const wc_analysis_ops *const *wc_analysis_list(size_t *count)
{
    *count = wc_plugins_analysis_n;
    return wc_plugins_analysis;
}

const wc_analysis_ops *wc_analysis_find(const char *name)
{
    for (size_t i = 0; i < wc_plugins_analysis_n; i++)
        if (strcmp(wc_plugins_analysis[i]->name, name) == 0) return wc_plugins_analysis[i];
    return NULL;
}

static int unknown(const wc_config *cfg, const char *name, wc_err *err)
{
    char known[256] = "";
    for (size_t i = 0; i < wc_plugins_analysis_n; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 wc_plugins_analysis[i]->name);
    return wc_errf(err, "%s: option -analysis: unknown analysis '%s' (known: %s)",
                   wc_cfg_where(cfg), name, known);
}

static int create_one(wc_analysis_set *set, wc_sim *sim, const wc_config *cfg, const char *name,
                      wc_err *err)
{
    const wc_analysis_ops *ops = wc_analysis_find(name);
    if (!ops) return unknown(cfg, name, err);
    for (unsigned i = 0; i < set->n; i++) /* twice would count everything twice */
        if (set->a[i].ops == ops)
            return wc_errf(err, "%s: option -analysis: '%s' is named twice", wc_cfg_where(cfg),
                           name);
    wc_analysis *p = realloc(set->a, (set->n + 1) * sizeof *p);
    if (!p) return wc_errf(err, "out of memory");
    set->a = p;
    wc_analysis *a = &set->a[set->n++];
    memset(a, 0, sizeof *a);
    a->ops = ops;
    a->sim = sim;
    wc_err why = {{0}};
    if (ops->create(a, cfg, &why) < 0)
        return wc_errf(err, "%s: option -analysis: %s: %s", wc_cfg_where(cfg), name, why.msg);
    return 0;
}

int wc_analysis_create_all(wc_analysis_set *set, wc_sim *sim, const wc_config *cfg, wc_err *err)
{
    const char *p = cfg->analysis;
    while (*p) {
        size_t n = strcspn(p, ",");
        char name[64];
        if (n >= sizeof name)
            return wc_errf(err, "%s: option -analysis: name \"%.*s\" is too long",
                           wc_cfg_where(cfg), (int)n, p);
        memcpy(name, p, n);
        name[n] = '\0';
        if (n == 0 || (p[n] == ',' && p[n + 1] == '\0'))
            return wc_errf(err, "%s: option -analysis: \"%s\": an empty analysis name",
                           wc_cfg_where(cfg), cfg->analysis);
        if (create_one(set, sim, cfg, name, err) < 0) return -1;
        p += n;
        if (*p == ',') p++;
    }
    return 0;
}

void wc_analysis_destroy_all(wc_analysis_set *set)
{
    for (unsigned i = 0; i < set->n; i++)
        if (set->a[i].ops->destroy) set->a[i].ops->destroy(&set->a[i]);
    free(set->a);
    set->a = NULL;
    set->n = 0;
}

void wc_analysis_stats_all(const wc_analysis_set *set,
                           void (*emit)(void *ctx, const char *name, double v), void *ctx)
{
    for (unsigned i = 0; i < set->n; i++) set->a[i].ops->stats(&set->a[i], emit, ctx);
}

void wc_analysis_derive_all(const wc_analysis_set *set, wc_kstats *k)
{
    for (unsigned i = 0; i < set->n; i++)
        if (set->a[i].ops->derive) set->a[i].ops->derive(k);
}
