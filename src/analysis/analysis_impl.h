/*
 * analysis_impl.h - what the analyses share: the per-kilo-instruction rate
 * helper for their `derive` hooks.
 */
#ifndef WC_ANALYSIS_IMPL_H
#define WC_ANALYSIS_IMPL_H

#include "warpcache/analysis.h"

/* Sets extra `rate` of k to extra `count` per 1000 warp instructions (0
 * without instructions); nothing when k has no extra `count`. */
void wc_analysis_set_pki(wc_kstats *k, const char *count, const char *rate);

#endif
