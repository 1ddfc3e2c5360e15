/*
 * csv.c - statistics as CSV: a header of metric keys (metrics.c), one row per
 * kernel and a final "total" row, each led by the workload name so that the
 * rows of several runs can share one file.
 */
#include <string.h>

#include "report/metrics.h"
#include "report/report.h"

void wc_csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

static void row(FILE *f, const wc_stats *st, const wc_kstats *k, const char *id)
{
    size_t n;
    const wc_metric *m = wc_metrics(&n);
    wc_csv_field(f, st->workload);
    fputc(',', f);
    wc_csv_field(f, k->name);
    fprintf(f, ",%s", id);
    for (size_t i = 0; i < n; i++) {
        fputc(',', f);
        wc_json_number(f, m[i].get(k), m[i].is_float);
    }
    fputc('\n', f);
}

void wc_stats_write_csv_run(const wc_stats *st, FILE *f, bool header)
{
    size_t n;
    const wc_metric *m = wc_metrics(&n);
    if (header) {
        fputs("workload,kernel,id", f);
        for (size_t i = 0; i < n; i++) fprintf(f, ",%s", m[i].key);
        fputc('\n', f);
    }
    char id[16];
    for (size_t i = 0; i < st->n_kernels; i++) {
        snprintf(id, sizeof id, "%u", st->kernels[i].id);
        row(f, st, &st->kernels[i], id);
    }
    row(f, st, &st->total, "total");
}

void wc_stats_write_csv(const wc_stats *st, FILE *f)
{
    wc_stats_write_csv_run(st, f, true);
}
