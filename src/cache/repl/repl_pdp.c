/*
 * repl_pdp.c - static protection-distance replacement with bypass (PDP,
 * Duong et al., MICRO 2012), the "PDP" comparison scheme of seed 001
 * (../shared/papers/001_94c1440347ca7d61.txt, section 5, Figure 8), warpcache
 * letter 'P'.  A line is protected for -pdp_distance accesses to its set
 * after it is inserted or hit: every access to a set takes 1 from the
 * remaining protection distance (RPD) of each of its lines, an insert or a
 * hit sets the line's RPD to the distance.  The victim is an unprotected
 * line (RPD 0; the least recently used of them); when every non-reserved
 * line of the set is protected the policy answers bypass.  The distance is
 * static; `warpcache oracle pdp-best` searches the best one per workload
 * (the paper's per-workload oracle "PDP-best").
 *
 * wc_line.repl holds (stamp << 8) | RPD: the low byte the distance left,
 * the rest the stamp of the last access (LRU among unprotected lines).
 */
#include <stdlib.h>

#include "cache/repl_impl.h"
#include "warpcache/params.h"

static const wc_param_desc pdp_params[] = {
    {.key = "pdp_distance",
     .def = 8,
     .min = 1,
     .max = 255,
     .help = "PDP: protection distance, in accesses to the set, after an insert or a hit"},
    {0},
};

typedef struct pdp {
    uint64_t pd;
    uint64_t n_bypass;
} pdp;

static void *pdp_create(uint32_t sets, uint32_t ways, const wc_config *cfg, wc_err *err)
{
    pdp *p = calloc(1, sizeof *p);
    if (!p) {
        wc_errf(err, "PDP: out of memory");
        return NULL;
    }
    p->pd = wc_cfg_param(cfg, pdp_params, "pdp_distance");
    return p;
}

static void pdp_destroy(void *st)
{
    free(st);
}

/* One access to the set: every line but `skip` (-1: none) loses 1 of RPD. */
static void age(wc_line *set, uint32_t assoc, int skip)
{
    for (uint32_t w = 0; w < assoc; w++)
        if ((int)w != skip && (set[w].repl & 0xff)) set[w].repl--;
}

static void pdp_touch(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                      const wc_repl_ctx *ctx)
{
    age(set, assoc, (int)way);
    set[way].repl = (stamp << 8) | ((pdp *)st)->pd;
}

static int pdp_victim(void *st, wc_line *set, uint32_t assoc, uint64_t *rng, const wc_repl_ctx *ctx)
{
    int best = -1;
    bool any = false;
    for (uint32_t w = 0; w < assoc; w++) {
        if (set[w].state == WC_LINE_RESERVED) continue;
        any = true;
        if (set[w].repl & 0xff) continue; /* protected */
        if (best < 0 || set[w].repl < set[best].repl) best = (int)w;
    }
    if (!any) return -1;
    if (best < 0) { /* every line protected: the access goes around, and counts */
        age(set, assoc, -1);
        ((pdp *)st)->n_bypass++;
        return WC_REPL_BYPASS;
    }
    return best;
}

static void pdp_stats(const void *st, void (*emit)(void *ctx, const char *name, double v),
                      void *ctx)
{
    emit(ctx, "pdp_bypasses", (double)((const pdp *)st)->n_bypass);
}

const wc_repl_ops wc_repl_pdp = {
    .name = "pdp",
    .letter = 'P',
    .help = "static protection distance (PDP), bypass when every line is protected",
    .params = pdp_params,
    .create = pdp_create,
    .destroy = pdp_destroy,
    .on_hit = pdp_touch,
    .on_insert = pdp_touch,
    .victim = pdp_victim,
    .stats = pdp_stats,
};
WC_PLUGIN(repl, wc_repl_pdp, 60);
