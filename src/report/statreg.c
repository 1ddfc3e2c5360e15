/*
 * statreg.c - the registry of statistics (warpcache/statreg.h): the groups
 * the owners register (WC_PLUGIN(stats, ...); the list is generated), and the
 * two operations every consumer of counters is built from - collecting an
 * owner's counters into a report or a period, and adding or subtracting two
 * of them over the registered counters only (a field nobody registered, or
 * one that is not a uint64_t, is never touched).
 */
#include <string.h>

#include "warpcache/statreg.h"

WC_PLUGIN_LIST(stats);

const wc_stat_group *const *wc_stat_groups(size_t *count)
{
    *count = wc_plugins_stats_n;
    return wc_plugins_stats;
}

void wc_stat_each(void (*fn)(void *ctx, const wc_stat_group *g, const wc_stat_desc *d), void *ctx)
{
    for (size_t i = 0; i < wc_plugins_stats_n; i++)
        for (const wc_stat_desc *d = wc_plugins_stats[i]->stats; d->name; d++)
            fn(ctx, wc_plugins_stats[i], d);
}

/* The destination offset of d, or -1. */
static int32_t dest_of(const wc_stat_desc *d, wc_stat_into into)
{
    return into == WC_STAT_INTO_KS ? d->ks : d->pc;
}

static uint64_t get(const void *base, size_t off)
{
    uint64_t v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}

static void put(void *base, size_t off, uint64_t v)
{
    memcpy((char *)base + off, &v, sizeof v);
}

void wc_stat_collect(void *dst, wc_stat_into into, wc_stat_owner owner, const void *base)
{
    for (size_t i = 0; i < wc_plugins_stats_n; i++)
        for (const wc_stat_desc *d = wc_plugins_stats[i]->stats; d->name; d++) {
            int32_t to = dest_of(d, into);
            if (d->owner != owner || to < 0) continue;
            for (unsigned j = 0; j < d->n; j++) {
                size_t at = (size_t)to + (d->sum ? 0 : j * sizeof(uint64_t));
                put(dst, at, get(dst, at) + get(base, d->src + j * sizeof(uint64_t)));
            }
        }
}

void wc_stat_combine(void *dst, wc_stat_into into, const void *a, const void *b, bool subtract)
{
    for (size_t i = 0; i < wc_plugins_stats_n; i++)
        for (const wc_stat_desc *d = wc_plugins_stats[i]->stats; d->name; d++) {
            int32_t to = dest_of(d, into);
            if (to < 0) continue;
            unsigned n = d->sum ? 1 : d->n;
            for (unsigned j = 0; j < n; j++) {
                size_t at = (size_t)to + j * sizeof(uint64_t);
                uint64_t x = get(a, at), y = get(b, at);
                put(dst, at, subtract ? x - y : x + y);
            }
        }
}
