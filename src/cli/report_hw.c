/*
 * report_hw.c - the figure of `validate --hw --json` (report.h): per kernel the
 * L1 hit rate a real GPU's Nsight Compute counters gave beside the one the
 * simulator measured (cmd_validate_hw.c writes the file; docs/fidelity.md).
 * A kernel without a hardware value (no matching launch, or the counter absent
 * from the CSV: JSON null) keeps its simulator bar and has no hardware bar.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "report/svg_plot.h"

static bool hw_matches(const report_input *in)
{
    const wc_jv *d = in->ndocs == 1 ? in->docs[0] : NULL, *k = wc_jv_get(d, "kernels");
    return wc_jv_str(wc_jv_get(d, "hardware_file")) && k && k->type == WC_JV_ARR;
}

/* A percentage member: its value, NaN for null; false when absent or not a number. */
static bool pct_or_null(const wc_jv *k, const char *key, double *out)
{
    const wc_jv *v = wc_jv_get(k, key);
    if (v && v->type == WC_JV_NULL) return *out = NAN, true;
    *out = wc_jv_num(v);
    return isfinite(*out);
}

static int hw_build(const report_input *in, report_figs *out, report_err *err)
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
        const char *name = wc_jv_str(wc_jv_get(k, "kernel"));
        double id = wc_jv_num(wc_jv_get(k, "id"));
        if (!name || !isfinite(id) || !pct_or_null(k, "hw_l1_hit_pct", &v[2 * g]) ||
            !pct_or_null(k, "sim_l1_hit_pct", &v[2 * g + 1])) {
            report_fail(err, k,
                        "a kernel needs 'id', 'kernel', and 'hw_l1_hit_pct' and "
                        "'sim_l1_hit_pct' (numbers or null)");
            goto done;
        }
        size_t n = strlen(name) + 32;
        if (!(labels[g] = malloc(n))) {
            report_fail(err, k, "out of memory");
            goto done;
        }
        snprintf(labels[g], n, "%.0f %s", id, name);
    }
    /* the caption names the inputs; the mean error is null when no kernel had both */
    const char *hwf = wc_jv_str(wc_jv_get(d, "hardware_file")),
               *sim = wc_jv_str(wc_jv_get(d, "simulated"));
    double mae = wc_jv_num(wc_jv_get(wc_jv_get(d, "mean_absolute_error"), "l1_hit_points"));
    char mae_s[64] = "no kernel with both values";
    if (isfinite(mae)) snprintf(mae_s, sizeof mae_s, "%.2f percentage points", mae);
    char caption[1024];
    snprintf(caption, sizeof caption,
             "From the validate --hw results %s: the L1 hit rate of each kernel launch as the "
             "GPU's Nsight Compute counters (%s) gave it and as the simulator measured it on %s "
             "(docs/fidelity.md); mean absolute error %s.",
             in->path, hwf, sim ? sim : "the simulated input", mae_s);
    static const char *const series[] = {"hardware (Nsight Compute)", "simulator"};
    wc_plot_bars p = {.title = "L1 hit rate: hardware and simulator",
                      .xlabel = "kernel launch (id name)",
                      .ylabel = "L1 hit rate (%)",
                      .groups = (const char *const *)labels,
                      .ngroups = ng,
                      .series = series,
                      .nseries = 2,
                      .v = v,
                      .ref = NAN};
    rc = report_fig_bars(out, in, "validate-hw", p.title, caption, &p, err);
done:
    for (size_t g = 0; labels && g < ng; g++) free(labels[g]);
    free(labels);
    free(v);
    return rc;
}

const report_kind wc_report_validate_hw = {"validate-hw", hw_matches, hw_build};
