/*
 * tsc.c - the tag-split cache (TSC, design `tsc`, -l1_org tsc) of
 * ../shared/papers/000_746bcc542c65c503.txt, sections 3.1-3.4 (Table 2 for
 * the parameters): a tag store on the L1 core (l1_core.h) that places 32 B
 * chunks, not lines.
 *
 * Each set holds assoc chunk groups of line/chunk chunks (16 KB Fermi L1: 4
 * groups of 4 x 32 B).  A group has a shared tag, each chunk slot a private
 * tag, an inter-chunk offset (which chunk of its line it holds), a valid bit
 * and an NRU bit.  Here a line's address tag t = addr >> line_log2 splits
 * into private = (t >> set_bits) & (2^p - 1) and shared = t >> (set_bits + p)
 * (p = -tsc_private_bits); lookup matches the full tag, so two lines are in
 * one group only when their shared parts are equal, which is the paper's
 * rule.  The shared-tag width (-tsc_shared_bits) only sizes the storage the
 * stats report: the shared tag is taken as wide as the address needs, so no
 * aliasing is modelled.  p = 0 gives a group to one line: a sector cache
 * (128 B lines of 4 sectors, NRU).
 *
 *   lookup   the line's record (the chunks it holds: cached-chunk mask) ->
 *            the core compares it with the request's chunk mask: hit, miss,
 *            or partial miss (SECTOR_MISS: cached chunks served, missing
 *            chunks requested through the chunk-mask MSHR);
 *   place    slots for the fetched chunks: free slots of groups with the
 *            line's shared tag, then of empty groups; else NRU victims
 *            (NRU 0 first, seeded random among equals); a victim in a group
 *            of another shared tag invalidates that whole group; all
 *            victims, possibly of several lines, go in one step (a line that
 *            loses every chunk is evicted through the core: listeners and
 *            the utilisation histogram see it; one that keeps some only loses
 *            the chunks);
 *   NRU      bit set on placement and on every access to the chunk; when no
 *            occupied slot of the set has a 0 left, all others are reset.
 *
 * Lines are wc_line records in a per-set pool (slots + 1: each line holding
 * a slot, plus the one being allocated).  Chunks being fetched hold their
 * slots (pending) and are never victims; a line's dirty chunk (local
 * write-back) is a victim only with its whole line.  Allocation happens on
 * miss (alloc policy 'm'); the 1 extra hit cycle of Table 2 is the design
 * file's -gpgpu_l1_latency.  TSC+ (tscplus.c) adds storage modes on top.
 */
#include <stdlib.h>
#include <string.h>

#include "cache/org/tsc.h"
#include "warpcache/params.h"

const wc_param_desc wc_tsc_params[] = {
    {.key = "tsc_private_bits",
     .def = 8,
     .min = 0,
     .max = 20,
     .help = "TSC: private tag bits per chunk (0 = sector cache)"},
    {.key = "tsc_shared_bits",
     .def = 12,
     .min = 1,
     .max = 40,
     .help = "TSC: shared tag bits per chunk group (storage only)"},
    {.key = "tsc_chunk_bytes",
     .def = 32,
     .min = 8,
     .max = 64,
     .help = "TSC: chunk (storage and fetch) size in bytes: 8, 16, 32, 64",
     .pow2 = true,
     .unit = "bytes"},
    {0},
};

/* ---- helpers --------------------------------------------------------------- */

static inline wc_line *pool(tsc_ts *t, uint32_t set)
{
    return t->lines + (size_t)set * t->npool;
}

static inline tsc_slot *slots(tsc_ts *t, uint32_t set)
{
    return t->slots + (size_t)set * t->nslots;
}

static inline uint64_t shared_of(const tsc_ts *t, uint64_t tag)
{
    return tag >> t->shared_shift;
}

/* What place() may use in a group: its state for a line of shared tag s. */
enum { G_EMPTY, G_MATCH, G_FOREIGN };

static int group_kind(const tsc_ts *t, const wc_line *p, const tsc_slot *sl, unsigned g, uint64_t s,
                      uint64_t gone)
{
    for (unsigned i = g * t->per_group; i < (g + 1) * t->per_group; i++) {
        if (sl[i].owner < 0 || (gone >> i & 1)) continue;
        return shared_of(t, p[sl[i].owner].tag) == s ? G_MATCH : G_FOREIGN;
    }
    return G_EMPTY;
}

/* Whether slot i may be a victim for line li (not mid-fetch, not li's own,
 * and dirty data leaves only with its whole line). */
static bool slot_evictable(const tsc_ts *t, const wc_line *p, const tsc_slot *sl, unsigned i,
                           int li)
{
    int o = sl[i].owner;
    if (o < 0 || o == li) return false;
    const wc_line *l = &p[o];
    if (!(l->valid_chunks >> sl[i].off & 1)) return false; /* pending */
    return !l->dirty_chunks || !l->pending_chunks;
}

/* Slots of line o (mask over the set's slots). */
static uint64_t slots_of(const tsc_ts *t, const tsc_slot *sl, int o)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < t->nslots; i++)
        if (sl[i].owner == o) m |= 1ull << i;
    return m;
}

/* The slots a line of shared tag s may fill, victims `gone` taken out:
 * free slots in matching groups first, then in empty groups (in slot order
 * inside each).  Returns how many; order[] lists them. */
static unsigned usable(const tsc_ts *t, const wc_line *p, const tsc_slot *sl, uint64_t s,
                       uint64_t gone, uint8_t *order)
{
    unsigned n = 0;
    for (int pass = G_MATCH; pass >= G_EMPTY; pass--)
        for (unsigned g = 0; g < t->groups; g++) {
            if (group_kind(t, p, sl, g, s, gone) != pass) continue;
            for (unsigned i = g * t->per_group; i < (g + 1) * t->per_group; i++)
                if (sl[i].owner < 0 || (gone >> i & 1)) order[n++] = (uint8_t)i;
        }
    return n;
}

/* Victims of picking slot i: itself in a matching group, the whole group in
 * a foreign one, the whole line when the line holds dirty data; 0 when that
 * is not allowed (a slot it would take is not evictable). */
static uint64_t victims_of(const tsc_ts *t, const wc_line *p, const tsc_slot *sl, unsigned i,
                           int li, uint64_t s, uint64_t gone)
{
    if (sl[i].owner < 0) return 0; /* a free slot is no victim */
    unsigned g = i / t->per_group;
    uint64_t v = 1ull << i;
    if (group_kind(t, p, sl, g, s, gone) == G_FOREIGN)
        for (unsigned k = g * t->per_group; k < (g + 1) * t->per_group; k++)
            if (sl[k].owner >= 0 && !(gone >> k & 1)) v |= 1ull << k;
    uint64_t more = 0;
    for (unsigned k = 0; k < t->nslots; k++)
        if ((v >> k & 1) && sl[k].owner >= 0 && p[sl[k].owner].dirty_chunks)
            more |= slots_of(t, sl, sl[k].owner);
    v |= more;
    for (unsigned k = 0; k < t->nslots; k++)
        if ((v >> k & 1) && !(gone >> k & 1) && !slot_evictable(t, p, sl, k, li)) return 0;
    return v & ~gone;
}

/* The victims that make room for n chunks of line li (shared tag s):
 * repeatedly the NRU-0 candidate (seeded random among equals, or the first
 * one when rng is NULL: can_place only asks whether it is possible).
 * Returns false when no amount of eviction makes room now. */
static bool plan(const tsc_ts *t, uint32_t set, int li, uint64_t s, unsigned n, uint64_t *rng,
                 uint64_t *gone_out)
{
    const wc_line *p = t->lines + (size_t)set * t->npool;
    const tsc_slot *sl = t->slots + (size_t)set * t->nslots;
    uint8_t order[TSC_MAX_SLOTS];
    uint64_t gone = 0;
    while (usable(t, p, sl, s, gone, order) < n) {
        uint8_t cand[TSC_MAX_SLOTS];
        unsigned nc = 0;
        for (int want_nru = 0; want_nru <= 1 && nc == 0; want_nru++)
            for (unsigned i = 0; i < t->nslots; i++)
                if (!(gone >> i & 1) && sl[i].nru == want_nru &&
                    victims_of(t, p, sl, i, li, s, gone))
                    cand[nc++] = (uint8_t)i;
        if (nc == 0) return false;
        unsigned pick = rng && nc > 1 ? cand[wc_splitmix64(rng) % nc] : cand[0];
        gone |= victims_of(t, p, sl, pick, li, s, gone);
    }
    *gone_out = gone;
    return true;
}

/* NRU: the slots in `used` were used (one access or one placement sets all
 * its chunks at once); when no occupied slot has a 0 left, all others start
 * a new epoch at 0. */
static void nru_mark(tsc_ts *t, tsc_slot *sl, uint64_t used)
{
    for (unsigned k = 0; k < t->nslots; k++)
        if (used >> k & 1) sl[k].nru = 1;
    for (unsigned k = 0; k < t->nslots; k++)
        if (sl[k].owner >= 0 && !sl[k].nru) return;
    bool cleared = false;
    for (unsigned k = 0; k < t->nslots; k++)
        if (!(used >> k & 1) && sl[k].nru) {
            sl[k].nru = 0;
            cleared = true;
        }
    t->nru_resets += cleared; /* the first line alone "resets" nothing: no epoch */
}

/* ---- the tag-store ops ------------------------------------------------------- */

wc_line *wc_tsc_lookup(wc_tagstore *ts, uint64_t addr, uint32_t *set)
{
    tsc_ts *t = (tsc_ts *)ts;
    *set = wc_index_set(&t->index, addr);
    t->last_set = *set;
    uint64_t tag = addr >> t->line_log2;
    wc_line *p = pool(t, *set);
    for (unsigned i = 0; i < t->npool; i++)
        if (p[i].state != WC_LINE_INVALID && p[i].tag == tag) return &p[i];
    return NULL;
}

bool wc_tsc_can_allocate(const wc_tagstore *ts, uint32_t set)
{
    return true; /* a record is always free (slots + 1); room is can_place's question */
}

wc_line *wc_tsc_allocate(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                         uint8_t state, const wc_repl_ctx *ctx, uint64_t now)
{
    tsc_ts *t = (tsc_ts *)ts;
    wc_line *p = pool(t, set);
    for (unsigned i = 0; i < t->npool; i++) {
        if (p[i].state != WC_LINE_INVALID) continue;
        memset(&p[i], 0, sizeof p[i]);
        p[i].tag = tag;
        p[i].state = state;
        p[i].owner_block = ctx->req->block;
        p[i].owner_warp = ctx->req->warp;
        return &p[i];
    }
    return NULL; /* cannot happen: at most nslots lines hold slots */
}

void wc_tsc_touch(wc_tagstore *ts, uint32_t set, wc_line *line, const wc_repl_ctx *ctx)
{
    tsc_ts *t = (tsc_ts *)ts;
    tsc_slot *sl = slots(t, set);
    int li = (int)(line - pool(t, set));
    uint64_t used = ctx && ctx->req && ctx->req->chunks ? ctx->req->chunks : ~0ull;
    t->occ_sum += t->valid_slots;
    t->occ_samples++;
    uint64_t m = 0;
    for (unsigned i = 0; i < t->nslots; i++)
        if (sl[i].owner == li && (used >> sl[i].off & 1)) m |= 1ull << i;
    nru_mark(t, sl, m);
}

/* Frees line li's slots of chunks `chunks`. */
static void drop_chunks(tsc_ts *t, uint32_t set, int li, uint64_t chunks)
{
    tsc_slot *sl = slots(t, set);
    wc_line *l = &pool(t, set)[li];
    for (unsigned i = 0; i < t->nslots; i++) {
        if (sl[i].owner != li || !(chunks >> sl[i].off & 1)) continue;
        t->valid_slots -= l->valid_chunks >> sl[i].off & 1;
        sl[i].owner = -1;
        sl[i].nru = 0;
    }
}

void wc_tsc_invalidate(wc_tagstore *ts, uint32_t set, wc_line *line)
{
    tsc_ts *t = (tsc_ts *)ts;
    drop_chunks(t, set, (int)(line - pool(t, set)), ~0ull);
    line->state = WC_LINE_INVALID;
    line->valid_chunks = line->dirty_chunks = line->used_chunks = line->pending_chunks = 0;
}

void wc_tsc_fill(wc_tagstore *ts, uint32_t set, wc_line *line, uint64_t chunks)
{
    tsc_ts *t = (tsc_ts *)ts;
    uint16_t add = (uint16_t)(chunks & line->pending_chunks & ~line->valid_chunks);
    t->valid_slots += wc_chunk_count(add);
    line->valid_chunks |= add;
    line->pending_chunks &= (uint16_t)~chunks;
    if (line->state == WC_LINE_RESERVED && !line->pending_chunks) line->state = WC_LINE_VALID;
}

bool wc_tsc_can_place(const wc_tagstore *ts, uint32_t set, const wc_line *line, uint64_t tag,
                      uint64_t chunks)
{
    const tsc_ts *t = (const tsc_ts *)ts;
    int li = line ? (int)(line - (t->lines + (size_t)set * t->npool)) : -1;
    uint64_t gone;
    return plan(t, set, li, shared_of(t, tag), wc_chunk_count(chunks), NULL, &gone);
}

/* The victims leave in one step: a line left with no slot is evicted
 * through the core, the others lose only their victim chunks. */
static void evict_victims(tsc_ts *t, wc_l1_core *core, uint32_t set, uint64_t s, uint64_t gone,
                          uint64_t now)
{
    tsc_slot *sl = slots(t, set);
    wc_line *p = pool(t, set);
    for (unsigned g = 0; g < t->groups; g++) { /* groups emptied for another shared tag */
        uint64_t gm = wc_chunks_all(t->per_group) << (g * t->per_group);
        if ((gone & gm) && group_kind(t, p, sl, g, s, 0) == G_FOREIGN) t->group_invalidations++;
    }
    for (unsigned i = 0; i < t->nslots; i++) {
        if (!(gone >> i & 1) || sl[i].owner < 0) continue;
        int o = sl[i].owner;
        uint64_t own = slots_of(t, sl, o);
        if ((own & gone) == own) { /* every chunk of the line goes */
            t->chunk_evictions += wc_chunk_count(own);
            wc_l1_core_evict(core, set, &p[o], now);
            continue;
        }
        uint64_t ch = 0;
        for (unsigned k = 0; k < t->nslots; k++)
            if ((own & gone) >> k & 1) ch |= 1ull << sl[k].off;
        t->chunk_evictions += wc_chunk_count(ch);
        drop_chunks(t, set, o, ch);
        p[o].valid_chunks &= (uint16_t)~ch;
        p[o].used_chunks &= (uint16_t)~ch;
    }
}

void wc_tsc_place(wc_tagstore *ts, wc_l1_core *core, uint32_t set, wc_line *line, uint64_t chunks,
                  const wc_repl_ctx *ctx, uint64_t now)
{
    tsc_ts *t = (tsc_ts *)ts;
    wc_line *p = pool(t, set);
    int li = (int)(line - p);
    uint64_t s = shared_of(t, line->tag);
    const wc_mem_req *req = ctx ? ctx->req : NULL;
    if (line->valid_chunks && req && (req->chunks & line->valid_chunks)) t->partial_misses++;
    uint64_t gone = 0;
    if (!plan(t, set, li, s, wc_chunk_count(chunks), &t->rng, &gone)) return; /* checked before */
    if (gone) evict_victims(t, core, set, s, gone, now);
    tsc_slot *sl = slots(t, set);
    uint8_t order[TSC_MAX_SLOTS];
    unsigned n = usable(t, p, sl, s, 0, order), k = 0;
    uint64_t m = 0;
    for (unsigned c = 0; c < t->base.nchunks && k < n; c++) {
        if (!(chunks >> c & 1)) continue;
        unsigned i = order[k++];
        sl[i].owner = (int8_t)li;
        sl[i].off = (uint8_t)c;
        m |= 1ull << i;
    }
    nru_mark(t, sl, m);
}

void wc_tsc_each_valid(wc_tagstore *ts, void (*fn)(void *arg, uint32_t set, wc_line *line),
                       void *arg)
{
    tsc_ts *t = (tsc_ts *)ts;
    for (uint32_t s = 0; s < t->nsets; s++)
        for (unsigned i = 0; i < t->npool; i++)
            if (pool(t, s)[i].state == WC_LINE_VALID) fn(arg, s, &pool(t, s)[i]);
}

void wc_tsc_stats(const wc_tagstore *ts, void (*emit)(void *ctx, const char *name, double v),
                  void *ctx)
{
    const tsc_ts *t = (const tsc_ts *)ts;
    emit(ctx, "tsc_partial_misses", (double)t->partial_misses);
    emit(ctx, "tsc_chunk_evictions", (double)t->chunk_evictions);
    emit(ctx, "tsc_group_invalidations", (double)t->group_invalidations);
    emit(ctx, "tsc_nru_resets", (double)t->nru_resets);
    /* occupancy = valid_chunk_samples / slot_samples (both sum over SMs) */
    emit(ctx, "tsc_occ_valid_chunk_samples", (double)t->occ_sum);
    emit(ctx, "tsc_occ_slot_samples", (double)t->occ_samples * t->nslots * t->nsets);
}

void wc_tsc_destroy(wc_tagstore *ts)
{
    tsc_ts *t = (tsc_ts *)ts;
    if (!t) return;
    free(t->lines);
    free(t->slots);
    free(t);
}

static const wc_tagstore_ops tsc_ops = {
    .name = "tsc",
    .destroy = wc_tsc_destroy,
    .lookup = wc_tsc_lookup,
    .can_allocate = wc_tsc_can_allocate,
    .allocate = wc_tsc_allocate,
    .touch = wc_tsc_touch,
    .invalidate = wc_tsc_invalidate,
    .fill = wc_tsc_fill,
    .can_place = wc_tsc_can_place,
    .place = wc_tsc_place,
    .each_valid = wc_tsc_each_valid,
    .stats = wc_tsc_stats,
    .retry_memo = true, /* can_place plans without drawing (rng NULL): pure */
};

int wc_tsc_init(tsc_ts *t, const wc_tagstore_ops *ops, const wc_config *cfg, const wc_l1_env *env,
                wc_err *err)
{
    const wc_cache_geom *g = &cfg->l1;
    const char *where = wc_l1_config_where(cfg);
    uint64_t chunk = wc_cfg_param(cfg, wc_tsc_params, "tsc_chunk_bytes");
    /* a power of two: the schema (.pow2) refused anything else at configuration time */
    if (g->alloc_policy != 'm')
        return wc_errf(err,
                       "%s: -gpgpu_cache:dl1: the %s L1 allocates on miss only (allocation "
                       "policy 'm', not '%c')",
                       where, ops->name, g->alloc_policy);
    if (g->line_bytes < chunk || g->line_bytes / chunk > 16 ||
        g->assoc * g->line_bytes / chunk > TSC_MAX_SLOTS)
        return wc_errf(err,
                       "%s: -gpgpu_cache:dl1: %u-byte lines x %u ways in %llu-byte chunks are "
                       "not supported by the %s L1 (1..16 chunks a line, at most %d a set)",
                       where, g->line_bytes, g->assoc, (unsigned long long)chunk, ops->name,
                       TSC_MAX_SLOTS);
    t->base.ops = ops;
    t->base.chunk_log2 = wc_log2(chunk);
    t->base.nchunks = g->line_bytes / (uint32_t)chunk;
    t->nsets = g->nsets;
    t->groups = g->assoc;
    t->per_group = t->base.nchunks;
    t->nslots = t->groups * t->per_group;
    t->npool = t->nslots + 1;
    t->line_log2 = wc_log2(g->line_bytes);
    t->priv_bits = (unsigned)wc_cfg_param(cfg, wc_tsc_params, "tsc_private_bits");
    t->shared_bits = (unsigned)wc_cfg_param(cfg, wc_tsc_params, "tsc_shared_bits");
    t->shared_shift = wc_log2(g->nsets) + t->priv_bits;
    t->rng = wc_rng_sm_seed(cfg->seed, env->sm);
    char sif = g->nsets == 1 ? 'L' : g->set_index;
    if (wc_index_init(&t->index, sif, g->nsets, g->line_bytes, cfg->ipoly_poly, err) < 0) return -1;
    t->lines = calloc((size_t)t->nsets * t->npool, sizeof *t->lines);
    t->slots = malloc((size_t)t->nsets * t->nslots * sizeof *t->slots);
    if (!t->lines || !t->slots) return wc_errf(err, "%s L1: out of memory", ops->name);
    for (size_t i = 0; i < (size_t)t->nsets * t->nslots; i++)
        t->slots[i] = (tsc_slot){.owner = -1, .off = 0, .nru = 0};
    return 0;
}

static wc_tagstore *tsc_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                               wc_err *err)
{
    tsc_ts *t = calloc(1, sizeof *t);
    if (!t) {
        wc_errf(err, "tsc L1: out of memory");
        return NULL;
    }
    if (wc_tsc_init(t, &tsc_ops, cfg, env, err) < 0) {
        wc_tsc_destroy(&t->base);
        return NULL;
    }
    return &t->base;
}

static wc_l1 *tsc_l1_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    return wc_l1_core_create(&wc_l1_tsc, tsc_create, cfg, env, err);
}

const wc_l1_ops wc_l1_tsc = {
    .name = "tsc",
    .help = "tag-split cache (seed 000): 32 B chunks placed by shared + private tags, NRU",
    .create = tsc_l1_create,
    WC_L1_CORE_OPS,
    .params = wc_tsc_params,
};
WC_PLUGIN(l1_org, wc_l1_tsc, 50);
