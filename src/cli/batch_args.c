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
#include "warpcache/workloads.h"

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

/* The known designs, ", "-separated, for messages. */
static void known_designs(char *buf, size_t cap)
{
    wc_cli_dirs d;
    wc_design_info *all = NULL;
    size_t n = 0, used = 0;
    wc_err err = {{0}};
    wc_cli_design_dirs(&d);
    buf[0] = '\0';
    if (wc_design_list(d.dirs, d.n, &all, &n, &err) == 0)
        for (size_t i = 0; i < n && used + strlen(all[i].name) + 3 < cap; i++)
            used += (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", all[i].name);
    free(all);
}

/* --designs A,B,...: names or .config paths, at least one.  Every comma
 * separates two names: an empty one ("base,", ",base", "a,,b") is a mistake
 * (a design lost to a typo), not something to skip. */
static int split_designs(wc_cli_batch *b, const char *arg)
{
    if (strlen(arg) >= sizeof b->designs_arg) {
        wc_cli_error("option --designs: the list is longer than %zu characters",
                     sizeof b->designs_arg - 1);
        return -1;
    }
    snprintf(b->designs_arg, sizeof b->designs_arg, "%s", arg);
    b->nd = 0;
    for (char *t = b->designs_arg, *comma; t; t = comma ? comma + 1 : NULL) {
        comma = strchr(t, ',');
        if (comma) *comma = '\0';
        if (!*t) {
            char known[800];
            known_designs(known, sizeof known);
            wc_cli_error("option --designs: '%s' has an empty design name (give names or "
                         ".config paths separated by single commas; known designs: %s)",
                         arg, known[0] ? known : "none found");
            return -1;
        }
        if (b->nd == WC_CLI_MAX_DESIGNS) {
            wc_cli_error("option --designs: more than %d designs", WC_CLI_MAX_DESIGNS);
            return -1;
        }
        b->designs[b->nd++] = t;
    }
    return 0;
}

/* Adds the seed of class label `label` (the text before ':', `len` bytes)
 * to seeds[] unless it is there. */
static void add_seed(char seeds[][16], size_t *n, size_t cap, const char *label, size_t len)
{
    if (len >= sizeof seeds[0]) return;
    for (size_t i = 0; i < *n; i++)
        if (strlen(seeds[i]) == len && strncmp(seeds[i], label, len) == 0) return;
    if (*n < cap) snprintf(seeds[(*n)++], sizeof seeds[0], "%.*s", (int)len, label);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

int wc_cli_check_seed_class(const char *opt, const char *seed)
{
    size_t count, nseeds = 0;
    const wc_workload *const *all = wc_workload_list(&count);
    char seeds[32][16];
    /* The seeds are the prefixes of the workloads' class labels ("004:IW"). */
    for (size_t i = 0; i < count; i++)
        for (const char *p = all[i]->classes ? all[i]->classes : ""; *p;) {
            size_t tl = strcspn(p, " "), sl = strcspn(p, ":");
            if (sl < tl) {
                if (sl == strlen(seed) && strncmp(p, seed, sl) == 0) return 0;
                add_seed(seeds, &nseeds, sizeof seeds / sizeof seeds[0], p, sl);
            }
            p += tl;
            while (*p == ' ') p++;
        }
    qsort(seeds, nseeds, sizeof seeds[0], by_text);
    char known[32 * 18] = "";
    for (size_t i = 0, used = 0; i < nseeds; i++)
        used +=
            (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", seeds[i]);
    wc_cli_error("option %s: no workload has a class of seed '%s' (seeds with classes: %s)", opt,
                 seed, nseeds ? known : "none");
    return -1;
}

int wc_cli_batch_take(wc_cli_batch *b, const wc_opts *p, int id)
{
    const char *v = p->value;
    switch (id) {
    case WC_CLI_O_DESIGNS: return split_designs(b, v) < 0 ? -1 : 1;
    case WC_CLI_O_WORKLOAD: return add_input(b, p->cmd, v, false) < 0 ? -1 : 1;
    case WC_CLI_O_TRACE: return add_input(b, p->cmd, v, true) < 0 ? -1 : 1;
    case WC_CLI_O_KERNELS: b->kernels = v; return 1;
    case WC_CLI_O_JOBS: return wc_cli_parse_jobs(v, &b->threads) < 0 ? -1 : 1;
    default: return 0;
    }
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

int wc_cli_run_jobs(wc_job *jobs, size_t n, unsigned threads, const char *label,
                    const wc_cli_common *c)
{
    wc_batch_progress prog;
    wc_batch_progress_init(&prog, label, &c->progress, c->quiet);
    wc_batch_progress_attach(&prog, jobs, n);
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

/* No two of the n_out outputs are one file, and none is one of the batch's
 * inputs: the --config file (in c), the file of a design of --designs, a
 * trace or a file of an Accel-Sim trace read (wc_out_check_io). */
int wc_cli_batch_check_outputs(const wc_cli_common *c, const wc_cli_batch *b,
                               const char *const *paths, const char *const *opts, size_t n_out)
{
    size_t n = b->ni + b->nd;
    const char **ins = calloc(n ? n : 1, sizeof *ins);
    wc_design_info *d = calloc(b->nd ? b->nd : 1, sizeof *d);
    int rc = -1;
    if (!ins || !d) {
        wc_cli_error("out of memory");
        goto out;
    }
    for (size_t i = 0; i < b->ni; i++) ins[i] = b->is_trace[i] ? b->inputs[i] : NULL;
    wc_cli_dirs dirs;
    wc_cli_design_dirs(&dirs);
    for (size_t i = 0; i < b->nd; i++) {
        wc_err err = {{0}};
        if (wc_design_find(b->designs[i], dirs.dirs, dirs.n, &d[i], &err) == 0)
            ins[b->ni + i] = d[i].path;
    }
    rc = wc_out_check_io(c, ins, n, paths, opts, n_out);
out:
    free(ins);
    free(d);
    return rc;
}
