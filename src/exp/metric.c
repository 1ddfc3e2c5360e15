/*
 * metric.c - the metrics a comparison can tabulate, and the arithmetic of
 * comparison tables: normalisation to the first design and the geometric
 * and harmonic means the seed papers report.
 *
 * Metric names map onto the one metric table of src/report/metrics.c, so
 * every statistic `run` reports can be compared; a few short aliases and
 * derived rates (reservation fails, L2 and DRAM accesses per kilo-instruction,
 * hit rate and bypass fraction) are added here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/metrics.h"
#include "util/nearest.h"
#include "warpcache/experiment.h"

static double res_fails_pki(const wc_kstats *k)
{
    return k->warp_insts ? 1000.0 * (double)wc_kstats_l1_fails(k) / (double)k->warp_insts : 0.0;
}

/* Seed 001's metrics (section 6): the L1 hit rate (HIT and HIT_RESERVED of
 * the accesses that were not reservation fails), the fraction of them that
 * bypassed, and L2 and DRAM accesses per 1000 warp instructions. */
static double per_kilo(const wc_kstats *k, double n)
{
    return k->warp_insts ? 1000.0 * n / (double)k->warp_insts : 0.0;
}
static double l1_hit_rate(const wc_kstats *k)
{
    double hits = (double)(k->l1.outcome[WC_HIT] + k->l1.outcome[WC_HIT_RESERVED]);
    return k->l1.accesses ? hits / (double)k->l1.accesses : 0.0;
}
static double l1_bypass_fraction(const wc_kstats *k)
{
    return k->l1.accesses ? (double)k->l1.outcome[WC_BYPASSED] / (double)k->l1.accesses : 0.0;
}
static double l2_apki(const wc_kstats *k)
{
    return per_kilo(k, (double)k->l2.accesses);
}
static double dram_apki(const wc_kstats *k)
{
    return per_kilo(k, (double)(k->dram.reads + k->dram.writes));
}

typedef struct derived {
    const char *name, *label;
    double (*get)(const wc_kstats *k);
} derived;

static const derived derived_metrics[] = {
    {"res_fails_pki", "L1 reservation fails per 1000 warp insts", res_fails_pki},
    {"l1_hit_rate", "L1 hit rate (hits + hit-reserved) / accesses", l1_hit_rate},
    {"l1_bypass_fraction", "L1 bypasses / accesses", l1_bypass_fraction},
    {"l2_apki", "L2 accesses per 1000 warp insts", l2_apki},
    {"dram_apki", "DRAM accesses per 1000 warp insts", dram_apki},
};

typedef struct alias {
    const char *name, *key;
} alias;

static const alias aliases[] = {
    {"l2_to_l1_bytes", "icnt.l2_to_l1_bytes"},
    {"l1_to_l2_bytes", "icnt.l1_to_l2_bytes"},
    {"l2_to_l1_packets", "icnt.l2_to_l1_packets"},
    {"l1_to_l2_packets", "icnt.l1_to_l2_packets"},
    {"res_fails", "l1.reservation_fails.total"},
    {"l1_reservation_fails", "l1.reservation_fails.total"},
    /* the contention breakdown (-analysis contention, seed 004 Figure 4) */
    {"iw_mpki", "extra.contention.intra_warp_mpki"},
    {"xw_intra_block_mpki", "extra.contention.xw_intra_block_mpki"},
    {"xw_cross_block_mpki", "extra.contention.xw_cross_block_mpki"},
};

/* "l1_miss_rate" matches "l1.miss_rate": dots and underscores are equal. */
static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (*a != *b && !((*a == '.' || *a == '_') && (*b == '.' || *b == '_'))) return false;
    return *a == *b;
}

#define MAX_KEYS 512

/* " (did you mean 'X'?" for a misspelt metric, else "".  Keys are compared
 * with '_' for '.' (as they are accepted): "l1_mis_rate" is one edit from
 * l1.miss_rate, two from l1_hit_rate. */
static void suggest_metric(const char *name, char *buf, size_t cap)
{
    static const size_t len = 64;
    char(*keys)[64] = calloc(MAX_KEYS, len);
    size_t nk = 0;
    wc_nearest near;
    wc_nearest_init(&near, name);
    for (size_t i = 0; i < sizeof derived_metrics / sizeof derived_metrics[0]; i++)
        wc_nearest_consider(&near, derived_metrics[i].name);
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        wc_nearest_consider(&near, aliases[i].name);
    for (int table = 0; table < 2 && keys; table++) {
        size_t n;
        const wc_metric *t = table ? wc_rd_metrics(&n) : wc_metrics(&n);
        for (size_t i = 0; i < n && nk < MAX_KEYS; i++, nk++) {
            snprintf(keys[nk], len, "%s", t[i].key);
            for (char *c = keys[nk]; *c; c++)
                if (*c == '.') *c = '_';
            wc_nearest_consider(&near, keys[nk]);
        }
    }
    const char *best = wc_nearest_best(&near);
    if (best)
        snprintf(buf, cap, "did you mean '%s'? ", best);
    else
        buf[0] = 0;
    free(keys);
}

int wc_exp_metric_find(const char *name, wc_exp_metric *m, wc_err *err)
{
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) /* aliases of extras */
        if (strcmp(name, aliases[i].name) == 0 && strncmp(aliases[i].key, "extra.", 6) == 0)
            name = aliases[i].key;
    if (strncmp(name, "extra.", 6) == 0 && name[6] && strlen(name + 6) < sizeof m->extra) {
        snprintf(m->name, sizeof m->name, "%s", name);
        snprintf(m->extra, sizeof m->extra, "%s", name + 6);
        m->label = m->name;
        m->is_float = true;
        return 0;
    }
    for (size_t i = 0; i < sizeof derived_metrics / sizeof derived_metrics[0]; i++)
        if (strcmp(name, derived_metrics[i].name) == 0) {
            snprintf(m->name, sizeof m->name, "%s", name);
            m->label = derived_metrics[i].label;
            m->is_float = true;
            m->get = derived_metrics[i].get;
            return 0;
        }
    const char *key = name;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(name, aliases[i].name) == 0) key = aliases[i].key;
    for (int table = 0; table < 2; table++) { /* the reported metrics, then -l1_rd_hist's */
        size_t n;
        const wc_metric *t = table ? wc_rd_metrics(&n) : wc_metrics(&n);
        for (size_t i = 0; i < n; i++)
            if (same_name(key, t[i].key)) {
                snprintf(m->name, sizeof m->name, "%s", t[i].key);
                m->label = t[i].label;
                m->is_float = t[i].is_float;
                m->get = t[i].get;
                return 0;
            }
    }
    char hint[160];
    suggest_metric(name, hint, sizeof hint);
    return wc_errf(
        err,
        "unknown metric '%s' (%sany key of docs/stats.md, e.g. ipc, cycles, "
        "l1_miss_rate, l1_mpki, l2_to_l1_bytes, l1_to_l2_bytes, res_fails_pki, "
        "l1_hit_rate, l1_bypass_fraction, l2_apki, dram_apki, iw_mpki, xw_intra_block_mpki, "
        "xw_cross_block_mpki, extra.NAME)",
        name, hint);
}

double wc_exp_metric_value(const wc_exp_metric *m, const wc_kstats *k)
{
    if (m->get) return m->get(k);
    for (unsigned i = 0; i < k->n_extras; i++)
        if (strcmp(k->extras[i].name, m->extra) == 0) return k->extras[i].value;
    return NAN;
}

void wc_exp_normalise(const double *v, size_t rows, size_t cols, double *norm)
{
    for (size_t r = 0; r < rows; r++) {
        double ref = v[r * cols];
        for (size_t c = 0; c < cols; c++) {
            double x = v[r * cols + c];
            norm[r * cols + c] = (ref == 0 || isnan(ref) || isnan(x)) ? NAN : x / ref;
        }
    }
}

/* Rows that count for a mean: selected, finite and positive (a zero or a
 * missing value has no logarithm and no reciprocal). */
static bool usable(const double *norm, size_t cols, size_t r, size_t col, const bool *use)
{
    double x = norm[r * cols + col];
    return (!use || use[r]) && isfinite(x) && x > 0;
}

double wc_exp_geomean(const double *norm, size_t rows, size_t cols, size_t col, const bool *use,
                      size_t *count)
{
    double sum = 0;
    size_t n = 0;
    for (size_t r = 0; r < rows; r++)
        if (usable(norm, cols, r, col, use)) {
            sum += log(norm[r * cols + col]);
            n++;
        }
    *count = n;
    return n ? exp(sum / (double)n) : NAN;
}

double wc_exp_hmean(const double *norm, size_t rows, size_t cols, size_t col, const bool *use,
                    size_t *count)
{
    double sum = 0;
    size_t n = 0;
    for (size_t r = 0; r < rows; r++)
        if (usable(norm, cols, r, col, use)) {
            sum += 1.0 / norm[r * cols + col];
            n++;
        }
    *count = n;
    return n ? (double)n / sum : NAN;
}
