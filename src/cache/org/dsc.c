/*
 * dsc.c - the decoupled sectored caches DSC-2 and DSC-4 (designs `dsc2`,
 * `dsc4`; -l1_org dsc, -dsc_tags 2 or 4) that seed 000
 * (../shared/papers/000_746bcc542c65c503.txt, section 5.2, Figures 10-11;
 * its reference [32]) compares TSC with: a tag store on the L1 core (l1_core.h) with the
 * same chunk-mask MSHR.
 *
 * Each set has assoc sector frames of line/32 data slots (16 KB Fermi L1: 4
 * frames of 4 x 32 B).  A frame has k address tags (k = -dsc_tags) instead of
 * one; each data slot says which of them its chunk belongs to.  Unlike TSC,
 * a chunk may only sit at its own position: chunk c of a line lives in slot
 * c of the line's frame.  So two lines of one frame that need the same
 * 32 B position cannot both keep it (the paper's example in 5.2): the newer
 * one takes the slot, the older loses that chunk (and leaves the cache when
 * it has no chunk left).
 *
 *   placing chunks of a line that has a frame: its positions, taken from
 *     whichever other line holds them;
 *   a line without a frame: the first frame with a free tag whose positions
 *     are free, else the first frame with a free tag, else the frame of the
 *     least recently used line (that line leaves through the core: listeners
 *     and the utilisation histogram see it).
 * Chunks being fetched hold their positions and are never taken; dirty
 * chunks (local write-back) leave only with their whole line.  Allocation
 * on miss only (alloc policy 'm'); LRU over lines by access stamp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/l1_core.h"
#include "cache/l1_impl.h"
#include "warpcache/params.h"

static const wc_param_desc dsc_params[] = {
    {.key = "dsc_tags",
     .def = 2,
     .min = 1,
     .max = 8,
     .help = "DSC: address tags per sector frame (2 = DSC-2, 4 = DSC-4)"},
    {0},
};

#define DSC_MAX_LINES 64 /* frames x tags per set */

typedef struct dsc_ts {
    wc_tagstore base; /* first */
    wc_index index;
    uint32_t nsets;
    unsigned frames, per_frame, tags, nlines, line_log2;
    wc_line *lines;     /* nsets x nlines records; record i belongs to frame i / tags */
    int8_t *slot;       /* nsets x frames x per_frame: owning record, -1 free */
    uint64_t stamp;     /* LRU clock */
    uint64_t conflicts; /* chunks taken from another line of the same frame */
} dsc_ts;

static inline wc_line *recs(dsc_ts *d, uint32_t set)
{
    return d->lines + (size_t)set * d->nlines;
}

static inline int8_t *slots(dsc_ts *d, uint32_t set)
{
    return d->slot + (size_t)set * d->frames * d->per_frame;
}

static wc_line *dsc_lookup(wc_tagstore *ts, uint64_t addr, uint32_t *set)
{
    dsc_ts *d = (dsc_ts *)ts;
    *set = wc_index_set(&d->index, addr);
    uint64_t tag = addr >> d->line_log2;
    wc_line *r = recs(d, *set);
    for (unsigned i = 0; i < d->nlines; i++)
        if (r[i].state != WC_LINE_INVALID && r[i].tag == tag) return &r[i];
    return NULL;
}

/* Whether record i's chunk at position c may be taken by another line. */
static bool takeable(const wc_line *r, int o, unsigned c)
{
    if (o < 0) return true;
    if (r[o].pending_chunks >> c & 1) return false;
    return !(r[o].dirty_chunks >> c & 1) || !r[o].pending_chunks;
}

/* Whether frame f can give line li (or a new line: li < 0) the positions
 * `chunks`. */
static bool frame_ok(const dsc_ts *d, uint32_t set, unsigned f, int li, uint64_t chunks)
{
    const wc_line *r = d->lines + (size_t)set * d->nlines;
    const int8_t *s = d->slot + ((size_t)set * d->frames + f) * d->per_frame;
    for (unsigned c = 0; c < d->per_frame; c++)
        if ((chunks >> c & 1) && s[c] != li && !takeable(r, s[c], c)) return false;
    return true;
}

/* A free tag of frame f, or -1. */
static int free_tag(const dsc_ts *d, uint32_t set, unsigned f)
{
    const wc_line *r = d->lines + (size_t)set * d->nlines;
    for (unsigned i = f * d->tags; i < (f + 1) * d->tags; i++)
        if (r[i].state == WC_LINE_INVALID) return (int)i;
    return -1;
}

/* The frame a new line goes to and whether a line must leave it first
 * (*victim: its record, or -1); -1 when nothing can be done now. */
static int choose_frame(const dsc_ts *d, uint32_t set, uint64_t chunks, int *victim)
{
    const wc_line *r = d->lines + (size_t)set * d->nlines;
    const int8_t *s = d->slot + (size_t)set * d->frames * d->per_frame;
    *victim = -1;
    for (unsigned f = 0; f < d->frames; f++) { /* a free tag, positions free */
        if (free_tag(d, set, f) < 0) continue;
        bool clear = true;
        for (unsigned c = 0; c < d->per_frame; c++)
            if ((chunks >> c & 1) && s[f * d->per_frame + c] >= 0) clear = false;
        if (clear) return (int)f;
    }
    for (unsigned f = 0; f < d->frames; f++) /* a free tag */
        if (free_tag(d, set, f) >= 0 && frame_ok(d, set, f, -1, chunks)) return (int)f;
    int best = -1; /* the least recently used line that may leave */
    for (unsigned i = 0; i < d->nlines; i++) {
        if (r[i].state != WC_LINE_VALID || !frame_ok(d, set, i / d->tags, (int)i, chunks)) continue;
        if (best >= 0 && r[i].repl >= r[best].repl) continue;
        best = (int)i;
    }
    if (best < 0) return -1;
    *victim = best;
    return best / (int)d->tags;
}

static bool dsc_can_allocate(const wc_tagstore *ts, uint32_t set)
{
    return true; /* room is can_place's question */
}

/* The record chosen by the latest can_place for a new line is recomputed in
 * allocate (same state, same answer), so allocate needs no hidden state. */
static wc_line *dsc_allocate(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                             uint8_t state, const wc_repl_ctx *ctx, uint64_t now)
{
    dsc_ts *d = (dsc_ts *)ts;
    uint64_t all = wc_chunks_all(d->per_frame);
    uint64_t chunks = ctx->req->chunks & all ? ctx->req->chunks & all : all;
    int victim;
    int f = choose_frame(d, set, chunks, &victim);
    if (f < 0) return NULL;
    if (victim >= 0) wc_l1_core_evict(core, set, &recs(d, set)[victim], now);
    int i = free_tag(d, set, (unsigned)f);
    if (i < 0) return NULL; /* cannot happen: the victim freed one */
    wc_line *l = &recs(d, set)[i];
    memset(l, 0, sizeof *l);
    l->tag = tag;
    l->state = state;
    l->owner_block = ctx->req->block;
    l->owner_warp = ctx->req->warp;
    l->repl = ++d->stamp;
    return l;
}

static void dsc_touch(wc_tagstore *ts, uint32_t set, wc_line *line, const wc_repl_ctx *ctx)
{
    line->repl = ++((dsc_ts *)ts)->stamp;
}

static void dsc_invalidate(wc_tagstore *ts, uint32_t set, wc_line *line)
{
    dsc_ts *d = (dsc_ts *)ts;
    int li = (int)(line - recs(d, set));
    int8_t *s = slots(d, set);
    for (unsigned k = 0; k < d->frames * d->per_frame; k++)
        if (s[k] == li) s[k] = -1;
    line->state = WC_LINE_INVALID;
    line->valid_chunks = line->dirty_chunks = line->used_chunks = line->pending_chunks = 0;
}

static void dsc_fill(wc_tagstore *ts, uint32_t set, wc_line *line, uint64_t chunks)
{
    line->valid_chunks |= (uint16_t)(chunks & line->pending_chunks);
    line->pending_chunks &= (uint16_t)~chunks;
    if (line->state == WC_LINE_RESERVED && !line->pending_chunks) line->state = WC_LINE_VALID;
}

static bool dsc_can_place(const wc_tagstore *ts, uint32_t set, const wc_line *line, uint64_t tag,
                          uint64_t chunks)
{
    const dsc_ts *d = (const dsc_ts *)ts;
    if (line) {
        int li = (int)(line - (d->lines + (size_t)set * d->nlines));
        return frame_ok(d, set, (unsigned)li / d->tags, li, chunks);
    }
    int victim;
    return choose_frame(d, set, chunks, &victim) >= 0;
}

static void dsc_place(wc_tagstore *ts, wc_l1_core *core, uint32_t set, wc_line *line,
                      uint64_t chunks, const wc_repl_ctx *ctx, uint64_t now)
{
    dsc_ts *d = (dsc_ts *)ts;
    wc_line *r = recs(d, set);
    int li = (int)(line - r);
    int8_t *s = slots(d, set) + (size_t)(li / (int)d->tags) * d->per_frame;
    for (unsigned c = 0; c < d->per_frame; c++) {
        if (!(chunks >> c & 1) || s[c] == li) continue;
        int o = s[c];
        if (o >= 0) { /* the position belongs to another line of the frame */
            d->conflicts++;
            uint16_t bit = (uint16_t)(1u << c);
            bool last = (r[o].valid_chunks & ~bit) == 0, dirty = r[o].dirty_chunks & bit;
            if ((last || dirty) && r[o].state == WC_LINE_VALID) {
                wc_l1_core_evict(core, set, &r[o], now); /* its last chunk, or dirty data */
            } else {
                r[o].valid_chunks &= (uint16_t)~bit;
                r[o].used_chunks &= (uint16_t)~bit;
            }
        }
        s[c] = (int8_t)li;
    }
}

static void dsc_each_valid(wc_tagstore *ts, void (*fn)(void *arg, uint32_t set, wc_line *line),
                           void *arg)
{
    dsc_ts *d = (dsc_ts *)ts;
    for (uint32_t s = 0; s < d->nsets; s++)
        for (unsigned i = 0; i < d->nlines; i++)
            if (recs(d, s)[i].state == WC_LINE_VALID) fn(arg, s, &recs(d, s)[i]);
}

static void dsc_stats(const wc_tagstore *ts, void (*emit)(void *ctx, const char *name, double v),
                      void *ctx)
{
    emit(ctx, "dsc_position_conflicts", (double)((const dsc_ts *)ts)->conflicts);
}

static void dsc_destroy(wc_tagstore *ts)
{
    dsc_ts *d = (dsc_ts *)ts;
    if (!d) return;
    free(d->lines);
    free(d->slot);
    free(d);
}

static const wc_tagstore_ops dsc_ops = {
    .name = "dsc",
    .destroy = dsc_destroy,
    .lookup = dsc_lookup,
    .can_allocate = dsc_can_allocate,
    .allocate = dsc_allocate,
    .touch = dsc_touch,
    .invalidate = dsc_invalidate,
    .fill = dsc_fill,
    .can_place = dsc_can_place,
    .place = dsc_place,
    .each_valid = dsc_each_valid,
    .stats = dsc_stats,
    .retry_memo = true, /* probes are pure; the state is this L1's */
};

static wc_tagstore *dsc_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                               wc_err *err)
{
    const wc_cache_geom *g = &cfg->l1;
    const char *where = wc_l1_config_where(cfg);
    unsigned tags = (unsigned)wc_cfg_param(cfg, dsc_params, "dsc_tags");
    if (g->alloc_policy != 'm') {
        wc_errf(err,
                "%s: -gpgpu_cache:dl1: the dsc L1 allocates on miss only (allocation policy "
                "'m', not '%c')",
                where, g->alloc_policy);
        return NULL;
    }
    if (g->line_bytes < 32 || g->line_bytes / 32 > 16 || g->assoc * tags > DSC_MAX_LINES) {
        wc_errf(err,
                "%s: -gpgpu_cache:dl1: %u-byte lines x %u ways x %u tags are not supported by "
                "the dsc L1 (1..16 sectors of 32 B, at most %d tags a set)",
                where, g->line_bytes, g->assoc, tags, DSC_MAX_LINES);
        return NULL;
    }
    dsc_ts *d = calloc(1, sizeof *d);
    if (!d) {
        wc_errf(err, "dsc L1: out of memory");
        return NULL;
    }
    d->base.ops = &dsc_ops;
    d->base.chunk_log2 = 5;
    d->base.nchunks = g->line_bytes / 32;
    d->nsets = g->nsets;
    d->frames = g->assoc;
    d->per_frame = d->base.nchunks;
    d->tags = tags;
    d->nlines = d->frames * tags;
    d->line_log2 = wc_log2(g->line_bytes);
    char sif = g->nsets == 1 ? 'L' : g->set_index;
    d->lines = calloc((size_t)d->nsets * d->nlines, sizeof *d->lines);
    d->slot = malloc((size_t)d->nsets * d->frames * d->per_frame);
    if (!d->lines || !d->slot ||
        wc_index_init(&d->index, sif, g->nsets, g->line_bytes, cfg->ipoly_poly, err) < 0) {
        if (d->lines && d->slot) {
            char why[sizeof err->msg];
            snprintf(why, sizeof why, "%s", err->msg);
            wc_errf(err, "%s: -gpgpu_cache:dl1: %s", where, why);
        } else {
            wc_errf(err, "dsc L1: out of memory");
        }
        dsc_destroy(&d->base);
        return NULL;
    }
    memset(d->slot, -1, (size_t)d->nsets * d->frames * d->per_frame);
    return &d->base;
}

static wc_l1 *dsc_l1_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    return wc_l1_core_create(&wc_l1_dsc, dsc_create, cfg, env, err);
}

const wc_l1_ops wc_l1_dsc = {
    .name = "dsc",
    .help = "decoupled sectored cache (seed 000's DSC-2/DSC-4): k tags per sector frame",
    .create = dsc_l1_create,
    WC_L1_CORE_OPS,
    .params = dsc_params,
};
WC_PLUGIN(l1_org, wc_l1_dsc, 60);
