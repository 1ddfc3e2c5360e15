/*
 * sched.c - warp-scheduler registry (schedulers/sched_*.c register with
 * WC_PLUGIN(scheduler, ...); the list is generated, warpcache/plugin.h) and
 * the age-ordered warp list every policy shares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"
#include "warpcache/config.h"
#include "warpcache/knob.h"
#include "util/nearest.h"

WC_PLUGIN_LIST(scheduler);

const wc_sched_ops *const *wc_sched_list(size_t *count)
{
    *count = wc_plugins_scheduler_n;
    return wc_plugins_scheduler;
}

const wc_sched_ops *wc_sched_find(const char *name)
{
    size_t n;
    const wc_sched_ops *const *all = wc_sched_list(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    return NULL;
}

/* Names of a registry as "a, b, c" for messages. */
static void sched_names(char *buf, size_t n)
{
    size_t count;
    const wc_sched_ops *const *all = wc_sched_list(&count);
    buf[0] = '\0';
    for (size_t i = 0; i < count; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", all[i]->name);
}

int wc_sched_parse(const char *spec, const wc_sched_ops **ops, wc_param_values *params, wc_err *err)
{
    char name[64] = "", known[256];
    const char *text;
    if (!wc_spec_split(spec, strlen(spec), name, sizeof name, &text, NULL) ||
        !(*ops = wc_sched_find(name))) {
        sched_names(known, sizeof known);
        size_t count;
        const wc_sched_ops *const *all = wc_sched_list(&count);
        wc_nearest near;
        wc_nearest_init(&near, name);
        for (size_t i = 0; i < count; i++) wc_nearest_consider(&near, all[i]->name);
        char hint[96] = "";
        if (strlen(spec) < sizeof name && wc_nearest_best(&near))
            snprintf(hint, sizeof hint, "did you mean '%s'? ", near.best);
        return wc_errf(err, "scheduler \"%.*s\" is not supported (%ssupported: %s)",
                       (int)strcspn(spec, ":"), spec, hint, known);
    }
    /* GPGPU-Sim writes values in order ("6:0:1"); warpcache also key=value */
    if (*text && !strchr(text, '='))
        return wc_param_parse_positional(params, (*ops)->params, name, text, err);
    return wc_param_parse(params, (*ops)->params, (*ops)->name, text, err);
}

/* `cap` is the number of warp slots of the SM (slot numbers are below it). */
int wc_sched_init(wc_sched *s, const wc_sched_ops *ops, unsigned cap, const wc_param_values *params,
                  struct wc_sim *sim, unsigned sm, wc_err *err)
{
    memset(s, 0, sizeof *s);
    s->ops = ops;
    s->sim = sim;
    s->sm = sm;
    s->cap = cap ? cap : 1;
    s->last = -1;
    s->warps = calloc(s->cap, sizeof *s->warps);
    s->pos_of = calloc(s->cap, sizeof *s->pos_of);
    if (!s->warps || !s->pos_of || s->cap > WC_SCHED_MAX) return wc_errf(err, "out of memory");
    s->notify = (uint8_t)((ops->on_issue ? WC_SCHED_NOTIFY_ISSUE : 0) |
                          (ops->on_load_done ? WC_SCHED_NOTIFY_LOAD : 0) |
                          (ops->on_add || ops->on_remove ? WC_SCHED_NOTIFY_MEMBERS : 0));
    wc_param_values defaults;
    if (!params && wc_param_parse(&defaults, ops->params, ops->name, "", err) < 0) return -1;
    if (ops->create) return ops->create(s, params ? params : &defaults, err);
    return 0;
}

void wc_sched_free(wc_sched *s)
{
    if (s->ops && s->ops->destroy) s->ops->destroy(s);
    s->priv = NULL;
    free(s->warps);
    free(s->pos_of);
    s->warps = NULL;
    s->pos_of = NULL;
}

void wc_sched_add(wc_sched *s, unsigned slot)
{
    if (s->n >= s->cap) return;
    s->pos_of[slot] = (uint16_t)s->n;
    s->warps[s->n++] = (uint16_t)slot;
    wc_sched_set_open(s, slot, false);
    wc_sched_set_mem(s, slot, false);
    if (s->n_bar) { /* without barrier waiters every bit is 0 already */
        unsigned p = s->n - 1;
        s->bar[p >> 6] &= ~(1ull << (p & 63));
    }
    if ((s->notify & WC_SCHED_NOTIFY_MEMBERS) && s->ops->on_add) s->ops->on_add(s, slot);
}

/* The smallest window holding `limit` warps that are not at a barrier. */
unsigned wc_sched_window_slow(const wc_sched *s)
{
    unsigned need = s->limit;
    for (unsigned wi = 0; wi * 64 < s->n; wi++) {
        unsigned lo = wi * 64, hi = s->n - lo < 64 ? s->n - lo : 64;
        uint64_t free_warps = ~s->bar[wi] & (hi == 64 ? ~0ull : (1ull << hi) - 1);
        unsigned k =
            wc_popcount32((uint32_t)free_warps) + wc_popcount32((uint32_t)(free_warps >> 32));
        if (k < need) {
            need -= k;
            continue;
        }
        for (; need > 1; need--) free_warps &= free_warps - 1; /* drop the lowest */
        return lo + (unsigned)__builtin_ctzll(free_warps) + 1;
    }
    return s->n;
}

/* Drops bit p of a position bitset whose set bits are all below n, moving
 * higher bits down by one (words at and above n hold no bits: skip them). */
static void open_remove(uint64_t *open, unsigned p, unsigned n)
{
    unsigned w = p >> 6, b = p & 63;
    uint64_t low = b ? open[w] & ((1ull << b) - 1) : 0;
    uint64_t high = b == 63 ? 0 : (open[w] >> 1) & ~((1ull << b) - 1);
    open[w] = low | high;
    for (unsigned k = w + 1; k * 64 < n; k++) {
        open[k - 1] |= (open[k] & 1) << 63;
        open[k] >>= 1;
    }
}

void wc_sched_remove(wc_sched *s, unsigned slot)
{
    unsigned i = s->pos_of[slot];
    if (i < s->n && s->warps[i] == slot) {
        unsigned n = s->n--;
        for (unsigned k = i; k < s->n; k++) { /* close the gap, renumbering */
            uint16_t w = s->warps[k + 1];
            s->warps[k] = w;
            s->pos_of[w] = (uint16_t)k;
        }
        open_remove(s->open, i, n);
        open_remove(s->mem, i, n);
        if (s->n_bar) { /* without barrier waiters every bit is 0 */
            if (s->bar[i >> 6] & (1ull << (i & 63))) s->n_bar--;
            open_remove(s->bar, i, n);
        }
    }
    if ((s->notify & WC_SCHED_NOTIFY_MEMBERS) && s->ops->on_remove) s->ops->on_remove(s, slot);
    if (s->last == (int)slot) s->last = -1;
    s->wake = 0; /* the window may now hold a warp that was outside it */
    if (s->low) *s->low = 0;
}

/* The knob warp_limit (warpcache/knob.h): every scheduler of the SM
 * considers only its `limit` oldest warps (wc_sched_window) and looks again
 * from the boundary on. */
static uint64_t warp_limit_initial(const wc_config *cfg)
{
    return cfg->max_warp_limit;
}

static void apply_warp_limit(const wc_knob_site *s, uint64_t v)
{
    for (unsigned i = 0; i < s->n_sched; i++) {
        s->sched[i].limit = (unsigned)v;
        s->sched[i].wake = s->now;
    }
    /* Every scheduler of the SM now wakes at s->now: that is their minimum. */
    if (s->n_sched && s->sched[0].low) *s->sched[0].low = s->now;
}

const wc_knob_desc wc_knob_warp_limit = {
    .name = "warp_limit",
    .consumer = "warp schedulers",
    .help = "active warps per scheduler; 0 = no limit (-max_warp_limit sets the start)",
    .max = 65536,
    .initial = warp_limit_initial,
    .apply = apply_warp_limit,
};
WC_PLUGIN(knob, wc_knob_warp_limit, 40);
