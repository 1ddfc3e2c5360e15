/*
 * control.c - GPU-wide controllers (control.h): the registry (controllers/
 * register with WC_PLUGIN(controller, ...); the list is generated,
 * warpcache/plugin.h), the -controllers option, period counters,
 * per-kernel-name state and knobs.
 *
 * Each controller instance keeps a snapshot of every SM's cumulative
 * counters at its last period boundary; a period's counters are the
 * difference.  Knobs (declared by their consumers, warpcache/knob.h) are
 * collected in g->knobs, checked against their ranges after each hook, and
 * applied to the SMs after the hooks ran (wc_sm_apply_knobs), so every SM
 * sees them from the same cycle on.  The run loop (gpu.c) stops the clock at g->ctl_next, the
 * earliest boundary of any instance.
 */
#include <stdlib.h>
#include <string.h>

#include "core/gpu.h"
#include "util/nearest.h"
#include "warpcache/statreg.h"

WC_PLUGIN_LIST(controller);
WC_PLUGIN_LIST(knob);

const wc_controller_ops *const *wc_controller_list(size_t *count)
{
    *count = wc_plugins_controller_n;
    return wc_plugins_controller;
}

const wc_controller_ops *wc_controller_find(const char *name)
{
    for (size_t i = 0; i < wc_plugins_controller_n; i++)
        if (strcmp(wc_plugins_controller[i]->name, name) == 0) return wc_plugins_controller[i];
    return NULL;
}

/* ---- knobs ------------------------------------------------------------- */

const wc_knob_desc *const *wc_knob_list(size_t *count)
{
    *count = wc_plugins_knob_n;
    return wc_plugins_knob;
}

int wc_knob_find(const char *name)
{
    for (size_t i = 0; i < wc_plugins_knob_n; i++)
        if (strcmp(wc_plugins_knob[i]->name, name) == 0) return (int)i;
    return -1;
}

int wc_ctl_knob(const wc_ctl *c, const char *name, wc_err *err)
{
    int id = wc_knob_find(name);
    if (id >= 0) return id;
    char known[256] = "";
    for (size_t i = 0; i < wc_plugins_knob_n; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 wc_plugins_knob[i]->name);
    return wc_errf(err, "controller '%s' asks for an unknown knob '%s' (known: %s)", c->ops->name,
                   name, known);
}

/* ---- instances ---------------------------------------------------------- */

/* A controller that drives the l1_mode knob needs an L1 organisation with
 * modes; the message names the ones that have them. */
int wc_controller_check_l1(const wc_controller_ops *ops, const wc_l1_ops *l1, wc_err *err)
{
    if (!ops->uses_l1_mode || l1->n_modes) return 0;
    size_t n;
    const wc_l1_ops *const *all = wc_l1_list(&n);
    char with[256] = "";
    for (size_t i = 0; i < n; i++)
        if (all[i]->n_modes)
            snprintf(with + strlen(with), sizeof with - strlen(with), "%s%s", with[0] ? ", " : "",
                     all[i]->name);
    return wc_errf(err,
                   "%s switches the L1 organisation's mode, which -l1_org %s does not have "
                   "(-l1_org %s has)",
                   ops->name, l1->name, with);
}

/* Creates one instance; the reason only on error (the callers say where). */
static int add_instance(wc_sim *g, const wc_controller_ops *ops, const wc_param_values *params,
                        wc_err *err)
{
    if (wc_controller_check_l1(ops, g->l1_ops, err) < 0) return -1;
    wc_ctl_slot *p = realloc(g->ctls, (g->n_ctls + 1) * sizeof *p);
    if (!p) return wc_errf(err, "out of memory");
    g->ctls = p;
    wc_ctl_slot *s = &g->ctls[g->n_ctls++];
    memset(s, 0, sizeof *s);
    s->c.ops = ops;
    s->c.sim = g;
    s->c.cfg = &g->cfg;
    s->c.n_sm = g->n_sm;
    s->c.views = g->views;
    s->next = WC_NEVER;
    return ops->create(&s->c, params, err);
}

int wc_sim_add_controller(wc_sim *sim, const wc_controller_ops *ops, const char *params,
                          wc_err *err)
{
    wc_param_values p;
    wc_err why = {{0}};
    if (wc_param_parse(&p, ops->params, ops->name, params, &why) < 0 ||
        add_instance(sim, ops, &p, &why) < 0)
        return wc_errf(err, "%s: option -controllers: %s", wc_cfg_where(&sim->cfg), why.msg);
    return 0;
}

/* The controller a spec names, or NULL with the registry's names in err. */
static const wc_controller_ops *find_named(const char *name, wc_err *err)
{
    const wc_controller_ops *ops = wc_controller_find(name);
    if (ops) return ops;
    char known[256] = "";
    wc_nearest near;
    wc_nearest_init(&near, name);
    for (size_t i = 0; i < wc_plugins_controller_n; i++) {
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 wc_plugins_controller[i]->name);
        wc_nearest_consider(&near, wc_plugins_controller[i]->name);
    }
    if (wc_nearest_best(&near))
        wc_errf(err, "unknown controller '%s' (did you mean '%s'? known: %s)", name, near.best,
                known);
    else
        wc_errf(err, "unknown controller '%s' (known: %s)", name, known);
    return NULL;
}

/* Most instances one -controllers value may hold (the option is 256 bytes). */
#define MAX_INSTANCES 32

int wc_controllers_parse(const char *spec,
                         int (*fn)(void *ctx, const wc_controller_ops *ops,
                                   const wc_param_values *p, wc_err *err),
                         void *ctx, wc_err *err)
{
    struct {
        const wc_controller_ops *ops;
        uint64_t instance; /* the instance key's value */
    } seen[MAX_INSTANCES];
    unsigned n_seen = 0;
    for (const char *p = spec; *p;) {
        size_t n = strcspn(p, "+");
        if (n == 0 || (p[n] == '+' && p[n + 1] == '\0'))
            return wc_errf(err, "\"%s\": an empty controller name (NAME[:key=value,...][+NAME...])",
                           spec);
        char name[64], text[256];
        const char *params;
        size_t plen;
        if (!wc_spec_split(p, n, name, sizeof name, &params, &plen))
            return wc_errf(err, "unknown controller '%.*s'", (int)strcspn(p, ":+"), p);
        snprintf(text, sizeof text, "%.*s", (int)plen, params);
        const wc_controller_ops *ops = find_named(name, err);
        wc_param_values values;
        if (!ops || wc_param_parse(&values, ops->params, ops->name, text, err) < 0) return -1;
        uint64_t inst = ops->instance_key ? wc_param_u(&values, ops->instance_key) : 0;
        for (unsigned i = 0; i < n_seen; i++)
            if (seen[i].ops == ops && seen[i].instance == inst)
                return wc_errf(err,
                               "'%s' is named twice (two instances would drive the same knobs)",
                               ops->name);
        if (n_seen == MAX_INSTANCES) return wc_errf(err, "more than %d controllers", MAX_INSTANCES);
        seen[n_seen].ops = ops;
        seen[n_seen++].instance = inst;
        if (fn && fn(ctx, ops, &values, err) < 0) return -1;
        p += n;
        if (*p == '+') p++;
    }
    return 0;
}

static int create_instance(void *ctx, const wc_controller_ops *ops, const wc_param_values *p,
                           wc_err *err)
{
    return add_instance(ctx, ops, p, err);
}

int wc_ctl_create_all(wc_sim *g, wc_err *err)
{
    wc_err why = {{0}};
    if (wc_controllers_parse(g->cfg.controllers, create_instance, g, &why) == 0) return 0;
    return wc_errf(err, "%s: option -controllers: %s", wc_cfg_where(&g->cfg), why.msg);
}

void wc_ctl_destroy_all(wc_sim *g)
{
    for (unsigned i = 0; i < g->n_ctls; i++) {
        wc_ctl_slot *s = &g->ctls[i];
        if (s->c.ops->destroy) s->c.ops->destroy(&s->c);
        for (size_t k = 0; k < s->n_kstate; k++) free(s->kstate[k].state);
        free(s->kstate);
        free(s->snap);
    }
    free(g->ctls);
    g->ctls = NULL;
    g->n_ctls = 0;
}

int wc_ctl_build(wc_sim *g, wc_err *err)
{
    if (!g->n_ctls) return 0;
    size_t nk = wc_plugins_knob_n;
    g->knobs = calloc(g->n_sm * nk + 1, sizeof *g->knobs);
    g->knobs_applied = calloc(g->n_sm * nk + 1, sizeof *g->knobs_applied);
    g->pc_sm = calloc(g->n_sm + 1, sizeof *g->pc_sm);
    if (!g->knobs || !g->knobs_applied || !g->pc_sm) return wc_errf(err, "out of memory");
    /* Every SM starts with the declared initial values, which its parts
     * were built with. */
    for (size_t k = 0; k < nk; k++) {
        const wc_knob_desc *d = wc_plugins_knob[k];
        uint64_t v = d->initial ? d->initial(&g->cfg) : 0;
        for (unsigned i = 0; i < g->n_sm; i++)
            g->knobs[i * nk + k] = g->knobs_applied[i * nk + k] = v;
    }
    for (unsigned i = 0; i < g->n_ctls; i++) {
        free(g->ctls[i].snap);
        g->ctls[i].snap = calloc(g->n_sm + 1, sizeof *g->ctls[i].snap);
        if (!g->ctls[i].snap) return wc_errf(err, "out of memory");
    }
    return 0;
}

/* ---- counters ----------------------------------------------------------- */

/* Cumulative counters of every SM (rows 0..n_sm-1) and the GPU (row n_sm):
 * the counters registered for periods (warpcache/statreg.h). */
static void cumulative(const wc_sim *g, wc_period_counters *out)
{
    wc_period_counters *gpu = &out[g->n_sm];
    memset(gpu, 0, sizeof *gpu);
    for (unsigned i = 0; i < g->n_sm; i++) {
        const wc_sm *sm = &g->sms[i];
        wc_period_counters *c = &out[i];
        memset(c, 0, sizeof *c);
        wc_stat_collect(c, WC_STAT_INTO_PC, WC_STAT_SM, sm);
        wc_stat_collect(c, WC_STAT_INTO_PC, WC_STAT_L1, &sm->l1->stats);
        wc_stat_combine(gpu, WC_STAT_INTO_PC, gpu, c, false);
    }
    wc_stat_collect(gpu, WC_STAT_INTO_PC, WC_STAT_MEM, &g->mem.c);
}

/* out = now - then over the registered counters, plus the derived rates. */
static void period_of(wc_period_counters *out, const wc_period_counters *now,
                      const wc_period_counters *then, uint64_t cycles)
{
    wc_stat_combine(out, WC_STAT_INTO_PC, now, then, true);
    out->cycles = cycles;
    out->l1_misses = out->l1_outcome[WC_MISS] + out->l1_outcome[WC_SECTOR_MISS];
    out->l1_miss_rate = out->l1_accesses ? (double)out->l1_misses / (double)out->l1_accesses : 0;
    out->l1_mpki = out->warp_insts ? 1000.0 * (double)out->l1_misses / (double)out->warp_insts : 0;
}

/* ---- hooks -------------------------------------------------------------- */

static void **kernel_state(wc_ctl_slot *s, const char *name)
{
    for (size_t i = 0; i < s->n_kstate; i++)
        if (strcmp(s->kstate[i].name, name) == 0) return &s->kstate[i].state;
    if (s->n_kstate == s->cap_kstate) {
        size_t cap = s->cap_kstate ? 2 * s->cap_kstate : 4;
        wc_kstate *p = realloc(s->kstate, cap * sizeof *p);
        if (!p) return NULL;
        s->kstate = p;
        s->cap_kstate = cap;
    }
    wc_kstate *k = &s->kstate[s->n_kstate++];
    snprintf(k->name, sizeof k->name, "%s", name);
    k->state = NULL;
    return &k->state;
}

static wc_ctl_io io_for(wc_sim *g, wc_ctl_slot *s, uint64_t now, bool with_counters)
{
    wc_ctl_io io = {.sim = g,
                    .cfg = &g->cfg,
                    .now = now,
                    .kernel = g->k.name,
                    .n_sm = g->n_sm,
                    .views = g->views,
                    .sm = with_counters ? g->pc_sm : NULL,
                    .gpu = with_counters ? &g->pc_sm[g->n_sm] : NULL,
                    .knobs = g->knobs,
                    .n_knobs = (unsigned)wc_plugins_knob_n,
                    .kernel_state = s->cur_state};
    return io;
}

/* After a hook of instance s: a value outside its knob's declared range
 * fails the run, naming both (and is not applied). */
static void check_knobs(wc_sim *g, const wc_ctl_slot *s)
{
    size_t nk = wc_plugins_knob_n;
    for (unsigned i = 0; i < g->n_sm; i++)
        for (size_t k = 0; k < nk; k++) {
            const wc_knob_desc *d = wc_plugins_knob[k];
            uint64_t *v = &g->knobs[i * nk + k];
            if (*v >= d->min && *v <= d->max) continue;
            if (!g->failed)
                wc_errf(g->err,
                        "controller '%s' set knob '%s' of SM %u to %llu (allowed: %llu..%llu)",
                        s->c.ops->name, d->name, i, (unsigned long long)*v,
                        (unsigned long long)d->min, (unsigned long long)d->max);
            g->failed = true;
            *v = g->knobs_applied[i * nk + k];
        }
}

static void apply_knobs(wc_sim *g, uint64_t now)
{
    size_t nk = wc_plugins_knob_n;
    for (unsigned i = 0; i < g->n_sm; i++)
        wc_sm_apply_knobs(&g->sms[i], &g->knobs[i * nk], &g->knobs_applied[i * nk], now);
}

static void update_next(wc_sim *g)
{
    g->ctl_next = WC_NEVER;
    for (unsigned i = 0; i < g->n_ctls; i++)
        if (g->ctls[i].next < g->ctl_next) g->ctl_next = g->ctls[i].next;
}

/* Counters of instance s since its last boundary, into g->pc_sm. */
static void take_period(wc_sim *g, wc_ctl_slot *s, uint64_t now, wc_period_counters *cum)
{
    uint64_t len = now - s->last;
    s->last = now;
    for (unsigned i = 0; i <= g->n_sm; i++) period_of(&g->pc_sm[i], &cum[i], &s->snap[i], len);
    memcpy(s->snap, cum, (g->n_sm + 1) * sizeof *cum);
}

void wc_ctl_kernel_begin(wc_sim *g, uint64_t now)
{
    if (!g->n_ctls) return;
    for (unsigned i = 0; i < g->n_ctls; i++) {
        wc_ctl_slot *s = &g->ctls[i];
        s->cur_state = kernel_state(s, g->k.name);
        if (!s->cur_state && !g->failed) {
            g->failed = true;
            wc_errf(g->err, "out of memory (controller state)");
            return;
        }
        cumulative(g, s->snap);
        s->last = now;
        s->next = s->c.period ? now + s->c.period : WC_NEVER;
        wc_ctl_io io = io_for(g, s, now, false);
        if (s->c.ops->kernel_begin) {
            s->c.ops->kernel_begin(&s->c, &io);
            check_knobs(g, s);
        }
    }
    apply_knobs(g, now);
    update_next(g);
}

void wc_ctl_period(wc_sim *g, uint64_t now)
{
    wc_period_counters *cum = malloc((g->n_sm + 1) * sizeof *cum);
    if (!cum) {
        g->failed = true;
        wc_errf(g->err, "out of memory (controller counters)");
        return;
    }
    cumulative(g, cum);
    for (unsigned i = 0; i < g->n_ctls; i++) {
        wc_ctl_slot *s = &g->ctls[i];
        if (s->next > now) continue;
        take_period(g, s, now, cum);
        wc_ctl_io io = io_for(g, s, now, true);
        if (s->c.ops->period) {
            s->c.ops->period(&s->c, &io);
            check_knobs(g, s);
        }
        s->next = now + s->c.period;
    }
    free(cum);
    apply_knobs(g, now);
    update_next(g);
}

void wc_ctl_kernel_end(wc_sim *g, uint64_t now)
{
    if (!g->n_ctls) return;
    wc_period_counters *cum = malloc((g->n_sm + 1) * sizeof *cum);
    if (!cum) return;
    cumulative(g, cum);
    for (unsigned i = 0; i < g->n_ctls; i++) {
        wc_ctl_slot *s = &g->ctls[i];
        if (s->c.ops->kernel_end) {
            take_period(g, s, now, cum);
            wc_ctl_io io = io_for(g, s, now, true);
            s->c.ops->kernel_end(&s->c, &io);
        }
        s->next = WC_NEVER;
    }
    free(cum);
    g->ctl_next = WC_NEVER;
}
