/*
 * analysis_impl.c - what the analyses share (analysis_impl.h): the
 * per-kilo-instruction rate their `derive` hooks set.  Apart from the
 * registry (analysis.c), so an analysis never calls the file that lists it.
 */
#include <string.h>

#include "analysis/analysis_impl.h"

void wc_analysis_set_pki(wc_kstats *k, const char *count, const char *rate)
{
    for (unsigned j = 0; j < k->n_extras; j++)
        if (strcmp(k->extras[j].name, count) == 0) {
            double v = k->warp_insts ? 1000.0 * k->extras[j].value / (double)k->warp_insts : 0;
            wc_kstats_set_extra(k, rate, v);
            return;
        }
}
