/*
 * report_model.c - the figures of seed 003's reuse-distance model
 * (report.h):
 *
 *   model JSON  the reuse-distance histogram of the whole run (power-of-two
 *               bins, % of accesses, cold/infinite last) and the miss classes
 *               per kernel as stacked bars (% of accesses)
 *   mrc JSON    the miss-ratio curves over a log2 cache-size axis in lines
 *               and bytes
 *   validate    per kernel the simulator's and the model's L1 miss rates side
 *   JSON        by side (the mean absolute error in the caption)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "report/svg_plot.h"

/* ---- model ----------------------------------------------------------------- */

static bool model_matches(const report_input *in)
{
    const wc_jv *d = in->ndocs == 1 ? in->docs[0] : NULL;
    return wc_jv_str(wc_jv_get(d, "model")) && wc_jv_get(d, "kernels");
}

/* Bins: 0, 1, 2-3, 4-7, ... up to 2^30, then cold/infinite. */
#define NBIN 33

static int histogram_figure(const report_input *in, const wc_jv *k, report_figs *out,
                            report_err *err)
{
    const wc_jv *h = wc_jv_get(k, "histogram");
    if (!h) return 0;
    if (h->type != WC_JV_ARR) return report_fail(err, h, "'histogram' must be an array");
    double count[NBIN] = {0}, total = 0;
    int last = -1;
    for (size_t i = 0; i < h->n; i++) {
        const wc_jv *b = &h->kids[i], *lo = wc_jv_get(b, "lo");
        double c = wc_jv_num(wc_jv_get(b, "count"));
        if (!lo || !isfinite(c) || c < 0)
            return report_fail(err, b, "a histogram bin needs 'lo' and a 'count'");
        int bin;
        if (lo->type == WC_JV_NULL) {
            bin = NBIN - 1;
        } else {
            double l = wc_jv_num(lo);
            if (!(l >= 0)) return report_fail(err, lo, "'lo' must be a distance or null");
            bin = l < 1 ? 0 : 1 + (int)floor(log2(l));
            if (bin > NBIN - 2) bin = NBIN - 2;
            if (bin > last) last = bin;
        }
        count[bin] += c, total += c;
    }
    if (total <= 0) return 0;
    char labels[NBIN][32];
    const char *lp[NBIN];
    double v[NBIN];
    size_t ng = 0;
    for (int b = 0; b <= last; b++, ng++) {
        if (b < 2)
            snprintf(labels[ng], sizeof labels[ng], "%d", b);
        else
            snprintf(labels[ng], sizeof labels[ng], "%.0f-%.0f", exp2(b - 1), exp2(b) - 1);
        lp[ng] = labels[ng], v[ng] = 100 * count[b] / total;
    }
    snprintf(labels[ng], sizeof labels[ng], "cold/inf");
    lp[ng] = labels[ng], v[ng] = 100 * count[NBIN - 1] / total, ng++;
    char title[256], caption[1024];
    const char *name = wc_jv_str(wc_jv_get(k, "name"));
    snprintf(title, sizeof title, "Reuse-distance histogram (%s)", name ? name : "?");
    snprintf(caption, sizeof caption,
             "From the model results %s: the accesses of the whole run by reuse distance (the "
             "line's depth in its set's LRU stack at issue, seed 003's model), in power-of-two "
             "bins by each bin's lower bound, %% of all accesses; cold/inf: infinite "
             "distances (first accesses and lines not in the stack).",
             in->path);
    wc_plot_bars p = {.title = title,
                      .xlabel = "reuse distance (lines)",
                      .ylabel = "accesses (%)",
                      .groups = lp,
                      .ngroups = ng,
                      .v = v,
                      .ref = NAN};
    return report_fig_bars(out, in, "reuse-hist", title, caption, &p, err);
}

static const char *const classes[] = {"compulsory", "capacity", "associativity", "latency", "mshr"};
#define NCLASS 5

static int classes_figure(const report_input *in, const wc_jv *kernels, report_figs *out,
                          report_err *err)
{
    size_t ng = kernels->n;
    double *v = calloc(ng * NCLASS + 1, sizeof *v);
    char **labels = calloc(ng + 1, sizeof *labels);
    int rc = -1;
    if (!v || !labels) {
        report_fail(err, kernels, "out of memory");
        goto done;
    }
    for (size_t g = 0; g < ng; g++) {
        const wc_jv *k = &kernels->kids[g], *rates = wc_jv_get(k, "rates");
        const char *name = wc_jv_str(wc_jv_get(k, "name"));
        if (!rates || rates->type != WC_JV_OBJ || !name) {
            report_fail(err, k, "a kernel needs a 'name' and a 'rates' object");
            goto done;
        }
        for (int c = 0; c < NCLASS; c++) {
            double r = wc_jv_num(wc_jv_get(rates, classes[c]));
            if (!isfinite(r)) {
                report_fail(err, rates, "'rates.%s' is not a number", classes[c]);
                goto done;
            }
            v[g * NCLASS + c] = 100 * r;
        }
        if (!(labels[g] = strdup(name))) {
            report_fail(err, k, "out of memory");
            goto done;
        }
    }
    char caption[1024];
    snprintf(caption, sizeof caption,
             "From the model results %s: the modelled L1 miss rate of each kernel split into "
             "seed 003's miss classes (docs/model.md: compulsory, capacity, associativity, "
             "latency and MSHR misses, which sum to the modelled misses), in %% of the "
             "kernel's accesses; the last bar is the whole run.",
             in->path);
    const wc_jv *last = &kernels->kids[ng - 1];
    bool total = ng > 1 && wc_jv_num(wc_jv_get(last, "id")) == 0;
    wc_plot_bars p = {.title = "Modelled L1 misses by class",
                      .xlabel = "kernel",
                      .ylabel = "misses (% of accesses)",
                      .groups = (const char *const *)labels,
                      .ngroups = ng,
                      .nmeans = total ? 1 : 0,
                      .series = classes,
                      .nseries = NCLASS,
                      .v = v,
                      .ref = NAN,
                      .stacked = true};
    rc = report_fig_bars(out, in, "miss-classes", p.title, caption, &p, err);
done:
    for (size_t g = 0; labels && g < ng; g++) free(labels[g]);
    free(labels);
    free(v);
    return rc;
}

static int model_build(const report_input *in, report_figs *out, report_err *err)
{
    const wc_jv *d = in->docs[0], *ks = wc_jv_get(d, "kernels");
    if (ks->type != WC_JV_ARR || ks->n == 0)
        return report_fail(err, ks, "'kernels' must be a non-empty array");
    /* the histogram of the whole run: the "total" entry (id 0), else the only kernel */
    const wc_jv *whole = &ks->kids[ks->n - 1];
    if (histogram_figure(in, whole, out, err) < 0) return -1;
    return classes_figure(in, ks, out, err);
}

const report_kind wc_report_model = {"model", model_matches, model_build};

/* ---- mrc ------------------------------------------------------------------- */

static bool mrc_matches(const report_input *in)
{
    const wc_jv *d = in->ndocs == 1 ? in->docs[0] : NULL;
    return wc_jv_get(d, "curves") && wc_jv_get(d, "line_bytes");
}

#define MAX_CURVES 8

static int mrc_build(const report_input *in, report_figs *out, report_err *err)
{
    const wc_jv *d = in->docs[0], *cs = wc_jv_get(d, "curves");
    double line = wc_jv_num(wc_jv_get(d, "line_bytes"));
    if (!(line > 0) || line > 1 << 20)
        return report_fail(err, wc_jv_get(d, "line_bytes"), "'line_bytes' must be a size");
    if (cs->type != WC_JV_ARR || cs->n == 0 || cs->n > MAX_CURVES)
        return report_fail(err, cs, "'curves' must be an array of 1 to %d curves", MAX_CURVES);
    wc_plot_series s[MAX_CURVES];
    double *xy[MAX_CURVES] = {0};
    int rc = -1;
    for (size_t c = 0; c < cs->n; c++) {
        const wc_jv *cv = &cs->kids[c], *pts = wc_jv_get(cv, "points");
        const char *label = wc_jv_str(wc_jv_get(cv, "label"));
        if (!label || !pts || pts->type != WC_JV_ARR) {
            report_fail(err, cv, "a curve needs a 'label' and a 'points' array");
            goto done;
        }
        if (!(xy[c] = malloc((2 * pts->n + 1) * sizeof(double)))) {
            report_fail(err, cv, "out of memory");
            goto done;
        }
        for (size_t i = 0; i < pts->n; i++) {
            const wc_jv *pt = &pts->kids[i];
            double x = wc_jv_num(wc_jv_get(pt, "lines")),
                   y = wc_jv_num(wc_jv_get(pt, "miss_ratio"));
            if (!(x > 0) || !isfinite(y)) {
                report_fail(err, pt, "a point needs 'lines' > 0 and a 'miss_ratio'");
                goto done;
            }
            xy[c][i] = x, xy[c][pts->n + i] = y;
        }
        s[c] = (wc_plot_series){label, xy[c], xy[c] + pts->n, pts->n};
    }
    char caption[1024];
    snprintf(caption, sizeof caption,
             "From the mrc results %s: the L1 miss ratio a cache of each size would have "
             "(LRU stack distances, exact or SHARDS-sampled as the label says; a set-associative "
             "curve has size = sets x ways), over "
             "a log2 size axis in lines of %.0f B and, below, in bytes.",
             in->path, line);
    wc_plot_lines p = {.title = "Miss-ratio curves",
                       .xlabel = "cache size: lines (bytes below)",
                       .ylabel = "miss ratio",
                       .xlog2 = true,
                       .line_bytes = (unsigned)line,
                       .ymin = 0,
                       .ymax = 1,
                       .series = s,
                       .nseries = cs->n,
                       .style = in->style};
    FILE *f = report_fig_open(out, in, "mrc", p.title, caption, err);
    if (!f) goto done;
    p.id = out->v[out->n - 1].id;
    wc_plot_write_lines(f, &p);
    rc = report_fig_close(out, f, err);
done:
    for (size_t c = 0; c < MAX_CURVES; c++) free(xy[c]);
    return rc;
}

const report_kind wc_report_mrc = {"mrc", mrc_matches, mrc_build};

/* ---- validate --------------------------------------------------------------- */

static bool validate_matches(const report_input *in)
{
    /* model against simulator; validate --hw (hardware counters) is another shape */
    const wc_jv *d = in->ndocs == 1 ? in->docs[0] : NULL, *k = wc_jv_get(d, "kernels");
    return wc_jv_get(d, "mean_absolute_error") && k && k->type == WC_JV_ARR &&
           (k->n == 0 || wc_jv_get(&k->kids[0], "model_miss_rate"));
}

static int validate_build(const report_input *in, report_figs *out, report_err *err)
{
    const wc_jv *d = in->docs[0], *ks = wc_jv_get(d, "kernels");
    size_t ng = ks->n;
    if (ng == 0) return 0;
    double *v = malloc(2 * ng * sizeof *v);
    char **labels = calloc(ng, sizeof *labels);
    int rc = -1;
    if (!v || !labels) {
        report_fail(err, ks, "out of memory");
        goto done;
    }
    for (size_t g = 0; g < ng; g++) {
        const wc_jv *k = &ks->kids[g];
        const char *w = wc_jv_str(wc_jv_get(k, "workload")),
                   *name = wc_jv_str(wc_jv_get(k, "kernel"));
        double sim = wc_jv_num(wc_jv_get(k, "simulator_miss_rate")),
               mod = wc_jv_num(wc_jv_get(k, "model_miss_rate"));
        if (!w || !name || !isfinite(sim) || !isfinite(mod)) {
            report_fail(err, k,
                        "a kernel needs 'workload', 'kernel', 'simulator_miss_rate' and "
                        "'model_miss_rate'");
            goto done;
        }
        v[2 * g] = 100 * sim, v[2 * g + 1] = 100 * mod;
        size_t n = strlen(w) + strlen(name) + 4;
        if (!(labels[g] = malloc(n))) {
            report_fail(err, k, "out of memory");
            goto done;
        }
        snprintf(labels[g], n, "%s [%s]", w, name);
    }
    static const char *const series[] = {"simulator", "model (seed 003)"};
    char caption[1024];
    snprintf(caption, sizeof caption,
             "From the validate results %s: the L1 load miss rate of each kernel as the "
             "simulator measured it and as seed 003's model predicts it (docs/model.md); mean "
             "absolute error %.2f percentage points.",
             in->path, 100 * wc_jv_num(wc_jv_get(d, "mean_absolute_error")));
    wc_plot_bars p = {.title = "L1 miss rate: simulator and model",
                      .xlabel = "workload [kernel]",
                      .ylabel = "L1 load miss rate (%)",
                      .groups = (const char *const *)labels,
                      .ngroups = ng,
                      .series = series,
                      .nseries = 2,
                      .v = v,
                      .ref = NAN};
    rc = report_fig_bars(out, in, "validate", p.title, caption, &p, err);
done:
    for (size_t g = 0; labels && g < ng; g++) free(labels[g]);
    free(labels);
    free(v);
    return rc;
}

const report_kind wc_report_validate = {"validate", validate_matches, validate_build};
