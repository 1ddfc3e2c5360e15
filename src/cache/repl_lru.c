/*
 * repl_lru.c - least-recently-used replacement (GPGPU-Sim rp 'L'): each way
 * remembers the stamp of its last access; the victim is the non-reserved way
 * with the oldest one.
 */
#include "repl_impl.h"

static void lru_touch(wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp)
{
    set[way].repl = stamp;
}

static int lru_victim(wc_line *set, uint32_t assoc, uint64_t *rng)
{
    return wc_repl_min_way(set, assoc);
}

const wc_repl_ops wc_repl_lru = {"lru", 'L', lru_touch, lru_touch, lru_victim};
