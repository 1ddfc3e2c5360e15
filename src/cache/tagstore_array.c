/*
 * tagstore_array.c - the two array-backed tag stores of the L1 core
 * (l1_core.h): one wc_line per tag in a set-associative wc_tag_array, 32 B
 * chunks (sectors).
 *
 *   line    (geometry type N) a miss fetches every chunk of the line not
 *           present or pending, a write validates the whole line;
 *   sector  (geometry type S) a miss fetches only the missing requested
 *           chunks, a write validates the chunks written.
 *
 * Lines of 32..512 B (1..16 chunks).  Allocation takes an invalid way first,
 * else asks the replacement policy, which may answer bypass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/tagstore_array.h"
#include "util/rng.h"

#define MAX_CHUNKS 16 /* wc_line's chunk masks are 16 bits */

/* The ops-table entries (for callers other than the core, which inlines). */
static wc_line *op_lookup(wc_tagstore *ts, uint64_t addr, uint32_t *set)
{
    return arr_lookup(ts->ta, addr, set);
}

static bool op_can_allocate(const wc_tagstore *ts, uint32_t set)
{
    return arr_can_allocate(ts->ta, set);
}

static wc_line *op_allocate(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                            uint8_t state, const wc_repl_ctx *ctx, uint64_t now)
{
    return arr_allocate(ts->ta, core, set, tag, state, ctx, now);
}

static void op_touch(wc_tagstore *ts, uint32_t set, wc_line *line, const wc_repl_ctx *ctx)
{
    arr_touch(ts->ta, set, line, ctx);
}

static void op_invalidate(wc_tagstore *ts, uint32_t set, wc_line *line)
{
    arr_invalidate(ts->ta, set, line);
}

static void op_fill(wc_tagstore *ts, uint32_t set, wc_line *line, uint64_t chunks)
{
    arr_fill(ts->ta, set, line, chunks);
}

static void arr_each_valid(wc_tagstore *ts, void (*fn)(void *arg, uint32_t set, wc_line *line),
                           void *arg)
{
    wc_tag_array *ta = ts->ta;
    for (uint32_t s = 0; s < ta->nsets; s++)
        for (uint32_t w = 0; w < ta->assoc; w++) {
            wc_line *l = wc_tag_array_set(ta, s) + w;
            if (l->state == WC_LINE_VALID) fn(arg, s, l);
        }
}

static void arr_stats(const wc_tagstore *ts, void (*emit)(void *ctx, const char *name, double v),
                      void *ctx)
{
    const wc_tag_array *ta = ts->ta;
    if (ta->repl->stats) ta->repl->stats(ta->repl_state, emit, ctx);
}

static void arr_destroy(wc_tagstore *ts)
{
    array_ts *a = (array_ts *)ts;
    if (!a) return;
    wc_tag_array_free(a->base.ta);
    free(a);
}

/* The line and the sector tag store share every operation: they differ in
 * the name and in whole_line, which array_create sets from the table. */
#define ARRAY_TS_OPS(kind)                                                                         \
    {                                                                                              \
        .name = kind, .destroy = arr_destroy, .lookup = op_lookup,                                 \
        .can_allocate = op_can_allocate, .allocate = op_allocate, .touch = op_touch,               \
        .invalidate = op_invalidate, .fill = op_fill, .each_valid = arr_each_valid,                \
        .stats = arr_stats, .retry_memo = true,                                                    \
    }

static const wc_tagstore_ops line_ops = ARRAY_TS_OPS("line");
static const wc_tagstore_ops sector_ops = ARRAY_TS_OPS("sector");

static wc_tagstore *array_create(const wc_tagstore_ops *ops, wc_l1_core *core, const wc_config *cfg,
                                 const wc_l1_env *env, wc_err *err)
{
    const wc_cache_geom *g = &cfg->l1;
    const char *where = wc_l1_config_where(cfg);
    if (g->line_bytes < 32 || g->line_bytes / 32 > MAX_CHUNKS) {
        wc_errf(err,
                "%s: -gpgpu_cache:dl1: %u-byte lines are not supported by the %s tag store "
                "(32 to %u bytes: 1 to %u chunks of 32 B)",
                where, g->line_bytes, ops->name, 32 * MAX_CHUNKS, MAX_CHUNKS);
        return NULL;
    }
    array_ts *a = calloc(1, sizeof *a);
    if (!a) {
        wc_errf(err, "L1 tag store: out of memory");
        return NULL;
    }
    a->base.ops = ops;
    a->base.ta = &core->arr;
    a->base.chunk_log2 = 5;
    a->base.nchunks = g->line_bytes / 32;
    a->base.whole_line = ops == &line_ops;
    uint64_t seed = wc_rng_sm_seed(cfg->seed, env->sm);
    if (wc_tag_array_init(a->base.ta, g, cfg->ipoly_poly, seed, cfg, err) < 0) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err ? err->msg : "");
        wc_errf(err, "%s: -gpgpu_cache:dl1: %s", where, why);
        arr_destroy(&a->base);
        return NULL;
    }
    return &a->base;
}

wc_tagstore *wc_tagstore_line_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                     wc_err *err)
{
    return array_create(&line_ops, core, cfg, env, err);
}

wc_tagstore *wc_tagstore_sector_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                       wc_err *err)
{
    return array_create(&sector_ops, core, cfg, env, err);
}
