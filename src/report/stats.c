/*
 * stats.c - per-kernel and total statistics: accumulation and derived
 * metrics (IPC, miss rate, MPKI).  Definitions are documented in
 * docs/stats.md; keep the two in step.
 */
#include <stdlib.h>
#include <string.h>

#include "warpcache/statreg.h"
#include "warpcache/stats.h"

void wc_stats_init(wc_stats *st)
{
    memset(st, 0, sizeof *st);
}

void wc_stats_free(wc_stats *st)
{
    free(st->kernels);
    free(st->timeline);
    memset(st, 0, sizeof *st);
}

wc_kstats *wc_stats_new_kernel(wc_stats *st)
{
    if (st->n_kernels == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 16;
        wc_kstats *k = realloc(st->kernels, cap * sizeof *k);
        if (!k) return NULL;
        st->kernels = k;
        st->cap = cap;
    }
    wc_kstats *k = &st->kernels[st->n_kernels++];
    memset(k, 0, sizeof *k);
    return k;
}

void wc_kstats_add(wc_kstats *dst, const wc_kstats *src)
{
    wc_stat_combine(dst, WC_STAT_INTO_KS, dst, src, false); /* the registered counters */
    for (unsigned i = 0; i < src->n_extras; i++) {
        double v = src->extras[i].value;
        for (unsigned j = 0; j < dst->n_extras; j++)
            if (strcmp(dst->extras[j].name, src->extras[i].name) == 0) {
                v += dst->extras[j].value;
                break;
            }
        wc_kstats_set_extra(dst, src->extras[i].name, v);
    }
    dst->rd_on |= src->rd_on;
}

void wc_kstats_set_extra(wc_kstats *k, const char *name, double value)
{
    for (unsigned j = 0; j < k->n_extras; j++)
        if (strcmp(k->extras[j].name, name) == 0) {
            k->extras[j].value = value;
            return;
        }
    if (k->n_extras == WC_MAX_EXTRAS) return;
    snprintf(k->extras[k->n_extras].name, sizeof k->extras[0].name, "%s", name);
    k->extras[k->n_extras++].value = value;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

double wc_kstats_ipc(const wc_kstats *k)
{
    return ratio(k->thread_insts, k->cycles);
}

double wc_kstats_warp_ipc(const wc_kstats *k)
{
    return ratio(k->warp_insts, k->cycles);
}

uint64_t wc_kstats_l1_misses(const wc_kstats *k)
{
    return k->l1.outcome[WC_MISS] + k->l1.outcome[WC_SECTOR_MISS];
}

uint64_t wc_kstats_l1_fails(const wc_kstats *k)
{
    return k->l1.outcome[WC_RESERVATION_FAIL];
}

/* Misses over accesses that looked the cache up (bypasses excluded). */
double wc_kstats_l1_miss_rate(const wc_kstats *k)
{
    uint64_t looked = k->l1.accesses - k->l1.outcome[WC_BYPASSED];
    return ratio(wc_kstats_l1_misses(k), looked);
}

double wc_kstats_l1_read_miss_rate(const wc_kstats *k)
{
    return ratio(k->l1.read_misses, k->l1.reads - k->l1.read_bypasses);
}

double wc_kstats_l1_mpki(const wc_kstats *k)
{
    return 1000.0 * ratio(wc_kstats_l1_misses(k), k->warp_insts);
}
