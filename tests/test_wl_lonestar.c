/*
 * test_wl_lonestar.c - the Lonestar address generators (src/workloads/lonestar/)
 * against independent reimplementations over the same seeded inputs (sssp:
 * the R-MAT generator and a per-thread round simulation written here from the
 * documented algorithm) and hand-derived invariants (bh).  Same walker as
 * test_wl_rodinia.c.
 */
#include <stdlib.h>

#include "check.h"
#include "util/rng.h"
#include "warpcache/workloads.h"

/* ---- walker ------------------------------------------------------------- */

#include "wl_walk.h"

/* ---- sssp ------------------------------------------------------------------------ */

typedef struct rmat {
    uint64_t n;
    uint32_t *row, *col, *wt;
} rmat;

static rmat rmat_make(unsigned scale, unsigned deg, uint64_t seed)
{
    rmat g = {1ull << scale, NULL, NULL, NULL};
    uint64_t m = g.n * deg, r = wc_rng_seed(seed ^ 0x73737370ull);
    uint32_t *su = malloc(m * 4), *sv = malloc(m * 4), *sw = malloc(m * 4), *fill = calloc(g.n, 4);
    g.row = calloc(g.n + 1, 4), g.col = malloc(m * 4), g.wt = malloc(m * 4);
    for (uint64_t e = 0; e < m; e++) {
        uint64_t u = 0, v = 0;
        for (unsigned b = 0; b < scale; b++) {
            double p = wc_rng_unit(&r);
            /* quadrants a, b, c, d = 0.57, 0.19, 0.19, 0.05 */
            int q = p < 0.57 ? 0 : p < 0.76 ? 1 : p < 0.95 ? 2 : 3;
            u = 2 * u + (q >= 2), v = 2 * v + (q == 1 || q == 3);
        }
        su[e] = (uint32_t)u, sv[e] = (uint32_t)v, sw[e] = 1 + (uint32_t)wc_rng_below(&r, 100);
        g.row[u + 1]++;
    }
    for (uint64_t i = 0; i < g.n; i++) g.row[i + 1] += g.row[i];
    for (uint64_t e = 0; e < m; e++) {
        uint64_t at = g.row[su[e]] + fill[su[e]]++;
        g.col[at] = sv[e], g.wt[at] = sw[e];
    }
    free(su), free(sv), free(sw), free(fill);
    return g;
}

static void test_sssp(void)
{
    const unsigned scale = 10, deg = 4;
    rmat g = rmat_make(scale, deg, 11);
    /* rounds in thread order; per warp count the executed (instruction, k) pairs */
    uint32_t *dist = malloc(g.n * 4), *wl = malloc(g.n * deg * 4 + 4),
             *nx = malloc(g.n * deg * 4 + 4);
    for (uint64_t i = 0; i < g.n; i++) dist[i] = UINT32_MAX;
    dist[0] = 0;
    uint64_t wl_n = 1, expect[MAXL] = {0}, rounds = 0, pushes = 0;
    wl[0] = 0;
    while (wl_n && rounds < MAXL) {
        uint64_t nn = 0;
        for (uint64_t w0 = 0; w0 < wl_n; w0 += 32) {
            static uint8_t mark[6][4096];
            memset(mark, 0, sizeof mark);
            for (uint64_t t = w0; t < wl_n && t < w0 + 32; t++) {
                uint32_t u = wl[t], du = dist[u];
                mark[0][0] = 1; /* wl, row, row+1, dist[u]: 4 loads */
                for (uint32_t e = g.row[u], k = 0; e < g.row[u + 1]; e++, k++) {
                    mark[1][k] = 1; /* col, weight, dist[v]: 3 loads */
                    if (du + g.wt[e] < dist[g.col[e]]) {
                        dist[g.col[e]] = du + g.wt[e];
                        nx[nn++] = g.col[e];
                        mark[2][k] = 1; /* atomicMin, tail atomic, store */
                    }
                }
            }
            for (int k = 0; k < 4096; k++) expect[rounds] += 3 * mark[1][k] + 3 * mark[2][k];
            expect[rounds] += 4 * mark[0][0];
        }
        pushes += nn;
        memcpy(wl, nx, nn * 4);
        wl_n = nn;
        rounds++;
    }
    probe pr[] = {
        {.launch = 0, .block = 0, .warp = 0, .nth = 0}, /* wl_in[0] */
        {.launch = 0, .block = 0, .warp = 0, .nth = 2}, /* row_start[u+1] */
        {.launch = 0, .block = 0, .warp = 0, .nth = 6}, /* dist[col[row[0]]] */
    };
    walk *wk = walk_new(pr, 3);
    CHECK_EQ(walk_run("lonestar/sssp:scale=10,degree=4", 11, wk), 0);
    CHECK(probe_is(&pr[0], WC_OP_LDG, 0, R(4)));
    CHECK_EQ(pr[0].got.mask, 1);
    CHECK(probe_is(&pr[1], WC_OP_LDG, 0, R(0) + 4));
    CHECK(probe_is(&pr[2], WC_OP_LDG, 0, R(3) + g.col[g.row[0]] * 4ull));
    CHECK_EQ(wk->nlaunch, rounds);
    CHECK(rounds > 3);
    CHECK_EQ(wk->empty_mask, 0);
    for (uint64_t i = 0; i < rounds; i++) CHECK_EQ(wk->mem[i], expect[i]);
    CHECK(pushes > 100);
    free(dist), free(wl), free(nx), free(g.row), free(g.col), free(g.wt), free(wk);
}

/* ---- bh ------------------------------------------------------------------------------ */

typedef struct bh_seen {
    uint64_t n;
    uint8_t *slot_stored, *sorted, *posg, *cell_stored;
    uint64_t dup, child_loads, child_lanes_bad, cells, cell_min, cell_max, atom_lanes;
} bh_seen;

static void bh_visit(void *vctx, uint32_t launch, uint64_t block, uint32_t warp, const wc_winst *in)
{
    bh_seen *s = vctx;
    unsigned k = launch % 5;
    for (unsigned l = 0; l < 32; l++) {
        if (!(in->mask >> l & 1)) continue;
        uint64_t a = wc_winst_lane_addr(in, l);
        if (k == 1 && in->op == WC_OP_STG) { /* tree building: body into its slot */
            uint64_t e = (a - R(4)) / 4;
            if (e >= 64 * s->n || s->slot_stored[e]++) s->dup++;
        }
        if (k == 1 && in->op == WC_OP_ATOM) s->atom_lanes++;
        if (k == 2 && in->op == WC_OP_STG && a >= R(3) && a < R(4)) { /* cell mass */
            uint64_t id = (a - R(3)) / 4;
            if (id < s->n || id >= 64 * s->n || s->cell_stored[id - s->n]++) s->dup++;
            s->cells++;
            if (id > s->cell_max) s->cell_max = id;
            if (id < s->cell_min) s->cell_min = id;
        }
        if (k == 3 && in->op == WC_OP_LDG && a >= R(5) && a < R(6)) {
            uint64_t i = (a - R(5)) / 4;
            if (i >= s->n || s->sorted[i]++) s->dup++;
        }
        if (k == 3 && in->op == WC_OP_LDG && in->amode == WC_ADDR_LIST && a >= R(0) && a < R(1)) {
            uint64_t b = (a - R(0)) / 4;
            if (b >= s->n || s->posg[b]++) s->dup++;
        }
    }
    if (k == 3 && in->op == WC_OP_LDG && in->base >= R(4) && in->base < R(5) &&
        in->amode == WC_ADDR_STRIDE) {
        s->child_loads++;
        if (in->stride != 0) s->child_lanes_bad++; /* warp-uniform walk: a broadcast */
    }
}

static bh_seen bh_run(const char *spec, walk **out)
{
    bh_seen s;
    memset(&s, 0, sizeof s);
    s.n = 2000;
    s.slot_stored = calloc(64 * s.n, 1), s.sorted = calloc(s.n, 1), s.posg = calloc(s.n, 1);
    s.cell_stored = calloc(64 * s.n, 1);
    s.cell_min = UINT64_MAX;
    walk *wk = walk_new(NULL, 0);
    wk->visit = bh_visit;
    wk->vctx = &s;
    CHECK_EQ(walk_run(spec, 13, wk), 0);
    free(s.slot_stored), free(s.sorted), free(s.posg), free(s.cell_stored);
    *out = wk;
    return s;
}

static void test_bh(void)
{
    walk *wk, *wk2;
    bh_seen s = bh_run("lonestar/bh:bodies=2000,blocks=2", &wk);
    CHECK_EQ(wk->nlaunch, 5);
    CHECK_STR(wk->name[3], "ForceCalculationKernel");
    /* grid-stride 1024: 31 warps see 2 bodies' chunks, 1 warp one */
    CHECK_EQ(wk->mem[0], 3 * 63 + 2);
    CHECK_EQ(wk->mem[4], 15 * 63);
    CHECK_EQ(s.dup, 0);
    CHECK_EQ(s.atom_lanes, 2000);
    /* cells are N .. N+C-1, each summarised once */
    CHECK_EQ(s.cell_min, 2000);
    CHECK_EQ(s.cell_max, 2000 + s.cells - 1);
    CHECK(s.cells > 200);
    CHECK_EQ(s.child_lanes_bad, 0);
    /* tiny theta opens every cell: each of the 63 warp-iterations of the force
     * kernel (stride 512) loads all 8 slots of all C cells */
    bh_seen t = bh_run("lonestar/bh:bodies=2000,blocks=2,theta=0.001", &wk2);
    CHECK_EQ(t.cells, s.cells);
    CHECK_EQ(t.child_loads, 63 * 8 * s.cells);
    CHECK(s.child_loads < t.child_loads / 2); /* theta 0.5 prunes */
    CHECK(s.child_loads >= 63 * 8);
    free(wk), free(wk2);
}

int main(void)
{
    RUN(test_bh);
    RUN(test_sssp);
    return check_summary("wl_lonestar");
}
