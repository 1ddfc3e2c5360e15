/*
 * test_icache.c - GPGPU-Sim's L1 instruction cache (src/core/icache.c) on
 * its own, and in the engine: a kernel's start cost with a cold cache,
 * derived by hand on tiny_config.h's GPU; the fetch unit's round robin
 * over the waiting warps (wc_sm_next_fetch) against a slot-by-slot walk.
 */
#include "check.h"
#include "core/gpu.h"
#include "core/icache.h"
#include "util/rng.h"
#include "listsrc.h"
#include "tiny_config.h"
#include "tiny_gpu.h"

/*
 * One set of two 128 B ways, 2 MSHRs merging 2 fetches, a two-entry miss
 * queue.  Lines A, B, C (all in the one set):
 *   A by warp 0: miss, queued.  B by warp 3: miss, queued: the queue is
 *   full.  A by warp 1: GPGPU-Sim tests the queue before it merges: fail.
 *   A sent; A by warp 1: merged.  A by warp 2: the MSHR holds 2 already:
 *   fail.  C by warp 4: room in the queue, but no MSHR left: fail.  B sent.
 *   A arrives: warps 0 then 1, then nobody; A's MSHR is free, so C misses.
 *   B, C arrive: C is put in place of the least recently used line; A was
 *   looked up (hit) after B arrived, so B goes: A hits, B misses, C hits.
 */
static void test_icache_alone(void)
{
    wc_cache_geom g;
    CHECK_EQ(wc_cache_geom_parse("N:1:128:2,L:R:f:N:L,A:2:2,2", &g, NULL), 0);
    wc_icache ic;
    wc_err err = {{0}};
    CHECK_EQ(wc_icache_init(&ic, &g, &err), 0);
    const uint64_t A = 0x1000, B = 0x2000, C = 0x3000;
    uint64_t line;
    unsigned slot;
    CHECK_EQ(wc_icache_access(&ic, A + 8, 0), WC_IC_MISS);
    CHECK_EQ(wc_icache_access(&ic, B, 3), WC_IC_MISS);
    CHECK_EQ(wc_icache_access(&ic, A + 0x40, 1), WC_IC_FAIL);
    CHECK(wc_icache_to_send(&ic, &line, &slot));
    CHECK_EQ(line, A);
    CHECK_EQ(slot, 0);
    wc_icache_sent(&ic);
    CHECK_EQ(wc_icache_access(&ic, A + 0x40, 1), WC_IC_MISS);
    CHECK_EQ(wc_icache_access(&ic, A, 2), WC_IC_FAIL);
    CHECK_EQ(wc_icache_access(&ic, C, 4), WC_IC_FAIL);
    CHECK(wc_icache_to_send(&ic, &line, &slot));
    CHECK_EQ(line, B);
    CHECK_EQ(slot, 3);
    wc_icache_sent(&ic);
    CHECK(!wc_icache_to_send(&ic, &line, &slot));
    CHECK_EQ(wc_icache_next_ready(&ic), -1);
    wc_icache_fill(&ic, A);
    CHECK(wc_icache_busy(&ic));
    CHECK_EQ(wc_icache_next_ready(&ic), 0);
    CHECK_EQ(wc_icache_next_ready(&ic), 1);
    CHECK_EQ(wc_icache_next_ready(&ic), -1);
    CHECK(!wc_icache_busy(&ic));
    CHECK_EQ(wc_icache_access(&ic, C + 0x7c, 4), WC_IC_MISS);
    wc_icache_sent(&ic);
    wc_icache_fill(&ic, B);
    CHECK_EQ(wc_icache_next_ready(&ic), 3);
    CHECK_EQ(wc_icache_access(&ic, A, 5), WC_IC_HIT);
    wc_icache_fill(&ic, C);
    CHECK_EQ(wc_icache_next_ready(&ic), 4);
    CHECK_EQ(wc_icache_access(&ic, A, 5), WC_IC_HIT);
    CHECK_EQ(wc_icache_access(&ic, C, 5), WC_IC_HIT);
    CHECK_EQ(wc_icache_access(&ic, B, 5), WC_IC_MISS);
    CHECK_EQ(ic.misses, 4);
    CHECK_EQ(ic.merges, 1);
    CHECK_EQ(ic.fails, 3);
    wc_icache_free(&ic);
}

/*
 * The start of a kernel with a cold instruction cache.  Four independent
 * ALU instructions (latency 4) at PCs 0, 8, 16, 24 (one line) per warp.
 * With -ifetch 1 alone (test_engine.c, test_ifetch_front_end) one warp ends
 * at 10 and two warps (GTO) at 13: fetched at 0 (and 1), decoded a cycle
 * later, issuing from the cycle after that.
 * With -icache 1 the first fetch misses at cycle 0 and its line is sent the
 * same cycle (GPGPU-Sim's L1I sends its miss queue's head in the fetch
 * cycle): a line read that leaves the SM at cycle 0 misses in the L2 and is
 * answered at 0 + 185 (tiny_config.h: 186 for a load issued at 0, which
 * leaves at 1).  At 185 the fetch unit hands the warp to decode, as the
 * plain front end did at 0, and the next fetch hits: everything after is
 * the -ifetch schedule 185 cycles later, 10 + 185 = 195.  With two warps
 * the second one's fetch at cycle 1 merges into the first one's MSHR (one
 * L2 access, not two), the fill hands out warp 0 at 185 and warp 1 at 186,
 * as the plain front end fetched them at 0 and 1: 13 + 185 = 198.
 * A second launch on the same SM finds the line (GPGPU-Sim never flushes
 * its L1I): the -ifetch cycles again.
 */
static void test_icache_kernel_start(void)
{
    for (unsigned warps = 1; warps <= 2; warps++)
        for (int icache = 0; icache < 2; icache++) {
            wc_config c;
            tiny_config(&c);
            c.ifetch = 1;
            c.icache = (uint32_t)icache;
            list_source *l = ls_create(1, 32 * warps);
            l->kernels_left = 2;
            for (unsigned w = 0; w < warps; w++)
                for (unsigned i = 0; i < 4; i++) {
                    ls_alu(l, w, 1 + i, WC_REG_NONE);
                    l->insts[w][i].pc = 8 * i;
                }
            wc_stats st;
            CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
            CHECK_EQ(st.n_kernels, 2);
            uint64_t plain = warps == 1 ? 10 : 13;
            CHECK_EQ(st.kernels[0].cycles, plain + (icache ? 185 : 0));
            CHECK_EQ(st.kernels[1].cycles, plain);
            CHECK_EQ(st.total.l2.accesses, icache ? 1 : 0);
            CHECK_EQ(st.total.l2.misses, icache ? 1 : 0);
            CHECK_EQ(st.total.l1.outcome[WC_MISS], 0); /* the data L1 sees none of it */
            wc_stats_free(&st);
        }
}

/* -gpgpu_perfect_inst_const_cache 1 (the Pascal-and-later files) wins over
 * -icache 1: fetches always hit, the front end stays (13 cycles). */
static void test_icache_perfect(void)
{
    wc_config c;
    tiny_config(&c);
    c.icache = 1;
    c.perfect_icache = true;
    list_source *l = ls_create(1, 64);
    for (unsigned w = 0; w < 2; w++)
        for (unsigned i = 0; i < 4; i++) ls_alu(l, w, 1 + i, WC_REG_NONE);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.cycles, 13);
    CHECK_EQ(st.total.l2.accesses, 0);
    wc_stats_free(&st);
}

/* A geometry the cache cannot use is refused when the simulator is built,
 * naming the option. */
static void test_icache_bad_geometry(void)
{
    wc_config c;
    tiny_config(&c);
    c.icache = 1;
    c.il1.line_bytes = 16; /* what a geometry built in code could hold */
    wc_err err = {{0}};
    wc_sim *sim = wc_sim_create(&c, &err);
    CHECK(sim == NULL);
    CHECK(strstr(err.msg, "gpgpu_cache:il1") != NULL);
    if (sim) wc_sim_destroy(sim);
}

/* The slot-by-slot walk wc_sm_next_fetch stands for: fetch_last + 1,
 * fetch_last + 2, ... (mod n_slots), the first whose need_fetch is 1. */
static int walk_next_fetch(const wc_sm *sm)
{
    for (unsigned i = 1; i <= sm->n_slots; i++) {
        unsigned slot = (sm->fetch_last + i) % sm->n_slots;
        if (sm->warps[slot].need_fetch == 1) return (int)slot;
    }
    return -1;
}

/* Slot counts around the 64-bit words' edges, sparse and dense waiting
 * sets (need_fetch 0, 1 and 2 mixed), every fetch_last. */
static void test_fetch_round_robin(void)
{
    static const unsigned counts[] = {1, 2, 48, 63, 64, 65, 127, 128, 200, WC_MAX_SLOTS};
    uint64_t seed = 7;
    for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        unsigned n = counts[c];
        wc_sm *sm = calloc(1, sizeof *sm);
        sm->warps = calloc(n, sizeof *sm->warps);
        sm->n_slots = n;
        for (unsigned round = 0; round < 40; round++) {
            unsigned density = round % 8; /* in eighths: 0 leaves every slot idle */
            for (unsigned s = 0; s < n; s++) {
                uint64_t r = wc_splitmix64(&seed);
                uint8_t v = (r & 7) < density ? 1 : (uint8_t)((r >> 3) % 3 == 2 ? 2 : 0);
                wc_sm_set_need_fetch(sm, s, v);
            }
            for (unsigned last = 0; last < n; last++) {
                sm->fetch_last = last;
                CHECK_EQ(wc_sm_next_fetch(sm), walk_next_fetch(sm));
            }
        }
        free(sm->warps);
        free(sm);
    }
}

int main(void)
{
    RUN(test_icache_alone);
    RUN(test_icache_kernel_start);
    RUN(test_icache_perfect);
    RUN(test_icache_bad_geometry);
    RUN(test_fetch_round_robin);
    return check_summary("icache");
}
