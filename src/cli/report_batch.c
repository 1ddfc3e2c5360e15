/*
 * report_batch.c - the figures of many simulations at once (report.h):
 *
 *   compare JSON  one grouped bar chart in the seed papers' style: per
 *                 workload (or kernel) the metric of every design divided by
 *                 the reference design's, then the geometric-mean groups
 *                 compare computed (all workloads, and per class label)
 *   sweep JSONL   per workload, the IPC of every grid configuration divided
 *                 by the first configuration's with their geometric mean,
 *                 and the L1 miss rate of every configuration
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "report/svg_plot.h"

/* ---- compare --------------------------------------------------------------- */

/* The suite prefix ("polybench/") and parameter suffix (":scale=0.125")
 * every workload name shares, as lengths (0: none), so bar labels can show
 * "atax" and the axis title the rest.  A prefix ends at a '/', a suffix
 * starts at the ':' of the parameters. */
static void common_parts(const char *const *w, size_t n, size_t *pre, size_t *suf)
{
    *pre = *suf = 0;
    if (n < 2) return;
    const char *slash = strchr(w[0], '/'), *colon = strchr(w[0], ':');
    size_t p = slash ? (size_t)(slash - w[0]) + 1 : 0;
    const char *sfx = colon ? colon : "";
    for (size_t i = 1; i < n; i++) {
        if (p && strncmp(w[i], w[0], p) != 0) p = 0;
        const char *c = strchr(w[i], ':');
        if (!c || strcmp(c, sfx) != 0) sfx = "";
    }
    *pre = p, *suf = strlen(sfx);
    for (size_t i = 0; i < n; i++) /* never shorten a name to nothing */
        if (strlen(w[i]) <= *pre + *suf) *pre = *suf = 0;
}

/* The axis title for workloads shortened by common_parts. */
static void workload_title(const char *w0, size_t pre, size_t suf, char *buf, size_t n)
{
    if (!pre && !suf)
        snprintf(buf, n, "workload");
    else
        snprintf(buf, n, "workload (%.*sNAME%s)", (int)pre, w0, w0 + strlen(w0) - suf);
}

/* A copy of workload w without the common parts, with the kernel if any. */
static char *short_label(const char *w, const char *kernel, size_t pre, size_t suf)
{
    size_t len = strlen(w) - pre - suf, n = len + (kernel ? strlen(kernel) + 3 : 0) + 1;
    char *s = malloc(n);
    if (!s) return NULL;
    if (kernel)
        snprintf(s, n, "%.*s [%s]", (int)len, w + pre, kernel);
    else
        snprintf(s, n, "%.*s", (int)len, w + pre);
    return s;
}

static bool compare_matches(const report_input *in)
{
    const wc_jv *d = in->ndocs == 1 ? in->docs[0] : NULL;
    return wc_jv_get(d, "metric") && wc_jv_get(d, "designs") && wc_jv_get(d, "rows");
}

/* Reads an array of nd numbers (null: NaN) into out. */
static int numbers(const wc_jv *a, size_t nd, double *out, const char *what, report_err *err)
{
    if (!a || a->type != WC_JV_ARR || a->n != nd)
        return report_fail(err, a, "'%s' must be an array of %zu numbers (one per design)", what,
                           nd);
    for (size_t i = 0; i < nd; i++) {
        const wc_jv *x = &a->kids[i];
        if (x->type != WC_JV_NUM && x->type != WC_JV_NULL)
            return report_fail(err, x, "'%s' holds something that is not a number", what);
        out[i] = wc_jv_num(x);
    }
    return 0;
}

/* The labels and values of a bar chart under construction. */
typedef struct bars {
    char **labels;
    double *v;
    size_t ng, ns;
} bars;

static void bars_free(bars *b, size_t ng)
{
    for (size_t g = 0; g < ng && b->labels; g++) free(b->labels[g]);
    free(b->labels);
    free(b->v);
}

/* The mean group (index into means) holding row r's class: its classes
 * string, or for an unlabelled row the group "SEED:-"; means->n: none. */
static size_t row_class(const wc_jv *r, const wc_jv *means)
{
    const char *c = wc_jv_str(wc_jv_get(r, "classes"));
    if (!c) c = "";
    for (size_t m = 0; m < means->n; m++) {
        const char *g = wc_jv_str(wc_jv_get(&means->kids[m], "group"));
        if (!g || strcmp(g, "all") == 0) continue;
        size_t gl = strlen(g);
        if (strcmp(c, g) == 0 || (!c[0] && gl >= 2 && strcmp(g + gl - 2, ":-") == 0)) return m;
    }
    return means->n;
}

/* When compare grouped by class (means other than "all"), the rows in class
 * order as the seed papers draw them: the classes in the order of the
 * means, rows in file order within a class, rows of no class last; band[k]
 * is the class of the k-th row shown.  Otherwise file order (false). */
static bool class_order(const wc_jv *rows, const wc_jv *means, size_t *order, const char **band)
{
    size_t nr = rows->n, nm = means ? means->n : 0, k = 0;
    bool classes = false;
    for (size_t m = 0; m < nm; m++) {
        const char *g = wc_jv_str(wc_jv_get(&means->kids[m], "group"));
        classes |= g && strcmp(g, "all") != 0;
    }
    for (size_t i = 0; i < nr; i++) order[i] = i;
    if (!classes) return false;
    for (size_t m = 0; m <= nm; m++) {
        const char *g = m < nm ? wc_jv_str(wc_jv_get(&means->kids[m], "group")) : "other";
        if (!g || strcmp(g, "all") == 0) continue;
        for (size_t i = 0; i < nr; i++)
            if (row_class(&rows->kids[i], means) == m) order[k] = i, band[k++] = g;
    }
    return true;
}

static int compare_build(const report_input *in, report_figs *out, report_err *err)
{
    const wc_jv *d = in->docs[0], *designs = wc_jv_get(d, "designs"), *rows = wc_jv_get(d, "rows"),
                *means = wc_jv_get(d, "means");
    const char *metric = wc_jv_str(wc_jv_get(d, "metric")),
               *ref = wc_jv_str(wc_jv_get(d, "reference"));
    if (!metric) return report_fail(err, wc_jv_get(d, "metric"), "'metric' must be a string");
    if (!designs || designs->type != WC_JV_ARR || designs->n == 0)
        return report_fail(err, designs ? designs : d, "'designs' must be a non-empty array");
    if (!rows || rows->type != WC_JV_ARR) return report_fail(err, rows, "'rows' must be an array");
    if (means && means->type != WC_JV_ARR)
        return report_fail(err, means, "'means' must be an array");
    size_t nd = designs->n, nm = means ? means->n : 0, ng = rows->n + nm;
    const char **series = calloc(nd, sizeof *series);
    const char **wl = calloc(rows->n + 1, sizeof *wl);
    const char **band = calloc(ng + 1, sizeof *band);
    size_t *order = calloc(rows->n + 1, sizeof *order);
    bars b = {calloc(ng + 1, sizeof(char *)), calloc((ng + 1) * nd, sizeof(double)), ng, nd};
    int rc = -1;
    if (!series || !wl || !band || !order || !b.labels || !b.v) {
        report_fail(err, d, "out of memory");
        goto done;
    }
    for (size_t s = 0; s < nd; s++)
        if (!(series[s] = wc_jv_str(&designs->kids[s]))) {
            report_fail(err, &designs->kids[s], "a design name must be a string");
            goto done;
        }
    for (size_t g = 0; g < rows->n; g++) {
        const wc_jv *r = &rows->kids[g];
        if (!(wl[g] = wc_jv_str(wc_jv_get(r, "workload")))) {
            report_fail(err, r, "a row needs a 'workload' string");
            goto done;
        }
    }
    size_t pre, suf;
    common_parts(wl, rows->n, &pre, &suf);
    char xlabel[256];
    workload_title(rows->n ? wl[0] : "", pre, suf, xlabel, sizeof xlabel);
    bool banded = class_order(rows, means, order, band);
    for (size_t g = 0; g < rows->n; g++) {
        const wc_jv *r = &rows->kids[order[g]];
        if (numbers(wc_jv_get(r, "normalised"), nd, b.v + g * nd, "normalised", err) < 0) {
            if (!wc_jv_get(r, "normalised")) err->line = r->line;
            goto done;
        }
        const char *k = wc_jv_str(wc_jv_get(r, "kernel"));
        if (!(b.labels[g] = short_label(wl[order[g]], k, pre, suf))) {
            report_fail(err, r, "out of memory");
            goto done;
        }
    }
    for (size_t m = 0; m < nm; m++) {
        const wc_jv *r = &means->kids[m], *cnt = wc_jv_get(r, "rows");
        const char *grp = wc_jv_str(wc_jv_get(r, "group"));
        size_t g = rows->n + m;
        if (!grp) {
            report_fail(err, r, "a mean needs a 'group' string");
            goto done;
        }
        if (numbers(wc_jv_get(r, "geomean"), nd, b.v + g * nd, "geomean", err) < 0) {
            if (!wc_jv_get(r, "geomean")) err->line = r->line;
            goto done;
        }
        double n = cnt && cnt->type == WC_JV_ARR && cnt->n ? wc_jv_num(&cnt->kids[0]) : NAN;
        size_t len = strlen(grp) + 32;
        if (!(b.labels[g] = malloc(len))) {
            report_fail(err, r, "out of memory");
            goto done;
        }
        if (isfinite(n))
            snprintf(b.labels[g], len, "GM %s (%.0f)", grp, n);
        else
            snprintf(b.labels[g], len, "GM %s", grp);
    }
    char title[256], ylabel[256], caption[1024];
    snprintf(title, sizeof title, "%s of each design, normalised to %s", metric, ref ? ref : "?");
    snprintf(ylabel, sizeof ylabel, "%s / %s of %s", metric, metric, ref ? ref : "?");
    snprintf(caption, sizeof caption,
             "From the compare results %s: for each workload, the %s of every design divided by "
             "that of the reference design %s on the same workload (no bar: no value). The "
             "groups after the dashed vertical line are the geometric means compare computed, "
             "over all workloads and per class label, with the number of workloads. The dashed "
             "horizontal line marks 1 (as good as the reference).%s",
             in->path, metric, ref ? ref : "?",
             banded ? " Workloads are ordered by class, named above the plot." : "");
    wc_plot_bars p = {.title = title,
                      .xlabel = xlabel,
                      .ylabel = ylabel,
                      .groups = (const char *const *)b.labels,
                      .ngroups = ng,
                      .nmeans = nm,
                      .bands = banded ? band : NULL,
                      .series = series,
                      .nseries = nd,
                      .v = b.v,
                      .ref = 1.0};
    rc = report_fig_bars(out, in, "compare", title, caption, &p, err);
done:
    free(series);
    free(wl);
    free(band);
    free(order);
    bars_free(&b, ng);
    return rc;
}

const report_kind wc_report_compare = {"compare", compare_matches, compare_build};

/* ---- sweep ----------------------------------------------------------------- */

static bool sweep_matches(const report_input *in)
{
    for (size_t i = 0; i < in->ndocs; i++)
        if (!wc_jv_get(in->docs[i], "key") || !wc_jv_get(in->docs[i], "point")) return false;
    return in->ndocs > 0;
}

/* The index of s in the list (appended when new); -1 out of memory. */
static long intern(char ***list, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*list)[i], s) == 0) return (long)i;
    char **l = realloc(*list, (*n + 1) * sizeof *l);
    if (!l) return -1;
    *list = l;
    if (!(l[*n] = strdup(s))) return -1;
    return (long)(*n)++;
}

/* "design p1=v1 p2=v2" of a sweep point ("default" when neither). */
static int config_label(const wc_jv *pt, char *buf, size_t n, report_err *err)
{
    const char *design = wc_jv_str(wc_jv_get(pt, "design"));
    const wc_jv *params = wc_jv_get(pt, "params");
    size_t len = 0;
    buf[0] = 0;
    if (design) len += (size_t)snprintf(buf, n, "%s", design);
    if (params && params->type != WC_JV_OBJ)
        return report_fail(err, params, "'params' must be an object");
    for (size_t i = 0; params && i < params->n && len < n; i++) {
        const char *v = wc_jv_str(&params->kids[i]);
        if (!v) return report_fail(err, &params->kids[i], "a grid value must be a string");
        len +=
            (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? " " : "", params->kids[i].key, v);
    }
    if (!buf[0]) snprintf(buf, n, "default");
    return 0;
}

static void free_list(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++) free(l[i]);
    free(l);
}

typedef struct grid {
    char **wl, **cfg;
    size_t nw, nc;
    double *ipc, *miss; /* [w * nc + c] */
} grid;

static int cmp_doc_key(const void *a, const void *b)
{
    const wc_jv *x = *(const wc_jv *const *)a, *y = *(const wc_jv *const *)b;
    int c = strcmp(wc_jv_str(wc_jv_get(x, "key")), wc_jv_str(wc_jv_get(y, "key")));
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Every point of one sweep, once: the lines all carry the first line's
 * sweep_id (a file that two sweeps appended to, or files concatenated, is
 * not one sweep's result) and no key twice (which of two would count?). */
static int sweep_check(const report_input *in, report_err *err)
{
    size_t n = in->ndocs;
    const char *id = NULL;
    for (size_t i = 0; i < n; i++) {
        const wc_jv *pt = in->docs[i];
        const char *s = wc_jv_str(wc_jv_get(pt, "sweep_id"));
        if (!wc_jv_str(wc_jv_get(pt, "key")))
            return report_fail(err, pt, "a sweep point needs a 'key' string");
        if (!s)
            return report_fail(err, pt,
                               "a sweep point without 'sweep_id', written by an older warpcache: "
                               "whether the points belong to one sweep cannot be checked; run "
                               "the sweep again");
        if (!id)
            id = s;
        else if (strcmp(id, s) != 0)
            return report_fail(err, pt,
                               "a point of sweep %s, but line %d is of sweep %s: results of "
                               "different sweeps",
                               s, in->docs[0]->line, id);
    }
    const wc_jv **by = malloc((n + 1) * sizeof *by);
    if (!by) return report_fail(err, in->docs[0], "out of memory");
    memcpy(by, in->docs, n * sizeof *by);
    qsort(by, n, sizeof *by, cmp_doc_key);
    int rc = 0;
    for (size_t i = 1; i < n && rc == 0; i++) {
        const char *k = wc_jv_str(wc_jv_get(by[i], "key"));
        if (strcmp(k, wc_jv_str(wc_jv_get(by[i - 1], "key"))) == 0)
            rc = report_fail(err, by[i], "point '%s' appears twice (also line %d)", k,
                             by[i - 1]->line);
    }
    free(by);
    return rc;
}

static int sweep_read(const report_input *in, grid *g, report_err *err)
{
    size_t n = in->ndocs;
    if (sweep_check(in, err) < 0) return -1;
    long *at = malloc(2 * n * sizeof *at + 1); /* each point's workload, configuration */
    if (!at) return report_fail(err, in->docs[0], "out of memory");
    for (size_t i = 0; i < n; i++) {
        const wc_jv *pt = in->docs[i], *tot = wc_jv_get(pt, "totals");
        const char *w = wc_jv_str(wc_jv_get(pt, "workload"));
        char label[512];
        int rc = 0;
        if (!w)
            rc = report_fail(err, pt, "a sweep point needs a 'workload' string");
        else if (!tot || tot->type != WC_JV_OBJ)
            rc = report_fail(err, pt, "a sweep point needs a 'totals' object");
        else
            rc = config_label(pt, label, sizeof label, err);
        if (rc == 0) {
            at[2 * i] = intern(&g->wl, &g->nw, w);
            at[2 * i + 1] = intern(&g->cfg, &g->nc, label);
            if (at[2 * i] < 0 || at[2 * i + 1] < 0) rc = report_fail(err, pt, "out of memory");
        }
        if (rc < 0) {
            free(at);
            return -1;
        }
    }
    g->ipc = malloc(g->nw * g->nc * sizeof(double) + 1);
    g->miss = malloc(g->nw * g->nc * sizeof(double) + 1);
    if (!g->ipc || !g->miss) {
        free(at);
        return report_fail(err, in->docs[0], "out of memory");
    }
    for (size_t i = 0; i < g->nw * g->nc; i++) g->ipc[i] = g->miss[i] = NAN;
    for (size_t i = 0; i < n; i++) {
        const wc_jv *tot = wc_jv_get(in->docs[i], "totals");
        size_t k = (size_t)at[2 * i] * g->nc + (size_t)at[2 * i + 1];
        g->ipc[k] = wc_jv_num(wc_jv_get(tot, "ipc"));
        g->miss[k] = 100 * wc_jv_num(wc_jv_get(tot, "l1.miss_rate"));
    }
    free(at);
    return 0;
}

/* When the sweep has one grid dimension of numbers and no designs: its name
 * (into name) and each configuration's value (xs[c]); false otherwise. */
static bool numeric_axis(const report_input *in, const grid *g, char *name, size_t n, double *xs)
{
    for (size_t c = 0; c < g->nc; c++) xs[c] = NAN;
    name[0] = 0;
    for (size_t i = 0; i < in->ndocs; i++) {
        const wc_jv *pt = in->docs[i], *params = wc_jv_get(pt, "params");
        if (wc_jv_str(wc_jv_get(pt, "design")) || !params || params->n != 1) return false;
        const wc_jv *p = &params->kids[0];
        if (name[0] && strcmp(name, p->key) != 0) return false;
        snprintf(name, n, "%s", p->key);
        char *end;
        const char *v = wc_jv_str(p);
        double x = v ? strtod(v, &end) : NAN;
        if (!v || !*v || *end || !isfinite(x)) return false;
        char label[512];
        snprintf(label, sizeof label, "%s=%s", p->key, v);
        for (size_t c = 0; c < g->nc; c++)
            if (strcmp(g->cfg[c], label) == 0) xs[c] = x;
    }
    return g->nc > 1;
}

/* One curve per workload: the normalised IPC over the grid's values, on a
 * log2 axis when every value is a power of two (associativity, sizes). */
static int sweep_lines(const report_input *in, const grid *g, const double *norm, report_figs *out,
                       report_err *err)
{
    size_t nc = g->nc, nw = g->nw;
    char name[128];
    double *xs = malloc((nc + 1) * sizeof *xs), *pts = malloc((2 * nw * nc + 1) * sizeof *pts);
    size_t *ord = malloc((nc + 1) * sizeof *ord);
    wc_plot_series *s = malloc((nw + 1) * sizeof *s);
    int rc = -1;
    if (!xs || !pts || !ord || !s) {
        report_fail(err, in->docs[0], "out of memory");
        goto done;
    }
    rc = 0;
    if (!numeric_axis(in, g, name, sizeof name, xs)) goto done;
    bool pow2 = true;
    for (size_t c = 0; c < nc; c++) {
        ord[c] = c;
        pow2 &= xs[c] >= 1 && exp2(round(log2(xs[c]))) == xs[c];
    }
    for (size_t i = 1; i < nc; i++) /* by value; few points, stable */
        for (size_t k = i; k > 0 && xs[ord[k - 1]] > xs[ord[k]]; k--) {
            size_t t = ord[k];
            ord[k] = ord[k - 1], ord[k - 1] = t;
        }
    for (size_t w = 0; w < nw; w++) {
        double *x = pts + 2 * w * nc, *y = x + nc;
        for (size_t k = 0; k < nc; k++) x[k] = xs[ord[k]], y[k] = norm[w * nc + ord[k]];
        s[w] = (wc_plot_series){g->wl[w], x, y, nc};
    }
    char title[256], ylabel[256], caption[1024];
    snprintf(title, sizeof title, "IPC over %s, normalised to %s", name, g->cfg[0]);
    snprintf(ylabel, sizeof ylabel, "IPC / IPC at %s", g->cfg[0]);
    snprintf(caption, sizeof caption,
             "From the sweep results %s: for each workload, the IPC at each value of %s divided "
             "by that at %s (the sweep's first value), on a %s axis.",
             in->path, name, g->cfg[0], pow2 ? "log2" : "linear");
    wc_plot_lines p = {.title = title,
                       .xlabel = name,
                       .ylabel = ylabel,
                       .xlog2 = pow2,
                       .series = s,
                       .nseries = nw,
                       .style = in->style};
    FILE *f = report_fig_open(out, in, "sweep-lines", title, caption, err);
    rc = -1;
    if (!f) goto done;
    p.id = out->v[out->n - 1].id;
    wc_plot_write_lines(f, &p);
    rc = report_fig_close(out, f, err);
done:
    free(xs);
    free(pts);
    free(ord);
    free(s);
    return rc;
}

static int sweep_build(const report_input *in, report_figs *out, report_err *err)
{
    grid g = {0};
    int rc = -1;
    double *norm = NULL;
    const char **labels = NULL;
    if (sweep_read(in, &g, err) < 0) goto done;
    size_t nw = g.nw, nc = g.nc;
    norm = malloc((nw + 1) * nc * sizeof *norm);
    labels = malloc((nw + 1) * sizeof *labels);
    if (!norm || !labels) {
        report_fail(err, in->docs[0], "out of memory");
        goto done;
    }
    /* IPC over the first configuration's; the geometric mean of the finite
     * positive ratios per configuration */
    bool normalise = nc > 1;
    for (size_t c = 0; c < nc; c++) {
        double logs = 0;
        size_t cnt = 0;
        for (size_t w = 0; w < nw; w++) {
            double base = g.ipc[w * nc], v = g.ipc[w * nc + c];
            double r = normalise ? (base > 0 ? v / base : NAN) : v;
            norm[w * nc + c] = r;
            if (isfinite(r) && r > 0) logs += log(r), cnt++;
        }
        norm[nw * nc + c] = cnt ? exp(logs / (double)cnt) : NAN;
    }
    size_t pre, suf;
    char xlabel[256];
    common_parts((const char *const *)g.wl, nw, &pre, &suf);
    workload_title(g.wl[0], pre, suf, xlabel, sizeof xlabel);
    for (size_t w = 0; w < nw; w++) {
        char *l = short_label(g.wl[w], NULL, pre, suf);
        if (!l) {
            report_fail(err, in->docs[0], "out of memory");
            goto done;
        }
        free(g.wl[w]); /* the grid keeps the shortened name */
        g.wl[w] = l;
        labels[w] = l;
    }
    labels[nw] = "GM all";
    char caption[1024];
    snprintf(caption, sizeof caption,
             "From the sweep results %s: for each workload, the IPC of every grid configuration "
             "%s; after the dashed line, the geometric mean over the workloads.",
             in->path,
             normalise ? "divided by that of the first configuration (dashed line: 1)"
                       : "(one configuration: absolute values)");
    const char *title = normalise ? "IPC of each configuration, normalised to the first"
                                  : "IPC of the configuration";
    wc_plot_bars p = {.title = title,
                      .xlabel = xlabel,
                      .ylabel = normalise ? "IPC / IPC of the first configuration"
                                          : "IPC (thread instructions / cycle)",
                      .groups = labels,
                      .ngroups = nw + 1,
                      .nmeans = 1,
                      .series = (const char *const *)g.cfg,
                      .nseries = nc,
                      .v = norm,
                      .ref = normalise ? 1.0 : NAN};
    if (report_fig_bars(out, in, "sweep-ipc", title, caption, &p, err) < 0) goto done;
    snprintf(caption, sizeof caption,
             "From the sweep results %s: the L1 miss rate (misses / accesses, %%) of every grid "
             "configuration on each workload.",
             in->path);
    wc_plot_bars q = {.title = "L1 miss rate of each configuration",
                      .xlabel = xlabel,
                      .ylabel = "L1 miss rate (%)",
                      .groups = labels,
                      .ngroups = nw,
                      .series = (const char *const *)g.cfg,
                      .nseries = nc,
                      .v = g.miss,
                      .ref = NAN,
                      .ymax = 100};
    rc = report_fig_bars(out, in, "sweep-l1miss", q.title, caption, &q, err);
    if (rc == 0 && normalise) rc = sweep_lines(in, &g, norm, out, err);
done:
    free(norm);
    free(labels);
    free_list(g.wl, g.nw);
    free_list(g.cfg, g.nc);
    free(g.ipc);
    free(g.miss);
    return rc;
}

const report_kind wc_report_sweep = {"sweep", sweep_matches, sweep_build};
