/*
 * params.c - the plug-in parameter registry (params.h): walks the L1
 * organisation and replacement-policy registries for the parameters each
 * plug-in declares in its own file.  A new plug-in family with parameters
 * adds its walk to each_owner below; a new plug-in edits nothing here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpcache/cache.h"
#include "warpcache/params.h"

typedef void (*owner_fn)(void *ctx, const char *owner, const wc_param_desc *list);

static void each_owner(owner_fn fn, void *ctx)
{
    size_t n;
    const wc_l1_ops *const *orgs = wc_l1_list(&n);
    for (size_t i = 0; i < n; i++)
        if (orgs[i]->params) fn(ctx, orgs[i]->name, orgs[i]->params);
    const wc_repl_ops *const *repl = wc_repl_list(&n);
    for (size_t i = 0; i < n; i++)
        if (repl[i]->params) fn(ctx, repl[i]->name, repl[i]->params);
}

typedef struct find_ctx {
    const char *key;
    const wc_param_desc *found;
    const char *owner;
} find_ctx;

static void find_in(void *ctx, const char *owner, const wc_param_desc *list)
{
    find_ctx *f = ctx;
    for (const wc_param_desc *d = list; d->key && !f->found; d++)
        if (strcmp(d->key, f->key) == 0) {
            f->found = d;
            f->owner = owner;
        }
}

const wc_param_desc *wc_plugin_param_find(const char *key, const char **owner)
{
    if (!key) return NULL;
    if (key[0] == '-') key++;
    find_ctx f = {key, NULL, NULL};
    each_owner(find_in, &f);
    if (owner) *owner = f.owner;
    return f.found;
}

typedef struct each_ctx {
    void (*fn)(void *ctx, const char *owner, const wc_param_desc *d);
    void *ctx;
} each_ctx;

static void each_in(void *ctx, const char *owner, const wc_param_desc *list)
{
    each_ctx *e = ctx;
    for (const wc_param_desc *d = list; d->key; d++) e->fn(e->ctx, owner, d);
}

void wc_plugin_params_each(void (*fn)(void *ctx, const char *owner, const wc_param_desc *d),
                           void *ctx)
{
    each_ctx e = {fn, ctx};
    each_owner(each_in, &e);
}

uint64_t wc_param_get(const wc_config *cfg, const wc_param_desc *d)
{
    for (uint32_t i = 0; cfg && i < cfg->n_plugin && i < WC_MAX_PLUGIN_PARAMS; i++)
        if (strcmp(cfg->plugin[i].key, d->key) == 0) return cfg->plugin[i].value;
    return d->def;
}

uint64_t wc_cfg_param(const wc_config *cfg, const wc_param_desc *schema, const char *key)
{
    const wc_param_desc *d = wc_param_lookup(schema, key);
    if (!d) {
        fprintf(stderr, "warpcache: internal: a plug-in reads option -%s it does not declare\n",
                key);
        abort();
    }
    return wc_param_get(cfg, d);
}

int wc_param_check(const wc_param_desc *d, uint64_t v, wc_err *err)
{
    if (v < d->min || v > d->max)
        return wc_errf(err, "%llu is out of range (allowed %llu..%llu)", (unsigned long long)v,
                       (unsigned long long)d->min, (unsigned long long)d->max);
    if (d->pow2 && (v & (v - 1)))
        return wc_errf(err, "%llu is not a power of two (allowed %llu..%llu)",
                       (unsigned long long)v, (unsigned long long)d->min,
                       (unsigned long long)d->max);
    return 0;
}

static bool declares(const wc_param_desc *list, const wc_param_desc *d)
{
    for (; list && list->key; list++)
        if (list == d) return true;
    return false;
}

static void add_user(char *users, size_t n, const char *who)
{
    size_t len = strlen(users);
    snprintf(users + len, n - len, "%s%s", len ? " or " : "", who);
}

bool wc_plugin_param_used(const wc_config *cfg, const wc_param_desc *d, char *users, size_t n)
{
    char none[1];
    if (!users || !n) users = none, n = sizeof none;
    users[0] = '\0';
    size_t count;
    const wc_l1_ops *const *orgs = wc_l1_list(&count);
    for (size_t i = 0; i < count; i++) {
        if (!declares(orgs[i]->params, d) && !declares(orgs[i]->base_params, d)) continue;
        if (strcmp(orgs[i]->name, cfg->l1_org) == 0) return true;
        char who[96];
        snprintf(who, sizeof who, "L1 organisation %s (-l1_org)", orgs[i]->name);
        add_user(users, n, who);
    }
    const wc_repl_ops *const *repl = wc_repl_list(&count);
    for (size_t i = 0; i < count; i++) {
        if (!declares(repl[i]->params, d)) continue;
        char l = repl[i]->letter;
        if (l && (l == cfg->l1.repl || l == cfg->l2.repl)) return true;
        char who[96];
        snprintf(who, sizeof who, "replacement policy %s (rp letter %c of -gpgpu_cache:dl1/dl2)",
                 repl[i]->name, l);
        add_user(users, n, who);
    }
    return false;
}
