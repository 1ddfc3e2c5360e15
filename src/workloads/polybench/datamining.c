/*
 * datamining.c - PolyBench/GPU 1.0 correlation and covariance as affine
 * programs (pb.h).
 *
 * Both use the 1.0 source's 1-based layout: data and symmat are
 * (M+1) x (N+1) (covariance: symmat (M+1) x (M+1)) with row stride M+1,
 * thread j = gx + 1.  Grids are computed as in the source,
 * (size_t)(ceil((float)M) / bs), which truncates: M not a multiple of the
 * block width leaves the last columns unprocessed.  covariance's reduce
 * kernel is launched, as in the source, with grid (M/32, N/32) of 32x8
 * blocks, so only rows 1 .. N/4 are centred.  The triangular j2 loops have
 * per-lane trip counts; a warp runs to its longest lane with finished lanes
 * masked off.
 */
#include "workloads/polybench/pb.h"

#define B256  ((wc_dim3){256, 1, 1})
#define B32x8 ((wc_dim3){32, 8, 1})

typedef struct dm_arrays {
    unsigned data, symmat, stddev, mean;
    int64_t M, N;
} dm_arrays;

/* mean[j] = 0; for i = 1..N: mean[j] += data[i][j]; mean[j] /= FLOAT_N */
static unsigned mean_kernel(pb_prog *pg, const dm_arrays *a)
{
    int64_t M1 = a->M + 1;
    pb_aff j = AFF(.c0 = 1, .gx = 1);
    unsigned k = pb_kernel(pg, "mean_kernel", (wc_dim3){(uint32_t)(a->M / 256), 1, 1}, B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, j, 1, M1));
    pb_acc_pre(pg, a->mean, j, R_ACC, PB_INIT_ZERO);
    pb_loop(pg, 1, a->N + 1);
    pb_ld(pg, a->data, AFF(.c0 = 1, .gx = 1, .l1 = M1), 1);
    pb_acc_load(pg, a->mean, j, R_ACC);
    pb_alu(pg, R_ACC, R_ACC, 1, WC_REG_NONE);
    pb_acc_store(pg, a->mean, j, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    if (pg->rmw == 1) pb_ld(pg, a->mean, j, R_ACC);
    pb_alu(pg, R_ACC, R_ACC, WC_REG_NONE, WC_REG_NONE);
    pb_st(pg, a->mean, j, R_ACC);
    pb_phase_add(pg, k, false, 0, 1);
    return k;
}

/* std[j] = 0; for i: std[j] += (data[i][j] - mean[j])^2; std[j] /= FLOAT_N;
 * std[j] = sqrt(std[j]); if (std[j] <= EPS) std[j] = 1 (never taken for the
 * source's input data, so not emitted). */
static void std_kernel(pb_prog *pg, const dm_arrays *a)
{
    int64_t M1 = a->M + 1;
    pb_aff j = AFF(.c0 = 1, .gx = 1);
    unsigned k = pb_kernel(pg, "std_kernel", (wc_dim3){(uint32_t)(a->M / 256), 1, 1}, B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, j, 1, M1));
    pb_acc_pre(pg, a->stddev, j, R_ACC, PB_INIT_ZERO);
    pb_loop(pg, 1, a->N + 1);
    pb_ld(pg, a->data, AFF(.c0 = 1, .gx = 1, .l1 = M1), 1);
    pb_ld(pg, a->mean, j, 2);
    pb_acc_load(pg, a->stddev, j, R_ACC);
    pb_alu(pg, 1, 1, 2, WC_REG_NONE);
    pb_alu(pg, R_ACC, 1, 1, R_ACC);
    pb_acc_store(pg, a->stddev, j, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    /* three statements on std[j]: /=, sqrt, compare */
    if (pg->rmw == 1) pb_ld(pg, a->stddev, j, R_ACC);
    pb_alu(pg, R_ACC, R_ACC, WC_REG_NONE, WC_REG_NONE);
    if (pg->rmw >= 1) pb_st(pg, a->stddev, j, R_ACC);
    if (pg->rmw == 1) pb_ld(pg, a->stddev, j, R_ACC);
    pb_sfu(pg, R_ACC, R_ACC);
    pb_st(pg, a->stddev, j, R_ACC);
    if (pg->rmw == 1) pb_ld(pg, a->stddev, j, R_ACC);
    pb_alu(pg, WC_REG_NONE, R_ACC, WC_REG_NONE, WC_REG_NONE);
    pb_phase_add(pg, k, false, 0, 1);
}

/* 2-D kernel, j = gx + 1, i = gy + 1, guard 1 <= i <= N, 1 <= j <= M. */
static unsigned reduce_start(pb_prog *pg, const dm_arrays *a, wc_dim3 grid)
{
    unsigned k = pb_kernel(pg, "reduce_kernel", grid, B32x8);
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.c0 = 1, .gy = 1), 1, a->N + 1) |
                     pb_cons(pg, AFF(.c0 = 1, .gx = 1), 1, a->M + 1));
    return k;
}

/*
 * The triangular product: for j2 = j1 + j2off .. M: symmat[j1][j2] = 0;
 * for i = 1..N: symmat[j1][j2] += data[i][j1] * data[i][j2];
 * symmat[j2][j1] = symmat[j1][j2].  j1 = gx + 1, j2 = j1 + j2off + L1.
 */
static void triangle(pb_prog *pg, const dm_arrays *a, int64_t j2off)
{
    int64_t M1 = a->M + 1;
    int64_t c2 = 1 + j2off; /* j2 = gx + c2 + L1 */
    uint16_t outer = pg->guard;
    pb_aff acc = AFF(.c0 = M1 + c2, .gx = M1 + 1, .l1 = 1);         /* symmat[j1][j2] */
    pb_aff mirror = AFF(.c0 = c2 * M1 + 1, .gx = M1 + 1, .l1 = M1); /* symmat[j2][j1] */
    uint16_t tri = pb_cons(pg, AFF(.c0 = c2, .gx = 1, .l1 = 1), -PB_INF, M1);
    pb_guard(pg, outer | tri);
    pb_loop(pg, 0, a->M);
    pb_acc_pre(pg, a->symmat, acc, R_ACC, PB_INIT_ZERO);
    pb_loop(pg, 1, a->N + 1);
    pb_ld(pg, a->data, AFF(.c0 = 1, .gx = 1, .l2 = M1), 1);
    pb_ld(pg, a->data, AFF(.c0 = c2, .gx = 1, .l1 = 1, .l2 = M1), 2);
    pb_acc_load(pg, a->symmat, acc, R_ACC);
    pb_alu(pg, R_ACC, 1, 2, R_ACC);
    pb_acc_store(pg, a->symmat, acc, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    pb_acc_post(pg, a->symmat, acc, R_ACC);
    if (pg->rmw == 1) pb_ld(pg, a->symmat, acc, R_ACC);
    pb_st(pg, a->symmat, mirror, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    pb_guard(pg, outer);
}

static int dm_sizes(wc_params *p, uint64_t *m, uint64_t *n, int *rmw, wc_err *err)
{
    double s;
    if (pb_scale(p, &s, err) < 0 || pb_dim(p, "m", 2048, s, m, err) < 0 ||
        pb_dim(p, "n", 2048, s, n, err) < 0 || pb_rmw(p, rmw, err) < 0)
        return -1;
    return 0;
}

static wc_source *open_correlation(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t m, n;
    int rmw;
    if (dm_sizes(p, &m, &n, &rmw, err) < 0) return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    dm_arrays a = {.M = (int64_t)m, .N = (int64_t)n};
    a.data = pb_array(pg, (m + 1) * (n + 1));
    a.symmat = pb_array(pg, (m + 1) * (n + 1));
    a.stddev = pb_array(pg, m + 1);
    a.mean = pb_array(pg, m + 1);
    int64_t M1 = a.M + 1;
    mean_kernel(pg, &a);
    std_kernel(pg, &a);
    /* data[i][j] -= mean[j]; data[i][j] /= sqrt(FLOAT_N) * std[j] */
    unsigned k3 = reduce_start(pg, &a, (wc_dim3){(uint32_t)(m / 32), (uint32_t)(n / 8), 1});
    pb_aff d = AFF(.c0 = M1 + 1, .gx = 1, .gy = M1), j = AFF(.c0 = 1, .gx = 1);
    pb_ld(pg, a.data, d, 1);
    pb_ld(pg, a.mean, j, 2);
    pb_alu(pg, 1, 1, 2, WC_REG_NONE);
    if (rmw >= 1) pb_st(pg, a.data, d, 1);
    if (rmw == 1) pb_ld(pg, a.data, d, 1);
    pb_ld(pg, a.stddev, j, 3);
    pb_alu(pg, 3, 3, WC_REG_NONE, WC_REG_NONE);
    pb_sfu(pg, 3, 3);
    pb_alu(pg, 1, 1, 3, WC_REG_NONE);
    pb_st(pg, a.data, d, 1);
    pb_phase_add(pg, k3, false, 0, 1);
    /* corr: j1 < M; symmat[j1][j1] = 1; j2 = j1+1 .. M */
    unsigned k4 = pb_kernel(pg, "corr_kernel", (wc_dim3){(uint32_t)(m / 256), 1, 1}, B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.c0 = 1, .gx = 1), 1, a.M));
    pb_alu(pg, 1, WC_REG_NONE, WC_REG_NONE, WC_REG_NONE);
    pb_st(pg, a.symmat, AFF(.c0 = M1 + 1, .gx = M1 + 1), 1);
    triangle(pg, &a, 1);
    pb_phase_add(pg, k4, false, 0, 1);
    return pb_finish(pg, 1, err);
}

static wc_source *open_covariance(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t m, n;
    int rmw;
    if (dm_sizes(p, &m, &n, &rmw, err) < 0) return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    dm_arrays a = {.M = (int64_t)m, .N = (int64_t)n};
    a.data = pb_array(pg, (m + 1) * (n + 1));
    a.symmat = pb_array(pg, (m + 1) * (m + 1));
    a.mean = pb_array(pg, m + 1);
    int64_t M1 = a.M + 1;
    mean_kernel(pg, &a);
    /* the source's grid is (M/32, N/32) of 32x8 blocks: rows 1..N/4 only */
    unsigned k2 = reduce_start(pg, &a, (wc_dim3){(uint32_t)(m / 32), (uint32_t)(n / 32), 1});
    pb_ld(pg, a.data, AFF(.c0 = M1 + 1, .gx = 1, .gy = M1), 1);
    pb_ld(pg, a.mean, AFF(.c0 = 1, .gx = 1), 2);
    pb_alu(pg, 1, 1, 2, WC_REG_NONE);
    pb_st(pg, a.data, AFF(.c0 = M1 + 1, .gx = 1, .gy = M1), 1);
    pb_phase_add(pg, k2, false, 0, 1);
    /* covar: j1 <= M; j2 = j1 .. M */
    unsigned k3 = pb_kernel(pg, "covar_kernel", (wc_dim3){(uint32_t)(m / 256), 1, 1}, B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.c0 = 1, .gx = 1), 1, M1));
    triangle(pg, &a, 0);
    pb_phase_add(pg, k3, false, 0, 1);
    return pb_finish(pg, 1, err);
}

const wc_workload wc_wl_pb_correlation = {
    .name = "polybench/correlation",
    .suite = "polybench",
    .kernels = "mean_kernel std_kernel reduce_kernel corr_kernel",
    .size = "m=2048 n=2048",
    .classes = "",
    .help = "correlation matrix (1-based, stride m+1); m, n; scale=f; rmw=0|1|2",
    .open = open_correlation,
};
WC_PLUGIN(workload, wc_wl_pb_correlation, 160);

const wc_workload wc_wl_pb_covariance = {
    .name = "polybench/covariance",
    .suite = "polybench",
    .kernels = "mean_kernel reduce_kernel covar_kernel",
    .size = "m=2048 n=2048",
    .classes = "",
    .help = "covariance matrix (1-based, stride m+1; reduce covers rows 1..n/4 as in the "
            "source); m, n; scale=f; rmw=0|1|2",
    .open = open_covariance,
};
WC_PLUGIN(workload, wc_wl_pb_covariance, 170);
