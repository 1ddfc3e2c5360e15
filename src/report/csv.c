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

/* A plug-in counter of kernel k (0 when that kernel did not report it). */
static double extra_of(const wc_kstats *k, const char *name)
{
    for (unsigned j = 0; j < k->n_extras; j++)
        if (strcmp(k->extras[j].name, name) == 0) return k->extras[j].value;
    return 0;
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
    if (st->total.rd_on) { /* the columns the header has */
        m = wc_rd_metrics(&n);
        for (size_t i = 0; i < n; i++) {
            fputc(',', f);
            wc_json_number(f, m[i].get(k), m[i].is_float);
        }
    }
    /* Plug-in counters (organisations, policies): the columns the total has. */
    for (unsigned e = 0; e < st->total.n_extras; e++) {
        fputc(',', f);
        wc_json_number(f, extra_of(k, st->total.extras[e].name), true);
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
        if (st->total.rd_on) {
            size_t nr;
            const wc_metric *r = wc_rd_metrics(&nr);
            for (size_t i = 0; i < nr; i++) fprintf(f, ",%s", r[i].key);
        }
        for (unsigned e = 0; e < st->total.n_extras; e++) {
            fputs(",extra.", f);
            wc_csv_field(f, st->total.extras[e].name);
        }
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
