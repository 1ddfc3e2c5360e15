/*
 * analyses.h - what the engine calls to run the analyses of a simulator
 * (-analysis): create them with it, read their counters into each kernel's
 * extras, set their derived rates, destroy them.  The calls go one way,
 * engine -> analyses: the set is the engine's, and the analyses reach the
 * engine only through the public API (listeners, wc_sim_fail).
 */
#ifndef WC_ANALYSIS_ANALYSES_H
#define WC_ANALYSIS_ANALYSES_H

#include "warpcache/analysis.h"

/* The analyses of one simulator. */
typedef struct wc_analysis_set {
    wc_analysis *a;
    unsigned n;
} wc_analysis_set;

/* Creates the analyses named in cfg->analysis for `sim` (they subscribe
 * their listeners to it).  Errors name the option and the source. */
int wc_analysis_create_all(wc_analysis_set *set, wc_sim *sim, const wc_config *cfg, wc_err *err);
void wc_analysis_destroy_all(wc_analysis_set *set);
void wc_analysis_stats_all(const wc_analysis_set *set,
                           void (*emit)(void *ctx, const char *name, double v), void *ctx);
void wc_analysis_derive_all(const wc_analysis_set *set, wc_kstats *k);

#endif
