/*
 * hotspot3d.c - Rodinia's hotspot3D, our reading of seed 002's "3DS",
 * "3D Stencil [3]" (Table 2, conflict): the seed cites Rodinia for it, and
 * hotspot3D is Rodinia's 3-D stencil.  Facts from Rodinia's public CUDA
 * source (3D.cu, opt1.cu), default command line `3D 512 8 100
 * power_512x8 temp_512x8`.
 *
 * hotspotOpt1<<<(nx/64, ny/4), (64, 4)>>>(p, tIn, tOut, ...) per iteration,
 * tIn and tOut swapped between launches.  Thread (i, j) walks the nz layers
 * of its column, c = i + j*nx + k*nx*ny, with W/E/N/S = c -+ 1, c -+ nx
 * clamped to c at the x/y faces:
 *   layer 0:        loads tIn[c], tIn[c+xy], tIn[W], tIn[E], tIn[S], tIn[N],
 *                   p[c]; stores tOut[c]
 *   layers 1..nz-2: loads tIn[c+xy], tIn[W], tIn[E], tIn[S], tIn[N], p[c];
 *                   stores tOut[c]
 *   layer nz-1:     loads tIn[W], tIn[E], tIn[S], tIn[N], p[c]; stores tOut[c]
 * (the layer below and the centre come from registers).  A warp is 32
 * consecutive x of one row; the layers of a column are nx*ny*4 = 1 MiB
 * apart, so one warp's 8 layers fall on few L1 sets: the conflict pattern.
 * Arrays: 0 power, 1 and 2 the temperature buffers (1 is tIn first).
 *
 * Approximated: the default is **2 iterations** (the original runs 100;
 * every iteration repeats the same stream with the buffers swapped); ALU
 * work is 9 multiply-adds per point.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define H3_BX 64
#define H3_BY 4

typedef struct h3_ctx {
    uint64_t nx, ny, nz, iterations;
    unsigned in, out; /* buffers of the current launch */
} h3_ctx;

/* Neighbour d (0 W, 1 E, 2 S, 3 N, 4 centre, 5 above) of lane l in layer k. */
static uint64_t h3_elem(const h3_ctx *c, const wc_gen_warp *w, unsigned l, int64_t k, int d)
{
    uint64_t t = (uint64_t)w->warp * WC_WARP_SIZE + l;
    uint64_t i = w->bid.x * H3_BX + t % H3_BX, j = w->bid.y * H3_BY + t / H3_BX;
    uint64_t e = i + j * c->nx + (uint64_t)k * c->nx * c->ny;
    switch (d) {
    case 0: return i == 0 ? e : e - 1;
    case 1: return i == c->nx - 1 ? e : e + 1;
    case 2: return j == c->ny - 1 ? e : e + c->nx;
    case 3: return j == 0 ? e : e - c->nx;
    case 5: return e + c->nx * c->ny;
    default: return e;
    }
}

static void h3_mem(wc_winst *o, uint64_t pc, wc_opclass op, const h3_ctx *c, const wc_gen_warp *w,
                   unsigned array, int64_t k, int d)
{
    wc_gen_mem_list(o, pc, op, 0xffffffffu, 2 + (unsigned)d, 1, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        o->addr[l] = WC_GEN_REGION(array) + h3_elem(c, w, l, k, d) * 4;
}

/* Loads of layer k in source order: the centre (layer 0 only), the layer
 * above (all but the last), W, E, S, N; then p[c]. */
static int h3_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const h3_ctx *c = gk->arg;
    /* v[0] layer k, v[1] neighbour, v[2] ALU counter */
    WC_CO_BEGIN(w);
    for (w->v[0] = 0; w->v[0] < (int64_t)c->nz; w->v[0]++) {
        if (w->v[0] == 0) WC_CO_EMIT(w, h3_mem(o, 0x10, WC_OP_LDG, c, w, c->in, 0, 4));
        if (w->v[0] < (int64_t)c->nz - 1)
            WC_CO_EMIT(w, h3_mem(o, 0x18, WC_OP_LDG, c, w, c->in, w->v[0], 5));
        for (w->v[1] = 0; w->v[1] < 4; w->v[1]++)
            WC_CO_EMIT(w, h3_mem(o, 0x20, WC_OP_LDG, c, w, c->in, w->v[0], (int)w->v[1]));
        WC_CO_EMIT(w, h3_mem(o, 0x28, WC_OP_LDG, c, w, 0, w->v[0], 4));
        for (w->v[2] = 0; w->v[2] < 9; w->v[2]++)
            WC_CO_EMIT(w, wc_gen_alu(o, 0x30, 0xffffffffu, 8, 2 + (unsigned)(w->v[2] % 6), 8));
        WC_CO_EMIT(w, h3_mem(o, 0x38, WC_OP_STG, c, w, c->out, w->v[0], 4));
    }
    WC_CO_END(w);
}

static int h3_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    h3_ctx *c = ctx;
    if (idx >= c->iterations) return 0;
    c->in = idx % 2 ? 2 : 1; /* the host swaps tIn and tOut after each launch */
    c->out = idx % 2 ? 1 : 2;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "hotspotOpt1");
    out->k.block = (wc_dim3){H3_BX, H3_BY, 1};
    out->k.grid = (wc_dim3){(uint32_t)(c->nx / H3_BX), (uint32_t)(c->ny / H3_BY), 1};
    out->k.regs_per_thread = 24;
    out->next = h3_next;
    return 1;
}

static wc_source *open_hotspot3d(wc_params *p, uint64_t seed, wc_err *err)
{
    h3_ctx c = {0};
    if (wc_params_u64(p, "cols", 512, H3_BX, 1u << 14, &c.nx, err) < 0 ||
        wc_params_u64(p, "rows", 512, H3_BY, 1u << 14, &c.ny, err) < 0 ||
        wc_params_u64(p, "layers", 8, 2, 1024, &c.nz, err) < 0 ||
        wc_params_u64(p, "iterations", 2, 1, 10000, &c.iterations, err) < 0)
        return NULL;
    /* the original's grid is nx/64 x ny/4 with no guards */
    if (c.nx % H3_BX || c.ny % H3_BY || c.nx * c.ny * c.nz > (1ull << 30)) {
        wc_errf(err,
                "workload %s: cols must be a multiple of 64, rows of 4, and cols*rows*layers "
                "at most 2^30",
                p->workload);
        return NULL;
    }
    h3_ctx *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "hotspot3d: out of memory");
        return NULL;
    }
    *h = c;
    wc_gen_program prog = {.ctx = h, .kernel = h3_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_hotspot3d = {
    .name = "rodinia/hotspot3d",
    .suite = "rodinia",
    .kernels = "hotspotOpt1 x iterations",
    .size = "cols=512 rows=512 layers=8 iterations=2",
    .classes = "002:conflict",
    .help = "Rodinia hotspot3D (our reading of seed 002's 3DS): 7-point 3-D stencil, each thread "
            "walking its column's layers; cols, rows, layers, iterations",
    .open = open_hotspot3d,
};
WC_PLUGIN(workload, wc_wl_rodinia_hotspot3d, 660);
