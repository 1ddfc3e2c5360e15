/*
 * test_wl_seed001.c - the workloads added for seed 001's application list
 * (sdk/matrixmul, shoc/fft, rodinia/myocyte, rodinia/leukocyte,
 * rodinia/heartwall) against hand-derived lane addresses and independently
 * counted global-memory warp instructions.
 *
 * As in test_wl_rodinia.c, each test pulls every instruction of every launch
 * through the wc_source ops (wl_walk.h) at a small size; the expected numbers
 * are worked out in the comments from the kernels' index expressions and
 * loop bounds (see each generator's header for the source facts).
 */
#include <stdlib.h>

#include "check.h"
#include "warpcache/workloads.h"
#include "wl_walk.h"

/* Global-memory warp instructions per (launch, block, warp). */
typedef struct per_warp {
    uint32_t launch;
    uint64_t block;
    uint32_t warp;
    uint64_t n;
} per_warp;

static void count_one(void *vctx, uint32_t launch, uint64_t block, uint32_t warp,
                      const wc_winst *in)
{
    per_warp *p = vctx;
    if (p->launch == launch && p->block == block && p->warp == warp) p->n++;
}

/* ---- sdk/matrixmul -------------------------------------------------------- */

static void test_matrixmul(void)
{
    /* block 16, A 48 x 32, B 32 x 64: grid (64/16, 48/16) = (4, 3), 256
     * threads = 8 warps; 32/16 = 2 tiles, each an A and a B load, then the C
     * store: 5 per warp, 12 * 8 * 5 = 480 per launch. */
    probe pr[] = {
        {.launch = 0, .block = 9, .warp = 3, .nth = 2}, /* A, tile 1 */
        {.launch = 0, .block = 9, .warp = 3, .nth = 3}, /* B, tile 1 */
        {.launch = 0, .block = 9, .warp = 3, .nth = 4}, /* C */
        {.launch = 1, .block = 0, .warp = 0, .nth = 0}, /* A, tile 0 of launch 2 */
    };
    walk *wk = walk_new(pr, 4);
    CHECK_EQ(walk_run("sdk/matrixmul:block=16,wa=32,ha=48,wb=64,iterations=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_STR(wk->name[0], "matrixMulCUDA");
    CHECK_EQ(wk->grid[0].x, 4);
    CHECK_EQ(wk->grid[0].y, 3);
    CHECK_EQ(wk->mem[0], 480);
    CHECK_EQ(wk->mem[1], 480);
    /* 2 barriers per tile: 2 launches * 12 blocks * 8 warps * 4 */
    CHECK_EQ(wk->bar, 2 * 12 * 8 * 4);
    CHECK_EQ(wk->empty_mask, 0);
    /* block 9 = (bx 1, by 2); warp 3 lane 5 is thread 101: tx 5, ty 6.
     * A tile 1: wa*bs*by + bs*1 + wa*ty + tx = 1024 + 16 + 192 + 5 = 1237. */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 5, R(0) + 1237 * 4));
    /* B tile 1: bs*bx + bs*wb*1 + wb*ty + tx = 16 + 1024 + 384 + 5 = 1429 */
    CHECK(probe_is(&pr[1], WC_OP_LDG, 5, R(1) + 1429 * 4));
    /* C: wb*bs*by + bs*bx + wb*ty + tx = 2048 + 16 + 384 + 5 = 2453; lane 21
     * is thread 117 = (tx 5, ty 7): 2048 + 16 + 448 + 5 = 2517 */
    CHECK(probe_is(&pr[2], WC_OP_STG, 5, R(2) + 2453 * 4));
    CHECK(probe_is(&pr[2], WC_OP_STG, 21, R(2) + 2517 * 4));
    /* block 0 warp 0 lane 17 = (tx 1, ty 1): A[32 + 1] */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 17, R(0) + 33 * 4));
    free(wk);

    /* block 32: one warp is one row of the tile, so lanes are contiguous */
    probe p32[] = {{.launch = 0, .block = 1, .warp = 2, .nth = 1}};
    wk = walk_new(p32, 1);
    CHECK_EQ(walk_run("sdk/matrixmul:block=32,wa=64,ha=32,wb=64", 1, wk), 0);
    /* grid (2, 1), 32 warps, 2 tiles: 2 * 32 * 5 */
    CHECK_EQ(wk->mem[0], 2 * 32 * 5);
    /* B tile 0 of block (1, 0), ty 2, tx = lane: 32*1 + 64*2 + lane */
    CHECK(probe_is(&p32[0], WC_OP_LDG, 0, R(1) + 160 * 4));
    CHECK(probe_is(&p32[0], WC_OP_LDG, 31, R(1) + 191 * 4));
    free(wk);

    /* l1=1: per tile and k, one A and one B load and no shared memory: 2 tiles
     * * 16 * 2 + the C store = 65 per warp, 12 * 8 * 65 = 6240. */
    probe pl[] = {{.launch = 0, .block = 9, .warp = 3, .nth = (16 + 3) * 2},
                  {.launch = 0, .block = 9, .warp = 3, .nth = (16 + 3) * 2 + 1}};
    wk = walk_new(pl, 2);
    CHECK_EQ(walk_run("sdk/matrixmul:block=16,wa=32,ha=48,wb=64,l1=1", 1, wk), 0);
    CHECK_EQ(wk->mem[0], 6240);
    CHECK_EQ(wk->bar, 0);
    CHECK_EQ(wk->lds, 0);
    /* tile 1, k 3, lane 5 (tx 5, ty 6): A[1024 + 16 + 3 + 32*6] = A[1235], the
     * same for every tx of the row (lane 0); B[16 + 1024 + 64*3 + 5] */
    CHECK(probe_is(&pl[0], WC_OP_LDG, 5, R(0) + 1235 * 4));
    CHECK(probe_is(&pl[0], WC_OP_LDG, 0, R(0) + 1235 * 4));
    CHECK(probe_is(&pl[1], WC_OP_LDG, 5, R(1) + 1237 * 4));
    free(wk);

    wc_err err;
    CHECK(wc_workload_open("sdk/matrixmul:block=16,wa=40", 1, &err) == NULL);
    CHECK(wc_workload_open("sdk/matrixmul:block=24", 1, &err) == NULL);
}

/* ---- shoc/fft ------------------------------------------------------------- */

static void test_fft(void)
{
    /* 3 signals: 3 blocks of 64 threads (2 warps); 8 loads and 8 stores per
     * warp: 96 per launch; forward then inverse. */
    probe pr[] = {
        {.launch = 1, .block = 2, .warp = 1, .nth = 3},     /* load i = 3 */
        {.launch = 1, .block = 2, .warp = 1, .nth = 8 + 5}, /* store i = 5 */
    };
    walk *wk = walk_new(pr, 2);
    CHECK_EQ(walk_run("shoc/fft:ffts=3,passes=1", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_STR(wk->name[0], "fft1D_512");
    CHECK_STR(wk->name[1], "ifft1D_512");
    CHECK_EQ(wk->mem[0], 96);
    CHECK_EQ(wk->mem[1], 96);
    /* 7 __syncthreads per kernel (4 in the first transpose, 3 in the second):
     * 2 launches * 6 warps * 7 */
    CHECK_EQ(wk->bar, 2 * 6 * 7);
    /* 4 transposes * (8 STS + 8 LDS) per warp */
    CHECK_EQ(wk->lds, 2 * 6 * 64);
    /* work[bx*512 + tid + i*64], float2: block 2 warp 1 lane 7, i = 3:
     * 1024 + 39 + 192 = 1255 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 7, R(0) + 1255 * 8));
    CHECK_EQ(pr[0].got.width, 8);
    CHECK_EQ(pr[0].got.mask, 0xffffffffu);
    /* store i = 5, lane 0: 1024 + 32 + 320 = 1376 */
    CHECK(probe_is(&pr[1], WC_OP_STG, 0, R(0) + 1376 * 8));
    free(wk);
}

/* ---- rodinia/myocyte ------------------------------------------------------ */

static void test_myocyte(void)
{
    /* xmax 2, 1 attempt: 2 * 13 = 26 launches of 2 blocks of one warp.
     * Block 0: params[15], 39 initvalu loads (0..39 but 21), 60 finavalu
     * accesses = 100.  Block 1: 3 modules * (initvalu[35+m], 4 + 2 params,
     * 15 initvalu, 15 finavalu stores, 1 com store) = 3 * 38 = 114. */
    probe pr[] = {
        {.launch = 5, .block = 0, .warp = 0, .nth = 0},
        {.launch = 5, .block = 0, .warp = 0, .nth = 22},
        {.launch = 5, .block = 0, .warp = 0, .nth = 40},
        {.launch = 5, .block = 0, .warp = 0, .nth = 70},
        {.launch = 5, .block = 1, .warp = 0, .nth = 0},
        {.launch = 5, .block = 1, .warp = 0, .nth = 45},
        {.launch = 25, .block = 1, .warp = 0, .nth = 113},
    };
    walk *wk = walk_new(pr, 7);
    CHECK_EQ(walk_run("rodinia/myocyte:xmax=2,attempts=1", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 26);
    for (uint32_t l = 0; l < 26; l++) CHECK_EQ(wk->mem[l], 214);
    CHECK_EQ(wk->grid[0].x, 2);
    /* params[15] */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 0, R(2) + 15 * 4));
    CHECK_EQ(pr[0].got.mask, 1u);
    /* nth 1..21 read initvalu[0..20]; 21 is skipped, so nth 22 reads [22] */
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(0) + 22 * 4));
    /* the first finavalu access is the store of offset_1 */
    CHECK(probe_is(&pr[2], WC_OP_STG, 0, R(1) + 0));
    /* access 30 re-reads finavalu[offset_19] for J_CaB_cytosol */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 0, R(1) + 18 * 4));
    /* CaDyad = initvalu[35] */
    CHECK(probe_is(&pr[4], WC_OP_LDG, 0, R(0) + 35 * 4));
    /* module 1 starts at 38; +7 is its first state load, initvalu[61] */
    CHECK(probe_is(&pr[5], WC_OP_LDG, 0, R(0) + 61 * 4));
    /* the last access stores finavalu[com_offset = 2] */
    CHECK(probe_is(&pr[6], WC_OP_STG, 0, R(1) + 2 * 4));
    /* each value the source reads goes to its own variable: the loads do
     * not share a destination register (which would serialise them) */
    CHECK(pr[0].got.dst[0] != pr[1].got.dst[0]);
    CHECK(pr[4].got.dst[0] != pr[5].got.dst[0]);
    uint64_t alu1 = wk->alu;
    free(wk);
    /* alu=3: 3 instructions per source operator, the calls unchanged: per
     * launch 2 * (376 + 3 * 120) more than alu=1 */
    wk = walk_new(NULL, 0);
    CHECK_EQ(walk_run("rodinia/myocyte:xmax=2,attempts=1,alu=3", 1, wk), 0);
    CHECK_EQ(wk->alu - alu1, 26 * 2 * (376 + 3 * 120));
    free(wk);
}

/* ---- rodinia/leukocyte ---------------------------------------------------- */

/* dilate: per-thread re-implementation of the guards; a warp issues one load
 * per structuring-element cell that at least one of its threads reads. */
static uint64_t dilate_expect(uint64_t m, uint64_t n, uint64_t blocks)
{
    uint64_t total = 0;
    for (uint64_t b = 0; b < blocks; b++)
        for (uint64_t w = 0; w < 6; w++) {
            bool any[25][25] = {{false}};
            for (uint64_t l = 0; l < 32 && w * 32 + l < 176; l++) {
                int64_t t = (int64_t)(b * 176 + w * 32 + l), i = t % (int64_t)m, j = t / (int64_t)m;
                for (int ei = 0; ei < 25; ei++)
                    for (int ej = 0; ej < 25; ej++) {
                        int64_t y = i - 12 + ei, x = j - 12 + ej;
                        bool disc = (ei - 12) * (ei - 12) + (ej - 12) * (ej - 12) <= 144;
                        if (y >= 0 && y < (int64_t)m && x >= 0 && x < (int64_t)n && disc)
                            any[ei][ej] = true;
                    }
            }
            for (int ei = 0; ei < 25; ei++)
                for (int ej = 0; ej < 25; ej++) total += any[ei][ej];
            total++; /* the store */
        }
    return total;
}

static void test_leukocyte(void)
{
    /* rows 50, cols 47: GICOV grid 47-44 = 3 blocks of 50-44 = 6 threads
     * (one warp, 6 lanes), 7 circles * 150 points * 2 fetches + 1 store =
     * 2101 per warp.  dilate: (int)(2350/176 + 0.5) = 13 blocks of 176.
     * IMGVF: 2 cells of 41 x 81 = 3321 elements, 10 warps; chunks 0..9 are
     * full, chunk 10 holds idx 3200..3320: warps 0..3 (warp 3: 25 lanes).
     * Per block 4*11 + 6*10 = 104 loads per pass; passes: copy in, 3
     * iterations, copy out = 5: 520 per cell. */
    probe pr[] = {
        {.launch = 0, .block = 1, .warp = 0, .nth = 150},  /* circle 0, n = 75, grad_x */
        {.launch = 0, .block = 1, .warp = 0, .nth = 301},  /* circle 1, n = 0, grad_y */
        {.launch = 0, .block = 1, .warp = 0, .nth = 2100}, /* gicov store */
        {.launch = 1, .block = 0, .warp = 2, .nth = 0},
        {.launch = 1, .block = 0, .warp = 2, .nth = 256},
        {.launch = 2, .block = 1, .warp = 3, .nth = 10},
        {.launch = 2, .block = 1, .warp = 3, .nth = 11},
        {.launch = 2, .block = 1, .warp = 3, .nth = 54},
    };
    walk *wk = walk_new(pr, 8);
    per_warp pw = {.launch = 1, .block = 0, .warp = 2};
    wk->visit = count_one;
    wk->vctx = &pw;
    CHECK_EQ(walk_run("rodinia/leukocyte:rows=50,cols=47,frames=1,cells=2,iterations=3", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 3);
    CHECK_STR(wk->name[0], "GICOV_kernel");
    CHECK_STR(wk->name[1], "dilate_kernel");
    CHECK_STR(wk->name[2], "IMGVF_kernel");
    CHECK_EQ(wk->grid[0].x, 3);
    CHECK_EQ(wk->block[0].x, 6);
    CHECK_EQ(wk->grid[1].x, 13);
    CHECK_EQ(wk->mem[0], 3 * 2101);
    CHECK_EQ(wk->mem[1], dilate_expect(50, 47, 13));
    CHECK_EQ(wk->mem[2], 2 * 520);
    CHECK_EQ(wk->empty_mask, 0);
    /* GICOV block 1: i = 23, j = 22 + lane.  Circle 0 (radius 10), n = 75:
     * theta = pi, tX = -10, tY = 0: (23-10)*50 + 22+2 = 674 for lane 2. */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 2, R(0) + 674 * 4));
    CHECK_EQ(pr[0].got.mask, 0x3fu);
    /* circle 1 (radius 12), n = 0: tX = 12, tY = 0: (23+12)*50 + 22+3 */
    CHECK(probe_is(&pr[1], WC_OP_LDG, 3, R(1) + 1775 * 4));
    /* gicov[i*rows + j] = 23*50 + 27 for lane 5 */
    CHECK(probe_is(&pr[2], WC_OP_STG, 5, R(2) + 1177 * 4));
    /* dilate block 0 warp 2: threads 64..95, all in column j = 1, rows
     * i = 14..45.  x = j-12+ej >= 0 needs ej >= 11; the thread with i = 14
     * has y = 2+ei inside for every ei.  So the warp loads every disc cell
     * with ej >= 11: per column dx = ej-12 = -1..12 the disc holds
     * 2*floor(sqrt(144-dx^2))+1 = 23,25,23,23,23,23,21,21,19,17,15,13,9,1
     * cells, 256 in all, plus the store. */
    CHECK_EQ(pw.n, 257);
    /* its first load: ei = 0 holds only ej = 12: x = 1, y = i-12: lane 0
     * (i = 14) reads img[1*50 + 2] */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 0, R(3) + 52 * 4));
    CHECK_EQ(pr[3].got.mask, 0xffffffffu);
    /* store dilated[i*cols + j]: lane 0 14*47+1 = 659, lane 31 45*47+1 */
    CHECK(probe_is(&pr[4], WC_OP_STG, 0, R(4) + 659 * 4));
    CHECK(probe_is(&pr[4], WC_OP_STG, 31, R(4) + 2116 * 4));
    /* IMGVF cell 1, warp 3: copy-in chunk 10, lane 24: idx 3200+96+24 =
     * 3320 of cell 1 (offset 3321) */
    CHECK(probe_is(&pr[5], WC_OP_LDG, 24, R(6) + (3321 + 3320) * 4));
    CHECK_EQ(pr[5].got.mask, 0x1ffffffu);
    /* first iteration, chunk 0: I[3321 + 96] */
    CHECK(probe_is(&pr[6], WC_OP_LDG, 0, R(5) + (3321 + 96) * 4));
    /* the last copy-out store, chunk 10 */
    CHECK(probe_is(&pr[7], WC_OP_STG, 0, R(6) + (3321 + 3296) * 4));
    free(wk);
}

/* leukocyte shared=0 (IMGVF on global memory), the same size: GICOV and
 * dilate unchanged; IMGVF per cell: each of the 3 iterations, each of the
 * 104 live (warp, chunk) pairs: 9 neighbour loads, I, the store = 11, so
 * 3432; the reduction per warp and iteration: 1 store + 9 x (load, store)
 * = 19, x 10 warps x 3 = 570; copy in and out go: 4002 per cell. */
static void test_leukocyte_unshared(void)
{
    probe pr[] = {
        {.launch = 2, .block = 1, .warp = 3, .nth = 0},   /* chunk 0: the element */
        {.launch = 2, .block = 1, .warp = 3, .nth = 1},   /* N */
        {.launch = 2, .block = 1, .warp = 3, .nth = 2},   /* S */
        {.launch = 2, .block = 1, .warp = 3, .nth = 3},   /* W */
        {.launch = 2, .block = 1, .warp = 3, .nth = 9},   /* I */
        {.launch = 2, .block = 1, .warp = 3, .nth = 10},  /* the update's store */
        {.launch = 2, .block = 1, .warp = 3, .nth = 121}, /* reduction scratch store */
        {.launch = 2, .block = 0, .warp = 0, .nth = 1},   /* idx 0: N clamps to itself */
    };
    walk *wk = walk_new(pr, 8);
    CHECK_EQ(
        walk_run("rodinia/leukocyte:rows=50,cols=47,frames=1,cells=2,iterations=3,shared=0", 1, wk),
        0);
    CHECK_EQ(wk->nlaunch, 3);
    CHECK_EQ(wk->mem[0], 3 * 2101);
    CHECK_EQ(wk->mem[1], dilate_expect(50, 47, 13));
    CHECK_EQ(wk->mem[2], 2 * 4002);
    CHECK_EQ(wk->lds, 0);
    /* cell 1 (offset 3321), warp 3 lane 0: idx 96 = row 1, col 15 (81 columns) */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 0, R(6) + (3321 + 96) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(6) + (3321 + 15) * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 0, R(6) + (3321 + 96 + 81) * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 0, R(6) + (3321 + 95) * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 0, R(5) + (3321 + 96) * 4));
    CHECK(probe_is(&pr[5], WC_OP_STG, 0, R(6) + (3321 + 96) * 4));
    /* warp 3 has 11 live chunks x 11 = 121 before the scratch: 320 per cell */
    CHECK(probe_is(&pr[6], WC_OP_STG, 5, R(7) + (320 + 96 + 5) * 4));
    CHECK(probe_is(&pr[7], WC_OP_LDG, 0, R(6) + 0));
    CHECK(probe_is(&pr[7], WC_OP_LDG, 5, R(6) + 5 * 4)); /* row 0: N is itself */
    free(wk);
}

/* ---- rodinia/heartwall ---------------------------------------------------- */

static void test_heartwall(void)
{
    /* tsize 1, ssize 2: IN 3 (9 elements), IN2 5 (25), CV 7 (49), PAD 11
     * (121), CV x PAD = 77.  An element phase over E elements occupies
     * ceil(E/32) warp-chunks: 1, 1, 2, 4, 3.
     * Frame 0: template extraction, 1 chunk: load + store = 2 per block.
     * Later frames, per block:
     *   in2 gather 2; rotated template 1 (its store is to shared memory);
     *   convolution 20 (below);
     *   local sums of in2: pad 4 stores + 2 loads (only chunks 32..63 and
     *   64..95 hold elements of columns 3..7 and rows 3..7, ei 36..84), column
     *   cumsum 11 columns * 11 rows * 2 = 22, two row selections 3*2 each,
     *   difference 3*3, row cumsum 7 rows * 11 columns * 2 = 22, two column
     *   selections 2*2 each, difference 2*3: 85;
     *   in2 squared 2; local sums of in2^2 85; sqrt pass 2*3 = 6;
     *   template squares 2, column sums 3*3*2 = 6, row sums 6;
     *   denominator 2*2, numerator 2*3, correlation 2*3, tMask 2*1,
     *   maximum 2*1 (its store is to shared memory), template update 1*3:
     *   2+1+20+85+2+85+6+2+6+6+4+6+6+2+2+3 = 238.
     * Convolution: output (i, j) has min(3,j) - max(1,j-4) + 1 = 1,2,3,3,3,2,1
     * ja terms for j = 1..7, likewise ia.  Chunk 0 (ei 0..31, j = 1..5): 3
     * outer trips, each with a lane of a full column (3 inner trips): 9
     * loads.  Chunk 1 (ei 32..48: j = 5 rows 5..7, j = 6, j = 7): outer 3;
     * trips 0 and 1 include column 6 (3 inner), trip 2 only j = 5 whose
     * row 5 has 3: 9 loads.  Plus one store per chunk: 20. */
    probe pr[] = {
        {.launch = 0, .block = 0, .warp = 0, .nth = 0},
        {.launch = 0, .block = 0, .warp = 0, .nth = 1},
        {.launch = 1, .block = 20, .warp = 0, .nth = 0},
        {.launch = 1, .block = 20, .warp = 0, .nth = 2},
        {.launch = 1, .block = 20, .warp = 0, .nth = 3},
    };
    walk *wk = walk_new(pr, 5);
    CHECK_EQ(walk_run("rodinia/heartwall:tsize=1,ssize=2,frames=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->grid[0].x, 51);
    CHECK_EQ(wk->block[0].x, 256);
    CHECK_EQ(wk->mem[0], 51 * 2);
    CHECK_EQ(wk->mem[1], 51 * 238);
    CHECK_EQ(wk->empty_mask, 0);
    /* frame 0, point 0 (row 369, col 408), lane 4: row 1, col 1 of the
     * template: frame (369-1-1+1, 408-1-1+1) column-major, 609 rows */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 4, R(0) + (407 * 609 + 368) * 4));
    CHECK_EQ(pr[0].got.mask, 0x1ffu);
    CHECK(probe_is(&pr[1], WC_OP_STG, 4, R(1) + 4 * 4));
    /* frame 1, point 20 (first epicardial: row 390, col 457), lane 7:
     * row 7%5 = 2, col 1; in2_rowlow = 390-2, ori_row = 2 + 388 - 1 = 389,
     * ori_col = 1 + 455 - 1 = 455 */
    CHECK(probe_is(&pr[2], WC_OP_LDG, 7, R(0) + (455 * 609 + 389) * 4));
    /* rotated template, lane 1 (row 1, col 0): T[(2-0)*3 + (2-1)] of point
     * 20 (offset 20*9) */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 1, R(1) + (180 + 7) * 4));
    /* the first convolution term: lane 0 (i 1, j 1) reads in2[0]; lane 10
     * (i 4, j 2): ja = 1, ia = 1, jb = 2, ib = 4: in2[5*1 + 3] */
    CHECK(probe_is(&pr[4], WC_OP_LDG, 0, R(2) + (20 * 25 + 0) * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 10, R(2) + (20 * 25 + 8) * 4));
    free(wk);
}

/* heartwall shared=0, the same size: the rotated template's store goes to
 * global array 13 (+1 per block), each of the 18 convolution terms loads
 * its template element from it (+18), the maximum's 2 chunk stores go to
 * array 14 (+2): 238 + 21 = 259 per block; frame 0 unchanged. */
static void test_heartwall_unshared(void)
{
    probe pr[] = {
        {.launch = 1, .block = 20, .warp = 0, .nth = 3}, /* rotated template store */
        {.launch = 1, .block = 20, .warp = 0, .nth = 4}, /* term (0, 0): template */
        {.launch = 1, .block = 20, .warp = 0, .nth = 5}, /* term (0, 0): in2 */
        {.launch = 1, .block = 20, .warp = 0, .nth = 6}, /* term (0, 1): template */
    };
    walk *wk = walk_new(pr, 4);
    CHECK_EQ(walk_run("rodinia/heartwall:tsize=1,ssize=2,frames=2,shared=0", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->mem[0], 51 * 2);
    CHECK_EQ(wk->mem[1], 51 * 259);
    CHECK_EQ(wk->lds, 0);
    /* point 20's copy at 20*9; lane 1 stores element 1 */
    CHECK(probe_is(&pr[0], WC_OP_STG, 1, R(13) + (180 + 1) * 4));
    /* lane 0 (i 1, j 1) and lane 10 (i 4, j 2): ia = ja = 1, rot[0] */
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(13) + 180 * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 10, R(13) + 180 * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 10, R(2) + (20 * 25 + 8) * 4));
    /* inner trip 1: lane 10 at ia = 2, ja = 1: rot[3*0 + 1] */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 10, R(13) + 181 * 4));
    free(wk);
}

int main(void)
{
    RUN(test_matrixmul);
    RUN(test_fft);
    RUN(test_myocyte);
    RUN(test_leukocyte);
    RUN(test_heartwall);
    RUN(test_leukocyte_unshared);
    RUN(test_heartwall_unshared);
    return check_summary("wl_seed001");
}
