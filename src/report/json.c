/*
 * json.c - statistics as JSON: {"warpcache": ..., "kernels": [...],
 * "totals": {...}}.  Nested objects follow the dotted metric keys of
 * metrics.c ("l1.reservation_fails.line_alloc" -> l1 -> reservation_fails).
 */
#include <string.h>

#include "report/metrics.h"
#include "report/report.h"

void wc_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void wc_json_number(FILE *f, double v, bool is_float)
{
    if (!is_float)
        fprintf(f, "%.0f", v);
    else if (v != v)
        fputs("null", f);
    else
        fprintf(f, "%.9g", v);
}

#define MAX_DEPTH 4

/* Writes the metrics m[0..n) of one kernel as members of an open object
 * (`more`: members precede them). */
static void write_table(FILE *f, const wc_kstats *k, const char *indent, const wc_metric *m,
                        size_t n, bool more)
{
    char open[MAX_DEPTH][48];
    unsigned depth = 0;
    for (size_t i = 0; i < n; i++) {
        char parts[MAX_DEPTH + 1][48];
        unsigned np = 0;
        const char *s = m[i].key;
        while (np <= MAX_DEPTH) {
            size_t len = strcspn(s, ".");
            snprintf(parts[np++], sizeof parts[0], "%.*s", (int)len, s);
            if (!s[len]) break;
            s += len + 1;
        }
        unsigned common = 0;
        while (common < depth && common + 1 < np && strcmp(open[common], parts[common]) == 0)
            common++;
        while (depth > common) {
            depth--;
            fprintf(f, "\n%s%*s}", indent, 2 * (int)depth + 2, "");
        }
        /* After the first member every new member needs a comma. */
        if (i > 0 || more) fputc(',', f);
        while (depth + 1 < np) {
            fprintf(f, "\n%s%*s", indent, 2 * (int)depth + 2, "");
            wc_json_string(f, parts[depth]);
            fputs(": {", f);
            snprintf(open[depth], sizeof open[0], "%s", parts[depth]);
            depth++;
        }
        fprintf(f, "\n%s%*s", indent, 2 * (int)depth + 2, "");
        wc_json_string(f, parts[np - 1]);
        fputs(": ", f);
        wc_json_number(f, m[i].get(k), m[i].is_float);
    }
    while (depth > 0) {
        depth--;
        fprintf(f, "\n%s%*s}", indent, 2 * (int)depth + 2, "");
    }
}

/* Writes the metrics of one kernel as the members of an open object. */
static void write_metrics(FILE *f, const wc_kstats *k, const char *indent)
{
    size_t n;
    const wc_metric *m = wc_metrics(&n);
    write_table(f, k, indent, m, n, false);
    if (k->rd_on) {
        m = wc_rd_metrics(&n);
        write_table(f, k, indent, m, n, true);
    }
    if (k->n_extras) {
        fprintf(f, ",\n%s  \"extra\": {", indent);
        for (unsigned e = 0; e < k->n_extras; e++) {
            fprintf(f, "%s\n%s    ", e ? "," : "", indent);
            wc_json_string(f, k->extras[e].name);
            fputs(": ", f);
            wc_json_number(f, k->extras[e].value, true);
        }
        fprintf(f, "\n%s  }", indent);
    }
}

static void write_kernel(FILE *f, const wc_kstats *k, const char *indent)
{
    fprintf(f, "{\n%s  \"name\": ", indent);
    wc_json_string(f, k->name);
    fprintf(f, ",\n%s  \"id\": %u,", indent, k->id);
    write_metrics(f, k, indent);
    fprintf(f, "\n%s}", indent);
}

void wc_stats_write_json(const wc_stats *st, FILE *f)
{
    fprintf(f, "{\n  \"schema_version\": %d,\n  \"warpcache\": \"%s\",\n  \"config\": ",
            WC_STATS_SCHEMA_VERSION, WC_VERSION);
    wc_json_string(f, st->config_name);
    fputs(",\n  \"workload\": ", f);
    wc_json_string(f, st->workload);
    fprintf(f, ",\n  \"truncated\": %s", st->truncated ? "true" : "false");
    fputs(",\n  \"kernels\": [", f);
    for (size_t i = 0; i < st->n_kernels; i++) {
        fputs(i ? ", " : "\n    ", f);
        write_kernel(f, &st->kernels[i], "    ");
    }
    fputs(st->n_kernels ? "\n  ],\n  \"totals\": " : "],\n  \"totals\": ", f);
    write_kernel(f, &st->total, "  ");
    wc_json_timeline(st, f);
    fputs("\n}\n", f);
}
