/*
 * repl_srrip.c - static re-reference interval prediction (Jaleel et al.,
 * ISCA 2010), warpcache letter 'R'.  A 2-bit re-reference prediction value
 * (RRPV) per way in wc_line.repl: insert at 2 ("long"), a hit sets 0 ("near").
 * The victim is the first non-reserved way (from way 0) with RRPV 3
 * ("distant"); when there is none, every way ages by the amount that brings
 * the oldest non-reserved way to 3 - the same result as aging one step at a
 * time and rescanning, in one pass.
 */
#include "cache/repl_impl.h"

#define RRPV_MAX    3u
#define RRPV_INSERT 2u

static void srrip_hit(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                      const wc_repl_ctx *ctx)
{
    set[way].repl = 0;
}

static void srrip_insert(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                         const wc_repl_ctx *ctx)
{
    set[way].repl = RRPV_INSERT;
}

static int srrip_victim(void *st, wc_line *set, uint32_t assoc, uint64_t *rng,
                        const wc_repl_ctx *ctx)
{
    bool any = false;
    uint64_t oldest = 0; /* largest RRPV among non-reserved ways */
    for (uint32_t w = 0; w < assoc; w++) {
        if (set[w].state == WC_LINE_RESERVED) continue;
        if (set[w].repl >= RRPV_MAX) return (int)w;
        if (set[w].repl > oldest) oldest = set[w].repl;
        any = true;
    }
    if (!any) return -1;
    uint64_t age = RRPV_MAX - oldest;
    int victim = -1;
    for (uint32_t w = 0; w < assoc; w++) {
        uint64_t v = set[w].repl + age;
        set[w].repl = v > RRPV_MAX ? RRPV_MAX : v;
        if (victim < 0 && set[w].state != WC_LINE_RESERVED && set[w].repl == RRPV_MAX)
            victim = (int)w;
    }
    return victim;
}

const wc_repl_ops wc_repl_srrip = {
    .name = "srrip",
    .letter = 'R',
    .help = "static re-reference interval prediction, 2-bit RRPV",
    .on_hit = srrip_hit,
    .on_insert = srrip_insert,
    .victim = srrip_victim,
};
WC_PLUGIN(repl, wc_repl_srrip, 40);
