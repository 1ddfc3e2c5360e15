/*
 * repl_fifo.c - first-in first-out replacement (GPGPU-Sim rp 'F'): each way
 * remembers the stamp of its allocation, hits change nothing; the victim is
 * the non-reserved way allocated longest ago.
 */
#include "cache/repl_impl.h"

static void fifo_hit(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                     const wc_repl_ctx *ctx)
{
}

static void fifo_insert(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                        const wc_repl_ctx *ctx)
{
    set[way].repl = stamp;
}

static int fifo_victim(void *st, wc_line *set, uint32_t assoc, uint64_t *rng,
                       const wc_repl_ctx *ctx)
{
    return wc_repl_min_way(set, assoc);
}

const wc_repl_ops wc_repl_fifo = {
    .name = "fifo",
    .letter = 'F',
    .help = "first in, first out",
    .on_hit = fifo_hit,
    .on_insert = fifo_insert,
    .victim = fifo_victim,
};
WC_PLUGIN(repl, wc_repl_fifo, 20);
