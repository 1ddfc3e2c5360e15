/*
 * matrixmul.c - the CUDA SDK tiled matrix multiply (matrixMul sample,
 * matrixMulCUDA<block_size>), seed 001's "MM": C = A * B with square tiles
 * staged through shared memory.  Facts from the sample's public source.
 *
 * Geometry (defaults = the sample's defaults for compute capability >= 2.0):
 * block_size 32, A is ha x wa = 320 x 320, B is wa x wb = 320 x 640, C is
 * ha x wb; grid (wb/bs, ha/bs), block (bs, bs).  Each thread (tx, ty) of block
 * (bx, by) walks wa/bs tiles; tile s loads A[aBegin + s*bs + wa*ty + tx] and
 * B[bBegin + s*bs*wb + wb*ty + tx] (aBegin = wa*bs*by, bBegin = bs*bx) into
 * shared memory, synchronises, accumulates bs products from shared memory
 * (2 LDS + 1 FMA each) and synchronises again; at the end it stores
 * C[wb*bs*by + bs*bx + wb*ty + tx].  Row-major floats.
 * Arrays: 0 A, 1 B, 2 C.
 *
 * l1=1 is the variant with the shared-memory staging removed (tiles read
 * through the L1; see mm_l1_next).
 *
 * Approximated: the sample times `iterations` (300) identical launches after
 * a warm-up; the default here is 1 (each launch repeats the same stream).
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

typedef struct mm_ctx {
    uint64_t bs, wa, ha, wb, iterations;
    bool l1; /* l1=1: the tiles are read from global memory (through the L1) */
} mm_ctx;

/* Lane addresses of element (row0 + ty, col0 + tx) of a row-major matrix of
 * width `width`, for the 32 threads of warp w (threads w*32 .. w*32+31 of a
 * bs x bs block, tx fastest). */
static void mm_list(wc_winst *o, uint64_t pc, wc_opclass op, unsigned reg, const mm_ctx *c,
                    const wc_gen_warp *w, uint64_t base, uint64_t first, uint64_t width)
{
    wc_gen_mem_list(o, pc, op, 0xffffffffu, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t t = (uint64_t)w->warp * WC_WARP_SIZE + l, tx = t % c->bs, ty = t / c->bs;
        o->addr[l] = base + (first + width * ty + tx) * 4;
    }
}

static int mm_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const mm_ctx *c = gk->arg;
    uint64_t tiles = c->wa / c->bs, bx = w->bid.x, by = w->bid.y;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 1, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < (int64_t)tiles; w->v[0]++) {
        WC_CO_EMIT(w, mm_list(o, 0x10, WC_OP_LDG, 2, c, w, WC_GEN_REGION(0),
                              c->wa * c->bs * by + c->bs * (uint64_t)w->v[0], c->wa));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STS, 0xffffffffu, 2, WC_REG_NONE, 4, 0, 4));
        WC_CO_EMIT(w, mm_list(o, 0x20, WC_OP_LDG, 3, c, w, WC_GEN_REGION(1),
                              c->bs * bx + c->bs * c->wb * (uint64_t)w->v[0], c->wb));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STS, 0xffffffffu, 3, WC_REG_NONE, 4, 4096, 4));
        WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
        for (w->v[1] = 0; w->v[1] < (int64_t)c->bs; w->v[1]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDS, 0xffffffffu, 4, WC_REG_NONE, 4, 0, 0));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_LDS, 0xffffffffu, 5, WC_REG_NONE, 4, 4096, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x48, 0xffffffffu, 1, 4, 5));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x50));
    }
    WC_CO_EMIT(w, mm_list(o, 0x58, WC_OP_STG, 1, c, w, WC_GEN_REGION(2),
                          c->wb * c->bs * by + c->bs * bx, c->wb));
    WC_CO_END(w);
}

/* A[first + wa*ty] for every lane: the address does not depend on tx. */
static void mm_row(wc_winst *o, const mm_ctx *c, const wc_gen_warp *w, uint64_t first)
{
    wc_gen_mem_list(o, 0x10, WC_OP_LDG, 0xffffffffu, 2, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t ty = ((uint64_t)w->warp * WC_WARP_SIZE + l) / c->bs;
        o->addr[l] = WC_GEN_REGION(0) + (first + c->wa * ty) * 4;
    }
}

/* l1=1: the same tiled loop with the shared-memory staging removed, as
 * in the L1-cache versions of tiled kernels (seed 001's "tiled cache" may be
 * this): per tile and k < bs, A[aBegin + s*bs + wa*ty + k] (one address per
 * row of the tile: a broadcast within a warp row) and
 * B[bBegin + s*bs*wb + wb*k + tx], no barriers. */
static int mm_l1_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const mm_ctx *c = gk->arg;
    uint64_t tiles = c->wa / c->bs, bx = w->bid.x, by = w->bid.y;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 1, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < (int64_t)tiles; w->v[0]++)
        for (w->v[1] = 0; w->v[1] < (int64_t)c->bs; w->v[1]++) {
            WC_CO_EMIT(w,
                       mm_row(o, c, w,
                              c->wa * c->bs * by + c->bs * (uint64_t)w->v[0] + (uint64_t)w->v[1]));
            WC_CO_EMIT(w, mm_list(o, 0x20, WC_OP_LDG, 3, c, w, WC_GEN_REGION(1),
                                  c->bs * bx + c->bs * c->wb * (uint64_t)w->v[0] +
                                      c->wb * (uint64_t)w->v[1],
                                  0));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x48, 0xffffffffu, 1, 2, 3));
        }
    WC_CO_EMIT(w, mm_list(o, 0x58, WC_OP_STG, 1, c, w, WC_GEN_REGION(2),
                          c->wb * c->bs * by + c->bs * bx, c->wb));
    WC_CO_END(w);
}

static int mm_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    mm_ctx *c = ctx;
    if (idx >= c->iterations) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "matrixMulCUDA");
    out->k.block = (wc_dim3){(uint32_t)c->bs, (uint32_t)c->bs, 1};
    out->k.grid = (wc_dim3){(uint32_t)(c->wb / c->bs), (uint32_t)(c->ha / c->bs), 1};
    out->k.shmem_bytes = c->l1 ? 0 : (uint32_t)(2 * c->bs * c->bs * 4);
    out->k.regs_per_thread = 20;
    out->next = c->l1 ? mm_l1_next : mm_next;
    return 1;
}

static wc_source *open_matrixmul(wc_params *p, uint64_t seed, wc_err *err)
{
    mm_ctx c;
    if (wc_params_u64(p, "block", 32, 16, 32, &c.bs, err) < 0 ||
        wc_params_u64(p, "wa", 320, 16, 1u << 14, &c.wa, err) < 0 ||
        wc_params_u64(p, "ha", 320, 16, 1u << 14, &c.ha, err) < 0 ||
        wc_params_u64(p, "wb", 640, 16, 1u << 14, &c.wb, err) < 0 ||
        wc_params_u64(p, "iterations", 1, 1, 1000, &c.iterations, err) < 0)
        return NULL;
    uint64_t l1;
    if (wc_params_u64(p, "l1", 0, 0, 1, &l1, err) < 0) return NULL;
    c.l1 = l1 == 1;
    /* The sample instantiates block sizes 16 and 32 only, and its kernel has
     * no bounds guards: every dimension must be a multiple of the block. */
    if (c.bs != 16 && c.bs != 32) {
        wc_errf(err, "workload %s: parameter block must be 16 or 32", p->workload);
        return NULL;
    }
    if (c.wa % c.bs || c.ha % c.bs || c.wb % c.bs) {
        wc_errf(err, "workload %s: parameters wa, ha and wb must be multiples of block (%llu)",
                p->workload, (unsigned long long)c.bs);
        return NULL;
    }
    mm_ctx *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "matrixmul: out of memory");
        return NULL;
    }
    *h = c;
    wc_gen_program prog = {.ctx = h, .kernel = mm_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_sdk_matrixmul = {
    .name = "sdk/matrixmul",
    .suite = "sdk",
    .kernels = "matrixMulCUDA x iterations",
    .size = "block=32 wa=320 ha=320 wb=640 iterations=1",
    .classes = "001:CF 002:conflict",
    .help = "CUDA SDK tiled matrix multiply (seed 001 MM); block (16|32), wa, ha, wb "
            "(A is ha x wa, B is wa x wb), iterations (launches), l1 (1: tiles through the L1, "
            "no shared memory)",
    .open = open_matrixmul,
};
WC_PLUGIN(workload, wc_wl_sdk_matrixmul, 560);
