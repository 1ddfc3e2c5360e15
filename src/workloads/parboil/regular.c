/*
 * regular.c - Parboil's data-independent kernels as address generators:
 * stencil, sgemm, lbm, cutcp.  Facts from ../shared/specs/workloads.md
 * (Parboil) and the base CUDA versions' index expressions.
 *
 * stencil (default 512 x 512 x 64, 100 iterations), naive kernel: block
 * (nx-1) threads, grid (ny-2, nz-2); i = tx, j = bx+1, k = by+1; threads with
 * i > 0 load A0 at (i,j,k+1), (i,j,k-1), (i,j+1,k), (i,j-1,k), (i+1,j,k),
 * (i-1,j,k), (i,j,k) (Index3D = i + nx*(j + ny*k)) and store Anext(i,j,k);
 * A0 and Anext swap every iteration.  Arrays: 0 and 1 (ping-pong).
 *
 * sgemm (medium: m=1024, n=1056, k=992), mysgemmNT<<<(m/128, n/16), (16,8)>>>:
 * mid = 16*ty + tx, m = 128*bx + mid, n = 16*by + tx; per k-step of 8: load
 * B[n + (i+ty)*ldb] into shared memory, barrier, for j < 8 load
 * A[m + (i+j)*lda] and 16 multiply-adds (4 shared loads), barrier; then
 * C[t + i*ldc] read-modify-write for i < 16 (t = ldc*16*by + m); lda = ldc = m,
 * ldb = n.  Arrays: 0 A, 1 B, 2 C.
 *
 * lbm (120 x 120 x 150, 100 steps): performStreamCollide<<<(120,150), 120>>>,
 * x = tx, y = bx, z = by; grids are 20 values per cell (19 distributions and
 * a flag) in structure-of-arrays over a padded 128 x 120 x 154 box (2 margin
 * layers in z): CALC_INDEX(x,y,z,e) = e*128*120*154 + x + 128*(y + 120*(z+2)).
 * Each thread loads its 19 values and the flag, ~60 ALU operations, and
 * stores each distribution to the neighbour cell it streams to.  Source and
 * destination swap every step.  Arrays: 0 and 1 (ping-pong).
 *
 * cutcp: lattice L^3 points (default 64, 0.5 A spacing), atom bins of 4 A
 * holding 8 atoms x 4 floats (128 B), padded by 3 bins (the 12 A cutoff) on
 * every side; cuda_cutoff_potential_lattice<<<(L/8)^3, (8,2,8)>>>: a block
 * covers 8x8x8 lattice points (each thread 4), and for every neighbour bin
 * offset within the cutoff the first warp loads the bin (32 floats,
 * coalesced), barrier, every thread evaluates 8 atoms from shared memory,
 * barrier; finally each thread stores its 4 points.  Arrays: 0 bins,
 * 1 lattice.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

/* ---- stencil ------------------------------------------------------------- */

typedef struct st_ctx {
    uint64_t nx, ny, nz, iterations, iter;
} st_ctx;

static int st_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    static const int8_t d[7][3] = {{0, 0, 1}, {0, 0, -1}, {0, 1, 0}, {0, -1, 0},
                                   {1, 0, 0}, {-1, 0, 0}, {0, 0, 0}};
    const st_ctx *c = gk->arg;
    uint64_t i0 = w->warp * 32, j = w->bid.x + 1, k = w->bid.y + 1;
    uint32_t m = wc_gen_mask_below(i0, c->nx - 1) & (i0 == 0 ? ~1u : ~0u);
    uint64_t src = WC_GEN_REGION(c->iter % 2), dst = WC_GEN_REGION(1 - c->iter % 2);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    for (w->v[0] = 0; w->v[0] < 7; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 3 + (unsigned)w->v[0], 2, 4,
                                 src + ((i0 + (uint64_t)(int64_t)d[w->v[0]][0]) +
                                        c->nx * ((j + (uint64_t)(int64_t)d[w->v[0]][1]) +
                                                 c->ny * (k + (uint64_t)(int64_t)d[w->v[0]][2]))) *
                                           4,
                                 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x18, m, 10, 3 + (unsigned)w->v[0], 10));
    }
    WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STG, m, 10, 2, 4,
                             dst + (i0 + c->nx * (j + c->ny * k)) * 4, 4));
    WC_CO_END(w);
}

static int st_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    st_ctx *c = ctx;
    if (idx >= c->iterations) return 0;
    c->iter = idx;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "naive_kernel");
    out->k.block = (wc_dim3){(uint32_t)(c->nx - 1), 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)(c->ny - 2), (uint32_t)(c->nz - 2), 1};
    out->k.regs_per_thread = 16;
    out->next = st_next;
    return 1;
}

static wc_source *open_stencil(wc_params *p, uint64_t seed, wc_err *err)
{
    st_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "stencil: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "nx", 512, 3, 1025, &c->nx, err) < 0 ||
        wc_params_u64(p, "ny", 512, 3, 1u << 16, &c->ny, err) < 0 ||
        wc_params_u64(p, "nz", 64, 3, 1u << 16, &c->nz, err) < 0 ||
        wc_params_u64(p, "iterations", 100, 1, 100000, &c->iterations, err) < 0) {
        free(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = st_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_parboil_stencil = {
    .name = "parboil/stencil",
    .suite = "parboil",
    .kernels = "naive_kernel x iterations",
    .size = "nx=512 ny=512 nz=64 iterations=100",
    .classes = "000:CLP",
    .help = "Parboil stencil (naive 7-point); nx (<= 1025), ny, nz, iterations",
    .open = open_stencil,
};
WC_PLUGIN(workload, wc_wl_parboil_stencil, 480);

/* ---- sgemm ---------------------------------------------------------------- */

typedef struct sg_ctx {
    uint64_t m, n, k;
} sg_ctx;

static int sg_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const sg_ctx *c = gk->arg;
    const uint32_t all = 0xffffffffu;
    uint64_t m0 = w->bid.x * 128 + w->warp * 32, n0 = w->bid.y * 16;
    uint64_t t = c->m * 16 * w->bid.y + m0;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < (int64_t)c->k; w->v[0] += 8) {
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x10, WC_OP_LDG, all, 3, 2, 4);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
                uint64_t tx = l % 16, ty = 2 * w->warp + l / 16;
                o->addr[l] = WC_GEN_REGION(1) + (n0 + tx + ((uint64_t)w->v[0] + ty) * c->n) * 4;
            }
        });
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, all, 3, WC_REG_NONE, 4, 0, 4));
        WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
        for (w->v[1] = 0; w->v[1] < 8; w->v[1]++) {
            WC_CO_EMIT(
                w, wc_gen_mem(o, 0x28, WC_OP_LDG, all, 4, 2, 4,
                              WC_GEN_REGION(0) + (m0 + ((uint64_t)(w->v[0] + w->v[1])) * c->m) * 4,
                              4));
            for (w->v[2] = 0; w->v[2] < 16; w->v[2]++) {
                if (w->v[2] % 4 == 0)
                    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_LDS, all, 5, WC_REG_NONE, 16,
                                             (uint64_t)(w->v[1] * 64 + w->v[2] * 4), 0));
                WC_CO_EMIT(w, wc_gen_alu(o, 0x38, all, 6 + (unsigned)w->v[2], 4, 5));
            }
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x40));
    }
    for (w->v[0] = 0; w->v[0] < 16; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x48, WC_OP_LDG, all, 22, 2, 4,
                                 WC_GEN_REGION(2) + (t + (uint64_t)w->v[0] * c->m) * 4, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x50, all, 22, 22, 6 + (unsigned)w->v[0]));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_STG, all, 22, 2, 4,
                                 WC_GEN_REGION(2) + (t + (uint64_t)w->v[0] * c->m) * 4, 4));
    }
    WC_CO_END(w);
}

static wc_source *open_sgemm(wc_params *p, uint64_t seed, wc_err *err)
{
    sg_ctx a;
    if (wc_params_u64(p, "m", 1024, 128, 1u << 16, &a.m, err) < 0 ||
        wc_params_u64(p, "n", 1056, 16, 1u << 16, &a.n, err) < 0 ||
        wc_params_u64(p, "k", 992, 8, 1u << 16, &a.k, err) < 0)
        return NULL;
    if (a.m % 128 || a.n % 16 || a.k % 8) {
        wc_errf(err, "workload parboil/sgemm: parameters m, n, k must be multiples of 128, 16, 8");
        return NULL;
    }
    wc_gen_kernel gk = {0};
    snprintf(gk.k.name, sizeof gk.k.name, "mysgemmNT");
    gk.k.block = (wc_dim3){16, 8, 1};
    gk.k.grid = (wc_dim3){(uint32_t)(a.m / 128), (uint32_t)(a.n / 16), 1};
    gk.k.shmem_bytes = 8 * 16 * 4;
    gk.k.regs_per_thread = 32;
    gk.next = sg_next;
    return wc_gen_single(&gk, &a, sizeof a, err);
}

const wc_workload wc_wl_parboil_sgemm = {
    .name = "parboil/sgemm",
    .suite = "parboil",
    .kernels = "mysgemmNT",
    .size = "m=1024 n=1056 k=992 (medium)",
    .classes = "",
    .help = "Parboil sgemm (A column-major, B transposed); m (x128), n (x16), k (x8)",
    .open = open_sgemm,
};
WC_PLUGIN(workload, wc_wl_parboil_sgemm, 510);

/* ---- lbm ------------------------------------------------------------------- */

#define LBM_PX 128u
#define LBM_PY 120u
#define LBM_PZ 154u

typedef struct lbm_ctx {
    uint64_t sx, sy, sz, steps, step;
} lbm_ctx;

static const int8_t lbm_dir[19][3] = {{0, 0, 0},   {0, 1, 0},  {0, -1, 0}, {1, 0, 0},  {-1, 0, 0},
                                      {0, 0, 1},   {0, 0, -1}, {1, 1, 0},  {-1, 1, 0}, {1, -1, 0},
                                      {-1, -1, 0}, {0, 1, 1},  {0, 1, -1}, {0, -1, 1}, {0, -1, -1},
                                      {1, 0, 1},   {1, 0, -1}, {-1, 0, 1}, {-1, 0, -1}};

static inline uint64_t lbm_index(int64_t x, int64_t y, int64_t z, uint64_t e)
{
    return e * LBM_PX * LBM_PY * LBM_PZ +
           (uint64_t)(x + (int64_t)LBM_PX * (y + (int64_t)LBM_PY * (z + 2)));
}

static int lbm_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const lbm_ctx *c = gk->arg;
    int64_t x0 = w->warp * 32, y = w->bid.x, z = w->bid.y;
    uint32_t m = wc_gen_mask_below((uint64_t)x0, c->sx);
    uint64_t src = WC_GEN_REGION(c->step % 2), dst = WC_GEN_REGION(1 - c->step % 2);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    for (w->v[0] = 0; w->v[0] < 20; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 3 + (unsigned)(w->v[0] % 8), 2, 4,
                                 src + lbm_index(x0, y, z, (uint64_t)w->v[0]) * 4, 4));
    for (w->v[0] = 0; w->v[0] < 60; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_alu(o, 0x18, m, 11 + (unsigned)(w->v[0] % 4),
                                 3 + (unsigned)(w->v[0] % 8), 11 + (unsigned)((w->v[0] + 1) % 4)));
    for (w->v[0] = 0; w->v[0] < 19; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STG, m, 11 + (unsigned)(w->v[0] % 4), 2, 4,
                                 dst + lbm_index(x0 + lbm_dir[w->v[0]][0], y + lbm_dir[w->v[0]][1],
                                                 z + lbm_dir[w->v[0]][2], (uint64_t)w->v[0]) *
                                           4,
                                 4));
    WC_CO_END(w);
}

static int lbm_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    lbm_ctx *c = ctx;
    if (idx >= c->steps) return 0;
    c->step = idx;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "performStreamCollide_kernel");
    out->k.block = (wc_dim3){(uint32_t)c->sx, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)c->sy, (uint32_t)c->sz, 1};
    out->k.regs_per_thread = 40;
    out->next = lbm_next;
    return 1;
}

static wc_source *open_lbm(wc_params *p, uint64_t seed, wc_err *err)
{
    lbm_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "lbm: out of memory");
        return NULL;
    }
    /* the padded box is fixed (128 x 120 x 154); smaller runs use fewer cells */
    if (wc_params_u64(p, "x", 120, 1, 120, &c->sx, err) < 0 ||
        wc_params_u64(p, "y", 120, 1, 120, &c->sy, err) < 0 ||
        wc_params_u64(p, "z", 150, 1, 150, &c->sz, err) < 0 ||
        wc_params_u64(p, "steps", 100, 1, 100000, &c->steps, err) < 0) {
        free(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = lbm_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_parboil_lbm = {
    .name = "parboil/lbm",
    .suite = "parboil",
    .kernels = "performStreamCollide_kernel x steps",
    .size = "120x120x150 (padded 128x120x154) steps=100",
    .classes = "",
    .help = "Parboil lbm (SoA, 20 values per cell); x, y, z (cells, at most 120/120/150), steps",
    .open = open_lbm,
};
WC_PLUGIN(workload, wc_wl_parboil_lbm, 520);

/* ---- cutcp ------------------------------------------------------------------ */

#define CC_PAD 3u

typedef struct cc_ctx {
    uint64_t lattice, bins; /* bins per side including padding */
    int8_t nbr[343][3];
    uint32_t nnbr;
} cc_ctx;

static int cc_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const cc_ctx *c = gk->arg;
    const uint32_t all = 0xffffffffu;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, all, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < c->nnbr; w->v[0]++) {
        if (w->warp == 0)
            WC_CO_EMIT(w, {
                const int8_t *d = c->nbr[w->v[0]];
                uint64_t bx = w->bid.x + CC_PAD + (uint64_t)(int64_t)d[0];
                uint64_t by = w->bid.y + CC_PAD + (uint64_t)(int64_t)d[1];
                uint64_t bz = w->bid.z + CC_PAD + (uint64_t)(int64_t)d[2];
                uint64_t bin = (bz * c->bins + by) * c->bins + bx;
                wc_gen_mem(o, 0x10, WC_OP_LDG, all, 3, 2, 4, WC_GEN_REGION(0) + bin * 128, 4);
            });
        if (w->warp == 0)
            WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, all, 3, WC_REG_NONE, 4, 0, 4));
        WC_CO_EMIT(w, wc_gen_bar(o, 0x20));
        for (w->v[1] = 0; w->v[1] < 8; w->v[1]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_LDS, all, 4, WC_REG_NONE, 16,
                                     (uint64_t)w->v[1] * 16, 0));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x30, all, 5, 4, WC_REG_NONE));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x38, all, 5, 5, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x40, all, 6, 5, 6));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x48, all, 7, 5, 7));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x50));
    }
    for (w->v[0] = 0; w->v[0] < 4; w->v[0]++)
        WC_CO_EMIT(w, {
            /* thread (tx, ty, tz) of (8,2,8) writes y = 8*by + ty*4 + v */
            wc_gen_mem_list(o, 0x58, WC_OP_STG, all, 6, 2, 4);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
                uint64_t t = w->warp * 32u + l, tx = t % 8, ty = t / 8 % 2, tz = t / 16;
                uint64_t x = w->bid.x * 8 + tx, y = w->bid.y * 8 + ty * 4 + (uint64_t)w->v[0];
                uint64_t z = w->bid.z * 8 + tz;
                o->addr[l] = WC_GEN_REGION(1) + ((z * c->lattice + y) * c->lattice + x) * 4;
            }
        });
    WC_CO_END(w);
}

static wc_source *open_cutcp(wc_params *p, uint64_t seed, wc_err *err)
{
    cc_ctx a = {0};
    if (wc_params_u64(p, "lattice", 64, 8, 1024, &a.lattice, err) < 0) return NULL;
    if (a.lattice % 8) {
        wc_errf(err, "workload parboil/cutcp: parameter lattice must be a multiple of 8");
        return NULL;
    }
    a.bins = a.lattice / 8 + 2 * CC_PAD;
    /* bins whose closest point to the block's bin is within 3 bin lengths */
    for (int dz = -3; dz <= 3; dz++)
        for (int dy = -3; dy <= 3; dy++)
            for (int dx = -3; dx <= 3; dx++) {
                int ax = dx ? abs(dx) - 1 : 0, ay = dy ? abs(dy) - 1 : 0, az = dz ? abs(dz) - 1 : 0;
                if (ax * ax + ay * ay + az * az > 9) continue;
                a.nbr[a.nnbr][0] = (int8_t)dx;
                a.nbr[a.nnbr][1] = (int8_t)dy;
                a.nbr[a.nnbr][2] = (int8_t)dz;
                a.nnbr++;
            }
    wc_gen_kernel gk = {0};
    snprintf(gk.k.name, sizeof gk.k.name, "cuda_cutoff_potential_lattice");
    gk.k.block = (wc_dim3){8, 2, 8};
    uint32_t g = (uint32_t)(a.lattice / 8);
    gk.k.grid = (wc_dim3){g, g, g};
    gk.k.shmem_bytes = 128;
    gk.k.regs_per_thread = 24;
    gk.next = cc_next;
    return wc_gen_single(&gk, &a, sizeof a, err);
}

const wc_workload wc_wl_parboil_cutcp = {
    .name = "parboil/cutcp",
    .suite = "parboil",
    .kernels = "cuda_cutoff_potential_lattice",
    .size = "lattice=64 (0.5 A spacing, 12 A cutoff, 8-atom bins)",
    .classes = "",
    .help = "Parboil cutcp; lattice (points per side, multiple of 8)",
    .open = open_cutcp,
};
WC_PLUGIN(workload, wc_wl_parboil_cutcp, 530);
