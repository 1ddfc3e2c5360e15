/*
 * mcpi.c - the CUDA SDK Monte Carlo estimation of pi with an inline
 * pseudo-random generator (MC_EstimatePiInlineP), seed 002's "PEst",
 * "MCARLO Pi Estimator [32]" (Table 2, cache-friendly).  Facts from the
 * sample's public source and CURAND's public device header.
 *
 * Why this variant: the SDK has four pi estimators; the P and Q ones draw
 * their points with CURAND's host library, whose kernels GPGPU-Sim 3.x (the
 * seed's simulator) needs as PTX, which the library does not ship as far as
 * we know, and their computeValue
 * reads each point once (a pure stream, not cache-friendly).  The inline
 * variants generate the numbers in the kernels; in InlineP the cache-
 * friendly part is curand_init, which every thread runs on the same
 * precomputed skip-ahead matrices in global memory.  The choice is ours.
 *
 * grid = ceil(sims/128), halved while above 2*10*SMs (GTX480: 15 SMs, so
 * 100,000 simulations run on 195 blocks of 128 threads).
 *   initRNG<<<grid, 128>>>(states, seed): curand_init(seed, tid, 0,
 *     &states[tid]) seeds an XORWOW state and skips ahead tid subsequences:
 *     for every base-4 digit p of tid (least significant first), digit
 *     times, the 160-bit state is multiplied by the precomputed matrix p
 *     (precalc_xorwow_matrix[p], 800 words): for every state bit that is
 *     set, the 5 words of that bit's matrix row are loaded (the same
 *     address in every lane that has the bit set).  The 48-byte state is
 *     then stored to states[tid] (12 words; lanes 48 B apart).
 *   computeValue<<<grid, 128, 128*4>>>(results, states, sims): loads the
 *     state (12 words), draws two uniforms per simulation i = tid, tid +
 *     grid*128, ... < sims (registers only), reduces the count in shared
 *     memory (barrier, then halving strides) and thread 0 stores
 *     results[blockIdx.x].
 * Arrays: 0 precalc matrices (8 x 800 words in the CUDA 4.x header, which
 * covers thread ids below 2^16), 1 states, 2 results.
 *
 * Assumed: the matrices are in global memory (a __device__ array, too large
 * for the constant bank in later headers); if they were __constant__ these
 * loads would bypass the L1.
 *
 * Approximated: which state bits are set is a hash of (thread, matrix,
 * step, bit), about half of them, instead of the real XORWOW state; the
 * local-memory temporaries of the matrix product are not modelled; ALU
 * counts are estimates (8 per XORWOW draw).
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define PI_WORDS  12  /* sizeof(curandStateXORWOW) / 4 */
#define PI_ROW    5   /* words per matrix row */
#define PI_BITS   160 /* state bits */
#define PI_MATRIX (PI_BITS * PI_ROW)

typedef struct pi_ctx {
    uint64_t sims, block, sms, grid, seed;
} pi_ctx;

/* Is bit `bit` of the state of thread `tid` set before step `step` of
 * matrix p?  A fixed mix of the four, so runs are reproducible. */
static bool pi_bit(const pi_ctx *c, uint64_t tid, uint64_t p, uint64_t step, uint64_t bit)
{
    uint64_t x = c->seed ^ (tid * 0x9e3779b97f4a7c15ull) ^ (p << 56) ^ (step << 48) ^ (bit << 32);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    x *= 0x94d049bb133111ebull;
    return (x >> 63) & 1;
}

/* The highest base-4 digit position any lane of the warp has, + 1. */
static int64_t pi_positions(uint64_t tid_last)
{
    int64_t n = 0;
    for (uint64_t t = tid_last; t; t >>= 2) n++;
    return n;
}

/* Lanes of warp w whose digit p of tid exceeds `step`. */
static uint32_t pi_in_step(const wc_gen_warp *w, uint64_t tid0, int64_t p, int64_t step)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((w->live >> l & 1) && (int64_t)(((tid0 + l) >> (2 * p)) & 3) > step) m |= 1u << l;
    return m;
}

static uint32_t pi_row_mask(const pi_ctx *c, uint32_t in, uint64_t tid0, int64_t p, int64_t step,
                            int64_t bit)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((in >> l & 1) && pi_bit(c, tid0 + l, (uint64_t)p, (uint64_t)step, (uint64_t)bit))
            m |= 1u << l;
    return m;
}

static int pi_init_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pi_ctx *c = gk->arg;
    uint64_t tid0 = w->block_id * c->block + (uint64_t)w->warp * WC_WARP_SIZE;
    uint64_t last = tid0 + (uint64_t)(31 - __builtin_clz(w->live));
    /* v[0] digit position p, v[1] step, v[2] state bit, v[3] row word,
     * v[4] lanes taking part in this step, v[5] lanes with the bit set */
    WC_CO_BEGIN(w);
    for (w->v[0] = 0; w->v[0] < 20; w->v[0]++) /* xorwow seeding: ALU */
        WC_CO_EMIT(w, wc_gen_alu(o, 0x08, w->live, 2 + (unsigned)(w->v[0] % 5), 1, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < pi_positions(last); w->v[0]++)
        for (w->v[1] = 0; w->v[1] < 3; w->v[1]++) {
            w->v[4] = pi_in_step(w, tid0, w->v[0], w->v[1]);
            if (!w->v[4]) break;
            for (w->v[2] = 0; w->v[2] < PI_BITS; w->v[2]++) {
                w->v[5] = pi_row_mask(c, (uint32_t)w->v[4], tid0, w->v[0], w->v[1], w->v[2]);
                if (!w->v[5]) continue;
                for (w->v[3] = 0; w->v[3] < PI_ROW; w->v[3]++)
                    WC_CO_EMIT(
                        w, wc_gen_mem(o, 0x10, WC_OP_LDG, (uint32_t)w->v[5], 8, 9, 4,
                                      WC_GEN_REGION(0) + ((uint64_t)w->v[0] * PI_MATRIX +
                                                          (uint64_t)(w->v[2] * PI_ROW + w->v[3])) *
                                                             4,
                                      0));
                WC_CO_EMIT(w, wc_gen_alu(o, 0x18, (uint32_t)w->v[5], 2, 2, 8));
            }
        }
    for (w->v[3] = 0; w->v[3] < PI_WORDS; w->v[3]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STG, w->live, 2, 9, 4,
                                 WC_GEN_REGION(1) + (tid0 * PI_WORDS + (uint64_t)w->v[3]) * 4,
                                 PI_WORDS * 4));
    WC_CO_END(w);
}

static int pi_value_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pi_ctx *c = gk->arg;
    uint64_t tid0 = w->block_id * c->block + (uint64_t)w->warp * WC_WARP_SIZE;
    uint64_t t0 = (uint64_t)w->warp * WC_WARP_SIZE, step = c->grid * c->block;
    /* v[0] word / simulation / stride, v[1] ALU counter */
    WC_CO_BEGIN(w);
    for (w->v[0] = 0; w->v[0] < PI_WORDS; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, w->live, 2 + (unsigned)(w->v[0] % 6), 9, 4,
                                 WC_GEN_REGION(1) + (tid0 * PI_WORDS + (uint64_t)w->v[0]) * 4,
                                 PI_WORDS * 4));
    for (w->v[0] = (int64_t)tid0; (uint64_t)w->v[0] < c->sims; w->v[0] += (int64_t)step)
        for (w->v[1] = 0; w->v[1] < 2 * 8 + 4; w->v[1]++) /* 2 draws, x*x + y*y < 1 */
            WC_CO_EMIT(w,
                       wc_gen_alu(o, 0x18, wc_gen_mask_below((uint64_t)w->v[0], c->sims) & w->live,
                                  2 + (unsigned)(w->v[1] % 6), 2 + (unsigned)((w->v[1] + 1) % 6),
                                  WC_REG_NONE));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STS, w->live, 1, WC_REG_NONE, 4, t0 * 4, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x28));
    for (w->v[0] = (int64_t)(c->block / 2); w->v[0] > 0; w->v[0] >>= 1) {
        if (t0 < (uint64_t)w->v[0]) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_LDS, wc_gen_mask_below(t0, (uint64_t)w->v[0]),
                                     1, WC_REG_NONE, 4, t0 * 4, 4));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDS, wc_gen_mask_below(t0, (uint64_t)w->v[0]),
                                     2, WC_REG_NONE, 4, (t0 + (uint64_t)w->v[0]) * 4, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x40, wc_gen_mask_below(t0, (uint64_t)w->v[0]), 1, 1, 2));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x48, WC_OP_STS, wc_gen_mask_below(t0, (uint64_t)w->v[0]),
                                     1, WC_REG_NONE, 4, t0 * 4, 4));
        }
        WC_CO_EMIT(w, wc_gen_bar(o, 0x50));
    }
    if (w->warp == 0)
        WC_CO_EMIT(
            w, wc_gen_mem(o, 0x58, WC_OP_STG, 1u, 1, 9, 4, WC_GEN_REGION(2) + w->block_id * 4, 0));
    WC_CO_END(w);
}

static int pi_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    const pi_ctx *c = ctx;
    if (idx > 1) return 0;
    out->arg = c;
    out->k.block = (wc_dim3){(uint32_t)c->block, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)c->grid, 1, 1};
    out->k.regs_per_thread = 20;
    snprintf(out->k.name, sizeof out->k.name, idx == 0 ? "initRNG" : "computeValue");
    out->k.shmem_bytes = idx == 0 ? 0 : (uint32_t)(c->block * 4);
    out->next = idx == 0 ? pi_init_next : pi_value_next;
    return 1;
}

static wc_source *open_mcpi(wc_params *p, uint64_t seed, wc_err *err)
{
    pi_ctx c;
    if (wc_params_u64(p, "sims", 100000, 1, 1u << 30, &c.sims, err) < 0 ||
        wc_params_u64(p, "block", 128, 32, 1024, &c.block, err) < 0 ||
        wc_params_u64(p, "sms", 15, 1, 1024, &c.sms, err) < 0)
        return NULL;
    /* the reduction halves the block: a power of two, as the sample requires */
    if (c.block & (c.block - 1)) {
        wc_errf(err, "workload %s: parameter block must be a power of two", p->workload);
        return NULL;
    }
    c.grid = (c.sims + c.block - 1) / c.block;
    while (c.grid > 2 * 10 * c.sms) c.grid >>= 1;
    c.seed = seed;
    pi_ctx *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "mcpi: out of memory");
        return NULL;
    }
    *h = c;
    wc_gen_program prog = {.ctx = h, .kernel = pi_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_sdk_mcpi = {
    .name = "sdk/mc_pi",
    .suite = "sdk",
    .kernels = "initRNG, computeValue",
    .size = "sims=100000 block=128 (195 blocks on 15 SMs)",
    .classes = "002:friendly",
    .help = "CUDA SDK MC_EstimatePiInlineP (seed 002 PEst): curand_init skip-ahead over shared "
            "precomputed matrices, then the estimate; sims, block, sms (sets the grid)",
    .open = open_mcpi,
};
WC_PLUGIN(workload, wc_wl_sdk_mcpi, 630);
