/*
 * cmd_model.c - `warpcache model` (the reuse-distance GPU cache model of seed
 * 003, 003_ffafd1cb931cbd21.txt, with its miss classification) and
 * `warpcache mrc` (one-pass LRU miss-ratio curves of the model's ordered line
 * stream, optionally SHARDS-sampled, with an SVG plot).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/svg_plot.h"
#include "warpcache/traceio.h"
#include "warpcache/model.h"
#include "warpcache/workloads.h"

wc_source *wc_cli_open_trace(const char *path, const char *kernels, wc_err *err);

static const char model_help[] =
    "usage: warpcache model (--workload NAME[:K=V,...] | --trace PATH) [options]\n"
    "\n"
    "Runs the reuse-distance GPU cache model of seed 003 on every kernel: GPU thread\n"
    "ordering and coalescing, latencies, per-set stacks, MSHRs and warp divergence, and\n"
    "classifies misses (compulsory, capacity, associativity, latency, MSHR) by re-running\n"
    "with one extension disabled at a time.  The L1 geometry comes from the configuration.\n"
    "\n"
    "%s"
    "\n"
    "Model options (-o NAME=VALUE, next to the configuration's):\n"
    "%s"
    "\n"
    "Exit status: 0 ok, 2 bad input (also an output that cannot be created), 1 an internal\n"
    "failure or a write that failed once the output was open (a full disk).\n";

static const char mrc_help[] =
    "usage: warpcache mrc (--workload NAME[:K=V,...] | --trace PATH) [options]\n"
    "\n"
    "Miss-ratio curve of an LRU cache over all sizes from one pass of stack distances,\n"
    "on the model's GPU-ordered line stream (seed 003 extension 1: warps round-robin,\n"
    "coalescing, active blocks; no latency, MSHR or divergence, so the order does not\n"
    "depend on the cache).  Line size from the configuration (-o line_bytes=N).\n"
    "\n"
    "%s"
    "\n"
    "Output: a table on stdout unless --json - or --csv - takes it.  Exit status 0 ok,\n"
    "2 bad input (also an output that cannot be created), 1 an internal failure or a write\n"
    "that failed once the output was open (a full disk).\n";

enum {
    O_WORKLOAD = 1,
    O_TRACE,
    O_KERNELS,
    O_HIST,
    O_HIST_CSV,
    O_NO_CLASSIFY,
    O_SETS,
    O_INDEX,
    O_SHARDS,
    O_MAX_LINES,
    O_SVG,
};

static const wc_opt model_table[] = {
    {O_WORKLOAD, 'w', "workload", "NAME",
     "built-in workload ('warpcache list'), e.g. micro/colcopy:h=256", 0},
    {O_TRACE, 't', "trace", "PATH", "trace file (formats as for 'warpcache run')", 0},
    {O_KERNELS, 0, "kernels", "SEL", "with --trace: kernel ids or a name pattern", 0},
    {O_HIST, 0, "hist", NULL, "print the reuse-distance histogram in the text output", 0},
    {O_HIST_CSV, 0, "hist-csv", "FILE|-", "write the histogram as CSV (kernel,id,lo,hi,count)", 0},
    {O_NO_CLASSIFY, 0, "no-classify", NULL,
     "run the full model only (no miss classes, 1 pass instead of 4)", 0},
    {0},
};
static const wc_opt mrc_table[] = {
    {O_WORKLOAD, 'w', "workload", "NAME", "built-in workload ('warpcache list')", 0},
    {O_TRACE, 't', "trace", "PATH", "trace file (formats as for 'warpcache run')", 0},
    {O_KERNELS, 0, "kernels", "SEL", "with --trace: kernel ids or a name pattern", 0},
    {O_SETS, 0, "sets", "N", "also the curve of an N-set cache over its associativity", 0},
    {O_INDEX, 0, "index", "L|H|P|X", "set index of --sets (default L, linear)", 0},
    {O_SHARDS, 0, "shards", "RATE",
     "SHARDS sampling at RATE in (0,1]; the exact curve is computed too\n"
     "and the error of the sampled one reported",
     0},
    {O_MAX_LINES, 0, "max-lines", "N", "largest size reported (default: the largest distance + 1)",
     0},
    {O_SVG, 0, "svg", "FILE", "plot the curve(s) as SVG", 0},
    {0},
};
static const wc_opt *const model_tables[] = {model_table, wc_cli_common_opts, NULL};
static const wc_opt *const mrc_tables[] = {mrc_table, wc_cli_common_opts, NULL};

typedef struct model_cli {
    wc_cli_common c;
    wc_model_opts mo;
    const char *workload, *trace, *kernels;
    char cached[64]; /* the trace re-encoded once as a temporary .wct, or "" */
    int cached_slot; /* its registration for removal on a signal */
    const char *hist_csv, *svg;
    bool hist, no_classify;
    /* mrc */
    uint32_t sets;
    char index;
    double shards;
    uint64_t max_lines;
} model_cli;

static int parse_num(const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !(d >= lo && d <= hi)) {
        wc_cli_error("option %s: '%s' is not a number in [%g, %g]", opt, v, lo, hi);
        return -1;
    }
    *out = d;
    return 0;
}

/* -o NAME=VALUE: a model option (1 taken, -1 bad), else the configuration's (0). */
static int take_model_option(model_cli *m, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv) return 0;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - kv), kv);
    wc_err err = {{0}};
    int rc = wc_model_opts_set(&m->mo, name, eq + 1, &err);
    if (rc < 0) wc_cli_error("%s", err.msg);
    return rc < 0 ? -1 : rc == 0 ? 1 : 0;
}

static void print_help(bool mrc)
{
    if (mrc) {
        wc_opts_print_help(mrc_help, mrc_tables);
        return;
    }
    /* the model's own options come from the model library, in the middle */
    char *text = wc_opts_help_text(model_tables), *mtext = NULL;
    size_t mlen = 0;
    FILE *f = open_memstream(&mtext, &mlen);
    if (f) {
        wc_model_opts_help(f);
        if (fclose(f) != 0) {
            free(mtext);
            mtext = NULL;
        }
    }
    printf(model_help, text ? text : "", mtext ? mtext : "");
    free(text);
    free(mtext);
}

/* The value of an option of mrc. */
static int take_mrc_option(model_cli *m, const wc_opts *p, int id)
{
    const char *opt = wc_opts_name(p), *v = p->value;
    double d;
    switch (id) {
    case O_SETS:
        if (parse_num(opt, v, 1, 1 << 24, &d) < 0) return -1;
        m->sets = (uint32_t)d;
        if (!wc_is_pow2(m->sets)) {
            wc_cli_error("option --sets: %u is not a power of two", m->sets);
            return -1;
        }
        return 0;
    case O_INDEX:
        if (strlen(v) != 1 || !strchr("LHPX", v[0])) {
            wc_cli_error("option --index: '%s' is not one of L, H, P, X", v);
            return -1;
        }
        m->index = v[0];
        return 0;
    case O_SHARDS: return parse_num(opt, v, 1e-6, 1, &m->shards);
    case O_MAX_LINES:
        if (parse_num(opt, v, 1, 1e15, &d) < 0) return -1;
        m->max_lines = (uint64_t)d;
        return 0;
    case O_SVG: m->svg = v; return 0;
    }
    return 0;
}

/* Parses the arguments of model (mrc = false) or mrc. */
static int parse(model_cli *m, int argc, char **argv, bool mrc)
{
    const char *cmd = mrc ? "mrc" : "model";
    wc_opts p;
    wc_opts_init(&p, cmd, mrc ? mrc_tables : model_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        int rc = id == WC_CLI_O_SET ? take_model_option(m, p.value) : 0;
        if (rc == 0) rc = wc_cli_common_take(&m->c, &p, id);
        if (rc < 0) return -1;
        if (rc > 0) continue;
        switch (id) {
        case WC_OPT_HELP: print_help(mrc); return 1;
        case WC_OPT_BAD: return -1;
        case WC_OPT_ARG:
            wc_cli_error("%s: unexpected argument '%s' (give the workload with --workload)", cmd,
                         p.value);
            return -1;
        case O_WORKLOAD: m->workload = p.value; break;
        case O_TRACE: m->trace = p.value; break;
        case O_KERNELS: m->kernels = p.value; break;
        case O_HIST: m->hist = true; break;
        case O_HIST_CSV: m->hist_csv = p.value; break;
        case O_NO_CLASSIFY: m->no_classify = true; break;
        default:
            if (take_mrc_option(m, &p, id) < 0) return -1;
        }
    }
    if (!m->workload == !m->trace) {
        wc_cli_error("%s: give exactly one of --workload NAME or --trace PATH", cmd);
        return -1;
    }
    if (m->kernels && !m->trace) {
        wc_cli_error("%s: --kernels applies to --trace only", cmd);
        return -1;
    }
    const char *outs[] = {m->c.json, m->c.csv, m->hist_csv, m->svg};
    const char *names[] = {"--json", "--csv", "--hist-csv", "--svg"};
    const char *ins[] = {m->trace};
    return wc_out_check_io(&m->c, ins, 1, outs, names, 4);
}

static wc_source *open_input(void *ctx, wc_err *err)
{
    const model_cli *m = ctx;
    if (m->cached[0]) return wc_trace_open(m->cached, WC_TRACE_WCT, NULL, err);
    if (m->trace) return wc_cli_open_trace(m->trace, m->kernels, err);
    return wc_workload_open(m->workload, m->c.cfg.seed, err);
}

/* Re-encodes the trace as an uncompressed temporary .wct (m->cached). */
static int cache_trace(model_cli *m, wc_err *err)
{
    snprintf(m->cached, sizeof m->cached, "/tmp/warpcache-model-XXXXXX");
    int fd = wc_out_mkstemp(m->cached, &m->cached_slot);
    if (fd < 0) {
        m->cached[0] = 0; /* no temporary file: read the trace each time */
        return 0;
    }
    close(fd);
    wc_source *src = wc_cli_open_trace(m->trace, m->kernels, err);
    wc_wct_options o = {.codec = 0};
    int rc = src ? wc_trace_write_wct(src, m->cached, &o, err) : -1;
    wc_source_destroy(src);
    if (rc < 0) {
        unlink(m->cached);
        wc_out_temp_unregister(m->cached_slot);
        m->cached[0] = 0;
    }
    return rc;
}

static bool takes_stdout(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

static void put_json(const void *r, const void *o, FILE *f)
{
    wc_model_write_json(r, o, f);
}
static void put_csv(const void *r, const void *o, FILE *f)
{
    wc_model_write_csv(r, f);
}
static void put_hist_csv(const void *r, const void *o, FILE *f)
{
    wc_model_write_hist_csv(r, f);
}

static int setup(model_cli *m, int argc, char **argv, bool mrc)
{
    memset(m, 0, sizeof *m);
    wc_cli_common_init(&m->c);
    wc_model_opts_defaults(&m->mo);
    int rc = parse(m, argc, argv, mrc);
    if (rc != 0) return rc;
    if (wc_cli_load_config(&m->c) < 0) return -1;
    return 0;
}

int wc_cmd_model(int argc, char **argv)
{
    model_cli m;
    int rc = setup(&m, argc, argv, false);
    if (rc) return rc > 0 ? WC_EXIT_OK : WC_EXIT_USAGE;
    const char *paths[] = {m.c.json, m.c.csv, m.hist_csv};
    wc_out_set outs; /* opened first: a path that cannot be written fails now */
    if (wc_out_set_open(&outs, paths, 3) < 0) return WC_EXIT_USAGE;
    wc_model_result res;
    memset(&res, 0, sizeof res);
    wc_err err = {{0}};
    if (m.no_classify) {
        wc_source *src = open_input(&m, &err);
        rc = src ? wc_model_run(&m.mo, &m.c.cfg, src, WC_RUN_FULL, &res, NULL, NULL, &err) : -1;
        wc_source_destroy(src);
        if (rc == 0) {
            /* classes of the full run alone: infinite = compulsory + latency */
            wc_model_opts one = m.mo;
            one.assoc = one.latency = one.mshr = false;
            memset(&res.total, 0, sizeof res.total);
            snprintf(res.total.name, sizeof res.total.name, "total");
            for (size_t i = 0; i < res.n_kernels; i++) {
                wc_model_classes_compute(&res.kernels[i], &one);
                wc_model_counts_add(&res.total.run[WC_RUN_FULL], &res.kernels[i].run[WC_RUN_FULL]);
                wc_rd_hist_merge(&res.total.hist, &res.kernels[i].hist);
            }
            res.total.ran[WC_RUN_FULL] = true;
            wc_model_classes_compute(&res.total, &one);
        }
    } else {
        /* Classification reads the input four times: a text trace is parsed
         * once and re-read from a temporary .wct, the fastest format. */
        rc = m.trace ? cache_trace(&m, &err) : 0;
        if (rc == 0) rc = wc_model_classify(&m.mo, &m.c.cfg, open_input, &m, &res, &err);
        if (m.cached[0]) {
            unlink(m.cached);
            wc_out_temp_unregister(m.cached_slot);
        }
    }
    if (rc < 0) {
        wc_cli_error("%s", err.msg);
        wc_model_result_free(&res);
        wc_out_set_abort(&outs);
        return wc_cli_status_of(&err);
    }
    if (!takes_stdout(m.c.json) && !takes_stdout(m.c.csv) && !takes_stdout(m.hist_csv))
        wc_model_write_text(&res, m.hist, stdout);
    FILE *f;
    if ((f = wc_out_set_file(&outs, 0))) put_json(&res, &m.mo, f);
    if ((f = wc_out_set_file(&outs, 1))) put_csv(&res, NULL, f);
    if ((f = wc_out_set_file(&outs, 2))) put_hist_csv(&res, NULL, f);
    int out = wc_out_set_commit(&outs);
    wc_model_result_free(&res);
    return out;
}

/* ---- mrc ----------------------------------------------------------------------- */

enum { MRC_FULL, MRC_SETS, MRC_SAMPLED, MRC__COUNT };

typedef struct mrc_feed {
    wc_mrc **m[MRC__COUNT]; /* per curve, per core */
    uint32_t ncores;
} mrc_feed;

static void feed_event(void *ctx, const wc_model_event *e)
{
    mrc_feed *f = ctx;
    if (e->refused || e->core >= f->ncores) return;
    for (int k = 0; k < MRC__COUNT; k++)
        if (f->m[k]) wc_mrc_access(f->m[k][e->core], e->line);
}

/* Miss ratio over the cores (each core has its own cache). */
static double curve_at(wc_mrc **m, uint32_t ncores, uint64_t size)
{
    double miss = 0, acc = 0;
    for (uint32_t c = 0; c < ncores; c++) {
        double a = (double)wc_mrc_accesses(m[c]);
        miss += wc_mrc_miss_ratio(m[c], size) * a;
        acc += a;
    }
    return acc > 0 ? miss / acc : 0;
}

static void free_feed(mrc_feed *f)
{
    for (int k = 0; k < MRC__COUNT; k++) {
        if (!f->m[k]) continue;
        for (uint32_t c = 0; c < f->ncores; c++) wc_mrc_destroy(f->m[k][c]);
        free(f->m[k]);
    }
}

static int make_curves(mrc_feed *f, int k, const wc_mrc_opts *o, wc_err *err)
{
    f->m[k] = calloc(f->ncores, sizeof *f->m[k]);
    if (!f->m[k]) return wc_errf(err, "mrc: out of memory");
    for (uint32_t c = 0; c < f->ncores; c++)
        if (!(f->m[k][c] = wc_mrc_create(o, err))) return -1;
    return 0;
}

/* What the mrc writers need. */
typedef struct mrc_out {
    const wc_mrc_curve *curves;
    size_t nc;
    uint32_t line;
    const char *what;
} mrc_out;

static void put_mrc_json(const void *o_, const void *unused, FILE *f)
{
    const mrc_out *o = o_;
    wc_mrc_write_json(o->curves, o->nc, o->line, f);
}

static void put_mrc_csv(const void *o_, const void *unused, FILE *f)
{
    const mrc_out *o = o_;
    wc_mrc_write_csv(o->curves, o->nc, o->line, f);
}

static void put_mrc_svg(const void *o_, const void *unused, FILE *f)
{
    const mrc_out *o = o_;
    double xs[MRC__COUNT][256];
    wc_plot_series s[MRC__COUNT];
    for (size_t k = 0; k < o->nc; k++) {
        for (size_t i = 0; i < o->curves[k].n; i++) xs[k][i] = (double)o->curves[k].size[i];
        s[k] = (wc_plot_series){o->curves[k].label, xs[k], o->curves[k].miss, o->curves[k].n};
    }
    char title[256];
    snprintf(title, sizeof title, "Miss-ratio curve: %s", o->what);
    wc_plot_lines p = {.id = "mrc",
                       .title = title,
                       .xlabel = "cache size: lines (bytes below)",
                       .ylabel = "miss ratio",
                       .xlog2 = true,
                       .line_bytes = o->line,
                       .ymin = 0.0,
                       .ymax = 1.0,
                       .series = s,
                       .nseries = o->nc};
    wc_plot_write_lines(f, &p);
}

int wc_cmd_mrc(int argc, char **argv)
{
    model_cli m;
    int rc = setup(&m, argc, argv, true);
    if (rc) return rc > 0 ? WC_EXIT_OK : WC_EXIT_USAGE;
    const char *paths[] = {m.c.json, m.c.csv, m.svg};
    wc_out_set outs; /* opened first: a path that cannot be written fails now */
    if (wc_out_set_open(&outs, paths, 3) < 0) return WC_EXIT_USAGE;
    wc_model_opts o = m.mo;
    o.latency = o.mshr = o.divergence = false;
    o.assoc = false; /* the stream; the curves keep their own stacks */
    uint32_t line = o.line_bytes ? o.line_bytes : m.c.cfg.l1.line_bytes;
    uint32_t ncores = o.cores ? o.cores : wc_config_n_sm(&m.c.cfg);
    if (!ncores) ncores = 1;
    mrc_feed feed;
    memset(&feed, 0, sizeof feed);
    feed.ncores = ncores;
    wc_err err = {{0}};
    wc_mrc_opts full = {1, 'L', line, 1.0};
    wc_mrc_opts sets = {m.sets, m.index ? m.index : 'L', line, 1.0};
    wc_mrc_opts sampled = {1, 'L', line, m.shards};
    rc = make_curves(&feed, MRC_FULL, &full, &err);
    if (rc == 0 && m.sets) rc = make_curves(&feed, MRC_SETS, &sets, &err);
    if (rc == 0 && m.shards > 0) rc = make_curves(&feed, MRC_SAMPLED, &sampled, &err);
    wc_model_result res;
    memset(&res, 0, sizeof res);
    wc_source *src = rc == 0 ? open_input(&m, &err) : NULL;
    if (src)
        rc = wc_model_run(&o, &m.c.cfg, src, WC_RUN_FULL, &res, feed_event, &feed, &err);
    else
        rc = -1;
    wc_source_destroy(src);
    wc_model_result_free(&res);
    if (rc < 0) {
        wc_cli_error("%s", err.msg);
        free_feed(&feed);
        wc_out_set_abort(&outs);
        return wc_cli_status_of(&err);
    }

    /* sizes: every curve on the same points (lines) */
    uint64_t maxd = 1;
    for (uint32_t c = 0; c < ncores; c++)
        if (wc_mrc_max_size(feed.m[MRC_FULL][c]) > maxd)
            maxd = wc_mrc_max_size(feed.m[MRC_FULL][c]);
    if (m.max_lines) maxd = m.max_lines;
    uint64_t sizes[256];
    size_t n = wc_mrc_default_sizes(maxd, sizes, 256);
    double y[MRC__COUNT][256];
    uint64_t set_sizes[256];
    size_t nset = 0;
    for (size_t i = 0; i < n; i++) {
        y[MRC_FULL][i] = curve_at(feed.m[MRC_FULL], ncores, sizes[i]);
        if (feed.m[MRC_SAMPLED])
            y[MRC_SAMPLED][i] = curve_at(feed.m[MRC_SAMPLED], ncores, sizes[i]);
    }
    if (feed.m[MRC_SETS]) { /* over ways 1, 2, 3, 4, 6 ... up to the largest set distance */
        uint64_t maxw = 1, ways[256];
        for (uint32_t c = 0; c < ncores; c++)
            if (wc_mrc_max_size(feed.m[MRC_SETS][c]) > maxw)
                maxw = wc_mrc_max_size(feed.m[MRC_SETS][c]);
        if (m.max_lines) maxw = (m.max_lines + m.sets - 1) / m.sets;
        nset = wc_mrc_default_sizes(maxw, ways, 256);
        for (size_t i = 0; i < nset; i++) {
            set_sizes[i] = ways[i] * m.sets;
            y[MRC_SETS][i] = curve_at(feed.m[MRC_SETS], ncores, ways[i]);
        }
    }
    wc_mrc_curve curves[MRC__COUNT];
    size_t nc = 0;
    char set_label[64], shards_label[64];
    curves[nc++] = (wc_mrc_curve){"fully associative LRU", sizes, y[MRC_FULL], n};
    if (feed.m[MRC_SETS]) {
        snprintf(set_label, sizeof set_label, "%u sets (%c index), size = sets x ways", m.sets,
                 sets.set_index);
        curves[nc++] = (wc_mrc_curve){set_label, set_sizes, y[MRC_SETS], nset};
    }
    if (feed.m[MRC_SAMPLED]) {
        snprintf(shards_label, sizeof shards_label, "SHARDS rate %g", m.shards);
        curves[nc++] = (wc_mrc_curve){shards_label, sizes, y[MRC_SAMPLED], n};
    }
    if (!takes_stdout(m.c.json) && !takes_stdout(m.c.csv)) {
        printf("miss-ratio curve of %s (%u B lines, %llu accesses)\n",
               m.workload ? m.workload : m.trace, line,
               (unsigned long long)wc_mrc_accesses(feed.m[MRC_FULL][0]));
        wc_mrc_write_text(curves, nc, line, stdout);
        if (feed.m[MRC_SAMPLED]) {
            double mean = 0, max = 0;
            for (size_t i = 0; i < n; i++) {
                double e = fabs(y[MRC_SAMPLED][i] - y[MRC_FULL][i]);
                mean += e / (double)n;
                if (e > max) max = e;
            }
            printf("\nSHARDS error against the exact curve: mean %.4f, max %.4f (absolute)\n", mean,
                   max);
        }
    }
    mrc_out mo = {curves, nc, line, m.workload ? m.workload : m.trace};
    FILE *f;
    if ((f = wc_out_set_file(&outs, 0))) put_mrc_json(&mo, NULL, f);
    if ((f = wc_out_set_file(&outs, 1))) put_mrc_csv(&mo, NULL, f);
    if ((f = wc_out_set_file(&outs, 2))) put_mrc_svg(&mo, NULL, f);
    int out = wc_out_set_commit(&outs);
    free_feed(&feed);
    return out;
}
