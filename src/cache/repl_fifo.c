/*
 * repl_fifo.c - first-in first-out replacement (GPGPU-Sim rp 'F'): each way
 * remembers the stamp of its allocation, hits change nothing; the victim is
 * the non-reserved way allocated longest ago.
 */
#include "repl_impl.h"

static void fifo_hit(wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp) {}

static void fifo_insert(wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp)
{
    set[way].repl = stamp;
}

static int fifo_victim(wc_line *set, uint32_t assoc, uint64_t *rng)
{
    return wc_repl_min_way(set, assoc);
}

const wc_repl_ops wc_repl_fifo = {"fifo", 'F', fifo_hit, fifo_insert, fifo_victim};
