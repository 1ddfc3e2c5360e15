/*
 * cmd_oracle.c - `warpcache oracle`: the per-workload oracles the seeds
 * compare their designs with.  They are searches, not designs: each runs a
 * family of configurations per workload and keeps the best, which no real
 * cache could know in advance, and the output says so.
 *
 *   pdp-best   seed 001 (../shared/papers/001_94c1440347ca7d61.txt, section
 *              5): PDP (replacement policy 'P', repl_pdp.c) at every
 *              protection distance of --distances (1..16), the best IPC.
 *   swt        seed 002 (../shared/papers/002_549a998632bcde66.txt, section
 *              4.2, Table 3): static warp throttling (controller swl) at every
 *              limit of --limits (1..warps per scheduler), the best IPC; one
 *              more run with the dwt_cs controller shows the limit DWT-CS
 *              finds by itself beside it.
 *
 * An oracle is a row of `kinds` below: how to configure one searched value
 * (and the optional extra run) on top of the baseline.  The simulations run
 * in parallel on the experiment library (wc_cli_run_jobs); the table is built
 * after all of them finished, in input order, so it does not depend on -j.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define MAX_VALUES 64

static const char oracle_help[] =
    "usage: warpcache oracle pdp-best|swt --workload NAME... [options]\n"
    "\n"
    "pdp-best: runs the baseline and PDP (static protection distance, bypass when every\n"
    "line of the set is protected) at every distance of --distances on each workload and\n"
    "prints the best distance and its IPC normalised to the baseline: seed 001's\n"
    "per-workload oracle PDP-best (an exhaustive search, not a realisable design).\n"
    "\n"
    "swt: runs the baseline and static warp limiting (controller swl) at every limit of\n"
    "--limits on each workload and prints the best limit and its IPC normalised to the\n"
    "baseline: seed 002's SWT (best static warp limit per workload, an exhaustive search),\n"
    "with the limit(s) the dwt_cs controller picks by itself and its normalised IPC beside.\n"
    "\n"
    "  -w, --workload NAME  workload, suite or suite with parameters; repeatable\n"
    "  --distances LIST     pdp-best: distances to search, 'A-B' or 'a,b,c' (default 1-16)\n"
    "  --limits LIST        swt: warp limits to search, 'A-B' or 'a,b,c' (default 1 to the\n"
    "                       warps per scheduler of the baseline)\n"
    "  --by-class SEED      geometric means per class label of that seed, e.g. 001\n"
    "  -j N                 simulations in parallel (default: every CPU)\n"
    "%s"
    "\n"
    "--config, --design and -o give the baseline; the searched runs are the same with one\n"
    "setting changed.  Exit status: 0 ok, 2 bad input, 1 internal failure.\n";

typedef struct oracle_kind oracle_kind;

typedef struct oracle_cli {
    wc_cli_common c;
    wc_cli_batch b; /* --workload, -j (no --designs or --trace) */
    const oracle_kind *kind;
    unsigned val[MAX_VALUES]; /* the searched values, in order */
    size_t nv;
    const char *by_class;
} oracle_cli;

/* One oracle: the option naming its values, the words of its table, and how
 * one searched value (and the optional extra run) changes the baseline. */
struct oracle_kind {
    const char *name;
    const char *list_opt;    /* "--distances" */
    const char *title;       /* the header's first line(s), ending in "over <values>" */
    const char *best_col;    /* "best PD" */
    const char *ipc_col;     /* "PDP IPC" */
    const char *config_name; /* the searched runs' config name in the stats */
    unsigned max_value;
    /* Default values when the list option is absent, from the baseline. */
    size_t (*defaults)(const wc_config *base, unsigned *val, size_t cap);
    int (*build)(const oracle_cli *o, const wc_config *base, unsigned v, wc_config *out);
    /* Optional: one more run per workload and its cells beside the best. */
    int (*build_extra)(const oracle_cli *o, const wc_config *base, wc_config *out);
    const char *extra_head;
    void (*extra_cells)(const wc_job *extra, double base_ipc);
};

static int parse_uint(const char *s, unsigned max, unsigned *v)
{
    char *end;
    unsigned long x = strtoul(s, &end, 10);
    if (end == s || x < 1 || x > max) return -1;
    *v = (unsigned)x;
    return (int)(end - s);
}

/* "A-B" or "a,b,c", each 1..max_value. */
static int parse_values(oracle_cli *o, const char *arg)
{
    unsigned max = o->kind->max_value;
    o->nv = 0;
    unsigned a, b;
    int n = parse_uint(arg, max, &a);
    if (n > 0 && arg[n] == '-') { /* a range */
        int m = parse_uint(arg + n + 1, max, &b);
        if (m > 0 && !arg[n + 1 + m] && b >= a && b - a < MAX_VALUES) {
            for (unsigned d = a; d <= b; d++) o->val[o->nv++] = d;
            return 0;
        }
    } else { /* a list: number (',' number)* */
        const char *p = arg;
        while (n > 0 && o->nv < MAX_VALUES) {
            o->val[o->nv++] = a;
            p += n;
            if (!*p) return 0;
            if (*p++ != ',') break;
            n = parse_uint(p, max, &a);
        }
    }
    wc_cli_error("option %s: '%s' is not A-B or a,b,c of 1..%u (at most %d values)",
                 o->kind->list_opt, arg, max, MAX_VALUES);
    return -1;
}

/* ---- the oracles ------------------------------------------------------- */

static size_t pdp_defaults(const wc_config *base, unsigned *val, size_t cap)
{
    size_t n = 0;
    for (unsigned d = 1; d <= 16 && n < cap; d++) val[n++] = d;
    return n;
}

static int pdp_build(const oracle_cli *o, const wc_config *base, unsigned v, wc_config *out)
{
    char text[16];
    snprintf(text, sizeof text, "%u", v);
    wc_cli_setting s = {"pdp_distance", text};
    if (wc_cli_build_config(&o->c, o->c.design, &s, 1, out, false) < 0) return -1;
    out->l1.repl = 'P';
    return 0;
}

/* 1 .. the warps of one scheduler (Table 1 of seed 002: 24). */
static size_t swt_defaults(const wc_config *base, unsigned *val, size_t cap)
{
    unsigned warps = base->warp_size ? base->max_threads_per_sm / base->warp_size : 1;
    unsigned per = base->n_sched_per_sm ? warps / base->n_sched_per_sm : warps;
    size_t n = 0;
    for (unsigned l = 1; l <= per && n < cap; l++) val[n++] = l;
    return n;
}

/* The baseline with one more controller after its own (if any). */
static int with_controller(const oracle_cli *o, const wc_config *base, const char *ctl,
                           wc_config *out)
{
    char text[sizeof base->controllers];
    int n = snprintf(text, sizeof text, "%s%s%s", base->controllers,
                     base->controllers[0] ? "+" : "", ctl);
    if (n < 0 || (size_t)n >= sizeof text) {
        wc_cli_error("oracle: the baseline's -controllers with '%s' is too long", ctl);
        return -1;
    }
    wc_cli_setting s = {"controllers", text};
    return wc_cli_build_config(&o->c, o->c.design, &s, 1, out, false);
}

static int swt_build(const oracle_cli *o, const wc_config *base, unsigned v, wc_config *out)
{
    char ctl[48];
    snprintf(ctl, sizeof ctl, "swl:warp_limit=%u", v);
    return with_controller(o, base, ctl, out);
}

static int swt_build_extra(const oracle_cli *o, const wc_config *base, wc_config *out)
{
    return with_controller(o, base, "dwt_cs", out);
}

/* DWT-CS's limits: the distinct non-zero dwt_kernel_limit values (one event
 * per kernel launch) in first-seen order, '/'-separated; "-" when no kernel
 * was throttled. */
static void swt_extra_cells(const wc_job *extra, double base_ipc)
{
    char text[32] = "";
    unsigned seen[8];
    size_t ns = 0;
    bool more = false;
    for (size_t i = 0; i < extra->stats.n_timeline; i++) {
        const wc_tl_event *e = &extra->stats.timeline[i];
        if (strcmp(e->key, "dwt_kernel_limit") != 0 || e->value <= 0) continue;
        unsigned v = (unsigned)e->value;
        bool dup = false;
        for (size_t k = 0; k < ns; k++) dup |= seen[k] == v;
        if (dup) continue;
        if (ns == 3) {
            more = true;
            continue;
        }
        seen[ns++] = v;
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%u", ns > 1 ? "/" : "", v);
    }
    if (more) snprintf(text + strlen(text), sizeof text - strlen(text), "/..");
    double ipc = wc_kstats_ipc(&extra->stats.total);
    printf(" %9s %8.3f", ns ? text : "-", base_ipc > 0 ? ipc / base_ipc : NAN);
}

static const oracle_kind kinds[] = {
    {.name = "pdp-best",
     .list_opt = "--distances",
     .title = "# PDP-best: seed 001's per-workload oracle - the best static protection distance "
              "per\n# workload by IPC, an exhaustive search (not a design) over distances",
     .best_col = "best PD",
     .ipc_col = "PDP IPC",
     .config_name = "pdp",
     .max_value = 255,
     .defaults = pdp_defaults,
     .build = pdp_build},
    {.name = "swt",
     .list_opt = "--limits",
     .title = "# SWT: seed 002's per-workload oracle - the best static warp limit (active warps "
              "per\n# scheduler, controller swl) by IPC, an exhaustive search (not a design) over "
              "limits",
     .best_col = "best WL",
     .ipc_col = "SWT IPC",
     .config_name = "swl",
     .max_value = 65536,
     .defaults = swt_defaults,
     .build = swt_build,
     .build_extra = swt_build_extra,
     .extra_head = " DWT-CS WL DWT norm",
     .extra_cells = swt_extra_cells},
};

static const oracle_kind *find_kind(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].name, name) == 0) return &kinds[i];
    return NULL;
}

/* ---- command line ------------------------------------------------------- */

static int parse(oracle_cli *o, int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        printf(oracle_help, wc_cli_common_help);
        exit(argc < 2 ? WC_EXIT_USAGE : 0);
    }
    if (!(o->kind = find_kind(argv[1]))) {
        wc_cli_error("oracle: unknown oracle '%s' (pdp-best, swt)", argv[1]);
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
        if (strcmp(a, o->kind->list_opt) == 0 && has) {
            if (parse_values(o, argv[++i]) < 0) return -1;
        } else if (strcmp(a, "--by-class") == 0 && has) {
            o->by_class = argv[++i];
        } else {
            wc_cli_error("oracle %s: unknown or incomplete option '%s' (warpcache oracle --help)",
                         o->kind->name, a);
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

/* ---- the runs and the table --------------------------------------------- */

static size_t jobs_per_workload(const oracle_cli *o)
{
    return 1 + o->nv + (o->kind->build_extra ? 1 : 0);
}

/* Jobs per workload: the baseline, the searched values, the extra run. */
static wc_job *make_jobs(oracle_cli *o, size_t *n)
{
    /* the configurations go into the first workload's jobs, then are copied;
     * the default values need the baseline, so it is built first */
    wc_config base;
    if (wc_cli_build_config(&o->c, o->c.design, NULL, 0, &base, !o->c.quiet) < 0) return NULL;
    if (!o->nv) o->nv = o->kind->defaults(&base, o->val, MAX_VALUES);
    size_t per = jobs_per_workload(o);
    wc_job *jobs = calloc(o->b.ni * per, sizeof *jobs);
    if (!jobs) {
        wc_cli_error("out of memory");
        return NULL;
    }
    jobs[0].cfg = base;
    for (size_t d = 0; d < o->nv; d++)
        if (o->kind->build(o, &base, o->val[d], &jobs[1 + d].cfg) < 0) goto fail;
    if (o->kind->build_extra && o->kind->build_extra(o, &base, &jobs[per - 1].cfg) < 0) goto fail;
    for (size_t w = 0; w < o->b.ni; w++)
        for (size_t k = 0; k < per; k++) {
            wc_job *j = &jobs[w * per + k];
            if (w) j->cfg = jobs[k].cfg;
            j->spec.workload = o->b.inputs[w];
            j->spec.config_name = !k ? "baseline" : k <= o->nv ? o->kind->config_name : "extra";
        }
    *n = o->b.ni * per;
    return jobs;
fail:
    free(jobs);
    return NULL;
}

/* Geometric means of norm[]: all rows, then each class string in first-seen
 * order (with --by-class). */
static void write_means(const oracle_cli *o, const double *norm, char (*cls)[64])
{
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
}

static void write_table(const oracle_cli *o, const wc_job *jobs)
{
    const oracle_kind *k = o->kind;
    size_t per = jobs_per_workload(o);
    double *norm = calloc(o->b.ni, sizeof *norm);
    char(*cls)[64] = calloc(o->b.ni, sizeof *cls);
    if (!norm || !cls) {
        free(norm);
        free(cls);
        return;
    }
    printf("%s", k->title);
    for (size_t d = 0; d < o->nv; d++) printf("%s%u", d ? "," : " ", o->val[d]);
    printf("\n");
    printf("%-44s %-10s %9s %8s %10s %7s%s\n", "workload", "class", "base IPC", k->best_col,
           k->ipc_col, "norm", k->extra_head ? k->extra_head : "");
    for (size_t w = 0; w < o->b.ni; w++) {
        const wc_job *j = &jobs[w * per];
        double base = wc_kstats_ipc(&j->stats.total), best = -1;
        unsigned best_v = 0;
        for (size_t i = 1; i <= o->nv; i++) { /* ties: the earliest value */
            double v = wc_kstats_ipc(&j[i].stats.total);
            if (v > best) {
                best = v;
                best_v = o->val[i - 1];
            }
        }
        norm[w] = base > 0 ? best / base : NAN;
        cls[w][0] = 0;
        if (o->by_class) wc_workload_classes(o->b.inputs[w], o->by_class, cls[w], sizeof cls[w]);
        printf("%-44s %-10s %9.3f %8u %10.3f %7.3f", o->b.inputs[w], cls[w][0] ? cls[w] : "-", base,
               best_v, best, norm[w]);
        if (k->extra_cells) k->extra_cells(&j[per - 1], base);
        printf("\n");
    }
    write_means(o, norm, cls);
    free(norm);
    free(cls);
}

int wc_cmd_oracle(int argc, char **argv)
{
    oracle_cli o;
    memset(&o, 0, sizeof o);
    wc_cli_common_init(&o.c);
    int rc = WC_EXIT_USAGE;
    wc_job *jobs = NULL;
    size_t n = 0;
    if (parse(&o, argc, argv) < 0 || !(jobs = make_jobs(&o, &n)) ||
        wc_cli_check_inputs(o.b.inputs, o.b.is_trace, o.b.ni, NULL) < 0)
        goto out;
    char label[32];
    snprintf(label, sizeof label, "oracle %s", o.kind->name);
    if ((rc = wc_cli_run_jobs(jobs, n, o.b.threads, label, o.c.quiet)) != WC_EXIT_OK) goto out;
    write_table(&o, jobs);
    rc = WC_EXIT_OK;
out:
    wc_batch_free(jobs, n);
    free(jobs);
    wc_cli_batch_free(&o.b);
    return rc;
}
