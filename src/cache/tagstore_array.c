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

#include "tagstore_array.h"

#define MAX_CHUNKS 16 /* wc_line's chunk masks are 16 bits */

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
    wc_tag_array_free(&a->ta);
    free(a);
}

static const wc_tagstore_ops line_ops = {
    .name = "line",
    .destroy = arr_destroy,
    .lookup = arr_lookup,
    .can_allocate = arr_can_allocate,
    .allocate = arr_allocate,
    .touch = arr_touch,
    .invalidate = arr_invalidate,
    .fill = arr_fill,
    .each_valid = arr_each_valid,
    .stats = arr_stats,
};

static const wc_tagstore_ops sector_ops = {
    .name = "sector",
    .destroy = arr_destroy,
    .lookup = arr_lookup,
    .can_allocate = arr_can_allocate,
    .allocate = arr_allocate,
    .touch = arr_touch,
    .invalidate = arr_invalidate,
    .fill = arr_fill,
    .each_valid = arr_each_valid,
    .stats = arr_stats,
};

static wc_tagstore *array_create(const wc_tagstore_ops *ops, const wc_config *cfg,
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
    a->base.ta = &a->ta;
    a->base.chunk_log2 = 5;
    a->base.nchunks = g->line_bytes / 32;
    a->base.whole_line = ops == &line_ops;
    uint64_t seed = cfg->seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(env->sm + 1));
    if (wc_tag_array_init(&a->ta, g, cfg->ipoly_poly, seed, cfg, err) < 0) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err ? err->msg : "");
        wc_errf(err, "%s: -gpgpu_cache:dl1: %s", where, why);
        arr_destroy(&a->base);
        return NULL;
    }
    return &a->base;
}

wc_tagstore *wc_tagstore_line_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    return array_create(&line_ops, cfg, env, err);
}

wc_tagstore *wc_tagstore_sector_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    return array_create(&sector_ops, cfg, env, err);
}
