/*
 * tag_array.c - a set-associative array of wc_line with a pluggable set-index
 * function (index_*.c) and replacement policy (repl_*.c).  Every cache in
 * warpcache (L1 organisations, L2 slices) keeps its tags here.
 *
 * Lines are one flat calloc'ed array, set-major, so a set's ways are adjacent
 * in memory: the hit path touches one index computation and `assoc` lines.
 */
#include <stdlib.h>
#include <string.h>

#include "cache/repl_impl.h"
#include "util/rng.h"
#include "warpcache/cache.h"

/* Upper bound on nsets * assoc, so a typo in a configuration cannot ask for
 * gigabytes (2^24 lines = 640 MiB of wc_line). */
#define MAX_LINES (1u << 24)

int wc_tag_array_init(wc_tag_array *ta, const wc_cache_geom *g, uint32_t ipoly, uint64_t seed,
                      const wc_config *params, wc_err *err)
{
    memset(ta, 0, sizeof *ta);
    if (g->nsets == 0 || g->assoc == 0)
        return wc_errf(err, "cache geometry: %u sets x %u ways (both must be at least 1)", g->nsets,
                       g->assoc);
    if ((uint64_t)g->nsets * g->assoc > MAX_LINES)
        return wc_errf(err, "cache geometry: %u sets x %u ways exceeds %u lines", g->nsets,
                       g->assoc, MAX_LINES);
    if (!wc_is_pow2(g->line_bytes))
        return wc_errf(err, "cache geometry: line size %u is not a power of two", g->line_bytes);
    char rp[2] = {g->repl, 0};
    ta->repl = g->repl ? wc_repl_find(rp) : NULL;
    if (!ta->repl)
        return wc_errf(err, "cache geometry: replacement policy '%c' unknown (L, F, N, R, S)",
                       g->repl ? g->repl : '?');
    /* With one set there is nothing to index: any function would answer 0, and
     * the Fermi hash (32/64 sets only) would refuse a fully-associative cache. */
    char sif = g->nsets == 1 ? 'L' : g->set_index;
    if (wc_index_init(&ta->index, sif, g->nsets, g->line_bytes, ipoly, err) < 0) return -1;
    ta->lines = calloc((size_t)g->nsets * g->assoc, sizeof *ta->lines);
    if (!ta->lines)
        return wc_errf(err, "cache geometry: out of memory for %u x %u lines", g->nsets, g->assoc);
    if (ta->repl->create) {
        ta->repl_state = ta->repl->create(g->nsets, g->assoc, params, err);
        if (!ta->repl_state) {
            wc_tag_array_free(ta);
            return -1;
        }
    }
    ta->nsets = g->nsets;
    ta->assoc = g->assoc;
    ta->line_log2 = wc_log2(g->line_bytes);
    ta->rng = wc_rng_seed(seed);
    return 0;
}

void wc_tag_array_free(wc_tag_array *ta)
{
    free(ta->lines);
    ta->lines = NULL;
    if (ta->repl_state && ta->repl->destroy) ta->repl->destroy(ta->repl_state);
    ta->repl_state = NULL;
}

int wc_tag_array_find(const wc_tag_array *ta, uint32_t set, uint64_t tag)
{
    const wc_line *s = ta->lines + (size_t)set * ta->assoc;
    for (uint32_t w = 0; w < ta->assoc; w++)
        if (s[w].tag == tag && s[w].state != WC_LINE_INVALID) return (int)w;
    return -1;
}

int wc_tag_array_pick(wc_tag_array *ta, uint32_t set, const wc_repl_ctx *ctx)
{
    wc_line *s = wc_tag_array_set(ta, set);
    if (ta->repl == &wc_repl_lru) return wc_lru_pick(s, ta->assoc);
    for (uint32_t w = 0; w < ta->assoc; w++)
        if (s[w].state == WC_LINE_INVALID) return (int)w;
    return ta->repl->victim(ta->repl_state, s, ta->assoc, &ta->rng, ctx);
}
