/*
 * cmd_run.c - `warpcache run`: simulate a built-in workload (or a whole
 * suite) or a trace on one configuration and report statistics.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "warpcache/experiment.h"
#include "warpcache/workloads.h"

static const char run_help[] =
    "usage: warpcache run (--workload NAME[:K=V,...] | --trace PATH) [options]\n"
    "\n"
    "Simulates every kernel of the workload or trace on the configured GPU and prints\n"
    "statistics per kernel and in total (cycles, IPC, L1/L2/interconnect/DRAM).\n"
    "\n"
    "%s"
    "\n"
    "Output: an aligned table on stdout, unless --json - or --csv - takes stdout.\n"
    "Exit status: 0 ok, 2 bad input (option, configuration, workload, trace, an output that\n"
    "cannot be created or is an input), 1 an internal failure or a write that failed once\n"
    "the output was open, e.g. a full disk (outputs are replaced whole or not at all).\n";

enum { O_WORKLOAD = 1, O_TRACE, O_KERNELS, O_TIMELINE };

static const wc_opt run_table[] = {
    {O_WORKLOAD, 'w', "workload", "NAME",
     "built-in workload ('warpcache list'), e.g. micro/stream:n=65536;\n"
     "a suite name (polybench, rodinia, ...) runs every workload in it,\n"
     "a suite with parameters (polybench:scale=0.125) each with them",
     0},
    {O_TRACE, 't', "trace", "PATH", "trace: kernelslist.g, .traceg[.xz|.gz|.zst], .trc or .wct", 0},
    {O_KERNELS, 0, "kernels", "SEL", "with --trace: kernel ids (1,3-5) or a name pattern", 0},
    {O_TIMELINE, 0, "timeline-csv", "FILE",
     "the timeline controllers recorded: workload,cycle,sm,key,value", 0},
    {0},
};
static const wc_opt *const run_tables[] = {run_table, wc_cli_common_opts, wc_cli_progress_opts,
                                           NULL};

typedef struct run_opts {
    wc_cli_common c;
    const char *workload, *trace, *kernels, *timeline_csv;
} run_opts;

static int parse(run_opts *o, int argc, char **argv)
{
    wc_opts p;
    wc_opts_init(&p, "run", run_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        int rc = wc_cli_common_take(&o->c, &p, id);
        if (rc == 0) rc = wc_cli_progress_take(&o->c.progress, &p, id);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        switch (id) {
        case WC_OPT_HELP: wc_opts_print_help(run_help, run_tables); return 1;
        case WC_OPT_BAD: return -1;
        case WC_OPT_ARG:
            wc_cli_error("run: unexpected argument '%s' (give the workload with --workload)",
                         p.value);
            return -1;
        case O_WORKLOAD: o->workload = p.value; break;
        case O_TRACE: o->trace = p.value; break;
        case O_KERNELS: o->kernels = p.value; break;
        case O_TIMELINE: o->timeline_csv = p.value; break;
        }
    }
    if (!o->workload == !o->trace) {
        wc_cli_error("run: give exactly one of --workload NAME or --trace PATH");
        return -1;
    }
    if (o->kernels && !o->trace) {
        wc_cli_error("run: --kernels applies to --trace only");
        return -1;
    }
    const char *outs[] = {o->c.json, o->c.csv, o->timeline_csv};
    const char *names[] = {"--json", "--csv", "--timeline-csv"}, *ins[] = {o->trace};
    return wc_out_check_io(&o->c, ins, 1, outs, names, 3);
}

/* The workloads to run: one, or every member of a suite, with the suite's
 * parameters ("polybench:scale=0.125"), as compare and sweep expand them.
 * Anything else is run as given, so that opening it reports what is wrong
 * with it. */
static char **expand(const char *spec, size_t *n)
{
    char **names = NULL;
    wc_err err = {{0}};
    *n = 0;
    if (wc_expand_workloads(spec, &names, n, &err) == 0 && *n > 0) return names;
    for (size_t i = 0; i < *n; i++) free(names[i]);
    free(names);
    names = malloc(sizeof *names);
    if (!names || !(names[0] = strdup(spec))) {
        free(names);
        return NULL;
    }
    *n = 1;
    return names;
}

wc_source *wc_cli_open_trace(const char *path, const char *kernels, wc_err *err);

/* One simulation through the experiment library (the path compare, sweep
 * and validate take too), with the per-kernel progress line. */
static int simulate(run_opts *o, const char *what, bool is_trace, wc_stats *st)
{
    wc_err err = {{0}};
    /* traces through the CLI's opener: it announces grids that will take long */
    wc_source *src = is_trace ? wc_cli_open_trace(what, o->kernels, &err) : NULL;
    if (is_trace && !src) {
        wc_cli_error("%s", err.msg);
        return wc_cli_status_of(&err);
    }
    wc_progress prog;
    wc_progress_init(&prog, what, &o->c.progress, o->c.quiet);
    char config_name[600];
    snprintf(config_name, sizeof config_name, "%s%s%s",
             o->c.config_path ? o->c.config_path : "built-in Fermi baseline (fermi-16k)",
             o->c.design ? " + design " : "", o->c.design ? o->c.design : "");
    wc_run_spec spec = {.workload = is_trace ? NULL : what,
                        .trace = is_trace ? what : NULL,
                        .kernels = o->kernels,
                        .config_name = config_name,
                        .progress = wc_progress_cb,
                        .progress_ctx = &prog,
                        .source = src};
    wc_progress_count_kernels(&prog, &spec, o->c.cfg.seed);
    int rc = wc_run_simulation(&o->c.cfg, &spec, st, &err);
    wc_progress_end(&prog);
    if (rc < 0) {
        wc_cli_error("%s", err.msg);
        return wc_cli_status_of(&err); /* a deadlock is internal: 1 */
    }
    if (st->truncated && !o->c.quiet)
        wc_cli_error("%s: stopped after -max_cycles=%llu cycles in kernel %s; the statistics "
                     "cover the cycles simulated",
                     what, (unsigned long long)o->c.cfg.max_cycles, st->truncated_in);
    return WC_EXIT_OK;
}

static void put_json(const void *runs_v, const void *n_v, FILE *f)
{
    const wc_stats *runs = runs_v;
    size_t n = *(const size_t *)n_v;
    if (n == 1) {
        wc_stats_write_json(&runs[0], f);
        return;
    }
    fputs("[\n", f);
    for (size_t i = 0; i < n; i++) {
        if (i) fputs(",\n", f);
        wc_stats_write_json(&runs[i], f);
    }
    fputs("]\n", f);
}

static void put_csv(const void *runs_v, const void *n_v, FILE *f)
{
    const wc_stats *runs = runs_v;
    size_t n = *(const size_t *)n_v;
    for (size_t i = 0; i < n; i++) wc_stats_write_csv_run(&runs[i], f, i == 0);
}

/* Outputs of the set run opens (before the simulation). */
enum { OUT_JSON, OUT_CSV, OUT_TIMELINE, OUT__COUNT };

static int report(run_opts *o, wc_out_set *out, wc_stats *runs, size_t n)
{
    bool text_to_stdout = !(o->c.json && strcmp(o->c.json, "-") == 0) &&
                          !(o->c.csv && strcmp(o->c.csv, "-") == 0) &&
                          !(o->timeline_csv && strcmp(o->timeline_csv, "-") == 0);
    if (text_to_stdout)
        for (size_t i = 0; i < n; i++) {
            if (i) fputc('\n', stdout);
            wc_stats_write_text(&runs[i], stdout);
        }
    FILE *f;
    if ((f = wc_out_set_file(out, OUT_JSON))) put_json(runs, &n, f);
    if ((f = wc_out_set_file(out, OUT_CSV))) put_csv(runs, &n, f);
    if ((f = wc_out_set_file(out, OUT_TIMELINE)))
        for (size_t i = 0; i < n; i++) wc_stats_write_timeline_csv(&runs[i], f, i == 0);
    return wc_out_set_commit(out);
}

int wc_cmd_run(int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    wc_cli_common_init(&o.c);
    int prc = parse(&o, argc, argv);
    if (prc != 0) return prc > 0 ? WC_EXIT_OK : WC_EXIT_USAGE;
    if (wc_cli_load_config(&o.c) < 0) return WC_EXIT_USAGE;
    size_t n = 1;
    char **names = NULL;
    if (o.workload && !(names = expand(o.workload, &n))) return WC_EXIT_FAIL;
    /* opened before the simulation: a path that cannot be written fails now */
    const char *paths[OUT__COUNT] = {o.c.json, o.c.csv, o.timeline_csv};
    wc_out_set out;
    if (wc_out_set_open(&out, paths, OUT__COUNT) < 0) {
        for (size_t i = 0; names && i < n; i++) free(names[i]);
        free(names);
        return WC_EXIT_USAGE;
    }
    wc_stats *runs = calloc(n, sizeof *runs);
    int rc = runs ? WC_EXIT_OK : WC_EXIT_FAIL;
    for (size_t i = 0; i < n && rc == WC_EXIT_OK; i++) {
        wc_stats_init(&runs[i]);
        rc = simulate(&o, names ? names[i] : o.trace, names == NULL, &runs[i]);
    }
    if (rc == WC_EXIT_OK) rc = report(&o, &out, runs, n);
    wc_out_set_abort(&out); /* after a failure: the temporary files go */
    for (size_t i = 0; runs && i < n; i++) wc_stats_free(&runs[i]);
    free(runs);
    for (size_t i = 0; names && i < n; i++) free(names[i]);
    free(names);
    return rc;
}
