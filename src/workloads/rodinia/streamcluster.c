/*
 * streamcluster.c - Rodinia streamcluster's GPU kernel (pgain's
 * kernel_compute_cost) as an address generator over seeded points.  Facts
 * from ../shared/specs/workloads.md (Rodinia, streamcluster).
 *
 * Default: dim 256, 65536 points, blocks of 512 (128 blocks).  Per thread
 * tid < num: for i < dim load coord[i*num + tid] and coord[i*num + x] (the
 * candidate point, a broadcast); load p[tid].weight and p[tid].cost (Point is
 * 32 B: weight @0, coord* @8, assign @16 (long), cost @24); if x_cost < cost:
 * store switch_membership[tid] and read-modify-write work_mem[tid*(K+1)+K];
 * else load p[tid].assign, gather center_table[assign], read-modify-write
 * work_mem[tid*(K+1) + center_table[assign]].
 *
 * Approximation (documented): the host's local search, which decides how
 * many times pgain runs and with which candidates, is not simulated; instead
 * `calls` launches (default 8) each use a seeded random candidate x, over
 * seeded points (uniform in [0,1)^dim, weight 1) assigned to the nearest of
 * K seeded centres (cost = distance).  The branch of every thread is really
 * computed (x_cost < cost) from those coordinates.
 * Arrays: 0 coord (dim x num, SoA), 1 points, 2 center_table, 3
 * switch_membership (bool), 4 work_mem.
 */
#include <stdio.h>
#include <stdlib.h>

#include "util/rng.h"
#include "workloads/gen.h"

#define SC_COORD  WC_GEN_REGION(0)
#define SC_POINTS WC_GEN_REGION(1)
#define SC_CTAB   WC_GEN_REGION(2)
#define SC_SWITCH WC_GEN_REGION(3)
#define SC_WORK   WC_GEN_REGION(4)

typedef struct sc_ctx {
    uint64_t n, dim, k, calls, seed;
    float *coord; /* dim x n */
    uint32_t *assign, *ctab;
    float *cost;
    uint8_t *sw; /* this launch's branch per point */
    uint64_t x;  /* this launch's candidate */
    uint64_t rng;
} sc_ctx;

static void sc_destroy(void *ctx)
{
    sc_ctx *c = ctx;
    free(c->coord);
    free(c->assign);
    free(c->ctab);
    free(c->cost);
    free(c->sw);
    free(c);
}

static float sc_dist(const sc_ctx *c, uint64_t a, uint64_t b)
{
    float d = 0;
    for (uint64_t i = 0; i < c->dim; i++) {
        float t = c->coord[i * c->n + a] - c->coord[i * c->n + b];
        d += t * t;
    }
    return d;
}

static int sc_build(sc_ctx *c, wc_err *err)
{
    c->coord = malloc(c->n * c->dim * sizeof *c->coord);
    c->assign = calloc(c->n, sizeof *c->assign);
    c->ctab = calloc(c->n, sizeof *c->ctab);
    c->cost = calloc(c->n, sizeof *c->cost);
    c->sw = calloc(c->n, 1);
    uint64_t *centre = calloc(c->k, sizeof *centre);
    if (!c->coord || !c->assign || !c->ctab || !c->cost || !c->sw || !centre) {
        free(centre);
        return wc_errf(err, "streamcluster: out of memory");
    }
    c->rng = wc_rng_seed(c->seed ^ 0x7363ull);
    for (uint64_t i = 0; i < c->n * c->dim; i++) c->coord[i] = (float)wc_rng_unit(&c->rng);
    for (uint64_t j = 0; j < c->k; j++) {
        centre[j] = wc_rng_below(&c->rng, c->n);
        c->ctab[centre[j]] = (uint32_t)j;
    }
    for (uint64_t p = 0; p < c->n; p++) {
        float best = 0;
        for (uint64_t j = 0; j < c->k; j++) {
            float d = sc_dist(c, p, centre[j]);
            if (j == 0 || d < best) {
                best = d;
                c->assign[p] = (uint32_t)centre[j];
            }
        }
        c->cost[p] = best;
    }
    free(centre);
    return 0;
}

static uint32_t sc_switch_mask(const sc_ctx *c, uint64_t tid0, uint32_t live)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1u) && c->sw[tid0 + l]) m |= 1u << l;
    return m;
}

/* which: 0 center_table[assign], 1 work_mem[tid*(K+1) + center_table[assign]] */
static void sc_gather(const sc_ctx *c, wc_winst *o, uint64_t pc, wc_opclass op, uint32_t m,
                      unsigned reg, uint64_t tid0, int which)
{
    wc_gen_mem_list(o, pc, op, m, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        if (!(m >> l & 1u)) continue;
        uint64_t a = c->assign[tid0 + l];
        o->addr[l] =
            which == 0 ? SC_CTAB + a * 4 : SC_WORK + ((tid0 + l) * (c->k + 1) + c->ctab[a]) * 4;
    }
}

static int sc_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const sc_ctx *c = gk->arg;
    uint64_t tid0 = w->block_id * 512 + w->warp * 32;
    uint32_t live = wc_gen_mask_below(tid0, c->n);
    uint32_t sw = live ? sc_switch_mask(c, tid0, live) : 0, other = live & ~sw;
    uint64_t stride_k = (c->k + 1) * 4;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!live) break;
    for (w->v[0] = 0; w->v[0] < (int64_t)c->dim; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, live, 1, 2, 4,
                                 SC_COORD + ((uint64_t)w->v[0] * c->n + tid0) * 4, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, live, 3, 4, 4,
                                 SC_COORD + ((uint64_t)w->v[0] * c->n + c->x) * 4, 0));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, live, 1, 1, 3));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x28, live, 5, 1, 5));
    }
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_LDG, live, 6, 2, 4, SC_POINTS + tid0 * 32, 32));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x38, live, 5, 5, 6));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_LDG, live, 7, 2, 4, SC_POINTS + tid0 * 32 + 24, 32));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x48, live, WC_REG_NONE, 5, 7));
    if (sw) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x50, WC_OP_STG, sw, WC_REG_NONE, 2, 1, SC_SWITCH + tid0, 1));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_LDG, sw, 8, 2, 4,
                                 SC_WORK + (tid0 * (c->k + 1) + c->k) * 4, (int64_t)stride_k));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x60, sw, 8, 8, 5));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x68, WC_OP_STG, sw, 8, 2, 4,
                                 SC_WORK + (tid0 * (c->k + 1) + c->k) * 4, (int64_t)stride_k));
    }
    if (other) {
        WC_CO_EMIT(w,
                   wc_gen_mem(o, 0x70, WC_OP_LDG, other, 9, 2, 8, SC_POINTS + tid0 * 32 + 16, 32));
        WC_CO_EMIT(w, sc_gather(c, o, 0x78, WC_OP_LDG, other, 10, tid0, 0));
        WC_CO_EMIT(w, sc_gather(c, o, 0x80, WC_OP_LDG, other, 11, tid0, 1));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x88, other, 11, 11, 5));
        WC_CO_EMIT(w, sc_gather(c, o, 0x90, WC_OP_STG, other, 11, tid0, 1));
    }
    WC_CO_END(w);
}

static int sc_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    sc_ctx *c = ctx;
    if (idx >= c->calls) return 0;
    c->x = wc_rng_below(&c->rng, c->n);
    for (uint64_t p = 0; p < c->n; p++) c->sw[p] = sc_dist(c, p, c->x) < c->cost[p];
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "kernel_compute_cost");
    out->k.block = (wc_dim3){512, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((c->n + 511) / 512), 1, 1};
    out->k.regs_per_thread = 20;
    out->next = sc_next;
    return 1;
}

static wc_source *open_streamcluster(wc_params *p, uint64_t seed, wc_err *err)
{
    sc_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "streamcluster: out of memory");
        return NULL;
    }
    c->seed = seed;
    if (wc_params_u64(p, "n", 65536, 1, 1u << 22, &c->n, err) < 0 ||
        wc_params_u64(p, "dim", 256, 1, 1024, &c->dim, err) < 0 ||
        wc_params_u64(p, "centers", 10, 1, 1000, &c->k, err) < 0 ||
        wc_params_u64(p, "calls", 8, 1, 100000, &c->calls, err) < 0 || sc_build(c, err) < 0) {
        sc_destroy(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = sc_kernel, .destroy = sc_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_streamcluster = {
    .name = "rodinia/streamcluster",
    .suite = "rodinia",
    .kernels = "kernel_compute_cost x calls",
    .size = "n=65536 dim=256 centers=10 calls=8",
    .classes = "000:CLP 002:conflict",
    .help = "Rodinia streamcluster pgain kernel over seeded points; n, dim, centers, calls",
    .open = open_streamcluster,
};
WC_PLUGIN(workload, wc_wl_rodinia_streamcluster, 400);
