/*
 * model_report.c - writers for the results of the reuse-distance model of seed
 * 003 (003_ffafd1cb931cbd21.txt, section 6.1 classes, section 3.3 histograms):
 * an aligned text table, JSON, CSV per kernel, and the histogram as CSV.
 * JSON and CSV names are documented in docs/model.md.
 */
#include <string.h>

#include "model/model_internal.h"

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* CSV field: quoted when it holds a comma or a quote. */
static void csv_string(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Histogram bins as (lo, hi inclusive, count); returns false past the end. */
typedef struct hist_iter {
    int i; /* 0..WC_RD_EXACT-1 exact, then log2 bins, then inf */
} hist_iter;

static bool hist_next(const wc_rd_hist *h, hist_iter *it, uint64_t *lo, uint64_t *hi, uint64_t *n,
                      bool *inf)
{
    while (it->i < WC_RD_EXACT + WC_RD_LOG + 1) {
        int i = it->i++;
        *inf = false;
        if (i < WC_RD_EXACT) {
            *lo = *hi = (uint64_t)i;
            *n = h->exact[i];
        } else if (i < WC_RD_EXACT + WC_RD_LOG) {
            int k = i - WC_RD_EXACT;
            *lo = 1ull << k;
            *hi = (2ull << k) - 1;
            *n = h->log2[k];
        } else {
            *inf = true;
            *lo = *hi = 0;
            *n = h->inf;
        }
        if (*n) return true;
    }
    return false;
}

static void text_kernel(const wc_model_kernel *k, bool histogram, FILE *f)
{
    const wc_model_counts *c = &k->run[WC_RUN_FULL];
    const wc_model_classes *m = &k->cls;
    fprintf(f, "%s\n", k->name);
    fprintf(f, "  %-26s %14llu\n", "line requests", (unsigned long long)c->accesses);
    fprintf(f, "  %-26s %14llu\n", "memory warp instructions", (unsigned long long)c->warp_insts);
    fprintf(f, "  %-26s %14llu\n", "threads modelled", (unsigned long long)c->threads);
    fprintf(f, "  %-26s %14llu %8.2f %%\n", "hits", (unsigned long long)c->hits,
            pct(c->hits, c->accesses));
    fprintf(f, "  %-26s %14llu %8.2f %%\n", "misses", (unsigned long long)c->misses,
            pct(c->misses, c->accesses));
    fprintf(f, "  %-26s %14s %8.2f %%\n", "misses without latency", "",
            100.0 * wc_model_miss_rate_no_latency(k));
    const struct {
        const char *name;
        uint64_t v;
    } rows[5] = {{"  compulsory", m->compulsory},
                 {"  capacity", m->capacity},
                 {"  associativity", m->associativity},
                 {"  latency", m->latency},
                 {"  mshr", m->mshr}};
    for (int i = 0; i < 5; i++)
        fprintf(f, "  %-26s %14llu %8.2f %%\n", rows[i].name, (unsigned long long)rows[i].v,
                pct(rows[i].v, c->accesses));
    fprintf(f, "  %-26s %14llu\n", "MSHR refusals", (unsigned long long)c->mshr_stalls);
    fprintf(f, "  %-26s %14llu\n", "model time steps", (unsigned long long)c->time);
    if (!histogram) return;
    fprintf(f, "  reuse distances (full model):\n");
    hist_iter it = {0};
    uint64_t lo, hi, n;
    bool inf;
    while (hist_next(&k->hist, &it, &lo, &hi, &n, &inf)) {
        if (inf)
            fprintf(f, "    %-22s %14llu %8.2f %%\n", "inf", (unsigned long long)n,
                    pct(n, k->hist.total));
        else if (lo == hi)
            fprintf(f, "    %-22llu %14llu %8.2f %%\n", (unsigned long long)lo,
                    (unsigned long long)n, pct(n, k->hist.total));
        else {
            char range[48];
            snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)lo,
                     (unsigned long long)hi);
            fprintf(f, "    %-22s %14llu %8.2f %%\n", range, (unsigned long long)n,
                    pct(n, k->hist.total));
        }
    }
}

void wc_model_write_text(const wc_model_result *r, bool histogram, FILE *f)
{
    fprintf(f, "reuse-distance model (seed 003): %u sets x %u ways x %u B, index %c, %u core%s\n",
            r->nsets, r->assoc, r->line_bytes, r->set_index, r->cores, r->cores == 1 ? "" : "s");
    for (size_t i = 0; i < r->n_kernels; i++) {
        fputc('\n', f);
        text_kernel(&r->kernels[i], histogram, f);
    }
    if (r->n_kernels > 1) {
        fputc('\n', f);
        text_kernel(&r->total, histogram, f);
    }
}

static void json_counts(const wc_model_counts *c, FILE *f)
{
    fprintf(f,
            "{\"accesses\": %llu, \"hits\": %llu, \"misses\": %llu, \"infinite\": %llu, "
            "\"cold\": %llu, \"inflight\": %llu, \"mshr_refusals\": %llu, \"warp_insts\": %llu, "
            "\"threads\": %llu, \"time\": %llu}",
            (unsigned long long)c->accesses, (unsigned long long)c->hits,
            (unsigned long long)c->misses, (unsigned long long)c->inf, (unsigned long long)c->cold,
            (unsigned long long)c->inflight, (unsigned long long)c->mshr_stalls,
            (unsigned long long)c->warp_insts, (unsigned long long)c->threads,
            (unsigned long long)c->time);
}

static void json_kernel(const wc_model_kernel *k, FILE *f)
{
    const wc_model_counts *c = &k->run[WC_RUN_FULL];
    const wc_model_classes *m = &k->cls;
    fprintf(f, "    {\"name\": ");
    json_string(f, k->name);
    fprintf(f, ", \"id\": %u,\n", k->id);
    fprintf(f, "     \"miss_rate\": %.6f, \"miss_rate_without_latency\": %.6f,\n",
            wc_model_miss_rate(k), wc_model_miss_rate_no_latency(k));
    fprintf(f,
            "     \"misses\": {\"compulsory\": %llu, \"capacity\": %llu, \"associativity\": "
            "%llu, \"latency\": %llu, \"mshr\": %llu},\n",
            (unsigned long long)m->compulsory, (unsigned long long)m->capacity,
            (unsigned long long)m->associativity, (unsigned long long)m->latency,
            (unsigned long long)m->mshr);
    fprintf(f,
            "     \"rates\": {\"compulsory\": %.6f, \"capacity\": %.6f, \"associativity\": "
            "%.6f, \"latency\": %.6f, \"mshr\": %.6f},\n",
            pct(m->compulsory, c->accesses) / 100, pct(m->capacity, c->accesses) / 100,
            pct(m->associativity, c->accesses) / 100, pct(m->latency, c->accesses) / 100,
            pct(m->mshr, c->accesses) / 100);
    fprintf(f, "     \"runs\": {");
    bool first = true;
    for (int j = 0; j < WC_RUN__COUNT; j++) {
        if (!k->ran[j]) continue;
        fprintf(f, "%s\n       \"%s\": ", first ? "" : ",", wc_model_run_name(j));
        json_counts(&k->run[j], f);
        first = false;
    }
    fprintf(f, "},\n     \"histogram\": [");
    hist_iter it = {0};
    uint64_t lo, hi, n;
    bool inf;
    first = true;
    while (hist_next(&k->hist, &it, &lo, &hi, &n, &inf)) {
        if (inf)
            fprintf(f, "%s{\"lo\": null, \"hi\": null, \"count\": %llu}", first ? "" : ", ",
                    (unsigned long long)n);
        else
            fprintf(f, "%s{\"lo\": %llu, \"hi\": %llu, \"count\": %llu}", first ? "" : ", ",
                    (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)n);
        first = false;
    }
    fprintf(f, "]}");
}

void wc_model_write_json(const wc_model_result *r, const wc_model_opts *o, FILE *f)
{
    fprintf(f, "{\n  \"model\": \"seed003-reuse-distance\",\n");
    fprintf(
        f,
        "  \"cache\": {\"sets\": %u, \"ways\": %u, \"line_bytes\": %u, \"set_index\": \"%c\"},\n",
        r->nsets, r->assoc, r->line_bytes, r->set_index);
    fprintf(f,
            "  \"options\": {\"latency\": %s, \"assoc\": %s, \"mshr\": %s, \"divergence\": %s, "
            "\"clip\": %s, \"hit_latency\": %u, \"lambda_min\": %u, \"sigma\": %g, "
            "\"mshr_per_core\": %u, \"mshr_per_warp\": %u, \"mshr_first_only\": %s, \"cores\": %u, "
            "\"core\": %d, "
            "\"max_threads\": %llu, \"blocks\": \"%s\", \"stores\": %s, \"scoreboard\": %s, "
            "\"step_requests\": %s},\n",
            o->latency ? "true" : "false", o->assoc ? "true" : "false", o->mshr ? "true" : "false",
            o->divergence ? "true" : "false", o->clip ? "true" : "false", o->hit_latency,
            o->lambda_min, o->sigma, o->mshr_per_core, o->mshr_per_warp,
            o->mshr_first_only ? "true" : "false", r->cores, o->core,
            (unsigned long long)o->max_threads,
            o->blocks == WC_MODEL_BLOCKS_SETS ? "sets" : "dynamic", o->stores ? "true" : "false",
            o->scoreboard ? "true" : "false", o->step_requests ? "true" : "false");
    fprintf(f, "  \"kernels\": [\n");
    for (size_t i = 0; i < r->n_kernels; i++) {
        json_kernel(&r->kernels[i], f);
        fputs(",\n", f);
    }
    json_kernel(&r->total, f);
    fprintf(f, "\n  ]\n}\n");
}

static void csv_row(const wc_model_kernel *k, FILE *f)
{
    const wc_model_counts *c = &k->run[WC_RUN_FULL];
    const wc_model_classes *m = &k->cls;
    csv_string(f, k->name);
    fprintf(f, ",%u,%llu,%llu,%llu,%.6f,%.6f,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", k->id,
            (unsigned long long)c->accesses, (unsigned long long)c->hits,
            (unsigned long long)c->misses, wc_model_miss_rate(k), wc_model_miss_rate_no_latency(k),
            (unsigned long long)m->compulsory, (unsigned long long)m->capacity,
            (unsigned long long)m->associativity, (unsigned long long)m->latency,
            (unsigned long long)m->mshr, (unsigned long long)c->mshr_stalls,
            (unsigned long long)c->time);
}

void wc_model_write_csv(const wc_model_result *r, FILE *f)
{
    fprintf(f, "kernel,id,accesses,hits,misses,miss_rate,miss_rate_without_latency,compulsory,"
               "capacity,associativity,latency,mshr,mshr_refusals,time\n");
    for (size_t i = 0; i < r->n_kernels; i++) csv_row(&r->kernels[i], f);
    csv_row(&r->total, f);
}

void wc_model_write_hist_csv(const wc_model_result *r, FILE *f)
{
    fprintf(f, "kernel,id,lo,hi,count\n");
    for (size_t i = 0; i <= r->n_kernels; i++) {
        const wc_model_kernel *k = i < r->n_kernels ? &r->kernels[i] : &r->total;
        hist_iter it = {0};
        uint64_t lo, hi, n;
        bool inf;
        while (hist_next(&k->hist, &it, &lo, &hi, &n, &inf)) {
            csv_string(f, k->name);
            if (inf)
                fprintf(f, ",%u,inf,inf,%llu\n", k->id, (unsigned long long)n);
            else
                fprintf(f, ",%u,%llu,%llu,%llu\n", k->id, (unsigned long long)lo,
                        (unsigned long long)hi, (unsigned long long)n);
        }
    }
}
