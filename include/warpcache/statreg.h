/*
 * statreg.h - registered statistics: every counter the engine sums into a
 * kernel's report (wc_kstats) or a controller's period (wc_period_counters)
 * is declared once, by the code that owns it, with its name, unit and
 * meaning (gem5's statistics::Group is the model).
 *
 * An owner keeps its counters as plain uint64_t fields of its own record
 * (the hot path increments them directly) and registers a group:
 *
 *     static const wc_stat_desc l1_stats[] = {
 *         {"l1.accesses", "requests", "requests the L1 accepted", WC_STAT_L1,
 *          WC_STAT_AT(wc_l1_stats, accesses), WC_KS(l1.accesses), WC_PC(l1_accesses), 1},
 *         ...
 *         {0}};
 *     const wc_stat_group wc_stats_l1 = {"L1 core (wc_l1_stats)", l1_stats};
 *     WC_PLUGIN(stats, wc_stats_l1, 20);
 *
 * The engine's snapshot of a run (summed over SMs), the difference over a
 * kernel, the sum of kernels (wc_kstats_add) and the controllers' period
 * counters are all driven by these declarations, so none lists fields by
 * hand; `warpcache list stats` prints them.  A counter without a place in
 * wc_kstats (ks < 0) or in wc_period_counters (pc < 0) is not carried there.
 */
#ifndef WARPCACHE_STATREG_H
#define WARPCACHE_STATREG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "warpcache/plugin.h"

/* Whose record src is an offset into. */
typedef enum wc_stat_owner {
    WC_STAT_KERNEL = 0, /* set per kernel by the engine or a measurement: no source */
    WC_STAT_SM,         /* the engine's per-SM record (summed over SMs) */
    WC_STAT_L1,         /* each SM's L1 counters, wc_l1_stats (summed over SMs) */
    WC_STAT_MEM,        /* the memory side, wc_mem_counters (the whole GPU) */
} wc_stat_owner;

typedef struct wc_stat_desc {
    const char *name; /* the JSON key of docs/stats.md where it is reported as is */
    const char *unit;
    const char *desc;
    uint8_t owner; /* wc_stat_owner */
    uint32_t src;  /* offset of the counter in the owner's record */
    int32_t ks;    /* offset in wc_kstats, -1: none */
    int32_t pc;    /* offset in wc_period_counters, -1: none */
    uint16_t n;    /* consecutive uint64_t elements (an array by index) */
    bool sum;      /* the n source elements add up into one destination */
} wc_stat_desc;

/* Offsets, for the initializers. */
#define WC_STAT_AT(type, field) ((uint32_t)offsetof(type, field))
#define WC_KS(field)            ((int32_t)offsetof(wc_kstats, field))
#define WC_PC(field)            ((int32_t)offsetof(wc_period_counters, field))
#define WC_NONE                 (-1)

typedef struct wc_stat_group {
    const char *owner;         /* for `list stats` */
    const wc_stat_desc *stats; /* terminated by an entry with name NULL */
} wc_stat_group;

const wc_stat_group *const *wc_stat_groups(size_t *count);

/* Where a registered counter is carried: a kernel's report or a period. */
typedef enum wc_stat_into { WC_STAT_INTO_KS, WC_STAT_INTO_PC } wc_stat_into;

/* dst (a wc_kstats or a wc_period_counters) += the counters of `owner` in
 * its record `base` (one SM's, or the memory side's). */
void wc_stat_collect(void *dst, wc_stat_into into, wc_stat_owner owner, const void *base);

/* dst = a + b, or a - b, over every counter registered for `into` (dst may
 * be a); nothing else of dst is written. */
void wc_stat_combine(void *dst, wc_stat_into into, const void *a, const void *b, bool subtract);

/* Calls fn for every registered counter, groups in registry order. */
void wc_stat_each(void (*fn)(void *ctx, const wc_stat_group *g, const wc_stat_desc *d), void *ctx);

#endif
