/*
 * cmd_oracle.c - `warpcache oracle`: the per-workload oracles seed 001
 * (../shared/papers/001_94c1440347ca7d61.txt, section 5) compares its
 * decoupled L1D with.  They are searches, not designs: each runs a family
 * of configurations per workload and keeps the best, which no real cache
 * could know in advance, and the output says so.
 *
 *   pdp-best   PDP (replacement policy 'P', repl_pdp.c) at every protection
 *              distance of --distances (1..16), the best IPC per workload.
 *
 * The simulations run in parallel on the experiment library (wc_batch_run);
 * the table is built after all of them finished, in input order, so it does
 * not depend on -j.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define MAX_DIST 64

static const char oracle_help[] =
    "usage: warpcache oracle pdp-best --workload NAME... [options]\n"
    "\n"
    "pdp-best: runs the baseline and PDP (static protection distance, bypass when every\n"
    "line of the set is protected) at every distance of --distances on each workload and\n"
    "prints the best distance and its IPC normalised to the baseline: seed 001's\n"
    "per-workload oracle PDP-best (an exhaustive search, not a realisable design).\n"
    "\n"
    "  -w, --workload NAME  workload, suite or suite with parameters; repeatable\n"
    "  --distances LIST     distances to search: 'A-B' or 'a,b,c' (default 1-16)\n"
    "  --by-class SEED      geometric means per class label of that seed, e.g. 001\n"
    "  -j N                 simulations in parallel (default: every CPU)\n"
    "%s"
    "\n"
    "--config, --design and -o give the baseline; the PDP runs are the same with\n"
    "replacement policy P.  Exit status: 0 ok, 2 bad input, 1 internal failure.\n";

typedef struct oracle_cli {
    wc_cli_common c;
    wc_cli_batch b; /* --workload, -j (no --designs or --trace) */
    unsigned dist[MAX_DIST];
    size_t nd;
    const char *by_class;
} oracle_cli;

static int parse_uint(const char *s, unsigned *v)
{
    char *end;
    unsigned long x = strtoul(s, &end, 10);
    if (end == s || x < 1 || x > 255) return -1;
    *v = (unsigned)x;
    return (int)(end - s);
}

/* "A-B" or "a,b,c", each 1..255. */
static int parse_distances(oracle_cli *o, const char *arg)
{
    o->nd = 0;
    unsigned a, b;
    int n = parse_uint(arg, &a);
    if (n > 0 && arg[n] == '-') { /* a range */
        int m = parse_uint(arg + n + 1, &b);
        if (m > 0 && !arg[n + 1 + m] && b >= a && b - a < MAX_DIST) {
            for (unsigned d = a; d <= b; d++) o->dist[o->nd++] = d;
            return 0;
        }
    } else { /* a list: number (',' number)* */
        const char *p = arg;
        while (n > 0 && o->nd < MAX_DIST) {
            o->dist[o->nd++] = a;
            p += n;
            if (!*p) return 0;
            if (*p++ != ',') break;
            n = parse_uint(p, &a);
        }
    }
    wc_cli_error("option --distances: '%s' is not A-B or a,b,c of 1..255 (at most %d values)", arg,
                 MAX_DIST);
    return -1;
}

static int parse(oracle_cli *o, int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        printf(oracle_help, wc_cli_common_help);
        exit(argc < 2 ? WC_EXIT_USAGE : 0);
    }
    if (strcmp(argv[1], "pdp-best") != 0) {
        wc_cli_error("oracle: unknown oracle '%s' (pdp-best)", argv[1]);
        return -1;
    }
    for (int i = 2; i < argc; i++) {
        int rc = wc_cli_common_arg(&o->c, argc, argv, &i);
        if (rc == 0) rc = wc_cli_batch_arg(&o->b, "oracle", argc, argv, &i);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            printf(oracle_help, wc_cli_common_help);
            exit(0);
        }
        if (strcmp(a, "--distances") == 0 && has) {
            if (parse_distances(o, argv[++i]) < 0) return -1;
        } else if (strcmp(a, "--by-class") == 0 && has) {
            o->by_class = argv[++i];
        } else {
            wc_cli_error("oracle: unknown or incomplete option '%s' (warpcache oracle --help)", a);
            return -1;
        }
    }
    if (o->c.json || o->c.csv) {
        wc_cli_error("oracle: --json and --csv are not supported (the table is text)");
        return -1;
    }
    if (o->b.nd || o->b.kernels) {
        wc_cli_error("oracle: --designs and --kernels do not apply (one design: --design NAME)");
        return -1;
    }
    for (size_t w = 0; w < o->b.ni; w++)
        if (o->b.is_trace[w]) {
            wc_cli_error("oracle: give workloads (--workload), not traces");
            return -1;
        }
    if (o->b.ni == 0) {
        wc_cli_error("oracle: give at least one --workload");
        return -1;
    }
    return 0;
}

/* Jobs per workload: the baseline, then PDP at each distance. */
static wc_job *make_jobs(oracle_cli *o, size_t *n)
{
    size_t per = 1 + o->nd;
    wc_job *jobs = calloc(o->b.ni * per, sizeof *jobs);
    if (!jobs) {
        wc_cli_error("out of memory");
        return NULL;
    }
    /* the configurations go into the first workload's jobs, then are copied */
    if (wc_cli_build_config(&o->c, o->c.design, NULL, 0, &jobs[0].cfg, !o->c.quiet) < 0) goto fail;
    for (size_t d = 0; d < o->nd; d++) {
        char v[16];
        snprintf(v, sizeof v, "%u", o->dist[d]);
        wc_cli_setting s = {"pdp_distance", v};
        if (wc_cli_build_config(&o->c, o->c.design, &s, 1, &jobs[1 + d].cfg, false) < 0) goto fail;
        jobs[1 + d].cfg.l1.repl = 'P';
    }
    for (size_t w = 0; w < o->b.ni; w++)
        for (size_t k = 0; k < per; k++) {
            wc_job *j = &jobs[w * per + k];
            if (w) j->cfg = jobs[k].cfg;
            j->spec.workload = o->b.inputs[w];
            j->spec.config_name = k ? "pdp" : "baseline";
        }
    *n = o->b.ni * per;
    return jobs;
fail:
    free(jobs);
    return NULL;
}

static void write_table(const oracle_cli *o, const wc_job *jobs)
{
    size_t per = 1 + o->nd;
    double *norm = calloc(o->b.ni, sizeof *norm);
    char(*cls)[64] = calloc(o->b.ni, sizeof *cls);
    if (!norm || !cls) {
        free(norm);
        free(cls);
        return;
    }
    printf("# PDP-best: seed 001's per-workload oracle - the best static protection distance per\n"
           "# workload by IPC, an exhaustive search (not a design) over distances");
    for (size_t d = 0; d < o->nd; d++) printf("%s%u", d ? "," : " ", o->dist[d]);
    printf("\n");
    printf("%-44s %-10s %9s %8s %10s %7s\n", "workload", "class", "base IPC", "best PD", "PDP IPC",
           "norm");
    for (size_t w = 0; w < o->b.ni; w++) {
        const wc_job *j = &jobs[w * per];
        double base = wc_kstats_ipc(&j->stats.total), best = -1;
        unsigned best_d = 0;
        for (size_t k = 1; k < per; k++) { /* ties: the smallest distance */
            double v = wc_kstats_ipc(&j[k].stats.total);
            if (v > best) {
                best = v;
                best_d = o->dist[k - 1];
            }
        }
        norm[w] = base > 0 ? best / base : NAN;
        cls[w][0] = 0;
        if (o->by_class) wc_workload_classes(o->b.inputs[w], o->by_class, cls[w], sizeof cls[w]);
        printf("%-44s %-10s %9.3f %8u %10.3f %7.3f\n", o->b.inputs[w], cls[w][0] ? cls[w] : "-",
               base, best_d, best, norm[w]);
    }
    /* geometric means: all rows, then each class string in first-seen order */
    for (size_t g = 0; g <= o->b.ni; g++) {
        const char *label = g ? cls[g - 1] : NULL;
        if (g && (!o->by_class || !label[0])) continue;
        bool seen = false;
        for (size_t e = 0; g && e + 1 < g; e++) seen |= strcmp(cls[e], label) == 0;
        if (seen) continue;
        double sum = 0;
        size_t cnt = 0;
        for (size_t w = 0; w < o->b.ni; w++)
            if ((!label || strcmp(cls[w], label) == 0) && isfinite(norm[w]) && norm[w] > 0) {
                sum += log(norm[w]);
                cnt++;
            }
        char name[96];
        snprintf(name, sizeof name, "geomean %s (%zu)", label ? label : "all", cnt);
        printf("%-44s %-10s %9s %8s %10s %7.3f\n", name, "", "", "", "",
               cnt ? exp(sum / (double)cnt) : NAN);
    }
    free(norm);
    free(cls);
}

int wc_cmd_oracle(int argc, char **argv)
{
    oracle_cli o;
    memset(&o, 0, sizeof o);
    wc_cli_common_init(&o.c);
    for (unsigned d = 1; d <= 16; d++) o.dist[o.nd++] = d;
    int rc = WC_EXIT_USAGE;
    wc_job *jobs = NULL;
    size_t n = 0;
    if (parse(&o, argc, argv) < 0 || !(jobs = make_jobs(&o, &n)) ||
        wc_cli_check_inputs(o.b.inputs, o.b.is_trace, o.b.ni, NULL) < 0)
        goto out;
    if ((rc = wc_cli_run_jobs(jobs, n, o.b.threads, "oracle pdp-best", o.c.quiet)) != WC_EXIT_OK)
        goto out;
    write_table(&o, jobs);
    rc = WC_EXIT_OK;
out:
    wc_batch_free(jobs, n);
    free(jobs);
    wc_cli_batch_free(&o.b);
    return rc;
}
