/*
 * vectoradd.c - the CUDA SDK vectorAdd sample, seed 002's "VAdd" (Table 2,
 * streaming).  Facts from the sample's public source.
 *
 * vectorAdd<<<ceil(n/256), 256>>>(A, B, C, n): i = blockDim.x*blockIdx.x +
 * threadIdx.x; if (i < n) C[i] = A[i] + B[i].  The sample's n is 50,000
 * floats.  Per warp: the index computation, the loads A[i] and B[i], the add
 * and the store C[i], each one coalesced 128-byte access; the last warp is
 * masked by the guard.  Arrays: 0 A, 1 B, 2 C.
 *
 * Approximated: none in the address stream; `iterations` (default 1, the
 * sample launches once) repeats the launch.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

typedef struct va_ctx {
    uint64_t n, block, iterations;
} va_ctx;

static int va_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const va_ctx *c = gk->arg;
    uint64_t i0 = w->block_id * c->block + (uint64_t)w->warp * WC_WARP_SIZE;
    uint32_t m = wc_gen_mask_below(i0, c->n) & w->live;
    switch (w->state++) {
    case 0: wc_gen_alu(o, 0x08, 0xffffffffu, 1, WC_REG_NONE, WC_REG_NONE); return 1;
    case 1:
        if (!m) return 0; /* the whole warp is past n: the guard skips the body */
        wc_gen_mem(o, 0x10, WC_OP_LDG, m, 2, 1, 4, WC_GEN_REGION(0) + i0 * 4, 4);
        return 1;
    case 2: wc_gen_mem(o, 0x18, WC_OP_LDG, m, 3, 1, 4, WC_GEN_REGION(1) + i0 * 4, 4); return 1;
    case 3: wc_gen_alu(o, 0x20, m, 2, 2, 3); return 1;
    case 4: wc_gen_mem(o, 0x28, WC_OP_STG, m, 2, 1, 4, WC_GEN_REGION(2) + i0 * 4, 4); return 1;
    default: return 0;
    }
}

static int va_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    va_ctx *c = ctx;
    if (idx >= c->iterations) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "vectorAdd");
    out->k.block = (wc_dim3){(uint32_t)c->block, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((c->n + c->block - 1) / c->block), 1, 1};
    out->k.regs_per_thread = 8;
    out->next = va_next;
    return 1;
}

static wc_source *open_vectoradd(wc_params *p, uint64_t seed, wc_err *err)
{
    va_ctx c;
    if (wc_params_u64(p, "n", 50000, 1, 1ull << 28, &c.n, err) < 0 ||
        wc_params_u64(p, "block", 256, 32, 1024, &c.block, err) < 0 ||
        wc_params_u64(p, "iterations", 1, 1, 1000, &c.iterations, err) < 0)
        return NULL;
    va_ctx *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "vectoradd: out of memory");
        return NULL;
    }
    *h = c;
    wc_gen_program prog = {.ctx = h, .kernel = va_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_sdk_vectoradd = {
    .name = "sdk/vectoradd",
    .suite = "sdk",
    .kernels = "vectorAdd",
    .size = "n=50000 block=256",
    .classes = "002:streaming",
    .help = "CUDA SDK vectorAdd (seed 002 VAdd): C[i] = A[i] + B[i]; n (elements), block, "
            "iterations (launches)",
    .open = open_vectoradd,
};
WC_PLUGIN(workload, wc_wl_sdk_vectoradd, 600);
