/*
 * cmd_oracle.c - `warpcache oracle`: the per-workload oracles seed 001
 * (../shared/papers/001_94c1440347ca7d61.txt, section 5) compares its
 * decoupled L1D with.  They are searches, not designs: each runs a family
 * of configurations per workload and keeps the best, which no real cache
 * could know in advance, and the output says so.
 *
 *   pdp-best         PDP (replacement policy 'P', repl_pdp.c) at every
 *                    protection distance of --distances (1..16), the best
 *                    IPC per workload.
 *   profiled-bypass  Profiled-BYPASS: the baseline run records every line's
 *                    reference counts per SM and kernel-wide
 *                    (src/cache/org/pbypass_profile.c); a second run per
 *                    threshold of --thresholds (1..16) and filter of
 *                    --filters bypasses the lines counted under it
 *                    (organisation profiled-bypass); the best IPC per
 *                    workload and filter.
 *
 *   swt              seed 002 (../shared/papers/002_549a998632bcde66.txt,
 *                    section 4.2, Table 3): static warp throttling
 *                    (controller swl) at every limit of --limits (1..warps
 *                    per scheduler), the best IPC; one more run with the
 *                    dwt_cs controller shows the limit DWT-CS finds by itself
 *                    beside it.
 *
 * Several oracles (`pdp-best,profiled-bypass`) and --designs share one run
 * of the baseline and one table: the IPC of each normalised to it, so one
 * command gives the seed's comparison.  The simulations run in parallel on
 * the experiment library (wc_cli_run_jobs); the table is built after all of
 * them finished, in input order, so it does not depend on -j.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache/org/pbypass_profile.h"
#include "cli/cli.h"
#include "util/nearest.h"

#define MAX_LIST 64

static const char oracle_help[] =
    "usage: warpcache oracle ORACLE[,ORACLE...] --workload NAME... [options]\n"
    "\n"
    "Seed 001's per-workload oracles (exhaustive searches, not realisable designs), each\n"
    "printed as the best setting per workload and its IPC normalised to the baseline:\n"
    "  pdp-best         PDP (static protection distance, bypass when every line of the set\n"
    "                   is protected) at every distance of --distances\n"
    "  profiled-bypass  Profiled-BYPASS: the baseline run records each line's reference\n"
    "                   counts per SM and kernel-wide; one run per threshold of --thresholds\n"
    "                   and filter of --filters bypasses the lines counted under it\n"
    "  swt              seed 002's SWT: static warp limiting (controller swl) at every limit\n"
    "                   of --limits, with the limit(s) the dwt_cs controller picks by\n"
    "                   itself and its normalised IPC beside\n"
    "\n"
    "%s"
    "\n"
    "--config, --design and -o give the baseline; the PDP runs are the same with\n"
    "replacement policy P, the profiled-bypass runs with L1 organisation profiled-bypass,\n"
    "the swt runs with controller swl after the baseline's own.\n"
    "Exit status: 0 ok, 2 bad input, 1 internal failure.\n";

enum { OR_PDP = 1, OR_PB = 2, OR_SWT = 4 };

enum { O_DISTANCES = 1, O_THRESHOLDS, O_LIMITS, O_FILTERS, O_BY_CLASS };
static const wc_opt oracle_table[] = {
    {WC_CLI_O_WORKLOAD, 'w', "workload", "NAME",
     "workload, suite or suite with parameters; repeatable", 0},
    {O_DISTANCES, 0, "distances", "LIST", "pdp-best's distances: 'A-B' or 'a,b,c' (default 1-16)",
     0},
    {O_THRESHOLDS, 0, "thresholds", "LIST",
     "profiled-bypass's thresholds: 'A-B' or 'a,b,c' (default 1-16)", 0},
    {O_LIMITS, 0, "limits", "LIST",
     "swt's warp limits: 'A-B' or 'a,b,c' (default 1 to the warps\n"
     "per scheduler of the baseline)",
     0},
    {O_FILTERS, 0, "filters", "LIST",
     "profiled-bypass's filters: local, global, local+global or all\n"
     "(default local+global, the paper's Profiled-BYPASS)",
     0},
    {WC_CLI_O_DESIGNS, 0, "designs", "A,B",
     "designs to add as columns (IPC normalised to the baseline)", 0},
    {O_BY_CLASS, 0, "by-class", "SEED", "geometric means per class label of that seed, e.g. 001",
     0},
    {WC_CLI_O_JOBS, 'j', NULL, "N", "simulations in parallel (default: every CPU)", 0},
    {0},
};
static const wc_opt *const oracle_tables[] = {oracle_table, wc_cli_common_opts,
                                              wc_cli_progress_opts, NULL};

/* The oracle an option of one oracle belongs to (0: every oracle). */
static unsigned owner_of(int id)
{
    switch (id) {
    case O_DISTANCES: return OR_PDP;
    case O_THRESHOLDS: return OR_PB;
    case O_FILTERS: return OR_PB;
    case O_LIMITS: return OR_SWT;
    default: return 0;
    }
}

typedef struct oracle_cli {
    wc_cli_common c;
    wc_cli_batch b; /* --workload, --designs, -j (no --trace) */
    unsigned which; /* OR_* bits */
    unsigned dist[MAX_LIST], thr[MAX_LIST], lim[MAX_LIST];
    size_t nd, nt, nl;
    bool filter[WC_PB__FILTERS];
    const char *by_class;
} oracle_cli;

static int parse_uint(const char *s, unsigned max, unsigned *v)
{
    char *end;
    unsigned long x = strtoul(s, &end, 10);
    if (end == s || x < 1 || x > max) return -1;
    *v = (unsigned)x;
    return (int)(end - s);
}

/* "A-B" or "a,b,c", each 1..max, into out[0..*n). */
static int parse_list(const char *opt, const char *arg, unsigned max, unsigned *out, size_t *n)
{
    *n = 0;
    unsigned a, b;
    int k = parse_uint(arg, max, &a);
    if (k > 0 && arg[k] == '-') { /* a range */
        int m = parse_uint(arg + k + 1, max, &b);
        if (m > 0 && !arg[k + 1 + m] && b >= a && b - a < MAX_LIST) {
            for (unsigned d = a; d <= b; d++) out[(*n)++] = d;
            return 0;
        }
    } else { /* a list: number (',' number)* */
        const char *p = arg;
        while (k > 0 && *n < MAX_LIST) {
            out[(*n)++] = a;
            p += k;
            if (!*p) return 0;
            if (*p++ != ',') break;
            k = parse_uint(p, max, &a);
        }
    }
    wc_cli_error("option %s: '%s' is not A-B or a,b,c of 1..%u (at most %d values)", opt, arg, max,
                 MAX_LIST);
    return -1;
}

/* "local,global,local+global" or "all". */
static int parse_filters(oracle_cli *o, const char *arg)
{
    memset(o->filter, 0, sizeof o->filter);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", arg);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        bool all = strcmp(t, "all") == 0, known = all;
        for (int f = 0; f < WC_PB__FILTERS; f++)
            if (all || strcmp(t, wc_pbypass_filter_name(f)) == 0) {
                o->filter[f] = known = true;
                n++;
            }
        if (!known) { /* one bad name spoils the list */
            n = 0;
            break;
        }
    }
    if (n == 0) {
        wc_cli_error("option --filters: '%s' is not a list of local, global, local+global or all",
                     arg);
        return -1;
    }
    return 0;
}

static int parse_oracles(oracle_cli *o, const char *arg)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "pdp-best") == 0)
            o->which |= OR_PDP;
        else if (strcmp(t, "profiled-bypass") == 0)
            o->which |= OR_PB;
        else if (strcmp(t, "swt") == 0)
            o->which |= OR_SWT;
        else {
            wc_nearest near;
            wc_nearest_init(&near, t);
            wc_nearest_consider(&near, "pdp-best");
            wc_nearest_consider(&near, "profiled-bypass");
            wc_nearest_consider(&near, "swt");
            if (wc_nearest_best(&near))
                wc_cli_error("oracle: unknown oracle '%s' (did you mean '%s'? pdp-best, "
                             "profiled-bypass, swt)",
                             t, near.best);
            else
                wc_cli_error("oracle: unknown oracle '%s' (pdp-best, profiled-bypass, swt)", t);
            return -1;
        }
    }
    if (!o->which) {
        wc_cli_error("oracle: unknown oracle '%s' (pdp-best, profiled-bypass, swt)", arg);
        return -1;
    }
    return 0;
}

static int check(const oracle_cli *o)
{
    if (o->c.json || o->c.csv) {
        wc_cli_error("oracle: --json and --csv are not supported (the table is text)");
        return -1;
    }
    if (o->b.kernels) {
        wc_cli_error("oracle: --kernels does not apply (give workloads)");
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

/* The value of an option of one oracle (the list was checked to apply). */
static int take_oracle_option(oracle_cli *o, const wc_opts *p, int id)
{
    const char *opt = wc_opts_name(p);
    switch (id) {
    case O_DISTANCES: return parse_list(opt, p->value, 255, o->dist, &o->nd);
    case O_THRESHOLDS: return parse_list(opt, p->value, 255, o->thr, &o->nt);
    case O_LIMITS: return parse_list(opt, p->value, 65536, o->lim, &o->nl);
    case O_FILTERS: return parse_filters(o, p->value);
    case O_BY_CLASS:
        o->by_class = p->value;
        return wc_cli_check_seed_class("--by-class", o->by_class);
    }
    return 0;
}

static int parse(oracle_cli *o, int argc, char **argv)
{
    if (argc < 2) {
        wc_opts_print_help(oracle_help, oracle_tables);
        exit(WC_EXIT_USAGE);
    }
    const char *oracles = NULL;
    wc_opts p;
    /* the oracles first: an oracle's options only with that oracle */
    wc_opts_init(&p, "oracle", oracle_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        if (id == WC_OPT_HELP) {
            wc_opts_print_help(oracle_help, oracle_tables);
            exit(0);
        }
        if (id == WC_OPT_BAD) return -1; /* printed; not again below */
        if (id == WC_OPT_ARG && !oracles) oracles = p.value;
    }
    if (!oracles) {
        wc_cli_error("oracle: name the oracle(s) first: warpcache oracle pdp-best|profiled-bypass|"
                     "swt ... (warpcache oracle --help)");
        return -1;
    }
    if (parse_oracles(o, oracles) < 0) return -1;
    wc_opts_init(&p, "oracle", oracle_tables, argc, argv);
    bool named = false;
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        int rc = wc_cli_common_take(&o->c, &p, id);
        if (rc == 0) rc = wc_cli_progress_take(&o->c.progress, &p, id);
        if (rc == 0) rc = wc_cli_batch_take(&o->b, &p, id);
        if (rc < 0 || id == WC_OPT_BAD) return -1;
        if (rc > 0) continue;
        if (id == WC_OPT_ARG) {
            if (!named) {
                named = true;
                continue;
            }
            wc_cli_error("oracle: unexpected argument '%s' (give workloads with --workload)",
                         p.value);
            return -1;
        }
        unsigned owner = owner_of(id);
        if (owner && !(o->which & owner)) {
            wc_cli_error("oracle %s: option %s applies to oracle %s only", oracles,
                         wc_opts_name(&p),
                         owner == OR_PDP  ? "pdp-best"
                         : owner == OR_PB ? "profiled-bypass"
                                          : "swt");
            return -1;
        }
        if (take_oracle_option(o, &p, id) < 0) return -1;
    }
    return check(o);
}

/* ---- the runs ------------------------------------------------------------ */

/* Per workload, in this order: the baseline (the profiling run when
 * profiled-bypass is asked), each design, PDP at each distance; then, in a
 * second batch once the profiles exist, profiled-bypass at each filter and
 * threshold. */
static size_t n_filters(const oracle_cli *o)
{
    size_t n = 0;
    for (int f = 0; f < WC_PB__FILTERS; f++) n += o->filter[f];
    return o->which & OR_PB ? n : 0;
}
static size_t n_pdp(const oracle_cli *o)
{
    return o->which & OR_PDP ? o->nd : 0;
}
static size_t n_swt(const oracle_cli *o) /* the limits and DWT-CS's run */
{
    return o->which & OR_SWT ? o->nl + 1 : 0;
}
static size_t per_first(const oracle_cli *o)
{
    return 1 + o->b.nd + n_pdp(o) + n_swt(o);
}
static size_t per_second(const oracle_cli *o)
{
    return n_filters(o) * o->nt;
}

static int record_profile(void *ctx, wc_sim *sim, wc_err *err)
{
    wc_l1_listener l = wc_pbypass_recorder(ctx);
    if (wc_sim_add_l1_listener(sim, &l) < 0) return wc_errf(err, "out of memory");
    return 0;
}

static int install_profile(void *ctx, wc_sim *sim, wc_err *err)
{
    wc_sim_set_l1_data(sim, ctx);
    return 0;
}

/* swt's default limits: 1 .. the warps of one scheduler (Table 1 of seed
 * 002: 24). */
static void swt_defaults(oracle_cli *o, const wc_config *base)
{
    unsigned warps = base->warp_size ? base->max_threads_per_sm / base->warp_size : 1;
    unsigned per = base->n_sched_per_sm ? warps / base->n_sched_per_sm : warps;
    for (unsigned l = 1; l <= per && o->nl < MAX_LIST; l++) o->lim[o->nl++] = l;
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

/* Sets a parameter the oracle chose itself (its range was checked with the
 * option that gave it). */
static int set_internal(wc_config *cfg, const char *name, const char *value)
{
    wc_err err = {{0}};
    if (wc_config_set(cfg, name, value, "oracle", &err) == 0) return 0;
    wc_cli_error("%s", err.msg);
    return -1;
}

/* The configurations of one workload's jobs (first and second batch), to be
 * copied to every workload. */
static int make_configs(oracle_cli *o, const wc_config *base, wc_job *first, wc_job *second)
{
    first[0].cfg = *base;
    size_t k = 1;
    for (size_t d = 0; d < o->b.nd; d++, k++)
        if (wc_cli_build_config(&o->c, o->b.designs[d], NULL, 0, &first[k].cfg, false) < 0)
            return -1;
    /* PDP and profiled-bypass set their parameters together with the policy
     * or organisation that reads them (a parameter of a plug-in the
     * configuration does not use is refused), on the baseline */
    for (size_t d = 0; (o->which & OR_PDP) && d < o->nd; d++, k++) {
        char v[16];
        snprintf(v, sizeof v, "%u", o->dist[d]);
        first[k].cfg = *base;
        first[k].cfg.l1.repl = 'P';
        if (set_internal(&first[k].cfg, "pdp_distance", v) < 0) return -1;
    }
    for (size_t l = 0; (o->which & OR_SWT) && l <= o->nl; l++, k++) { /* the last: DWT-CS */
        char ctl[48];
        if (l < o->nl) snprintf(ctl, sizeof ctl, "swl:warp_limit=%u", o->lim[l]);
        if (with_controller(o, base, l < o->nl ? ctl : "dwt_cs", &first[k].cfg) < 0) return -1;
    }
    k = 0;
    for (int f = 0; f < WC_PB__FILTERS; f++)
        for (size_t t = 0; o->filter[f] && (o->which & OR_PB) && t < o->nt; t++, k++) {
            char tv[16], fv[16];
            snprintf(tv, sizeof tv, "%u", o->thr[t]);
            snprintf(fv, sizeof fv, "%d", f);
            second[k].cfg = *base;
            snprintf(second[k].cfg.l1_org, sizeof second[k].cfg.l1_org, "profiled-bypass");
            if (set_internal(&second[k].cfg, "pbypass_threshold", tv) < 0 ||
                set_internal(&second[k].cfg, "pbypass_filter", fv) < 0)
                return -1;
        }
    return 0;
}

static void name_jobs(const oracle_cli *o, wc_job *first, wc_job *second,
                      wc_pbypass_profile *const *prof)
{
    size_t p1 = per_first(o), p2 = per_second(o);
    for (size_t w = 0; w < o->b.ni; w++) {
        for (size_t k = 0; k < p1; k++) {
            wc_job *j = &first[w * p1 + k];
            if (w) j->cfg = first[k].cfg;
            j->spec.workload = o->b.inputs[w];
            size_t pdp_end = 1 + o->b.nd + n_pdp(o);
            j->spec.config_name = k == 0         ? "baseline"
                                  : k <= o->b.nd ? o->b.designs[k - 1]
                                  : k < pdp_end  ? "pdp"
                                  : k + 1 < p1   ? "swl"
                                                 : "extra";
        }
        if (prof) {
            first[w * p1].spec.setup = record_profile;
            first[w * p1].spec.setup_ctx = prof[w];
        }
        for (size_t k = 0; k < p2; k++) {
            wc_job *j = &second[w * p2 + k];
            if (w) j->cfg = second[k].cfg;
            j->spec.workload = o->b.inputs[w];
            j->spec.config_name = "profiled-bypass";
            j->spec.setup = install_profile;
            j->spec.setup_ctx = prof[w];
        }
    }
}

/* ---- the table ----------------------------------------------------------- */

/* One column group: a design (norm), or an oracle's best (setting, IPC,
 * norm) over `n` jobs of one workload starting at offset `off`. */
typedef struct group {
    bool is_oracle;
    const char *param, *ipc_head, *norm_head;
    const wc_job *first; /* the first workload's jobs of the group */
    size_t off, n, stride;
    const unsigned *values; /* the setting of each job */
    double *norm;           /* per workload */
    /* optional: one more job after the group's, shown beside the best */
    const char *extra_head;
    void (*extra_cells)(const wc_job *extra, double base_ipc);
} group;

static double best_of(const group *g, size_t w, unsigned *best_v)
{
    double best = -1;
    *best_v = 0;
    for (size_t k = 0; k < g->n; k++) { /* ties: the smallest setting */
        double v = wc_kstats_ipc(&g->first[w * g->stride + g->off + k].stats.total);
        if (v > best) {
            best = v;
            *best_v = g->values[k];
        }
    }
    return best;
}

static void print_header(const oracle_cli *o, const group *g, size_t ng)
{
    if (o->which & OR_PDP) {
        printf("# PDP-best: seed 001's per-workload oracle - the best static protection distance "
               "per\n# workload by IPC, an exhaustive search (not a design) over distances");
        for (size_t d = 0; d < o->nd; d++) printf("%s%u", d ? "," : " ", o->dist[d]);
        printf("\n");
    }
    if (o->which & OR_SWT) {
        printf("# SWT: seed 002's per-workload oracle - the best static warp limit (active warps "
               "per\n# scheduler, controller swl) by IPC, an exhaustive search (not a design) over "
               "limits");
        for (size_t l = 0; l < o->nl; l++) printf("%s%u", l ? "," : " ", o->lim[l]);
        printf("\n");
    }
    if (o->which & OR_PB) {
        printf("# Profiled-BYPASS: seed 001's per-workload oracle - a profiling run's reference "
               "counts\n# per line (local: the SM's own, global: kernel-wide, local+global: the "
               "SM's own if\n# it saw the line, else kernel-wide) bypass the lines counted under "
               "the threshold;\n# the best threshold per workload by IPC, an exhaustive search "
               "(not a design) over");
        for (size_t t = 0; t < o->nt; t++) printf("%s%u", t ? "," : " ", o->thr[t]);
        printf("\n");
    }
    if (o->b.nd) printf("# designs: IPC normalised to the baseline\n");
    printf("%-44s %-10s %9s", "workload", "class", "base IPC");
    for (size_t i = 0; i < ng; i++)
        if (g[i].is_oracle)
            printf(" %8s %10s %7s%s", g[i].param, g[i].ipc_head, g[i].norm_head,
                   g[i].extra_head ? g[i].extra_head : "");
        else
            printf(" %10.10s", g[i].norm_head);
    printf("\n");
}

static void print_means(const oracle_cli *o, const group *g, size_t ng, char (*cls)[64])
{
    /* geometric means: all rows, then each class string in first-seen order */
    for (size_t c = 0; c <= o->b.ni; c++) {
        const char *label = c ? cls[c - 1] : NULL;
        if (c && (!o->by_class || !label[0])) continue;
        bool seen = false;
        for (size_t e = 0; c && e + 1 < c; e++) seen |= strcmp(cls[e], label) == 0;
        if (seen) continue;
        size_t cnt = 0;
        char cells[2048];
        size_t len = 0;
        for (size_t i = 0; i < ng; i++) {
            double sum = 0;
            size_t n = 0;
            for (size_t w = 0; w < o->b.ni; w++)
                if ((!label || strcmp(cls[w], label) == 0) && isfinite(g[i].norm[w]) &&
                    g[i].norm[w] > 0) {
                    sum += log(g[i].norm[w]);
                    n++;
                }
            if (i == 0) cnt = n;
            double m = n ? exp(sum / (double)n) : NAN;
            if (g[i].is_oracle)
                len +=
                    (size_t)snprintf(cells + len, sizeof cells - len, " %8s %10s %7.3f", "", "", m);
            else
                len += (size_t)snprintf(cells + len, sizeof cells - len, " %10.3f", m);
            if (len >= sizeof cells) len = sizeof cells - 1;
            if (g[i].extra_head && i + 1 < ng) /* keep the next groups' columns aligned */
                len += (size_t)snprintf(cells + len, sizeof cells - len, "%*s",
                                        (int)strlen(g[i].extra_head), "");
            if (len >= sizeof cells) len = sizeof cells - 1;
        }
        char name[96];
        snprintf(name, sizeof name, "geomean %s (%zu)", label ? label : "all", cnt);
        printf("%-44s %-10s %9s%s\n", name, "", "", cells);
    }
}

static void write_table(const oracle_cli *o, const wc_job *first, const wc_job *second)
{
    size_t p1 = per_first(o), p2 = per_second(o), ng = 0;
    group g[WC_CLI_MAX_DESIGNS + 2 + WC_PB__FILTERS];
    static const char *const pb_head[WC_PB__FILTERS] = {"t local", "t global", "t l+g"};
    static const char *const pb_ipc[WC_PB__FILTERS] = {"PB-l IPC", "PB-g IPC", "PB IPC"};
    for (size_t d = 0; d < o->b.nd; d++)
        g[ng++] = (group){
            .norm_head = o->b.designs[d], .first = first, .off = 1 + d, .n = 1, .stride = p1};
    if (o->which & OR_PDP)
        g[ng++] = (group){.is_oracle = true,
                          .param = "best PD",
                          .ipc_head = "PDP IPC",
                          .norm_head = "norm",
                          .first = first,
                          .off = 1 + o->b.nd,
                          .n = o->nd,
                          .stride = p1,
                          .values = o->dist};
    if (o->which & OR_SWT)
        g[ng++] = (group){.is_oracle = true,
                          .param = "best WL",
                          .ipc_head = "SWT IPC",
                          .norm_head = "norm",
                          .first = first,
                          .off = 1 + o->b.nd + n_pdp(o),
                          .n = o->nl,
                          .stride = p1,
                          .values = o->lim,
                          .extra_head = " DWT-CS WL DWT norm",
                          .extra_cells = swt_extra_cells};
    size_t off = 0;
    for (int f = 0; f < WC_PB__FILTERS; f++)
        if ((o->which & OR_PB) && o->filter[f]) {
            g[ng++] = (group){.is_oracle = true,
                              .param = pb_head[f],
                              .ipc_head = pb_ipc[f],
                              .norm_head = "norm",
                              .first = second,
                              .off = off,
                              .n = o->nt,
                              .stride = p2,
                              .values = o->thr};
            off += o->nt;
        }
    char(*cls)[64] = calloc(o->b.ni, sizeof *cls);
    bool ok = cls != NULL;
    for (size_t i = 0; i < ng; i++) ok &= (g[i].norm = calloc(o->b.ni, sizeof(double))) != NULL;
    if (ok) {
        print_header(o, g, ng);
        for (size_t w = 0; w < o->b.ni; w++) {
            double base = wc_kstats_ipc(&first[w * p1].stats.total);
            cls[w][0] = 0;
            if (o->by_class)
                wc_workload_classes(o->b.inputs[w], o->by_class, cls[w], sizeof cls[w]);
            printf("%-44s %-10s %9.3f", o->b.inputs[w], cls[w][0] ? cls[w] : "-", base);
            for (size_t i = 0; i < ng; i++) {
                unsigned v = 0;
                double ipc = g[i].is_oracle ? best_of(&g[i], w, &v)
                                            : wc_kstats_ipc(&first[w * p1 + g[i].off].stats.total);
                g[i].norm[w] = base > 0 ? ipc / base : NAN;
                if (g[i].is_oracle) printf(" %8u %10.3f %7.3f", v, ipc, g[i].norm[w]);
                if (g[i].extra_cells) /* the job after the group's */
                    g[i].extra_cells(&first[w * p1 + g[i].off + g[i].n], base);
                else if (!g[i].is_oracle)
                    printf(" %10.3f", g[i].norm[w]);
            }
            printf("\n");
        }
        print_means(o, g, ng, cls);
    }
    for (size_t i = 0; i < ng; i++) free(g[i].norm);
    free(cls);
}

int wc_cmd_oracle(int argc, char **argv)
{
    oracle_cli o;
    memset(&o, 0, sizeof o);
    wc_cli_common_init(&o.c);
    for (unsigned d = 1; d <= 16; d++) o.dist[o.nd++] = o.thr[o.nt++] = d;
    o.filter[WC_PB_LOCAL_GLOBAL] = true;
    int rc = WC_EXIT_USAGE;
    wc_job *first = NULL, *second = NULL;
    wc_pbypass_profile **prof = NULL;
    size_t n1 = 0, n2 = 0;
    wc_config base;
    if (parse(&o, argc, argv) < 0 ||
        wc_cli_build_config(&o.c, o.c.design, NULL, 0, &base, !o.c.quiet) < 0)
        goto out;
    if ((o.which & OR_SWT) && !o.nl) swt_defaults(&o, &base); /* they need the baseline */
    n1 = o.b.ni * per_first(&o);
    n2 = o.b.ni * per_second(&o);
    first = calloc(n1, sizeof *first);
    second = calloc(n2 ? n2 : 1, sizeof *second);
    bool oom = !first || !second;
    if ((o.which & OR_PB) && !(prof = calloc(o.b.ni, sizeof *prof))) oom = true;
    for (size_t w = 0; prof && w < o.b.ni; w++)
        if (!(prof[w] = wc_pbypass_profile_create())) oom = true;
    if (oom) {
        wc_cli_error("out of memory");
        rc = WC_EXIT_FAIL;
        goto out;
    }
    if (make_configs(&o, &base, first, second) < 0 ||
        wc_cli_check_inputs(o.b.inputs, o.b.is_trace, o.b.ni, NULL) < 0)
        goto out;
    name_jobs(&o, first, second, prof);
    if ((rc = wc_cli_run_jobs(first, n1, o.b.threads, "oracle", &o.c)) != WC_EXIT_OK) goto out;
    for (size_t w = 0; prof && w < o.b.ni; w++)
        if (wc_pbypass_profile_failed(prof[w])) {
            wc_cli_error("oracle profiled-bypass: %s: out of memory recording the profile",
                         o.b.inputs[w]);
            rc = WC_EXIT_FAIL;
            goto out;
        }
    if (n2 && (rc = wc_cli_run_jobs(second, n2, o.b.threads, "oracle profiled-bypass", &o.c)) !=
                  WC_EXIT_OK)
        goto out;
    write_table(&o, first, second);
    rc = WC_EXIT_OK;
out:
    wc_batch_free(first, n1);
    wc_batch_free(second, n2);
    free(first);
    free(second);
    for (size_t w = 0; prof && w < o.b.ni; w++) wc_pbypass_profile_destroy(prof[w]);
    free(prof);
    wc_cli_batch_free(&o.b);
    return rc;
}
