/*
 * stencils.c - PolyBench/GPU 1.0 stencil kernels as affine programs (pb.h):
 * 2DConvolution, 3DConvolution, fdtd-2d, jacobi-2d, adi.
 *
 * These kernels have no loop-carried accumulators, so there is no `rmw`
 * parameter: every statement loads its operands at source level (values
 * loaded twice inside one expression are loaded once; after an intervening
 * store of the same thread they are loaded again, since the arrays may
 * alias).  Seed 004 (004_0fcfedff3b0ef5ba.txt, section 2.4) classes 2dconv,
 * 3dconv and fdtd as cache-insensitive (CI); seed 002
 * (002_549a998632bcde66.txt, Table 2) classes 2DCONV as conflict.
 */
#include "workloads/polybench/pb.h"

#define B256  ((wc_dim3){256, 1, 1})
#define B32x8 ((wc_dim3){32, 8, 1})

/* A chain of n dependent multiply-adds over r1..rn into `dst`. */
static void fma_chain(pb_prog *pg, unsigned dst, unsigned n)
{
    pb_alu(pg, dst, 1, WC_REG_NONE, WC_REG_NONE);
    for (unsigned r = 2; r <= n; r++) pb_alu(pg, dst, (unsigned)r, dst, WC_REG_NONE);
}

/* ---- 2DConvolution ------------------------------------------------------- */

static wc_source *open_2dconv(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    uint64_t ni, nj;
    if (pb_scale(p, &s, err) < 0 || pb_dim(p, "ni", 4096, s, &ni, err) < 0 ||
        pb_dim(p, "nj", 4096, s, &nj, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(1, err);
    if (!pg) return NULL;
    int64_t NI = (int64_t)ni, NJ = (int64_t)nj;
    unsigned A = pb_array(pg, ni * nj), B = pb_array(pg, ni * nj);
    /* j = gx, i = gy; grid (ceil(NI/32), ceil(NJ/8)) as in the source */
    unsigned k = pb_kernel(pg, "Convolution2D_kernel",
                           (wc_dim3){pb_ceil_div(ni, 32), pb_ceil_div(nj, 8), 1}, B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gy = 1), 1, NI - 1) | pb_cons(pg, AFF(.gx = 1), 1, NJ - 1));
    unsigned r = 1;
    for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++)
            pb_ld(pg, A, AFF(.c0 = di * NJ + dj, .gx = 1, .gy = NJ), r++);
    fma_chain(pg, R_ACC, 9);
    pb_st(pg, B, AFF(.gx = 1, .gy = NJ), R_ACC);
    pb_phase_add(pg, k, false, 0, 1);
    return pb_finish(pg, 1, err);
}

/* ---- 3DConvolution ------------------------------------------------------- */

/* The 15 loads of the source expression, as (di, dj, dk) offsets, in order. */
static const int8_t conv3d_taps[15][3] = {
    {-1, -1, -1}, {1, -1, -1}, {-1, -1, -1}, {1, -1, -1}, {-1, -1, -1},
    {1, -1, -1},  {0, -1, 0},  {0, 0, 0},    {0, 1, 0},   {-1, -1, 1},
    {1, -1, 1},   {-1, 0, 1},  {1, 0, 1},    {-1, 1, 1},  {1, 1, 1},
};

static wc_source *open_3dconv(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    uint64_t ni, nj, nk, cse;
    if (pb_scale(p, &s, err) < 0 || pb_dim(p, "ni", 256, s, &ni, err) < 0 ||
        pb_dim(p, "nj", 256, s, &nj, err) < 0 || pb_dim(p, "nk", 256, s, &nk, err) < 0 ||
        wc_params_u64(p, "cse", 0, 0, 1, &cse, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(1, err);
    if (!pg) return NULL;
    int64_t NI = (int64_t)ni, NJ = (int64_t)nj, NK = (int64_t)nk;
    unsigned A = pb_array(pg, ni * nj * nk), B = pb_array(pg, ni * nj * nk);
    /* k = gx, j = gy, i = P (host loop 1 .. NI-2); Idx(a,b,c) = a*NK*NJ + b*NK + c */
    unsigned k = pb_kernel(pg, "convolution3D_kernel",
                           (wc_dim3){pb_ceil_div(nk, 32), pb_ceil_div(nj, 8), 1}, B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.p = 1), 1, NI - 1) | pb_cons(pg, AFF(.gy = 1), 1, NJ - 1) |
                     pb_cons(pg, AFF(.gx = 1), 1, NK - 1));
    unsigned r = 0;
    for (unsigned t = 0; t < 15; t++) {
        /* cse=1: the compiler drops the two repeats of the first pair */
        if (cse && t >= 2 && t < 6) continue;
        const int8_t *d = conv3d_taps[t];
        pb_ld(pg, A, AFF(.c0 = d[0] * NK * NJ + d[1] * NK + d[2], .gx = 1, .gy = NK, .p = NK * NJ),
              1 + (r++ % 9));
    }
    for (unsigned t = 0; t < 15; t++)
        pb_alu(pg, R_ACC, 1 + t % 9, t ? R_ACC : WC_REG_NONE, WC_REG_NONE);
    pb_st(pg, B, AFF(.gx = 1, .gy = NK, .p = NK * NJ), R_ACC);
    pb_phase_add(pg, k, false, 1, ni >= 2 ? ni - 2 : 0);
    return pb_finish(pg, 1, err);
}

/* ---- fdtd-2d ------------------------------------------------------------- */

static wc_source *open_fdtd2d(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    uint64_t nx, ny, tmax;
    if (pb_scale(p, &s, err) < 0 || pb_dim(p, "nx", 2048, s, &nx, err) < 0 ||
        pb_dim(p, "ny", 2048, s, &ny, err) < 0 ||
        wc_params_u64(p, "tmax", 500, 1, 1u << 20, &tmax, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(1, err);
    if (!pg) return NULL;
    int64_t NX = (int64_t)nx, NY = (int64_t)ny;
    unsigned fict = pb_array(pg, tmax), ex = pb_array(pg, nx * (ny + 1));
    unsigned ey = pb_array(pg, (nx + 1) * ny), hz = pb_array(pg, nx * ny);
    wc_dim3 g = {pb_ceil_div(ny, 32), pb_ceil_div(nx, 8), 1};
    pb_aff eyij = AFF(.gx = 1, .gy = NY), hzij = AFF(.gx = 1, .gy = NY);
    pb_aff exij = AFF(.gx = 1, .gy = NY + 1);

    /* step 1: i == 0: ey[j] = fict[t]; else ey[i][j] -= 0.5*(hz[i][j] - hz[i-1][j]) */
    unsigned k1 = pb_kernel(pg, "fdtd_step1_kernel", g, B32x8);
    pb_prologue(pg, true);
    uint16_t in = pb_cons(pg, AFF(.gy = 1), 0, NX) | pb_cons(pg, AFF(.gx = 1), 0, NY);
    uint16_t row0 = pb_cons(pg, AFF(.gy = 1), 0, 1), rest = pb_cons(pg, AFF(.gy = 1), 1, PB_INF);
    pb_guard(pg, in);
    pb_alu(pg, WC_REG_NONE, R_GY, WC_REG_NONE, WC_REG_NONE); /* i == 0 ? */
    pb_guard(pg, in | row0);
    pb_ld(pg, fict, AFF(.p = 1), 1);
    pb_st(pg, ey, eyij, 1);
    pb_guard(pg, in | rest);
    pb_ld(pg, ey, eyij, 1);
    pb_ld(pg, hz, hzij, 2);
    pb_ld(pg, hz, AFF(.c0 = -NY, .gx = 1, .gy = NY), 3);
    pb_alu(pg, 2, 2, 3, WC_REG_NONE);
    pb_alu(pg, 1, 2, 1, WC_REG_NONE);
    pb_st(pg, ey, eyij, 1);

    /* step 2: 0 < j: ex[i][j] -= 0.5*(hz[i][j] - hz[i][j-1]) */
    unsigned k2 = pb_kernel(pg, "fdtd_step2_kernel", g, B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gy = 1), 0, NX) | pb_cons(pg, AFF(.gx = 1), 1, NY));
    pb_ld(pg, ex, exij, 1);
    pb_ld(pg, hz, hzij, 2);
    pb_ld(pg, hz, AFF(.c0 = -1, .gx = 1, .gy = NY), 3);
    pb_alu(pg, 2, 2, 3, WC_REG_NONE);
    pb_alu(pg, 1, 2, 1, WC_REG_NONE);
    pb_st(pg, ex, exij, 1);

    /* step 3: hz[i][j] -= 0.7*(ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j]) */
    unsigned k3 = pb_kernel(pg, "fdtd_step3_kernel", g, B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gy = 1), 0, NX) | pb_cons(pg, AFF(.gx = 1), 0, NY));
    pb_ld(pg, hz, hzij, 1);
    pb_ld(pg, ex, AFF(.c0 = 1, .gx = 1, .gy = NY + 1), 2);
    pb_ld(pg, ex, exij, 3);
    pb_ld(pg, ey, AFF(.c0 = NY, .gx = 1, .gy = NY), 4);
    pb_ld(pg, ey, eyij, 5);
    pb_alu(pg, 2, 2, 3, WC_REG_NONE);
    pb_alu(pg, 2, 2, 4, WC_REG_NONE);
    pb_alu(pg, 2, 2, 5, WC_REG_NONE);
    pb_alu(pg, 1, 2, 1, WC_REG_NONE);
    pb_st(pg, hz, hzij, 1);

    pb_phase_add(pg, k1, true, 0, 1);
    pb_phase_add(pg, k2, true, 0, 1);
    pb_phase_add(pg, k3, true, 0, 1);
    return pb_finish(pg, tmax, err);
}

/* ---- jacobi-2d ----------------------------------------------------------- */

static wc_source *open_jacobi2d(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    uint64_t n, tsteps;
    if (pb_scale(p, &s, err) < 0 || pb_dim(p, "n", 1000, s, &n, err) < 0 ||
        wc_params_u64(p, "tsteps", 20, 1, 1u << 20, &tsteps, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(1, err);
    if (!pg) return NULL;
    int64_t N = (int64_t)n;
    unsigned A = pb_array(pg, n * n), B = pb_array(pg, n * n);
    wc_dim3 g = {pb_ceil_div(n, 32), pb_ceil_div(n, 8), 1};
    pb_aff ij = AFF(.gx = 1, .gy = N);
    /* The 1.0 source guards with i > 1 and j > 1 (not >= 1). */
    unsigned k1 = pb_kernel(pg, "runJacobiCUDA_kernel1", g, B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gy = 1), 2, N - 1) | pb_cons(pg, AFF(.gx = 1), 2, N - 1));
    /* B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j]) */
    pb_ld(pg, A, ij, 1);
    pb_ld(pg, A, AFF(.c0 = -1, .gx = 1, .gy = N), 2);
    pb_ld(pg, A, AFF(.c0 = 1, .gx = 1, .gy = N), 3);
    pb_ld(pg, A, AFF(.c0 = N, .gx = 1, .gy = N), 4);
    pb_ld(pg, A, AFF(.c0 = -N, .gx = 1, .gy = N), 5);
    fma_chain(pg, R_ACC, 5);
    pb_st(pg, B, ij, R_ACC);
    unsigned k2 = pb_kernel(pg, "runJacobiCUDA_kernel2", g, B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gy = 1), 2, N - 1) | pb_cons(pg, AFF(.gx = 1), 2, N - 1));
    pb_ld(pg, B, ij, 1);
    pb_st(pg, A, ij, 1);
    pb_phase_add(pg, k1, true, 0, 1);
    pb_phase_add(pg, k2, true, 0, 1);
    return pb_finish(pg, tsteps, err);
}

/* ---- adi ----------------------------------------------------------------- */

/* X[x] = X[x] - X[xp] * A[a] / B[bp]; B[b] = B[b] - A[a] * A[a] / B[bp] */
static void adi_sweep_body(pb_prog *pg, unsigned A, unsigned B, unsigned X, pb_aff cur, pb_aff prev)
{
    pb_ld(pg, X, cur, 1);
    pb_ld(pg, X, prev, 2);
    pb_ld(pg, A, cur, 3);
    pb_ld(pg, B, prev, 4);
    pb_sfu(pg, 4, 4);
    pb_alu(pg, 2, 2, 3, WC_REG_NONE);
    pb_alu(pg, 1, 2, 4, 1);
    pb_st(pg, X, cur, 1);
    pb_ld(pg, B, cur, 5);
    pb_ld(pg, A, cur, 3);
    pb_ld(pg, B, prev, 4);
    pb_alu(pg, 3, 3, 3, WC_REG_NONE);
    pb_sfu(pg, 4, 4);
    pb_alu(pg, 5, 3, 4, 5);
    pb_st(pg, B, cur, 5);
}

/* X[x] = X[x] / B[x] */
static void adi_scale_body(pb_prog *pg, unsigned B, unsigned X, pb_aff at)
{
    pb_ld(pg, X, at, 1);
    pb_ld(pg, B, at, 2);
    pb_sfu(pg, 2, 2);
    pb_alu(pg, 1, 1, 2, WC_REG_NONE);
    pb_st(pg, X, at, 1);
}

/* X[x] = (X[x] - X[xm] * A[am]) / B[bm] */
static void adi_back_body(pb_prog *pg, unsigned A, unsigned B, unsigned X, pb_aff x, pb_aff xm,
                          pb_aff am, pb_aff bm)
{
    pb_ld(pg, X, x, 1);
    pb_ld(pg, X, xm, 2);
    pb_ld(pg, A, am, 3);
    pb_ld(pg, B, bm, 4);
    pb_alu(pg, 1, 2, 3, 1);
    pb_sfu(pg, 4, 4);
    pb_alu(pg, 1, 1, 4, WC_REG_NONE);
    pb_st(pg, X, x, 1);
}

static unsigned adi_kernel(pb_prog *pg, const char *name, uint64_t n)
{
    unsigned k = pb_kernel(pg, name, (wc_dim3){pb_ceil_div(n, 256), 1, 1}, B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1), 0, (int64_t)n));
    return k;
}

static wc_source *open_adi(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    uint64_t n, tsteps;
    if (pb_scale(p, &s, err) < 0 || pb_dim(p, "n", 1024, s, &n, err) < 0 ||
        wc_params_u64(p, "tsteps", 1, 1, 1u << 20, &tsteps, err) < 0)
        return NULL;
    if (n < 3) {
        wc_errf(err, "workload polybench/adi: n must be at least 3");
        return NULL;
    }
    pb_prog *pg = pb_prog_new(1, err);
    if (!pg) return NULL;
    int64_t N = (int64_t)n;
    unsigned A = pb_array(pg, n * n), B = pb_array(pg, n * n), X = pb_array(pg, n * n);

    /* kernel1: i1 = gx; for i2 = 1 .. N-1 along the row i1 */
    unsigned k1 = adi_kernel(pg, "adi_kernel1", n);
    pb_loop(pg, 1, N);
    adi_sweep_body(pg, A, B, X, AFF(.gx = N, .l1 = 1), AFF(.c0 = -1, .gx = N, .l1 = 1));
    pb_loop_tail(pg);
    pb_end(pg);
    /* kernel2: X[i1][N-1] /= B[i1][N-1] */
    unsigned k2 = adi_kernel(pg, "adi_kernel2", n);
    adi_scale_body(pg, B, X, AFF(.c0 = N - 1, .gx = N));
    /* kernel3: for i2 < N-2: X[i1][N-i2-2] = (X[i1][N-2-i2] - X[i1][N-3-i2]*A[i1][N-i2-3]) /
     * B[i1][N-3-i2] */
    unsigned k3 = adi_kernel(pg, "adi_kernel3", n);
    pb_loop(pg, 0, N - 2);
    pb_aff m3 = AFF(.c0 = N - 3, .gx = N, .l1 = -1);
    adi_back_body(pg, A, B, X, AFF(.c0 = N - 2, .gx = N, .l1 = -1), m3, m3, m3);
    pb_loop_tail(pg);
    pb_end(pg);
    /* kernel4 (P = i1 = 1 .. N-1): i2 = gx; the sweep down the columns */
    unsigned k4 = adi_kernel(pg, "adi_kernel4", n);
    adi_sweep_body(pg, A, B, X, AFF(.gx = 1, .p = N), AFF(.c0 = -N, .gx = 1, .p = N));
    /* kernel5: X[N-1][i2] /= B[N-1][i2] */
    unsigned k5 = adi_kernel(pg, "adi_kernel5", n);
    adi_scale_body(pg, B, X, AFF(.c0 = (N - 1) * N, .gx = 1));
    /* kernel6 (P = i1 = 0 .. N-3): X[N-2-i1][i2] = (X[N-2-i1][i2] - X[N-i1-3][i2] *
     * A[N-3-i1][i2]) / B[N-2-i1][i2] */
    unsigned k6 = adi_kernel(pg, "adi_kernel6", n);
    pb_aff x6 = AFF(.c0 = (N - 2) * N, .gx = 1, .p = -N);
    pb_aff m6 = AFF(.c0 = (N - 3) * N, .gx = 1, .p = -N);
    adi_back_body(pg, A, B, X, x6, m6, m6, x6);

    pb_phase_add(pg, k1, false, 0, 1);
    pb_phase_add(pg, k2, false, 0, 1);
    pb_phase_add(pg, k3, false, 0, 1);
    pb_phase_add(pg, k4, false, 1, n - 1);
    pb_phase_add(pg, k5, false, 0, 1);
    pb_phase_add(pg, k6, false, 0, n - 2);
    return pb_finish(pg, tsteps, err);
}

/* ---- registry entries ---------------------------------------------------- */

const wc_workload wc_wl_pb_2dconv = {
    .name = "polybench/2dconv",
    .suite = "polybench",
    .kernels = "Convolution2D_kernel",
    .size = "ni=4096 nj=4096",
    .classes = "002:conflict 004:CI",
    .help = "2DConvolution, 3x3 stencil; ni, nj; scale=f multiplies every dimension",
    .open = open_2dconv,
};
WC_PLUGIN(workload, wc_wl_pb_2dconv, 130);

const wc_workload wc_wl_pb_3dconv = {
    .name = "polybench/3dconv",
    .suite = "polybench",
    .kernels = "convolution3D_kernel x (ni-2)",
    .size = "ni=nj=nk=256",
    .classes = "004:CI",
    .help = "3DConvolution, one launch per plane i = 1..ni-2; ni, nj, nk; cse=1 drops the "
            "source's repeated loads; scale=f",
    .open = open_3dconv,
};
WC_PLUGIN(workload, wc_wl_pb_3dconv, 140);

const wc_workload wc_wl_pb_fdtd2d = {
    .name = "polybench/fdtd2d",
    .suite = "polybench",
    .kernels = "(fdtd_step1_kernel fdtd_step2_kernel fdtd_step3_kernel) x tmax",
    .size = "nx=2048 ny=2048 tmax=500",
    .classes = "004:CI",
    .help = "2-D FDTD, 3 launches per time step; nx, ny, tmax; scale=f (not tmax)",
    .open = open_fdtd2d,
};
WC_PLUGIN(workload, wc_wl_pb_fdtd2d, 150);

const wc_workload wc_wl_pb_jacobi2d = {
    .name = "polybench/jacobi2d",
    .suite = "polybench",
    .kernels = "(runJacobiCUDA_kernel1 runJacobiCUDA_kernel2) x tsteps",
    .size = "n=1000 tsteps=20",
    .classes = "",
    .help = "2-D Jacobi, 2 launches per step; n, tsteps; scale=f (not tsteps)",
    .open = open_jacobi2d,
};
WC_PLUGIN(workload, wc_wl_pb_jacobi2d, 200);

const wc_workload wc_wl_pb_adi = {
    .name = "polybench/adi",
    .suite = "polybench",
    .kernels = "(adi_kernel1 adi_kernel2 adi_kernel3 adi_kernel4 x (n-1) adi_kernel5 "
               "adi_kernel6 x (n-2)) x tsteps",
    .size = "n=1024 tsteps=1",
    .classes = "",
    .help = "alternating direction implicit solver, 2n+1 launches per step; n, tsteps; scale=f",
    .open = open_adi,
};
WC_PLUGIN(workload, wc_wl_pb_adi, 230);
