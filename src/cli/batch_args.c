/*
 * batch_args.c - the options that `compare` and `sweep` share: which designs
 * (--designs A,B,...), which inputs (--workload names or whole suites,
 * --trace paths, --kernels), and how many simulations at once (-j).  Both
 * commands build a grid of independent simulations over these; keeping the
 * parsing here means the two accept exactly the same spellings and limits.
 * wc_cli_run_jobs runs such a grid with one progress line and reports the
 * first failed simulation in job order (compare, sweep's callers, oracle).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "warpcache/experiment.h"

/* Appends one --workload (a name, or a suite expanded to its members) or one
 * --trace path. */
static int add_input(wc_cli_batch *b, const char *cmd, const char *arg, bool trace)
{
    char **names = NULL;
    size_t n = 0;
    wc_err err = {{0}};
    if (trace) {
        names = malloc(sizeof *names);
        if (!names || !(names[0] = strdup(arg))) {
            free(names);
            wc_cli_error("out of memory");
            return -1;
        }
        n = 1;
    } else if (wc_expand_workloads(arg, &names, &n, &err) < 0) {
        wc_cli_error("%s: %s", cmd, err.msg);
        free(names);
        return -1;
    }
    char **in = realloc(b->inputs, (b->ni + n) * sizeof *in);
    if (in) b->inputs = in;
    bool *tr = realloc(b->is_trace, (b->ni + n) * sizeof *tr);
    if (tr) b->is_trace = tr;
    if (!in || !tr || b->ni + n > WC_CLI_MAX_INPUTS) {
        for (size_t i = 0; i < n; i++) free(names[i]);
        free(names);
        if (in && tr)
            wc_cli_error("%s: more than %d workloads", cmd, WC_CLI_MAX_INPUTS);
        else
            wc_cli_error("out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        b->inputs[b->ni] = names[i];
        b->is_trace[b->ni++] = trace;
    }
    free(names);
    return 0;
}

/* --designs A,B,...: names or .config paths, at least one. */
static int split_designs(wc_cli_batch *b, const char *arg)
{
    snprintf(b->designs_arg, sizeof b->designs_arg, "%s", arg);
    b->nd = 0;
    for (char *save = NULL, *t = strtok_r(b->designs_arg, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        if (b->nd == WC_CLI_MAX_DESIGNS) {
            wc_cli_error("option --designs: more than %d designs", WC_CLI_MAX_DESIGNS);
            return -1;
        }
        b->designs[b->nd++] = t;
    }
    if (b->nd == 0) {
        wc_cli_error("option --designs: give at least one design");
        return -1;
    }
    return 0;
}

int wc_cli_batch_arg(wc_cli_batch *b, const char *cmd, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    bool has = *i + 1 < argc;
    if (strcmp(a, "--designs") == 0 && has) return split_designs(b, argv[++*i]) < 0 ? -1 : 1;
    if ((strcmp(a, "--workload") == 0 || strcmp(a, "-w") == 0) && has)
        return add_input(b, cmd, argv[++*i], false) < 0 ? -1 : 1;
    if ((strcmp(a, "--trace") == 0 || strcmp(a, "-t") == 0) && has)
        return add_input(b, cmd, argv[++*i], true) < 0 ? -1 : 1;
    if (strcmp(a, "--kernels") == 0 && has) {
        b->kernels = argv[++*i];
        return 1;
    }
    if (strcmp(a, "-j") == 0 && has) return wc_cli_parse_jobs(argv[++*i], &b->threads) < 0 ? -1 : 1;
    return 0;
}

void wc_cli_batch_free(wc_cli_batch *b)
{
    for (size_t i = 0; i < b->ni; i++) free(b->inputs[i]);
    free(b->inputs);
    free(b->is_trace);
    b->inputs = NULL;
    b->is_trace = NULL;
    b->ni = 0;
}

int wc_cli_run_jobs(wc_job *jobs, size_t n, unsigned threads, const char *label, bool quiet)
{
    wc_batch_progress prog;
    wc_batch_progress_init(&prog, label, quiet);
    wc_batch_opts bo = {threads, wc_batch_progress_cb, &prog, NULL, NULL};
    wc_err err = {{0}};
    int brc = wc_batch_run(jobs, n, &bo, &err);
    wc_batch_progress_end(&prog);
    if (brc < 0) {
        wc_cli_error("%s", err.msg);
        return WC_EXIT_FAIL;
    }
    /* The first failure in job order, whatever finished first. */
    for (size_t i = 0; i < n; i++)
        if (jobs[i].rc < 0) {
            wc_cli_error("%s (%s): %s", jobs[i].spec.workload ? jobs[i].spec.workload : "trace",
                         jobs[i].spec.config_name ? jobs[i].spec.config_name : "baseline",
                         jobs[i].err.msg);
            return wc_cli_status_of(&jobs[i].err); /* a deadlock is internal: 1 */
        }
    return WC_EXIT_OK;
}
