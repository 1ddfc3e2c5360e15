/*
 * test_analysis.c - the analyses (src/analysis/): the contention breakdown
 * (seed 004 section 2.4) and the locality classes (seed 002 section 3), on
 * hand-built listener event sequences with every class, through a tiny
 * simulation, and the -analysis option.
 */
#include <stdlib.h>

#include "analysis/touchmap.h"
#include "check.h"
#include "core/gpu.h"
#include "listsrc.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "util/rng.h"
#include "warpcache/analysis.h"

/* ---- helpers ---------------------------------------------------------------- */

/* A simulator with `analysis` on and n_sm SMs; its first listener is the
 * analysis's (nothing else subscribes before a run). */
static wc_sim *sim_with(const char *analysis, unsigned n_sm)
{
    wc_config c;
    tiny_config(&c);
    c.cores_per_cluster = n_sm;
    snprintf(c.analysis, sizeof c.analysis, "%s", analysis);
    wc_err err = {{0}};
    wc_sim *s = wc_sim_create(&c, &err);
    if (!s) fprintf(stderr, "create: %s\n", err.msg);
    return s;
}

typedef struct counters {
    wc_kstats k;
} counters;

static void collect(void *ctx, const char *name, double v)
{
    wc_kstats_set_extra(&((counters *)ctx)->k, name, v);
}

/* The analysis's cumulative counters as extras. */
static wc_kstats counts_of(const wc_sim *s)
{
    counters c;
    memset(&c, 0, sizeof c);
    wc_analysis_stats_all(&s->analyses, collect, &c);
    return c.k;
}

/* A request of kernel launch `kernel`, block `block`, warp slot `slot` (also
 * its index in the block), lanes `lanes`, for the 128 B line at `addr`. */
static wc_mem_req req(uint32_t kernel, uint32_t block, uint16_t slot, uint32_t lanes, uint64_t addr,
                      bool write)
{
    wc_mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.block = block;
    r.warp = slot;
    r.lanes = lanes;
    r.line_log2 = 7;
    r.chunk_log2 = 5;
    r.origin = kernel << 8 | slot;
    r.flags = write ? WC_REQ_WRITE : 0;
    r.op = write ? WC_OP_STG : WC_OP_LDG;
    return r;
}

static void access_(const wc_l1_listener *l, int sm, const wc_mem_req *r, wc_outcome o)
{
    l->on_access(l->ctx, sm, r, o, WC_FAIL_NONE, 0);
}

/* ---- contention ------------------------------------------------------------- */

/* Every class, both owner sources (table, line fields), the fill-time
 * eviction of allocate-on-fill, and what is not a contention miss.  SM 0,
 * kernel launch 1 unless said; A = block 0 slot 0, B = block 0 slot 1,
 * C = block 1 slot 8.  Events and the class each gives, by the rules in
 * contention.c:
 *   A, B, C read-miss 0x000, 0x080, 0x100      owners recorded, nothing counted
 *   A's miss of 0x180 evicts 0x000 (owner A)   intra_warp        (1)
 *   A's miss of 0x200 evicts 0x080 (owner B)   xw_intra_block    (1)
 *   B's miss of 0x280 evicts 0x100 (owner C)   xw_cross_block    (1)
 *   kernel 2 A' (block 0 slot 0) evicts 0x180 (owner A of kernel 1): another
 *     launch, so another block                 xw_cross_block    (2)
 *   A evicts 0x400, never read-missed (a write allocated it): the line says
 *     block 0 slot 0, taken as this kernel     intra_warp        (2)
 *   a write-evict of 0x200 by its own write    not counted
 *   A read-misses 0x500 (allocate-on-fill); at cycle 50 the fill evicts
 *     0x280 (owner B) with no request, then fills 0x500 (owner A)
 *                                              xw_intra_block    (2)
 *   a flush evicts at cycle 60; a fill at cycle 70 is not its cause
 *                                              not counted
 *   hits, sector misses, hit-reserved, reservation fails and write misses
 *     record no owner: B's write miss of 0x600 then A evicting 0x600 with
 *     line fields block 1 slot 8               xw_cross_block    (3)
 *   A read-misses 0x780; at cycle 90 its fill evicts 0x700, which the table
 *     does not know (line fields block 0 slot 1, taken as the fill's kernel 1)
 *                                              xw_intra_block    (3)
 */
static void test_contention_classes(void)
{
    wc_sim *s = sim_with("contention", 1);
    CHECK(s != NULL);
    if (!s) return;
    CHECK_EQ(s->n_listeners, 1);
    const wc_l1_listener *l = &s->listeners[0];
    wc_mem_req a = req(1, 0, 0, ~0u, 0x000, false), b = req(1, 0, 1, ~0u, 0x080, false);
    wc_mem_req cc = req(1, 1, 8, ~0u, 0x100, false);
    access_(l, 0, &a, WC_MISS);
    access_(l, 0, &b, WC_MISS);
    access_(l, 0, &cc, WC_MISS);
    wc_line v = {0};
    v.state = WC_LINE_VALID;
    wc_mem_req in = req(1, 0, 0, ~0u, 0x180, false);
    l->on_evict_by(l->ctx, 0, &v, 0x000, &in, 10);
    access_(l, 0, &in, WC_MISS);
    in = req(1, 0, 0, ~0u, 0x200, false);
    l->on_evict_by(l->ctx, 0, &v, 0x080, &in, 11);
    access_(l, 0, &in, WC_MISS);
    in = req(1, 0, 1, ~0u, 0x280, false);
    l->on_evict_by(l->ctx, 0, &v, 0x100, &in, 12);
    access_(l, 0, &in, WC_MISS);
    in = req(2, 0, 0, ~0u, 0x300, false);
    l->on_evict_by(l->ctx, 0, &v, 0x180, &in, 13);
    access_(l, 0, &in, WC_MISS);
    wc_line f = v; /* line fields: block 0, slot 0 */
    in = req(1, 0, 0, ~0u, 0x380, false);
    l->on_evict_by(l->ctx, 0, &f, 0x400, &in, 14);
    wc_mem_req w = req(1, 0, 0, ~0u, 0x200, true);
    l->on_evict_by(l->ctx, 0, &v, 0x200, &w, 15);
    access_(l, 0, &w, WC_HIT);
    in = req(1, 0, 0, ~0u, 0x500, false);
    access_(l, 0, &in, WC_MISS);
    l->on_evict_by(l->ctx, 0, &v, 0x280, NULL, 50);
    l->on_fill(l->ctx, 0, 0x500, 0xf, 50);
    l->on_evict_by(l->ctx, 0, &v, 0x300, NULL, 60);
    l->on_fill(l->ctx, 0, 0x500, 0xf, 70);
    /* nothing below records an owner */
    wc_mem_req hb = req(1, 0, 1, ~0u, 0x600, false);
    access_(l, 0, &hb, WC_HIT);
    access_(l, 0, &hb, WC_SECTOR_MISS);
    access_(l, 0, &hb, WC_HIT_RESERVED);
    l->on_access(l->ctx, 0, &hb, WC_RESERVATION_FAIL, WC_FAIL_LINE_ALLOC, 0);
    hb = req(1, 0, 1, ~0u, 0x600, true);
    access_(l, 0, &hb, WC_MISS);
    wc_line g = v;
    g.owner_block = 1;
    g.owner_warp = 8;
    in = req(1, 0, 0, ~0u, 0x680, false);
    l->on_evict_by(l->ctx, 0, &g, 0x600, &in, 80);
    in = req(1, 0, 0, ~0u, 0x780, false);
    access_(l, 0, &in, WC_MISS);
    g.owner_block = 0;
    g.owner_warp = 1;
    l->on_evict_by(l->ctx, 0, &g, 0x700, NULL, 90);
    l->on_fill(l->ctx, 0, 0x780, 0xf, 90);

    wc_kstats k = counts_of(s);
    CHECK_EQ(tiny_extra(&k, "contention.intra_warp"), 2);
    CHECK_EQ(tiny_extra(&k, "contention.xw_intra_block"), 3);
    CHECK_EQ(tiny_extra(&k, "contention.xw_cross_block"), 3);
    wc_sim_destroy(s);
}

/* MPKI: 2, 2 and 3 misses in 2000 warp instructions are 1, 1 and 1.5 per
 * kilo-instruction; without instructions the rate is 0. */
static void test_contention_mpki(void)
{
    const wc_analysis_ops *ops = wc_analysis_find("contention");
    CHECK(ops != NULL && ops->derive != NULL);
    if (!ops || !ops->derive) return;
    wc_kstats k;
    memset(&k, 0, sizeof k);
    k.warp_insts = 2000;
    wc_kstats_set_extra(&k, "contention.intra_warp", 2);
    wc_kstats_set_extra(&k, "contention.xw_intra_block", 2);
    wc_kstats_set_extra(&k, "contention.xw_cross_block", 3);
    ops->derive(&k);
    CHECK_NEAR(tiny_extra(&k, "contention.intra_warp_mpki"), 1.0, 1e-12);
    CHECK_NEAR(tiny_extra(&k, "contention.xw_intra_block_mpki"), 1.0, 1e-12);
    CHECK_NEAR(tiny_extra(&k, "contention.xw_cross_block_mpki"), 1.5, 1e-12);
    k.warp_insts = 0;
    ops->derive(&k);
    CHECK_EQ(tiny_extra(&k, "contention.xw_cross_block_mpki"), 0);
}

/* ---- locality --------------------------------------------------------------- */

/* Two SMs; X = 0x1000, Y = 0x2000, Z = 0x3000.  Each step: who, outcome, and
 * the class by the rules in locality.c (l1 counts only hits and
 * hit-reserved; unbounded counts every reuse):
 *   1 SM0 k1 b0 s0 lanes 1  X MISS   first touch anywhere: nothing
 *   2 SM0 k1 b0 s0 lanes 1  X HIT    same warp, lane 0 again: intra_thread  l1 + unb
 *   3 SM0 k1 b0 s0 lanes 2  X HITRES same warp, other lane:  inter_thread  l1 + unb
 *   4 SM0 k1 b0 s1 lanes 2  X HIT    other warp, same block: intra_block   l1 + unb
 *   5 SM0 k1 b1 s8          X MISS   other block, same SM:   intra_core    unb
 *   6 SM1 k1 b2 s0          X MISS   SM1 never touched X:    inter_core    unb
 *   7 SM1 k1 b2 s0          X FAIL   not an access:          nothing
 *   8 SM0 k2 b0 s0          X MISS   SM0 last touched X in k1: inter_kernel unb
 *   9 SM1 k2 b4 s2          Y MISS   first touch anywhere:   nothing
 *  10 SM0 k3 b4 s2          Y MISS   never on SM0, last on SM1 in k2: inter_kernel unb
 *  11 SM0 k3 b5 s3 (store)  Y HIT    SM0's last: k3 b4:      intra_core    l1 + unb
 *  12 SM1 k4 b0 s0          Y HIT    SM1's last: k2:         inter_kernel  l1 + unb
 *  13 SM1 k4 b0 s0          X FAIL, then X HIT (a hit a real L1 cannot have: SM1's
 *                                    last touch of X was step 6, k1) inter_kernel l1 + unb
 *  14 SM0 k4 b0 s0          Z MISS; SM1 k4 b1 s0 Z HIT: never on SM1 before, same kernel
 *                                    on SM0:                 inter_core    l1 + unb
 * l1:        intra_thread 1, inter_thread 1, intra_block 1, intra_core 1, inter_core 1,
 *            inter_kernel 2
 * unbounded: intra_thread 1, inter_thread 1, intra_block 1, intra_core 2, inter_core 2,
 *            inter_kernel 4 */
static void test_locality_classes(void)
{
    wc_sim *s = sim_with("locality", 2);
    CHECK(s != NULL);
    if (!s) return;
    const wc_l1_listener *l = &s->listeners[0];
    const uint64_t X = 0x1000, Y = 0x2000, Z = 0x3000;
    wc_mem_req r = req(1, 0, 0, 1, X, false);
    access_(l, 0, &r, WC_MISS);                                              /* 1 */
    access_(l, 0, &r, WC_HIT);                                               /* 2 */
    r = req(1, 0, 0, 2, X, false), access_(l, 0, &r, WC_HIT_RESERVED);       /* 3 */
    r = req(1, 0, 1, 2, X, false), access_(l, 0, &r, WC_HIT);                /* 4 */
    r = req(1, 1, 8, ~0u, X, false), access_(l, 0, &r, WC_MISS);             /* 5 */
    r = req(1, 2, 0, ~0u, X, false), access_(l, 1, &r, WC_MISS);             /* 6 */
    l->on_access(l->ctx, 1, &r, WC_RESERVATION_FAIL, WC_FAIL_MSHR_ENTRY, 0); /* 7 */
    r = req(2, 0, 0, ~0u, X, false), access_(l, 0, &r, WC_MISS);             /* 8 */
    r = req(2, 4, 2, ~0u, Y, false), access_(l, 1, &r, WC_MISS);             /* 9 */
    r = req(3, 4, 2, ~0u, Y, false), access_(l, 0, &r, WC_MISS);             /* 10 */
    r = req(3, 5, 3, ~0u, Y, true), access_(l, 0, &r, WC_HIT);               /* 11 */
    r = req(4, 0, 0, ~0u, Y, false), access_(l, 1, &r, WC_HIT);              /* 12 */
    r = req(4, 0, 0, ~0u, X, false);
    l->on_access(l->ctx, 1, &r, WC_RESERVATION_FAIL, WC_FAIL_LINE_ALLOC, 0);
    access_(l, 1, &r, WC_HIT); /* 13 */
    r = req(4, 0, 0, ~0u, Z, false), access_(l, 0, &r, WC_MISS);
    r = req(4, 1, 0, ~0u, Z, false), access_(l, 1, &r, WC_HIT); /* 14 */

    wc_kstats k = counts_of(s);
    CHECK_EQ(tiny_extra(&k, "locality.l1.intra_thread"), 1);
    CHECK_EQ(tiny_extra(&k, "locality.l1.inter_thread"), 1);
    CHECK_EQ(tiny_extra(&k, "locality.l1.intra_block"), 1);
    CHECK_EQ(tiny_extra(&k, "locality.l1.intra_core"), 1);
    CHECK_EQ(tiny_extra(&k, "locality.l1.inter_core"), 1);
    CHECK_EQ(tiny_extra(&k, "locality.l1.inter_kernel"), 2);
    CHECK_EQ(tiny_extra(&k, "locality.unbounded.intra_thread"), 1);
    CHECK_EQ(tiny_extra(&k, "locality.unbounded.inter_thread"), 1);
    CHECK_EQ(tiny_extra(&k, "locality.unbounded.intra_block"), 1);
    CHECK_EQ(tiny_extra(&k, "locality.unbounded.intra_core"), 2);
    CHECK_EQ(tiny_extra(&k, "locality.unbounded.inter_core"), 2);
    CHECK_EQ(tiny_extra(&k, "locality.unbounded.inter_kernel"), 4);
    wc_sim_destroy(s);
}

/* ---- the side table ------------------------------------------------------------ */

/* Deletion must keep every other entry reachable (backward shift across the
 * wrap-around and growth): put 5000 lines, delete every third, check all. */
static void test_touchmap(void)
{
    wc_touchmap m = {0};
    bool is_new;
    for (uint64_t i = 0; i < 5000; i++) {
        wc_toucher *t = wc_touchmap_put(&m, i << 7, &is_new);
        CHECK(t != NULL && is_new);
        if (t) t->block = (uint32_t)i;
    }
    for (uint64_t i = 0; i < 5000; i += 3) CHECK(wc_touchmap_del(&m, i << 7));
    CHECK(!wc_touchmap_del(&m, 0));
    unsigned bad = 0;
    for (uint64_t i = 0; i < 5000; i++) {
        const wc_toucher *t = wc_touchmap_get(&m, i << 7);
        bad += i % 3 == 0 ? t != NULL : (!t || t->block != i);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(m.used, 5000 - 1667);
    wc_touchmap_put(&m, 3 << 7, &is_new);
    CHECK(is_new);
    wc_touchmap_put(&m, 4 << 7, &is_new);
    CHECK(!is_new);
    wc_touchmap_free(&m);
}

/* 1000000 random operations over 700 random line addresses, puts twice as
 * likely as deletes (about 470 present in a table of 1024, near its
 * half-load limit: long probe runs, runs that wrap around the table's end -
 * backward shifts step across it about 2000 times - and constant backward
 * shifts), against a plain array: every answer agrees and the entry count
 * matches. */
static void test_touchmap_random(void)
{
    enum { KEYS = 700 };
    static int32_t ref[KEYS];    /* block stored, or -1 when absent */
    static uint64_t lines[KEYS]; /* distinct random line addresses: homes all over */
    wc_touchmap m = {0};
    uint64_t rng = wc_rng_seed(7), present = 0;
    for (unsigned k = 0; k < KEYS; k++) {
        ref[k] = -1;
        lines[k] = (wc_rng_next(&rng) >> 24 << 10) | k; /* distinct by the low bits */
    }
    unsigned bad = 0;
    for (uint32_t i = 0; i < 1000000; i++) {
        uint64_t k = wc_rng_below(&rng, KEYS), op = wc_rng_below(&rng, 4) % 3; /* put 2/4 */
        uint64_t line = lines[k];
        if (op == 0) {
            bool is_new;
            wc_toucher *t = wc_touchmap_put(&m, line, &is_new);
            bad += !t || is_new != (ref[k] < 0);
            if (t) t->block = i;
            present += ref[k] < 0;
            ref[k] = (int32_t)i;
        } else if (op == 1) {
            bad += wc_touchmap_del(&m, line) != (ref[k] >= 0);
            present -= ref[k] >= 0;
            ref[k] = -1;
        } else {
            const wc_toucher *t = wc_touchmap_get(&m, line);
            bad += ref[k] < 0 ? t != NULL : (!t || t->block != (uint32_t)ref[k]);
        }
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(m.used, present);
    wc_touchmap_free(&m);
}

/* ---- through the simulator --------------------------------------------------- */

/* One warp, a one-line direct-mapped L1 (allocate on miss), loads A B A A
 * (A = 0x10000, B = 0x20000; the in-order stage presents them in order):
 *   A  MISS into the empty way
 *   B  MISS evicting A, A's owner is this warp     contention.intra_warp 1
 *   A  (LINE_ALLOC fails while B's fill is pending, then) MISS evicting B
 *                                                  contention.intra_warp 2
 *      a reuse of A by the same full-warp lanes    unbounded.intra_thread 1
 *   A  HIT_RESERVED (A's fill pending) or HIT      l1.intra_thread 1, unbounded 2
 * The flush at the kernel's end evicts A with no request: not counted.  The
 * per-kernel extras equal the totals (one kernel), and the MPKI is
 * 2 * 1000 / warp instructions. */
static void test_through_simulator(void)
{
    wc_config c;
    tiny_config(&c);
    CHECK_EQ(wc_cache_geom_parse("N:1:128:1,L:L:m:N:L,A:4:8,4", &c.l1, NULL), 0);
    snprintf(c.analysis, sizeof c.analysis, "contention,locality");
    list_source *src = ls_create(1, 32);
    ls_load(src, 0, 0x10000, 1);
    ls_load(src, 0, 0x20000, 2);
    ls_load(src, 0, 0x10000, 3);
    ls_load(src, 0, 0x10000, 4);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &src->base, &st), 0);
    const wc_kstats *t = &st.total;
    CHECK_EQ(tiny_extra(t, "contention.intra_warp"), 2);
    CHECK_EQ(tiny_extra(t, "contention.xw_intra_block"), 0);
    CHECK_EQ(tiny_extra(t, "contention.xw_cross_block"), 0);
    CHECK_EQ(tiny_extra(t, "locality.l1.intra_thread"), 1);
    CHECK_EQ(tiny_extra(t, "locality.unbounded.intra_thread"), 2);
    CHECK_EQ(tiny_extra(t, "locality.unbounded.inter_thread"), 0);
    CHECK_EQ(t->warp_insts, 4);
    CHECK_NEAR(tiny_extra(t, "contention.intra_warp_mpki"), 2 * 1000.0 / 4, 1e-9);
    CHECK_EQ(st.n_kernels, 1);
    if (st.n_kernels == 1) CHECK_EQ(tiny_extra(&st.kernels[0], "contention.intra_warp"), 2);
    wc_stats_free(&st);
}

/* Cross-warp classes through the simulator, same one-line L1.  Two warps
 * each load one line, different lines: whichever is presented second waits
 * (LINE_ALLOC) for the first's fill and then evicts it - one eviction by a
 * miss, of a line the other warp brought in; the flush's eviction of the
 * survivor is not counted.
 *   two warps of one block (64 threads)            xw_intra_block 1
 *   one warp in each of two blocks (blocks' data 64 KiB apart)
 *                                                  xw_cross_block 1 */
static void test_cross_warp_through_simulator(void)
{
    for (int cross = 0; cross < 2; cross++) {
        wc_config c;
        tiny_config(&c);
        CHECK_EQ(wc_cache_geom_parse("N:1:128:1,L:L:m:N:L,A:4:8,4", &c.l1, NULL), 0);
        snprintf(c.analysis, sizeof c.analysis, "contention");
        list_source *src = ls_create(cross ? 2 : 1, cross ? 32 : 64);
        src->block_stride = 0x10000;
        ls_load(src, 0, 0x10000, 1);
        if (!cross) ls_load(src, 1, 0x40000, 1);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &src->base, &st), 0);
        CHECK_EQ(tiny_extra(&st.total, "contention.intra_warp"), 0);
        CHECK_EQ(tiny_extra(&st.total, "contention.xw_intra_block"), cross ? 0 : 1);
        CHECK_EQ(tiny_extra(&st.total, "contention.xw_cross_block"), cross ? 1 : 0);
        CHECK_EQ(st.total.l1.evictions, 2); /* the miss's and the flush's */
        wc_stats_free(&st);
    }
}

/* Seed 004's Figure 2 column walk (atax kernel_1), hand-built: each warp
 * instruction loads one element of 32 rows 8 KB apart (stride 8192), the
 * paper's row width; the L1 is Base-S with a linear set index (32 sets x 4
 * ways x 128 B), so all 32 lines of an instruction fall in one set (line
 * address mod 32 is the same: rows are 64 lines apart).  A warp issues two
 * such loads (elements j = 0 and 1: the same 32 lines).
 *   one warp: instruction 0's first 4 lines fill empty ways, its other 28
 *   misses each evict a line of the same warp; instruction 1 misses on all
 *   32 (the set holds lines 28..31) and evicts 32 more: intra_warp 60, no
 *   cross-warp class - the paper's intra-warp contention.
 *   two warps of one block on disjoint rows (the same set): 128 misses, 124
 *   of them evict.  The in-order stage serializes instructions, and the
 *   first 4 misses of an instruction evict the previous instruction's last
 *   4 lines, so each switch between warps from one instruction to the next
 *   gives exactly 4 xw_intra_block (1 to 3 switches: 4, 8 or 12), the rest
 *   are intra_warp. */
static void test_column_walk(void)
{
    for (int warps = 1; warps <= 2; warps++) {
        wc_config c;
        tiny_config(&c);
        CHECK_EQ(wc_cache_geom_parse("N:32:128:4,L:L:m:N:L,A:32:8,8", &c.l1, NULL), 0);
        snprintf(c.analysis, sizeof c.analysis, "contention");
        list_source *src = ls_create(1, 32 * (unsigned)warps);
        for (int w = 0; w < warps; w++)
            for (int j = 0; j < 2; j++) {
                ls_load(src, (unsigned)w, 0x100000 + (uint64_t)w * 32 * 8192 + (uint64_t)j * 4,
                        1 + (unsigned)j);
                src->insts[w][src->n_insts[w] - 1].stride = 8192;
            }
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &src->base, &st), 0);
        const wc_kstats *t = &st.total;
        CHECK_EQ(t->l1.outcome[WC_MISS], 64 * (uint64_t)warps);
        double iw = tiny_extra(t, "contention.intra_warp"),
               xw = tiny_extra(t, "contention.xw_intra_block");
        CHECK_EQ(tiny_extra(t, "contention.xw_cross_block"), 0);
        if (warps == 1) {
            CHECK_EQ(iw, 60);
            CHECK_EQ(xw, 0);
        } else {
            CHECK_EQ(iw + xw, 124);
            CHECK(xw == 4 || xw == 8 || xw == 12);
        }
        wc_stats_free(&st);
    }
}

/* Off: no listener and no extra.  Bad names are configuration errors. */
static void test_option(void)
{
    wc_sim *s = sim_with("", 1);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ(s->n_listeners, 0);
        CHECK_EQ(s->analyses.n, 0);
        wc_sim_destroy(s);
    }
    s = sim_with("contention,locality", 1);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ(s->n_listeners, 2);
        wc_sim_destroy(s);
    }
    wc_config c;
    tiny_config(&c);
    wc_err err = {{0}};
    snprintf(c.analysis, sizeof c.analysis, "contention,nope");
    CHECK(wc_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "option -analysis: unknown analysis 'nope'") != NULL);
    snprintf(c.analysis, sizeof c.analysis, "locality,locality");
    CHECK(wc_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "named twice") != NULL);
}

int main(void)
{
    RUN(test_contention_classes);
    RUN(test_contention_mpki);
    RUN(test_locality_classes);
    RUN(test_touchmap);
    RUN(test_touchmap_random);
    RUN(test_through_simulator);
    RUN(test_cross_warp_through_simulator);
    RUN(test_column_walk);
    RUN(test_option);
    return check_summary("analysis");
}
