/*
 * repl_lru.c - least-recently-used replacement (GPGPU-Sim rp 'L'): each way
 * remembers the stamp of its last access; the victim is the non-reserved way
 * with the oldest one.
 */
#include "cache/repl_impl.h"

static void lru_touch(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                      const wc_repl_ctx *ctx)
{
    set[way].repl = stamp;
}

static int lru_victim(void *st, wc_line *set, uint32_t assoc, uint64_t *rng, const wc_repl_ctx *ctx)
{
    return wc_repl_min_way(set, assoc);
}

const wc_repl_ops wc_repl_lru = {
    .name = "lru",
    .letter = 'L',
    .help = "least recently used",
    .on_hit = lru_touch,
    .on_insert = lru_touch,
    .victim = lru_victim,
};
WC_PLUGIN(repl, wc_repl_lru, 10);
