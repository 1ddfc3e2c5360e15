/*
 * cmd_run.c - `warpcache run`: simulate a built-in workload (or a whole
 * suite) or a trace on one configuration and report statistics.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "warpcache/workloads.h"

static const char run_help[] =
    "usage: warpcache run (--workload NAME[:K=V,...] | --trace PATH) [options]\n"
    "\n"
    "Simulates every kernel of the workload or trace on the configured GPU and prints\n"
    "statistics per kernel and in total (cycles, IPC, L1/L2/interconnect/DRAM).\n"
    "\n"
    "  -w, --workload NAME  built-in workload ('warpcache list'), e.g. micro/stream:n=65536;\n"
    "                       a suite name (polybench, rodinia, ...) runs every workload in it\n"
    "  -t, --trace PATH     trace: kernelslist.g, .traceg[.xz|.gz|.zst], .trc or .wct\n"
    "  --kernels SEL        with --trace: kernel ids (1,3-5) or a name pattern\n"
    "  --timeline-csv FILE  the timeline controllers recorded: "
    "workload,cycle,sm,key,value\n" WC_CLI_PROGRESS_HELP "%s"
    "\n"
    "Output: an aligned table on stdout, unless --json - or --csv - takes stdout.\n"
    "Exit status: 0 ok, 2 bad input (option, configuration, workload, trace, an output that\n"
    "cannot be created or is an input), 1 an internal failure or a write that failed once\n"
    "the output was open, e.g. a full disk (outputs are replaced whole or not at all).\n";

typedef struct run_opts {
    wc_cli_common c;
    const char *workload, *trace, *kernels, *timeline_csv;
} run_opts;

static int parse(run_opts *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int rc = wc_cli_common_arg(&o->c, argc, argv, &i);
        if (rc == 0) rc = wc_cli_progress_arg(&o->c.progress, argc, argv, &i);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            printf(run_help, wc_cli_common_help);
            return 1;
        }
        if ((strcmp(a, "--workload") == 0 || strcmp(a, "-w") == 0) && i + 1 < argc) {
            o->workload = argv[++i];
        } else if ((strcmp(a, "--trace") == 0 || strcmp(a, "-t") == 0) && i + 1 < argc) {
            o->trace = argv[++i];
        } else if (strcmp(a, "--kernels") == 0 && i + 1 < argc) {
            o->kernels = argv[++i];
        } else if (strcmp(a, "--timeline-csv") == 0 && i + 1 < argc) {
            o->timeline_csv = argv[++i];
        } else {
            wc_cli_error("run: unknown or incomplete option '%s' (warpcache run --help)", a);
            return -1;
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

/* Names of the workloads to run: one, or every member of a suite. */
static const char **expand(const char *spec, size_t *n)
{
    size_t count;
    const wc_workload *const *all = wc_workload_list(&count);
    const char **names = calloc(count + 1, sizeof *names);
    if (!names) return NULL;
    *n = 0;
    if (!strchr(spec, ':') && !wc_workload_find(spec))
        for (size_t i = 0; i < count; i++)
            if (strcmp(all[i]->suite, spec) == 0) names[(*n)++] = all[i]->name;
    if (*n == 0) names[(*n)++] = spec;
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
    const char **names = NULL;
    if (o.workload && !(names = expand(o.workload, &n))) return WC_EXIT_FAIL;
    /* opened before the simulation: a path that cannot be written fails now */
    const char *paths[OUT__COUNT] = {o.c.json, o.c.csv, o.timeline_csv};
    wc_out_set out;
    if (wc_out_set_open(&out, paths, OUT__COUNT) < 0) {
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
    free(names);
    return rc;
}
