/*
 * scalarprod.c - the CUDA SDK scalarProd sample, seed 002's "Sprod" (Table 2,
 * streaming).  Facts from the sample's public source.
 *
 * scalarProdGPU<<<128, 256>>>(C, A, B, VECTOR_N = 256, ELEMENT_N = 4096) with
 * ACCUM_N = 1024 accumulators in shared memory.  Block b handles vectors
 * vec = b, b + 128, ...; for each vector (base = ELEMENT_N*vec) thread tx
 * fills accumulators iAccum = tx, tx + 256, ... < ACCUM_N, each summing
 * A[pos]*B[pos] for pos = base + iAccum, base + iAccum + ACCUM_N, ... <
 * base + ELEMENT_N (loads coalesced: a warp reads 32 consecutive floats),
 * then stores it to shared memory.  A tree reduction follows: for stride =
 * 512, 256, ..., 1: barrier, then iAccum = tx, tx + 256, ... < stride reads
 * two accumulators and writes one (warps wholly past the stride skip it).
 * A last barrier, then thread 0 stores C[vec].  Arrays: 0 A, 1 B, 2 C.
 *
 * Approximated: `iterations` (default 1) repeats the launch; the sample
 * times 1 launch after a warm-up.  ALU work is one FMA per product and one
 * add per reduction step.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define SP_ACCUM_N 1024u

typedef struct sp_ctx {
    uint64_t vectors, elements, grid, block, iterations;
} sp_ctx;

/* Lanes of warp w with threadIdx.x + j < bound, given j a multiple of the
 * block size (so only the thread index matters). */
static uint32_t sp_mask(const wc_gen_warp *w, uint64_t j, uint64_t bound)
{
    return wc_gen_mask_below((uint64_t)w->warp * WC_WARP_SIZE + j, bound) & w->live;
}

static int sp_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const sp_ctx *c = gk->arg;
    uint64_t t0 = (uint64_t)w->warp * WC_WARP_SIZE;
    /* v[0] vec, v[1] iAccum offset (multiple of block), v[2] pos offset
     * (multiple of ACCUM_N), v[3] stride */
    WC_CO_BEGIN(w);
    for (w->v[0] = (int64_t)w->bid.x; w->v[0] < (int64_t)c->vectors; w->v[0] += (int64_t)c->grid) {
        for (w->v[1] = 0; t0 + (uint64_t)w->v[1] < SP_ACCUM_N; w->v[1] += (int64_t)c->block) {
            for (w->v[2] = 0; t0 + (uint64_t)(w->v[1] + w->v[2]) < c->elements;
                 w->v[2] += SP_ACCUM_N) {
                WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG,
                                         sp_mask(w, (uint64_t)(w->v[1] + w->v[2]), c->elements), 2,
                                         1, 4,
                                         WC_GEN_REGION(0) + (c->elements * (uint64_t)w->v[0] + t0 +
                                                             (uint64_t)(w->v[1] + w->v[2])) *
                                                                4,
                                         4));
                WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG,
                                         sp_mask(w, (uint64_t)(w->v[1] + w->v[2]), c->elements), 3,
                                         1, 4,
                                         WC_GEN_REGION(1) + (c->elements * (uint64_t)w->v[0] + t0 +
                                                             (uint64_t)(w->v[1] + w->v[2])) *
                                                                4,
                                         4));
                WC_CO_EMIT(w, wc_gen_alu(o, 0x20, 0xffffffffu, 4, 2, 3));
            }
            WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STS, sp_mask(w, (uint64_t)w->v[1], SP_ACCUM_N),
                                     4, WC_REG_NONE, 4, (t0 + (uint64_t)w->v[1]) * 4, 4));
        }
        for (w->v[3] = SP_ACCUM_N / 2; w->v[3] > 0; w->v[3] >>= 1) {
            WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
            for (w->v[1] = 0; t0 + (uint64_t)w->v[1] < (uint64_t)w->v[3];
                 w->v[1] += (int64_t)c->block) {
                WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDS,
                                         sp_mask(w, (uint64_t)w->v[1], (uint64_t)w->v[3]), 5,
                                         WC_REG_NONE, 4, (t0 + (uint64_t)w->v[1]) * 4, 4));
                WC_CO_EMIT(w,
                           wc_gen_mem(o, 0x40, WC_OP_LDS,
                                      sp_mask(w, (uint64_t)w->v[1], (uint64_t)w->v[3]), 6,
                                      WC_REG_NONE, 4, (t0 + (uint64_t)(w->v[1] + w->v[3])) * 4, 4));
                WC_CO_EMIT(w, wc_gen_alu(o, 0x48, sp_mask(w, (uint64_t)w->v[1], (uint64_t)w->v[3]),
                                         5, 5, 6));
                WC_CO_EMIT(w, wc_gen_mem(o, 0x50, WC_OP_STS,
                                         sp_mask(w, (uint64_t)w->v[1], (uint64_t)w->v[3]), 5,
                                         WC_REG_NONE, 4, (t0 + (uint64_t)w->v[1]) * 4, 4));
            }
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x58));
        if (w->warp == 0) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x60, WC_OP_LDS, 1u, 5, WC_REG_NONE, 4, 0, 4));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x68, WC_OP_STG, 1u, 5, 1, 4,
                                     WC_GEN_REGION(2) + (uint64_t)w->v[0] * 4, 4));
        }
    }
    WC_CO_END(w);
}

static int sp_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    sp_ctx *c = ctx;
    if (idx >= c->iterations) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "scalarProdGPU");
    out->k.block = (wc_dim3){(uint32_t)c->block, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)c->grid, 1, 1};
    out->k.shmem_bytes = SP_ACCUM_N * 4;
    out->k.regs_per_thread = 12;
    out->next = sp_next;
    return 1;
}

static wc_source *open_scalarprod(wc_params *p, uint64_t seed, wc_err *err)
{
    sp_ctx c;
    if (wc_params_u64(p, "vectors", 256, 1, 1u << 20, &c.vectors, err) < 0 ||
        wc_params_u64(p, "elements", 4096, 1, 1u << 24, &c.elements, err) < 0 ||
        wc_params_u64(p, "grid", 128, 1, 65535, &c.grid, err) < 0 ||
        wc_params_u64(p, "block", 256, 32, 1024, &c.block, err) < 0 ||
        wc_params_u64(p, "iterations", 1, 1, 1000, &c.iterations, err) < 0)
        return NULL;
    /* A and B must each fit their 4 GiB address region */
    if (c.vectors * c.elements > (1ull << 30)) {
        wc_errf(err, "workload %s: vectors * elements must be at most 2^30", p->workload);
        return NULL;
    }
    sp_ctx *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "scalarprod: out of memory");
        return NULL;
    }
    *h = c;
    wc_gen_program prog = {.ctx = h, .kernel = sp_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_sdk_scalarprod = {
    .name = "sdk/scalarprod",
    .suite = "sdk",
    .kernels = "scalarProdGPU",
    .size = "vectors=256 elements=4096 grid=128 block=256",
    .classes = "002:streaming",
    .help = "CUDA SDK scalarProd (seed 002 Sprod): dot products of vector pairs with 1024 "
            "shared-memory accumulators; vectors, elements, grid, block, iterations",
    .open = open_scalarprod,
};
WC_PLUGIN(workload, wc_wl_sdk_scalarprod, 590);
