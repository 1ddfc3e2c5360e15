/*
 * sssp.c - LonestarGPU-style worklist single-source shortest paths as an
 * address generator that really relaxes a seeded graph.  Facts from
 * ../shared/specs/workloads.md (Lonestar, sssp).
 *
 * Graph: R-MAT (a, b, c, d = 0.57, 0.19, 0.19, 0.05), 2^scale nodes (default
 * scale 18), 8 directed edges per node on average, weights 1..100, CSR by
 * source.  RNG draws, in order: r = wc_rng_seed(seed ^ 0x73737370); per edge:
 * `scale` quadrant draws (wc_rng_unit) then weight 1 + below(r, 100).  Edges
 * keep draw order within a source.  Skewed degrees, random destinations.
 *
 * One sssp_kernel<<<ceil(wl/256), 256>>> per round, until the worklist is
 * empty (source 0, dist[0] = 0).  Thread t < wl: load wl_in[t] = u,
 * row_start[u], row_start[u+1], dist[u]; for each edge k (the warp loops to
 * its largest degree): load col[e], weight[e], dist[v] (gather); if
 * dist[u] + w < dist[v]: atomicMin(dist[v]) (WC_OP_ATOM, gather), atomicAdd
 * on the worklist tail (one address), store wl_out[slot] = v.
 * Round semantics (documented): the round is evaluated as if its threads ran
 * in thread order, each seeing earlier threads' updates (one legal
 * interleaving of the asynchronous original); pushes get consecutive slots
 * in that order.
 * Arrays: 0 row_start, 1 col, 2 weight, 3 dist, 4/5 worklists (swap per
 * round), 6 tail.
 */
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"
#include "workloads/gen.h"

#define SS_ROW  WC_GEN_REGION(0)
#define SS_COL  WC_GEN_REGION(1)
#define SS_W    WC_GEN_REGION(2)
#define SS_DIST WC_GEN_REGION(3)
#define SS_TAIL WC_GEN_REGION(6)
#define SS_INF  UINT32_MAX

typedef struct ss_ctx {
    uint64_t n, m;
    uint32_t *row, *col, *wt, *dist;
    uint32_t *wl, *next; /* this round's worklist and the next */
    uint64_t wl_n, next_n, cap;
    uint64_t *eoff; /* per wl item: offset of its first edge slot in push[] */
    int32_t *push;  /* per (item, edge): worklist slot or -1 */
    uint32_t round;
    bool finished;
} ss_ctx;

static void ss_destroy(void *ctx)
{
    ss_ctx *c = ctx;
    free(c->row);
    free(c->col);
    free(c->wt);
    free(c->dist);
    free(c->wl);
    free(c->next);
    free(c->eoff);
    free(c->push);
    free(c);
}

static int ss_build(ss_ctx *c, uint64_t scale, uint64_t seed, wc_err *err)
{
    uint64_t r = wc_rng_seed(seed ^ 0x73737370ull);
    uint32_t *src = malloc(c->m * sizeof *src), *dst = malloc(c->m * sizeof *dst);
    uint32_t *w = malloc(c->m * sizeof *w);
    c->row = calloc(c->n + 1, sizeof *c->row);
    c->col = malloc(c->m * sizeof *c->col);
    c->wt = malloc(c->m * sizeof *c->wt);
    c->dist = malloc(c->n * sizeof *c->dist);
    c->cap = c->m + 1;
    c->wl = malloc(c->cap * sizeof *c->wl);
    c->next = malloc(c->cap * sizeof *c->next);
    c->eoff = malloc((c->cap + 1) * sizeof *c->eoff);
    if (!src || !dst || !w || !c->row || !c->col || !c->wt || !c->dist || !c->wl || !c->next ||
        !c->eoff) {
        free(src), free(dst), free(w);
        return wc_errf(err, "sssp: out of memory");
    }
    for (uint64_t e = 0; e < c->m; e++) {
        uint64_t u = 0, v = 0;
        for (uint64_t b = 0; b < scale; b++) {
            double p = wc_rng_unit(&r);
            unsigned qu = p >= 0.76, qv = (p >= 0.57 && p < 0.76) || p >= 0.95;
            u = 2 * u + qu;
            v = 2 * v + qv;
        }
        src[e] = (uint32_t)u;
        dst[e] = (uint32_t)v;
        w[e] = 1 + (uint32_t)wc_rng_below(&r, 100);
        c->row[u + 1]++;
    }
    for (uint64_t i = 0; i < c->n; i++) c->row[i + 1] += c->row[i];
    uint32_t *fill = calloc(c->n, sizeof *fill);
    if (!fill) {
        free(src), free(dst), free(w);
        return wc_errf(err, "sssp: out of memory");
    }
    for (uint64_t e = 0; e < c->m; e++) {
        uint64_t at = c->row[src[e]] + fill[src[e]]++;
        c->col[at] = dst[e];
        c->wt[at] = w[e];
    }
    free(fill), free(src), free(dst), free(w);
    for (uint64_t i = 0; i < c->n; i++) c->dist[i] = SS_INF;
    c->dist[0] = 0;
    c->wl[0] = 0;
    c->wl_n = 1;
    return 0;
}

/* Evaluates the current round (see the header) and fills push[] / next[]. */
static int ss_round(ss_ctx *c)
{
    uint64_t slots = 0;
    for (uint64_t t = 0; t < c->wl_n; t++) {
        c->eoff[t] = slots;
        slots += c->row[c->wl[t] + 1] - c->row[c->wl[t]];
    }
    c->eoff[c->wl_n] = slots;
    free(c->push);
    c->push = malloc((slots ? slots : 1) * sizeof *c->push);
    if (!c->push) return -1;
    c->next_n = 0;
    for (uint64_t t = 0; t < c->wl_n; t++) {
        uint32_t u = c->wl[t], du = c->dist[u];
        for (uint32_t e = c->row[u], k = 0; e < c->row[u + 1]; e++, k++) {
            uint32_t v = c->col[e], nd = du + c->wt[e];
            int32_t pos = -1;
            if (nd < c->dist[v]) {
                c->dist[v] = nd;
                if (c->next_n < c->cap) {
                    pos = (int32_t)c->next_n;
                    c->next[c->next_n++] = v;
                }
            }
            c->push[c->eoff[t] + k] = pos;
        }
    }
    return 0;
}

static inline uint32_t ss_deg(const ss_ctx *c, uint64_t t)
{
    return c->row[c->wl[t] + 1] - c->row[c->wl[t]];
}

/* Lanes with edge k; *push = those that push. */
static uint32_t ss_lanes(const ss_ctx *c, uint64_t t0, uint32_t live, int64_t k, uint32_t *push)
{
    uint32_t m = 0, p = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1u) && ss_deg(c, t0 + l) > k) {
            m |= 1u << l;
            if (c->push[c->eoff[t0 + l] + (uint64_t)k] >= 0) p |= 1u << l;
        }
    if (push) *push = p;
    return m;
}

/* which: 0 row[u], 1 row[u+1], 2 dist[u], 3 col[e], 4 w[e], 5 dist[v],
 * 6 wl_out[slot] */
static void ss_list(const ss_ctx *c, wc_winst *o, uint64_t pc, wc_opclass op, uint32_t m,
                    unsigned reg, uint64_t t0, int64_t k, int which)
{
    wc_gen_mem_list(o, pc, op, m, reg, 2, 4);
    uint64_t out = WC_GEN_REGION(5 - c->round % 2);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        if (!(m >> l & 1u)) continue;
        uint32_t u = c->wl[t0 + l];
        uint64_t e = c->row[u] + (uint64_t)k, a;
        switch (which) {
        case 0: a = SS_ROW + u * 4ull; break;
        case 1: a = SS_ROW + (u + 1ull) * 4; break;
        case 2: a = SS_DIST + u * 4ull; break;
        case 3: a = SS_COL + e * 4; break;
        case 4: a = SS_W + e * 4; break;
        case 5: a = SS_DIST + c->col[e] * 4ull; break;
        default: a = out + (uint64_t)c->push[c->eoff[t0 + l] + (uint64_t)k] * 4; break;
        }
        o->addr[l] = a;
    }
}

static int ss_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const ss_ctx *c = gk->arg;
    uint64_t t0 = w->block_id * 256 + w->warp * 32;
    uint32_t live = wc_gen_mask_below(t0, c->wl_n), em, pm;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!live) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, live, 3, 2, 4,
                             WC_GEN_REGION(4 + c->round % 2) + t0 * 4, 4));
    WC_CO_EMIT(w, ss_list(c, o, 0x18, WC_OP_LDG, live, 4, t0, 0, 0));
    WC_CO_EMIT(w, ss_list(c, o, 0x20, WC_OP_LDG, live, 5, t0, 0, 1));
    WC_CO_EMIT(w, ss_list(c, o, 0x28, WC_OP_LDG, live, 6, t0, 0, 2));
    w->v[1] = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1u) && ss_deg(c, t0 + l) > w->v[1]) w->v[1] = ss_deg(c, t0 + l);
    for (w->v[0] = 0; w->v[0] < w->v[1]; w->v[0]++) {
        em = ss_lanes(c, t0, live, w->v[0], NULL);
        WC_CO_EMIT(w, ss_list(c, o, 0x30, WC_OP_LDG, em, 7, t0, w->v[0], 3));
        em = ss_lanes(c, t0, live, w->v[0], NULL);
        WC_CO_EMIT(w, ss_list(c, o, 0x38, WC_OP_LDG, em, 8, t0, w->v[0], 4));
        em = ss_lanes(c, t0, live, w->v[0], NULL);
        WC_CO_EMIT(w, wc_gen_alu(o, 0x40, em, 9, 6, 8));
        em = ss_lanes(c, t0, live, w->v[0], NULL);
        WC_CO_EMIT(w, ss_list(c, o, 0x48, WC_OP_LDG, em, 10, t0, w->v[0], 5));
        em = ss_lanes(c, t0, live, w->v[0], NULL);
        WC_CO_EMIT(w, wc_gen_alu(o, 0x50, em, WC_REG_NONE, 9, 10));
        ss_lanes(c, t0, live, w->v[0], &pm);
        if (!pm) continue;
        WC_CO_EMIT(w, ss_list(c, o, 0x58, WC_OP_ATOM, pm, 9, t0, w->v[0], 5));
        ss_lanes(c, t0, live, w->v[0], &pm);
        WC_CO_EMIT(w, wc_gen_mem(o, 0x60, WC_OP_ATOM, pm, 11, WC_REG_NONE, 4, SS_TAIL, 0));
        ss_lanes(c, t0, live, w->v[0], &pm);
        WC_CO_EMIT(w, ss_list(c, o, 0x68, WC_OP_STG, pm, 7, t0, w->v[0], 6));
    }
    WC_CO_END(w);
}

static int ss_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    ss_ctx *c = ctx;
    if (c->finished) return 0;
    if (idx > 0) { /* the previous round's pushes become this round's worklist */
        uint32_t *t = c->wl;
        c->wl = c->next;
        c->next = t;
        c->wl_n = c->next_n;
    }
    if (c->wl_n == 0) {
        c->finished = true;
        return 0;
    }
    c->round = idx;
    if (ss_round(c) < 0) return wc_errf(err, "sssp: out of memory");
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "sssp_kernel");
    out->k.block = (wc_dim3){256, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((c->wl_n + 255) / 256), 1, 1};
    out->k.regs_per_thread = 24;
    out->next = ss_next;
    return 1;
}

static wc_source *open_sssp(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t scale, deg;
    ss_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "sssp: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "scale", 18, 4, 24, &scale, err) < 0 ||
        wc_params_u64(p, "degree", 8, 1, 64, &deg, err) < 0) {
        free(c);
        return NULL;
    }
    c->n = 1ull << scale;
    c->m = c->n * deg;
    if (ss_build(c, scale, seed, err) < 0) {
        ss_destroy(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = ss_kernel, .destroy = ss_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_lonestar_sssp = {
    .name = "lonestar/sssp",
    .suite = "lonestar",
    .kernels = "sssp_kernel per worklist round",
    .size = "scale=18 (262144 nodes) degree=8 (R-MAT, weights 1..100)",
    .classes = "001:CNF",
    .help = "Lonestar-style worklist sssp over a seeded R-MAT graph; scale, degree",
    .open = open_sssp,
};
WC_PLUGIN(workload, wc_wl_lonestar_sssp, 540);
