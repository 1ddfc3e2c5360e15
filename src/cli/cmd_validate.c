/*
 * cmd_validate.c - `warpcache validate`: runs seed 003's reuse-distance model
 * and the cycle simulator on the same workloads and configuration and
 * compares their L1 load miss rates kernel by kernel, with the mean absolute
 * error at the end (with --hw, cmd_validate_hw.c compares the simulator
 * with a real GPU's counters instead).  The model sees every SM's stream (core=all) with the
 * simulator's SM count, so both describe the same per-SM L1s.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "warpcache/model.h"
#include "warpcache/workloads.h"

static const char validate_help[] =
    "usage: warpcache validate --workload NAME [--workload NAME ...] [options]\n"
    "\n"
    "Simulates each workload and runs the reuse-distance model (seed 003) on it with the\n"
    "same configuration, then prints per kernel the simulator's L1 load miss rate, the\n"
    "model's, and their absolute difference, and the mean absolute error over all kernels.\n"
    "\n"
    "%s"
    "\n"
    "Exit status: 0 ok, 2 bad input (also an output that cannot be created), 1 an internal\n"
    "failure or a write that failed once the output was open (a full disk).\n";

enum { O_WORKLOAD = 1, O_MODEL, O_HW };
static const wc_opt validate_table[] = {
    {O_WORKLOAD, 'w', "workload", "NAME",
     "built-in workload (repeatable); a suite name adds all of its members,\n"
     "a suite with parameters (polybench:scale=0.125) each with them",
     0},
    {O_MODEL, 'm', NULL, "NAME=VALUE",
     "model option (see 'warpcache model --help'); default core=all", WC_OPT_SETTING},
    {O_HW, 0, "hw", "FILE.csv",
     "instead: the simulator against Nsight Compute counters of a real\n"
     "GPU (see 'warpcache validate --hw --help')",
     0},
    {0},
};
static const wc_opt *const validate_tables[] = {validate_table, wc_cli_common_opts, NULL};

typedef struct row {
    char workload[256], kernel[256];
    uint32_t id;
    double sim, model;
} row;

typedef struct validate_cli {
    wc_cli_common c;
    wc_model_opts mo;
    char *names[256]; /* workload specs, malloc'd */
    size_t n_names;
    row *rows;
    size_t n_rows, cap;
} validate_cli;

/* A workload, or every member of a suite (with the suite's parameters:
 * "polybench:scale=0.125"), as compare expands them; anything else is kept
 * as given, so that opening it reports what is wrong with it. */
static int add_workload(validate_cli *v, const char *spec)
{
    char **names = NULL;
    size_t n = 0;
    wc_err err = {{0}};
    if (wc_expand_workloads(spec, &names, &n, &err) < 0 || n == 0) {
        for (size_t i = 0; i < n; i++) free(names[i]);
        free(names);
        names = NULL;
        n = 0;
    }
    bool ok = true;
    for (size_t i = 0; i < (names ? n : 1); i++) {
        char *s = names ? names[i] : strdup(spec);
        if (!s || v->n_names == 256) {
            free(s);
            ok = false;
            continue;
        }
        v->names[v->n_names++] = s;
    }
    free(names);
    if (!ok) wc_cli_error("validate: too many workloads");
    return ok ? 0 : -1;
}

/* -m NAME=VALUE: an option of the model. */
static int take_model_option(validate_cli *v, const char *kv)
{
    const char *eq = strchr(kv, '=');
    char name[64];
    wc_err err = {{0}};
    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof name) {
        wc_cli_error("validate: -m %s: expected NAME=VALUE", kv);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)(eq - kv), kv);
    int r = wc_model_opts_set(&v->mo, name, eq + 1, &err);
    if (r != 0) {
        wc_cli_error("validate: -m %s: %s", kv, r < 0 ? err.msg : "unknown model option");
        return -1;
    }
    return 0;
}

static int parse(validate_cli *v, int argc, char **argv)
{
    wc_opts p;
    wc_opts_init(&p, "validate", validate_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        int rc = wc_cli_common_take(&v->c, &p, id);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        switch (id) {
        case WC_OPT_HELP: wc_opts_print_help(validate_help, validate_tables); return 1;
        case WC_OPT_BAD: return -1;
        case WC_OPT_ARG:
            wc_cli_error("validate: unexpected argument '%s' (give workloads with --workload)",
                         p.value);
            return -1;
        case O_WORKLOAD:
            if (add_workload(v, p.value) < 0) return -1;
            break;
        case O_MODEL:
            if (take_model_option(v, p.value) < 0) return -1;
            break;
        }
    }
    if (v->n_names == 0) {
        wc_cli_error("validate: give at least one --workload");
        return -1;
    }
    const char *outs[] = {v->c.json, v->c.csv}, *names[] = {"--json", "--csv"};
    return wc_out_check_io(&v->c, NULL, 0, outs, names, 2);
}

static row *new_row(validate_cli *v)
{
    if (v->n_rows == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 32;
        row *r = realloc(v->rows, cap * sizeof *r);
        if (!r) return NULL;
        v->rows = r;
        v->cap = cap;
    }
    row *r = &v->rows[v->n_rows++];
    memset(r, 0, sizeof *r);
    return r;
}

/* Simulates and models one workload, appending a row per kernel.  The exit
 * status on failure (1 internal, 2 bad input), 0 on success. */
static int compare(validate_cli *v, const char *name)
{
    wc_err err = {{0}};
    wc_stats st;
    wc_stats_init(&st);
    wc_model_result mr;
    memset(&mr, 0, sizeof mr);
    int rc = -1;
    /* the simulator through the experiment library's one path, then the model
     * on a fresh copy of the same source */
    wc_run_spec spec = {.workload = name};
    wc_source *src = NULL;
    if (wc_run_simulation(&v->c.cfg, &spec, &st, &err) == 0 &&
        (src = wc_run_open_source(&spec, v->c.cfg.seed, &err)) &&
        wc_model_run(&v->mo, &v->c.cfg, src, WC_RUN_FULL, &mr, NULL, NULL, &err) == 0)
        rc = 0;
    if (rc == 0 && mr.n_kernels != st.n_kernels) {
        wc_errf(&err, "%s: the model saw %zu kernels, the simulator %zu", name, mr.n_kernels,
                st.n_kernels);
        rc = -1;
    }
    for (size_t k = 0; rc == 0 && k < st.n_kernels; k++) {
        row *r = new_row(v);
        if (!r) {
            wc_errf(&err, "out of memory");
            rc = -1;
            break;
        }
        snprintf(r->workload, sizeof r->workload, "%s", name);
        snprintf(r->kernel, sizeof r->kernel, "%s", st.kernels[k].name);
        r->id = st.kernels[k].id;
        r->sim = wc_kstats_l1_read_miss_rate(&st.kernels[k]);
        r->model = wc_model_miss_rate(&mr.kernels[k]);
    }
    if (rc < 0) wc_cli_error("%s", err.msg);
    wc_source_destroy(src);
    wc_stats_free(&st);
    wc_model_result_free(&mr);
    return rc < 0 ? wc_cli_status_of(&err) : WC_EXIT_OK;
}

static double mean_abs_error(const validate_cli *v)
{
    double sum = 0;
    for (size_t i = 0; i < v->n_rows; i++) sum += fabs(v->rows[i].sim - v->rows[i].model);
    return v->n_rows ? sum / (double)v->n_rows : 0.0;
}

static void write_text(const void *v_, const void *unused, FILE *f)
{
    const validate_cli *v = v_;
    fprintf(f, "%-28s %-4s %-28s %10s %10s %9s\n", "workload", "id", "kernel", "simulator", "model",
            "|diff|");
    for (size_t i = 0; i < v->n_rows; i++) {
        const row *r = &v->rows[i];
        fprintf(f, "%-28.28s %-4u %-28.28s %9.2f%% %9.2f%% %8.2f\n", r->workload, r->id, r->kernel,
                100 * r->sim, 100 * r->model, 100 * fabs(r->sim - r->model));
    }
    fprintf(f,
            "\nmean absolute error: %.2f percentage points over %zu kernels (L1 load miss rate)\n",
            100 * mean_abs_error(v), v->n_rows);
}

static void write_json(const void *v_, const void *unused, FILE *f)
{
    const validate_cli *v = v_;
    fprintf(f, "{\n  \"schema_version\": %d,\n  \"kernels\": [", WC_STATS_SCHEMA_VERSION);
    for (size_t i = 0; i < v->n_rows; i++) {
        const row *r = &v->rows[i];
        fputs(i ? ",\n    {\"workload\": " : "\n    {\"workload\": ", f);
        wc_json_string(f, r->workload);
        fputs(", \"kernel\": ", f);
        wc_json_string(f, r->kernel);
        fprintf(f, ", \"id\": %u, \"simulator_miss_rate\": %.9g, \"model_miss_rate\": %.9g}", r->id,
                r->sim, r->model);
    }
    fprintf(f, "\n  ],\n  \"mean_absolute_error\": %.9g\n}\n", mean_abs_error(v));
}

static void write_csv(const void *v_, const void *unused, FILE *f)
{
    const validate_cli *v = v_;
    fputs("workload,kernel,id,simulator_miss_rate,model_miss_rate,abs_diff\n", f);
    for (size_t i = 0; i < v->n_rows; i++) {
        const row *r = &v->rows[i];
        wc_csv_field(f, r->workload);
        fputc(',', f);
        wc_csv_field(f, r->kernel);
        fprintf(f, ",%u,%.9g,%.9g,%.9g\n", r->id, r->sim, r->model, fabs(r->sim - r->model));
    }
}

int wc_cmd_validate(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        /* against a real GPU's counters: cmd_validate_hw.c */
        if (strcmp(argv[i], "--hw") == 0 || strncmp(argv[i], "--hw=", 5) == 0)
            return wc_cmd_validate_hw(argc, argv);
    validate_cli v;
    memset(&v, 0, sizeof v);
    wc_cli_common_init(&v.c);
    wc_model_opts_defaults(&v.mo);
    v.mo.cores = 0; /* the configuration's SMs ... */
    v.mo.core = -1; /* ... every one of them, like the simulator */
    int rc = parse(&v, argc, argv);
    if (rc != 0) {
        /* the workloads taken before the option that ended the parse */
        for (size_t i = 0; i < v.n_names; i++) free(v.names[i]);
        return rc > 0 ? WC_EXIT_OK : WC_EXIT_USAGE;
    }
    rc = WC_EXIT_USAGE;
    const char *paths[] = {v.c.json, v.c.csv};
    wc_out_set outs; /* opened first: a path that cannot be written fails now */
    if (wc_cli_load_config(&v.c) < 0 || wc_out_set_open(&outs, paths, 2) < 0) goto out;
    for (size_t i = 0; i < v.n_names; i++)
        if ((rc = compare(&v, v.names[i])) != WC_EXIT_OK) {
            wc_out_set_abort(&outs);
            goto out;
        }
    bool stdout_taken =
        (v.c.json && strcmp(v.c.json, "-") == 0) || (v.c.csv && strcmp(v.c.csv, "-") == 0);
    if (!stdout_taken) write_text(&v, NULL, stdout);
    FILE *f;
    if ((f = wc_out_set_file(&outs, 0))) write_json(&v, NULL, f);
    if ((f = wc_out_set_file(&outs, 1))) write_csv(&v, NULL, f);
    rc = wc_out_set_commit(&outs);
out:
    for (size_t i = 0; i < v.n_names; i++) free(v.names[i]);
    free(v.rows);
    return rc;
}
