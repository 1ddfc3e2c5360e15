/*
 * linalg.c - PolyBench/GPU 1.0 linear-algebra kernels as affine programs
 * (pb.h): atax, bicg, gesummv, mvt, syrk, syr2k, gemm, 2mm, 3mm, gemver,
 * doitgen.
 *
 * Index expressions, guards, loop bounds, launch shapes and allocation
 * order follow the PolyBench/GPU 1.0 CUDA sources (facts recorded in
 * ../shared/specs/workloads.md and docs/workloads-polybench.md).  Seed 004
 * (004_0fcfedff3b0ef5ba.txt, section 2.4) classes these kernels as IW (atax,
 * bicg, gesummv, mvt), XW (syrk, syr2k) and CI (gemm, 2mm, 3mm).
 *
 * Loads of one statement are emitted in source order, right-hand side first,
 * then the accumulator (pb_acc_*, policy `rmw`); each multiply-add is one
 * ALU op reading the loaded registers, and each loop iteration adds two ALU
 * ops of loop overhead (pb_loop_tail).
 */
#include "workloads/polybench/pb.h"

#define B256  ((wc_dim3){256, 1, 1})
#define B32x8 ((wc_dim3){32, 8, 1})

static wc_dim3 grid1(uint32_t x)
{
    return (wc_dim3){x, 1, 1};
}

static wc_dim3 grid2(uint32_t x, uint32_t y)
{
    return (wc_dim3){x, y, 1};
}

/*
 * One thread per output element out[gx] (1-D blocks of 256):
 *   if (gx < n) { init out[gx]; for l1 < len: out[gx] += (scale*) m[mi] * v[vi] }
 */
typedef struct dot_desc {
    const char *name;
    uint32_t blocks;
    uint64_t n, len;
    unsigned out, mat, vec;
    pb_aff mi, vi;
    enum pb_init init;
    bool scaled; /* an extra multiply by a constant (BETA*a, ALPHA*a) */
} dot_desc;

/* The multiply-add of copy u: (scale,) accumulate. */
static void dot_madd(pb_prog *pg, const dot_desc *d, unsigned u)
{
    if (d->scaled) pb_alu(pg, pb_ureg(1, u), pb_ureg(1, u), WC_REG_NONE, WC_REG_NONE);
    pb_alu(pg, R_ACC, pb_ureg(1, u), pb_ureg(2, u), R_ACC);
}

/* One trip of the inner loop doing `copies` iterations: iteration u reads
 * l1 = c*k + u + base.  With the accumulator in a register (rmw=0) the
 * copies' loads come first, as nvcc schedules an unrolled loop; with rmw>=1
 * every copy stores the accumulator, which may alias the matrix or the
 * vector (no __restrict__ in PolyBench/GPU), so the copies stay in order. */
static void dot_trip(pb_prog *pg, const dot_desc *d, unsigned copies, int64_t k, int64_t base)
{
    pb_aff at = AFF(.gx = 1);
    for (unsigned u = 0; u < copies; u++) {
        pb_ld(pg, d->mat, pb_aff_unroll(d->mi, k, base + u), pb_ureg(1, u));
        pb_ld(pg, d->vec, pb_aff_unroll(d->vi, k, base + u), pb_ureg(2, u));
        if (pg->rmw == 0) continue;
        pb_acc_load(pg, d->out, at, R_ACC);
        dot_madd(pg, d, u);
        pb_acc_store(pg, d->out, at, R_ACC);
    }
    for (unsigned u = 0; pg->rmw == 0 && u < copies; u++) dot_madd(pg, d, u);
    pb_loop_tail(pg);
}

/* The inner loop, unrolled pg->unroll times, and its remainder loop. */
static void dot_loop(pb_prog *pg, const dot_desc *d)
{
    int64_t len = (int64_t)d->len, k = (int64_t)pg->unroll;
    if (len / k > 0) {
        pb_loop(pg, 0, len / k);
        dot_trip(pg, d, (unsigned)k, k, 0);
        pb_end(pg);
    }
    if (k > 1 && len % k) {
        pb_loop(pg, 0, len % k);
        dot_trip(pg, d, 1, 1, len / k * k);
        pb_end(pg);
    }
}

static unsigned dot_kernel(pb_prog *pg, const dot_desc *d)
{
    unsigned k = pb_kernel(pg, d->name, grid1(d->blocks), B256);
    pb_aff at = AFF(.gx = 1);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1), 0, (int64_t)d->n));
    pb_acc_pre(pg, d->out, at, R_ACC, d->init);
    dot_loop(pg, d);
    pb_acc_post(pg, d->out, at, R_ACC);
    pb_phase_add(pg, k, false, 0, 1);
    return k;
}

/* ---- atax ---------------------------------------------------------------- */

int pb_build_atax(pb_prog *pg, uint64_t nx, uint64_t ny, bool k1, bool k2)
{
    unsigned A = pb_array(pg, nx * ny), x = pb_array(pg, ny), y = pb_array(pg, ny);
    unsigned tmp = pb_array(pg, nx);
    if (k1) /* tmp[i] += A[i*NY+j] * x[j] */
        dot_kernel(pg,
                   &(dot_desc){"atax_kernel1", pb_ceil_div(nx, 256), nx, ny, tmp, A, x,
                               AFF(.gx = (int64_t)ny, .l1 = 1), AFF(.l1 = 1), PB_INIT_NONE, false});
    if (k2) /* y[j] += A[i*NY+j] * tmp[i] */
        dot_kernel(pg,
                   &(dot_desc){"atax_kernel2", pb_ceil_div(ny, 256), ny, nx, y, A, tmp,
                               AFF(.gx = 1, .l1 = (int64_t)ny), AFF(.l1 = 1), PB_INIT_NONE, false});
    return 0;
}

static int read_dims(wc_params *p, double *s, int *rmw, wc_err *err)
{
    if (pb_scale(p, s, err) < 0) return -1;
    return rmw ? pb_rmw(p, rmw, err) : 0;
}

/* The preamble most kernels share: scale, rmw and two dimensions read, then a
 * new program; NULL (with err set) on a bad parameter. */
static pb_prog *open_2d(wc_params *p, const char *na, uint64_t da, uint64_t *a, const char *nb,
                        uint64_t db, uint64_t *b, wc_err *err)
{
    double s;
    int rmw;
    if (read_dims(p, &s, &rmw, err) < 0 || pb_dim(p, na, da, s, a, err) < 0 ||
        pb_dim(p, nb, db, s, b, err) < 0)
        return NULL;
    return pb_prog_new(rmw, err);
}

/* open_2d for the kernels that take unroll=K too. */
static pb_prog *open_2d_unroll(wc_params *p, const char *na, uint64_t da, uint64_t *a,
                               const char *nb, uint64_t db, uint64_t *b, wc_err *err)
{
    unsigned unroll;
    if (pb_unroll(p, &unroll, err) < 0) return NULL;
    pb_prog *pg = open_2d(p, na, da, a, nb, db, b, err);
    if (pg) pg->unroll = unroll;
    return pg;
}

static wc_source *open_atax(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t nx, ny;
    pb_prog *pg = open_2d_unroll(p, "nx", 4096, &nx, "ny", 4096, &ny, err);
    if (!pg) return NULL;
    pb_build_atax(pg, nx, ny, true, true);
    return pb_finish(pg, 1, err);
}

/* ---- bicg ---------------------------------------------------------------- */

static wc_source *open_bicg(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t nx, ny;
    pb_prog *pg = open_2d_unroll(p, "nx", 4096, &nx, "ny", 4096, &ny, err);
    if (!pg) return NULL;
    unsigned A = pb_array(pg, nx * ny), r = pb_array(pg, nx), sv = pb_array(pg, ny);
    unsigned pv = pb_array(pg, ny), q = pb_array(pg, nx);
    /* s[j] = 0; s[j] += A[i*NY+j] * r[i] */
    dot_kernel(pg, &(dot_desc){"bicg_kernel1", pb_ceil_div(ny, 256), ny, nx, sv, A, r,
                               AFF(.gx = 1, .l1 = (int64_t)ny), AFF(.l1 = 1), PB_INIT_ZERO, false});
    /* q[i] = 0; q[i] += A[i*NY+j] * p[j] */
    dot_kernel(pg, &(dot_desc){"bicg_kernel2", pb_ceil_div(nx, 256), nx, ny, q, A, pv,
                               AFF(.gx = (int64_t)ny, .l1 = 1), AFF(.l1 = 1), PB_INIT_ZERO, false});
    return pb_finish(pg, 1, err);
}

/* ---- mvt ----------------------------------------------------------------- */

static wc_source *open_mvt(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    int rmw;
    uint64_t n;
    unsigned unroll;
    if (read_dims(p, &s, &rmw, err) < 0 || pb_dim(p, "n", 4096, s, &n, err) < 0 ||
        pb_unroll(p, &unroll, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    pg->unroll = unroll;
    unsigned a = pb_array(pg, n * n), x1 = pb_array(pg, n), x2 = pb_array(pg, n);
    unsigned y1 = pb_array(pg, n), y2 = pb_array(pg, n);
    int64_t N = (int64_t)n;
    /* x1[i] += a[i*N+j] * y_1[j] */
    dot_kernel(pg, &(dot_desc){"mvt_kernel1", pb_ceil_div(n, 256), n, n, x1, a, y1,
                               AFF(.gx = N, .l1 = 1), AFF(.l1 = 1), PB_INIT_NONE, false});
    /* x2[i] += a[j*N+i] * y_2[j] */
    dot_kernel(pg, &(dot_desc){"mvt_kernel2", pb_ceil_div(n, 256), n, n, x2, a, y2,
                               AFF(.gx = 1, .l1 = N), AFF(.l1 = 1), PB_INIT_NONE, false});
    return pb_finish(pg, 1, err);
}

/* ---- gesummv ------------------------------------------------------------- */

typedef struct gesummv_arrs {
    unsigned A, B, x, y, tmp;
    int64_t n;
} gesummv_arrs;

/* One trip of gesummv's loop doing `copies` iterations (l1 = c*k + u + base),
 * in dot_trip's order: unrolled with rmw=0, every copy's loads come first
 * (not unrolled, the original order). */
static void gesummv_trip(pb_prog *pg, gesummv_arrs a, unsigned copies, int64_t k, int64_t base)
{
    int64_t N = a.n;
    bool hoist = pg->rmw == 0 && pg->unroll > 1;
    pb_aff at = AFF(.gx = 1), row = AFF(.gx = N, .l1 = 1), xj = AFF(.l1 = 1);
    for (unsigned u = 0; u < copies; u++) {
        pb_aff ru = pb_aff_unroll(row, k, base + u), xu = pb_aff_unroll(xj, k, base + u);
        unsigned r1 = pb_ureg(1, u), r2 = pb_ureg(2, u), r3 = pb_ureg(3, u);
        if (hoist) { /* no store in the loop: the loads of all copies first */
            pb_ld(pg, a.A, ru, r1);
            pb_ld(pg, a.x, xu, r2);
            pb_ld(pg, a.B, ru, r3);
            continue;
        }
        /* tmp[i] += a[i*N+j] * x[j] */
        pb_ld(pg, a.A, ru, r1);
        pb_ld(pg, a.x, xu, r2);
        pb_acc_load(pg, a.tmp, at, R_ACC);
        pb_alu(pg, R_ACC, r1, r2, R_ACC);
        pb_acc_store(pg, a.tmp, at, R_ACC);
        /* y[i] += b[i*N+j] * x[j]: x[j] is reloaded only after an intervening store */
        pb_ld(pg, a.B, ru, r3);
        if (pg->rmw >= 1) pb_ld(pg, a.x, xu, r2);
        pb_acc_load(pg, a.y, at, R_ACC2);
        pb_alu(pg, R_ACC2, r3, r2, R_ACC2);
        pb_acc_store(pg, a.y, at, R_ACC2);
    }
    for (unsigned u = 0; hoist && u < copies; u++) {
        pb_alu(pg, R_ACC, pb_ureg(1, u), pb_ureg(2, u), R_ACC);
        pb_alu(pg, R_ACC2, pb_ureg(3, u), pb_ureg(2, u), R_ACC2);
    }
    pb_loop_tail(pg);
}

static wc_source *open_gesummv(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    int rmw;
    uint64_t n;
    unsigned unroll;
    if (read_dims(p, &s, &rmw, err) < 0 || pb_dim(p, "n", 4096, s, &n, err) < 0 ||
        pb_unroll(p, &unroll, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    pg->unroll = unroll;
    unsigned A = pb_array(pg, n * n), B = pb_array(pg, n * n), x = pb_array(pg, n);
    unsigned y = pb_array(pg, n), tmp = pb_array(pg, n);
    int64_t N = (int64_t)n;
    pb_aff at = AFF(.gx = 1);
    unsigned kid = pb_kernel(pg, "gesummv_kernel", grid1(pb_ceil_div(n, 256)), B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1), 0, N));
    pb_acc_pre(pg, tmp, at, R_ACC, PB_INIT_NONE);
    pb_acc_pre(pg, y, at, R_ACC2, PB_INIT_NONE);
    int64_t k = (int64_t)unroll;
    if (N / k > 0) {
        pb_loop(pg, 0, N / k);
        gesummv_trip(pg, (gesummv_arrs){A, B, x, y, tmp, N}, (unsigned)k, k, 0);
        pb_end(pg);
    }
    if (k > 1 && N % k) { /* the remainder loop */
        pb_loop(pg, 0, N % k);
        gesummv_trip(pg, (gesummv_arrs){A, B, x, y, tmp, N}, 1, 1, N / k * k);
        pb_end(pg);
    }
    /* y[i] = ALPHA * tmp[i] + BETA * y[i] */
    pb_acc_post(pg, tmp, at, R_ACC);
    if (pg->rmw == 1) {
        pb_ld(pg, tmp, at, R_ACC);
        pb_ld(pg, y, at, R_ACC2);
    }
    pb_alu(pg, R_ACC2, R_ACC2, WC_REG_NONE, WC_REG_NONE);
    pb_alu(pg, R_ACC2, R_ACC, R_ACC2, WC_REG_NONE);
    pb_st(pg, y, at, R_ACC2);
    pb_phase_add(pg, kid, false, 0, 1);
    return pb_finish(pg, 1, err);
}

/* ---- gemm-like 2-D kernels ----------------------------------------------- */

/*
 * Blocks 32x8, j = gx, i = gy:
 *   if (i < rows && j < cols) { init out[i*os + j]; for k < len: out += (ALPHA*) a[ai] * b[bi] }
 */
typedef struct mm_desc {
    const char *name;
    wc_dim3 grid;
    uint64_t rows, cols, len;
    unsigned out, a, b;
    int64_t os;
    pb_aff ai, bi;
    enum pb_init init;
    bool alpha;
} mm_desc;

static unsigned mm_kernel(pb_prog *pg, const mm_desc *d)
{
    unsigned k = pb_kernel(pg, d->name, d->grid, B32x8);
    pb_aff at = AFF(.gx = 1, .gy = d->os);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gy = 1), 0, (int64_t)d->rows) |
                     pb_cons(pg, AFF(.gx = 1), 0, (int64_t)d->cols));
    pb_acc_pre(pg, d->out, at, R_ACC, d->init);
    pb_loop(pg, 0, (int64_t)d->len);
    pb_ld(pg, d->a, d->ai, 1);
    pb_ld(pg, d->b, d->bi, 2);
    pb_acc_load(pg, d->out, at, R_ACC);
    if (d->alpha) pb_alu(pg, 1, 1, WC_REG_NONE, WC_REG_NONE);
    pb_alu(pg, R_ACC, 1, 2, R_ACC);
    pb_acc_store(pg, d->out, at, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    pb_acc_post(pg, d->out, at, R_ACC);
    pb_phase_add(pg, k, false, 0, 1);
    return k;
}

int pb_build_syrk(pb_prog *pg, uint64_t n, uint64_t m, uint64_t iters)
{
    unsigned A = pb_array(pg, n * m), C = pb_array(pg, n * n);
    int64_t M = (int64_t)m;
    /* c[i*N+j] *= beta; c[i*N+j] += alpha * a[i*M+k] * a[j*M+k] */
    mm_kernel(pg, &(mm_desc){"syrk_kernel", grid2(pb_ceil_div(n, 32), pb_ceil_div(n, 8)), n, n,
                             iters, C, A, A, (int64_t)n, AFF(.gy = M, .l1 = 1),
                             AFF(.gx = M, .l1 = 1), PB_INIT_SCALE, true});
    return 0;
}

static wc_source *open_syrk(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t n, m;
    pb_prog *pg = open_2d(p, "n", 1024, &n, "m", 1024, &m, err);
    if (!pg) return NULL;
    pb_build_syrk(pg, n, m, m);
    return pb_finish(pg, 1, err);
}

static wc_source *open_syr2k(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t n, m;
    pb_prog *pg = open_2d(p, "n", 2048, &n, "m", 2048, &m, err);
    if (!pg) return NULL;
    unsigned A = pb_array(pg, n * m), B = pb_array(pg, n * m), C = pb_array(pg, n * n);
    int64_t N = (int64_t)n, M = (int64_t)m;
    pb_aff at = AFF(.gx = 1, .gy = N);
    unsigned k = pb_kernel(pg, "syr2k_kernel", grid2(pb_ceil_div(n, 32), pb_ceil_div(n, 8)), B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gy = 1), 0, N) | pb_cons(pg, AFF(.gx = 1), 0, N));
    pb_acc_pre(pg, C, at, R_ACC, PB_INIT_SCALE);
    pb_loop(pg, 0, M);
    /* c[i*N+j] += ALPHA*a[i*M+k]*b[j*M+k] + ALPHA*b[i*M+k]*a[j*M+k] */
    pb_ld(pg, A, AFF(.gy = M, .l1 = 1), 1);
    pb_ld(pg, B, AFF(.gx = M, .l1 = 1), 2);
    pb_ld(pg, B, AFF(.gy = M, .l1 = 1), 3);
    pb_ld(pg, A, AFF(.gx = M, .l1 = 1), 4);
    pb_acc_load(pg, C, at, R_ACC);
    pb_alu(pg, 1, 1, WC_REG_NONE, WC_REG_NONE);
    pb_alu(pg, 5, 1, 2, WC_REG_NONE);
    pb_alu(pg, 3, 3, WC_REG_NONE, WC_REG_NONE);
    pb_alu(pg, 5, 3, 4, 5);
    pb_alu(pg, R_ACC, 5, R_ACC, WC_REG_NONE);
    pb_acc_store(pg, C, at, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    pb_acc_post(pg, C, at, R_ACC);
    pb_phase_add(pg, k, false, 0, 1);
    return pb_finish(pg, 1, err);
}

static wc_source *open_gemm(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    int rmw;
    uint64_t ni, nj, nk;
    if (read_dims(p, &s, &rmw, err) < 0 || pb_dim(p, "ni", 512, s, &ni, err) < 0 ||
        pb_dim(p, "nj", 512, s, &nj, err) < 0 || pb_dim(p, "nk", 512, s, &nk, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    unsigned A = pb_array(pg, ni * nk), B = pb_array(pg, nk * nj), C = pb_array(pg, ni * nj);
    /* grid (ceil(NI/32), ceil(NJ/8)) as in the source; c[i*NJ+j] *= BETA;
     * c[i*NJ+j] += ALPHA * a[i*NK+k] * b[k*NJ+j] */
    mm_kernel(pg, &(mm_desc){"gemm_kernel", grid2(pb_ceil_div(ni, 32), pb_ceil_div(nj, 8)), ni, nj,
                             nk, C, A, B, (int64_t)nj, AFF(.gy = (int64_t)nk, .l1 = 1),
                             AFF(.gx = 1, .l1 = (int64_t)nj), PB_INIT_SCALE, true});
    return pb_finish(pg, 1, err);
}

static wc_source *open_2mm(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    int rmw;
    uint64_t ni, nj, nk, nl;
    if (read_dims(p, &s, &rmw, err) < 0 || pb_dim(p, "ni", 2048, s, &ni, err) < 0 ||
        pb_dim(p, "nj", 2048, s, &nj, err) < 0 || pb_dim(p, "nk", 2048, s, &nk, err) < 0 ||
        pb_dim(p, "nl", 2048, s, &nl, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    unsigned A = pb_array(pg, ni * nk), B = pb_array(pg, nk * nj), C = pb_array(pg, ni * nj);
    unsigned D = pb_array(pg, nj * nl), E = pb_array(pg, ni * nl);
    /* C[i*NJ+j] += A[i*NK+k] * B[k*NJ+j] */
    mm_kernel(pg, &(mm_desc){"mm2_kernel1", grid2(pb_ceil_div(nj, 32), pb_ceil_div(ni, 8)), ni, nj,
                             nk, C, A, B, (int64_t)nj, AFF(.gy = (int64_t)nk, .l1 = 1),
                             AFF(.gx = 1, .l1 = (int64_t)nj), PB_INIT_NONE, false});
    /* E[i*NL+j] += C[i*NJ+k] * D[k*NL+j] */
    mm_kernel(pg, &(mm_desc){"mm2_kernel2", grid2(pb_ceil_div(nl, 32), pb_ceil_div(ni, 8)), ni, nl,
                             nj, E, C, D, (int64_t)nl, AFF(.gy = (int64_t)nj, .l1 = 1),
                             AFF(.gx = 1, .l1 = (int64_t)nl), PB_INIT_NONE, false});
    return pb_finish(pg, 1, err);
}

static wc_source *open_3mm(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    int rmw;
    uint64_t ni, nj, nk, nl, nm;
    if (read_dims(p, &s, &rmw, err) < 0 || pb_dim(p, "ni", 512, s, &ni, err) < 0 ||
        pb_dim(p, "nj", 512, s, &nj, err) < 0 || pb_dim(p, "nk", 512, s, &nk, err) < 0 ||
        pb_dim(p, "nl", 512, s, &nl, err) < 0 || pb_dim(p, "nm", 512, s, &nm, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    unsigned A = pb_array(pg, ni * nk), B = pb_array(pg, nk * nj), C = pb_array(pg, nj * nm);
    unsigned D = pb_array(pg, nm * nl), E = pb_array(pg, ni * nj), F = pb_array(pg, nj * nl);
    unsigned G = pb_array(pg, ni * nl);
    /* E[i*NJ+j] += A[i*NK+k] * B[k*NJ+j] */
    mm_kernel(pg, &(mm_desc){"mm3_kernel1", grid2(pb_ceil_div(nj, 32), pb_ceil_div(ni, 8)), ni, nj,
                             nk, E, A, B, (int64_t)nj, AFF(.gy = (int64_t)nk, .l1 = 1),
                             AFF(.gx = 1, .l1 = (int64_t)nj), PB_INIT_NONE, false});
    /* F[i*NL+j] += C[i*NM+k] * D[k*NL+j], i < NJ */
    mm_kernel(pg, &(mm_desc){"mm3_kernel2", grid2(pb_ceil_div(nl, 32), pb_ceil_div(nj, 8)), nj, nl,
                             nm, F, C, D, (int64_t)nl, AFF(.gy = (int64_t)nm, .l1 = 1),
                             AFF(.gx = 1, .l1 = (int64_t)nl), PB_INIT_NONE, false});
    /* G[i*NL+j] += E[i*NJ+k] * F[k*NL+j] */
    mm_kernel(pg, &(mm_desc){"mm3_kernel3", grid2(pb_ceil_div(nl, 32), pb_ceil_div(ni, 8)), ni, nl,
                             nj, G, E, F, (int64_t)nl, AFF(.gy = (int64_t)nj, .l1 = 1),
                             AFF(.gx = 1, .l1 = (int64_t)nl), PB_INIT_NONE, false});
    return pb_finish(pg, 1, err);
}

/* ---- gemver -------------------------------------------------------------- */

static wc_source *open_gemver(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    int rmw;
    uint64_t n;
    if (read_dims(p, &s, &rmw, err) < 0 || pb_dim(p, "n", 4096, s, &n, err) < 0) return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    int64_t N = (int64_t)n;
    unsigned A = pb_array(pg, n * n);
    (void)pb_array(pg, n * n); /* B: allocated by the source, never touched */
    unsigned x = pb_array(pg, n), y = pb_array(pg, n), z = pb_array(pg, n), w = pb_array(pg, n);
    unsigned v1 = pb_array(pg, n), v2 = pb_array(pg, n), u1 = pb_array(pg, n);
    unsigned u2 = pb_array(pg, n);
    /* Grids are (size_t)(ceil((float)N) / bs): truncated, as in the source. */
    unsigned k1 =
        pb_kernel(pg, "gemver_kernel1", grid2((uint32_t)(n / 32), (uint32_t)(n / 8)), B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gy = 1), 0, N) | pb_cons(pg, AFF(.gx = 1), 0, N));
    /* a[i*N+j] += u1[i]*v1[j] + u2[i]*v2[j] (a single statement: one load, one store) */
    pb_ld(pg, u1, AFF(.gy = 1), 1);
    pb_ld(pg, v1, AFF(.gx = 1), 2);
    pb_ld(pg, u2, AFF(.gy = 1), 3);
    pb_ld(pg, v2, AFF(.gx = 1), 4);
    pb_ld(pg, A, AFF(.gx = 1, .gy = N), 5);
    pb_alu(pg, 1, 1, 2, WC_REG_NONE);
    pb_alu(pg, 1, 3, 4, 1);
    pb_alu(pg, 5, 5, 1, WC_REG_NONE);
    pb_st(pg, A, AFF(.gx = 1, .gy = N), 5);
    pb_phase_add(pg, k1, false, 0, 1);

    /* x[i] += BETA * a[j*N+i] * y[j]; then x[i] += z[i] */
    pb_aff at = AFF(.gx = 1);
    unsigned k2 = pb_kernel(pg, "gemver_kernel2", grid1((uint32_t)(n / 256)), B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1), 0, N));
    pb_acc_pre(pg, x, at, R_ACC, PB_INIT_NONE);
    pb_loop(pg, 0, N);
    pb_ld(pg, A, AFF(.gx = 1, .l1 = N), 1);
    pb_ld(pg, y, AFF(.l1 = 1), 2);
    pb_acc_load(pg, x, at, R_ACC);
    pb_alu(pg, 1, 1, WC_REG_NONE, WC_REG_NONE);
    pb_alu(pg, R_ACC, 1, 2, R_ACC);
    pb_acc_store(pg, x, at, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    pb_ld(pg, z, at, 3);
    if (pg->rmw == 1) pb_ld(pg, x, at, R_ACC);
    pb_alu(pg, R_ACC, R_ACC, 3, WC_REG_NONE);
    pb_st(pg, x, at, R_ACC);
    pb_phase_add(pg, k2, false, 0, 1);

    /* w[i] += ALPHA * a[i*N+j] * x[j] */
    dot_kernel(pg, &(dot_desc){"gemver_kernel3", (uint32_t)(n / 256), n, n, w, A, x,
                               AFF(.gx = N, .l1 = 1), AFF(.l1 = 1), PB_INIT_NONE, true});
    return pb_finish(pg, 1, err);
}

/* ---- doitgen ------------------------------------------------------------- */

static wc_source *open_doitgen(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    int rmw;
    uint64_t nr, nq, np;
    if (read_dims(p, &s, &rmw, err) < 0 || pb_dim(p, "nr", 128, s, &nr, err) < 0 ||
        pb_dim(p, "nq", 128, s, &nq, err) < 0 || pb_dim(p, "np", 128, s, &np, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    unsigned A = pb_array(pg, nr * nq * np), C4 = pb_array(pg, np * np);
    unsigned sum = pb_array(pg, nr * nq * np);
    int64_t NQ = (int64_t)nq, NP = (int64_t)np;
    /* grid (ceil(NP/32), ceil(NR/8)) as in the source (NR, not NQ); P = r */
    wc_dim3 g = grid2(pb_ceil_div(np, 32), pb_ceil_div(nr, 8));
    pb_aff at = AFF(.gx = 1, .gy = NP, .p = NQ * NP);
    unsigned k1 = pb_kernel(pg, "doitgen_kernel1", g, B32x8);
    pb_prologue(pg, true);
    uint16_t guard = pb_cons(pg, AFF(.gx = 1), 0, NP) | pb_cons(pg, AFF(.gy = 1), 0, NQ);
    pb_guard(pg, guard);
    /* sum[r][q][p] = 0; for s: sum[r][q][p] = sum[r][q][p] + A[r][q][s] * C4[s][p] */
    pb_acc_pre(pg, sum, at, R_ACC, PB_INIT_ZERO);
    pb_loop(pg, 0, NP);
    pb_acc_load(pg, sum, at, R_ACC); /* the source reads sum first */
    pb_ld(pg, A, AFF(.gy = NP, .l1 = 1, .p = NQ * NP), 1);
    pb_ld(pg, C4, AFF(.gx = 1, .l1 = NP), 2);
    pb_alu(pg, R_ACC, 1, 2, R_ACC);
    pb_acc_store(pg, sum, at, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    pb_acc_post(pg, sum, at, R_ACC);
    unsigned k2 = pb_kernel(pg, "doitgen_kernel2", g, B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1), 0, NP) | pb_cons(pg, AFF(.gy = 1), 0, NQ));
    pb_ld(pg, sum, at, 1);
    pb_st(pg, A, at, 1);
    pb_phase_add(pg, k1, true, 0, 1);
    pb_phase_add(pg, k2, true, 0, 1);
    return pb_finish(pg, nr, err);
}

/* ---- registry entries ---------------------------------------------------- */

#define PB_SCALE_HELP "scale=f multiplies every dimension (default 1); rmw=0|1|2 accumulator policy"

const wc_workload wc_wl_pb_atax = {
    .name = "polybench/atax",
    .suite = "polybench",
    .kernels = "atax_kernel1 atax_kernel2",
    .size = "nx=4096 ny=4096",
    .classes = "004:IW",
    .help = "y = A^T (A x); nx, ny; " PB_SCALE_HELP,
    .open = open_atax,
};
WC_PLUGIN(workload, wc_wl_pb_atax, 40);

const wc_workload wc_wl_pb_bicg = {
    .name = "polybench/bicg",
    .suite = "polybench",
    .kernels = "bicg_kernel1 bicg_kernel2",
    .size = "nx=4096 ny=4096",
    .classes = "004:IW",
    .help = "BiCG sub-kernel s = A^T r, q = A p; nx, ny; " PB_SCALE_HELP,
    .open = open_bicg,
};
WC_PLUGIN(workload, wc_wl_pb_bicg, 50);

const wc_workload wc_wl_pb_gesummv = {
    .name = "polybench/gesummv",
    .suite = "polybench",
    .kernels = "gesummv_kernel",
    .size = "n=4096",
    .classes = "002:thrashing 002:conflict 004:IW",
    .help = "y = alpha A x + beta B x; n; " PB_SCALE_HELP,
    .open = open_gesummv,
};
WC_PLUGIN(workload, wc_wl_pb_gesummv, 60);

const wc_workload wc_wl_pb_mvt = {
    .name = "polybench/mvt",
    .suite = "polybench",
    .kernels = "mvt_kernel1 mvt_kernel2",
    .size = "n=4096",
    .classes = "004:IW",
    .help = "x1 += A y1, x2 += A^T y2; n; " PB_SCALE_HELP,
    .open = open_mvt,
};
WC_PLUGIN(workload, wc_wl_pb_mvt, 70);

const wc_workload wc_wl_pb_syrk = {
    .name = "polybench/syrk",
    .suite = "polybench",
    .kernels = "syrk_kernel",
    .size = "n=1024 m=1024",
    .classes = "002:thrashing 002:conflict 004:XW",
    .help = "C = alpha A A^T + beta C; n, m; " PB_SCALE_HELP,
    .open = open_syrk,
};
WC_PLUGIN(workload, wc_wl_pb_syrk, 80);

const wc_workload wc_wl_pb_syr2k = {
    .name = "polybench/syr2k",
    .suite = "polybench",
    .kernels = "syr2k_kernel",
    .size = "n=2048 m=2048",
    .classes = "004:XW",
    .help = "C = alpha A B^T + alpha B A^T + beta C; n, m; " PB_SCALE_HELP,
    .open = open_syr2k,
};
WC_PLUGIN(workload, wc_wl_pb_syr2k, 90);

const wc_workload wc_wl_pb_gemm = {
    .name = "polybench/gemm",
    .suite = "polybench",
    .kernels = "gemm_kernel",
    .size = "ni=512 nj=512 nk=512",
    .classes = "004:CI",
    .help = "C = alpha A B + beta C; ni, nj, nk; " PB_SCALE_HELP,
    .open = open_gemm,
};
WC_PLUGIN(workload, wc_wl_pb_gemm, 100);

const wc_workload wc_wl_pb_2mm = {
    .name = "polybench/2mm",
    .suite = "polybench",
    .kernels = "mm2_kernel1 mm2_kernel2",
    .size = "ni=nj=nk=nl=2048",
    .classes = "002:conflict 004:CI",
    .help = "C = A B; E = C D; ni, nj, nk, nl; " PB_SCALE_HELP,
    .open = open_2mm,
};
WC_PLUGIN(workload, wc_wl_pb_2mm, 110);

const wc_workload wc_wl_pb_3mm = {
    .name = "polybench/3mm",
    .suite = "polybench",
    .kernels = "mm3_kernel1 mm3_kernel2 mm3_kernel3",
    .size = "ni=nj=nk=nl=nm=512",
    .classes = "004:CI",
    .help = "E = A B; F = C D; G = E F; ni, nj, nk, nl, nm; " PB_SCALE_HELP,
    .open = open_3mm,
};
WC_PLUGIN(workload, wc_wl_pb_3mm, 120);

const wc_workload wc_wl_pb_gemver = {
    .name = "polybench/gemver",
    .suite = "polybench",
    .kernels = "gemver_kernel1 gemver_kernel2 gemver_kernel3",
    .size = "n=4096",
    .classes = "",
    .help = "A += u1 v1^T + u2 v2^T; x += beta A^T y + z; w += alpha A x; n; " PB_SCALE_HELP,
    .open = open_gemver,
};
WC_PLUGIN(workload, wc_wl_pb_gemver, 220);

const wc_workload wc_wl_pb_doitgen = {
    .name = "polybench/doitgen",
    .suite = "polybench",
    .kernels = "(doitgen_kernel1 doitgen_kernel2) x nr",
    .size = "nr=nq=np=128",
    .classes = "",
    .help = "multiresolution kernel, 2 launches per r < nr; nr, nq, np; " PB_SCALE_HELP,
    .open = open_doitgen,
};
WC_PLUGIN(workload, wc_wl_pb_doitgen, 210);
