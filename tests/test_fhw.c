/*
 * test_fhw.c - the hardware run-ahead mechanisms of configs/fermi-hw.config
 * (issue 17, item 2), each on a hand-timed micro-scenario on tiny_config.h's
 * GPU (an L2 miss issued at t is answered at t + 186), and the unroll=K code
 * shape of the generators (item 3):
 *
 *   -l1_mshr_per_warp N   a warp's further miss needs one of its own N entries
 *   -mem_stage replay     a reservation fail parks the instruction, the
 *                         LD/ST unit serves other warps until the next fill
 *   replay:wake=all       after a fill every parked instruction is retried,
 *                         not only the oldest
 *   -ldst_loads_per_warp N  a warp's next load waits while N of its loads
 *                         are in flight
 *   unroll=K              micro/colcopy (K up to 32) and the PolyBench
 *                         matrix-vector kernels: same accesses, K loads per
 *                         loop trip, K loads in flight per warp (up to 16)
 */
#include <stdlib.h>

#include "check.h"
#include "listsrc.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "warpcache/sim.h"
#include "warpcache/workloads.h"
#include "wl_pull.h"

/* ---- -l1_mshr_per_warp ---------------------------------------------------- */

/*
 * One warp, two independent loads of lines A and B (registers r1, r3), then
 * an ALU reading both.  Without a limit: LDG A issues at 0 and misses at 1;
 * the stage is free again in cycle 1, LDG B issues at 1 and misses at 2:
 * no reservation fail, no stall.  With -l1_mshr_per_warp 1: B finds its warp's only entry
 * taken at 2 (MSHR_ENTRY_FAIL) and is retried at the next fill, A's at 186,
 * where it misses: the stage stalled 186 - 2 = 184 cycles by MSHR_ENTRY.
 */
static list_source *two_loads_one_warp(void)
{
    list_source *l = ls_create(1, 32);
    ls_load(l, 0, 0x10000, 1);
    ls_load(l, 0, 0x20000, 3);
    ls_alu(l, 0, 2, 1);
    ls_alu(l, 0, 4, 3);
    return l;
}

static void test_mshr_per_warp_limits_one_warp(void)
{
    wc_config c;
    tiny_config(&c);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &two_loads_one_warp()->base, &st), 0);
    CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_ENTRY], 0);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 2);
    CHECK_EQ(st.total.mem_stall_cycles, 0);
    wc_stats_free(&st);

    c.l1_mshr_per_warp = 1;
    CHECK_EQ(tiny_simulate(&c, &two_loads_one_warp()->base, &st), 0);
    CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_ENTRY], 1);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 2);
    CHECK_EQ(st.total.mem_stall_by[WC_FAIL_MSHR_ENTRY], 184);
    wc_stats_free(&st);
}

/*
 * The limit is per warp: two warps with one load each (lines A, B) both get
 * an entry at once under -l1_mshr_per_warp 1 (no fail, no stall).  And a
 * merge needs no entry of its own: a second load of A by the same warp while
 * A is in flight is HIT_RESERVED even though the warp holds its only entry.
 */
static void test_mshr_per_warp_is_per_warp(void)
{
    wc_config c;
    tiny_config(&c);
    c.l1_mshr_per_warp = 1;
    list_source *l = ls_create(1, 64);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    ls_load(l, 1, 0x20000, 1);
    ls_alu(l, 1, 2, 1);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_ENTRY], 0);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 2);
    CHECK_EQ(st.total.mem_stall_cycles, 0);
    wc_stats_free(&st);

    l = ls_create(1, 32);
    ls_load(l, 0, 0x10000, 1);
    ls_load(l, 0, 0x10000, 3);
    ls_alu(l, 0, 2, 1);
    ls_alu(l, 0, 4, 3);
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_ENTRY], 0);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 1);
    CHECK_EQ(st.total.l1.outcome[WC_HIT_RESERVED], 1);
    wc_stats_free(&st);
}

static void test_mshr_per_warp_option(void)
{
    wc_config c;
    wc_config_defaults(&c);
    CHECK_EQ(c.l1_mshr_per_warp, 0); /* the default is GPGPU-Sim's: no limit */
    wc_err err;
    CHECK_EQ(wc_config_set(&c, "l1_mshr_per_warp", "6", "-o", &err), 0);
    CHECK_EQ(c.l1_mshr_per_warp, 6);
    CHECK(wc_config_set(&c, "l1_mshr_per_warp", "-1", "-o", &err) < 0);
}

/* ---- -mem_stage replay ------------------------------------------------------- */

/*
 * One MSHR entry; warp 0 loads A, warp 1 loads B, warp 2 loads A; each then
 * an ALU reading the load.  One scheduler (GTO), one issue per cycle.
 *
 * inorder (the default stage): warp 0 issues at 0, A misses at 1 (the only
 * entry).  Warp 1 issues at 1, B fails at 2 (MSHR_ENTRY) and holds the stage
 * until A's fill at 186, where B misses.  Warp 2 issues at 2 but waits in
 * the issue-ahead queue (-mem_issue_ahead, 4 by default) until the stage
 * takes it at 186; its A is looked up at 187 and hits (A was filled at 186):
 * MISS 2, HIT 1, and 184 stall cycles.
 *
 * replay: B fails at 2 and is parked; the stage is free in the same cycle,
 * so warp 2 issues at 2 and its A is looked up at 3: merged into A's entry
 * (HIT_RESERVED, no entry needed).  A's fill at 186 frees the entry and wakes
 * the parked B, which misses at 186: MISS 2, HIT_RESERVED 1, no stall
 * cycles (the unit was never held), one MSHR_ENTRY fail as before.
 */
static list_source *replay_scenario(void)
{
    list_source *l = ls_create(1, 96);
    const uint64_t line[3] = {0x10000, 0x20000, 0x10000};
    for (unsigned w = 0; w < 3; w++) {
        ls_load(l, w, line[w], 1);
        ls_alu(l, w, 2, 1);
    }
    return l;
}

static void test_replay_lets_other_warps_through(void)
{
    wc_config c;
    tiny_config(&c);
    c.l1.mshr_entries = 1;
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &replay_scenario()->base, &st), 0);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 2);
    CHECK_EQ(st.total.l1.outcome[WC_HIT], 1);
    CHECK_EQ(st.total.l1.outcome[WC_HIT_RESERVED], 0);
    CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_ENTRY], 1);
    CHECK_EQ(st.total.mem_stall_cycles, 184);
    wc_stats_free(&st);

    snprintf(c.mem_stage, sizeof c.mem_stage, "replay");
    CHECK_EQ(tiny_simulate(&c, &replay_scenario()->base, &st), 0);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 2);
    CHECK_EQ(st.total.l1.outcome[WC_HIT], 0);
    CHECK_EQ(st.total.l1.outcome[WC_HIT_RESERVED], 1);
    CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_ENTRY], 1);
    CHECK_EQ(st.total.mem_stall_cycles, 0);
    wc_stats_free(&st);
}

/*
 * Parked instructions keep their age: one MSHR entry; warp 0 loads A, warps
 * 1 and 2 load B and C.  B fails at 2 and parks, C is issued at 2, fails at 3
 * and parks behind B.  A's fill at 186 resumes B (the older): B misses at 186,
 * taking the entry; C resumes at once and fails again at 187.  A miss looked
 * up at t is answered at t + 185 (the 186 above counts from issue), so B's
 * fill comes at 371, C misses then, its fill comes at 556, and warp 2's ALU
 * issues then: the kernel ends at 556 + 4 = 560.  Three MSHR_ENTRY fails.
 */
static void test_replay_keeps_age(void)
{
    wc_config c;
    tiny_config(&c);
    c.l1.mshr_entries = 1;
    snprintf(c.mem_stage, sizeof c.mem_stage, "replay");
    list_source *l = ls_create(1, 96);
    const uint64_t line[3] = {0x10000, 0x20000, 0x30000};
    for (unsigned w = 0; w < 3; w++) {
        ls_load(l, w, line[w], 1);
        ls_alu(l, w, 2, 1);
    }
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 3);
    /* B at 2; C at 3 and again at 187 (B took the entry first) */
    CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_ENTRY], 3);
    CHECK_EQ(st.total.cycles, 560);
    wc_stats_free(&st);
}

/*
 * replay:wake=oldest (the default) vs wake=all.  Two MSHR entries, no merging
 * (-gpgpu_cache:dl1 ...,A:2:1: a request to a line in flight is a MSHR_MERGE
 * fail); one scheduler, GTO.  Warp 0 loads A; warp 1 runs 10 independent
 * ALUs, then loads C; warp 2 loads C; warp 3 loads D; each load is followed
 * by an ALU reading it.
 *
 * Warp 0 issues at 0, A misses at 1 (entry 1), answered at 186.  GTO then
 * keeps warp 1: ALUs at 1..10, C issued at 11, misses at 12 (entry 2),
 * answered at 197.  Warp 2's C (issued 12) fails at 13 (MSHR_MERGE) and
 * parks; warp 3's D (issued 13) fails at 14 (MSHR_ENTRY) and parks behind it.
 * A's fill at 186 frees entry 1; the oldest parked, warp 2's C, fails again
 * (C is still in flight): both modes agree so far.
 *
 * oldest: warp 2's C goes back to the front and both wait for the next fill,
 * C's at 197: C hits there, D resumes and misses at 198, answered at
 * 198 + 185 = 383; warp 3's ALU issues then: the kernel ends at 387.
 * all: D has not been retried since A's fill, so it resumes at once and
 * misses at 187, answered at 372; the kernel ends at 372 + 4 = 376 (C hits
 * at 197 as before).  Both: MISS 3 (A, C, D), HIT 1, two merge fails and one
 * entry fail.
 */
static list_source *wake_scenario(void)
{
    list_source *l = ls_create(1, 128);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    for (unsigned i = 0; i < 10; i++) ls_alu(l, 1, 5 + i, WC_REG_NONE);
    ls_load(l, 1, 0x20000, 1);
    ls_alu(l, 1, 2, 1);
    ls_load(l, 2, 0x20000, 1);
    ls_alu(l, 2, 2, 1);
    ls_load(l, 3, 0x30000, 1);
    ls_alu(l, 3, 2, 1);
    return l;
}

static void test_replay_wake_all(void)
{
    const char *stage[2] = {"replay:wake=oldest", "replay:wake=all"};
    const uint64_t end[2] = {387, 376};
    for (unsigned m = 0; m < 2; m++) {
        wc_config c;
        tiny_config(&c);
        c.l1.mshr_entries = 2;
        c.l1.mshr_max_merge = 1;
        snprintf(c.mem_stage, sizeof c.mem_stage, "%s", stage[m]);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &wake_scenario()->base, &st), 0);
        CHECK_EQ(st.total.cycles, end[m]);
        CHECK_EQ(st.total.l1.outcome[WC_MISS], 3);
        CHECK_EQ(st.total.l1.outcome[WC_HIT], 1);
        CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_MERGE], 2);
        CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_ENTRY], 1);
        wc_stats_free(&st);
    }
    /* plain "replay" is wake=oldest */
    wc_config c;
    tiny_config(&c);
    c.l1.mshr_entries = 2;
    c.l1.mshr_max_merge = 1;
    snprintf(c.mem_stage, sizeof c.mem_stage, "replay");
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &wake_scenario()->base, &st), 0);
    CHECK_EQ(st.total.cycles, 387);
    wc_stats_free(&st);
}

/* A bad parameter is refused when the simulator is created (the
 * configuration's check, before any SM exists), naming the option. */
static void test_replay_wake_bad(void)
{
    const char *bad[] = {"replay:wake=fifo", "replay:wake=", "replay:order=all", "replay:all"};
    for (unsigned i = 0; i < 4; i++) {
        wc_config c;
        tiny_config(&c);
        snprintf(c.mem_stage, sizeof c.mem_stage, "%s", bad[i]);
        wc_err err = {{0}};
        wc_sim *sim = wc_sim_create(&c, &err);
        CHECK(sim == NULL);
        CHECK(strstr(err.msg, "option -mem_stage: replay: ") != NULL);
        if (sim) wc_sim_destroy(sim);
    }
}

/* ---- -ldst_loads_per_warp ------------------------------------------------------ */

/*
 * Seed 003's MSHR micro-benchmark (section 5.2, Figure 8) on one warp: 7
 * independent loads of 7 lines, then an ALU reading the 7th.  The SM port
 * takes a line's response in 5 cycles (5 flits), so misses issued back to
 * back are answered 5 cycles apart.
 *
 * No cap (or a cap of 7): the loads issue at 0..6 and miss at 1..7; they are
 * answered at 186, 191, ..., 216; the ALU issues at 216: the kernel ends at
 * 220.  Cap 6: the 7th load waits for the first to complete (186), issues
 * then, misses at 187 and is answered at 187 + 185 = 372: the kernel ends at
 * 376 - the "sudden increase in latency" at the 7th load of Figure 9.  The
 * cap issues nothing differently otherwise: 7 misses, no reservation fail.
 */
static list_source *seven_loads(void)
{
    list_source *l = ls_create(1, 32);
    for (unsigned i = 0; i < 7; i++) ls_load(l, 0, 0x10000 + 0x1000 * i, 1 + i);
    ls_alu(l, 0, 9, 7);
    return l;
}

static void test_loads_per_warp(void)
{
    const unsigned cap[3] = {0, 7, 6};
    const uint64_t end[3] = {220, 220, 376};
    for (unsigned i = 0; i < 3; i++) {
        wc_config c;
        tiny_config(&c);
        c.ldst_loads_per_warp = cap[i];
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &seven_loads()->base, &st), 0);
        CHECK_EQ(st.total.cycles, end[i]);
        CHECK_EQ(st.total.l1.outcome[WC_MISS], 7);
        CHECK_EQ(wc_kstats_l1_fails(&st.total), 0);
        wc_stats_free(&st);
    }
}

/*
 * The cap counts loads, not stores, and only holds back loads: one warp with
 * cap 1 loads A (r1), stores to B, then loads C (r3), then an ALU reads r3.
 * The store issues at 1 behind the load in flight; the load of C waits for
 * A's answer at 186, issues then, misses at 187 and is answered at 372: the
 * kernel ends at 376.  Without the cap C issues at 2 and is looked up at 3,
 * but leaves the SM port only at 7, behind the store's 5 flits (128 B of
 * data and an 8 B header, sent from 2): answered at 7 + 185 = 192, the
 * kernel ends at 196.
 */
static void test_loads_per_warp_skips_stores(void)
{
    const unsigned cap[2] = {0, 1};
    const uint64_t end[2] = {196, 376};
    for (unsigned i = 0; i < 2; i++) {
        wc_config c;
        tiny_config(&c);
        c.ldst_loads_per_warp = cap[i];
        list_source *l = ls_create(1, 32);
        ls_load(l, 0, 0x10000, 1);
        ls_load(l, 0, 0x20000, WC_REG_NONE);
        wc_winst *st_in = &l->insts[0][1];
        st_in->op = WC_OP_STG;
        st_in->ndst = 0;
        st_in->src[st_in->nsrc++] = 2;
        ls_load(l, 0, 0x30000, 3);
        ls_alu(l, 0, 4, 3);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.total.cycles, end[i]);
        wc_stats_free(&st);
    }
}

static void test_loads_per_warp_option(void)
{
    wc_config c;
    wc_config_defaults(&c);
    CHECK_EQ(c.ldst_loads_per_warp, 0); /* the default is GPGPU-Sim's: no cap */
    wc_err err;
    CHECK_EQ(wc_config_set(&c, "ldst_loads_per_warp", "6", "-o", &err), 0);
    CHECK_EQ(c.ldst_loads_per_warp, 6);
    CHECK(wc_config_set(&c, "ldst_loads_per_warp", "17", "-o", &err) < 0);
    CHECK(wc_config_set(&c, "ldst_loads_per_warp", "-1", "-o", &err) < 0);
}

/* ---- unroll=K ---------------------------------------------------------------- */

/* The multiset of (warp, address of lane 0, op) over a whole workload, as a
 * sorted array: unrolling may reorder a warp's accesses, never change them. */
typedef struct acc {
    uint64_t key, addr;
} acc;

static int acc_cmp(const void *a, const void *b)
{
    const acc *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static size_t collect(const char *spec, acc **out)
{
    wc_err err;
    wc_source *src = wc_workload_open(spec, 1, &err);
    if (!src) {
        fprintf(stderr, "%s: %s\n", spec, err.msg);
        return 0;
    }
    size_t n = 0, cap = 1024;
    acc *v = malloc(cap * sizeof *v);
    wc_kernel k;
    wc_winst in;
    uint64_t launch = 0;
    while (src->ops->next_kernel(src, &k, &err) == 1) {
        uint64_t nb = wc_dim3_count(k.grid);
        uint32_t nw = wc_kernel_warps_per_block(&k);
        for (uint64_t b = 0; b < nb; b++) {
            void *blk;
            if (src->ops->open_block(src, b, &blk, &err) != 1) break;
            for (uint32_t w = 0; w < nw; w++)
                while (src->ops->next_inst(src, blk, w, &in, &err) == 1) {
                    if (in.op != WC_OP_LDG && in.op != WC_OP_STG) continue;
                    if (n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
                    uint64_t a = in.amode == WC_ADDR_STRIDE ? in.base : in.addr[0];
                    v[n].key = launch << 40 | b << 8 | w << 1 | (in.op == WC_OP_STG);
                    v[n].addr = a ^ (uint64_t)in.mask << 32;
                    n++;
                }
            src->ops->close_block(src, blk);
        }
        launch++;
    }
    wc_source_destroy(src);
    qsort(v, n, sizeof *v, acc_cmp);
    *out = v;
    return n;
}

/* Every unroll factor (with and without a remainder loop: 4096 * 0.01 = 41
 * elements per row) and both accumulator policies issue the very accesses of
 * the loop that is not unrolled. */
static void test_unroll_same_accesses(void)
{
    const char *wl[] = {"polybench/atax", "polybench/bicg", "polybench/mvt", "polybench/gesummv"};
    for (unsigned i = 0; i < 4; i++)
        for (unsigned rmw = 0; rmw <= 1; rmw++) {
            char spec[128];
            snprintf(spec, sizeof spec, "%s:scale=0.01,rmw=%u", wl[i], rmw);
            acc *ref;
            size_t nref = collect(spec, &ref);
            CHECK(nref > 0);
            for (unsigned u = 2; u <= 4; u++) {
                snprintf(spec, sizeof spec, "%s:scale=0.01,rmw=%u,unroll=%u", wl[i], rmw, u);
                acc *got;
                size_t n = collect(spec, &got);
                CHECK_EQ(n, nref);
                if (n == nref) CHECK(memcmp(got, ref, n * sizeof *ref) == 0);
                free(got);
            }
            free(ref);
        }
    const char *cc[] = {
        "micro/colcopy:h=64,w=10,store=1", "micro/colcopy:h=64,w=10,store=1,unroll=4",
        "micro/colcopy:h=64,w=10,store=1,unroll=3", "micro/colcopy:h=64,w=10,store=1,unroll=16",
        "micro/colcopy:h=64,w=10,store=1,unroll=32"};
    acc *ref;
    size_t nref = collect(cc[0], &ref);
    CHECK_EQ(nref, 2 * 2 * 10); /* 2 warps, 10 loads and 10 stores each */
    for (unsigned i = 1; i < 5; i++) {
        acc *got;
        size_t n = collect(cc[i], &got);
        CHECK_EQ(n, nref);
        if (n == nref) CHECK(memcmp(got, ref, n * sizeof *ref) == 0);
        free(got);
    }
    free(ref);
}

/* The code shape, by hand.  colcopy unroll=4, w=6, store=1, warp 0: trip 1
 * loads i = 0..3 into r1, r4, r5, r6, stores them, increments the address;
 * trip 2 (the remainder) loads i = 4, 5 into r1, r4, stores, increments.  17
 * instructions; its 3rd is the load of element 2 (address in + 8). */
static void test_unroll_colcopy_shape(void)
{
    wl_counts c;
    CHECK_EQ(wl_pull_all("micro/colcopy:h=32,w=6,store=1,unroll=4", &c), 0);
    CHECK_EQ(c.ldg, 6);
    CHECK_EQ(c.stg, 6);
    CHECK_EQ(c.alu, 2);
    wc_err err;
    wc_source *src = wc_workload_open("micro/colcopy:h=32,w=6,store=1,unroll=4", 1, &err);
    wc_kernel k;
    CHECK_EQ(src->ops->next_kernel(src, &k, &err), 1);
    void *blk;
    CHECK_EQ(src->ops->open_block(src, 0, &blk, &err), 1);
    wc_opclass want_op[17] = {WC_OP_LDG, WC_OP_LDG, WC_OP_LDG, WC_OP_LDG, WC_OP_STG,
                              WC_OP_STG, WC_OP_STG, WC_OP_STG, WC_OP_ALU, WC_OP_LDG,
                              WC_OP_LDG, WC_OP_STG, WC_OP_STG, WC_OP_ALU};
    unsigned want_reg[17] = {1, 4, 5, 6, 1, 4, 5, 6, 2, 1, 4, 1, 4, 2};
    wc_winst in;
    unsigned n = 0;
    while (src->ops->next_inst(src, blk, 0, &in, &err) == 1) {
        if (n < 14) {
            CHECK_EQ(in.op, want_op[n]);
            unsigned reg = in.op == WC_OP_STG ? in.src[0] : in.dst[0]; /* data register */
            CHECK_EQ(reg, want_reg[n]);
        }
        if (n == 2) CHECK_EQ(in.base, 0x10000000ull + 8);
        n++;
    }
    CHECK_EQ(n, 14);
    src->ops->close_block(src, blk);
    wc_source_destroy(src);
}

/* PolyBench, rmw=0 (the accumulator in a register): unroll=2 puts both
 * copies' loads (A and x of iterations 2c and 2c+1) before the multiply-adds;
 * rmw=1 keeps each copy's accumulator store between them. */
static void test_unroll_polybench_shape(void)
{
    wc_winst in;
    wc_kernel k;
    /* atax_kernel1, warp 0: LDG #0 tmp[i] (the accumulator, loaded once
     * before the loop), #1 A[i*NY + 0], #2 x[0], #3 A[i*NY + 1], #4 x[1] */
    CHECK_EQ(wl_nth_mem("polybench/atax:scale=0.01,rmw=0,unroll=2", 0, 0, 0, 3, &in, &k), 0);
    CHECK_EQ(in.op, WC_OP_LDG);
    wc_winst first;
    CHECK_EQ(wl_nth_mem("polybench/atax:scale=0.01,rmw=0,unroll=2", 0, 0, 0, 1, &first, &k), 0);
    CHECK_EQ(in.base, first.base + 4); /* the next element of the same row */
    /* rmw=1: #0 A[i*NY], #1 x[0], #2 the accumulator load tmp[i], #3 its store */
    CHECK_EQ(wl_nth_mem("polybench/atax:scale=0.01,rmw=1,unroll=2", 0, 0, 0, 3, &in, &k), 0);
    CHECK_EQ(in.op, WC_OP_STG);
}

/* unroll=16, nvcc's shape of the H100 colcopy (../shared/data/hw/h100), by
 * hand.  h=64, w=40: warp 1 (threads 32..63, rows 160 B apart from
 * in + 32 * 160) takes trips of 16, 16 and 8 elements.  Trip c's copy u
 * loads element 16c + u of every lane's row into r1 (u = 0) or r(3 + u), so
 * its 16 loads are independent; then one address increment.  40 loads + 3
 * ALU = 43 instructions; lane l of load (c, u) reads
 * in + (32 + l) * 160 + (16c + u) * 4. */
static void test_unroll16_colcopy_shape(void)
{
    wc_err err;
    wc_source *src = wc_workload_open("micro/colcopy:h=64,w=40,unroll=16", 1, &err);
    CHECK(src != NULL);
    if (!src) return;
    wc_kernel k;
    CHECK_EQ(src->ops->next_kernel(src, &k, &err), 1);
    void *blk;
    CHECK_EQ(src->ops->open_block(src, 0, &blk, &err), 1);
    const unsigned trip_len[3] = {16, 16, 8};
    wc_winst in;
    unsigned n = 0;
    for (unsigned c = 0; c < 3; c++) {
        for (unsigned u = 0; u < trip_len[c]; u++, n++) {
            CHECK_EQ(src->ops->next_inst(src, blk, 1, &in, &err), 1);
            CHECK_EQ(in.op, WC_OP_LDG);
            CHECK_EQ(in.dst[0], u == 0 ? 1 : 3 + u);
            for (unsigned l = 0; l < 32; l += 31)
                CHECK_EQ(wc_winst_lane_addr(&in, l),
                         0x10000000ull + (32 + l) * 160ull + (16 * c + u) * 4ull);
        }
        CHECK_EQ(src->ops->next_inst(src, blk, 1, &in, &err), 1);
        CHECK_EQ(in.op, WC_OP_ALU);
        n++;
    }
    CHECK_EQ(src->ops->next_inst(src, blk, 1, &in, &err), 0);
    CHECK_EQ(n, 43);
    src->ops->close_block(src, blk);
    wc_source_destroy(src);
}

/* The cycles of micro/colcopy:h=32,w=32,unroll=K on the hand-timed GPU with
 * -ldst_loads_per_warp cap (0: none), its DRAM slowed to 5000 cycles and the
 * L1's MSHRs merging 32 requests: a load's 32 lines take 32 cycles of the
 * LD/ST unit, so 16 loads issue long before the first is answered, and
 * every copy of a trip merges into its line's entry. */
static uint64_t colcopy_cycles(unsigned unroll, unsigned cap)
{
    char spec[80];
    snprintf(spec, sizeof spec, "micro/colcopy:h=32,w=32,unroll=%u", unroll);
    wc_err err;
    wc_source *src = wc_workload_open(spec, 1, &err);
    CHECK(src != NULL);
    if (!src) return 0;
    wc_config c;
    tiny_config(&c);
    c.dram_latency = 5000;
    c.l1.mshr_max_merge = 32;
    c.ldst_loads_per_warp = cap;
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, src, &st), 0);
    uint64_t cycles = st.total.cycles;
    wc_stats_free(&st);
    return cycles;
}

/* How many loads a warp has in flight, read off the load cap: a cap of N
 * changes nothing iff the warp never has more than N loads out.  One warp,
 * each thread's row one 128 B line, answered 5000+ cycles after the miss:
 * with unroll=16 all 16 loads of the first trip are out at once (a cap of
 * 16 is never reached; with 15 the 16th load waits for the fill and the
 * kernel ends later); unroll=32's 32 independent loads are held to 16 by the
 * warp's 16 scoreboard entries, so a cap of 16 changes nothing there either;
 * unroll=1 has one load out (each reuses r1), and its 32 loads wait for the
 * line one after another: at least one slow DRAM round trip more. */
static void test_unroll_loads_in_flight(void)
{
    uint64_t u16 = colcopy_cycles(16, 0);
    CHECK(u16 > 5000);
    CHECK_EQ(colcopy_cycles(16, 16), u16);
    CHECK(colcopy_cycles(16, 15) > u16);
    uint64_t u32 = colcopy_cycles(32, 0);
    CHECK_EQ(colcopy_cycles(32, 16), u32);
    CHECK(colcopy_cycles(32, 15) > u32);
    uint64_t u1 = colcopy_cycles(1, 0);
    CHECK_EQ(colcopy_cycles(1, 1), u1);
    CHECK(u1 > u16);
}

static void test_unroll_bad_values(void)
{
    wc_err err;
    CHECK(wc_workload_open("micro/colcopy:unroll=0", 1, &err) == NULL);
    CHECK(wc_workload_open("micro/colcopy:unroll=33", 1, &err) == NULL);
    CHECK(strstr(err.msg, "unroll") != NULL);
    CHECK(wc_workload_open("polybench/atax:unroll=5", 1, &err) == NULL);
    CHECK(strstr(err.msg, "unroll") != NULL);
}

int main(void)
{
    RUN(test_mshr_per_warp_limits_one_warp);
    RUN(test_mshr_per_warp_is_per_warp);
    RUN(test_mshr_per_warp_option);
    RUN(test_replay_lets_other_warps_through);
    RUN(test_replay_keeps_age);
    RUN(test_replay_wake_all);
    RUN(test_replay_wake_bad);
    RUN(test_loads_per_warp);
    RUN(test_loads_per_warp_skips_stores);
    RUN(test_loads_per_warp_option);
    RUN(test_unroll_same_accesses);
    RUN(test_unroll_colcopy_shape);
    RUN(test_unroll_polybench_shape);
    RUN(test_unroll16_colcopy_shape);
    RUN(test_unroll_loads_in_flight);
    RUN(test_unroll_bad_values);
    return check_summary("fhw");
}
