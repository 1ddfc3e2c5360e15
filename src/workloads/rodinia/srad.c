/*
 * srad.c - Rodinia srad_v1 and srad_v2 (CUDA) as address generators.  Facts
 * from ../shared/specs/workloads.md (Rodinia, srad_v1 / srad_v2).
 *
 * srad_v1: image Nr x Nc (default 502 x 458, the resized input), column-major
 * (ei = row + Nr*col), Ne = Nr*Nc, blocks of 512 (450 for the default).
 * Launches: extract; per iteration (default 100): prepare, reduce (launched
 * while blocks remain: 450 blocks with mul=1, then 1 block with mul=512),
 * srad, srad2; compress at the end.  reduce loads sums[ei*mul] for ei < no,
 * reduces in shared memory and its last thread stores sums[bx*mul*512]; a
 * partial last block reduces the largest power of two df <= nf in the tree
 * and thread df-1 adds the rest serially from sums[bx*512 + df ..] (the
 * original indexes these without `mul`; kept).
 * Arrays: 0 I, 1 iN, 2 iS, 3 jW, 4 jE, 5 dN, 6 dS, 7 dW, 8 dE, 9 c, 10 sums,
 * 11 sums2.
 *
 * srad_v1 alu=K (default 1): srad's row/col step and its 24 arithmetic
 * steps, and srad2's row/col step, each K instructions.  The compiled code
 * has far more than one instruction per step: (ei+1) % Nr and / Nr are
 * software integer divisions on Fermi, and the diffusion coefficient takes
 * three double-precision divisions (the source's double literals), also
 * software; K of about 12 is our estimate of that density.
 *
 * srad_v1 shared=0 (seed 004's "unshared" /U, 004_0fcfedff3b0ef5ba.txt
 * section 4, Table 3): only reduce uses shared memory (d_psum, d_psum2); its
 * /U version reduces in place in sums and sums2 (d_psum[tx] is
 * sums[ei*mul]): no staging copy; at each tree level i the lanes with
 * (tx+1) % i == 0 (and tx < df) load their own element and the one i/2
 * before it, of both arrays, and store their own; the barriers stay.  The
 * thread that finishes (tx = df-1) holds its sum in a register from the
 * last level, adds the leftover elements as the original does and stores
 * sums[bx*mul*512] as the original does.
 *
 * srad_v2: rows x cols (default 2048 x 2048), block 16x16, grid (cols/16,
 * rows/16), 2 iterations of srad_cuda_1 and srad_cuda_2 (shared-memory tiles:
 * north/south/west/east halo rows/columns, the edge blocks reload clamped
 * rows/columns; the first row's north load indexes before the array, as the
 * original does).  Arrays: 0 J, 1 C, 2 E, 3 W, 4 S, 5 N.
 *
 * srad_v2 shared=0: seed 004's "unshared" SRAD/U (004_0fcfedff3b0ef5ba.txt
 * section 4, Table 3, section 5.6): global memory instead of the shared
 * tiles, so every use of a tile value is a global load of it.  Kernel 1 loads
 * J at the thread's index and its four neighbours (the neighbour index
 * clamped at the image edges, which is what the tiles' halo reloads amount
 * to) and stores C, E, W, S, N; kernel 2 loads J at index and, per direction
 * N, S, W, E, C at index, south, index, east (clamped) and the direction's
 * array at index, and stores J.  No shared memory, no barriers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

/* ---- srad_v1 -------------------------------------------------------- */

enum { S1_I, S1_IN, S1_IS, S1_JW, S1_JE, S1_DN, S1_DS, S1_DW, S1_DE, S1_C, S1_SUMS, S1_SUMS2 };
#define S1(k) WC_GEN_REGION(S1_##k)

typedef struct srad1_ctx {
    uint64_t nr, nc, ne, niter, blocks;
    /* reduce launch parameters of the current launch */
    uint64_t no, mul, rblocks;
    uint32_t phase; /* position in the per-iteration sequence */
    uint64_t iter;
    bool unshared; /* shared=0: srad_v1/U */
    uint64_t alu;  /* instructions per modelled arithmetic step of srad and srad2 */
} srad1_ctx;

static int s1_simple_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    /* extract / compress: I[ei] = f(I[ei]); prepare: sums = I, sums2 = I*I */
    const srad1_ctx *c = gk->arg;
    uint64_t ei = w->block_id * 512 + w->warp * 32;
    uint32_t m = wc_gen_mask_below(ei, c->ne);
    bool prepare = gk->k.name[0] == 'p';
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 1, 2, 4, S1(I) + ei * 4, 4));
    if (prepare) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_STG, m, 1, 2, 4, S1(SUMS) + ei * 4, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, m, 3, 1, 1));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STG, m, 3, 2, 4, S1(SUMS2) + ei * 4, 4));
    } else {
        WC_CO_EMIT(w, {
            wc_gen_alu(o, 0x30, m, 1, 1, WC_REG_NONE);
            o->op = WC_OP_SFU;
        });
        WC_CO_EMIT(w, wc_gen_alu(o, 0x38, m, 1, 1, WC_REG_NONE));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_STG, m, 1, 2, 4, S1(I) + ei * 4, 4));
    }
    WC_CO_END(w);
}

static uint64_t s1_df(uint64_t nf)
{
    uint64_t df = 0;
    for (uint64_t i = 2; i <= 512; i *= 2)
        if (nf >= i) df = i;
    return df;
}

/* Lanes of warp `warp` (tx = 32*warp + l) with (tx+1) % i == 0 and tx < df:
 * the threads that add at tree level i. */
static uint32_t s1_level_mask(uint32_t warp, uint64_t i, uint64_t df)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        uint64_t tx = (uint64_t)warp * 32 + l;
        if ((tx + 1) % i == 0 && tx < df) m |= 1u << l;
    }
    return m;
}

/* reduce/U at level i = 2^(v[0]+1), lanes v[1], array v[2] (0 sums, 1 sums2):
 * the lane's own element sums[ei*mul] (partner 0) or the one i/2 before it
 * (partner 1). */
static void s1u_elem(const srad1_ctx *c, wc_winst *o, uint64_t pc, wc_opclass op,
                     const wc_gen_warp *w, int partner)
{
    uint64_t arr = w->v[2] ? S1(SUMS2) : S1(SUMS), half = (uint64_t)1 << w->v[0];
    uint64_t ei0 = w->block_id * 512 + w->warp * 32;
    wc_gen_mem_list(o, pc, op, (uint32_t)w->v[1], 1, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        o->addr[l] = arr + (ei0 + l - (partner ? half : 0)) * c->mul * 4;
}

static int s1_reduce_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const srad1_ctx *c = gk->arg;
    uint64_t bx = w->block_id, ei = bx * 512 + w->warp * 32;
    uint64_t nf = 512 - (c->rblocks * 512 - c->no);
    bool partial = nf != 512 && bx == c->rblocks - 1;
    uint64_t df = partial ? s1_df(nf) : 512;
    uint64_t last = df - 1; /* thread that stores */
    uint32_t m = wc_gen_mask_below(ei, c->no), lm = 0;
    if (last / 32 == w->warp) lm = 1u << (last % 32);
    uint64_t levels = 0;
    for (uint64_t i = 2; i <= df; i *= 2) levels++;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (m && !c->unshared) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 1, 2, 4, S1(SUMS) + ei * c->mul * 4,
                                 (int64_t)c->mul * 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, m, 3, 2, 4, S1(SUMS2) + ei * c->mul * 4,
                                 (int64_t)c->mul * 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STS, m, 1, WC_REG_NONE, 4, 0, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x28, WC_OP_STS, m, 3, WC_REG_NONE, 4, 2048, 4));
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
    for (w->v[0] = 0; w->v[0] < (int64_t)levels; w->v[0]++) {
        if (c->unshared) {
            /* level i = 2^(v0+1): lanes (tx+1) % i == 0, tx < df */
            w->v[1] = s1_level_mask(w->warp, (uint64_t)2 << w->v[0], df);
            if (w->v[1]) {
                for (w->v[2] = 0; w->v[2] < 2; w->v[2]++) { /* sums, then sums2 */
                    WC_CO_EMIT(w, s1u_elem(c, o, 0x34, WC_OP_LDG, w, 0));
                    WC_CO_EMIT(w, s1u_elem(c, o, 0x3c, WC_OP_LDG, w, 1));
                    WC_CO_EMIT(w, wc_gen_alu(o, 0x38, (uint32_t)w->v[1], 1, 1, 3));
                    WC_CO_EMIT(w, s1u_elem(c, o, 0x44, WC_OP_STG, w, 0));
                }
            }
        } else
            WC_CO_EMIT(w, wc_gen_alu(o, 0x38, 0xffffffffu, 1, 1, 3));
        WC_CO_EMIT(w, wc_gen_bar(o, 0x40));
    }
    if (partial) WC_CO_EMIT(w, wc_gen_bar(o, 0x48));
    if (!lm) break;
    if (partial) {
        for (w->v[0] = (int64_t)(bx * 512 + df); w->v[0] < (int64_t)(bx * 512 + nf); w->v[0]++) {
            WC_CO_EMIT(w, wc_gen_mem(o, 0x50, WC_OP_LDG, lm, 4, 2, 4,
                                     S1(SUMS) + (uint64_t)w->v[0] * 4 - (last % 32) * 4, 4));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_LDG, lm, 5, 2, 4,
                                     S1(SUMS2) + (uint64_t)w->v[0] * 4 - (last % 32) * 4, 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x60, lm, 1, 1, 4));
        }
    }
    WC_CO_EMIT(w, wc_gen_mem(o, 0x68, WC_OP_STG, lm, 1, 2, 4,
                             S1(SUMS) + bx * c->mul * 512 * 4 - (last % 32) * 4, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x70, WC_OP_STG, lm, 3, 2, 4,
                             S1(SUMS2) + bx * c->mul * 512 * 4 - (last % 32) * 4, 4));
    WC_CO_END(w);
}

/* Per-lane row/col of srad/srad2 (the original's formulas). */
static void s1_rowcol(const srad1_ctx *c, uint64_t ei, uint64_t *row, uint64_t *col)
{
    *row = (ei + 1) % c->nr - 1;
    *col = (ei + 1) / c->nr;
    if ((ei + 1) % c->nr == 0) {
        *row = c->nr - 1;
        *col = *col - 1;
    }
}

/* which: 0 iN[row], 1 iS[row], 2 jW[col], 3 jE[col], 4..7 I/c at the
 * N, S, W, E neighbour (array `arr`). */
static void s1_list(const srad1_ctx *c, wc_winst *o, uint64_t pc, uint32_t m, uint64_t ei0,
                    int which, uint64_t arr, unsigned reg)
{
    wc_gen_mem_list(o, pc, WC_OP_LDG, m, reg, 2, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        if (!(m >> l & 1u)) continue;
        uint64_t row, col;
        s1_rowcol(c, ei0 + l, &row, &col);
        uint64_t iN = row ? row - 1 : 0, iS = row + 1 < c->nr ? row + 1 : c->nr - 1;
        uint64_t jW = col ? col - 1 : 0, jE = col + 1 < c->nc ? col + 1 : c->nc - 1;
        uint64_t e;
        switch (which) {
        case 0: e = row; break;
        case 1: e = row; break;
        case 2: e = col; break;
        case 3: e = col; break;
        case 4: e = iN + c->nr * col; break;
        case 5: e = iS + c->nr * col; break;
        case 6: e = row + c->nr * jW; break;
        default: e = row + c->nr * jE; break;
        }
        o->addr[l] = arr + e * 4;
    }
}

static int s1_srad_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const srad1_ctx *c = gk->arg;
    uint64_t ei = w->block_id * 512 + w->warp * 32;
    uint32_t m = wc_gen_mask_below(ei, c->ne);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    for (w->v[0] = 0; w->v[0] < (int64_t)c->alu; w->v[0]++) /* row, col */
        WC_CO_EMIT(w, wc_gen_alu(o, 0x0c, m, 3, 2, WC_REG_NONE));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 1, 2, 4, S1(I) + ei * 4, 4));
    WC_CO_EMIT(w, s1_list(c, o, 0x18, m, ei, 0, S1(IN), 4));
    WC_CO_EMIT(w, s1_list(c, o, 0x20, m, ei, 1, S1(IS), 5));
    WC_CO_EMIT(w, s1_list(c, o, 0x28, m, ei, 2, S1(JW), 6));
    WC_CO_EMIT(w, s1_list(c, o, 0x30, m, ei, 3, S1(JE), 7));
    for (w->v[0] = 0; w->v[0] < 4; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_alu(o, 0x38, m, 8, 4 + (unsigned)w->v[0], 3));
        WC_CO_EMIT(w, s1_list(c, o, 0x40, m, ei, 4 + (int)w->v[0], S1(I), 9 + (unsigned)w->v[0]));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x48, m, 9 + (unsigned)w->v[0], 9 + (unsigned)w->v[0], 1));
    }
    for (w->v[0] = 0; w->v[0] < 24 * (int64_t)c->alu; w->v[0]++) /* gradients, ..., diffusion */
        WC_CO_EMIT(w, wc_gen_alu(o, 0x50, m, 13, 9 + (unsigned)(w->v[0] % 4), 13));
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_STG, m, 13, 2, 4,
                                 WC_GEN_REGION(S1_DN + w->v[0]) + ei * 4, 4));
    WC_CO_END(w);
}

static int s1_srad2_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const srad1_ctx *c = gk->arg;
    uint64_t ei = w->block_id * 512 + w->warp * 32;
    uint32_t m = wc_gen_mask_below(ei, c->ne);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!m) break;
    for (w->v[0] = 0; w->v[0] < (int64_t)c->alu; w->v[0]++) /* row, col */
        WC_CO_EMIT(w, wc_gen_alu(o, 0x0c, m, 3, 2, WC_REG_NONE));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, m, 1, 2, 4, S1(C) + ei * 4, 4));
    WC_CO_EMIT(w, s1_list(c, o, 0x18, m, ei, 1, S1(IS), 5));
    WC_CO_EMIT(w, s1_list(c, o, 0x20, m, ei, 5, S1(C), 6));
    WC_CO_EMIT(w, s1_list(c, o, 0x28, m, ei, 3, S1(JE), 7));
    WC_CO_EMIT(w, s1_list(c, o, 0x30, m, ei, 7, S1(C), 8));
    for (w->v[0] = 0; w->v[0] < 4; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDG, m, 9, 2, 4,
                                 WC_GEN_REGION(S1_DN + w->v[0]) + ei * 4, 4));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x40, m, 10, 9, 10));
    }
    WC_CO_EMIT(w, wc_gen_mem(o, 0x48, WC_OP_LDG, m, 11, 2, 4, S1(I) + ei * 4, 4));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x50, m, 11, 11, 10));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_STG, m, 11, 2, 4, S1(I) + ei * 4, 4));
    WC_CO_END(w);
}

/* Launch order: 0 extract; per iteration: prepare, reduce..., srad, srad2;
 * compress.  Produced lazily (reduce count depends on the block count). */
static int srad1_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    srad1_ctx *c = ctx;
    const char *name;
    out->arg = c;
    out->k.block = (wc_dim3){512, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)c->blocks, 1, 1};
    out->k.regs_per_thread = 24;
    out->next = s1_simple_next;
    if (idx == 0) {
        name = "extract";
        c->phase = 0;
        c->iter = 0;
    } else if (c->iter == c->niter) {
        if (c->phase == 99) return 0;
        name = "compress";
        c->phase = 99;
    } else if (c->phase == 0) {
        name = "prepare";
        c->phase = 1;
        c->no = c->ne;
        c->mul = 1;
        c->rblocks = c->blocks;
    } else if (c->phase == 1) {
        name = "reduce";
        out->k.grid.x = (uint32_t)c->rblocks;
        out->k.shmem_bytes = c->unshared ? 0 : 2 * 512 * 4;
        out->next = s1_reduce_next;
        c->phase = c->rblocks == 1 ? 2 : 3;
    } else if (c->phase == 3) {
        /* next reduce level: the host loop's update, applied only now because
         * the previous reduce's instructions read these fields */
        c->no = c->rblocks;
        c->mul *= 512;
        c->rblocks = (c->rblocks + 511) / 512;
        name = "reduce";
        out->k.grid.x = (uint32_t)c->rblocks;
        out->k.shmem_bytes = c->unshared ? 0 : 2 * 512 * 4;
        out->next = s1_reduce_next;
        c->phase = c->rblocks == 1 ? 2 : 3;
    } else if (c->phase == 2) {
        name = "srad";
        out->next = s1_srad_next;
        c->phase = 4;
    } else {
        name = "srad2";
        out->next = s1_srad2_next;
        c->phase = 0;
        c->iter++;
    }
    snprintf(out->k.name, sizeof out->k.name, "%s", name);
    return 1;
}

static wc_source *open_srad_v1(wc_params *p, uint64_t seed, wc_err *err)
{
    srad1_ctx *c = calloc(1, sizeof *c);
    uint64_t shared = 1;
    if (!c) {
        wc_errf(err, "srad_v1: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "rows", 502, 2, 1u << 15, &c->nr, err) < 0 ||
        wc_params_u64(p, "cols", 458, 2, 1u << 15, &c->nc, err) < 0 ||
        wc_params_u64(p, "iterations", 100, 1, 100000, &c->niter, err) < 0 ||
        wc_params_u64(p, "shared", 1, 0, 1, &shared, err) < 0 ||
        wc_params_u64(p, "alu", 1, 1, 1000, &c->alu, err) < 0) {
        free(c);
        return NULL;
    }
    c->unshared = shared == 0;
    c->ne = c->nr * c->nc;
    c->blocks = (c->ne + 511) / 512;
    wc_gen_program prog = {.ctx = c, .kernel = srad1_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_srad_v1 = {
    .name = "rodinia/srad_v1",
    .suite = "rodinia",
    .kernels = "extract, (prepare, reduce x2, srad, srad2) x iterations, compress",
    .size = "rows=502 cols=458 iterations=100",
    .classes = "000:CLP 001:CF 002:conflict",
    .help = "Rodinia srad_v1 (column-major image); rows, cols, iterations, shared (0: seed "
            "004's unshared /U, reduce in place in global memory), alu (instructions per "
            "arithmetic step of srad/srad2)",
    .open = open_srad_v1,
};
WC_PLUGIN(workload, wc_wl_rodinia_srad_v1, 330);

/* ---- srad_v2 -------------------------------------------------------- */

typedef struct srad2_ctx {
    uint64_t rows, cols, niter, gx, gy;
    bool unshared; /* shared=0: SRAD/U */
} srad2_ctx;

/* Element offsets of the 32 lanes (tx = l%16, ty = 2*warp + l/16) for one of
 * the kernel's index expressions. */
enum { S2_INDEX, S2_N, S2_S, S2_W, S2_E, S2_NTOP, S2_SBOT, S2_WLEFT, S2_ERIGHT };

static void s2_list(const srad2_ctx *c, const wc_gen_warp *w, wc_winst *o, uint64_t pc,
                    wc_opclass op, unsigned reg, int which, uint64_t arr)
{
    wc_gen_mem_list(o, pc, op, 0xffffffffu, reg, 2, 4);
    int64_t cols = (int64_t)c->cols, bx = w->bid.x, by = w->bid.y;
    int64_t base = cols * 16 * by + 16 * bx;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        int64_t tx = l & 15, ty = 2 * (int64_t)w->warp + (l >> 4), e;
        switch (which) {
        case S2_INDEX: e = base + cols * ty + tx; break;
        case S2_N: e = base + tx - cols; break;
        case S2_S: e = base + cols * 16 + tx; break;
        case S2_W: e = base + cols * ty - 1; break;
        case S2_E: e = base + cols * ty + 16; break;
        case S2_NTOP: e = 16 * bx + tx; break;
        case S2_SBOT: e = cols * 16 * ((int64_t)c->gy - 1) + 16 * bx + cols * 15 + tx; break;
        case S2_WLEFT: e = cols * 16 * by + cols * ty; break;
        default: e = cols * 16 * by + 16 * ((int64_t)c->gx - 1) + cols * ty + 15; break;
        }
        o->addr[l] = arr + (uint64_t)(e * 4);
    }
}

#define S2J WC_GEN_REGION(0)
#define S2C WC_GEN_REGION(1)

static int s2_k1_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const srad2_ctx *c = gk->arg;
    bool top = w->bid.y == 0, bot = w->bid.y == c->gy - 1;
    bool left = w->bid.x == 0, right = w->bid.x == c->gx - 1;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    WC_CO_EMIT(w, s2_list(c, w, o, 0x10, WC_OP_LDG, 1, S2_N, S2J));
    WC_CO_EMIT(w, s2_list(c, w, o, 0x18, WC_OP_LDG, 3, S2_S, S2J));
    if (top) WC_CO_EMIT(w, s2_list(c, w, o, 0x20, WC_OP_LDG, 1, S2_NTOP, S2J));
    if (!top && bot) WC_CO_EMIT(w, s2_list(c, w, o, 0x28, WC_OP_LDG, 3, S2_SBOT, S2J));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_STS, 0xffffffffu, 1, WC_REG_NONE, 4, 0, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_STS, 0xffffffffu, 3, WC_REG_NONE, 4, 1024, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x40));
    WC_CO_EMIT(w, s2_list(c, w, o, 0x48, WC_OP_LDG, 4, S2_W, S2J));
    WC_CO_EMIT(w, s2_list(c, w, o, 0x50, WC_OP_LDG, 5, S2_E, S2J));
    if (left) WC_CO_EMIT(w, s2_list(c, w, o, 0x58, WC_OP_LDG, 4, S2_WLEFT, S2J));
    if (!left && right) WC_CO_EMIT(w, s2_list(c, w, o, 0x60, WC_OP_LDG, 5, S2_ERIGHT, S2J));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x68, WC_OP_STS, 0xffffffffu, 4, WC_REG_NONE, 4, 2048, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x70, WC_OP_STS, 0xffffffffu, 5, WC_REG_NONE, 4, 3072, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x78));
    WC_CO_EMIT(w, s2_list(c, w, o, 0x80, WC_OP_LDG, 6, S2_INDEX, S2J));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x88, WC_OP_STS, 0xffffffffu, 6, WC_REG_NONE, 4, 4096, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x90));
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_mem(o, 0x98, WC_OP_LDS, 0xffffffffu, 7 + (unsigned)w->v[0],
                                 WC_REG_NONE, 4, 1024 * (uint64_t)w->v[0], 4));
    for (w->v[0] = 0; w->v[0] < 24; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_alu(o, 0xa0, 0xffffffffu, 12, 7 + (unsigned)(w->v[0] % 5), 12));
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++) /* C, E, W, S, N */
        WC_CO_EMIT(w, s2_list(c, w, o, 0xa8, WC_OP_STG, 12, S2_INDEX, WC_GEN_REGION(1 + w->v[0])));
    WC_CO_END(w);
}

static int s2_k2_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const srad2_ctx *c = gk->arg;
    bool bot = w->bid.y == c->gy - 1, right = w->bid.x == c->gx - 1;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    WC_CO_EMIT(w, s2_list(c, w, o, 0x10, WC_OP_LDG, 1, S2_S, S2C));
    if (bot) WC_CO_EMIT(w, s2_list(c, w, o, 0x18, WC_OP_LDG, 1, S2_SBOT, S2C));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x20, WC_OP_STS, 0xffffffffu, 1, WC_REG_NONE, 4, 0, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x28));
    WC_CO_EMIT(w, s2_list(c, w, o, 0x30, WC_OP_LDG, 3, S2_E, S2C));
    if (right) WC_CO_EMIT(w, s2_list(c, w, o, 0x38, WC_OP_LDG, 3, S2_ERIGHT, S2C));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_STS, 0xffffffffu, 3, WC_REG_NONE, 4, 1024, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x48));
    WC_CO_EMIT(w, s2_list(c, w, o, 0x50, WC_OP_LDG, 4, S2_INDEX, S2C));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x58, WC_OP_STS, 0xffffffffu, 4, WC_REG_NONE, 4, 2048, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x60));
    WC_CO_EMIT(w, s2_list(c, w, o, 0x68, WC_OP_LDG, 5, S2_INDEX, S2J));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x70, WC_OP_STS, 0xffffffffu, 5, WC_REG_NONE, 4, 3072, 4));
    WC_CO_EMIT(w, wc_gen_bar(o, 0x78));
    for (w->v[0] = 0; w->v[0] < 4; w->v[0]++) { /* N, S, W, E */
        WC_CO_EMIT(w, wc_gen_mem(o, 0x80, WC_OP_LDS, 0xffffffffu, 6, WC_REG_NONE, 4, 0, 4));
        WC_CO_EMIT(w, s2_list(c, w, o, 0x88, WC_OP_LDG, 7, S2_INDEX, WC_GEN_REGION(5 - w->v[0])));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x90, 0xffffffffu, 8, 6, 7));
    }
    WC_CO_EMIT(w, wc_gen_alu(o, 0x98, 0xffffffffu, 8, 8, 5));
    WC_CO_EMIT(w, s2_list(c, w, o, 0xa0, WC_OP_STG, 8, S2_INDEX, S2J));
    WC_CO_END(w);
}

/* SRAD/U: a lane's element and its neighbours, clamped at the image edges. */
enum { S2U_INDEX, S2U_N, S2U_S, S2U_W, S2U_E };

static void s2u_list(const srad2_ctx *c, const wc_gen_warp *w, wc_winst *o, uint64_t pc,
                     wc_opclass op, unsigned reg, int which, uint64_t arr)
{
    wc_gen_mem_list(o, pc, op, 0xffffffffu, reg, 2, 4);
    int64_t rows = (int64_t)c->rows, cols = (int64_t)c->cols;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        int64_t y = 16 * (int64_t)w->bid.y + 2 * (int64_t)w->warp + (l >> 4);
        int64_t x = 16 * (int64_t)w->bid.x + (l & 15);
        switch (which) {
        case S2U_N: y -= y > 0; break;
        case S2U_S: y += y < rows - 1; break;
        case S2U_W: x -= x > 0; break;
        case S2U_E: x += x < cols - 1; break;
        default: break;
        }
        o->addr[l] = arr + (uint64_t)((y * cols + x) * 4);
    }
}

static int s2u_k1_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const srad2_ctx *c = gk->arg;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++) /* jc, then n, s, w, e */
        WC_CO_EMIT(w, s2u_list(c, w, o, 0x10, WC_OP_LDG, 7 + (unsigned)w->v[0], (int)w->v[0], S2J));
    for (w->v[0] = 0; w->v[0] < 24; w->v[0]++)
        WC_CO_EMIT(w, wc_gen_alu(o, 0xa0, 0xffffffffu, 12, 7 + (unsigned)(w->v[0] % 5), 12));
    for (w->v[0] = 0; w->v[0] < 5; w->v[0]++) /* C, E, W, S, N */
        WC_CO_EMIT(w,
                   s2u_list(c, w, o, 0xa8, WC_OP_STG, 12, S2U_INDEX, WC_GEN_REGION(1 + w->v[0])));
    WC_CO_END(w);
}

static int s2u_k2_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const srad2_ctx *c = gk->arg;
    static const int c_at[4] = {S2U_INDEX, S2U_S, S2U_INDEX, S2U_E}; /* cN, cS, cW, cE */
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    WC_CO_EMIT(w, s2u_list(c, w, o, 0x10, WC_OP_LDG, 5, S2U_INDEX, S2J));
    for (w->v[0] = 0; w->v[0] < 4; w->v[0]++) { /* N, S, W, E */
        WC_CO_EMIT(w, s2u_list(c, w, o, 0x80, WC_OP_LDG, 6, c_at[w->v[0]], S2C));
        WC_CO_EMIT(w, s2u_list(c, w, o, 0x88, WC_OP_LDG, 7, S2U_INDEX, WC_GEN_REGION(5 - w->v[0])));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x90, 0xffffffffu, 8, 6, 7));
    }
    WC_CO_EMIT(w, wc_gen_alu(o, 0x98, 0xffffffffu, 8, 8, 5));
    WC_CO_EMIT(w, s2u_list(c, w, o, 0xa0, WC_OP_STG, 8, S2U_INDEX, S2J));
    WC_CO_END(w);
}

static int srad2_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    srad2_ctx *c = ctx;
    if (idx >= 2 * c->niter) return 0;
    out->arg = c;
    out->k.block = (wc_dim3){16, 16, 1};
    out->k.grid = (wc_dim3){(uint32_t)c->gx, (uint32_t)c->gy, 1};
    out->k.shmem_bytes = c->unshared ? 0 : 6 * 1024;
    out->k.regs_per_thread = 32;
    snprintf(out->k.name, sizeof out->k.name, idx % 2 ? "srad_cuda_2" : "srad_cuda_1");
    if (c->unshared)
        out->next = idx % 2 ? s2u_k2_next : s2u_k1_next;
    else
        out->next = idx % 2 ? s2_k2_next : s2_k1_next;
    return 1;
}

static wc_source *open_srad_v2(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t shared;
    srad2_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "srad_v2: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "rows", 2048, 16, 1u << 15, &c->rows, err) < 0 ||
        wc_params_u64(p, "cols", 2048, 16, 1u << 15, &c->cols, err) < 0 ||
        wc_params_u64(p, "iterations", 2, 1, 100000, &c->niter, err) < 0 ||
        wc_params_u64(p, "shared", 1, 0, 1, &shared, err) < 0) {
        free(c);
        return NULL;
    }
    c->unshared = shared == 0;
    if (c->rows % 16 || c->cols % 16) {
        free(c);
        wc_errf(err, "workload rodinia/srad_v2: parameters rows and cols must be multiples of 16");
        return NULL;
    }
    c->gx = c->cols / 16;
    c->gy = c->rows / 16;
    wc_gen_program prog = {.ctx = c, .kernel = srad2_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_srad_v2 = {
    .name = "rodinia/srad_v2",
    .suite = "rodinia",
    .kernels = "(srad_cuda_1, srad_cuda_2) x iterations",
    .size = "rows=2048 cols=2048 iterations=2",
    .classes = "000:CLN 001:CNF 002:conflict",
    .help = "Rodinia srad_v2 (16x16 tiles); rows, cols (multiples of 16), iterations, shared "
            "(0: seed 004's unshared SRAD/U, global loads instead of shared tiles)",
    .open = open_srad_v2,
};
WC_PLUGIN(workload, wc_wl_rodinia_srad_v2, 340);
