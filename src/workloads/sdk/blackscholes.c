/*
 * blackscholes.c - the CUDA SDK BlackScholes sample, seed 002's "BLK"
 * (Table 2, streaming).  Facts from the sample's public source, in the
 * form it had in the CUDA 4.x SDK that GPGPU-Sim 3.x (the seed's simulator)
 * runs.
 *
 * BlackScholesGPU<<<480, 128>>>(Call, Put, S, X, T, R, V, optN) with
 * optN = 4,000,000 options: a grid-stride loop, opt = tid; opt < optN;
 * opt += 480*128, loads S[opt], X[opt], T[opt] (coalesced floats), evaluates
 * the Black-Scholes formula (sqrt, log, exp and two polynomial cumulative
 * normal distributions) and stores Call[opt] and Put[opt].  Each thread runs
 * 65 or 66 iterations; every element is touched once, so the stream has no
 * reuse.  Arrays: 0 Call, 1 Put, 2 S, 3 X, 4 T.
 *
 * Approximated: the formula is 6 SFU and 40 ALU instructions per option
 * (a count of the source's operations, not the compiled code); the sample
 * times NUM_ITERATIONS = 512 identical launches, the default here is 1
 * (`iterations`).  The later SDK's float2 version (two options per thread,
 * one launch of optN/2 threads) is not generated.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define BS_SFU 6
#define BS_ALU 40

typedef struct bs_ctx {
    uint64_t options, grid, block, iterations;
} bs_ctx;

static void bs_sfu(wc_winst *o, uint64_t pc)
{
    wc_gen_alu(o, pc, 0xffffffffu, 5, 5, WC_REG_NONE);
    o->op = WC_OP_SFU;
}

static int bs_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const bs_ctx *c = gk->arg;
    uint64_t first = w->block_id * c->block + (uint64_t)w->warp * WC_WARP_SIZE;
    uint64_t step = c->grid * c->block;
    uint32_t live = w->live;
    /* v[0] option of lane 0, v[1] formula counter */
    WC_CO_BEGIN(w);
    for (w->v[0] = (int64_t)first; (uint64_t)w->v[0] < c->options; w->v[0] += (int64_t)step) {
        for (w->v[2] = 0; w->v[2] < 3; w->v[2]++) /* S, X, T */
            WC_CO_EMIT(w, wc_gen_mem(o, 0x10 + 8 * (uint64_t)w->v[2], WC_OP_LDG,
                                     wc_gen_mask_below((uint64_t)w->v[0], c->options) & live,
                                     2 + (unsigned)w->v[2], 1, 4,
                                     WC_GEN_REGION(2 + w->v[2]) + (uint64_t)w->v[0] * 4, 4));
        for (w->v[1] = 0; w->v[1] < BS_SFU + BS_ALU; w->v[1]++) {
            if (w->v[1] % 8 == 0 && w->v[1] / 8 < BS_SFU)
                WC_CO_EMIT(w, bs_sfu(o, 0x30));
            else
                WC_CO_EMIT(w, wc_gen_alu(o, 0x38, 0xffffffffu, 5, 2 + (unsigned)(w->v[1] % 3), 5));
        }
        for (w->v[2] = 0; w->v[2] < 2; w->v[2]++) /* Call, Put */
            WC_CO_EMIT(w, wc_gen_mem(o, 0x40 + 8 * (uint64_t)w->v[2], WC_OP_STG,
                                     wc_gen_mask_below((uint64_t)w->v[0], c->options) & live, 5, 1,
                                     4, WC_GEN_REGION(w->v[2]) + (uint64_t)w->v[0] * 4, 4));
    }
    WC_CO_END(w);
}

static int bs_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    bs_ctx *c = ctx;
    if (idx >= c->iterations) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "BlackScholesGPU");
    out->k.block = (wc_dim3){(uint32_t)c->block, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)c->grid, 1, 1};
    out->k.regs_per_thread = 16;
    out->next = bs_next;
    return 1;
}

static wc_source *open_blackscholes(wc_params *p, uint64_t seed, wc_err *err)
{
    bs_ctx c;
    if (wc_params_u64(p, "options", 4000000, 1, 1ull << 30, &c.options, err) < 0 ||
        wc_params_u64(p, "grid", 480, 1, 65535, &c.grid, err) < 0 ||
        wc_params_u64(p, "block", 128, 32, 1024, &c.block, err) < 0 ||
        wc_params_u64(p, "iterations", 1, 1, 1000, &c.iterations, err) < 0)
        return NULL;
    bs_ctx *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "blackscholes: out of memory");
        return NULL;
    }
    *h = c;
    wc_gen_program prog = {.ctx = h, .kernel = bs_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_sdk_blackscholes = {
    .name = "sdk/blackscholes",
    .suite = "sdk",
    .kernels = "BlackScholesGPU x iterations",
    .size = "options=4000000 grid=480 block=128 iterations=1",
    .classes = "002:streaming",
    .help = "CUDA SDK BlackScholes (seed 002 BLK), grid-stride loop over options; options, grid, "
            "block, iterations (launches)",
    .open = open_blackscholes,
};
WC_PLUGIN(workload, wc_wl_sdk_blackscholes, 580);
