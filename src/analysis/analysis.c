/*
 * analysis.c - the analysis registry (include/warpcache/analysis.h;
 * analyses register with WC_PLUGIN(analysis, ...), the list is generated), the
 * -analysis option and what the engine calls: creation with the simulator,
 * counters into each kernel's extras, derived rates.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_impl.h"
#include "core/gpu.h"

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

static int unknown(const wc_sim *g, const char *name, wc_err *err)
{
    char known[256] = "";
    for (size_t i = 0; i < wc_plugins_analysis_n; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 wc_plugins_analysis[i]->name);
    return wc_errf(err, "%s: option -analysis: unknown analysis '%s' (known: %s)",
                   wc_cfg_where(&g->cfg), name, known);
}

static int create_one(wc_sim *g, const char *name, wc_err *err)
{
    const wc_analysis_ops *ops = wc_analysis_find(name);
    if (!ops) return unknown(g, name, err);
    for (unsigned i = 0; i < g->n_analyses; i++) /* twice would count everything twice */
        if (g->analyses[i].ops == ops)
            return wc_errf(err, "%s: option -analysis: '%s' is named twice", wc_cfg_where(&g->cfg),
                           name);
    wc_analysis *p = realloc(g->analyses, (g->n_analyses + 1) * sizeof *p);
    if (!p) return wc_errf(err, "out of memory");
    g->analyses = p;
    wc_analysis *a = &g->analyses[g->n_analyses++];
    memset(a, 0, sizeof *a);
    a->ops = ops;
    a->sim = g;
    wc_err why = {{0}};
    if (ops->create(a, &g->cfg, &why) < 0)
        return wc_errf(err, "%s: option -analysis: %s: %s", wc_cfg_where(&g->cfg), name, why.msg);
    return 0;
}

int wc_analysis_create_all(wc_sim *g, wc_err *err)
{
    const char *p = g->cfg.analysis;
    while (*p) {
        size_t n = strcspn(p, ",");
        char name[64];
        if (n >= sizeof name)
            return wc_errf(err, "%s: option -analysis: name \"%.*s\" is too long",
                           wc_cfg_where(&g->cfg), (int)n, p);
        memcpy(name, p, n);
        name[n] = '\0';
        if (n == 0 || (p[n] == ',' && p[n + 1] == '\0'))
            return wc_errf(err, "%s: option -analysis: \"%s\": an empty analysis name",
                           wc_cfg_where(&g->cfg), g->cfg.analysis);
        if (create_one(g, name, err) < 0) return -1;
        p += n;
        if (*p == ',') p++;
    }
    return 0;
}

void wc_analysis_destroy_all(wc_sim *g)
{
    for (unsigned i = 0; i < g->n_analyses; i++)
        if (g->analyses[i].ops->destroy) g->analyses[i].ops->destroy(&g->analyses[i]);
    free(g->analyses);
    g->analyses = NULL;
    g->n_analyses = 0;
}

void wc_analysis_stats_all(const wc_sim *g, void (*emit)(void *ctx, const char *name, double v),
                           void *ctx)
{
    for (unsigned i = 0; i < g->n_analyses; i++)
        g->analyses[i].ops->stats(&g->analyses[i], emit, ctx);
}

void wc_analysis_derive_all(const wc_sim *g, wc_kstats *k)
{
    for (unsigned i = 0; i < g->n_analyses; i++)
        if (g->analyses[i].ops->derive) g->analyses[i].ops->derive(k);
}

void wc_analysis_set_pki(wc_kstats *k, const char *count, const char *rate)
{
    for (unsigned j = 0; j < k->n_extras; j++)
        if (strcmp(k->extras[j].name, count) == 0) {
            double v = k->warp_insts ? 1000.0 * k->extras[j].value / (double)k->warp_insts : 0;
            wc_kstats_set_extra(k, rate, v);
            return;
        }
}

void wc_sim_fail(wc_sim *sim, const char *msg)
{
    if (!sim->failed && sim->err) wc_errf(sim->err, "%s", msg);
    sim->failed = true;
}
