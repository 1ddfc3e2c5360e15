/*
 * test_wl_rodinia.c - the Rodinia address generators (src/workloads/rodinia/)
 * against hand-derived addresses and independently counted instruction
 * totals.
 *
 * Each test opens a workload at a small size, pulls every instruction of every
 * launch through the wc_source ops (warps interleaved round-robin, as an engine
 * would, and holding each warp at a barrier until the block's other running warps
 * reach it), and checks (a) a few exact per-lane addresses computed here from the
 * kernel formulas in ../shared/specs/workloads.md and (b) the number of
 * global-memory warp instructions per launch, computed from loop bounds and
 * guards or, for data-dependent kernels, by a separate per-thread
 * reimplementation over the same seeded input.
 */
#include <stdlib.h>

#include "check.h"
#include "util/rng.h"
#include "warpcache/workloads.h"

/* ---- walker ------------------------------------------------------------- */

#include "wl_walk.h"

/* ---- kmeans -------------------------------------------------------------- */

static void test_kmeans(void)
{
    /* n=1000: ceil(1000/256)=4 blocks, P = floor(sqrt 4)+1 = 3 -> 9 blocks. */
    probe pr[] = {
        {.launch = 0, .block = 1, .warp = 2, .nth = 2},      /* i=1 load */
        {.launch = 0, .block = 1, .warp = 2, .nth = 3},      /* i=1 store */
        {.launch = 1, .block = 4, .warp = 0, .nth = 34 + 3}, /* cluster 1, feature 3 */
        {.launch = 1, .block = 3, .warp = 7, .nth = 5 * 34}, /* membership store */
    };
    walk *wk = walk_new(pr, 4);
    CHECK_EQ(walk_run("rodinia/kmeans:n=1000,features=34,iterations=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 3);
    CHECK_STR(wk->name[0], "invert_mapping");
    CHECK_STR(wk->name[1], "kmeansPoint");
    CHECK_EQ(wk->grid[0].x, 9);
    CHECK_EQ(wk->grid[1].x, 3);
    CHECK_EQ(wk->grid[1].y, 3);
    /* warps holding at least one point < 1000: ceil(1000/32) = 32 */
    CHECK_EQ(wk->mem[0], 32 * 34 * 2);
    CHECK_EQ(wk->mem[1], 32 * (5 * 34 + 1));
    CHECK_EQ(wk->mem[2], 32 * (5 * 34 + 1));
    CHECK_EQ(wk->empty_mask, 0);
    /* block 1 warp 2 lane 5: pid = 256+64+5 = 325; input[325*34+1] */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 5, R(0) + (325 * 34 + 1) * 4));
    CHECK(probe_is(&pr[1], WC_OP_STG, 5, R(1) + (325 + 1000 * 1) * 4));
    /* kmeansPoint block 4 = (1,1): pid = (3*1+1)*256 + lane 7 -> features[3*n + 1031]?
     * 1031 >= 1000 -> lane 7 inactive; take lane 0 of warp 0 -> pid 1024 also out; so
     * block 3 = (0,1): pid = 768.  We probe block 4 only for absence. */
    CHECK(!pr[2].found);
    /* block 3 warp 7: pid0 = 768 + 224 = 992; lanes 0..7 live */
    CHECK(probe_is(&pr[3], WC_OP_STG, 7, R(2) + 999 * 4));
    CHECK_EQ(pr[3].got.mask, 0xff);
    free(wk);
}

static void test_kmeans_converges(void)
{
    walk *wk = walk_new(NULL, 0);
    CHECK_EQ(walk_run("rodinia/kmeans:n=3000,features=8,iterations=0", 3, wk), 0);
    /* at least: invert, first iteration (delta = n), a final one with delta 0 */
    CHECK(wk->nlaunch >= 3 && wk->nlaunch < 60);
    CHECK_STR(wk->name[wk->nlaunch - 1], "kmeansPoint");
    free(wk);
}

/* ---- bfs ------------------------------------------------------------------ */

typedef struct graph {
    uint64_t n;
    uint32_t *start, *edges;
} graph;

/* graphgen as documented in bfs.c: per node 2 + below(3) edges to below(n). */
static graph graph_make(uint64_t n, uint64_t seed)
{
    graph g = {n, calloc(n + 1, 4), NULL};
    uint64_t r = wc_rng_seed(seed ^ 0x626673ull), cap = n * 8, np = 0;
    uint32_t *pa = malloc(cap * 4), *deg = calloc(n, 4), *fill = calloc(n, 4);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t ne = 2 + wc_rng_below(&r, 3);
        for (uint64_t e = 0; e < ne; e++) {
            uint32_t j = (uint32_t)wc_rng_below(&r, n);
            pa[2 * np] = (uint32_t)i, pa[2 * np + 1] = j, np++;
            deg[i]++, deg[j]++;
        }
    }
    for (uint64_t i = 0; i < n; i++) g.start[i + 1] = g.start[i] + deg[i];
    g.edges = malloc(2 * np * 4);
    for (uint64_t p = 0; p < np; p++) {
        g.edges[g.start[pa[2 * p]] + fill[pa[2 * p]]++] = pa[2 * p + 1];
        g.edges[g.start[pa[2 * p + 1]] + fill[pa[2 * p + 1]]++] = pa[2 * p];
    }
    free(pa), free(deg), free(fill);
    return g;
}

typedef struct bfs_seen {
    uint8_t *visited_stored;
    uint64_t n;
} bfs_seen;

static void bfs_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp,
                      const wc_winst *in)
{
    bfs_seen *s = vctx;
    if (launch % 2 == 1 && in->op == WC_OP_STG)
        for (unsigned l = 0; l < 32; l++) {
            uint64_t a = wc_winst_lane_addr(in, l);
            if ((in->mask >> l & 1) && a >= R(4) && a < R(4) + s->n)
                s->visited_stored[a - R(4)] = 1;
        }
}

static void test_bfs(void)
{
    const uint64_t n = 3000, seed = 7;
    graph g = graph_make(n, seed);
    /* Expected counts: simulate every thread, mark which (instruction, edge
     * iteration) each warp executes, count the marks. */
    uint8_t *mask = calloc(n, 1), *vis = calloc(n, 1), *upd = calloc(n, 1);
    mask[0] = vis[0] = 1;
    uint64_t expect[MAXL] = {0};
    uint32_t launches = 0, nwarps = (uint32_t)((n + 31) / 32);
    for (;;) {
        /* Kernel: pcs 0 mask load, 1 mask store, 2/3 node loads; per edge k:
         * 4 edge load, 5 visited load, 6 cost load, 7 cost store, 8 upd store */
        for (uint32_t w = 0; w < nwarps; w++) {
            static uint8_t mark[9][64];
            memset(mark, 0, sizeof mark);
            for (uint64_t t = w * 32ull; t < n && t < w * 32ull + 32; t++) {
                mark[0][0] = 1;
                if (!mask[t]) continue;
                mark[1][0] = mark[2][0] = mark[3][0] = 1;
                for (uint32_t k = 0; k < g.start[t + 1] - g.start[t]; k++) {
                    mark[4][k] = mark[5][k] = 1;
                    if (!vis[g.edges[g.start[t] + k]]) mark[6][k] = mark[7][k] = mark[8][k] = 1;
                }
            }
            for (int a = 0; a < 9; a++)
                for (int k = 0; k < 64; k++) expect[launches] += mark[a][k];
        }
        for (uint64_t t = 0; t < n; t++)
            if (mask[t]) {
                mask[t] = 0;
                for (uint32_t e = g.start[t]; e < g.start[t + 1]; e++)
                    if (!vis[g.edges[e]]) upd[g.edges[e]] = 1;
            }
        launches++;
        /* Kernel2: 1 load per warp, 4 stores per warp with an updated node */
        bool over = false;
        for (uint32_t w = 0; w < nwarps; w++) {
            bool any = false;
            for (uint64_t t = w * 32ull; t < n && t < w * 32ull + 32; t++) any |= upd[t] != 0;
            expect[launches] += 1 + (any ? 4 : 0);
        }
        for (uint64_t t = 0; t < n; t++)
            if (upd[t]) mask[t] = vis[t] = 1, upd[t] = 0, over = true;
        launches++;
        if (!over) break;
    }
    bfs_seen seen = {calloc(n, 1), n};
    probe pr[] = {{.launch = 0, .block = 0, .warp = 0, .nth = 4}}; /* first edge of node 0 */
    walk *wk = walk_new(pr, 1);
    wk->visit = bfs_visit;
    wk->vctx = &seen;
    char spec[64];
    snprintf(spec, sizeof spec, "rodinia/bfs:nodes=%llu", (unsigned long long)n);
    CHECK_EQ(walk_run(spec, seed, wk), 0);
    CHECK_EQ(wk->nlaunch, launches);
    CHECK_EQ(wk->empty_mask, 0);
    CHECK_EQ(wk->grid[0].x, 6);
    for (uint32_t i = 0; i < launches && i < MAXL; i++) CHECK_EQ(wk->mem[i], expect[i]);
    CHECK(probe_is(&pr[0], WC_OP_LDG, 0, R(1) + 0));
    /* every node reachable from 0 (own queue BFS) had visited[] stored, and
     * no other node (node 0 is visited from the start) */
    uint32_t *q = malloc(n * 4), qh = 0, qt = 0;
    uint8_t *reach = calloc(n, 1);
    reach[0] = 1, q[qt++] = 0;
    while (qh < qt) {
        uint32_t u = q[qh++];
        for (uint32_t e = g.start[u]; e < g.start[u + 1]; e++)
            if (!reach[g.edges[e]]) reach[g.edges[e]] = 1, q[qt++] = g.edges[e];
    }
    uint64_t bad = 0, nreach = 0;
    for (uint64_t i = 1; i < n; i++) bad += reach[i] != seen.visited_stored[i], nreach += reach[i];
    CHECK_EQ(bad, 0);
    CHECK(nreach > n * 9 / 10);
    free(q), free(reach), free(seen.visited_stored), free(mask), free(vis), free(upd);
    free(g.start), free(g.edges), free(wk);
}

/* ---- hotspot --------------------------------------------------------------- */

static void test_hotspot(void)
{
    /* size 64, pyramid 2, 3 iterations: launches with 2 and 1 steps, B = ceil(64/12) = 6 */
    probe pr[] = {
        {.launch = 0, .block = 2 * 6 + 1, .warp = 3, .nth = 0}, /* (1,2): temp load */
        {.launch = 0, .block = 0, .warp = 1, .nth = 2},         /* (0,0): dst store */
        {.launch = 1, .block = 0, .warp = 1, .nth = 0},         /* 2nd launch reads temp[1] */
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("rodinia/hotspot:size=64,pyramid=2,iterations=3", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->grid[0].x, 6);
    CHECK_EQ(wk->grid[0].y, 6);
    CHECK_EQ(wk->empty_mask, 0);
    /* per thread: loads when (12by-2+ty, 12bx-2+tx) is in the grid; stores when
     * also tx, ty in [s, 15-s] with s = steps of the launch */
    for (int launch = 0; launch < 2; launch++) {
        int s = launch == 0 ? 2 : 1;
        uint64_t expect = 0;
        for (int by = 0; by < 6; by++)
            for (int bx = 0; bx < 6; bx++)
                for (int wp = 0; wp < 8; wp++) {
                    bool ld = false, st = false;
                    for (int l = 0; l < 32; l++) {
                        int tx = l % 16, ty = 2 * wp + l / 16, y = 12 * by - 2 + ty,
                            x = 12 * bx - 2 + tx;
                        bool in = y >= 0 && y < 64 && x >= 0 && x < 64;
                        ld |= in;
                        st |= in && tx >= s && tx <= 15 - s && ty >= s && ty <= 15 - s;
                    }
                    expect += 2 * ld + st;
                }
        CHECK_EQ(wk->mem[launch], expect);
    }
    /* (1,2) warp 3 lane 17: tx 1, ty 7 -> y = 29, x = 11 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 17, R(0) + (29 * 64 + 11) * 4));
    /* (0,0) warp 1 lane 18: tx 2, ty 3 -> y 1, x 0; stored to temp[1] */
    CHECK(probe_is(&pr[1], WC_OP_STG, 18, R(1) + (1 * 64 + 0) * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 18, R(1) + (1 * 64 + 0) * 4));
    free(wk);
}

/* hotspot alu=3 (seed 001's Table 1 instruction count), same size as above:
 * each (warp, step) with a computed lane runs 8 x 3 ALU instructions instead
 * of 8, i.e. 16 more; the memory accesses stay as they are. */
static void test_hotspot_alu(void)
{
    uint64_t busy = 0; /* (warp, step) pairs with a lane computed in the step */
    for (int launch = 0; launch < 2; launch++)
        for (int by = 0; by < 6; by++)
            for (int bx = 0; bx < 6; bx++)
                for (int wp = 0; wp < 8; wp++)
                    for (int i = 0; i < (launch == 0 ? 2 : 1); i++) {
                        bool comp = false;
                        for (int l = 0; l < 32; l++) {
                            int tx = l % 16, ty = 2 * wp + l / 16, y = 12 * by - 2 + ty,
                                x = 12 * bx - 2 + tx;
                            comp |= y >= 0 && y < 64 && x >= 0 && x < 64 && tx >= i + 1 &&
                                    tx <= 14 - i && ty >= i + 1 && ty <= 14 - i;
                        }
                        busy += comp;
                    }
    walk *a1 = walk_new(NULL, 0), *a3 = walk_new(NULL, 0);
    CHECK_EQ(walk_run("rodinia/hotspot:size=64,pyramid=2,iterations=3", 1, a1), 0);
    CHECK_EQ(walk_run("rodinia/hotspot:size=64,pyramid=2,iterations=3,alu=3", 1, a3), 0);
    CHECK_EQ(a3->alu - a1->alu, 16 * busy);
    CHECK_EQ(a3->total_mem, a1->total_mem);
    CHECK_EQ(a3->lds, a1->lds);
    free(a1);
    free(a3);
    wc_err err = {{0}};
    CHECK(wc_workload_open("rodinia/hotspot:alu=0", 1, &err) == NULL);
    CHECK(strstr(err.msg, "alu") != NULL);
}

/* hotspot shared=0 (seed 004's HS/U), same size as above: no shared memory;
 * per step the computed lanes load centre, N, S, W, E temperatures and power
 * (6 LDG), store their result to the block's scratch tile (array 3) unless it
 * is the launch's last step, and the last step's lanes store temp_dst; one
 * barrier between steps. */
static void test_hotspot_unshared(void)
{
    probe pr[] = {
        {.launch = 0, .block = 2 * 6 + 1, .warp = 3, .nth = 0}, /* (1,2): centre, step 0 */
        {.launch = 0, .block = 2 * 6 + 1, .warp = 3, .nth = 1}, /* N */
        {.launch = 0, .block = 2 * 6 + 1, .warp = 3, .nth = 5}, /* power */
        {.launch = 0, .block = 2 * 6 + 1, .warp = 3, .nth = 6}, /* step 0 result to scratch */
        {.launch = 0, .block = 2 * 6 + 1, .warp = 3, .nth = 7}, /* step 1 centre: scratch */
        {.launch = 0, .block = 0, .warp = 1, .nth = 1},         /* (0,0): N clamped */
        {.launch = 0, .block = 0, .warp = 1, .nth = 3},         /* W clamped */
    };
    walk *wk = walk_new(pr, 7);
    CHECK_EQ(walk_run("rodinia/hotspot:size=64,pyramid=2,iterations=3,shared=0", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->lds, 0);
    CHECK_EQ(wk->bar, 6 * 6 * 8); /* launch 0 (2 steps): one per warp; launch 1: none */
    for (int launch = 0; launch < 2; launch++) {
        int steps = launch == 0 ? 2 : 1;
        uint64_t expect = 0;
        for (int by = 0; by < 6; by++)
            for (int bx = 0; bx < 6; bx++)
                for (int wp = 0; wp < 8; wp++)
                    for (int i = 0; i < steps; i++) {
                        bool comp = false; /* some lane computed in step i */
                        for (int l = 0; l < 32; l++) {
                            int tx = l % 16, ty = 2 * wp + l / 16, y = 12 * by - 2 + ty,
                                x = 12 * bx - 2 + tx;
                            comp |= y >= 0 && y < 64 && x >= 0 && x < 64 && tx >= i + 1 &&
                                    tx <= 14 - i && ty >= i + 1 && ty <= 14 - i;
                        }
                        expect += comp ? 6 + 1 : 0; /* the store: scratch, or temp_dst last */
                    }
        CHECK_EQ(wk->mem[launch], expect);
    }
    /* (1,2) warp 3 lane 17: tx 1, ty 7 -> y 29, x 11 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 17, R(0) + (29 * 64 + 11) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 17, R(0) + (28 * 64 + 11) * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 17, R(2) + (29 * 64 + 11) * 4));
    /* scratch: array 3, block 13, parity 0, element 7*16+1 */
    CHECK(probe_is(&pr[3], WC_OP_STG, 17, R(3) + (13 * 2 + 0) * 1024 + (7 * 16 + 1) * 4));
    /* step 1 computes tx, ty in [2, 13]: lane 18 (tx 2, ty 7) reads its centre from
     * the scratch tile step 0 wrote (parity 0) */
    CHECK(probe_is(&pr[4], WC_OP_LDG, 18, R(3) + (13 * 2 + 0) * 1024 + (7 * 16 + 2) * 4));
    /* (0,0): tile origin (-2,-2), valid from tile row/column 2; warp 1 lane 2: tx 2,
     * ty 2 -> N (ty 1) and W (tx 1) clamp to tile 2, i.e. element (0,0) */
    CHECK(probe_is(&pr[5], WC_OP_LDG, 2, R(0)));
    CHECK(probe_is(&pr[6], WC_OP_LDG, 2, R(0)));
    free(wk);
    wc_err err = {{0}};
    CHECK(wc_workload_open("rodinia/hotspot:shared=2", 1, &err) == NULL);
    CHECK(strstr(err.msg, "shared") != NULL);
}

/* ---- pathfinder -------------------------------------------------------------- */

static void test_pathfinder(void)
{
    /* cols 1000, rows 10, pyramid 4: launches t = 0, 4, 8 with 4, 4, 1 steps;
     * grid = ceil(1000 / 248) = 5 */
    probe pr[] = {
        {.launch = 2, .block = 1, .warp = 0, .nth = 0},
        {.launch = 2, .block = 1, .warp = 0, .nth = 1},
        {.launch = 0, .block = 0, .warp = 0, .nth = 0},
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("rodinia/pathfinder:cols=1000,rows=10,pyramid=4", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 3);
    CHECK_EQ(wk->grid[0].x, 5);
    CHECK_EQ(wk->empty_mask, 0);
    int steps[3] = {4, 4, 1};
    for (int launch = 0; launch < 3; launch++) {
        int it = steps[launch];
        uint64_t expect = 0;
        for (int bx = 0; bx < 5; bx++)
            for (int wp = 0; wp < 8; wp++) {
                bool ld = false;
                for (int i = 0; i < it; i++) {
                    bool comp = false;
                    for (int l = 0; l < 32; l++) {
                        int tx = wp * 32 + l, x = (256 - 2 * it) * bx - 4 + tx;
                        bool in = x >= 0 && x < 1000;
                        ld |= in;
                        comp |= in && tx >= i + 1 && tx <= 254 - i;
                    }
                    expect += comp + (i == it - 1 ? comp : 0); /* wall load; final store */
                }
                expect += ld;
            }
        CHECK_EQ(wk->mem[launch], expect);
    }
    /* launch 2: blkX = 254*1 - 4 = 250; lane 5 -> x = 255; src = result[0] (region 1) */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 5, R(1) + 255 * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 5, R(0) + (1000 * 8 + 255) * 4));
    /* launch 0 block 0: blkX = -4, lane 4 -> x 0 */
    CHECK(probe_is(&pr[2], WC_OP_LDG, 4, R(1)));
    CHECK_EQ(pr[2].got.mask, 0xfffffff0u);
    free(wk);
}

/* pathfinder shared=0, same size: per computing step 3 LDG of the previous
 * values (src first, then the block's scratch row, array 3), the wall LDG
 * and one STG (to the scratch, or results in the last step): 5 per warp and
 * step with a computing lane; a barrier between steps. */
static void test_pathfinder_unshared(void)
{
    probe pr[] = {
        {.launch = 2, .block = 1, .warp = 0, .nth = 0}, /* W */
        {.launch = 2, .block = 1, .warp = 0, .nth = 2}, /* E */
        {.launch = 2, .block = 1, .warp = 0, .nth = 3}, /* wall */
        {.launch = 0, .block = 0, .warp = 0, .nth = 0}, /* W clamped at the grid's edge */
        {.launch = 0, .block = 0, .warp = 0, .nth = 4}, /* step 0 result to scratch */
        {.launch = 0, .block = 0, .warp = 0, .nth = 6}, /* step 1 centre from scratch */
    };
    walk *wk = walk_new(pr, 6);
    CHECK_EQ(walk_run("rodinia/pathfinder:cols=1000,rows=10,pyramid=4,shared=0", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 3);
    CHECK_EQ(wk->lds, 0);
    CHECK_EQ(wk->bar, 2 * 3 * 5 * 8); /* launches 0 and 1: 3 per warp */
    int steps[3] = {4, 4, 1};
    for (int launch = 0; launch < 3; launch++) {
        int it = steps[launch];
        uint64_t expect = 0;
        for (int bx = 0; bx < 5; bx++)
            for (int wp = 0; wp < 8; wp++)
                for (int i = 0; i < it; i++) {
                    bool comp = false;
                    for (int l = 0; l < 32; l++) {
                        int tx = wp * 32 + l, x = (256 - 2 * it) * bx - 4 + tx;
                        comp |= x >= 0 && x < 1000 && tx >= i + 1 && tx <= 254 - i;
                    }
                    expect += comp ? 5 : 0;
                }
        CHECK_EQ(wk->mem[launch], expect);
    }
    /* launch 2 (src result[0], region 1): blkX = 250; lane 5 -> tx 5, x 255 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 5, R(1) + 254 * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 5, R(1) + 256 * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 5, R(0) + (1000 * 8 + 255) * 4));
    /* launch 0 block 0: blkX = -4, valid from tx 4: lane 4's W clamps to tx 4 (x 0) */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 4, R(1)));
    CHECK_EQ(pr[3].got.mask, 0xfffffff0u);
    CHECK(probe_is(&pr[4], WC_OP_STG, 4, R(3) + 4 * 4));
    CHECK(probe_is(&pr[5], WC_OP_LDG, 5, R(3) + 5 * 4));
    free(wk);
}

/* ---- srad_v1 ------------------------------------------------------------------ */

static void test_srad_v1(void)
{
    /* 40 x 30, Ne = 1200, 3 blocks of 512, 2 iterations */
    probe pr[] = {
        {.launch = 4, .block = 0, .warp = 1, .nth = 5},      /* srad: I at north neighbour */
        {.launch = 4, .block = 0, .warp = 1, .nth = 6},      /* south */
        {.launch = 4, .block = 0, .warp = 1, .nth = 7},      /* west */
        {.launch = 4, .block = 0, .warp = 1, .nth = 8},      /* east */
        {.launch = 2, .block = 2, .warp = 3, .nth = 2},      /* reduce: leftover loop */
        {.launch = 2, .block = 2, .warp = 3, .nth = 2 + 96}, /* its store */
        {.launch = 3, .block = 0, .warp = 0, .nth = 0},
        {.launch = 5, .block = 0, .warp = 1, .nth = 11 - 1}, /* srad2 store */
    };
    walk *wk = walk_new(pr, 8);
    CHECK_EQ(walk_run("rodinia/srad_v1:rows=40,cols=30,iterations=2", 1, wk), 0);
    const char *names[] = {"extract", "prepare", "reduce", "reduce", "srad",  "srad2",
                           "prepare", "reduce",  "reduce", "srad",   "srad2", "compress"};
    uint64_t mem[] = {76, 114, 178, 6, 532, 418, 114, 178, 6, 532, 418, 76};
    CHECK_EQ(wk->nlaunch, 12);
    for (int i = 0; i < 12; i++) {
        CHECK_STR(wk->name[i], names[i]);
        CHECK_EQ(wk->mem[i], mem[i]);
    }
    CHECK_EQ(wk->grid[3].x, 1);
    CHECK_EQ(wk->empty_mask, 0);
    /* ei = 45 (lane 13): row 5, col 1 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 13, R(0) + (4 + 40) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 13, R(0) + (6 + 40) * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 13, R(0) + 5 * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 13, R(0) + (5 + 80) * 4));
    /* ei = 39 (lane 7): (39+1) % 40 == 0 -> row 39, col 0; iS clamps, jW clamps */
    CHECK(probe_is(&pr[1], WC_OP_LDG, 7, R(0) + 39 * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 7, R(0) + 39 * 4));
    /* reduce 1, last block: df = 128, thread 127 adds sums[1152..1199] */
    CHECK(probe_is(&pr[4], WC_OP_LDG, 31, R(10) + 1152 * 4));
    CHECK(probe_is(&pr[5], WC_OP_STG, 31, R(10) + 1024 * 4));
    /* reduce 2: mul 512, lane 2 loads sums[2*512] */
    CHECK(probe_is(&pr[6], WC_OP_LDG, 2, R(10) + 1024 * 4));
    CHECK_EQ(pr[6].got.mask, 7);
    CHECK(probe_is(&pr[7], WC_OP_STG, 0, R(0) + 32 * 4));
    free(wk);

    /* alu=3: srad's row/col step and its 24 arithmetic steps, and srad2's
     * row/col step, each 3 instructions: 64 x 16 = 1024 elements, 32 warps,
     * each (3 - 1) * (25 + 1) more per iteration; the memory accesses stay */
    walk *a1 = walk_new(NULL, 0), *a3 = walk_new(NULL, 0);
    CHECK_EQ(walk_run("rodinia/srad_v1:rows=64,cols=16,iterations=1", 1, a1), 0);
    CHECK_EQ(walk_run("rodinia/srad_v1:rows=64,cols=16,iterations=1,alu=3", 1, a3), 0);
    CHECK_EQ(a3->alu - a1->alu, 32 * 2 * 26);
    CHECK_EQ(a3->total_mem, a1->total_mem);
    free(a1);
    free(a3);
}

/* srad_v1 shared=0 (srad_v1/U), 40 x 30, 2 iterations: only reduce changes.
 * reduce 1 (no 1200, mul 1, 3 blocks, nf = 176): a full block has 9 levels;
 * level i's lanes (tx+1) % i == 0 fall in every warp for i <= 32 (5 x 16),
 * in 8, 4, 2, 1 warps for i = 64..512: 95 warp-levels x 6 (own and partner
 * of sums and sums2, two stores) + 2 final stores = 572.  The last block:
 * df = 128, 7 levels over warps 0-3: 5 x 4 + 2 + 1 = 23 x 6 = 138, thread
 * 127's 48 leftover iterations x 2 loads, 2 stores: 236.  Total 1380.
 * reduce 2 (no 3, mul 512, one block, nf 3): df 2, level 2 has only tx 1
 * (6), one leftover iteration (2), 2 stores: 10.  No shared memory. */
static void test_srad_v1_unshared(void)
{
    probe pr[] = {
        {.launch = 2, .block = 0, .warp = 0, .nth = 0}, /* level 2: own sums[ei] */
        {.launch = 2, .block = 0, .warp = 0, .nth = 1}, /* partner sums[ei - 1] */
        {.launch = 2, .block = 0, .warp = 0, .nth = 2}, /* store own sums[ei] */
        {.launch = 3, .block = 0, .warp = 0, .nth = 0}, /* reduce 2, tx 1: sums[512] */
        {.launch = 3, .block = 0, .warp = 0, .nth = 1}, /* partner sums[0] */
        {.launch = 3, .block = 0, .warp = 0, .nth = 2}, /* store sums[512] */
    };
    walk *wk = walk_new(pr, 6);
    CHECK_EQ(walk_run("rodinia/srad_v1:rows=40,cols=30,iterations=2,shared=0", 1, wk), 0);
    const char *names[] = {"extract", "prepare", "reduce", "reduce", "srad",  "srad2",
                           "prepare", "reduce",  "reduce", "srad",   "srad2", "compress"};
    uint64_t mem[] = {76, 114, 1380, 10, 532, 418, 114, 1380, 10, 532, 418, 76};
    CHECK_EQ(wk->nlaunch, 12);
    for (int i = 0; i < 12; i++) {
        CHECK_STR(wk->name[i], names[i]);
        CHECK_EQ(wk->mem[i], mem[i]);
    }
    CHECK_EQ(wk->lds, 0);
    CHECK(probe_is(&pr[0], WC_OP_LDG, 1, R(10) + 1 * 4));
    CHECK(probe_is(&pr[0], WC_OP_LDG, 31, R(10) + 31 * 4));
    CHECK_EQ(pr[0].got.mask, 0xaaaaaaaau);
    CHECK(probe_is(&pr[1], WC_OP_LDG, 1, R(10) + 0));
    CHECK(probe_is(&pr[2], WC_OP_STG, 31, R(10) + 31 * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 1, R(10) + 512 * 4));
    CHECK_EQ(pr[3].got.mask, 2);
    CHECK(probe_is(&pr[4], WC_OP_LDG, 1, R(10) + 0));
    CHECK(probe_is(&pr[5], WC_OP_STG, 1, R(10) + 512 * 4));
    free(wk);
}

/* ---- srad_v2 ------------------------------------------------------------------ */

static void test_srad_v2(void)
{
    /* 48 rows x 32 cols: grid (2, 3) */
    probe pr[] = {
        {.launch = 0, .block = 3, .warp = 2, .nth = 0}, /* (1,1) north */
        {.launch = 0, .block = 3, .warp = 2, .nth = 2}, /* west */
        {.launch = 0, .block = 3, .warp = 2, .nth = 6}, /* store C */
        {.launch = 0, .block = 0, .warp = 0, .nth = 2}, /* (0,0) top reload */
        {.launch = 1, .block = 5, .warp = 7, .nth = 1}, /* (1,2) kernel 2 bottom reload */
        {.launch = 1, .block = 3, .warp = 2, .nth = 5}, /* (1,1) N_C load */
    };
    walk *wk = walk_new(pr, 6);
    CHECK_EQ(walk_run("rodinia/srad_v2:rows=48,cols=32,iterations=1", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->mem[0], 560);
    CHECK_EQ(wk->mem[1], 472);
    /* warp 2 lane 20: tx 4, ty 5; base = 32*16 + 16 = 528 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 20, R(0) + (528 + 4 - 32) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 20, R(0) + (528 + 32 * 5 - 1) * 4));
    CHECK(probe_is(&pr[2], WC_OP_STG, 20, R(1) + (528 + 32 * 5 + 4) * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 3, R(0) + 3 * 4));
    /* lane 9: tx 9; 32*16*2 + 16 + 32*15 + 9 = 1529 */
    CHECK(probe_is(&pr[4], WC_OP_LDG, 9, R(1) + 1529 * 4));
    /* (1,1) kernel 2: S, E, E-right, C, J, then N_C at index */
    CHECK(probe_is(&pr[5], WC_OP_LDG, 20, R(5) + (528 + 32 * 5 + 4) * 4));
    free(wk);
}

/* srad_v2 shared=0 (seed 004's SRAD/U), 48 x 32: no shared memory and no
 * barriers; kernel 1 per warp 5 LDG of J (index, N, S, W, E, clamped at the
 * image edges) + 5 STG; kernel 2: J, then 4 x (C at index/south/index/east and
 * the direction's array), 1 STG: 10 each, 6 blocks x 8 warps x 10 = 480. */
static void test_srad_v2_unshared(void)
{
    probe pr[] = {
        {.launch = 0, .block = 3, .warp = 2, .nth = 0}, /* (1,1) J[index] */
        {.launch = 0, .block = 3, .warp = 2, .nth = 1}, /* north */
        {.launch = 0, .block = 3, .warp = 2, .nth = 3}, /* west */
        {.launch = 0, .block = 0, .warp = 0, .nth = 1}, /* (0,0) north clamped */
        {.launch = 0, .block = 1, .warp = 0, .nth = 4}, /* (1,0) east clamped */
        {.launch = 1, .block = 5, .warp = 7, .nth = 1}, /* (1,2) cN = C[index] */
        {.launch = 1, .block = 5, .warp = 7, .nth = 2}, /* N[index] */
        {.launch = 1, .block = 5, .warp = 7, .nth = 3}, /* cS, clamped in the last row */
    };
    walk *wk = walk_new(pr, 8);
    CHECK_EQ(walk_run("rodinia/srad_v2:rows=48,cols=32,iterations=1,shared=0", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->mem[0], 480);
    CHECK_EQ(wk->mem[1], 480);
    CHECK_EQ(wk->lds, 0);
    CHECK_EQ(wk->bar, 0);
    /* (1,1) warp 2 lane 20: tx 4, ty 5 -> y 21, x 20 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 20, R(0) + (21 * 32 + 20) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 20, R(0) + (20 * 32 + 20) * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 20, R(0) + (21 * 32 + 19) * 4));
    /* (0,0) lane 3: y 0, x 3 -> north is itself; (1,0) lane 15: x 31 -> east itself */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 3, R(0) + 3 * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 15, R(0) + 31 * 4));
    /* (1,2) warp 7: lane 9 y 46, x 25; lane 25 y 47 (last row), x 25 */
    CHECK(probe_is(&pr[5], WC_OP_LDG, 9, R(1) + (46 * 32 + 25) * 4));
    CHECK(probe_is(&pr[6], WC_OP_LDG, 9, R(5) + (46 * 32 + 25) * 4));
    CHECK(probe_is(&pr[7], WC_OP_LDG, 9, R(1) + (47 * 32 + 25) * 4));
    CHECK(probe_is(&pr[7], WC_OP_LDG, 25, R(1) + (47 * 32 + 25) * 4));
    free(wk);
}

/* ---- nw ----------------------------------------------------------------------- */

static void test_nw(void)
{
    /* size 64: cols 65, 4 + 3 launches, 16 blocks of one 16-lane warp */
    probe pr[] = {
        {.launch = 3, .block = 2, .warp = 0, .nth = 1},
        {.launch = 3, .block = 2, .warp = 0, .nth = 17},
        {.launch = 4, .block = 0, .warp = 0, .nth = 0},
        {.launch = 3, .block = 2, .warp = 0, .nth = 34},
    };
    walk *wk = walk_new(pr, 4);
    CHECK_EQ(walk_run("rodinia/nw:size=64", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 7);
    uint32_t blocks[] = {1, 2, 3, 4, 3, 2, 1};
    for (int i = 0; i < 7; i++) {
        CHECK_EQ(wk->grid[i].x, blocks[i]);
        CHECK_EQ(wk->mem[i], blocks[i] * (1 + 16 + 1 + 1 + 16));
    }
    CHECK_STR(wk->name[4], "needle_cuda_shared_2");
    /* i = 4, block 2 -> tile (2, 1): base = 65*16 + 32 = 1072 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 3, R(0) + (1072 + 66 + 3) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 5, R(1) + (1072 + 65 + 65 * 5) * 4));
    /* second kernel i = 3, block 0 -> tile (1, 3): base = 65*48 + 16 */
    CHECK(probe_is(&pr[2], WC_OP_LDG, 0, R(1) + (65 * 48 + 16) * 4));
    CHECK_EQ(pr[2].got.mask, 1);
    /* last row store: ty = 15 */
    CHECK(probe_is(&pr[3], WC_OP_STG, 15, R(1) + (1072 + 66 + 15 + 65 * 15) * 4));
    free(wk);
}

/* nw shared=0, same size: the wavefront in global memory, 31 steps of 4 LDG
 * (temp at (y-1,x-1), (y,x-1), (y-1,x), ref at (y-1,x-1)) and 1 STG
 * (temp at (y,x)) per block; temp[y][x] = matrix[base + 65*y + x],
 * ref[y][x] = reference[base + 66 + 65*y + x]. */
static void test_nw_unshared(void)
{
    probe pr[] = {
        {.launch = 3, .block = 2, .warp = 0, .nth = 0},   /* step 0: temp (0,0) */
        {.launch = 3, .block = 2, .warp = 0, .nth = 3},   /* ref (0,0) */
        {.launch = 3, .block = 2, .warp = 0, .nth = 4},   /* store temp (1,1) */
        {.launch = 3, .block = 2, .warp = 0, .nth = 101}, /* step 20: temp (y, x-1) */
        {.launch = 3, .block = 2, .warp = 0, .nth = 154}, /* step 30: store temp (15,15) */
    };
    walk *wk = walk_new(pr, 5);
    CHECK_EQ(walk_run("rodinia/nw:size=64,shared=0", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 7);
    CHECK_EQ(wk->lds, 0);
    uint32_t blocks[] = {1, 2, 3, 4, 3, 2, 1};
    for (int i = 0; i < 7; i++) CHECK_EQ(wk->mem[i], blocks[i] * 31 * 5);
    CHECK_EQ(wk->bar, 16 * 31);
    /* i = 4, block 2 -> tile (2, 1): base = 1072; step 0 is lane 0 at x = y = 1 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 0, R(1) + 1072 * 4));
    CHECK_EQ(pr[0].got.mask, 1);
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(0) + (1072 + 66) * 4));
    CHECK(probe_is(&pr[2], WC_OP_STG, 0, R(1) + (1072 + 65 + 1) * 4));
    /* step 20: m = 10, lanes 0..10, x = tx + 5, y = 15 - tx; lane 7: (8, 12) -> (8, 11) */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 7, R(1) + (1072 + 65 * 8 + 11) * 4));
    CHECK_EQ(pr[3].got.mask, 0x7ff);
    CHECK(probe_is(&pr[4], WC_OP_STG, 0, R(1) + (1072 + 65 * 15 + 15) * 4));
    free(wk);
}

/* ---- backprop ------------------------------------------------------------------ */

static void test_backprop(void)
{
    /* 256 inputs: grid (1, 16), 8 warps per block */
    probe pr[] = {
        {.launch = 0, .block = 3, .warp = 2, .nth = 0}, /* input[16*3 + ty + 1] */
        {.launch = 0, .block = 3, .warp = 2, .nth = 1}, /* weights[index] */
        {.launch = 0, .block = 3, .warp = 2, .nth = 3}, /* partial */
        {.launch = 1, .block = 3, .warp = 2, .nth = 0}, /* delta[tx+1] */
        {.launch = 1, .block = 0, .warp = 0, .nth = 9}, /* by 0 ty 0: delta[tx+1] again */
        {.launch = 1, .block = 3, .warp = 2, .nth = 5}, /* after the store to w: delta again */
        {.launch = 1, .block = 3, .warp = 2, .nth = 7}, /* ... and oldw[index] */
    };
    walk *wk = walk_new(pr, 7);
    CHECK_EQ(walk_run("rodinia/backprop:inputs=256", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->grid[0].y, 16);
    CHECK_EQ(wk->mem[0], 16 * 8 * 4);
    /* adjust: delta, ly, oldw, w, store w; the store may alias the three
     * inputs (no __restrict__), so oldw's statement loads delta, ly, oldw
     * again, store oldw: 9; the by 0, ty 0 corner the same without ly: 7 */
    CHECK_EQ(wk->mem[1], 16 * 8 * 9 + 7);
    /* lane 16: tx 0, ty 5; index = 17*16*3 + 17*5 + 0 + 18 = 919 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 16, R(0) + (48 + 5 + 1) * 4));
    CHECK_EQ(pr[0].got.mask, 0x00010001u);
    CHECK(probe_is(&pr[1], WC_OP_LDG, 16, R(1) + 919 * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 3, R(1) + (816 + 68 + 3 + 18) * 4));
    CHECK(probe_is(&pr[2], WC_OP_STG, 16, R(2) + (3 * 16 + 5) * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 20, R(3) + 5 * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 7, R(3) + 8 * 4));
    CHECK_EQ(pr[4].got.mask, 0xffffu);
    CHECK(probe_is(&pr[5], WC_OP_LDG, 20, R(3) + 5 * 4));
    CHECK(probe_is(&pr[6], WC_OP_LDG, 16, R(4) + 919 * 4));
    free(wk);
}

/* backprop alu=K, 256 inputs (16 blocks of 8 warps): the ALU steps, counted
 * from the kernels' code.  layerforward per warp: the index and the product
 * (2), and reduction level i in the warps with 2w % 2^i == 0 (8 + 4 + 2 + 1
 * = 15 per block): 16 * (8 * 2 + 15) = 496.  adjust per warp: the index, three
 * steps for w and two for oldw (6), the by 0, ty 0 corner two more: 128 * 6
 * + 2 = 770.  alu=3 makes each step three instructions and leaves the memory
 * instructions as they are. */
static void test_backprop_alu(void)
{
    walk *a1 = walk_new(NULL, 0), *a3 = walk_new(NULL, 0);
    CHECK_EQ(walk_run("rodinia/backprop:inputs=256", 1, a1), 0);
    CHECK_EQ(walk_run("rodinia/backprop:inputs=256,alu=3", 1, a3), 0);
    CHECK_EQ(a1->alu, 496 + 770);
    CHECK_EQ(a3->alu, 3 * (496 + 770));
    CHECK_EQ(a3->mem[0], a1->mem[0]);
    CHECK_EQ(a3->mem[1], a1->mem[1]);
    CHECK_EQ(a3->lds, a1->lds);
    CHECK_EQ(a3->bar, a1->bar);
    free(a1);
    free(a3);
    wc_err err = {{0}};
    CHECK(wc_workload_open("rodinia/backprop:alu=0", 1, &err) == NULL);
    CHECK(strstr(err.msg, "alu") != NULL);
}

/* backprop shared=0 (backprop/U), 256 inputs: grid (1, 16), 8 warps per block.
 * layerforward per warp w (rows ty = 2w, 2w+1): LDG weights[index], LDG
 * input[16*by+ty+1], STG weights[index] (3); level i (1..4) is active in
 * warp w when 2w % 2^i == 0 (row 2w+1 is odd, never): 8 + 4 + 2 + 1 = 15
 * warp-levels of 3 (own, partner ty + 2^(i-1), store); tx==0: LDG weights
 * at (0, ty), STG partial (2).  Per block 8*3 + 15*3 + 8*2 = 85; x16 =
 * 1360.  Barriers: 1 + 4 per warp = 5 x 128 warps = 640, and adjust's one
 * per warp, 128.  adjust as with shared=1: 16*8*9 + 7. */
static void test_backprop_unshared(void)
{
    probe pr[] = {
        {.launch = 0, .block = 3, .warp = 2, .nth = 0}, /* weights[index] */
        {.launch = 0, .block = 3, .warp = 2, .nth = 1}, /* input[16*3+ty+1], all lanes */
        {.launch = 0, .block = 3, .warp = 2, .nth = 4}, /* level 1 partner */
        {.launch = 0, .block = 3, .warp = 2, .nth = 7}, /* level 2 partner (w = 2 even) */
        {.launch = 0, .block = 3, .warp = 2, .nth = 9}, /* tx==0: weights at (0, ty) */
        {.launch = 0, .block = 3, .warp = 1, .nth = 5}, /* w = 1: level 1 store, then tx==0 */
    };
    walk *wk = walk_new(pr, 6);
    CHECK_EQ(walk_run("rodinia/backprop:inputs=256,shared=0", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->mem[0], 1360);
    CHECK_EQ(wk->mem[1], 16 * 8 * 9 + 7);
    CHECK_EQ(wk->lds, 0);
    CHECK_EQ(wk->bar, 640 + 128);
    /* lane 16: tx 0, ty 5; index = 17*16*3 + 17*5 + 0 + 18 = 919 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 16, R(1) + 919 * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 16, R(0) + (48 + 5 + 1) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 3, R(0) + (48 + 4 + 1) * 4));
    CHECK_EQ(pr[1].got.mask, 0xffffffffu);
    /* level 1: rows ty % 2 == 0 (lanes 0-15, ty 4), partner row 5: index + 17 */
    CHECK(probe_is(&pr[2], WC_OP_LDG, 3, R(1) + (816 + 68 + 3 + 18 + 17) * 4));
    CHECK_EQ(pr[2].got.mask, 0xffffu);
    /* level 2: ty 4 % 4 == 0, partner ty 6: index + 34 */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 3, R(1) + (816 + 68 + 3 + 18 + 34) * 4));
    /* lane 16 (ty 5): weights at (0, 5) = 816 + 5 + 18 */
    CHECK(probe_is(&pr[4], WC_OP_LDG, 16, R(1) + (816 + 5 + 18) * 4));
    CHECK_EQ(pr[4].got.mask, 0x00010001u);
    /* warp 1 (ty 2, 3) is active at level 1 only: nth 3-5 are its own
     * load, the partner's and the store; lane 0: ty 2, index 816 + 34 + 18 */
    CHECK(probe_is(&pr[5], WC_OP_STG, 0, R(1) + (816 + 34 + 18) * 4));
    free(wk);
}

/* ---- gaussian ------------------------------------------------------------------ */

static void test_gaussian(void)
{
    const uint64_t S = 10;
    probe pr[] = {
        {.launch = 2, .block = 0, .warp = 0, .nth = 0}, /* Fan1 t=1 */
        {.launch = 3, .block = 1, .warp = 0, .nth = 0}, /* Fan2 t=1 block (1,0) */
        {.launch = 3, .block = 1, .warp = 0, .nth = 2},
        {.launch = 3, .block = 1, .warp = 0, .nth = 5}, /* b[t] */
    };
    walk *wk = walk_new(pr, 4);
    CHECK_EQ(walk_run("rodinia/gaussian:size=10", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 2 * (S - 1));
    CHECK_EQ(wk->grid[1].x, 3);
    CHECK_EQ(wk->empty_mask, 0);
    for (uint64_t t = 0; t < S - 1; t++) {
        CHECK_EQ(wk->mem[2 * t], 3); /* one warp covers S-1-t < 32 rows */
        uint64_t e = 0;
        for (int by = 0; by < 3; by++)
            for (int bx = 0; bx < 3; bx++) {
                bool any = false, y0 = false;
                for (int l = 0; l < 16; l++) {
                    uint64_t x = bx * 4 + l % 4, y = by * 4 + l / 4;
                    bool a = x < S - 1 - t && y < S - t;
                    any |= a, y0 |= a && y == 0;
                }
                e += 4 * any + 4 * y0;
            }
        CHECK_EQ(wk->mem[2 * t + 1], e);
    }
    /* Fan1 t=1 lane 2: a[S*(2+1+1)+1] */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 2, R(0) + (S * 4 + 1) * 4));
    /* Fan2 t=1, block (1,0), lane 5: x = 5, y = 1: m[S*7+1], a[S*7 + 2] */
    CHECK(probe_is(&pr[1], WC_OP_LDG, 5, R(1) + (S * 7 + 1) * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 5, R(0) + (S * 7 + 2) * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 1, R(2) + 1 * 4));
    CHECK_EQ(pr[3].got.mask, 0xf);
    free(wk);
}

/* ---- lud ------------------------------------------------------------------------ */

static void test_lud(void)
{
    probe pr[] = {
        {.launch = 4, .block = 1, .warp = 0, .nth = 8},  /* perimeter i=16, row half */
        {.launch = 4, .block = 1, .warp = 0, .nth = 32}, /* column half, peri_col row 0 */
        {.launch = 2, .block = 7, .warp = 3, .nth = 0},  /* internal (1,2) */
        {.launch = 2, .block = 7, .warp = 3, .nth = 1},
        {.launch = 2, .block = 7, .warp = 3, .nth = 2},
        {.launch = 9, .block = 0, .warp = 0, .nth = 16}, /* final diagonal, first store */
    };
    walk *wk = walk_new(pr, 6);
    CHECK_EQ(walk_run("rodinia/lud:size=64", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 10);
    uint32_t n[3] = {3, 2, 1};
    for (int s = 0; s < 3; s++) {
        CHECK_EQ(wk->mem[3 * s], 31);
        CHECK_EQ(wk->mem[3 * s + 1], n[s] * (8 + 16 + 8 + 16 + 15 + 16));
        CHECK_EQ(wk->mem[3 * s + 2], n[s] * n[s] * 8 * 4);
    }
    CHECK_EQ(wk->mem[9], 31);
    CHECK_STR(wk->name[9], "lud_diagonal");
    CHECK(probe_is(&pr[0], WC_OP_LDG, 3, R(0) + (16 * 64 + 16 + 32 + 3) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 20, R(0) + ((16 + 32) * 64 + 16 + 4) * 4));
    CHECK_EQ(pr[1].got.mask, 0xffff0000u);
    CHECK(probe_is(&pr[2], WC_OP_LDG, 17, R(0) + (7 * 64 + 33) * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 17, R(0) + (55 * 64 + 1) * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 17, R(0) + (55 * 64 + 33) * 4));
    CHECK(probe_is(&pr[5], WC_OP_STG, 2, R(0) + (49 * 64 + 48 + 2) * 4));
    free(wk);
}

/* lud shared=0 (lud/U), size 64: offsets 0, 16, 32 with n = 3, 2, 1.
 * diagonal: for i < 15, column i: target, 2 per j < i, m(i,i), store =
 * 2i+3; row i+1: target, 2 per j <= i, store = 2i+4; sum 4*105 + 7*15 = 525,
 * barriers 30.  perimeter per block: row half sum_{i=1..15} (2 + 2i) = 270,
 * column half sum_{i=0..15} (3 + 2i) = 288: 558.  internal per warp 16 x 2
 * + target + store = 34, 8 warps: 272 per block. */
static void test_lud_unshared(void)
{
    probe pr[] = {
        {.launch = 3, .block = 0, .warp = 0, .nth = 0},   /* diagonal off 16, i 0: m(tx, 0) */
        {.launch = 3, .block = 0, .warp = 0, .nth = 1},   /* m(0, 0) */
        {.launch = 3, .block = 0, .warp = 0, .nth = 3},   /* row 1: m(1, tx) */
        {.launch = 4, .block = 1, .warp = 0, .nth = 1},   /* perimeter: dia[1][0] */
        {.launch = 4, .block = 1, .warp = 0, .nth = 2},   /* peri_row[0][idx] */
        {.launch = 4, .block = 1, .warp = 0, .nth = 270}, /* column half: peri_col[idx][0] */
        {.launch = 2, .block = 7, .warp = 3, .nth = 2},   /* internal (1,2), i = 1 */
        {.launch = 2, .block = 7, .warp = 3, .nth = 3},
    };
    walk *wk = walk_new(pr, 8);
    CHECK_EQ(walk_run("rodinia/lud:size=64,shared=0", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 10);
    CHECK_EQ(wk->lds, 0);
    uint32_t n[3] = {3, 2, 1};
    for (int s = 0; s < 3; s++) {
        CHECK_EQ(wk->mem[3 * s], 525);
        CHECK_EQ(wk->mem[3 * s + 1], n[s] * 558);
        CHECK_EQ(wk->mem[3 * s + 2], n[s] * n[s] * 272);
    }
    CHECK_EQ(wk->mem[9], 525);
    CHECK_EQ(wk->bar, 4 * 30);
    /* off 16: lane 5 = tx 5 loads m(21, 16); i = 0 lanes tx > 0 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 5, R(0) + (21 * 64 + 16) * 4));
    CHECK_EQ(pr[0].got.mask, 0xfffeu);
    CHECK(probe_is(&pr[1], WC_OP_LDG, 5, R(0) + (16 * 64 + 16) * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 5, R(0) + (17 * 64 + 21) * 4));
    /* perimeter off 16, block 1: gc = 16 + 32 = 48; i = 1: target, dia[1][0],
     * peri_row[0][idx]; lane 3: m(17, 16), m(16, 51) */
    CHECK(probe_is(&pr[3], WC_OP_LDG, 3, R(0) + (17 * 64 + 16) * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 3, R(0) + (16 * 64 + 51) * 4));
    CHECK_EQ(pr[4].got.mask, 0xffffu);
    /* column half i = 0: lane 20 (idx 4): peri_col[4][0] = m(48 + 4, 16) */
    CHECK(probe_is(&pr[5], WC_OP_LDG, 20, R(0) + (52 * 64 + 16) * 4));
    CHECK_EQ(pr[5].got.mask, 0xffff0000u);
    /* internal off 0, block 7 = (1, 2): grow 48, gcol 32; warp 3 lane 17: ty 7,
     * tx 1; i = 1: m(55, 1), m(1, 33) */
    CHECK(probe_is(&pr[6], WC_OP_LDG, 17, R(0) + (55 * 64 + 1) * 4));
    CHECK(probe_is(&pr[7], WC_OP_LDG, 17, R(0) + (1 * 64 + 33) * 4));
    free(wk);
}

/* ---- streamcluster ---------------------------------------------------------------- */

typedef struct sc_seen {
    uint32_t sw[64], other[64]; /* per warp of the current launch: switch lanes, else lanes */
    uint64_t bad;
    uint32_t launch;
} sc_seen;

static void sc_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp, const wc_winst *in)
{
    sc_seen *s = vctx;
    if (launch != 0) return;
    uint64_t wi = block * 16 + warp;
    if (in->op == WC_OP_STG && in->width == 1) s->sw[wi] = in->mask;
    if (in->op == WC_OP_LDG && in->width == 8) s->other[wi] = in->mask;
    /* else-branch gathers: work_mem[tid*(K+1) + ctab] with ctab < K */
    if (in->op == WC_OP_STG && in->amode == WC_ADDR_LIST)
        for (unsigned l = 0; l < 32; l++)
            if (in->mask >> l & 1) {
                uint64_t e = (in->addr[l] - R(4)) / 4, tid = wi * 32 + l;
                if (e < tid * 5 || e >= tid * 5 + 4) s->bad++;
            }
}

static void test_streamcluster(void)
{
    /* n 2048 (4 blocks of 512), dim 8, K 4, 2 calls */
    probe pr[] = {
        {.launch = 1, .block = 2, .warp = 3, .nth = 2 * 3},     /* coord[3*n + tid] */
        {.launch = 1, .block = 2, .warp = 3, .nth = 2 * 8 + 1}, /* p[tid].cost */
    };
    sc_seen seen = {{0}, {0}, 0, 0};
    walk *wk = walk_new(pr, 2);
    wk->visit = sc_visit;
    wk->vctx = &seen;
    CHECK_EQ(walk_run("rodinia/streamcluster:n=2048,dim=8,centers=4,calls=2", 5, wk), 0);
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_EQ(wk->empty_mask, 0);
    uint64_t expect = 0;
    uint32_t nsw = 0;
    for (int wi = 0; wi < 64; wi++) {
        /* every live lane takes exactly one branch */
        CHECK_EQ(seen.sw[wi] & seen.other[wi], 0);
        CHECK_EQ(seen.sw[wi] | seen.other[wi], 0xffffffffu);
        expect += 2 * 8 + 2 + (seen.sw[wi] ? 3 : 0) + (seen.other[wi] ? 4 : 0);
        nsw += wc_popcount32(seen.sw[wi]);
    }
    CHECK_EQ(wk->mem[0], expect);
    CHECK(nsw > 0 && nsw < 2048); /* both branches taken somewhere */
    CHECK_EQ(seen.bad, 0);
    /* block 2 warp 3 lane 9: tid = 1024 + 96 + 9 = 1129 */
    CHECK(probe_is(&pr[0], WC_OP_LDG, 9, R(0) + (3 * 2048 + 1129) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 9, R(1) + 1129 * 32 + 24));
    free(wk);
}

/* ---- particlefilter ------------------------------------------------------------------ */

typedef struct pf_seen {
    uint64_t cdf_loads[2][64]; /* per launch (first two), per warp */
    int64_t maxidx[2][64];
    uint64_t bad;
} pf_seen;

static void pfil_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp,
                       const wc_winst *in)
{
    pf_seen *s = vctx;
    if (launch > 1) return;
    uint64_t wi = block * 4 + warp;
    if (in->op == WC_OP_LDG && in->amode == WC_ADDR_STRIDE && in->base >= R(0) && in->base < R(1)) {
        uint64_t x = (in->base - R(0)) / 4;
        if (x != s->cdf_loads[launch][wi]) s->bad++; /* scans 0, 1, 2, ... */
        s->cdf_loads[launch][wi]++;
    }
    if (in->op == WC_OP_LDG && in->amode == WC_ADDR_LIST && in->addr[0] >= R(2) &&
        in->addr[0] < R(3)) {
        int64_t prev = -1;
        for (unsigned l = 0; l < 32; l++) {
            if (!(in->mask >> l & 1)) continue;
            int64_t idx = (int64_t)(in->addr[l] - R(2)) / 4;
            if (idx < prev) s->bad++; /* u increases with i, CDF is monotone */
            prev = idx;
            if (idx > s->maxidx[launch][wi]) s->maxidx[launch][wi] = idx;
        }
    }
}

static void test_particlefilter(void)
{
    pf_seen seen;
    memset(&seen, 0, sizeof seen);
    walk *wk = walk_new(NULL, 0);
    wk->visit = pfil_visit;
    wk->vctx = &seen;
    CHECK_EQ(walk_run("rodinia/particlefilter:particles=1000,frames=4", 2, wk), 0);
    CHECK_EQ(wk->nlaunch, 3);
    CHECK_EQ(wk->grid[0].x, 8);
    CHECK_EQ(wk->empty_mask, 0);
    CHECK_EQ(seen.bad, 0);
    uint64_t expect = 0;
    for (int wi = 0; wi < 32; wi++) {
        if (wi * 32 >= 1000) continue;
        /* the warp loads CDF[0..max index] and nothing more */
        CHECK_EQ(seen.cdf_loads[0][wi], seen.maxidx[0][wi] + 1);
        expect += 1 + seen.cdf_loads[0][wi] + 4;
    }
    CHECK_EQ(wk->mem[0], expect);
    /* the last particle's u is close to 1: the last warp scans nearly to N */
    CHECK(seen.maxidx[0][31] > 900);
    free(wk);
}

/* particlefilter's float version (Rodinia's ex_particle_CUDA_float_seq.cu) at 40 particles and
 * 2 frames: one block of 512 threads, warps 0 (32 particles) and 1 (8) live, one launch of
 * each of its four kernels.  Expectations from the source: array numbers 0 CDF, 1 u,
 * 2 arrayX, 3 arrayY, 4 xj, 5 yj, 6 weights, 7 likelihood, 8 ind, 9 I, 10 objxy, 11 seed,
 * 12 partial_sums. */
typedef struct pff_seen {
    uint64_t ind_stores, pixels, bad, cdf_loads[2], maxidx[2];
    int64_t first[32]; /* lane's first pixel offset (warp 0) */
    int pix_n[32];
} pff_seen;

/* The radius-5 disk as strelDisk/getneighbors list it: x (rows, dx) outer, y (dy) inner. */
static int pff_disk_offsets(long *off)
{
    int n = 0;
    for (int dx = -4; dx <= 4; dx++)
        for (int dy = -4; dy <= 4; dy++)
            if (dx * dx + dy * dy < 25) off[n++] = dx * 128L * 2 + dy * 2L; /* IszY*Nfr, Nfr */
    return n;
}

static void pff_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp,
                      const wc_winst *in)
{
    pff_seen *s = vctx;
    static long disk[81];
    static int ndisk;
    if (!ndisk) ndisk = pff_disk_offsets(disk);
    if (launch == 0 && in->op == WC_OP_STG && in->amode == WC_ADDR_STRIDE && in->base >= R(8) &&
        in->base < R(9)) {
        s->ind_stores++;
        if (in->stride != 69 * 4) s->bad++; /* ind[i*countOnes + y]: 69 ints per thread */
    }
    if (launch == 0 && in->op == WC_OP_LDG && in->amode == WC_ADDR_LIST && warp == 0) {
        for (unsigned l = 0; l < 32; l++) {
            uint64_t a = in->addr[l];
            if (a < R(9) || a >= R(9) + 128 * 128 * 2) {
                s->bad++;
                continue;
            }
            long off = (long)(a - R(9));
            if (off % 2 != 1) s->bad++; /* + k (frame 1) in a 2-frame video */
            if (s->pix_n[l] == 0) s->first[l] = off;
            /* the n-th pixel is the disk's n-th offset from the particle's centre */
            else if (off - s->first[l] != disk[s->pix_n[l]] - disk[0])
                s->bad++;
            s->pix_n[l]++;
            s->pixels++;
        }
    }
    if (launch == 3 && in->op == WC_OP_LDG && in->amode == WC_ADDR_STRIDE && in->base >= R(0) &&
        in->base < R(1)) {
        if (in->stride != 0 || (in->base - R(0)) / 8 != s->cdf_loads[warp]) s->bad++;
        s->cdf_loads[warp]++; /* CDF[0], CDF[1], ... the same element in every lane */
    }
    if (launch == 3 && in->op == WC_OP_LDG && in->amode == WC_ADDR_LIST) {
        for (unsigned l = 0; l < 32; l++)
            if (in->mask >> l & 1) {
                uint64_t idx = (in->addr[l] - (in->addr[l] >= R(3) ? R(3) : R(2))) / 8;
                if (idx > s->maxidx[warp]) s->maxidx[warp] = idx;
            }
    }
}

static void test_particlefilter_float(void)
{
    pff_seen seen;
    memset(&seen, 0, sizeof seen);
    walk *wk = walk_new(NULL, 0);
    wk->visit = pff_visit;
    wk->vctx = &seen;
    CHECK_EQ(walk_run("rodinia/particlefilter:float=1,particles=40,frames=2", 1, wk), 0);
    CHECK_EQ(wk->nlaunch, 4);
    CHECK(strcmp(wk->name[0], "likelihood_kernel") == 0);
    CHECK(strcmp(wk->name[1], "sum_kernel") == 0);
    CHECK(strcmp(wk->name[2], "normalize_weights_kernel") == 0);
    CHECK(strcmp(wk->name[3], "find_index_kernel") == 0);
    for (int k = 0; k < 4; k++) {
        CHECK_EQ(wk->grid[k].x, 1);
        CHECK_EQ(wk->block[k].x, 512);
    }
    CHECK_EQ(wk->empty_mask, 0);
    CHECK_EQ(seen.bad, 0);
    /* likelihood_kernel, per live warp: loads xj, yj, arrayX, arrayY, seed x4 (two d_randn),
     * arrayX, arrayY, objxy x138, ind x69, I x69, weights x2 = 288; stores arrayX, arrayY,
     * weights, seed x4, arrayX, arrayY, ind x69 (none clamped near the centre), likelihood x2,
     * weights = 81; thread 0 stores partial_sums[0]: 2 * 369 + 1 */
    CHECK_EQ(wk->mem[0], 2 * 369 + 1);
    CHECK_EQ(seen.ind_stores, 2 * 69);
    CHECK_EQ(seen.pixels, 32 * 69);
    /* sum_kernel: thread 0 loads partial_sums[0] (one block) and stores [0] */
    CHECK_EQ(wk->mem[1], 2);
    /* normalize_weights_kernel: thread 0 loads partial_sums[0] and u[0]; live warps load and
     * store weights[i] and store u[i]; thread 0 of the grid reads 40 weights, writes 40 CDF
     * values, loads and stores seed[0] and stores u[0] */
    CHECK_EQ(wk->mem[2], 2 + 2 * 3 + 40 + 40 + 3);
    /* find_index_kernel: u[i], the CDF scan up to the warp's largest index, two gathers and
     * two stores */
    for (int w = 0; w < 2; w++) CHECK_EQ(seen.cdf_loads[w], seen.maxidx[w] + 1);
    CHECK_EQ(wk->mem[3], 2 * 5 + seen.cdf_loads[0] + seen.cdf_loads[1]);
    /* barriers per warp: likelihood 2 + 9 tree levels + 1 + 1, normalize 4, find 1 */
    CHECK_EQ(wk->bar, 16 * (13 + 4 + 1));
    free(wk);
}

/* video=1: the naive kernel's weights come from the source's likelihoods, exp of the mean over
 * the 69 disk pixels of ((I-100)^2 - (I-228)^2)/50 = 5.12 I - 839.68: each pixel that leaves the
 * object costs 655 / 69 = 9.5, so only particles on the best integer position keep any weight
 * (the noise, 5 per pixel, moves the mean by about 3 between them).  Moved by 5*randn and
 * 2*randn, about 1000 / (2 pi 5 2) = 16 particles share a position: the resampling finds a few
 * tens of indices at most; with the seeded weights (exp of a uniform in [-4, 0]) the indices
 * spread over the whole range. */
typedef struct pfv_seen {
    uint8_t hit[1000];
} pfv_seen;

static void pfv_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp,
                      const wc_winst *in)
{
    pfv_seen *s = vctx;
    if (launch != 0 || in->op != WC_OP_LDG || in->amode != WC_ADDR_LIST) return;
    for (unsigned l = 0; l < 32; l++)
        if ((in->mask >> l & 1) && in->addr[l] >= R(2) && in->addr[l] < R(3))
            s->hit[(in->addr[l] - R(2)) / 4] = 1;
}

static unsigned pfv_distinct(const char *spec)
{
    pfv_seen seen;
    memset(&seen, 0, sizeof seen);
    walk *wk = walk_new(NULL, 0);
    wk->visit = pfv_visit;
    wk->vctx = &seen;
    CHECK_EQ(walk_run(spec, 1, wk), 0);
    CHECK_EQ(wk->empty_mask, 0);
    free(wk);
    unsigned n = 0;
    for (int i = 0; i < 1000; i++) n += seen.hit[i];
    return n;
}

static void test_particlefilter_video(void)
{
    CHECK(pfv_distinct("rodinia/particlefilter:particles=1000,frames=2,video=1") <= 40);
    CHECK(pfv_distinct("rodinia/particlefilter:particles=1000,frames=2") > 300);
    /* each parameter belongs to one version */
    wc_err err = {{0}};
    CHECK(wc_workload_open("rodinia/particlefilter:alu=4", 1, &err) == NULL);
    CHECK(strstr(err.msg, "float=1") != NULL);
    CHECK(wc_workload_open("rodinia/particlefilter:float=1,video=1", 1, &err) == NULL);
    CHECK(strstr(err.msg, "video=1") != NULL);
}

/* ---- b+tree ----------------------------------------------------------------------------- */

typedef struct bt_seen {
    int64_t p[400][4];   /* matching thread per query per level (from indices loads) */
    uint32_t le[400][4]; /* lanes 0..p of the keys[thid+1] loads, counted */
    uint64_t node[400][4];
    uint64_t bad;
} bt_seen;

static void bt_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp, const wc_winst *in)
{
    bt_seen *s = vctx;
    if (in->op != WC_OP_LDG || in->amode != WC_ADDR_STRIDE || in->base < R(0) || in->base >= R(1))
        return;
    uint64_t off = in->base - R(0), node = off / 2068, f = off % 2068 - warp * 128;
    if (f == 1032) { /* keys[thid] of a new level: first warp records the node */
        if (warp == 0) {
            int lv = 0;
            while (lv < 4 && s->node[block][lv]) lv++;
            if (lv < 4) s->node[block][lv] = node + 1;
        }
    } else if (f == 4) {
        int lv = 0;
        while (lv < 4 && s->p[block][lv]) lv++;
        if (lv < 4) s->p[block][lv] = warp * 32 + __builtin_ctz(in->mask) + 1;
        if (wc_popcount32(in->mask) != 1) s->bad++;
    }
}

static void test_bptree(void)
{
    bt_seen seen;
    memset(&seen, 0, sizeof seen);
    walk *wk = walk_new(NULL, 0);
    wk->visit = bt_visit;
    wk->vctx = &seen;
    /* 100000 keys: ~524 leaves, ~3 inner nodes, a root: 3 levels */
    CHECK_EQ(walk_run("rodinia/b+tree:keys=100000,queries=300", 4, wk), 0);
    CHECK_EQ(wk->nlaunch, 1);
    CHECK_EQ(wk->grid[0].x, 300);
    CHECK_EQ(seen.bad, 0);
    uint64_t expect = 0;
    for (int q = 0; q < 300; q++) {
        /* root first; descent goes to higher-numbered nodes (level order) */
        CHECK_EQ(seen.node[q][0], 1);
        CHECK(seen.node[q][1] > 1 && seen.node[q][2] > seen.node[q][1]);
        CHECK(seen.node[q][3] == 0);
        for (int lv = 0; lv < 2; lv++) {
            int64_t p = seen.p[q][lv] - 1;
            CHECK(p >= 0 && p < 256);
            /* 8 warps x 3 loads, keys[thid+1] in warps 0..p/32, match 3, thread 0 two */
            expect += 24 + (uint64_t)(p / 32 + 1) + 3 + 2;
        }
        CHECK(seen.p[q][2] > 0); /* the leaf's matching thread loads indices */
        expect += 24 + 3;
    }
    CHECK_EQ(wk->mem[0], expect);
    free(wk);
}

/* findRangeK (ranges=N): the matching thread of every step (start, then end
 * side per level) from its indices[thid] load, and the stores per range. */
typedef struct btr_seen {
    int64_t p[50][8];
    int n[50];
    uint64_t rstart[50], rlen[50], bad;
} btr_seen;

static void btr_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp,
                      const wc_winst *in)
{
    btr_seen *s = vctx;
    if (launch != 0) return;
    if (in->op == WC_OP_STG && in->base == R(10) + block * 4) s->rstart[block]++;
    if (in->op == WC_OP_STG && in->base == R(11) + block * 4) s->rlen[block]++;
    if (in->op != WC_OP_LDG || in->base < R(0) || in->base >= R(1)) return;
    uint64_t f = (in->base - R(0)) % 2068 - warp * 128;
    if (f == 4 && s->n[block] < 8) {
        s->p[block][s->n[block]++] = warp * 32 + __builtin_ctz(in->mask);
        if (wc_popcount32(in->mask) != 1) s->bad++;
    }
}

static void test_bptree_ranges(void)
{
    btr_seen seen;
    memset(&seen, 0, sizeof seen);
    walk *plain = walk_new(NULL, 0), *wk = walk_new(NULL, 0);
    CHECK_EQ(walk_run("rodinia/b+tree:keys=100000,queries=300", 4, plain), 0);
    wk->visit = btr_visit;
    wk->vctx = &seen;
    CHECK_EQ(walk_run("rodinia/b+tree:keys=100000,queries=300,ranges=50,rsize=3000", 4, wk), 0);
    /* findRangeK first (the command file's j before its k), then findK on
     * the same keys as without ranges */
    CHECK_EQ(wk->nlaunch, 2);
    CHECK_STR(wk->name[0], "findRangeK");
    CHECK_STR(wk->name[1], "findK");
    CHECK_EQ(wk->grid[0].x, 50);
    CHECK_EQ(wk->mem[1], plain->mem[0]);
    CHECK_EQ(seen.bad, 0);
    uint64_t expect = 0;
    for (int q = 0; q < 50; q++) {
        /* 3 levels: 2 inner levels x 2 sides, then the leaf's 2 sides */
        CHECK_EQ(seen.n[q], 6);
        CHECK_EQ(seen.rstart[q], 1);
        CHECK_EQ(seen.rlen[q], 1);
        for (int k = 0; k < 4; k++) /* 8 warps x 3, keys[thid+1] in warps 0..p/32, match 2 */
            expect += 24 + (uint64_t)(seen.p[q][k] / 32 + 1) + 2;
        expect += 2 * 4;           /* thread 0 copies both offsets, per inner level */
        expect += 24 + 2 + 24 + 3; /* leaf: start (indices, store), end (+ recstart) */
        for (int k = 0; k < 6; k++) CHECK(seen.p[q][k] >= 0 && seen.p[q][k] < 256);
    }
    CHECK_EQ(wk->mem[0], expect);
    free(plain);
    free(wk);
}

/* ---- cfd ---------------------------------------------------------------------------------- */

typedef struct cfd_seen {
    uint64_t gathers, far, bad;
} cfd_seen;

static void cfd_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp,
                      const wc_winst *in)
{
    cfd_seen *s = vctx;
    if (launch != 4 || in->amode != WC_ADDR_LIST) return;
    for (unsigned l = 0; l < 32; l++) {
        if (!(in->mask >> l & 1)) continue;
        uint64_t i = block * 192 + warp * 32 + l, e = (in->addr[l] - R(0)) / 4;
        uint64_t nb = e % 1152, v = e / 1152;
        if (v > 4 || nb >= 1000 || nb == i) s->bad++;
        /* side 10: axis neighbours are within 100 (+ the 32-window shuffle) */
        int64_t d = (int64_t)nb - (int64_t)i;
        if (d > 100 + 64 || d < -100 - 64) s->far++;
        s->gathers++;
    }
}

static void test_cfd(void)
{
    cfd_seen seen = {0, 0, 0};
    probe pr[] = {
        {.launch = 0, .block = 1, .warp = 2, .nth = 3}, /* init variables v=3 */
        {.launch = 3, .block = 1, .warp = 2, .nth = 5}, /* areas */
        {.launch = 4, .block = 1, .warp = 2, .nth = 5}, /* ese j=0 */
        {.launch = 4, .block = 1, .warp = 2, .nth = 7}, /* normals j=0, k=1 */
        {.launch = 5, .block = 1, .warp = 2, .nth = 2}, /* time_step fluxes v=0 */
    };
    walk *wk = walk_new(pr, 5);
    wk->visit = cfd_visit;
    wk->vctx = &seen;
    /* 1000 elements -> nelr 1152 = 6 blocks of 192 (6 warps) */
    CHECK_EQ(walk_run("rodinia/cfd:elements=1000,iterations=2", 3, wk), 0);
    CHECK_EQ(wk->nlaunch, 3 + 14);
    CHECK_STR(wk->name[10], "compute_step_factor");
    CHECK_STR(wk->name[16], "time_step");
    CHECK_EQ(wk->grid[0].x, 6);
    for (int i = 0; i < 3; i++) CHECK_EQ(wk->mem[i], 36 * 5);
    CHECK_EQ(wk->mem[3], 36 * 7);
    CHECK_EQ(wk->mem[5], 36 * 16);
    /* compute_flux: 5 + 4*4 + 5 fixed, plus 5 per (warp, j) with an element neighbour */
    CHECK(wk->mem[4] >= 36 * 26 && wk->mem[4] <= 36 * (26 + 20));
    CHECK_EQ((wk->mem[4] - 36 * 26) % 5, 0);
    CHECK_EQ(wk->mem[4], wk->mem[6]);
    CHECK_EQ(seen.bad, 0);
    CHECK(seen.gathers > 1000 * 2);
    CHECK(seen.far * 20 < seen.gathers);
    /* block 1 warp 2 lane 0: i = 256 */
    CHECK(probe_is(&pr[0], WC_OP_STG, 0, R(0) + (256 + 3 * 1152) * 4));
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(3) + 256 * 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 0, R(5) + 256 * 4));
    CHECK(probe_is(&pr[3], WC_OP_LDG, 0, R(6) + (256 + 4 * 1152) * 4));
    CHECK(probe_is(&pr[4], WC_OP_LDG, 0, R(2) + 256 * 4));
    free(wk);
}

int main(void)
{
    RUN(test_streamcluster);
    RUN(test_particlefilter);
    RUN(test_particlefilter_float);
    RUN(test_particlefilter_video);
    RUN(test_bptree);
    RUN(test_bptree_ranges);
    RUN(test_cfd);
    RUN(test_backprop);
    RUN(test_backprop_alu);
    RUN(test_gaussian);
    RUN(test_lud);
    RUN(test_hotspot);
    RUN(test_hotspot_alu);
    RUN(test_hotspot_unshared);
    RUN(test_pathfinder);
    RUN(test_pathfinder_unshared);
    RUN(test_srad_v1);
    RUN(test_srad_v2);
    RUN(test_srad_v2_unshared);
    RUN(test_nw);
    RUN(test_nw_unshared);
    RUN(test_backprop_unshared);
    RUN(test_lud_unshared);
    RUN(test_srad_v1_unshared);
    RUN(test_bfs);
    RUN(test_kmeans);
    RUN(test_kmeans_converges);
    return check_summary("wl_rodinia");
}
