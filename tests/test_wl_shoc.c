/*
 * test_wl_shoc.c - shoc/spmv (SHOC's CSR scalar SpMV, seed 002's "SPMV S")
 * against addresses derived independently of the generator: a 4-row matrix
 * worked out by hand (4*4/100 = 0 nonzeros), and SHOC's random matrix
 * rebuilt here with the C library's own srand48/drand48 exactly as SHOC's
 * initRandomMatrix does, every cols/val/vec gather and every store checked
 * against it.  Walker: wl_walk.h (every instruction of every launch).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "warpcache/workloads.h"
#include "wl_walk.h"

/* SHOC's initRandomMatrix with libc's drand48: rowDelimiters and cols. */
static void shoc_matrix(int dim, int *delim, int *cols)
{
    int n = dim * dim / 100, assigned = 0;
    double prob = (double)n / ((double)dim * (double)dim);
    int fill = 0;
    srand48(8675309L);
    for (int i = 0; i < dim; i++) {
        delim[i] = assigned;
        for (int j = 0; j < dim; j++) {
            if (dim * dim - (i * dim + j) <= n - assigned) fill = 1;
            if ((assigned < n && drand48() <= prob) || fill) cols[assigned++] = j;
        }
    }
    delim[dim] = n;
}

/* ---- 4 rows: no nonzeros ---------------------------------------------------- */

static void test_spmv_empty(void)
{
    /* 1 block of 128 threads; warp 0 holds rows 0-3 (mask 0xf): the two
     * rowDelimiters loads at 4*row and 4*row + 4, no loop (every row is
     * empty), the store out[row]; warps 1-3 have no row and no access. */
    probe pr[] = {
        {.launch = 0, .block = 0, .warp = 0, .nth = 0},
        {.launch = 0, .block = 0, .warp = 0, .nth = 1},
        {.launch = 0, .block = 0, .warp = 0, .nth = 2},
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("shoc/spmv:rows=4,launches=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_STR(wk->name[0], "spmv_csr_scalar_kernel");
    CHECK_EQ(wk->grid[0].x, 1);
    CHECK_EQ(wk->block[0].x, 128);
    CHECK_EQ(wk->mem[0], 3);
    CHECK_EQ(wk->mem[1], 3);
    CHECK(probe_is(&pr[0], WC_OP_LDG, 3, R(2) + 3 * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 3, R(2) + 4 * 4));
    CHECK(probe_is(&pr[2], WC_OP_STG, 2, R(4) + 2 * 4));
    CHECK_EQ(pr[0].got.mask, 0xfu);
    CHECK_EQ(pr[2].got.mask, 0xfu);
    free(wk);
}

/* ---- SHOC's random matrix ------------------------------------------------------ */

#define SPMV_ROWS 300 /* 3 blocks, 10 warps with rows; 900 nonzeros */

typedef struct sp_ref {
    int delim[SPMV_ROWS + 1], cols[SPMV_ROWS * SPMV_ROWS / 100];
    uint32_t iter[12]; /* gathers of cols seen so far per warp (block * 4 + warp) */
    uint64_t bad, gathers, stored;
} sp_ref;

static void sp_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp, const wc_winst *in)
{
    sp_ref *s = vctx;
    if (launch != 0) return;
    uint32_t *k = &s->iter[block * 4 + warp];
    for (unsigned l = 0; l < 32; l++) {
        int row = (int)(block * 128 + warp * 32 + l);
        bool active = row < SPMV_ROWS && (in->pc < 0x28 || in->pc > 0x38 ||
                                          (uint32_t)(s->delim[row + 1] - s->delim[row]) > *k);
        if (active != (bool)(in->mask >> l & 1u)) {
            s->bad++;
            continue;
        }
        if (!active) continue;
        uint64_t a = wc_winst_lane_addr(in, l), j = (uint64_t)s->delim[row] + *k, want;
        switch (in->pc) {
        case 0x10: want = R(2) + (uint64_t)row * 4; break;
        case 0x18: want = R(2) + (uint64_t)row * 4 + 4; break;
        case 0x28: want = R(1) + j * 4; break;
        case 0x30: want = R(0) + j * 4; break;
        case 0x38: want = R(3) + (uint64_t)s->cols[j] * 4; break;
        default:
            want = R(4) + (uint64_t)row * 4;
            s->stored++;
            break;
        }
        if (a != want) s->bad++;
        if (in->pc == 0x28) s->gathers++;
    }
    if (in->pc == 0x38) (*k)++;
}

static void test_spmv_shoc_matrix(void)
{
    sp_ref *s = calloc(1, sizeof *s);
    shoc_matrix(SPMV_ROWS, s->delim, s->cols);
    walk *wk = walk_new(NULL, 0);
    wk->visit = sp_visit;
    wk->vctx = s;
    CHECK_EQ(walk_run("shoc/spmv:rows=300", 7, wk), 0);
    CHECK_EQ(wk->nlaunch, 100); /* the default: one of SHOC's passes */
    CHECK_EQ(wk->grid[0].x, 3);
    CHECK_EQ(s->bad, 0);
    CHECK_EQ(s->gathers, 900); /* every nonzero once: 300 * 300 / 100 */
    CHECK_EQ(s->stored, 300);
    /* per warp with rows: 2 delimiter loads + 1 store + 3 loads per step
     * of its longest row */
    uint64_t steps = 0;
    for (int w = 0; w < 10; w++) {
        int longest = 0;
        for (int r = w * 32; r < w * 32 + 32 && r < SPMV_ROWS; r++)
            if (s->delim[r + 1] - s->delim[r] > longest) longest = s->delim[r + 1] - s->delim[r];
        steps += (uint64_t)longest;
    }
    CHECK_EQ(wk->mem[0], 10 * 3 + 3 * steps);
    CHECK_EQ(wk->mem[99], wk->mem[0]);
    free(wk);
    free(s);

    wc_err err;
    CHECK(wc_workload_open("shoc/spmv:rows=46341", 1, &err) == NULL);
    CHECK(wc_workload_open("shoc/spmv:rows=0", 1, &err) == NULL);
}

int main(void)
{
    RUN(test_spmv_empty);
    RUN(test_spmv_shoc_matrix);
    return check_summary("wl_shoc");
}
