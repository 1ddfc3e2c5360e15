/*
 * tagstore_array.h - the operations of the array-backed tag stores
 * (tagstore_array.c) as inline functions: the L1 core calls them directly
 * when its store is array-backed (wc_tagstore.ta set), so the common L1
 * pays no indirect call on its miss and fill paths.  Private to src/cache/.
 */
#ifndef WC_CACHE_TAGSTORE_ARRAY_H
#define WC_CACHE_TAGSTORE_ARRAY_H

#include <string.h>

#include "cache/l1_core.h"
#include "cache/repl_impl.h"

/* The array lives in the L1 core (wc_l1_core.arr), so the core reaches it
 * at a fixed offset, without loading a pointer first. */
typedef struct array_ts {
    wc_tagstore base; /* first; base.ta = &core->arr */
} array_ts;

static inline wc_line *arr_lookup(wc_tag_array *ta, uint64_t addr, uint32_t *set)
{
    *set = wc_index_set(&ta->index, addr);
    int way = wc_tag_array_find(ta, *set, addr >> ta->line_log2);
    return way >= 0 ? wc_tag_array_set(ta, *set) + way : NULL;
}

static inline bool arr_can_allocate(const wc_tag_array *ta, uint32_t set)
{
    const wc_line *s = ta->lines + (size_t)set * ta->assoc;
    for (uint32_t w = 0; w < ta->assoc; w++)
        if (s[w].state != WC_LINE_RESERVED) return true;
    return false;
}

/* The way to (re)allocate in `set` (wc_tag_array_pick), LRU's inline. */
static inline int arr_pick(wc_tag_array *ta, uint32_t set, const wc_repl_ctx *ctx)
{
    if (ta->repl == &wc_repl_lru) return wc_lru_pick(wc_tag_array_set(ta, set), ta->assoc);
    return wc_tag_array_pick(ta, set, ctx);
}

/* Installs line `tag` in `way` of `set`, whose line has been evicted (or
 * was invalid). */
static inline wc_line *arr_install(wc_tag_array *ta, uint32_t set, int way, uint64_t tag,
                                   uint8_t state, const wc_repl_ctx *ctx)
{
    wc_line *line = wc_tag_array_set(ta, set) + way;
    memset(line, 0, sizeof *line);
    line->tag = tag;
    line->state = state;
    line->owner_block = ctx->req->block;
    line->owner_warp = ctx->req->warp;
    if (ta->repl == &wc_repl_lru) /* LRU's on_insert, without the indirect call */
        line->repl = ++ta->stamp;
    else
        wc_tag_array_inserted(ta, set, (uint32_t)way, ctx);
    return line;
}

static inline wc_line *arr_allocate(wc_tag_array *ta, wc_l1_core *core, uint32_t set, uint64_t tag,
                                    uint8_t state, const wc_repl_ctx *ctx, uint64_t now)
{
    int way = arr_pick(ta, set, ctx);
    if (way < 0) return NULL; /* every way reserved, or the policy bypasses */
    wc_line *line = wc_tag_array_set(ta, set) + way;
    if (line->state == WC_LINE_VALID) wc_l1_core_evict(core, set, line, now);
    return arr_install(ta, set, way, tag, state, ctx);
}

static inline void arr_touch(wc_tag_array *ta, uint32_t set, wc_line *line, const wc_repl_ctx *ctx)
{
    if (ta->repl == &wc_repl_lru) /* LRU's on_hit, without the indirect call */
        line->repl = ++ta->stamp;
    else
        wc_tag_array_hit(ta, set, (uint32_t)(line - wc_tag_array_set(ta, set)), ctx);
}

static inline void arr_invalidate(wc_tag_array *ta, uint32_t set, wc_line *line)
{
    if (line->state == WC_LINE_VALID)
        wc_tag_array_evicting(ta, set, (uint32_t)(line - wc_tag_array_set(ta, set)));
    line->state = WC_LINE_INVALID;
    line->valid_chunks = line->dirty_chunks = line->used_chunks = line->pending_chunks = 0;
}

static inline void arr_fill(wc_tag_array *ta, uint32_t set, wc_line *line, uint64_t chunks)
{
    line->valid_chunks |= (uint16_t)chunks;
    line->pending_chunks &= (uint16_t)~chunks;
    if (line->state == WC_LINE_RESERVED && !line->pending_chunks) line->state = WC_LINE_VALID;
}

#endif
