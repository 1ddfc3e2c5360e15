/*
 * report_run.c - the figures of `warpcache run --json` results (report.h):
 *
 *   line utilisation  stacked bars: the L1 lines evicted, by the share of
 *                     their 32 B sectors referenced while cached (% of the
 *                     evictions), one bar per run (a suite's JSON array) or,
 *                     for a single run of several kernels, per kernel + total
 *   timeline          when the run recorded events (streaming bypass, TSC+
 *                     mode, SM dueling ...): one step lane per (key, SM)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "report/svg_plot.h"

#define MAX_LANES 32

static bool is_run(const wc_jv *v)
{
    return wc_jv_get(v, "kernels") && wc_jv_get(v, "totals") && wc_jv_get(v, "schema_version");
}

static bool run_matches(const report_input *in)
{
    const wc_jv *d = in->ndocs == 1 ? in->docs[0] : NULL;
    if (d && d->type == WC_JV_ARR) return d->n > 0 && is_run(&d->kids[0]);
    return is_run(d);
}

/* The runs of the file: the object itself, or the elements of a suite. */
static const wc_jv *run_at(const wc_jv *d, size_t i)
{
    return d->type == WC_JV_ARR ? &d->kids[i] : d;
}

static const char *const use_keys[] = {"0", "25", "50", "75", "100"};
static const char *const use_labels[] = {"0% of sectors used", "25%", "50%", "75%", "100%"};
#define NUSE 5

/* The line-use shares (% of evictions) of one statistics object; NaN when
 * it evicted nothing. */
static int line_use(const wc_jv *stats, double *out, report_err *err)
{
    const wc_jv *lu = wc_jv_get(wc_jv_get(stats, "l1"), "line_use");
    if (!lu || lu->type != WC_JV_OBJ) return report_fail(err, stats, "no 'l1.line_use' object");
    double sum = 0;
    for (int k = 0; k < NUSE; k++) {
        out[k] = wc_jv_num(wc_jv_get(lu, use_keys[k]));
        if (!isfinite(out[k]))
            return report_fail(err, lu, "'line_use.%s' is not a number", use_keys[k]);
        sum += out[k];
    }
    for (int k = 0; k < NUSE; k++) out[k] = sum > 0 ? 100 * out[k] / sum : NAN;
    return 0;
}

/* "workload" or "workload [design]" when a design was applied. */
static void run_label(const wc_jv *run, char *buf, size_t n)
{
    const char *w = wc_jv_str(wc_jv_get(run, "workload"));
    const char *c = wc_jv_str(wc_jv_get(run, "config"));
    const char *d = c ? strstr(c, "+ design ") : NULL;
    if (d)
        snprintf(buf, n, "%s [%s]", w ? w : "?", d + 9);
    else
        snprintf(buf, n, "%s", w ? w : "?");
}

static int line_use_figure(const report_input *in, report_figs *out, report_err *err)
{
    const wc_jv *d = in->docs[0];
    size_t nruns = d->type == WC_JV_ARR ? d->n : 1;
    const wc_jv *k0 = wc_jv_get(run_at(d, 0), "kernels");
    bool per_kernel = nruns == 1 && k0 && k0->type == WC_JV_ARR && k0->n > 1;
    size_t ng = per_kernel ? k0->n + 1 : nruns;
    double *v = calloc(ng * NUSE + 1, sizeof *v);
    char **labels = calloc(ng + 1, sizeof *labels);
    int rc = -1;
    bool any = false;
    if (!v || !labels) {
        report_fail(err, d, "out of memory");
        goto done;
    }
    for (size_t g = 0; g < ng; g++) {
        const wc_jv *st = per_kernel ? (g < k0->n ? &k0->kids[g] : wc_jv_get(d, "totals"))
                                     : wc_jv_get(run_at(d, g), "totals");
        char label[512];
        if (!st) {
            report_fail(err, run_at(d, g), "a run needs a 'totals' object");
            goto done;
        }
        if (line_use(st, v + g * NUSE, err) < 0) goto done;
        any |= isfinite(v[g * NUSE]);
        if (per_kernel) {
            const char *name = wc_jv_str(wc_jv_get(st, "name"));
            double id = wc_jv_num(wc_jv_get(st, "id"));
            if (g < k0->n)
                snprintf(label, sizeof label, "%.0f %s", id, name ? name : "?");
            else
                snprintf(label, sizeof label, "total");
        } else {
            run_label(run_at(d, g), label, sizeof label);
        }
        if (!(labels[g] = strdup(label))) {
            report_fail(err, st, "out of memory");
            goto done;
        }
    }
    rc = 0;
    if (!any) goto done; /* nothing was evicted: no figure to draw */
    char caption[1024], title[512];
    char w[256];
    run_label(run_at(d, 0), w, sizeof w);
    if (per_kernel)
        snprintf(title, sizeof title, "L1 line utilisation per kernel: %s", w);
    else
        snprintf(title, sizeof title, "L1 line utilisation per run");
    snprintf(caption, sizeof caption,
             "From the run results %s: the L1 lines evicted, by the share of their 32 B sectors "
             "that were referenced while the line was cached (stats.md: l1.line_use), in %% of "
             "the evictions%s. A bar is missing when nothing was evicted.",
             in->path, per_kernel ? "; one bar per kernel, the last the whole run" : "");
    wc_plot_bars p = {.title = title,
                      .xlabel = per_kernel ? "kernel" : "workload",
                      .ylabel = "evicted lines (%)",
                      .groups = (const char *const *)labels,
                      .ngroups = ng,
                      .nmeans = per_kernel ? 1 : 0,
                      .series = use_labels,
                      .nseries = NUSE,
                      .v = v,
                      .ref = NAN,
                      .stacked = true,
                      .ymax = 100,
                      .style = in->style};
    FILE *f = report_fig_open(out, in, "line-use", title, caption, err);
    if (!f) {
        rc = -1;
        goto done;
    }
    p.id = out->v[out->n - 1].id;
    wc_plot_write_bars(f, &p);
    rc = report_fig_close(out, f, err);
done:
    for (size_t g = 0; labels && g < ng; g++) free(labels[g]);
    free(labels);
    free(v);
    return rc;
}

/* ---- timelines ------------------------------------------------------------- */

typedef struct lane {
    char label[96];
    const char *key;
    int sm;
    double *x, *y;
    size_t n, cap;
} lane;

static int lane_cmp(const void *a_, const void *b_)
{
    const lane *a = a_, *b = b_;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->sm > b->sm) - (a->sm < b->sm);
}

static int lane_push(lane *l, double x, double y)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        double *nx = realloc(l->x, cap * sizeof *nx);
        if (!nx) return -1;
        l->x = nx;
        double *ny = realloc(l->y, cap * sizeof *ny);
        if (!ny) return -1;
        l->y = ny, l->cap = cap;
    }
    l->x[l->n] = x, l->y[l->n] = y, l->n++;
    return 0;
}

static int timeline_figure(const report_input *in, const wc_jv *run, size_t index, report_figs *out,
                           report_err *err)
{
    const wc_jv *tl = wc_jv_get(run, "timeline");
    if (!tl) return 0;
    if (tl->type != WC_JV_ARR) return report_fail(err, tl, "'timeline' must be an array");
    if (tl->n == 0) return 0;
    lane lanes[MAX_LANES];
    size_t nl = 0, more = 0;
    int rc = -1;
    memset(lanes, 0, sizeof lanes);
    for (size_t i = 0; i < tl->n; i++) {
        const wc_jv *e = &tl->kids[i];
        const char *key = wc_jv_str(wc_jv_get(e, "key"));
        double cyc = wc_jv_num(wc_jv_get(e, "cycle")), sm = wc_jv_num(wc_jv_get(e, "sm")),
               val = wc_jv_num(wc_jv_get(e, "value"));
        if (!key || !isfinite(cyc) || !isfinite(sm) || !isfinite(val)) {
            report_fail(err, e, "a timeline event needs 'cycle', 'sm', 'key' and 'value'");
            goto done;
        }
        size_t l = 0;
        while (l < nl && !(strcmp(lanes[l].key, key) == 0 && lanes[l].sm == (int)sm)) l++;
        if (l == nl) {
            if (nl == MAX_LANES) {
                more++;
                continue;
            }
            lanes[nl].key = key, lanes[nl].sm = (int)sm;
            if (sm < 0)
                snprintf(lanes[nl].label, sizeof lanes[nl].label, "%s (GPU)", key);
            else
                snprintf(lanes[nl].label, sizeof lanes[nl].label, "%s SM %d", key, (int)sm);
            nl++;
        }
        if (lane_push(&lanes[l], cyc, val) < 0) {
            report_fail(err, e, "out of memory");
            goto done;
        }
    }
    qsort(lanes, nl, sizeof *lanes, lane_cmp);
    wc_plot_series s[MAX_LANES];
    for (size_t l = 0; l < nl; l++)
        s[l] = (wc_plot_series){lanes[l].label, lanes[l].x, lanes[l].y, lanes[l].n};
    char w[256], title[512], caption[1024], what[32];
    run_label(run, w, sizeof w);
    snprintf(title, sizeof title, "Timeline of adaptive mechanisms: %s", w);
    snprintf(caption, sizeof caption,
             "From the run results %s: every event the run recorded (stats.md, timeline), one "
             "lane per key and SM; a lane holds the value set at each event until the next, "
             "over the run's cycles (l1_bypass / l2_bypass: 1 while streaming bypass has the "
             "cache off; tscp_mode_coarse: 1 while TSC+ followers use coarse mode)%s.",
             in->path, more ? "; lanes beyond the first 32 are left out" : "");
    snprintf(what, sizeof what, index ? "timeline-%zu" : "timeline", index);
    wc_plot_timeline t = {.title = title,
                          .xlabel = "core cycles",
                          .lanes = s,
                          .nlanes = nl,
                          .xmax = wc_jv_num(wc_jv_get(wc_jv_get(run, "totals"), "cycles")),
                          .style = in->style};
    if (!isfinite(t.xmax)) t.xmax = 0;
    FILE *f = report_fig_open(out, in, what, title, caption, err);
    if (!f) goto done;
    t.id = out->v[out->n - 1].id;
    wc_plot_write_timeline(f, &t);
    rc = report_fig_close(out, f, err);
done:
    for (size_t l = 0; l < MAX_LANES; l++) free(lanes[l].x), free(lanes[l].y);
    return rc;
}

static int run_build(const report_input *in, report_figs *out, report_err *err)
{
    const wc_jv *d = in->docs[0];
    size_t nruns = d->type == WC_JV_ARR ? d->n : 1;
    for (size_t i = 0; i < nruns; i++)
        if (!is_run(run_at(d, i)))
            return report_fail(err, run_at(d, i), "not a run's statistics object");
    if (line_use_figure(in, out, err) < 0) return -1;
    for (size_t i = 0; i < nruns; i++)
        if (timeline_figure(in, run_at(d, i), nruns > 1 ? i + 1 : 0, out, err) < 0) return -1;
    return 0;
}

const report_kind wc_report_run = {"run", run_matches, run_build};
