/*
 * registry.c - every built-in workload by name.  Adding a workload: define a
 * `const wc_workload` in its own file and register it there with
 * WC_PLUGIN(workload, ...); the list is generated (warpcache/plugin.h).
 */
#include <stdio.h>
#include <string.h>

#include "util/nearest.h"
#include "warpcache/workloads.h"

WC_PLUGIN_LIST(workload);

const wc_workload *const *wc_workload_list(size_t *count)
{
    *count = wc_plugins_workload_n;
    return wc_plugins_workload;
}

const wc_workload *wc_workload_find(const char *name)
{
    size_t n;
    const wc_workload *const *all = wc_workload_list(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    /* Unambiguous short names: "atax" for "polybench/atax". */
    const wc_workload *hit = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *slash = strchr(all[i]->name, '/');
        if (slash && strcmp(slash + 1, name) == 0) {
            if (hit) return NULL;
            hit = all[i];
        }
    }
    return hit;
}

bool wc_workload_suggest(const char *name, char *buf, size_t n)
{
    return wc_workload_suggest_with(name, NULL, 0, buf, n);
}

bool wc_workload_suggest_with(const char *name, const char *const *also, size_t n_also, char *buf,
                              size_t n)
{
    size_t count;
    const wc_workload *const *all = wc_workload_list(&count);
    wc_nearest best;
    wc_nearest_init(&best, name);
    for (size_t i = 0; i < n_also; i++) wc_nearest_consider(&best, also[i]);
    /* full names, the short names wc_workload_find takes, and suites */
    for (size_t i = 0; i < count; i++) {
        const char *slash = strchr(all[i]->name, '/');
        wc_nearest_consider(&best, all[i]->name);
        if (slash && !strchr(name, '/')) wc_nearest_consider(&best, slash + 1);
        wc_nearest_consider(&best, all[i]->suite);
    }
    const char *near = wc_nearest_best(&best);
    if (!near || !n) return false;
    /* a short name is shown as the full one it stands for */
    const wc_workload *w = wc_workload_find(near);
    snprintf(buf, n, "%s", w ? w->name : near);
    return true;
}

const wc_workload *wc_workload_suite_member(const char *name)
{
    size_t count;
    const wc_workload *const *all = wc_workload_list(&count);
    for (size_t i = 0; i < count; i++)
        if (all[i]->suite && strcmp(all[i]->suite, name) == 0) return all[i];
    return NULL;
}

/* " (did you mean 'X'?" or "": the start of a message's parenthesis. */
static void did_you_mean(const char *name, char *buf, size_t n)
{
    char near[128];
    if (wc_workload_suggest(name, near, sizeof near))
        snprintf(buf, n, "did you mean '%s'? ", near);
    else
        buf[0] = 0;
}

int wc_workload_params(const wc_workload *w, wc_param_log *log, wc_err *err)
{
    wc_params p;
    memset(log, 0, sizeof *log);
    if (wc_params_parse("", w->name, &p, err) < 0) return -1;
    p.log = log;
    /* a workload reads its parameters when it is opened: open it and drop it */
    wc_source *src = w->open(&p, 1, err);
    if (!src) return -1;
    wc_source_destroy(src);
    return 0;
}

wc_source *wc_workload_open(const char *spec, uint64_t seed, wc_err *err)
{
    char name[128];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof name) {
        wc_errf(err, "workload name too long: %s", spec);
        return NULL;
    }
    memcpy(name, spec, len);
    name[len] = 0;
    const wc_workload *w = wc_workload_find(name);
    const wc_workload *member = w ? NULL : wc_workload_suite_member(name);
    if (member) {
        /* a suite where one workload is wanted (model, mrc, trace convert): say so */
        wc_errf(err,
                "'%s' is a suite, not one workload: name one of its members (e.g. %s), or give "
                "the suite to run, validate or compare, which run every member",
                name, member->name);
        return NULL;
    }
    if (!w) {
        char hint[160];
        did_you_mean(name, hint, sizeof hint);
        wc_errf(err, "unknown workload '%s' (%swarpcache list shows them)", name, hint);
        return NULL;
    }
    wc_params p;
    if (wc_params_parse(colon ? colon + 1 : "", w->name, &p, err) < 0) return NULL;
    wc_source *src = w->open(&p, seed, err);
    if (!src) return NULL;
    if (wc_params_check_unused(&p, err) < 0) {
        wc_source_destroy(src);
        return NULL;
    }
    return src;
}
