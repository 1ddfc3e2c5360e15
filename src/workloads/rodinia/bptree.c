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
 * (findRangeK, the command file's other query, is not generated.)
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
#define BT_NODE   2068u
#define BT_MAXLV  12

typedef struct bt_ctx {
    uint64_t nkeys, nq, levels;
    uint32_t *path; /* nq x levels: knode at each level */
    uint16_t *pos;  /* nq x levels: matching thread at each level */
    uint32_t *qkey; /* query keys (= record numbers) */
} bt_ctx;

static void bt_destroy(void *ctx)
{
    bt_ctx *c = ctx;
    free(c->path);
    free(c->pos);
    free(c->qkey);
    free(c);
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
    c->path = malloc(c->nq * nl * sizeof *c->path);
    c->pos = malloc(c->nq * nl * sizeof *c->pos);
    c->qkey = malloc(c->nq * sizeof *c->qkey);
    if (!c->path || !c->pos || !c->qkey) {
        for (unsigned i = 0; i < nl; i++) free(start[i]);
        return wc_errf(err, "b+tree: out of memory");
    }
    for (uint64_t q = 0; q < c->nq; q++) {
        uint64_t key = wc_rng_below(&r, c->nkeys);
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

static int bt_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    bt_ctx *c = ctx;
    if (idx > 0) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "findK");
    out->k.block = (wc_dim3){256, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)c->nq, 1, 1};
    out->k.regs_per_thread = 16;
    out->next = bt_next;
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
    .kernels = "findK",
    .size = "keys=1000000 queries=10000 (order 256)",
    .classes = "000:CLP 001:CF 002:friendly",
    .help = "Rodinia b+tree findK over a seeded bulk-loaded tree; keys, queries",
    .open = open_bptree,
};
WC_PLUGIN(workload, wc_wl_rodinia_bptree, 420);
