/*
 * text.c - statistics as aligned text: a per-kernel summary (one row per
 * kernel, the first 40 shown) and the totals in full.
 */
#include <string.h>

#include "report/metrics.h"
#include "report/report.h"

#define MAX_ROWS 40

static void summary(const wc_stats *st, FILE *f)
{
    fprintf(f, "%-4s %-32s %12s %8s %12s %8s %9s %10s\n", "id", "kernel", "cycles", "IPC",
            "L1 accesses", "L1 miss", "L1 MPKI", "res.fails");
    size_t shown = st->n_kernels < MAX_ROWS ? st->n_kernels : MAX_ROWS;
    for (size_t i = 0; i <= shown; i++) {
        const wc_kstats *k = i < shown ? &st->kernels[i] : &st->total;
        if (i == shown && st->n_kernels > shown)
            fprintf(f, "...  (%zu more kernels: use --json or --csv)\n", st->n_kernels - shown);
        char id[16];
        if (i < shown)
            snprintf(id, sizeof id, "%u", k->id);
        else
            snprintf(id, sizeof id, "all");
        fprintf(f, "%-4s %-32.32s %12llu %8.3f %12llu %7.2f%% %9.2f %10llu\n", id, k->name,
                (unsigned long long)k->cycles, wc_kstats_ipc(k), (unsigned long long)k->l1.accesses,
                100.0 * wc_kstats_l1_miss_rate(k), wc_kstats_l1_mpki(k),
                (unsigned long long)wc_kstats_l1_fails(k));
    }
}

static void write_rows(FILE *f, const wc_kstats *k, const wc_metric *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double v = m[i].get(k);
        if (m[i].is_float)
            fprintf(f, "  %-34s %16.4f\n", m[i].label, v);
        else
            fprintf(f, "  %-34s %16.0f\n", m[i].label, v);
    }
}

void wc_stats_write_text(const wc_stats *st, FILE *f)
{
    if (st->workload[0]) fprintf(f, "workload: %s\n", st->workload);
    if (st->config_name[0]) fprintf(f, "config:   %s\n", st->config_name);
    if (st->truncated)
        fprintf(f,
                "NOTE:     stopped by -max_cycles in kernel %s: figures cover the cycles "
                "simulated\n",
                st->truncated_in);
    fputc('\n', f);
    summary(st, f);
    fprintf(f, "\ntotals\n");
    size_t n;
    const wc_metric *m = wc_metrics(&n);
    write_rows(f, &st->total, m, n);
    if (st->total.rd_on) {
        fprintf(f, "  L1 data-store reuse distances (distinct lines between references, per SM)\n");
        m = wc_rd_metrics(&n);
        write_rows(f, &st->total, m, n);
    }
    for (unsigned e = 0; e < st->total.n_extras; e++)
        fprintf(f, "  %-34s %16.4f\n", st->total.extras[e].name, st->total.extras[e].value);
}
