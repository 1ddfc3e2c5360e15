/*
 * solvers.c - PolyBench/GPU 1.0 gramschmidt and lu as affine programs
 * (pb.h), one launch per kernel per host iteration k (P = k).
 *
 * lu follows the source's launch shapes exactly, including their quirk:
 * grids shrink with k (ceil((N-k-1)/bs) blocks from blockIdx 0) while the
 * guard requires j > k, so for k >= about N/2 the launches cover no active
 * thread; the last k's grids are empty and, as CUDA rejects a zero-sized
 * grid, those launches are not produced at all.
 */
#include "workloads/polybench/pb.h"

#define B256  ((wc_dim3){256, 1, 1})
#define B32x8 ((wc_dim3){32, 8, 1})

static wc_source *open_gramschmidt(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    int rmw;
    uint64_t m, n;
    if (pb_scale(p, &s, err) < 0 || pb_dim(p, "m", 2048, s, &m, err) < 0 ||
        pb_dim(p, "n", 2048, s, &n, err) < 0 || pb_rmw(p, &rmw, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    int64_t M = (int64_t)m, N = (int64_t)n;
    unsigned A = pb_array(pg, m * n), R = pb_array(pg, n * n), Q = pb_array(pg, m * n);

    /* kernel1 (one block, thread 0): nrm += a[i*N+k]^2 for i < M; r[k*N+k] = sqrt(nrm) */
    unsigned k1 = pb_kernel(pg, "gramschmidt_kernel1", (wc_dim3){1, 1, 1}, B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1), 0, 1));
    pb_alu(pg, R_ACC, WC_REG_NONE, WC_REG_NONE, WC_REG_NONE);
    pb_loop(pg, 0, M);
    pb_ld(pg, A, AFF(.l1 = N, .p = 1), 1);
    pb_alu(pg, R_ACC, 1, 1, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    pb_sfu(pg, R_ACC, R_ACC);
    pb_st(pg, R, AFF(.p = N + 1), R_ACC);

    /* kernel2 (grid ceil(N/256), guard i < M): q[i*N+k] = a[i*N+k] / r[k*N+k] */
    unsigned k2 = pb_kernel(pg, "gramschmidt_kernel2", (wc_dim3){pb_ceil_div(n, 256), 1, 1}, B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1), 0, M));
    pb_ld(pg, A, AFF(.gx = N, .p = 1), 1);
    pb_ld(pg, R, AFF(.p = N + 1), 2);
    pb_sfu(pg, 2, 2);
    pb_alu(pg, 1, 1, 2, WC_REG_NONE);
    pb_st(pg, Q, AFF(.gx = N, .p = 1), 1);

    /* kernel3 (k < j < N): r[k*N+j] = 0; r[k*N+j] += q[i*N+k] * a[i*N+j];
     * then a[i*N+j] -= q[i*N+k] * r[k*N+j] */
    pb_aff rkj = AFF(.gx = 1, .p = N), aij = AFF(.gx = 1, .l1 = N), qik = AFF(.l1 = N, .p = 1);
    unsigned k3 = pb_kernel(pg, "gramschmidt_kernel3", (wc_dim3){pb_ceil_div(n, 256), 1, 1}, B256);
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1, .p = -1), 1, PB_INF) | pb_cons(pg, AFF(.gx = 1), 0, N));
    pb_acc_pre(pg, R, rkj, R_ACC, PB_INIT_ZERO);
    pb_loop(pg, 0, M);
    pb_ld(pg, Q, qik, 1);
    pb_ld(pg, A, aij, 2);
    pb_acc_load(pg, R, rkj, R_ACC);
    pb_alu(pg, R_ACC, 1, 2, R_ACC);
    pb_acc_store(pg, R, rkj, R_ACC);
    pb_loop_tail(pg);
    pb_end(pg);
    pb_acc_post(pg, R, rkj, R_ACC);
    pb_loop(pg, 0, M);
    pb_ld(pg, A, aij, 2);
    pb_ld(pg, Q, qik, 1);
    if (rmw == 1) pb_ld(pg, R, rkj, R_ACC); /* reloaded: stores to a[] may alias r[] */
    pb_alu(pg, 2, 1, R_ACC, 2);
    pb_st(pg, A, aij, 2);
    pb_loop_tail(pg);
    pb_end(pg);

    pb_phase_add(pg, k1, true, 0, 1);
    pb_phase_add(pg, k2, true, 0, 1);
    pb_phase_add(pg, k3, true, 0, 1);
    return pb_finish(pg, n, err);
}

static wc_source *open_lu(wc_params *p, uint64_t seed, wc_err *err)
{
    double s;
    uint64_t n;
    if (pb_scale(p, &s, err) < 0 || pb_dim(p, "n", 2048, s, &n, err) < 0) return NULL;
    pb_prog *pg = pb_prog_new(1, err);
    if (!pg) return NULL;
    int64_t N = (int64_t)n;
    unsigned A = pb_array(pg, n * n);

    /* kernel1 (k < j < N): A[k*N+j] = A[k*N+j] / A[k*N+k] */
    unsigned k1 = pb_kernel(pg, "lu_kernel1", (wc_dim3){1, 1, 1}, B256);
    pg->k[k1].shrink_x = true;
    pg->k[k1].shrink_n = N;
    pb_prologue(pg, false);
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1, .p = -1), 1, PB_INF) | pb_cons(pg, AFF(.gx = 1), 0, N));
    pb_ld(pg, A, AFF(.gx = 1, .p = N), 1);
    pb_ld(pg, A, AFF(.p = N + 1), 2);
    pb_sfu(pg, 2, 2);
    pb_alu(pg, 1, 1, 2, WC_REG_NONE);
    pb_st(pg, A, AFF(.gx = 1, .p = N), 1);

    /* kernel2 (k < i, j < N): A[i*N+j] = A[i*N+j] - A[i*N+k] * A[k*N+j] */
    unsigned k2 = pb_kernel(pg, "lu_kernel2", (wc_dim3){1, 1, 1}, B32x8);
    pg->k[k2].shrink_x = pg->k[k2].shrink_y = true;
    pg->k[k2].shrink_n = N;
    pb_prologue(pg, true);
    pb_guard(pg, pb_cons(pg, AFF(.gy = 1, .p = -1), 1, PB_INF) |
                     pb_cons(pg, AFF(.gx = 1, .p = -1), 1, PB_INF) |
                     pb_cons(pg, AFF(.gy = 1), 0, N) | pb_cons(pg, AFF(.gx = 1), 0, N));
    pb_ld(pg, A, AFF(.gx = 1, .gy = N), 1);
    pb_ld(pg, A, AFF(.gy = N, .p = 1), 2);
    pb_ld(pg, A, AFF(.gx = 1, .p = N), 3);
    pb_alu(pg, 1, 2, 3, 1);
    pb_st(pg, A, AFF(.gx = 1, .gy = N), 1);

    pb_phase_add(pg, k1, true, 0, 1);
    pb_phase_add(pg, k2, true, 0, 1);
    return pb_finish(pg, n, err);
}

const wc_workload wc_wl_pb_gramschmidt = {
    .name = "polybench/gramschmidt",
    .suite = "polybench",
    .kernels = "(gramschmidt_kernel1 gramschmidt_kernel2 gramschmidt_kernel3) x n",
    .size = "m=2048 n=2048",
    .classes = "",
    .help = "Gram-Schmidt QR, 3 launches per column k < n; m, n; scale=f; rmw=0|1|2",
    .open = open_gramschmidt,
};
WC_PLUGIN(workload, wc_wl_pb_gramschmidt, 180);

const wc_workload wc_wl_pb_lu = {
    .name = "polybench/lu",
    .suite = "polybench",
    .kernels = "(lu_kernel1 lu_kernel2) x n (empty grids skipped)",
    .size = "n=2048",
    .classes = "",
    .help = "LU decomposition, 2 launches per k < n with the source's shrinking grids; n; "
            "scale=f",
    .open = open_lu,
};
WC_PLUGIN(workload, wc_wl_pb_lu, 190);
