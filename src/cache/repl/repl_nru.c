/*
 * repl_nru.c - not-recently-used replacement (warpcache letter 'N'; the
 * chunk replacement of TSC, ../shared/papers/000_746bcc542c65c503.txt).
 *
 * One bit per way (wc_line.repl): set to 1 on insert and on every hit.  The
 * victim is the first non-reserved way, scanning from way 0, whose bit is 0.
 * When every non-reserved way has its bit at 1, all bits of the set are
 * cleared (the "epoch" ends) and the first non-reserved way is the victim.
 */
#include "cache/repl_impl.h"

static void nru_touch(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                      const wc_repl_ctx *ctx)
{
    set[way].repl = 1;
}

static int nru_victim(void *st, wc_line *set, uint32_t assoc, uint64_t *rng, const wc_repl_ctx *ctx)
{
    int first_free = -1;
    for (uint32_t w = 0; w < assoc; w++) {
        if (set[w].state == WC_LINE_RESERVED) continue;
        if (set[w].repl == 0) return (int)w;
        if (first_free < 0) first_free = (int)w;
    }
    if (first_free < 0) return -1;
    for (uint32_t w = 0; w < assoc; w++) set[w].repl = 0;
    return first_free;
}

const wc_repl_ops wc_repl_nru = {
    .name = "nru",
    .letter = 'N',
    .help = "not recently used (one bit per way, TSC)",
    .on_hit = nru_touch,
    .on_insert = nru_touch,
    .victim = nru_victim,
};
WC_PLUGIN(repl, wc_repl_nru, 30);
