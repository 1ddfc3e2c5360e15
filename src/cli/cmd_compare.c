/*
 * cmd_compare.c - `warpcache compare`: every design on every workload (or
 * trace), one table of one metric normalised to the first design, with
 * geometric and harmonic means overall and per seed class label.  The
 * simulations run in parallel (wc_batch_run); every output is built after
 * all of them finished, from results indexed by (workload, design), so it
 * does not depend on -j or on completion order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/metrics.h"
#include "report/report.h"

#define COMPARE_SCHEMA_VERSION 1

static const char compare_help[] =
    "usage: warpcache compare --designs A,B,... (--workload NAME | --trace PATH)... [options]\n"
    "\n"
    "Simulates every design on every workload and prints one table of a metric, normalised\n"
    "to the first design, then its geometric and harmonic means overall and per class.\n"
    "\n"
    "%s"
    "\n"
    "--config, -o and --seed apply to every design (file, design, -o).  Output does not\n"
    "depend on -j.  Exit status: 0 ok, 2 bad input, 1 internal failure.\n";

enum { O_METRIC = 1, O_BY_CLASS, O_PER_KERNEL, O_WIDE_CSV };
static const wc_opt compare_table[] = {
    {WC_CLI_O_DESIGNS, 0, "designs", "A,B,...",
     "designs ('warpcache list designs') or .config paths; the first\n"
     "is the reference",
     0},
    {WC_CLI_O_WORKLOAD, 'w', "workload", "NAME",
     "workload, suite ('polybench') or suite with parameters\n"
     "('polybench:scale=0.125'); repeatable",
     0},
    {WC_CLI_O_TRACE, 't', "trace", "PATH", "trace (repeatable)", 0},
    {WC_CLI_O_KERNELS, 0, "kernels", "SEL", "selects kernels of every trace", 0},
    {O_METRIC, 0, "metric", "NAME",
     "ipc (default), cycles, l1_miss_rate, l1_mpki, l2_to_l1_bytes,\n"
     "l1_to_l2_bytes, res_fails_pki, or any key of docs/stats.md",
     0},
    {O_BY_CLASS, 0, "by-class", "SEED",
     "means per class label of that seed paper, e.g. 004 (004:IW ...)", 0},
    {O_PER_KERNEL, 0, "per-kernel", NULL, "one row per kernel instead of per workload", 0},
    {O_WIDE_CSV, 0, "wide-csv", "FILE",
     "every statistic, Accel-Sim get_stats.py layout (one block per\n"
     "statistic, rows workload--kernel, columns designs)",
     0},
    {WC_CLI_O_JOBS, 'j', NULL, "N", "simulations in parallel (default: every CPU)", 0},
    {0},
};
static const wc_opt *const compare_tables[] = {compare_table, wc_cli_common_opts,
                                               wc_cli_progress_opts, NULL};

typedef struct compare_cli {
    wc_cli_common c;
    wc_cli_batch b; /* --designs, inputs, --kernels, -j */
    const char *metric_name, *by_class, *wide_csv;
    bool per_kernel;
    wc_exp_metric metric;
} compare_cli;

/* One table row: a workload (or one kernel of it) with a value per design. */
typedef struct row {
    size_t input;
    char kernel[256]; /* "" for a whole-workload row */
    uint32_t kernel_id;
    char classes[128];
} row;

typedef struct table {
    row *rows;
    size_t n;
    double *v, *norm; /* n x nd */
} table;

static int parse(compare_cli *o, int argc, char **argv)
{
    wc_opts p;
    wc_opts_init(&p, "compare", compare_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        int rc = wc_cli_common_take(&o->c, &p, id);
        if (rc == 0) rc = wc_cli_progress_take(&o->c.progress, &p, id);
        if (rc == 0) rc = wc_cli_batch_take(&o->b, &p, id);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        switch (id) {
        case WC_OPT_HELP: wc_opts_print_help(compare_help, compare_tables); exit(0);
        case WC_OPT_BAD: return -1;
        case WC_OPT_ARG:
            wc_cli_error("compare: unexpected argument '%s' (give workloads with --workload)",
                         p.value);
            return -1;
        case O_METRIC: o->metric_name = p.value; break;
        case O_BY_CLASS:
            o->by_class = p.value;
            if (wc_cli_check_seed_class("--by-class", o->by_class) < 0) return -1;
            break;
        case O_WIDE_CSV: o->wide_csv = p.value; break;
        case O_PER_KERNEL: o->per_kernel = true; break;
        }
    }
    if (o->c.design) {
        wc_cli_error("compare: use --designs A,B,... (the first is the reference), not --design");
        return -1;
    }
    if (o->b.nd == 0) {
        wc_cli_error("compare: give --designs A,B,...");
        return -1;
    }
    if (o->b.ni == 0) {
        wc_cli_error("compare: give at least one --workload or --trace");
        return -1;
    }
    wc_err err = {{0}};
    if (wc_exp_metric_find(o->metric_name ? o->metric_name : "ipc", &o->metric, &err) < 0) {
        wc_cli_error("option --metric: %s", err.msg);
        return -1;
    }
    return 0;
}

/* Jobs in (input, design) order: job = input * nd + design. */
static wc_job *make_jobs(compare_cli *o)
{
    wc_job *jobs = calloc(o->b.ni * o->b.nd, sizeof *jobs);
    if (!jobs) {
        wc_cli_error("out of memory");
        return NULL;
    }
    for (size_t d = 0; d < o->b.nd; d++) {
        wc_config cfg;
        /* notes about the --config file once, not once per design */
        if (wc_cli_build_config(&o->c, o->b.designs[d], NULL, 0, &cfg, d == 0 && !o->c.quiet) < 0) {
            free(jobs);
            return NULL;
        }
        for (size_t w = 0; w < o->b.ni; w++) {
            wc_job *j = &jobs[w * o->b.nd + d];
            j->cfg = cfg;
            j->spec.workload = o->b.is_trace[w] ? NULL : o->b.inputs[w];
            j->spec.trace = o->b.is_trace[w] ? o->b.inputs[w] : NULL;
            j->spec.kernels = o->b.is_trace[w] ? o->b.kernels : NULL;
            j->spec.config_name = o->b.designs[d];
        }
    }
    return jobs;
}

static const wc_kstats *kernel_of(const wc_stats *st, const row *r, size_t k_index)
{
    if (!r->kernel[0]) return &st->total;
    if (k_index < st->n_kernels && st->kernels[k_index].id == r->kernel_id)
        return &st->kernels[k_index];
    return NULL; /* e.g. a run stopped by -max_cycles before this kernel */
}

static int build_table(compare_cli *o, const wc_job *jobs, table *t)
{
    size_t cap = o->b.ni;
    if (o->per_kernel) {
        cap = 0;
        for (size_t w = 0; w < o->b.ni; w++) cap += jobs[w * o->b.nd].stats.n_kernels;
    }
    t->rows = calloc(cap ? cap : 1, sizeof *t->rows);
    t->v = calloc((cap ? cap : 1) * o->b.nd, sizeof *t->v);
    t->norm = calloc((cap ? cap : 1) * o->b.nd, sizeof *t->norm);
    if (!t->rows || !t->v || !t->norm) {
        wc_cli_error("out of memory");
        return -1;
    }
    size_t *kidx = calloc(cap ? cap : 1, sizeof *kidx);
    if (!kidx) return -1;
    t->n = 0;
    for (size_t w = 0; w < o->b.ni; w++) {
        const wc_stats *ref = &jobs[w * o->b.nd].stats;
        size_t nk = o->per_kernel ? ref->n_kernels : 1;
        for (size_t k = 0; k < nk; k++) {
            row *r = &t->rows[t->n];
            r->input = w;
            if (o->per_kernel) {
                snprintf(r->kernel, sizeof r->kernel, "%s", ref->kernels[k].name);
                r->kernel_id = ref->kernels[k].id;
            }
            if (o->by_class && !o->b.is_trace[w])
                wc_workload_classes(o->b.inputs[w], o->by_class, r->classes, sizeof r->classes);
            kidx[t->n] = k;
            for (size_t d = 0; d < o->b.nd; d++) {
                const wc_kstats *ks = kernel_of(&jobs[w * o->b.nd + d].stats, r, k);
                t->v[t->n * o->b.nd + d] = ks ? wc_exp_metric_value(&o->metric, ks) : NAN;
            }
            t->n++;
        }
    }
    free(kidx);
    wc_exp_normalise(t->v, t->n, o->b.nd, t->norm);
    return 0;
}

/* ---- mean groups: "all", then each class label of --by-class, sorted ------ */

typedef struct group {
    char name[64];
    bool *use;
} group;

static int add_label(group **g, size_t *ng, const char *label, size_t nrows)
{
    for (size_t i = 0; i < *ng; i++)
        if (strcmp((*g)[i].name, label) == 0) return (int)i;
    group *r = realloc(*g, (*ng + 1) * sizeof *r);
    if (!r) return -1;
    *g = r;
    snprintf(r[*ng].name, sizeof r[*ng].name, "%s", label);
    r[*ng].use = calloc(nrows ? nrows : 1, sizeof(bool));
    if (!r[*ng].use) return -1;
    return (int)(*ng)++;
}

static int by_group_name(const void *a, const void *b)
{
    return strcmp(((const group *)a)->name, ((const group *)b)->name);
}

static group *make_groups(const compare_cli *o, const table *t, size_t *ng)
{
    group *g = NULL;
    *ng = 0;
    if (add_label(&g, ng, "all", t->n) < 0) return NULL;
    for (size_t r = 0; r < t->n; r++) g[0].use[r] = true;
    if (!o->by_class) return g;
    char none[64];
    snprintf(none, sizeof none, "%s:-", o->by_class); /* rows without a label of that seed */
    for (size_t r = 0; r < t->n; r++) {
        const char *p = t->rows[r].classes;
        if (!*p) {
            int i = add_label(&g, ng, none, t->n);
            if (i < 0) return NULL;
            g[i].use[r] = true;
        }
        while (*p) {
            char label[64];
            size_t len = strcspn(p, " ");
            snprintf(label, sizeof label, "%.*s", (int)len, p);
            int i = add_label(&g, ng, label, t->n);
            if (i < 0) return NULL;
            g[i].use[r] = true;
            p += len;
            while (*p == ' ') p++;
        }
    }
    qsort(g + 1, *ng - 1, sizeof *g, by_group_name);
    return g;
}

static void free_groups(group *g, size_t ng)
{
    for (size_t i = 0; g && i < ng; i++) free(g[i].use);
    free(g);
}

/* ---- writers -------------------------------------------------------------- */

static void row_name(const compare_cli *o, const row *r, char *buf, size_t n)
{
    if (r->kernel[0])
        snprintf(buf, n, "%s--%u:%s", o->b.inputs[r->input], r->kernel_id, r->kernel);
    else
        snprintf(buf, n, "%s", o->b.inputs[r->input]);
}

static void text_num(FILE *f, double x, int width, const char *fmt)
{
    if (isnan(x))
        fprintf(f, " %*s", width, "-");
    else
        fprintf(f, fmt, width, x);
}

static void write_text(const compare_cli *o, const table *t, const group *g, size_t ng, FILE *f)
{
    int w = 10;
    for (size_t d = 0; d < o->b.nd; d++)
        if ((int)strlen(o->b.designs[d]) > w) w = (int)strlen(o->b.designs[d]);
    char name[600];
    int nw = 24; /* the widest row name, within reason */
    for (size_t r = 0; r < t->n; r++) {
        row_name(o, &t->rows[r], name, sizeof name);
        if ((int)strlen(name) > nw) nw = strlen(name) > 72 ? 72 : (int)strlen(name);
    }
    fprintf(f, "metric: %s (%s), each design divided by %s; column 2: %s of %s\n", o->metric.name,
            o->metric.label, o->b.designs[0], o->metric.name, o->b.designs[0]);
    fprintf(f, "%-*s %14.14s", nw, "workload", o->metric.name);
    for (size_t d = 0; d < o->b.nd; d++) fprintf(f, " %*s", w, o->b.designs[d]);
    fputc('\n', f);
    for (size_t r = 0; r < t->n; r++) {
        row_name(o, &t->rows[r], name, sizeof name);
        fprintf(f, "%-*.*s", nw, nw, name);
        text_num(f, t->v[r * o->b.nd], 14, o->metric.is_float ? " %*.4f" : " %*.0f");
        for (size_t d = 0; d < o->b.nd; d++) text_num(f, t->norm[r * o->b.nd + d], w, " %*.3f");
        fputc('\n', f);
    }
    fputc('\n', f);
    for (size_t i = 0; i < ng; i++)
        for (int h = 0; h < 2; h++) {
            size_t cnt = 0, maxc = 0;
            double m[WC_CLI_MAX_DESIGNS];
            for (size_t d = 0; d < o->b.nd; d++) {
                m[d] = h ? wc_exp_hmean(t->norm, t->n, o->b.nd, d, g[i].use, &cnt)
                         : wc_exp_geomean(t->norm, t->n, o->b.nd, d, g[i].use, &cnt);
                if (cnt > maxc) maxc = cnt;
            }
            snprintf(name, sizeof name, "%s %s (%zu)", h ? "hmean" : "geomean", g[i].name, maxc);
            fprintf(f, "%-*s %14s", nw, name, "");
            for (size_t d = 0; d < o->b.nd; d++) text_num(f, m[d], w, " %*.3f");
            fputc('\n', f);
        }
}

static void json_num(FILE *f, double x)
{
    if (!isfinite(x))
        fputs("null", f);
    else
        fprintf(f, "%.9g", x);
}

static void write_json(const compare_cli *o, const table *t, const group *g, size_t ng, FILE *f)
{
    fprintf(f, "{\n  \"schema_version\": %d,\n  \"warpcache\": \"%s\",\n  \"metric\": ",
            COMPARE_SCHEMA_VERSION, WC_VERSION);
    wc_json_string(f, o->metric.name);
    fputs(",\n  \"reference\": ", f);
    wc_json_string(f, o->b.designs[0]);
    fputs(",\n  \"designs\": [", f);
    for (size_t d = 0; d < o->b.nd; d++) {
        if (d) fputs(", ", f);
        wc_json_string(f, o->b.designs[d]);
    }
    fputs("],\n  \"rows\": [", f);
    for (size_t r = 0; r < t->n; r++) {
        const row *rw = &t->rows[r];
        fputs(r ? ",\n    {\"workload\": " : "\n    {\"workload\": ", f);
        wc_json_string(f, o->b.inputs[rw->input]);
        if (rw->kernel[0]) {
            fprintf(f, ", \"kernel_id\": %u, \"kernel\": ", rw->kernel_id);
            wc_json_string(f, rw->kernel);
        }
        fputs(", \"classes\": ", f);
        wc_json_string(f, rw->classes);
        for (int k = 0; k < 2; k++) {
            fputs(k ? ", \"normalised\": [" : ", \"values\": [", f);
            for (size_t d = 0; d < o->b.nd; d++) {
                if (d) fputs(", ", f);
                json_num(f, (k ? t->norm : t->v)[r * o->b.nd + d]);
            }
            fputc(']', f);
        }
        fputc('}', f);
    }
    fputs("\n  ],\n  \"means\": [", f);
    for (size_t i = 0; i < ng; i++) {
        fputs(i ? ",\n    {\"group\": " : "\n    {\"group\": ", f);
        wc_json_string(f, g[i].name);
        for (int h = 0; h < 2; h++) {
            size_t cnt[WC_CLI_MAX_DESIGNS];
            double m[WC_CLI_MAX_DESIGNS];
            for (size_t d = 0; d < o->b.nd; d++)
                m[d] = h ? wc_exp_hmean(t->norm, t->n, o->b.nd, d, g[i].use, &cnt[d])
                         : wc_exp_geomean(t->norm, t->n, o->b.nd, d, g[i].use, &cnt[d]);
            fputs(h ? ", \"hmean\": [" : ", \"geomean\": [", f);
            for (size_t d = 0; d < o->b.nd; d++) {
                if (d) fputs(", ", f);
                json_num(f, m[d]);
            }
            fputc(']', f);
            if (!h) {
                fputs(", \"rows\": [", f);
                for (size_t d = 0; d < o->b.nd; d++) fprintf(f, "%s%zu", d ? ", " : "", cnt[d]);
                fputc(']', f);
            }
        }
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

static void csv_num(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.9g", x);
}

/* Long-lived layout: one line per table row and per mean, designs as columns
 * twice - normalised, then the absolute values ("NAME:value"). */
static void write_csv(const compare_cli *o, const table *t, const group *g, size_t ng, FILE *f)
{
    fputs("row,workload,kernel_id,kernel,classes,metric", f);
    for (size_t d = 0; d < o->b.nd; d++) {
        fputc(',', f);
        wc_csv_field(f, o->b.designs[d]);
    }
    for (size_t d = 0; d < o->b.nd; d++) {
        char h[300];
        snprintf(h, sizeof h, "%s:value", o->b.designs[d]);
        fputc(',', f);
        wc_csv_field(f, h);
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->n; r++) {
        const row *rw = &t->rows[r];
        fputs("data,", f);
        wc_csv_field(f, o->b.inputs[rw->input]);
        if (rw->kernel[0]) {
            fprintf(f, ",%u,", rw->kernel_id);
            wc_csv_field(f, rw->kernel);
        } else {
            fputs(",,", f);
        }
        fputc(',', f);
        wc_csv_field(f, rw->classes);
        fprintf(f, ",%s", o->metric.name);
        for (size_t d = 0; d < o->b.nd; d++) fputc(',', f), csv_num(f, t->norm[r * o->b.nd + d]);
        for (size_t d = 0; d < o->b.nd; d++) fputc(',', f), csv_num(f, t->v[r * o->b.nd + d]);
        fputc('\n', f);
    }
    for (size_t i = 0; i < ng; i++)
        for (int h = 0; h < 2; h++) {
            fprintf(f, "%s,", h ? "hmean" : "geomean");
            wc_csv_field(f, g[i].name);
            fprintf(f, ",,,,%s", o->metric.name);
            for (size_t d = 0; d < o->b.nd; d++) {
                size_t cnt;
                double m = h ? wc_exp_hmean(t->norm, t->n, o->b.nd, d, g[i].use, &cnt)
                             : wc_exp_geomean(t->norm, t->n, o->b.nd, d, g[i].use, &cnt);
                fputc(',', f);
                csv_num(f, m);
            }
            for (size_t d = 0; d < o->b.nd; d++) fputc(',', f);
            fputc('\n', f);
        }
}

/* Accel-Sim get_stats.py layout: for each statistic a line of 100 dashes, the
 * statistic's name, "APPS,<design>...", then one line per "workload--kernel"
 * with the absolute value per design ("NA" when missing).  A kernel name that
 * repeats within a workload gets "--N" (its 0-based instance), as get_stats.py
 * does with --kernel_instance. */
static void write_wide_csv(const compare_cli *o, const wc_job *jobs, FILE *f)
{
    size_t nm, nr = 0;
    const wc_metric *m = wc_metrics(&nm), *r = NULL;
    if (o->b.ni && jobs[0].stats.total.rd_on) r = wc_rd_metrics(&nr); /* -l1_rd_hist's too */
    char dashes[101];
    memset(dashes, '-', 100);
    dashes[100] = 0;
    for (size_t s = 0; s < nm + nr; s++) {
        const wc_metric *x = s < nm ? &m[s] : &r[s - nm];
        fputs(dashes, f);
        for (size_t d = 0; d < o->b.nd; d++) fputc(',', f);
        fprintf(f, "\n%s", x->key);
        for (size_t d = 0; d < o->b.nd; d++) fputc(',', f);
        fputs("\nAPPS", f);
        for (size_t d = 0; d < o->b.nd; d++) {
            fputc(',', f);
            wc_csv_field(f, o->b.designs[d]);
        }
        fputc('\n', f);
        for (size_t w = 0; w < o->b.ni; w++) {
            const wc_stats *ref = &jobs[w * o->b.nd].stats;
            for (size_t k = 0; k < ref->n_kernels; k++) {
                unsigned inst = 0, total = 0;
                for (size_t q = 0; q < ref->n_kernels; q++)
                    if (strcmp(ref->kernels[q].name, ref->kernels[k].name) == 0) {
                        total++;
                        if (q < k) inst++;
                    }
                char name[800];
                if (total > 1)
                    snprintf(name, sizeof name, "%s--%s--%u", o->b.inputs[w], ref->kernels[k].name,
                             inst);
                else
                    snprintf(name, sizeof name, "%s--%s", o->b.inputs[w], ref->kernels[k].name);
                wc_csv_field(f, name);
                for (size_t d = 0; d < o->b.nd; d++) {
                    const wc_stats *st = &jobs[w * o->b.nd + d].stats;
                    fputc(',', f);
                    if (k < st->n_kernels && st->kernels[k].id == ref->kernels[k].id)
                        wc_json_number(f, x->get(&st->kernels[k]), x->is_float);
                    else
                        fputs("NA", f);
                }
                fputc('\n', f);
            }
        }
    }
}

enum { OUT_JSON, OUT_CSV, OUT_WIDE, OUT__COUNT };

/* Writes every output into the set opened before the simulations. */
static int write_outputs(compare_cli *o, const wc_job *jobs, wc_out_set *out)
{
    table t = {0};
    size_t ng = 0;
    group *g = NULL;
    int rc = WC_EXIT_FAIL;
    if (build_table(o, jobs, &t) < 0 || !(g = make_groups(o, &t, &ng))) goto done;
    bool stdout_taken = (o->c.json && strcmp(o->c.json, "-") == 0) ||
                        (o->c.csv && strcmp(o->c.csv, "-") == 0) ||
                        (o->wide_csv && strcmp(o->wide_csv, "-") == 0);
    if (!stdout_taken) write_text(o, &t, g, ng, stdout);
    FILE *f;
    if ((f = wc_out_set_file(out, OUT_JSON))) write_json(o, &t, g, ng, f);
    if ((f = wc_out_set_file(out, OUT_CSV))) write_csv(o, &t, g, ng, f);
    if ((f = wc_out_set_file(out, OUT_WIDE))) write_wide_csv(o, jobs, f);
    rc = wc_out_set_commit(out);
done:
    free_groups(g, ng);
    free(t.rows);
    free(t.v);
    free(t.norm);
    return rc;
}

static void free_cli(compare_cli *o)
{
    wc_cli_batch_free(&o->b);
}

int wc_cmd_compare(int argc, char **argv)
{
    compare_cli o;
    memset(&o, 0, sizeof o);
    wc_cli_common_init(&o.c);
    int rc = WC_EXIT_USAGE;
    wc_job *jobs = NULL;
    size_t n = 0;
    const char *paths[OUT__COUNT];
    wc_out_set outs;
    bool outs_open = false;
    if (parse(&o, argc, argv) < 0 || !(jobs = make_jobs(&o)) ||
        wc_cli_check_inputs(o.b.inputs, o.b.is_trace, o.b.ni, o.b.kernels) < 0)
        goto out;
    n = o.b.ni * o.b.nd;
    /* opened before the simulations: a path that cannot be written fails now */
    paths[OUT_JSON] = o.c.json;
    paths[OUT_CSV] = o.c.csv;
    paths[OUT_WIDE] = o.wide_csv;
    static const char *const opts[OUT__COUNT] = {"--json", "--csv", "--wide-csv"};
    if (wc_cli_batch_check_outputs(&o.c, &o.b, paths, opts, OUT__COUNT) < 0 ||
        wc_out_set_open(&outs, paths, OUT__COUNT) < 0)
        goto out;
    outs_open = true;
    if ((rc = wc_cli_run_jobs(jobs, n, o.b.threads, "compare", &o.c)) != WC_EXIT_OK) goto out;
    for (size_t i = 0; i < n && !o.c.quiet; i++)
        if (jobs[i].stats.truncated)
            wc_cli_error("%s (design %s): stopped by -max_cycles in kernel %s",
                         o.b.inputs[i / o.b.nd], o.b.designs[i % o.b.nd],
                         jobs[i].stats.truncated_in);
    rc = write_outputs(&o, jobs, &outs);
out:
    if (outs_open) wc_out_set_abort(&outs); /* after a failure: the temporary files go */
    wc_batch_free(jobs, n);
    free(jobs);
    free_cli(&o);
    return rc;
}
