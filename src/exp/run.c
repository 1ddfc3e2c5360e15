/*
 * run.c - one simulation from a configuration and a source spec: opens the
 * workload or trace, creates a wc_sim, runs it, tears both down.  Every
 * command that simulates (run through the CLI, compare, sweep, validate, the
 * batch runner in batch.c) comes through here, so they agree on how a
 * source is opened and named.
 */
#include <stdio.h>

#include "warpcache/experiment.h"
#include "warpcache/traceio.h"
#include "warpcache/workloads.h"

static wc_source *open_trace(const wc_run_spec *spec, wc_err *err)
{
    wc_kernel_filter f = {0};
    if (spec->kernels) {
        /* "1,3-5" selects ids, anything else is a name pattern (as in `run`). */
        if (spec->kernels[0] >= '0' && spec->kernels[0] <= '9')
            f.ids = spec->kernels;
        else
            f.name = spec->kernels;
        if (wc_kernel_filter_check(&f, err) < 0) return NULL;
    }
    return wc_trace_open(spec->trace, WC_TRACE_AUTO, spec->kernels ? &f : NULL, err);
}

wc_source *wc_run_open_source(const wc_run_spec *spec, uint64_t seed, wc_err *err)
{
    if (!spec->workload == !spec->trace) {
        wc_errf(err, "give exactly one of a workload or a trace");
        return NULL;
    }
    return spec->trace ? open_trace(spec, err) : wc_workload_open(spec->workload, seed, err);
}

int wc_run_simulation(const wc_config *cfg, const wc_run_spec *spec, wc_stats *st, wc_err *err)
{
    wc_source *src = spec->source ? spec->source : wc_run_open_source(spec, cfg->seed, err);
    if (!src) return -1;
    wc_sim *sim = wc_sim_create(cfg, err);
    if (!sim) {
        wc_source_destroy(src);
        return -1;
    }
    if (spec->progress) wc_sim_set_progress(sim, spec->progress, spec->progress_ctx);
    if (spec->setup && spec->setup(spec->setup_ctx, sim, err) < 0) {
        wc_sim_destroy(sim);
        wc_source_destroy(src);
        return -1;
    }
    const char *what = spec->trace ? spec->trace : spec->workload;
    snprintf(st->workload, sizeof st->workload, "%s", what ? what : "source");
    snprintf(st->config_name, sizeof st->config_name, "%s",
             spec->config_name ? spec->config_name : "built-in Fermi baseline (fermi-16k)");
    int rc = wc_sim_run(sim, src, st, err);
    wc_sim_destroy(sim);
    wc_source_destroy(src);
    return rc < 0 ? -1 : 0;
}
