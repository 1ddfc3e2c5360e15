/*
 * analysis.h - measurement-only plug-ins: analyses watch a run through the L1
 * listeners (cache.h) and report counters of their own, changing nothing
 * the simulated GPU does.
 *
 * An analysis (the contention breakdown of seed 004 section 2.4, the locality
 * classes of seed 002 section 3) is one file with a wc_analysis_ops registered
 * with WC_PLUGIN(analysis, ...) (warpcache/plugin.h).  `-analysis NAME[,NAME...]`
 * turns them on; without it no analysis exists, no listener is installed and
 * the per-access path is the one of a plain run.
 *
 * Counters are cumulative: the engine reads them at every kernel boundary
 * through `stats` and reports per-kernel differences as extras (docs/stats.md),
 * like an L1 organisation's counters.  Rates (per kilo-instruction) are set by
 * `derive` on each kernel's statistics and on the totals.
 */
#ifndef WARPCACHE_ANALYSIS_H
#define WARPCACHE_ANALYSIS_H

#include "warpcache/plugin.h"
#include "warpcache/sim.h"

typedef struct wc_analysis wc_analysis;

typedef struct wc_analysis_ops {
    const char *name;
    const char *help; /* one line */
    /* Sets a->priv and subscribes L1 listeners to a->sim.  Called by
     * wc_sim_create (the listeners survive every run of the simulator). */
    int (*create)(wc_analysis *a, const wc_config *cfg, wc_err *err);
    void (*destroy)(wc_analysis *a);
    /* Emits every cumulative counter under its extra name. */
    void (*stats)(const wc_analysis *a, void (*emit)(void *ctx, const char *name, double v),
                  void *ctx);
    /* Optional: sets derived extras (rates) of k from the counters in k. */
    void (*derive)(wc_kstats *k);
} wc_analysis_ops;

struct wc_analysis {
    const wc_analysis_ops *ops;
    wc_sim *sim;
    void *priv;
};

const wc_analysis_ops *wc_analysis_find(const char *name);
const wc_analysis_ops *const *wc_analysis_list(size_t *count);

#endif
