/*
 * spmv.c - Parboil spmv (JDS format, CUDA base version) as an address
 * generator that really walks a seeded sparse matrix.  Facts from
 * ../shared/specs/workloads.md (Parboil, spmv).
 *
 * Matrix (no file needed): the shape of the large input Dubcova3 (146,689
 * rows, ~24.8 nonzeros per row, a 2-D finite-element operator): row i has
 * columns i + dx + dy*w (w = floor(sqrt(rows)), dx, dy in [-2, 2]) that fall
 * in the matrix, each kept with probability 0.99 (seeded), so ~24.75 per row.
 * JDS: rows sorted by nonzero count, descending (stable), perm[ix] is the
 * original row of sorted row ix; diagonal k holds the k-th nonzero of every
 * row with more than k, padded to a multiple of 32 rows (padding: column 0,
 * value 0); jds_ptr[k] is where diagonal k starts; sh_zcnt[ix/32] is the
 * largest count in the 32-row group.  jds_ptr and sh_zcnt are in constant
 * memory (no global access).
 *
 * spmv_jds<<<ceil(rows/192), 192>>>, 50 launches: thread ix < rows: for k <
 * sh_zcnt[ix/32]: j = jds_ptr[k] + ix; load index[j], data[j]; gather x[index]
 * (texture path); then load perm[ix] and store dst[perm[ix]].  (Block size is
 * chosen by the original at run time; 192 here, addresses do not depend on it.)
 * Arrays: 0 data, 1 index, 2 perm, 3 x, 4 dst.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/rng.h"
#include "workloads/gen.h"

#define SP_DATA  WC_GEN_REGION(0)
#define SP_INDEX WC_GEN_REGION(1)
#define SP_PERM  WC_GEN_REGION(2)
#define SP_X     WC_GEN_REGION(3)
#define SP_DST   WC_GEN_REGION(4)
#define SP_BLOCK 192u

typedef struct spmv_ctx {
    uint64_t n, launches, maxnz;
    uint32_t *perm, *bound, *ptr, *col; /* col: JDS index[] */
} spmv_ctx;

static void spmv_destroy(void *ctx)
{
    spmv_ctx *c = ctx;
    free(c->perm);
    free(c->bound);
    free(c->ptr);
    free(c->col);
    free(c);
}

static int spmv_build(spmv_ctx *c, uint64_t seed, wc_err *err)
{
    uint64_t n = c->n, w = 1, r = wc_rng_seed(seed ^ 0x73706d76ull);
    while ((w + 1) * (w + 1) <= n) w++;
    uint32_t *cols = malloc(n * 25 * sizeof *cols);
    uint8_t *cnt = calloc(n, 1);
    c->perm = malloc(n * sizeof *c->perm);
    c->bound = calloc((n + 31) / 32, sizeof *c->bound);
    if (!cols || !cnt || !c->perm || !c->bound) {
        free(cols);
        free(cnt);
        return wc_errf(err, "spmv: out of memory");
    }
    for (uint64_t i = 0; i < n; i++)
        for (int dy = -2; dy <= 2; dy++)
            for (int dx = -2; dx <= 2; dx++) {
                int64_t col = (int64_t)i + dx + dy * (int64_t)w;
                if (col < 0 || col >= (int64_t)n) continue;
                if (wc_rng_below(&r, 100) == 0) continue;
                cols[i * 25 + cnt[i]++] = (uint32_t)col;
            }
    /* stable sort by count, descending: counting sort over 0..25 */
    uint64_t start[27] = {0};
    for (uint64_t i = 0; i < n; i++) start[25 - cnt[i] + 1]++;
    for (int k = 1; k < 27; k++) start[k] += start[k - 1];
    for (uint64_t i = 0; i < n; i++) c->perm[start[25 - cnt[i]]++] = (uint32_t)i;
    c->maxnz = cnt[c->perm[0]];
    for (uint64_t g = 0; g < (n + 31) / 32; g++) c->bound[g] = cnt[c->perm[g * 32]];
    /* diagonal k: rows ix with cnt > k, padded to 32 */
    c->ptr = calloc(c->maxnz + 1, sizeof *c->ptr);
    uint64_t total = 0;
    for (uint64_t k = 0; k < c->maxnz; k++) {
        uint64_t rows = 0;
        while (rows < n && cnt[c->perm[rows]] > k) rows++;
        c->ptr[k] = (uint32_t)total;
        total += (rows + 31) / 32 * 32;
    }
    c->ptr[c->maxnz] = (uint32_t)total;
    c->col = calloc(total ? total : 1, sizeof *c->col);
    if (!c->ptr || !c->col) {
        free(cols);
        free(cnt);
        return wc_errf(err, "spmv: out of memory");
    }
    for (uint64_t ix = 0; ix < n; ix++) {
        uint32_t row = c->perm[ix];
        for (uint64_t k = 0; k < cnt[row]; k++) c->col[c->ptr[k] + ix] = cols[row * 25 + k];
    }
    free(cols);
    free(cnt);
    return 0;
}

static int spmv_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const spmv_ctx *c = gk->arg;
    uint64_t ix0 = w->block_id * SP_BLOCK + w->warp * 32;
    uint32_t live = wc_gen_mask_below(ix0, c->n);
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!live) break;
    for (w->v[0] = 0; w->v[0] < (int64_t)c->bound[ix0 / 32]; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, live, 3, 2, 4,
                                 SP_INDEX + (c->ptr[w->v[0]] + ix0) * 4ull, 4));
        WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, live, 4, 2, 4,
                                 SP_DATA + (c->ptr[w->v[0]] + ix0) * 4ull, 4));
        WC_CO_EMIT(w, {
            wc_gen_mem_list(o, 0x20, WC_OP_LDG, live, 5, 3, 4);
            for (unsigned l = 0; l < WC_WARP_SIZE; l++)
                if (live >> l & 1u) o->addr[l] = SP_X + c->col[c->ptr[w->v[0]] + ix0 + l] * 4ull;
        });
        WC_CO_EMIT(w, wc_gen_alu(o, 0x28, live, 6, 4, 5));
    }
    WC_CO_EMIT(w, wc_gen_mem(o, 0x30, WC_OP_LDG, live, 7, 2, 4, SP_PERM + ix0 * 4, 4));
    WC_CO_EMIT(w, {
        wc_gen_mem_list(o, 0x38, WC_OP_STG, live, 6, 7, 4);
        for (unsigned l = 0; l < WC_WARP_SIZE; l++)
            if (live >> l & 1u) o->addr[l] = SP_DST + c->perm[ix0 + l] * 4ull;
    });
    WC_CO_END(w);
}

static int spmv_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    spmv_ctx *c = ctx;
    if (idx >= c->launches) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "spmv_jds");
    out->k.block = (wc_dim3){SP_BLOCK, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((c->n + SP_BLOCK - 1) / SP_BLOCK), 1, 1};
    out->k.regs_per_thread = 16;
    out->next = spmv_next;
    return 1;
}

static wc_source *open_spmv(wc_params *p, uint64_t seed, wc_err *err)
{
    spmv_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "spmv: out of memory");
        return NULL;
    }
    if (wc_params_u64(p, "rows", 146689, 1, 1u << 24, &c->n, err) < 0 ||
        wc_params_u64(p, "launches", 50, 1, 100000, &c->launches, err) < 0 ||
        spmv_build(c, seed, err) < 0) {
        spmv_destroy(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = spmv_kernel, .destroy = spmv_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_parboil_spmv = {
    .name = "parboil/spmv",
    .suite = "parboil",
    .kernels = "spmv_jds x launches",
    .size = "rows=146689 (~24.75 nonzeros/row, Dubcova3-like) launches=50",
    .classes = "000:CLN 002:thrashing",
    .help = "Parboil spmv (JDS) over a seeded banded FEM-like matrix; rows, launches",
    .open = open_spmv,
};
WC_PLUGIN(workload, wc_wl_parboil_spmv, 470);
