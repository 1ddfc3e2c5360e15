/*
 * plug_evict0.c - a test plug-in (tests/cli_plugins.sh): the replacement
 * policy "evict0", letter Z, whose victim is always way 0 of a full set.
 * It exists to show that a replacement policy is one file: built with
 * `make PLUGINS=tests/plugins/plug_evict0.c`, it is selected with the letter
 * in -gpgpu_cache:dl1 like any built-in policy.
 */
#include "warpcache/cache.h"

static void evict0_hit(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                       const wc_repl_ctx *ctx)
{
}

static void evict0_insert(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                          const wc_repl_ctx *ctx)
{
}

/* Way 0 unless a fill is pending on it (a reserved way is never a victim):
 * then no victim, and the access waits like any set without one. */
static int evict0_victim(void *st, wc_line *set, uint32_t assoc, uint64_t *rng,
                         const wc_repl_ctx *ctx)
{
    return set[0].state == WC_LINE_RESERVED ? -1 : 0;
}

const wc_repl_ops plug_repl_evict0 = {
    .name = "evict0",
    .letter = 'Z',
    .help = "test plug-in: always evicts way 0",
    .on_hit = evict0_hit,
    .on_insert = evict0_insert,
    .victim = evict0_victim,
};
WC_PLUGIN(repl, plug_repl_evict0, 1000);
