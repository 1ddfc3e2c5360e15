/*
 * bptree.c - Rodinia b+tree's findK kernel (CUDA) as an address generator
 * that really searches a seeded B+ tree.  Facts from
 * ../shared/specs/workloads.md (Rodinia, b+tree).
 *
 * Tree: `keys` records (default 1M, key i in record i), order 256, knode =
 * {int location; int indices[257]; int keys[257]; bool is_leaf; int
 * num_keys} = 2068 B (indices at +4, keys at +1032), nodes stored level by
 * level from the root (as transform_to_cuda lays them out).  Bulk-loaded:
 * every node holds a seeded number of entries in [128, 255] (the fill of a
 * tree built by insertions); in an inner node keys[j] is the smallest key
 * under child j and indices[j] the child's knode number; unused keys are
 * INT_MAX.  Queries (default 10000) are seeded random existing keys.
 *
 * findK<<<queries, 256>>>: per inner level every thread loads
 * currKnode[bid], knodes[cur].keys[thid] and keys[bid]; threads with
 * keys[thid] <= key also load keys[thid+1]; the one matching thread loads
 * offset[bid] and indices[thid], stores offset[bid]; barrier; thread 0 copies
 * offset[bid] to currKnode[bid]; barrier.  At the leaf every thread loads
 * currKnode, keys[thid], keys[bid]; the matching thread loads indices[thid],
 * gathers records[indices] and stores ans[bid].
 * Arrays: 0 knodes, 1 records, 2 currKnode, 3 offset, 4 query keys, 5 ans.
 *
 * ranges=N (default 0; Rodinia's command file runs `j 6000 3000` before
 * `k 10000`): findRangeK<<<N, 256>>> first, over N ranges [start, start +
 * rsize] (start a seeded existing key; an end past the last key moves both
 * back, as the host code does).  Per level each thread does findK's step for
 * the start key on currKnode/offset and then for the end key on
 * lastKnode/offset_2 (long arrays: 8-byte elements; the matching thread's
 * indices[thid] is loaded once and stored to the offset); barrier; thread 0
 * copies both offsets; barrier.  At the leaf: currKnode, keys[thid],
 * start[bid], the match loads indices[thid] and stores recstart[bid];
 * barrier; lastKnode, keys[thid], end[bid], the match loads indices[thid] and
 * recstart[bid] and stores reclen[bid].  Arrays: 6 lastKnode, 7 offset_2,
 * 8 start, 9 end, 10 recstart, 11 reclen (2, 3 hold currKnode and offset as
 * longs in this launch).
 */
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"
#include "workloads/gen.h"

#define BT_KNODES WC_GEN_REGION(0)
#define BT_REC    WC_GEN_REGION(1)
#define BT_CUR    WC_GEN_REGION(2)
#define BT_OFF    WC_GEN_REGION(3)
#define BT_KEYS   WC_GEN_REGION(4)
#define BT_ANS    WC_GEN_REGION(5)
#define BT_LAST   WC_GEN_REGION(6)
#define BT_OFF2   WC_GEN_REGION(7)
#define BT_START  WC_GEN_REGION(8)
#define BT_END    WC_GEN_REGION(9)
#define BT_RSTART WC_GEN_REGION(10)
#define BT_RLEN   WC_GEN_REGION(11)
#define BT_NODE   2068u
#define BT_MAXLV  12

typedef struct bt_ctx {
    uint64_t nkeys, nq, levels;
    uint64_t nr, rsize; /* findRangeK's ranges and their size */
    /* searches: findK's queries 0..nq-1, then range j's start (nq + 2j) and
     * end (nq + 2j + 1) */
    uint32_t *path; /* searches x levels: knode at each level */
    uint16_t *pos;  /* searches x levels: matching thread at each level */
    uint32_t *qkey; /* searched keys (= record numbers) */
} bt_ctx;

static void bt_destroy(void *ctx)
{
    bt_ctx *c = ctx;
    free(c->path);
    free(c->pos);
    free(c->qkey);
    free(c);
}

/* A range's start as the host code sets it: an end (start + rsize) at or
 * past the last key moves the start back by the excess and the end to the
 * last key. */
static uint64_t bt_range_start(uint64_t start, uint64_t rsize, uint64_t nkeys)
{
    uint64_t end = start + rsize;
    if (end >= nkeys) start = start > end - nkeys ? start - (end - nkeys) : 0;
    return start;
}

/* Builds level sizes bottom-up; for each level keeps the first key of every
 * node and, per query, descends by binary search. */
static int bt_build(bt_ctx *c, uint64_t seed, wc_err *err)
{
    uint64_t r = wc_rng_seed(seed ^ 0x62747265ull);
    /* level 0 = leaves: node boundaries as start offsets into the level below */
    uint64_t *start[BT_MAXLV] = {0}, count[BT_MAXLV] = {0}, below = c->nkeys;
    unsigned nl = 0;
    for (;;) {
        if (nl == BT_MAXLV) {
            for (unsigned i = 0; i < nl; i++) free(start[i]);
            return wc_errf(err, "workload rodinia/b+tree: too many levels");
        }
        start[nl] = malloc((below / 128 + 2) * sizeof(uint64_t));
        if (!start[nl]) {
            for (unsigned i = 0; i < nl; i++) free(start[i]);
            return wc_errf(err, "b+tree: out of memory");
        }
        uint64_t n = 0, at = 0;
        while (at < below) {
            start[nl][n++] = at;
            uint64_t fill = 128 + wc_rng_below(&r, 128);
            at += fill;
        }
        start[nl][n] = below;
        count[nl] = n;
        nl++;
        if (n == 1) break;
        below = n;
    }
    /* knode numbering: root level first */
    uint64_t first[BT_MAXLV], acc = 0;
    for (unsigned i = nl; i-- > 0;) {
        first[i] = acc;
        acc += count[i];
    }
    c->levels = nl;
    uint64_t ns = c->nq + 2 * c->nr;
    c->path = malloc(ns * nl * sizeof *c->path);
    c->pos = malloc(ns * nl * sizeof *c->pos);
    c->qkey = malloc(ns * sizeof *c->qkey);
    if (!c->path || !c->pos || !c->qkey) {
        for (unsigned i = 0; i < nl; i++) free(start[i]);
        return wc_errf(err, "b+tree: out of memory");
    }
    for (uint64_t q = 0; q < ns; q++) {
        /* findK's keys are drawn first, so ranges leave them as they were */
        uint64_t key;
        if (q < c->nq)
            key = wc_rng_below(&r, c->nkeys);
        else if ((q - c->nq) % 2 == 0) /* a range's start; its end is start + rsize */
            key = bt_range_start(wc_rng_below(&r, c->nkeys), c->rsize, c->nkeys);
        else
            key = c->qkey[q - 1] + c->rsize < c->nkeys ? c->qkey[q - 1] + c->rsize : c->nkeys - 1;
        c->qkey[q] = (uint32_t)key;
        /* leaf holding key, then the ancestor chain; position within parent */
        uint64_t item = key; /* index in the level below (record, then node) */
        for (unsigned lv = 0; lv < nl; lv++) {
            uint64_t lo = 0, hi = count[lv];
            while (hi - lo > 1) { /* last node whose start <= item */
                uint64_t mid = (lo + hi) / 2;
                if (start[lv][mid] <= item)
                    lo = mid;
                else
                    hi = mid;
            }
            /* query q's node at depth (nl-1-lv) from the root */
            unsigned depth = nl - 1 - lv;
            c->path[q * nl + depth] = (uint32_t)(first[lv] + lo);
            c->pos[q * nl + depth] = (uint16_t)(item - start[lv][lo]);
            item = lo;
        }
    }
    for (unsigned i = 0; i < nl; i++) free(start[i]);
    return 0;
}

static inline uint64_t bt_node(const bt_ctx *c, uint64_t q, uint64_t lv)
{
    return BT_KNODES + (uint64_t)c->path[q * c->levels + lv] * BT_NODE;
}

static inline unsigned bt_pos(const bt_ctx *c, uint64_t q, uint64_t lv)
{
    return c->pos[q * c->levels + lv];
}

static int bt_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bt_ctx *c = gk->arg;
    uint64_t q = w->block_id, lv = (uint64_t)w->v[0], t0 = w->warp * 32u;
    unsigned p = lv < c->levels ? bt_pos(c, q, lv) : 0;
    /* lanes with keys[thid] <= key: thid <= p */
    uint32_t le = p >= t0 + 31 ? 0xffffffffu : p < t0 ? 0 : (uint32_t)((2ull << (p - t0)) - 1u);
    uint32_t match = p / 32 == w->warp ? 1u << (p % 32) : 0;
    const uint32_t all = 0xffffffffu;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < (int64_t)c->levels; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, all, 1, WC_REG_NONE, 4, BT_CUR + q * 4, 0));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, all, 3, 1, 4,
                                 bt_node(c, q, (uint64_t)w->v[0]) + 1032 + t0 * 4, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_LDG, all, 4, WC_REG_NONE, 4, BT_KEYS + q * 4, 0));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x28, all, 5, 3, 4));
        if (w->v[0] == (int64_t)c->levels - 1) break; /* leaf */
        if (le)
            WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_LDG, le, 6, 1, 4,
                                     bt_node(c, q, (uint64_t)w->v[0]) + 1036 + t0 * 4, 4));
        if (match) {
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x38, WC_OP_LDG, match, 7, WC_REG_NONE, 4, BT_OFF + q * 4, 0));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_LDG, match, 8, 7, 4,
                                     bt_node(c, q, (uint64_t)w->v[0]) + 4 + t0 * 4, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x48, match, WC_REG_NONE, 8, WC_REG_NONE));
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x50, WC_OP_STG, match, 8, WC_REG_NONE, 4, BT_OFF + q * 4, 0));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x58));
        if (w->warp == 0) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x60, WC_OP_LDG, 1u, 9, WC_REG_NONE, 4, BT_OFF + q * 4, 0));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x68, WC_OP_STG, 1u, 9, WC_REG_NONE, 4, BT_CUR + q * 4, 0));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x70));
    }
    if (!match) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x78, WC_OP_LDG, match, 10, 1, 4,
                             bt_node(c, q, c->levels - 1) + 4 + t0 * 4, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x80, WC_OP_LDG, match, 11, 10, 4, BT_REC + c->qkey[q] * 4, 0));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x88, WC_OP_STG, match, 11, WC_REG_NONE, 4, BT_ANS + q * 4, 0));
    WC_CO_END(w);
}

/* Lanes of warp t0/32 with keys[thid] <= key (thid <= p), and the lane
 * with the matching thread p. */
static uint32_t bt_le_mask(unsigned p, uint64_t t0)
{
    return p >= t0 + 31 ? 0xffffffffu : p < t0 ? 0 : (uint32_t)((2ull << (p - t0)) - 1u);
}

static uint32_t bt_match_mask(unsigned p, uint32_t warp)
{
    return p / 32 == warp ? 1u << (p % 32) : 0;
}

/* findRangeK: range q = block; v[0] level, v[1] side (0 start, 1 end). */
static int bt_range_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bt_ctx *c = gk->arg;
    uint64_t q = w->block_id, lv = (uint64_t)w->v[0], t0 = w->warp * 32u;
    uint64_t side = w->v[1] > 0, srch = c->nq + 2 * q + side; /* v[1] ends at 2 */
    unsigned p = lv < c->levels ? bt_pos(c, srch, lv) : 0;
    uint32_t le = bt_le_mask(p, t0), match = bt_match_mask(p, w->warp);
    uint64_t cur = side ? BT_LAST : BT_CUR, off = side ? BT_OFF2 : BT_OFF;
    uint64_t key = side ? BT_END : BT_START, node = lv < c->levels ? bt_node(c, srch, lv) : 0;
    const uint32_t all = 0xffffffffu;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < (int64_t)c->levels - 1; w->v[0]++) {
        for (w->v[1] = 0; w->v[1] < 2; w->v[1]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, all, 1, WC_REG_NONE, 8, cur + q * 8, 0));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, all, 3, 1, 4, node + 1032 + t0 * 4, 4));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_LDG, all, 4, WC_REG_NONE, 4, key + q * 4, 0));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x28, all, 5, 3, 4));
            if (le)
                WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_LDG, le, 6, 1, 4, node + 1036 + t0 * 4, 4));
            if (match) {
                WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDG, match, 8, 1, 4, node + 4 + t0 * 4, 4));
                WC_CO_EMIT(w, wc_gen_alu(o, 0x40, match, WC_REG_NONE, 8, WC_REG_NONE));
                WC_CO_EMIT(
                    w, wc_gen_mem(o, 0x48, WC_OP_STG, match, 8, WC_REG_NONE, 8, off + q * 8, 0));
            }
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x50));
        if (w->warp == 0) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_LDG, 1u, 9, WC_REG_NONE, 8, BT_OFF + q * 8, 0));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x60, WC_OP_STG, 1u, 9, WC_REG_NONE, 8, BT_CUR + q * 8, 0));
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x68, WC_OP_LDG, 1u, 10, WC_REG_NONE, 8, BT_OFF2 + q * 8, 0));
            WC_CO_EMIT(w,
                       wc_gen_mem(o, 0x70, WC_OP_STG, 1u, 10, WC_REG_NONE, 8, BT_LAST + q * 8, 0));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x78));
    }
    /* the leaf (v[0] = levels - 1): the start side, a barrier, the end side */
    for (w->v[1] = 0; w->v[1] < 2; w->v[1]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x80, WC_OP_LDG, all, 1, WC_REG_NONE, 8, cur + q * 8, 0));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x88, WC_OP_LDG, all, 3, 1, 4, node + 1032 + t0 * 4, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x90, WC_OP_LDG, all, 4, WC_REG_NONE, 4, key + q * 4, 0));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x98, all, 5, 3, 4));
        if (match) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0xa0, WC_OP_LDG, match, 8, 1, 4, node + 4 + t0 * 4, 4));
            if (w->v[1])
                WC_CO_EMIT(w, wc_gen_mem(o, 0xa8, WC_OP_LDG, match, 11, WC_REG_NONE, 4,
                                         BT_RSTART + q * 4, 0));
            WC_CO_EMIT(w, wc_gen_mem(o, 0xb0, WC_OP_STG, match, 8, WC_REG_NONE, 4,
                                     (w->v[1] ? BT_RLEN : BT_RSTART) + q * 4, 0));
        }
        if (!w->v[1]) WC_CO_EMIT(w, wc_gen_bar(o, 0xb8));
    }
    WC_CO_END(w);
}

static int bt_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    bt_ctx *c = ctx;
    bool range = c->nr && idx == 0; /* the command file's `j` runs before its `k` */
    if (idx > (c->nr ? 1u : 0u)) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, range ? "findRangeK" : "findK");
    out->k.block = (wc_dim3){256, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)(range ? c->nr : c->nq), 1, 1};
    out->k.regs_per_thread = 16;
    out->next = range ? bt_range_next : bt_next;
    return 1;
}

static wc_source *open_bptree(wc_params *p, uint64_t seed, wc_err *err)
{
    bt_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "b+tree: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "keys", 1000000, 1, 1u << 28, &c->nkeys, err) < 0 ||
        wc_params_u64(p, "queries", 10000, 1, 1u << 24, &c->nq, err) < 0 ||
        wc_params_u64(p, "ranges", 0, 0, 1u << 24, &c->nr, err) < 0 ||
        wc_params_u64(p, "rsize", 3000, 0, 1u << 28, &c->rsize, err) < 0 ||
        bt_build(c, seed, err) < 0) {
        bt_destroy(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = bt_kernel, .destroy = bt_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_bptree = {
    .name = "rodinia/b+tree",
    .suite = "rodinia",
    .kernels = "findRangeK (ranges > 0), findK",
    .size = "keys=1000000 queries=10000 (order 256)",
    .classes = "000:CLP 001:CF 002:friendly",
    .help =
        "Rodinia b+tree findK over a seeded bulk-loaded tree; keys, queries, ranges (findRangeK "
        "first: Rodinia's command file has 6000), rsize (3000)",
    .open = open_bptree,
};
WC_PLUGIN(workload, wc_wl_rodinia_bptree, 420);
