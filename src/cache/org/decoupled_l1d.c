/*
 * decoupled_l1d.c - the decoupled L1D of seed 001 (../shared/papers/
 * 001_94c1440347ca7d61.txt, section 4.1-4.2, Figures 6-7, Table 3) as a tag
 * store on the shared L1 core (l1_core.h), organisation "dl1d-static" (the
 * design without SM dueling).
 *
 * The tag store has more entries than the data store: the same number of
 * sets (the paper's choice "to simplify the management"), -dl1d_tag_ways
 * ways of tags (8) over the data geometry of -gpgpu_cache:dl1 (32 x 4 x
 * 128 B).  A tag entry holds the line address, a reference count RC
 * (-dl1d_rc_bits, 6, saturating) and a position pointer to its data line
 * (or none); each data set keeps a free-line count.
 *
 *   tag miss            allocate a tag entry (an invalid one, else LFU: the
 *                       smallest RC among entries without a data line, ties
 *                       to the lowest way) with RC 1, and BYPASS: the
 *                       request goes to L2 with no data line, no MSHR, the
 *                       data straight to the warp;
 *   tag hit, no data    RC + 1; at the locality threshold (-dl1d_threshold,
 *                       2) allocate a data line (a MISS through the core's
 *                       MSHRs), else BYPASS;
 *   tag hit, data       HIT / HIT_RESERVED / SECTOR_MISS as in the
 *                       conventional L1.
 *
 * The data store is a wc_tag_array, so its replacement policy is any of the
 * registry (the rp letter of -gpgpu_cache:dl1: L LRU, R SRRIP, S SHiP).
 * Dynamic aging: every allocation and every eviction in a data set takes 1
 * from the RC of every other tag entry of the set (never below 0); the
 * entry of an evicted line gets RC 0 and loses its pointer.  An allocation
 * that replaces a line is one aging step, not two (section 4.2: the victim's
 * entry "is set to 0 and the rest of the tag entries in the set will be
 * aged"); the allocating entry itself never ages.
 * Choices the paper leaves open are listed in docs/techniques/decoupled-l1d.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/l1_core.h"
#include "cache/l1_impl.h"
#include "util/rng.h"
#include "warpcache/params.h"

#define MAX_CHUNKS 16

static const wc_param_desc dl1d_params[] = {
    {.key = "dl1d_tag_ways",
     .def = 8,
     .min = 1,
     .max = 64,
     .help = "decoupled L1D: tag-store ways per set (tag sets = data sets)"},
    {.key = "dl1d_threshold",
     .def = 2,
     .min = 0,
     .max = 255,
     .help = "decoupled L1D: locality threshold, the RC at which a data line is allocated "
             "(0 or 1: every access allocates)"},
    {.key = "dl1d_rc_bits",
     .def = 6,
     .min = 1,
     .max = 8,
     .help = "decoupled L1D: bits of the reference count"},
    {0},
};

typedef struct dl1d_entry {
    uint64_t tag;
    uint8_t valid;
    uint8_t rc;
    int16_t pos; /* data way, or -1 */
} dl1d_entry;

typedef struct dl1d_ts {
    wc_tagstore base; /* first; base.ta stays NULL: the core calls the ops */
    wc_tag_array data;
    dl1d_entry *tags; /* nsets * tways */
    uint32_t *free_lines;
    uint32_t tways, thr, rc_max;
    uint32_t thr_cfg; /* -dl1d_threshold: thr in mode 0 (mode 1, the baseline: 0) */
    int64_t mode;
    bool replacing; /* allocate() is evicting its victim: it ages the set itself */
    uint64_t n_tag_miss, n_tag_hit_nodata, n_alloc, n_tag_evict, n_aging;
} dl1d_ts;

/* The entry of line `tag` in `set`, or NULL. */
static dl1d_entry *find_entry(dl1d_ts *d, uint32_t set, uint64_t tag)
{
    dl1d_entry *s = d->tags + (size_t)set * d->tways;
    for (uint32_t w = 0; w < d->tways; w++)
        if (s[w].valid && s[w].tag == tag) return &s[w];
    return NULL;
}

/* An invalid entry, else the smallest RC among entries without a data line
 * (an entry with a line stays: its line would lose its tag); NULL if all
 * have lines. */
static dl1d_entry *tag_victim(dl1d_ts *d, uint32_t set)
{
    dl1d_entry *s = d->tags + (size_t)set * d->tways, *best = NULL;
    for (uint32_t w = 0; w < d->tways; w++) {
        if (!s[w].valid) return &s[w];
        if (s[w].pos < 0 && (!best || s[w].rc < best->rc)) best = &s[w];
    }
    return best;
}

/* Dynamic aging: every entry of the set but `keep` loses 1 from its RC. */
static void age(dl1d_ts *d, uint32_t set, const dl1d_entry *keep)
{
    dl1d_entry *s = d->tags + (size_t)set * d->tways;
    for (uint32_t w = 0; w < d->tways; w++)
        if (s[w].valid && &s[w] != keep && s[w].rc) s[w].rc--;
    d->n_aging++;
}

static bool data_way_free(const dl1d_ts *d, uint32_t set)
{
    if (d->free_lines[set]) return true;
    const wc_line *s = d->data.lines + (size_t)set * d->data.assoc;
    for (uint32_t w = 0; w < d->data.assoc; w++)
        if (s[w].state != WC_LINE_RESERVED) return true;
    return false;
}

/* The RC line `tag` reaches with this access (1 on a tag miss). */
static unsigned next_rc(dl1d_ts *d, uint32_t set, uint64_t tag)
{
    dl1d_entry *e = find_entry(d, set, tag);
    if (!e) return 1;
    return e->rc < d->rc_max ? e->rc + 1u : e->rc;
}

/* Records the access in the tag store: the entry's RC + 1, or a new entry
 * with RC 1 (NULL when no entry can be replaced). */
static dl1d_entry *reference(dl1d_ts *d, uint32_t set, uint64_t tag)
{
    dl1d_entry *e = find_entry(d, set, tag);
    if (e) {
        d->n_tag_hit_nodata++;
        if (e->rc < d->rc_max) e->rc++;
        return e;
    }
    d->n_tag_miss++;
    e = tag_victim(d, set);
    if (!e) return NULL;
    d->n_tag_evict += e->valid;
    e->tag = tag;
    e->valid = 1;
    e->rc = 1;
    e->pos = -1;
    return e;
}

/* ---- the tag-store ops -------------------------------------------------- */

static wc_line *dl_lookup(wc_tagstore *ts, uint64_t addr, uint32_t *set)
{
    dl1d_ts *d = (dl1d_ts *)ts;
    *set = wc_index_set(&d->data.index, addr);
    dl1d_entry *e = find_entry(d, *set, addr >> d->data.line_log2);
    return e && e->pos >= 0 ? wc_tag_array_set(&d->data, *set) + e->pos : NULL;
}

static bool dl_can_allocate(const wc_tagstore *ts, uint32_t set)
{
    return data_way_free((const dl1d_ts *)ts, set);
}

static bool dl_bypasses(const wc_tagstore *ts, uint32_t set, uint64_t tag, const wc_mem_req *req)
{
    dl1d_ts *d = (dl1d_ts *)ts;
    if (next_rc(d, set, tag) < d->thr) return true;
    if (!find_entry(d, set, tag) && !tag_victim(d, set)) return true; /* no entry to point */
    return !data_way_free(d, set); /* above the threshold, but every line is pending */
}

static void dl_bypassed(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                        const wc_repl_ctx *ctx, uint64_t now)
{
    reference((dl1d_ts *)ts, set, tag);
}

static wc_line *dl_allocate(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                            uint8_t state, const wc_repl_ctx *ctx, uint64_t now)
{
    dl1d_ts *d = (dl1d_ts *)ts;
    dl1d_entry *e = reference(d, set, tag);
    if (!e || e->rc < d->thr) return NULL; /* below the threshold: around the cache */
    int way = wc_tag_array_pick(&d->data, set, ctx);
    if (way < 0) return NULL;
    wc_line *line = wc_tag_array_set(&d->data, set) + way;
    if (line->state == WC_LINE_VALID) { /* the victim's entry: RC 0, no line */
        d->replacing = true;
        wc_l1_core_evict(core, set, line, now);
        d->replacing = false;
    }
    memset(line, 0, sizeof *line);
    line->tag = tag;
    line->state = state;
    line->owner_block = ctx->req ? ctx->req->block : 0;
    line->owner_warp = ctx->req ? ctx->req->warp : 0;
    wc_tag_array_inserted(&d->data, set, (uint32_t)way, ctx);
    d->free_lines[set]--;
    e->pos = (int16_t)way;
    age(d, set, e);
    d->n_alloc++;
    return line;
}

static void dl_touch(wc_tagstore *ts, uint32_t set, wc_line *line, const wc_repl_ctx *ctx)
{
    dl1d_ts *d = (dl1d_ts *)ts;
    wc_tag_array_hit(&d->data, set, (uint32_t)(line - wc_tag_array_set(&d->data, set)), ctx);
}

static void dl_invalidate(wc_tagstore *ts, uint32_t set, wc_line *line)
{
    dl1d_ts *d = (dl1d_ts *)ts;
    uint32_t way = (uint32_t)(line - wc_tag_array_set(&d->data, set));
    if (line->state == WC_LINE_VALID) wc_tag_array_evicting(&d->data, set, way);
    dl1d_entry *s = d->tags + (size_t)set * d->tways, *owner = NULL;
    for (uint32_t w = 0; w < d->tways; w++)
        if (s[w].valid && s[w].pos == (int16_t)way) owner = &s[w];
    if (owner) {
        owner->pos = -1;
        owner->rc = 0;
    }
    if (line->state != WC_LINE_INVALID) {
        d->free_lines[set]++;
        if (!d->replacing) age(d, set, owner);
    }
    line->state = WC_LINE_INVALID;
    line->valid_chunks = line->dirty_chunks = line->used_chunks = line->pending_chunks = 0;
}

static void dl_fill(wc_tagstore *ts, uint32_t set, wc_line *line, uint64_t chunks)
{
    line->valid_chunks |= (uint16_t)chunks;
    line->pending_chunks &= (uint16_t)~chunks;
    if (line->state == WC_LINE_RESERVED && !line->pending_chunks) line->state = WC_LINE_VALID;
}

static void dl_each_valid(wc_tagstore *ts, void (*fn)(void *arg, uint32_t set, wc_line *line),
                          void *arg)
{
    dl1d_ts *d = (dl1d_ts *)ts;
    for (uint32_t s = 0; s < d->data.nsets; s++)
        for (uint32_t w = 0; w < d->data.assoc; w++) {
            wc_line *l = wc_tag_array_set(&d->data, s) + w;
            if (l->state == WC_LINE_VALID) fn(arg, s, l);
        }
}

static void dl_stats(const wc_tagstore *ts, void (*emit)(void *ctx, const char *name, double v),
                     void *ctx)
{
    const dl1d_ts *d = (const dl1d_ts *)ts;
    emit(ctx, "dl1d_tag_misses", (double)d->n_tag_miss);
    emit(ctx, "dl1d_tag_hits_nodata", (double)d->n_tag_hit_nodata);
    emit(ctx, "dl1d_data_allocs", (double)d->n_alloc);
    emit(ctx, "dl1d_tag_evictions", (double)d->n_tag_evict);
    emit(ctx, "dl1d_aging_steps", (double)d->n_aging);
    if (d->data.repl->stats) d->data.repl->stats(d->data.repl_state, emit, ctx);
}

static void dl_destroy(wc_tagstore *ts)
{
    dl1d_ts *d = (dl1d_ts *)ts;
    if (!d) return;
    wc_tag_array_free(&d->data);
    free(d->tags);
    free(d->free_lines);
    free(d);
}

static const wc_tagstore_ops dl1d_ops = {
    .name = "decoupled",
    .destroy = dl_destroy,
    .lookup = dl_lookup,
    .can_allocate = dl_can_allocate,
    .allocate = dl_allocate,
    .touch = dl_touch,
    .invalidate = dl_invalidate,
    .fill = dl_fill,
    .each_valid = dl_each_valid,
    .bypasses = dl_bypasses,
    .bypassed = dl_bypassed,
    .stats = dl_stats,
    .retry_memo = true, /* probes are pure; a mode change tells the core (dl1d_ctl) */
};

static wc_tagstore *dl1d_ts_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                   wc_err *err)
{
    const wc_cache_geom *g = &cfg->l1;
    const char *where = wc_l1_config_where(cfg);
    if (g->line_bytes < 32 || g->line_bytes / 32 > MAX_CHUNKS) {
        wc_errf(err, "%s: -gpgpu_cache:dl1: %u-byte lines are not supported by dl1d (32 to %u)",
                where, g->line_bytes, 32 * MAX_CHUNKS);
        return NULL;
    }
    if (g->alloc_policy != 'm') {
        wc_errf(err,
                "%s: -gpgpu_cache:dl1: dl1d decides at the access and needs allocate-on-miss "
                "(m), not '%c'",
                where, g->alloc_policy);
        return NULL;
    }
    dl1d_ts *d = calloc(1, sizeof *d);
    if (!d) {
        wc_errf(err, "dl1d tag store: out of memory");
        return NULL;
    }
    d->base.ops = &dl1d_ops;
    d->base.chunk_log2 = 5;
    d->base.nchunks = g->line_bytes / 32;
    d->base.whole_line = g->type != 'S';
    d->tways = (uint32_t)wc_cfg_param(cfg, dl1d_params, "dl1d_tag_ways");
    d->thr = d->thr_cfg = (uint32_t)wc_cfg_param(cfg, dl1d_params, "dl1d_threshold");
    d->rc_max = (1u << wc_cfg_param(cfg, dl1d_params, "dl1d_rc_bits")) - 1;
    uint64_t seed = wc_rng_sm_seed(cfg->seed, env->sm);
    if (wc_tag_array_init(&d->data, g, cfg->ipoly_poly, seed, cfg, err) < 0) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err ? err->msg : "");
        wc_errf(err, "%s: -gpgpu_cache:dl1: %s", where, why);
        dl_destroy(&d->base);
        return NULL;
    }
    d->tags = calloc((size_t)d->data.nsets * d->tways, sizeof *d->tags);
    d->free_lines = calloc(d->data.nsets, sizeof *d->free_lines);
    if (!d->tags || !d->free_lines) {
        wc_errf(err, "dl1d tag store: out of memory");
        dl_destroy(&d->base);
        return NULL;
    }
    for (uint32_t s = 0; s < d->data.nsets; s++) d->free_lines[s] = d->data.assoc;
    return &d->base;
}

/* WC_L1_CTL_MODE (SM dueling, src/core/controllers/ctl_sm_dueling.c): 0 the decoupled
 * design, 1 the baseline - threshold 0, every access allocates (section 4.3:
 * "disable the RC checking ... by setting the locality threshold to zero");
 * the tag store keeps counting either way.  Returns the old mode. */
static int64_t dl1d_ctl(wc_l1 *l1, int op, int64_t arg)
{
    if (op != WC_L1_CTL_MODE) return wc_l1_core_ctl(l1, op, arg);
    dl1d_ts *d = (dl1d_ts *)((wc_l1_core *)l1)->ts;
    if (arg != 0 && arg != 1) return -1;
    int64_t old = d->mode;
    d->mode = arg;
    d->thr = arg ? 0 : d->thr_cfg;
    wc_l1_core_changed((wc_l1_core *)l1); /* the threshold decides bypasses */
    return old;
}

static wc_l1 *dl1d_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    return wc_l1_core_create(&wc_l1_dl1d_static, dl1d_ts_create, cfg, env, err);
}

const wc_l1_ops wc_l1_dl1d_static = {
    .name = "dl1d-static",
    .help = "seed 001's decoupled L1D: tag store with reference counts over a smaller data store, "
            "lines below the locality threshold bypass (no SM dueling)",
    .create = dl1d_create,
    .access = wc_l1_core_access,
    .fill = wc_l1_core_fill,
    .destroy = wc_l1_core_destroy,
    .flush = wc_l1_core_flush,
    .ctl = dl1d_ctl,
    .stats = wc_l1_core_stats,
    .params = dl1d_params,
    .n_modes = 2, /* 0 the decoupled design, 1 the baseline (dl1d_ctl) */
};
WC_PLUGIN(l1_org, wc_l1_dl1d_static, 20);

/* For tests: the RC and data way (-1: none) of line `tag`, false if the tag
 * store has no entry for it. */
bool wc_dl1d_entry(const wc_l1 *l1, uint64_t tag, unsigned *rc, int *pos)
{
    const wc_l1_core *c = (const wc_l1_core *)l1;
    dl1d_ts *d = (dl1d_ts *)c->ts;
    uint32_t set = wc_index_set(&d->data.index, tag << d->data.line_log2);
    dl1d_entry *e = find_entry(d, set, tag);
    if (!e) return false;
    *rc = e->rc;
    *pos = e->pos;
    return true;
}
