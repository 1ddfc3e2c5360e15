/*
 * spmv.c - SHOC's sparse matrix-vector product, CSR scalar kernel (level 1
 * "Spmv", single precision, "CSR-Scalar-SP"): seed 002's "SPMV S", one thread
 * per row, each thread walking its own row's values and column indices - the
 * intra-thread locality that many warps thrash in a small L1 and that warp
 * throttling protects.  Facts from SHOC's public source
 * (src/cuda/level1/spmv/Spmv.cu, src/common/Spmv/util.h).
 *
 * Matrix: SHOC's random matrix, exactly.  dim = rows (SHOC's size classes
 * -s 1..4 are 1024, 8192, 12288, 16384 rows), n = dim*dim/100 nonzeros (1 %,
 * integer division); initRandomMatrix seeds srand48(8675309) and visits
 * (i, j) in row-major order, assigning (i, j) when fewer than n are assigned
 * and drand48() <= n/(dim*dim), or once the entries left are no more than
 * the nonzeros still to assign (then every remaining entry).  drand48 is
 * POSIX's 48-bit LCG (x = 0x5DEECE66D*x + 0xB mod 2^48, seeded
 * x = seed<<16 | 0x330E, result x/2^48), computed here with its state in the
 * workload (no global state), so the matrix is the benchmark's whatever the
 * run's --seed.
 *
 * spmv_csr_scalar_kernel<<<ceil(rows/128), 128>>> x launches: myRow =
 * blockIdx.x*128 + threadIdx.x; if myRow < dim: load rowDelimiters[myRow] and
 * rowDelimiters[myRow+1]; for j in [start, end): load cols[j], val[j], gather
 * vec[cols[j]] (tex1Dfetch: a load through the L1 here, as in the other
 * built-ins), multiply-add; store out[myRow].  A warp loops as long as its
 * longest row, each lane active while j < its end (the divergence seed 002
 * notes for SPMV).  Arrays: 0 val, 1 cols, 2 rowDelimiters, 3 vec, 4 out.
 *
 * Approximated: the ALU work is one instruction for myRow, one for the first
 * loop test, and two per iteration (the multiply-add; j++ with the test).
 * Only the scalar kernel on the unpadded matrix is generated: SHOC also runs
 * the vector and ELLPACK-R kernels, the padded copies and double precision,
 * each timed on its own.  SHOC runs passes (10) x iterations (100) launches;
 * the default here is one pass.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define SS_VAL   WC_GEN_REGION(0)
#define SS_COLS  WC_GEN_REGION(1)
#define SS_DELIM WC_GEN_REGION(2)
#define SS_VEC   WC_GEN_REGION(3)
#define SS_OUT   WC_GEN_REGION(4)
#define SS_BLOCK 128u /* Spmv.h BLOCK_SIZE */
#define SS_SEED  8675309u

typedef struct shoc_spmv_ctx {
    uint64_t dim, launches;
    uint32_t *delim; /* rowDelimiters[dim + 1] */
    uint32_t *cols;  /* cols[n] */
    uint32_t *wlen;  /* longest row of each warp of 32 rows */
} shoc_spmv_ctx;

/* POSIX drand48 on a caller-held state (48 bits). */
static double drand48_step(uint64_t *x)
{
    *x = (0x5DEECE66Dull * *x + 0xBull) & ((1ull << 48) - 1);
    return (double)*x / (double)(1ull << 48);
}

static void shoc_spmv_destroy(void *ctx)
{
    shoc_spmv_ctx *c = ctx;
    free(c->delim);
    free(c->cols);
    free(c->wlen);
    free(c);
}

/* SHOC's initRandomMatrix: the column of every nonzero, row by row. */
static void shoc_spmv_fill(shoc_spmv_ctx *c, uint64_t n)
{
    uint64_t dim = c->dim, x = (uint64_t)SS_SEED << 16 | 0x330Eu, assigned = 0;
    double prob = (double)n / ((double)dim * (double)dim);
    int fill_remaining = 0;
    for (uint64_t i = 0; i < dim; i++) {
        c->delim[i] = (uint32_t)assigned;
        for (uint64_t j = 0; j < dim; j++) {
            uint64_t left = dim * dim - (i * dim + j);
            if (left <= n - assigned) fill_remaining = 1;
            /* drand48 is drawn only while nonzeros are left to assign (&&) */
            if ((assigned < n && drand48_step(&x) <= prob) || fill_remaining)
                c->cols[assigned++] = (uint32_t)j;
        }
    }
    c->delim[dim] = (uint32_t)n;
}

static int shoc_spmv_build(shoc_spmv_ctx *c, wc_err *err)
{
    uint64_t n = c->dim * c->dim / 100, warps = (c->dim + 31) / 32;
    c->delim = malloc((c->dim + 1) * sizeof *c->delim);
    c->cols = malloc((n ? n : 1) * sizeof *c->cols);
    c->wlen = calloc(warps, sizeof *c->wlen);
    if (!c->delim || !c->cols || !c->wlen) return wc_errf(err, "shoc/spmv: out of memory");
    shoc_spmv_fill(c, n);
    for (uint64_t r = 0; r < c->dim; r++) {
        uint32_t len = c->delim[r + 1] - c->delim[r];
        if (len > c->wlen[r / 32]) c->wlen[r / 32] = len;
    }
    return 0;
}

/* Lanes of the warp whose first row is row0 with more than k nonzeros. */
static uint32_t shoc_spmv_active(const shoc_spmv_ctx *c, uint64_t row0, uint32_t live, int64_t k)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if ((live >> l & 1u) && c->delim[row0 + l + 1] - c->delim[row0 + l] > (uint64_t)k)
            m |= 1u << l;
    return m;
}

/* cols[start + k], val[start + k] or vec[cols[start + k]] of every active lane. */
static void shoc_spmv_gather(const shoc_spmv_ctx *c, wc_winst *o, uint64_t row0, int64_t k,
                             uint64_t region)
{
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        if (!(o->mask >> l & 1u)) continue;
        uint64_t j = c->delim[row0 + l] + (uint64_t)k;
        o->addr[l] = region == SS_VEC ? SS_VEC + c->cols[j] * 4ull : region + j * 4;
    }
}

static int shoc_spmv_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const shoc_spmv_ctx *c = gk->arg;
    uint64_t row0 = w->block_id * SS_BLOCK + w->warp * 32;
    uint32_t live = wc_gen_mask_below(row0, c->dim), m;
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, wc_gen_alu(o, 0x08, 0xffffffffu, 2, WC_REG_NONE, WC_REG_NONE));
    if (!live) break;
    WC_CO_EMIT(w, wc_gen_mem(o, 0x10, WC_OP_LDG, live, 3, 2, 4, SS_DELIM + row0 * 4, 4));
    WC_CO_EMIT(w, wc_gen_mem(o, 0x18, WC_OP_LDG, live, 4, 2, 4, SS_DELIM + row0 * 4 + 4, 4));
    WC_CO_EMIT(w, wc_gen_alu(o, 0x20, live, 5, 3, 4));
    for (w->v[0] = 0; w->v[0] < (int64_t)c->wlen[row0 / 32]; w->v[0]++) {
        WC_CO_EMIT(w, {
            m = shoc_spmv_active(c, row0, live, w->v[0]);
            wc_gen_mem_list(o, 0x28, WC_OP_LDG, m, 6, 5, 4);
            shoc_spmv_gather(c, o, row0, w->v[0], SS_COLS);
        });
        WC_CO_EMIT(w, {
            m = shoc_spmv_active(c, row0, live, w->v[0]);
            wc_gen_mem_list(o, 0x30, WC_OP_LDG, m, 7, 5, 4);
            shoc_spmv_gather(c, o, row0, w->v[0], SS_VAL);
        });
        WC_CO_EMIT(w, {
            m = shoc_spmv_active(c, row0, live, w->v[0]);
            wc_gen_mem_list(o, 0x38, WC_OP_LDG, m, 8, 6, 4);
            shoc_spmv_gather(c, o, row0, w->v[0], SS_VEC);
        });
        WC_CO_EMIT(w, wc_gen_alu(o, 0x40, shoc_spmv_active(c, row0, live, w->v[0]), 9, 7, 8));
        WC_CO_EMIT(w, wc_gen_alu(o, 0x48, shoc_spmv_active(c, row0, live, w->v[0]), 5, 5, 4));
    }
    WC_CO_EMIT(w, wc_gen_mem(o, 0x50, WC_OP_STG, live, 9, 2, 4, SS_OUT + row0 * 4, 4));
    WC_CO_END(w);
}

static int shoc_spmv_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    shoc_spmv_ctx *c = ctx;
    if (idx >= c->launches) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "spmv_csr_scalar_kernel");
    out->k.block = (wc_dim3){SS_BLOCK, 1, 1};
    out->k.grid = (wc_dim3){(uint32_t)((c->dim + SS_BLOCK - 1) / SS_BLOCK), 1, 1};
    out->k.regs_per_thread = 16;
    out->next = shoc_spmv_next;
    return 1;
}

static wc_source *open_shoc_spmv(wc_params *p, uint64_t seed, wc_err *err)
{
    shoc_spmv_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "shoc/spmv: out of memory");
        return NULL;
    }
    /* rows up to 46340: SHOC computes dim*dim in an int */
    if (wc_params_u64(p, "rows", 1024, 1, 46340, &c->dim, err) < 0 ||
        wc_params_u64(p, "launches", 100, 1, 100000, &c->launches, err) < 0 ||
        shoc_spmv_build(c, err) < 0) {
        shoc_spmv_destroy(c);
        return NULL;
    }
    wc_gen_program prog = {.ctx = c, .kernel = shoc_spmv_kernel, .destroy = shoc_spmv_destroy};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_shoc_spmv = {
    .name = "shoc/spmv",
    .suite = "shoc",
    .kernels = "spmv_csr_scalar_kernel x launches",
    .size = "rows=1024 (SHOC's -s 1; 1 % nonzeros, SHOC's seeded random matrix) launches=100",
    .classes = "002:thrashing",
    .help = "SHOC Spmv, CSR scalar kernel (one thread per row) on SHOC's random matrix; rows "
            "(SHOC -s 1..4: 1024, 8192, 12288, 16384), launches",
    .open = open_shoc_spmv,
};
WC_PLUGIN(workload, wc_wl_shoc_spmv, 575);
