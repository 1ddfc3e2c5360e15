/*
 * test_wl_seed002.c - the workloads added for seed 002's application list
 * (sdk/vectoradd, sdk/scalarprod, sdk/blackscholes, sdk/fwt, sdk/convsep,
 * sdk/mc_pi, ispass/nn, mars/invertedindex, rodinia/hotspot3d) against hand-derived lane
 * addresses and independently counted global-memory warp instructions, as
 * in test_wl_seed001.c: each test pulls every instruction of every launch
 * through the wc_source ops (wl_walk.h) at a small size; the expected
 * numbers are worked out in the comments from the kernels' index expressions
 * and loop bounds (each generator's header lists the source facts).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/rng.h"
#include "warpcache/workloads.h"
#include "wl_walk.h"

/* ---- sdk/vectoradd -------------------------------------------------------- */

static void test_vectoradd(void)
{
    /* n 100, block 64: 2 blocks of 2 warps, A, B and C per warp: 12.  The
     * last warp holds threads 96..127, of which 96..99 exist: mask 0xf. */
    probe pr[] = {
        {.launch = 0, .block = 1, .warp = 1, .nth = 0},
        {.launch = 0, .block = 1, .warp = 1, .nth = 2},
        {.launch = 0, .block = 0, .warp = 1, .nth = 1},
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("sdk/vectoradd:n=100,block=64", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 1);
    CHECK_STR(wk->name[0], "vectorAdd");
    CHECK_EQ(wk->grid[0].x, 2);
    CHECK_EQ(wk->mem[0], 12);
    CHECK_EQ(wk->empty_mask, 0);
    CHECK(probe_is(&pr[0], WC_OP_LDG, 3, R(0) + 99 * 4));
    CHECK_EQ(pr[0].got.mask, 0xfu);
    CHECK(probe_is(&pr[1], WC_OP_STG, 0, R(2) + 96 * 4));
    /* thread 32 + 7 reads B[39] */
    CHECK(probe_is(&pr[2], WC_OP_LDG, 7, R(1) + 39 * 4));
    free(wk);

    /* n 20, block 64: warp 1 (threads 32..63) is wholly past n and skips
     * the body; warp 0 has 20 lanes: 3 instructions in all */
    wk = walk_new(NULL, 0);
    CHECK_EQ(walk_run("sdk/vectoradd:n=20,block=64", 1, wk), 0);
    CHECK_EQ(wk->mem[0], 3);
    CHECK_EQ(wk->empty_mask, 0);
    free(wk);
}

/* ---- sdk/scalarprod ------------------------------------------------------- */

static void test_scalarprod(void)
{
    /* 3 vectors of 2048, grid 2, block 256 (8 warps): block 0 takes vectors
     * 0 and 2, block 1 vector 1.  Per vector and warp: iAccum = tx + 0, 256,
     * 512, 768 (< 1024), each summing pos offsets 0 and 1024 (< 2048): 4
     * iterations * 2 positions * 2 loads = 16; warp 0 stores C[vec]: per
     * vector 8 * 16 + 1 = 129, 387 in all.
     * Barriers: strides 512..1 (10) + the last one = 11 per vector and
     * warp: 3 * 8 * 11 = 264.
     * Shared-memory instructions per vector: accumulator stores 4 per warp
     * (32); reduction iterations: stride 512 two per warp (16), 256 one per
     * warp (8), 128: warps 0..3, 64: 0..1, 32..1: warp 0 (1 + 5), i.e. 36
     * iterations of 2 LDS + 1 STS; and warp 0's final LDS: 32 + 108 + 1 =
     * 141, 423 in all. */
    probe pr[] = {
        {.launch = 0, .block = 1, .warp = 2, .nth = 5},
        {.launch = 0, .block = 0, .warp = 0, .nth = 16},
        {.launch = 0, .block = 0, .warp = 0, .nth = 33},
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("sdk/scalarprod:vectors=3,elements=2048,grid=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 1);
    CHECK_STR(wk->name[0], "scalarProdGPU");
    CHECK_EQ(wk->mem[0], 387);
    CHECK_EQ(wk->bar, 264);
    CHECK_EQ(wk->lds, 423);
    CHECK_EQ(wk->empty_mask, 0);
    /* order: (iAccum 0: pos 0 A, B; pos 1024 A, B), (iAccum 256: pos 0 A,
     * B) -> nth 5 is B at 2048*1 + 64 + 256 + lane */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 7, R(1) + (2048 + 64 + 256 + 7) * 4));
    CHECK_EQ(pr[0].got.mask, 0xffffffffu);
    CHECK(probe_is(&pr[1], WC_OP_STG, 0, R(2) + 0));
    CHECK_EQ(pr[1].got.mask, 1u);
    CHECK(probe_is(&pr[2], WC_OP_STG, 0, R(2) + 2 * 4));
    free(wk);

    /* elements 100: only warps 0..3 (threads < 100) load, once each (A, B);
     * warp 3's lanes 96..99: mask 0xf.  2 * 4 + the store = 9. */
    probe p2[] = {{.launch = 0, .block = 0, .warp = 3, .nth = 1}};
    wk = walk_new(p2, 1);
    CHECK_EQ(walk_run("sdk/scalarprod:vectors=1,elements=100,grid=1", 1, wk), 0);
    CHECK_EQ(wk->mem[0], 9);
    CHECK(probe_is(&p2[0], WC_OP_LDG, 3, R(1) + 99 * 4));
    CHECK_EQ(p2[0].got.mask, 0xfu);
    free(wk);

    wc_err err;
    CHECK(wc_workload_open("sdk/scalarprod:vectors=1048576,elements=4096", 1, &err) == NULL);
}

/* ---- sdk/blackscholes ----------------------------------------------------- */

static void test_blackscholes(void)
{
    /* 5000 options, grid 2 x 64 threads: step 128.  Warp (0,0) runs options
     * 0, 128, ..., 4992: 40 iterations; warps starting at 32, 64, 96 stop
     * before 5024, 5056, 5088: 39 each.  5 accesses per iteration:
     * (40 + 3 * 39) * 5 = 785. */
    probe pr[] = {
        {.launch = 0, .block = 0, .warp = 0, .nth = 39 * 5},
        {.launch = 0, .block = 0, .warp = 0, .nth = 1 * 5 + 3},
        {.launch = 0, .block = 1, .warp = 1, .nth = 38 * 5 + 4},
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("sdk/blackscholes:options=5000,grid=2,block=64", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 1);
    CHECK_STR(wk->name[0], "BlackScholesGPU");
    CHECK_EQ(wk->mem[0], 785);
    CHECK_EQ(wk->empty_mask, 0);
    /* last iteration of warp (0,0): S[4992 + lane], lanes 0..7 only */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 7, R(2) + 4999 * 4));
    CHECK_EQ(pr[0].got.mask, 0xffu);
    /* iteration 1, access 3 = the Call store at 128 + lane */
    CHECK(probe_is(&pr[1], WC_OP_STG, 5, R(0) + 133 * 4));
    /* warp (1,1) last iteration starts at 96 + 38*128 = 4960, full; its Put
     * store */
    CHECK(probe_is(&pr[2], WC_OP_STG, 31, R(1) + 4991 * 4));
    CHECK_EQ(pr[2].got.mask, 0xffffffffu);
    free(wk);
}

/* ---- sdk/fwt -------------------------------------------------------------- */

static void test_fwt(void)
{
    /* log2data 13: each fwtBatchGPU is one fwtBatch2Kernel (stride 2048, 8
     * blocks of 256) and one fwtBatch1Kernel (4 blocks of 512 on 2048-element
     * blocks): Data, Kernel, modulate, Data = 7 launches.  batch2: 64 warps
     * * 8 = 512; batch1: 64 warps * (4 loads + 4 stores) = 512; modulate
     * <<<128, 256>>> over 8192 elements: the 256 warps of blocks 0..31, one
     * iteration (step 32768) of 3 accesses = 768.  batch1 barriers per warp:
     * 5 radix-4 stages + the radix-2 stage + the final one = 7. */
    probe pr[] = {
        {.launch = 0, .block = 3, .warp = 2, .nth = 2},
        {.launch = 0, .block = 3, .warp = 2, .nth = 7},
        {.launch = 4, .block = 1, .warp = 0, .nth = 1},
        {.launch = 4, .block = 1, .warp = 0, .nth = 2},
        {.launch = 3, .block = 2, .warp = 0, .nth = 0},
    };
    walk *wk = walk_new(pr, 5);
    CHECK_EQ(walk_run("sdk/fwt:log2data=13", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 7);
    CHECK_STR(wk->name[0], "fwtBatch2Kernel");
    CHECK_STR(wk->name[1], "fwtBatch1Kernel");
    CHECK_STR(wk->name[4], "modulateKernel");
    CHECK_STR(wk->name[6], "fwtBatch1Kernel");
    CHECK_EQ(wk->grid[0].x, 8);
    CHECK_EQ(wk->grid[1].x, 4);
    CHECK_EQ(wk->block[1].x, 512);
    uint64_t want[7] = {512, 512, 512, 512, 768, 512, 512};
    for (int l = 0; l < 7; l++) CHECK_EQ(wk->mem[l], want[l]);
    CHECK_EQ(wk->bar, 3 * 4 * 16 * 7);
    CHECK_EQ(wk->empty_mask, 0);
    /* batch2, thread 3*256 + 64 + 5 = 837 < stride: i0 = 837, i2 = 837 +
     * 4096 = 4933; the last store is i3 = 837 + 6144 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 5, R(0) + 4933 * 4));
    CHECK(probe_is(&pr[1], WC_OP_STG, 5, R(0) + 6981 * 4));
    /* modulate, thread 256: Kernel[256] then the Data store */
    CHECK(probe_is(&pr[2], WC_OP_LDG, 0, R(1) + 256 * 4));
    CHECK(probe_is(&pr[3], WC_OP_STG, 0, R(0) + 256 * 4));
    /* batch1 of the Kernel array, block 2: Kernel[2*2048 + lane] */
    CHECK(probe_is(&pr[4], WC_OP_LDG, 9, R(1) + (4096 + 9) * 4));
    free(wk);

    /* log2data 15: strides 8192 then 2048.  Second launch, thread 10*256 +
     * 32 = 2592: lo = 2592 & 2047 = 544, i0 = (2592 - 544)*4 + 544 = 8736,
     * i1 = 10784.  The batch1 launch (16 blocks of 2048): block 5, warp 3
     * loads 5*2048 + 96 and + 512, then stores the same addresses. */
    probe p2[] = {
        {.launch = 1, .block = 10, .warp = 1, .nth = 1},
        {.launch = 2, .block = 5, .warp = 3, .nth = 1},
        {.launch = 2, .block = 5, .warp = 3, .nth = 4},
    };
    wk = walk_new(p2, 3);
    CHECK_EQ(walk_run("sdk/fwt:log2data=15", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 3 * 3 + 1);
    CHECK_EQ(wk->grid[2].x, 16);
    CHECK(probe_is(&p2[0], WC_OP_LDG, 0, R(0) + 10784 * 4));
    CHECK(probe_is(&p2[1], WC_OP_LDG, 0, R(0) + (10240 + 608) * 4));
    CHECK(probe_is(&p2[2], WC_OP_STG, 0, R(0) + (10240 + 96) * 4));
    free(wk);

    wc_err err;
    CHECK(wc_workload_open("sdk/fwt:log2data=14", 1, &err) == NULL);
}

/* ---- sdk/convsep ---------------------------------------------------------- */

static void test_convsep(void)
{
    /* 256 x 32, steps 2.  Rows: grid (256/32, 32/4) = (8, 8), 2 warps per
     * block.  Tile base x = (2*bx - 1)*16: the left halo exists for bx >= 1
     * and the right one while 256 - base > 48, i.e. bx < 7; every warp loads
     * the 2 main steps and stores 2 results.  Per block row: 2 warps *
     * (3 + 3 + 6 * 4 + 8 * 2) = 92; 8 rows: 736.
     * Columns: grid (16, 32/16) = (16, 2), 4 warps; base y = (2*by - 1)*8:
     * by 0 has no upper halo but a lower one (32 + 8 > 24), by 1 the upper
     * one only (32 - 8 = 24): 3 loads + 2 stores per warp, 32 * 4 * 5 =
     * 640.  One barrier per warp: 64 * 2 + 32 * 4. */
    probe pr[] = {
        {.launch = 0, .block = 19, .warp = 1, .nth = 0},
        {.launch = 0, .block = 19, .warp = 1, .nth = 2},
        {.launch = 0, .block = 19, .warp = 1, .nth = 3},
        {.launch = 0, .block = 19, .warp = 1, .nth = 4},
        {.launch = 1, .block = 18, .warp = 3, .nth = 0},
        {.launch = 1, .block = 18, .warp = 3, .nth = 2},
        {.launch = 1, .block = 18, .warp = 3, .nth = 3},
    };
    walk *wk = walk_new(pr, 7);
    CHECK_EQ(walk_run("sdk/convsep:width=256,height=32,steps=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_STR(wk->name[0], "convolutionRowsKernel");
    CHECK_STR(wk->name[1], "convolutionColumnsKernel");
    CHECK_EQ(wk->grid[0].x, 8);
    CHECK_EQ(wk->grid[0].y, 8);
    CHECK_EQ(wk->grid[1].x, 16);
    CHECK_EQ(wk->grid[1].y, 2);
    CHECK_EQ(wk->mem[0], 736);
    CHECK_EQ(wk->mem[1], 640);
    CHECK_EQ(wk->bar, 64 * 2 + 32 * 4);
    CHECK_EQ(wk->empty_mask, 0);
    /* rows block 19 = (bx 3, by 2), warp 1 = ty 2, 3.  Main step 1, lane 0
     * (tx 0, ty 2): x = 80 + 16, y = 10: 2656; lane 17 (tx 1, ty 3): 11*256
     * + 97.  Then the left halo (x = 80) and the right one (x = 128). */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 0, R(0) + 2656 * 4));
    CHECK(probe_is(&pr[0], WC_OP_LDG, 17, R(0) + (11 * 256 + 97) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(0) + 2640 * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 0, R(0) + 2688 * 4));
    CHECK(probe_is(&pr[3], WC_OP_STG, 0, R(1) + 2656 * 4));
    /* columns block 18 = (bx 2, by 1), warp 3 = ty 6, 7: x = 32, y = 8 + 6
     * + 8 = 22 for main step 1; the upper halo has y = 14; the store goes to
     * the output */
    CHECK(probe_is(&pr[4], WC_OP_LDG, 0, R(1) + (22 * 256 + 32) * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 16, R(1) + (23 * 256 + 32) * 4));
    CHECK(probe_is(&pr[5], WC_OP_LDG, 0, R(1) + (14 * 256 + 32) * 4));
    CHECK(probe_is(&pr[6], WC_OP_STG, 0, R(2) + (22 * 256 + 32) * 4));
    free(wk);

    wc_err err;
    CHECK(wc_workload_open("sdk/convsep:width=100", 1, &err) == NULL);
}

/* ---- sdk/mc_pi ------------------------------------------------------------ */

typedef struct pi_check {
    uint64_t bad, loads;
} pi_check;

/* initRNG's matrix loads: every active lane loads the same word, of a
 * matrix p (800 words each) such that the lane's thread id has a nonzero
 * base-4 digit p. */
static void pi_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp, const wc_winst *in)
{
    pi_check *c = vctx;
    if (launch != 0 || in->op != WC_OP_LDG) return;
    c->loads++;
    uint64_t a = 0;
    bool first = true;
    for (unsigned l = 0; l < WC_WARP_SIZE; l++) {
        if (!(in->mask >> l & 1)) continue;
        uint64_t x = wc_winst_lane_addr(in, l);
        if (first) a = x;
        first = false;
        uint64_t word = (x - R(0)) / 4, p = word / 800, tid = block * 128 + warp * 32 + l;
        if (x != a || x < R(0) || ((tid >> (2 * p)) & 3) == 0) c->bad++;
    }
}

static void test_mcpi(void)
{
    /* 1000 simulations, block 128, 1 SM: grid ceil(1000/128) = 8 (not above
     * 2*10*1).  computeValue: 12 state words per warp, warp 0 stores the
     * block's result: 32 * 12 + 8 = 392; barriers 1 + 7 (strides 64..1) per
     * warp.  initRNG stores the 12 words of each state. */
    probe pr[] = {{.launch = 0, .block = 1, .warp = 2, .nth = 0}};
    walk *wk = walk_new(pr, 1);
    pi_check pc = {0, 0};
    wk->visit = pi_visit;
    wk->vctx = &pc;
    CHECK_EQ(walk_run("sdk/mc_pi:sims=1000,sms=1", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_STR(wk->name[0], "initRNG");
    CHECK_STR(wk->name[1], "computeValue");
    CHECK_EQ(wk->grid[0].x, 8);
    CHECK_EQ(wk->mem[1], 392);
    CHECK_EQ(wk->bar, 32 * 8);
    CHECK_EQ(wk->empty_mask, 0);
    CHECK_EQ(pc.bad, 0);
    /* Thread ids 0..1023 have up to 5 base-4 digits; a matrix product reads
     * 5 words for each of the 160 state bits set, about half of them (the
     * lanes' bits are independent, so a row is skipped only if no lane has
     * it): between 1/2 and all of 800 words per product.  Warp 0 (ids
     * 0..31, digits 0..2) alone runs 3 + 3 + 1 products. */
    CHECK(pc.loads + 384 == wk->mem[0]);
    CHECK(pc.loads > 32 * 7 * 400);
    CHECK(pc.loads < 32 * 5 * 3 * 800);
    /* block 1 warp 2 holds threads 192 + l, whose base-4 digit 0 is l % 4:
     * its first product is matrix 0, step 0, so lanes 0, 4, 8, ... (digit
     * 0) cannot take part in its first load */
    CHECK(pr[0].found && pr[0].got.op == WC_OP_LDG);
    CHECK((pr[0].got.mask & 0x11111111u) == 0);
    free(wk);

    /* the sample's grid for 100,000 simulations on 15 SMs: 782 -> 391 -> 195 */
    wc_err err;
    wc_source *src = wc_workload_open("sdk/mc_pi", 1, &err);
    wc_kernel k;
    CHECK(src && src->ops->next_kernel(src, &k, &err) == 1);
    if (src) {
        CHECK_EQ(k.grid.x, 195);
        wc_source_destroy(src);
    }
    CHECK(wc_workload_open("sdk/mc_pi:block=96", 1, &err) == NULL);
}

/* ---- ispass/nn ------------------------------------------------------------ */

static void test_nn(void)
{
    /* 2 images.  Layer 1: 6 x 2 blocks of 13 x 13 (6 warps, the last with
     * 169 - 160 = 9 lanes), bias + 25 (input, weight) + store = 52 per warp:
     * 72 * 52 = 3744.  Layer 2: 50 x 2 blocks of one 25-lane warp, 1 + 25 *
     * 6 * 2 + 1 = 302: 30200.  Layer 3: 100 x 2 single threads, 1 + 2 * 1250
     * + 1 = 2502: 500400.  Layer 4: 10 x 2, 1 + 200 + 1 = 202: 4040. */
    probe pr[] = {
        {.launch = 0, .block = 8, .warp = 1, .nth = 1},
        {.launch = 0, .block = 8, .warp = 1, .nth = 2},
        {.launch = 0, .block = 8, .warp = 1, .nth = 15},
        {.launch = 0, .block = 8, .warp = 1, .nth = 51},
        {.launch = 0, .block = 8, .warp = 5, .nth = 0},
        {.launch = 1, .block = 53, .warp = 0, .nth = 9},
        {.launch = 1, .block = 53, .warp = 0, .nth = 10},
        {.launch = 2, .block = 107, .warp = 0, .nth = 1},
        {.launch = 2, .block = 107, .warp = 0, .nth = 2},
        {.launch = 2, .block = 107, .warp = 0, .nth = 2501},
    };
    walk *wk = walk_new(pr, 10);
    CHECK_EQ(walk_run("ispass/nn:images=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 4);
    CHECK_STR(wk->name[0], "executeFirstLayer");
    CHECK_STR(wk->name[3], "executeFourthLayer");
    CHECK_EQ(wk->grid[1].x, 50);
    CHECK_EQ(wk->grid[2].y, 2);
    CHECK_EQ(wk->mem[0], 3744);
    CHECK_EQ(wk->mem[1], 30200);
    CHECK_EQ(wk->mem[2], 500400);
    CHECK_EQ(wk->mem[3], 4040);
    CHECK_EQ(wk->empty_mask, 0);
    /* layer 1 block 8 = (map 2, image 1), warp 1 lane 0 = thread 32: tx 6,
     * ty 2: input 841 + 2*6 + 29*2*2 = 969 for i = 0, + 29 + 2 for i = 7;
     * weight W1[26*2 + 1] for every lane; store L2[338 + 32 + 1014] */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 0, R(0) + 969 * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(1) + 53 * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 31, R(1) + 53 * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 0, R(0) + 1000 * 4));
    CHECK(probe_is(&pr[3], WC_OP_STG, 0, R(2) + 1384 * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 0, R(1) + 52 * 4));
    CHECK_EQ(pr[4].got.mask, 0x1ffu);
    /* layer 2 block 53 = (map 3, image 1), i 0, input map 4: lane 7 (tx 2,
     * ty 1) reads L2[1014 + 676 + 4 + 26] = 1720 and W2[468 + 1 + 4] */
    CHECK(probe_is(&pr[5], WC_OP_LDG, 7, R(2) + 1720 * 4));
    CHECK_EQ(pr[5].got.mask, 0x1ffffffu);
    CHECK(probe_is(&pr[6], WC_OP_LDG, 7, R(3) + 473 * 4));
    /* layer 3 block 107 = (neuron 7, image 1) */
    CHECK(probe_is(&pr[7], WC_OP_LDG, 0, R(4) + 1250 * 4));
    CHECK(probe_is(&pr[8], WC_OP_LDG, 0, R(5) + 8758 * 4));
    CHECK(probe_is(&pr[9], WC_OP_STG, 0, R(6) + 107 * 4));
    CHECK_EQ(pr[9].got.mask, 1u);
    free(wk);
}

/* ---- mars/invertedindex --------------------------------------------------- */

/* The record layout the generator builds for `bytes` and `record` under
 * run seed 1 (its header: record + 1 + below(96) bytes each, the last one
 * the rest), re-derived here. */
static uint64_t ii_layout(uint64_t bytes, uint64_t record, uint64_t *off, uint64_t max)
{
    uint64_t rs = wc_rng_seed(1 ^ 0x696978), at = 0, n = 0;
    while (at < bytes && n < max) {
        off[n++] = at;
        at += record + 1 + wc_rng_below(&rs, 96);
    }
    off[n] = bytes;
    return n;
}

static void test_invertedindex(void)
{
    /* 5000 bytes in records of 64 + 1..96 bytes, every full 64-byte segment
     * holding a link (links=100): a record of size s has links at 17 (s >=
     * 64, always but for a short last record) and 81 (s >= 128).
     * MapperCount per warp: 4 loads (offsets, file_buf, block_offset,
     * block_size), one byte load per j < the warp's longest record, and 3
     * read-modify-writes for every j at which some lane has a link. */
    uint64_t off[128];
    uint64_t n = ii_layout(5000, 64, off, 120);
    CHECK(n > 32 && n < 77); /* 5000 / 161 .. 5000 / 65 */
    uint64_t count = 0, map = 0, prev = 0, prev_r33 = 0;
    for (uint64_t w0 = 0; w0 < n; w0 += 32) {
        uint64_t maxs = 0;
        bool l17 = false, l81 = false;
        for (uint64_t r = w0; r < n && r < w0 + 32; r++) {
            uint64_t s = off[r + 1] - off[r];
            maxs = s > maxs ? s : maxs;
            l17 |= s >= 64;
            l81 |= s >= 128;
        }
        count += 4 + maxs + 6 * (l17 + l81);
        /* Mapper: 9 setup accesses, the bytes, and per link position
         * 4 + 16*2 + 4*2 + 1 + 2 + 3 + 1 = 51 */
        map += 9 + maxs + 51 * (l17 + l81);
    }
    for (uint64_t r = 0; r < 33; r++) {
        uint64_t s = off[r + 1] - off[r];
        prev += (s >= 64) + (s >= 128);
        if (r == 32) prev_r33 = prev - (s >= 64) - (s >= 128);
    }
    probe pr[] = {
        {.launch = 0, .block = 0, .warp = 1, .nth = 4},
        {.launch = 0, .block = 0, .warp = 1, .nth = 5},
        {.launch = 1, .block = 0, .warp = 1, .nth = 9 + 17 + 1 + 4 + 1},
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("mars/invertedindex:bytes=5000,record=64,links=100", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_STR(wk->name[0], "MapperCount");
    CHECK_STR(wk->name[1], "Mapper");
    CHECK_EQ(wk->grid[0].x, 1);
    CHECK_EQ(wk->mem[0], count);
    CHECK_EQ(wk->mem[1], map);
    CHECK_EQ(wk->empty_mask, 0);
    /* warp 1 lane 0 is record 32: byte 0, then byte 1 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 0, R(0) + off[32]));
    CHECK_EQ(pr[0].got.width, 1);
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(0) + off[32] + 1));
    /* Mapper, the link at j = 17 of record 32: after 9 setup accesses and
     * bytes 0..17, the url_offset store, keyValOffsets, psKeySizes and
     * psValSizes loads, then key byte 0 (load) and its store into
     * interKeys[16 * (links of records 0..31)] */
    CHECK(probe_is(&pr[2], WC_OP_STG, 0, R(11) + prev_r33 * 16));
    free(wk);

    /* links=0: no emits; bytes only */
    wk = walk_new(NULL, 0);
    CHECK_EQ(walk_run("mars/invertedindex:bytes=5000,record=64,links=0", 1, wk), 0);
    uint64_t bytes = 0;
    for (uint64_t w0 = 0; w0 < n; w0 += 32) {
        uint64_t maxs = 0;
        for (uint64_t r = w0; r < n && r < w0 + 32; r++)
            maxs = off[r + 1] - off[r] > maxs ? off[r + 1] - off[r] : maxs;
        bytes += maxs;
    }
    CHECK_EQ(wk->mem[0], bytes + 4 * ((n + 31) / 32));
    free(wk);
}

/* ---- rodinia/hotspot3d ---------------------------------------------------- */

static void test_hotspot3d(void)
{
    /* 64 x 8 x 3, 2 iterations: grid (1, 2) of 64 x 4 (8 warps; warp w is
     * row ty = w/2, x = 32*(w%2) + lane).  Per warp: layer 0 centre, above,
     * W, E, S, N, p, store = 8; layer 1 without the centre = 7; layer 2
     * without the layer above = 6: 21, 16 warps: 336 per launch. */
    probe pr[] = {
        {.launch = 0, .block = 1, .warp = 3, .nth = 0},
        {.launch = 0, .block = 1, .warp = 3, .nth = 1},
        {.launch = 0, .block = 1, .warp = 3, .nth = 2},
        {.launch = 0, .block = 1, .warp = 3, .nth = 3},
        {.launch = 0, .block = 1, .warp = 3, .nth = 4},
        {.launch = 0, .block = 1, .warp = 3, .nth = 5},
        {.launch = 0, .block = 1, .warp = 3, .nth = 6},
        {.launch = 0, .block = 1, .warp = 3, .nth = 7},
        {.launch = 0, .block = 1, .warp = 7, .nth = 17},
        {.launch = 0, .block = 1, .warp = 7, .nth = 18},
        {.launch = 1, .block = 1, .warp = 3, .nth = 0},
        {.launch = 1, .block = 1, .warp = 3, .nth = 7},
    };
    walk *wk = walk_new(pr, 12);
    CHECK_EQ(walk_run("rodinia/hotspot3d:cols=64,rows=8,layers=3", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_STR(wk->name[0], "hotspotOpt1");
    CHECK_EQ(wk->grid[0].x, 1);
    CHECK_EQ(wk->grid[0].y, 2);
    CHECK_EQ(wk->mem[0], 336);
    CHECK_EQ(wk->mem[1], 336);
    CHECK_EQ(wk->empty_mask, 0);
    /* block (0, 1) warp 3: j = 4 + 1 = 5, i = 32 + lane: c = 352 + lane;
     * the layer above is 512 further; W of lane 0 is 351; E of lane 31
     * (i = 63, the x face) is clamped to c = 383; S = c + 64, N = c - 64;
     * then p[c] and the store to the other buffer */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 0, R(1) + 352 * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(1) + 864 * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 0, R(1) + 351 * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 0, R(1) + 353 * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 31, R(1) + 383 * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 0, R(1) + 416 * 4));
    CHECK(probe_is(&pr[5], WC_OP_LDG, 0, R(1) + 288 * 4));
    CHECK(probe_is(&pr[6], WC_OP_LDG, 0, R(0) + 352 * 4));
    CHECK(probe_is(&pr[7], WC_OP_STG, 0, R(2) + 352 * 4));
    /* warp 7 (j = 7, the y face), layer 2 (after 8 + 7 accesses): W, E,
     * then S clamped to c = 32 + 7*64 + 2*512 = 1504 and N = 1440 */
    CHECK(probe_is(&pr[8], WC_OP_LDG, 0, R(1) + 1504 * 4));
    CHECK(probe_is(&pr[9], WC_OP_LDG, 0, R(1) + 1440 * 4));
    /* the second launch reads the first one's output */
    CHECK(probe_is(&pr[10], WC_OP_LDG, 0, R(2) + 352 * 4));
    CHECK(probe_is(&pr[11], WC_OP_STG, 0, R(1) + 352 * 4));
    free(wk);

    wc_err err;
    CHECK(wc_workload_open("rodinia/hotspot3d:cols=100", 1, &err) == NULL);
}

/* ---- default launch shapes ------------------------------------------------ */

/* Launch count and the shape of launch `at` of a workload at its default
 * size, without generating instructions. */
static uint32_t launches(const char *spec, uint32_t at, wc_kernel *k)
{
    wc_err err;
    wc_source *src = wc_workload_open(spec, 1, &err);
    if (!src) return 0;
    wc_kernel cur;
    uint32_t n = 0;
    while (src->ops->next_kernel(src, &cur, &err) == 1)
        if (n++ == at) *k = cur;
    wc_source_destroy(src);
    return n;
}

static void test_defaults(void)
{
    /* the samples' defaults: ceil(50000/256) = 196 blocks; scalarProd
     * <<<128, 256>>>; BlackScholes <<<480, 128>>>; FWT of 2^23: 6 radix-4
     * passes + 1 shared-memory launch per transform, 3 transforms and the
     * modulation = 22, batch2 grid 2^23 / 1024 = 8192; convolution rows
     * (3072/128, 3072/4), columns (3072/16, 3072/64); NN layer 1 (6, 28) */
    wc_kernel k;
    memset(&k, 0, sizeof k);
    CHECK_EQ(launches("sdk/vectoradd", 0, &k), 1);
    CHECK_EQ(k.grid.x, 196);
    CHECK_EQ(launches("sdk/scalarprod", 0, &k), 1);
    CHECK_EQ(k.grid.x, 128);
    CHECK_EQ(k.block.x, 256);
    CHECK_EQ(launches("sdk/blackscholes", 0, &k), 1);
    CHECK_EQ(k.grid.x, 480);
    CHECK_EQ(k.block.x, 128);
    CHECK_EQ(launches("sdk/fwt", 0, &k), 22);
    CHECK_EQ(k.grid.x, 8192);
    CHECK_EQ(launches("sdk/fwt", 6, &k), 22);
    CHECK_EQ(k.grid.x, 4096);
    CHECK_EQ(k.block.x, 512);
    CHECK_EQ(launches("sdk/convsep", 0, &k), 2);
    CHECK_EQ(k.grid.x, 24);
    CHECK_EQ(k.grid.y, 768);
    CHECK_EQ(launches("sdk/convsep", 1, &k), 2);
    CHECK_EQ(k.grid.x, 192);
    CHECK_EQ(k.grid.y, 48);
    CHECK_EQ(launches("ispass/nn", 0, &k), 4);
    CHECK_EQ(k.grid.x, 6);
    CHECK_EQ(k.grid.y, 28);
    CHECK_EQ(launches("mars/invertedindex", 1, &k), 2);
    CHECK_EQ(k.block.x, 256);
}

int main(void)
{
    RUN(test_vectoradd);
    RUN(test_scalarprod);
    RUN(test_blackscholes);
    RUN(test_fwt);
    RUN(test_convsep);
    RUN(test_mcpi);
    RUN(test_nn);
    RUN(test_invertedindex);
    RUN(test_hotspot3d);
    RUN(test_defaults);
    return check_summary("wl_seed002");
}
