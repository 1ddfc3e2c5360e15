/*
 * test_wl_parboil.c - the Parboil address generators (src/workloads/parboil/)
 * against hand-derived addresses and independently counted instruction
 * totals (for data-dependent kernels: invariants of the seeded input that any
 * correct walk must satisfy, e.g. permutations covered exactly once).
 * The walker is the same as in test_wl_rodinia.c: every instruction of every
 * launch is pulled through the wc_source ops, warps round-robin with
 * barriers honoured.
 */
#include <stdlib.h>

#include "check.h"
#include "util/rng.h"
#include "warpcache/workloads.h"

/* ---- walker ------------------------------------------------------------- */

#include "wl_walk.h"

/* ---- spmv ---------------------------------------------------------------------- */

typedef struct sp_seen {
    uint64_t rows, w;
    uint8_t *stored;
    uint64_t triples, real, far, dup;
    uint32_t prev_bound, cur_bound, bad_order;
    uint64_t cur_warp;
} sp_seen;

static void sp_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp, const wc_winst *in)
{
    sp_seen *s = vctx;
    if (launch != 0) return;
    if (in->op == WC_OP_STG)
        for (unsigned l = 0; l < 32; l++)
            if (in->mask >> l & 1) {
                uint64_t row = (in->addr[l] - R(4)) / 4;
                if (row >= s->rows || s->stored[row])
                    s->dup++;
                else
                    s->stored[row] = 1;
            }
    if (in->op == WC_OP_LDG && in->amode == WC_ADDR_LIST) s->triples++;
}

static void test_spmv(void)
{
    const uint64_t rows = 4000; /* w = 63 */
    sp_seen seen = {rows, 63, calloc(rows, 1), 0, 0, 0, 0, 0, 0, 0, 0};
    probe pr[] = {{.launch = 0, .block = 0, .warp = 0, .nth = 0}};
    walk *wk = walk_new(pr, 1);
    wk->visit = sp_visit;
    wk->vctx = &seen;
    CHECK_EQ(walk_run("parboil/spmv:rows=4000,launches=2", 9, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->grid[0].x, (4000 + 191) / 192);
    CHECK_EQ(wk->mem[0], wk->mem[1]);
    CHECK_EQ(wk->empty_mask, 0);
    /* every row's result stored exactly once: perm is a permutation */
    CHECK_EQ(seen.dup, 0);
    uint64_t covered = 0;
    for (uint64_t i = 0; i < rows; i++) covered += seen.stored[i];
    CHECK_EQ(covered, rows);
    /* per warp: 3 loads per diagonal + perm + dst; the padded diagonals make
     * the warp loop as long as its longest row, at most 25 */
    uint64_t warps = (rows + 31) / 32;
    CHECK_EQ(wk->mem[0], 3 * seen.triples + 2 * warps);
    CHECK(seen.triples >= warps * 20 && seen.triples <= warps * 25);
    /* first diagonal of the first warp: index[jds_ptr[0] + lane] = index[lane] */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 7, R(1) + 7 * 4));
    free(seen.stored);
    free(wk);
}

/* ---- stencil ------------------------------------------------------------------- */

static void test_stencil(void)
{
    /* 40 x 10 x 6: block 39 threads (2 warps), grid (8, 4) */
    probe pr[] = {
        {.launch = 0, .block = 2 * 8 + 3, .warp = 1, .nth = 0}, /* j = 4, k = 3 */
        {.launch = 0, .block = 2 * 8 + 3, .warp = 0, .nth = 5},
        {.launch = 1, .block = 0, .warp = 0, .nth = 7},
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("parboil/stencil:nx=40,ny=10,nz=6,iterations=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->grid[0].x, 8);
    CHECK_EQ(wk->grid[0].y, 4);
    CHECK_EQ(wk->mem[0], 8 * 4 * 2 * 8);
    /* warp 1 lane 3: i = 35: A0[(35) + 40*(4 + 10*(3+1))] */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 3, R(0) + (35 + 40 * (4 + 10 * 4)) * 4));
    CHECK_EQ(pr[0].got.mask, 0x7f);                                            /* i = 32..38 */
    CHECK(probe_is(&pr[1], WC_OP_LDG, 2, R(0) + (1 + 40 * (4 + 10 * 3)) * 4)); /* (i-1) */
    CHECK_EQ(pr[1].got.mask & 1, 0);                                           /* i = 0 idle */
    /* second iteration writes array 0 */
    CHECK(probe_is(&pr[2], WC_OP_STG, 1, R(0) + (1 + 40 * (1 + 10 * 1)) * 4));
    free(wk);
}

/* ---- sgemm --------------------------------------------------------------------- */

static void test_sgemm(void)
{
    /* m 256, n 32, k 16: grid (2, 2), 4 warps, 2 k-steps */
    probe pr[] = {
        {.launch = 0, .block = 3, .warp = 1, .nth = 0},              /* B tile */
        {.launch = 0, .block = 3, .warp = 1, .nth = 1 + 3},          /* A, j = 3 */
        {.launch = 0, .block = 3, .warp = 1, .nth = 9 + 2},          /* step 2: A j = 1 */
        {.launch = 0, .block = 3, .warp = 1, .nth = 18 + 2 * 5 + 1}, /* C store i = 5 */
    };
    walk *wk = walk_new(pr, 4);
    CHECK_EQ(walk_run("parboil/sgemm:m=256,n=32,k=16", 1, wk), 0);
    CHECK_EQ(wk->mem[0], 4 * 4 * (2 * 9 + 32));
    /* block (1,1), warp 1, lane 17: tx 1, ty 3; m = 128 + 32 + 17, n = 16 + 1 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 17, R(1) + (17 + 3 * 32) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 17, R(2 - 2) + (177 + 3 * 256) * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 17, R(0) + (177 + 9 * 256) * 4));
    CHECK(probe_is(&pr[3], WC_OP_STG, 17, R(2) + (256 * 16 + 177 + 5 * 256) * 4));
    free(wk);
}

/* ---- lbm ------------------------------------------------------------------------- */

static void test_lbm(void)
{
    /* 40 x 3 x 2 cells: block 40 (2 warps), grid (3, 2) */
    const uint64_t T = 128 * 120 * 154;
    probe pr[] = {
        {.launch = 0, .block = 1 * 3 + 2, .warp = 1, .nth = 19},     /* flag of (x, 2, 1) */
        {.launch = 0, .block = 1 * 3 + 2, .warp = 1, .nth = 20 + 7}, /* NE store */
        {.launch = 1, .block = 0, .warp = 0, .nth = 0},
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("parboil/lbm:x=40,y=3,z=2,steps=2", 1, wk), 0);
    CHECK_EQ(wk->mem[0], 6 * 2 * 39);
    /* warp 1 lane 4: x = 36, y = 2, z = 1 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 4, R(0) + (19 * T + 36 + 128 * (2 + 120 * 3)) * 4));
    CHECK_EQ(pr[0].got.mask, 0xff);
    CHECK(probe_is(&pr[1], WC_OP_STG, 4, R(1) + (7 * T + 37 + 128 * (3 + 120 * 3)) * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 0, R(1) + (128 * 120 * 2) * 4));
    free(wk);
}

/* ---- cutcp ------------------------------------------------------------------------- */

static void test_cutcp(void)
{
    /* lattice 16: 2^3 blocks, bins per side 2 + 6 = 8 */
    int nnbr = 0;
    for (int dz = -3; dz <= 3; dz++)
        for (int dy = -3; dy <= 3; dy++)
            for (int dx = -3; dx <= 3; dx++) {
                int ax = dx ? abs(dx) - 1 : 0, ay = dy ? abs(dy) - 1 : 0, az = dz ? abs(dz) - 1 : 0;
                nnbr += ax * ax + ay * ay + az * az <= 9;
            }
    CHECK(nnbr > 250 && nnbr < 343);
    probe pr[] = {
        {.launch = 0, .block = 7, .warp = 0, .nth = 0},
        {.launch = 0, .block = 7, .warp = 2, .nth = 1},
    };
    walk *wk = walk_new(pr, 2);
    CHECK_EQ(walk_run("parboil/cutcp:lattice=16", 1, wk), 0);
    CHECK_EQ(wk->mem[0], 8 * ((uint64_t)nnbr + 4 * 4));
    /* block (1,1,1), first neighbour within the cutoff (-2,-3,-3): bin (2,1,1) of 8^3 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 5, R(0) + ((1 * 8 + 1) * 8 + 2) * 128 + 5 * 4));
    /* warp 2 lane 9: t = 73: tx 1, ty 1, tz 4; y = 8 + 4 + 1 */
    CHECK(probe_is(&pr[1], WC_OP_STG, 9, R(1) + (((8 + 4) * 16 + 13) * 16 + 9) * 4));
    free(wk);
}

/* ---- histo --------------------------------------------------------------------------- */

typedef struct hi_seen {
    uint64_t atoms, hot, lanes;
} hi_seen;

static void hi_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp, const wc_winst *in)
{
    hi_seen *s = vctx;
    if (launch != 2 || in->op != WC_OP_ATOM) return;
    s->atoms++;
    for (unsigned l = 0; l < 32; l++)
        if (in->mask >> l & 1) {
            uint64_t b = (in->addr[l] - R(3)) / 4;
            s->lanes++;
            if (b >= 256 - 16 && b < 256 + 16) s->hot++; /* within 4 sd of the peak */
        }
}

static void test_histo(void)
{
    hi_seen seen = {0, 0, 0};
    walk *wk = walk_new(NULL, 0);
    wk->visit = hi_visit;
    wk->vctx = &seen;
    /* 100 x 50 = 5000 pixels (10 blocks, 157 warps), 512 bins, 2 iterations */
    CHECK_EQ(walk_run("parboil/histo:width=100,height=50,bins=512,iterations=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 8);
    CHECK_STR(wk->name[2], "histo_main_kernel");
    /* prescan: 64 blocks x 16 warps, warps with tid < 5000 load once; 2 atomics per block */
    CHECK_EQ(wk->mem[0], (5000 + 31) / 32 + 64 * 2);
    CHECK_EQ(wk->mem[1], 157 * 2);
    CHECK_EQ(wk->mem[2], 157 * 2);
    CHECK_EQ(wk->mem[3], 16 * 2);
    CHECK_EQ(seen.lanes, 5000);
    /* ~70% of pixels in the Gaussian peak (sd 8 bins), plus uniform ones there */
    CHECK(seen.hot > 5000 * 6 / 10 && seen.hot < 5000 * 8 / 10);
    free(wk);
}

/* ---- mri-gridding ----------------------------------------------------------------------- */

typedef struct mg_seen {
    uint64_t n;
    uint8_t *gathered, *stored;
    uint64_t dup, tile_lanes;
} mg_seen;

static void mg_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp, const wc_winst *in)
{
    mg_seen *s = vctx;
    for (unsigned l = 0; l < 32; l++) {
        if (!(in->mask >> l & 1)) continue;
        uint64_t a = wc_winst_lane_addr(in, l);
        if (launch == 2 && in->op == WC_OP_LDG && in->amode == WC_ADDR_LIST && a % 24 == 0) {
            uint64_t i = (a - R(0)) / 24;
            if (i >= s->n || s->gathered[i]++) s->dup++;
        }
        if (launch == 2 && in->op == WC_OP_STG && (a - R(6)) % 24 == 0) {
            uint64_t i = (a - R(6)) / 24;
            if (i >= s->n || s->stored[i]++) s->dup++;
        }
        if (launch == 3 && in->op == WC_OP_LDG && a >= R(6) && a < R(7) && (a - R(6)) % 24 == 0)
            s->tile_lanes++;
    }
}

static void test_mri_gridding(void)
{
    const uint64_t n = 3000;
    mg_seen seen = {n, calloc(n, 1), calloc(n, 1), 0, 0};
    probe pr[] = {{.launch = 0, .block = 1, .warp = 3, .nth = 2}};
    walk *wk = walk_new(pr, 1);
    wk->visit = mg_visit;
    wk->vctx = &seen;
    /* grid 16: 4^3 = 64 bins */
    CHECK_EQ(walk_run("parboil/mri-gridding:samples=3000,grid=16", 2, wk), 0);
    CHECK_EQ(wk->nlaunch, 4);
    CHECK_EQ(wk->grid[3].x, 64);
    uint64_t warps = (n + 31) / 32;
    CHECK_EQ(wk->mem[0], warps * 6);
    CHECK_EQ(wk->mem[1], 2 * 2);
    CHECK_EQ(wk->mem[2], warps * 13);
    /* reorder gathers every sample once and stores every slot once */
    CHECK_EQ(seen.dup, 0);
    uint64_t g = 0, st = 0;
    for (uint64_t i = 0; i < n; i++) g += seen.gathered[i], st += seen.stored[i];
    CHECK_EQ(g, n);
    CHECK_EQ(st, n);
    /* gridding reads every sample once per bin whose 3^3 neighbourhood holds
     * it: between 8 (corner bins) and 27 times (counting field 0) */
    CHECK(seen.tile_lanes >= 8 * n && seen.tile_lanes <= 27 * n); /* field 0 only */
    /* binning: sample 512 + 96 + 7 = 615, field z */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 7, R(0) + 615 * 24 + 8));
    free(seen.gathered), free(seen.stored), free(wk);
}

int main(void)
{
    RUN(test_spmv);
    RUN(test_stencil);
    RUN(test_sgemm);
    RUN(test_lbm);
    RUN(test_cutcp);
    RUN(test_histo);
    RUN(test_mri_gridding);
    return check_summary("wl_parboil");
}
