/*
 * test_ccws.c - cache-conscious wavefront scheduling (src/core/controllers/ccws.c and
 * the controller src/core/controllers/ctl_ccws.c): the per-warp victim tag array, the
 * lost-locality score and its decay, the load list from hand-made scores,
 * and end-to-end runs on the tiny GPU (tests/tiny_config.h) where a lost
 * line is detected and a thrashing pattern is throttled.  Every expected
 * number is derived by hand in the comment above its test.
 */
#include <string.h>

#include "check.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "core/controllers/ccws.h"
#include "listsrc.h"
#include "util/rng.h"
#include "warpcache/control.h"
#include "warpcache/sim.h"

/* 48 slots, 128 B lines, the paper's parameters (2 sets x 8 ways per warp). */
static void make_sm(wc_ccws_sm *s)
{
    wc_ccws_params p;
    wc_ccws_defaults(&p);
    wc_err err = {{0}};
    CHECK_EQ(wc_ccws_sm_init(s, &p, 48, 7, &err), 0);
    wc_ccws_kernel_begin(s, 0);
    for (unsigned i = 0; i < 48; i++) wc_ccws_sync(s, i, 1000 + i);
}

/* Byte address of line number n. */
static uint64_t L(uint64_t n)
{
    return n << 7;
}

/*
 * Set = line number mod 2.  Nine even lines 0, 2, ..., 16 go into set 0 of
 * warp 3 (8 ways): the ninth pushes out the least recent, line 0.  Probes:
 * 0 misses; 2 hits and is removed (a second probe misses); 16 hits.  Odd
 * lines use set 1 and are untouched by all this; warp 4's VTA is its own.
 */
static void test_vta_insert_lookup(void)
{
    wc_ccws_sm s;
    make_sm(&s);
    for (uint64_t n = 0; n <= 16; n += 2) wc_ccws_vta_insert(&s, 3, L(n));
    wc_ccws_vta_insert(&s, 3, L(1));
    CHECK(!wc_ccws_vta_probe(&s, 3, L(0)));
    CHECK(wc_ccws_vta_probe(&s, 3, L(2)));
    CHECK(!wc_ccws_vta_probe(&s, 3, L(2)));
    CHECK(wc_ccws_vta_probe(&s, 3, L(16)));
    CHECK(wc_ccws_vta_probe(&s, 3, L(1)));
    CHECK(!wc_ccws_vta_probe(&s, 4, L(4)));
    CHECK(wc_ccws_vta_probe(&s, 3, L(4)));
    CHECK_EQ(s.vta_inserts, 10);
    wc_ccws_sm_free(&s);
}

/*
 * LRU within a set: lines 0, 2, ..., 14 fill set 0 (0 least recent).  Line 0
 * is inserted again (evicted from the L1 a second time): it becomes the most
 * recent, so the next two new lines, 18 and 20, push out 2 and 4 - not 0.
 */
static void test_vta_lru(void)
{
    wc_ccws_sm s;
    make_sm(&s);
    for (uint64_t n = 0; n <= 14; n += 2) wc_ccws_vta_insert(&s, 0, L(n));
    wc_ccws_vta_insert(&s, 0, L(0));
    wc_ccws_vta_insert(&s, 0, L(18));
    wc_ccws_vta_insert(&s, 0, L(20));
    CHECK(wc_ccws_vta_probe(&s, 0, L(0)));
    CHECK(!wc_ccws_vta_probe(&s, 0, L(2)));
    CHECK(!wc_ccws_vta_probe(&s, 0, L(4)));
    CHECK(wc_ccws_vta_probe(&s, 0, L(6)));
    CHECK(wc_ccws_vta_probe(&s, 0, L(20)));
    wc_ccws_sm_free(&s);
}

/* A slot taken over by another warp starts with an empty VTA and base score. */
static void test_new_warp_starts_afresh(void)
{
    wc_ccws_sm s;
    make_sm(&s);
    wc_ccws_vta_insert(&s, 5, L(8));
    wc_ccws_set_score(&s, 5, 700, 10);
    wc_ccws_sync(&s, 5, 1005); /* the same warp: kept */
    CHECK_EQ(wc_ccws_score(&s, 5, 10), 700);
    wc_ccws_sync(&s, 5, 77); /* another warp */
    CHECK_EQ(wc_ccws_score(&s, 5, 10), 100);
    CHECK(!wc_ccws_vta_probe(&s, 5, L(8)));
    wc_ccws_sm_free(&s);
}

/*
 * Score on a VTA hit: max(base, hits/insts x K x cutoff).  Kernel begins with
 * the SM at 1000 instructions.  At cycle 50, 16 instructions later, warp 2's
 * first hit with 4 live warps: 1/16 x 8 x 400 = 200.  Decay 1 per cycle:
 * 150 at cycle 100, base (100) from cycle 150 on, never below.  A second
 * hit (warp 7) at cycle 60 after 1016 instructions: 2/1016 x 8 x 400 = 6.3
 * -> base 100.  A third at cycle 70 after 32 instructions, 48 live warps
 * (cutoff 4800): 3/32 x 8 x 4800 = 3600.
 */
static void test_score_rises_and_decays(void)
{
    wc_ccws_sm s;
    make_sm(&s);
    wc_ccws_kernel_begin(&s, 1000);
    wc_ccws_sync(&s, 2, 1);
    CHECK_EQ(wc_ccws_lost_locality(&s, 2, 50, 4, 1016), 200);
    CHECK_EQ(wc_ccws_score(&s, 2, 50), 200);
    CHECK_EQ(wc_ccws_score(&s, 2, 100), 150);
    CHECK_EQ(wc_ccws_score(&s, 2, 149), 101);
    CHECK_EQ(wc_ccws_score(&s, 2, 150), 100);
    CHECK_EQ(wc_ccws_score(&s, 2, 100000), 100);
    CHECK_EQ(s.hot_until, 150);
    wc_ccws_sync(&s, 7, 2);
    CHECK_EQ(wc_ccws_lost_locality(&s, 7, 60, 4, 2016), 100);
    wc_ccws_sync(&s, 9, 3);
    CHECK_EQ(wc_ccws_lost_locality(&s, 9, 70, 48, 1032), 3600);
    CHECK_EQ(s.vta_hits, 3);
    /* decay=0: a raised score stays */
    wc_ccws_sm t;
    wc_ccws_params p;
    wc_ccws_defaults(&p);
    p.decay = 0;
    wc_err err = {{0}};
    CHECK_EQ(wc_ccws_sm_init(&t, &p, 8, 7, &err), 0);
    wc_ccws_set_score(&t, 1, 300, 5);
    CHECK_EQ(wc_ccws_score(&t, 1, 5000000), 300);
    wc_ccws_sm_free(&t);
    wc_ccws_sm_free(&s);
}

/*
 * The load list over 4 live warps (slots 0..3), base 100, cutoff 400:
 *  - all at base: 100+100+100+100 reaches 400 with the last: all four;
 *  - slot 1 at 250: order 1, 0, 2, 3 (ties by slot); 250, 350, 450 >= 400
 *    after slot 2: slots 1, 0, 2 may load, slot 3 may not;
 *  - slot 1 at 400: it alone reaches the cutoff: only slot 1;
 *  - slot 1 at 400 decayed for 150 cycles (250) and slot 3 at 320 set then:
 *    order 3 (320), 1 (250): 570 >= 400: slots 3 and 1 only.
 */
static void test_load_list(void)
{
    wc_ccws_sm s;
    make_sm(&s);
    const uint64_t live[WC_CCWS_WORDS] = {0xf};
    CHECK_EQ(wc_ccws_evaluate(&s, live, 10), 4);
    for (unsigned i = 0; i < 4; i++) CHECK(wc_ccws_allowed(&s, i));
    wc_ccws_set_score(&s, 1, 250, 10);
    CHECK_EQ(wc_ccws_evaluate(&s, live, 10), 3);
    CHECK(wc_ccws_allowed(&s, 0) && wc_ccws_allowed(&s, 1) && wc_ccws_allowed(&s, 2));
    CHECK(!wc_ccws_allowed(&s, 3));
    wc_ccws_set_score(&s, 1, 400, 10);
    CHECK_EQ(wc_ccws_evaluate(&s, live, 10), 1);
    CHECK(wc_ccws_allowed(&s, 1) && !wc_ccws_allowed(&s, 0) && !wc_ccws_allowed(&s, 2));
    wc_ccws_set_score(&s, 3, 320, 160);
    CHECK_EQ(wc_ccws_evaluate(&s, live, 160), 2);
    CHECK(wc_ccws_allowed(&s, 3) && wc_ccws_allowed(&s, 1));
    CHECK(!wc_ccws_allowed(&s, 0) && !wc_ccws_allowed(&s, 2));
    wc_ccws_sm_free(&s);
}

/*
 * Past one word of slots: 70 live warps (slots 0..69), cutoff 7000.  Slots
 * 65 and 3 at 3000 each: order 3, 65 (a tie: lower slot first), then the
 * warps at base by slot.  3000 + 3000 = 6000, and ten base warps (0, 1, 2,
 * 4, ..., 10) bring it to 7000: 12 warps, slot 11 and slot 64 are out.
 */
static void test_load_list_wide(void)
{
    wc_ccws_params p;
    wc_ccws_defaults(&p);
    wc_ccws_sm s;
    wc_err err = {{0}};
    CHECK_EQ(wc_ccws_sm_init(&s, &p, 128, 7, &err), 0);
    wc_ccws_set_score(&s, 65, 3000, 0);
    wc_ccws_set_score(&s, 3, 3000, 0);
    const uint64_t live[WC_CCWS_WORDS] = {~0ull, 0x3f};
    CHECK_EQ(wc_ccws_evaluate(&s, live, 0), 12);
    for (unsigned i = 0; i <= 10; i++) CHECK(wc_ccws_allowed(&s, i));
    CHECK(wc_ccws_allowed(&s, 65));
    CHECK(!wc_ccws_allowed(&s, 11) && !wc_ccws_allowed(&s, 64) && !wc_ccws_allowed(&s, 69));
    wc_ccws_sm_free(&s);
}

/*
 * wc_ccws_refresh against a fresh evaluation every cycle: random scores set
 * at random cycles (most of them decaying through the run), live sets that
 * change now and then, decay 0, 1 and 7, bases 1 and 100, 40 and 130 slots.
 * The kept list must be the one an evaluation gives, cycle by cycle; and it
 * must be kept on most cycles, or the test proves nothing.
 */
static void test_refresh_matches_evaluate(void)
{
    static const uint32_t decays[] = {0, 1, 7}, bases[] = {1, 100};
    static const unsigned slots[] = {40, 130};
    uint64_t rng = wc_rng_seed(28), kept = 0, cycles = 0;
    for (unsigned di = 0; di < 3; di++)
        for (unsigned bi = 0; bi < 2; bi++)
            for (unsigned si = 0; si < 2; si++) {
                wc_ccws_params p;
                wc_ccws_defaults(&p);
                p.decay = decays[di];
                p.base = bases[bi];
                wc_ccws_sm s;
                wc_err err = {{0}};
                CHECK_EQ(wc_ccws_sm_init(&s, &p, slots[si], 7, &err), 0);
                uint64_t live[WC_CCWS_WORDS] = {0};
                for (unsigned i = 0; i < slots[si]; i++)
                    if (wc_rng_below(&rng, 4)) live[i >> 6] |= 1ull << (i & 63);
                for (uint64_t now = 1; now < 6000; now++) {
                    if (!wc_rng_below(&rng, 40)) { /* lost locality somewhere */
                        unsigned slot = (unsigned)wc_rng_below(&rng, slots[si]);
                        uint32_t sc = p.base + (uint32_t)wc_rng_below(&rng, 40u * p.base + 300);
                        wc_ccws_set_score(&s, slot, sc, now);
                    }
                    if (!wc_rng_below(&rng, 150)) { /* a warp arrives, leaves, waits */
                        unsigned slot = (unsigned)wc_rng_below(&rng, slots[si]);
                        live[slot >> 6] ^= 1ull << (slot & 63);
                    }
                    uint64_t before = s.eval_at;
                    wc_ccws_refresh(&s, live, now);
                    kept += before != UINT64_MAX && s.eval_until > now &&
                            !memcmp(live, s.eval_live, sizeof live) && before != now;
                    wc_ccws_sm fresh = s; /* evaluate writes only the list's own fields */
                    wc_ccws_evaluate(&fresh, live, now);
                    CHECK(!memcmp(fresh.allowed, s.allowed, sizeof s.allowed));
                    cycles++;
                }
                wc_ccws_sm_free(&s);
            }
    CHECK(kept > cycles / 2);
}

/* ---- end to end ------------------------------------------------------------ */

static const wc_controller_ops *ccws_ops(void)
{
    return wc_controller_find("ccws");
}

/* Runs l on c, with the ccws controller when params is not NULL. */
static int simulate(const wc_config *c, list_source *l, const char *params, wc_stats *st)
{
    tiny_hooks h = {.ctl = ccws_ops(), .ctl_params = params};
    return tiny_run(c, &l->base, st, params ? &h : NULL, NULL);
}

/* The tiny GPU with a 4-set, 4-way LRU L1 and the linear set index. */
static void small_l1(wc_config *c)
{
    tiny_config(c);
    wc_err err = {{0}};
    CHECK_EQ(wc_cache_geom_parse("N:4:128:4,L:L:m:N:L,A:32:8,8", &c->l1, &err), 0);
}

/*
 * One warp loads lines A B C D E A, all in set 0 (line numbers 4 apart,
 * 512 B), into registers 1..6 (no dependences).  E finds the set full and,
 * once A's data is there, evicts A (LRU): A goes into the warp's VTA (insert
 * 1).  The second A misses, probes the VTA: a hit (lost locality, 1) that
 * removes it; A's allocation evicts B (insert 2).  One live warp: the list
 * always holds it, so no load is refused.
 */
static void test_lost_line_detected(void)
{
    wc_config c;
    small_l1(&c);
    list_source *l = ls_create(1, 32);
    const uint64_t a = 0x10000;
    const uint64_t seq[] = {a, a + 512, a + 1024, a + 1536, a + 2048, a};
    for (unsigned i = 0; i < 6; i++) ls_load(l, 0, seq[i], 1 + i);
    wc_stats st;
    CHECK_EQ(simulate(&c, l, "", &st), 0);
    CHECK_EQ(tiny_extra(&st.total, "ccws_vta_hits"), 1);
    CHECK_EQ(tiny_extra(&st.total, "ccws_vta_inserts"), 2);
    CHECK_EQ(tiny_extra(&st.total, "ccws_blocked_loads"), 0);
    CHECK_EQ(tiny_extra(&st.total, "ccws_blocked_cycles"), 0);
    CHECK_EQ(st.kernels[0].n_extras, 4); /* per kernel too */
    wc_stats_free(&st);
}

/*
 * Thrashing: 8 warps each sweep 8 passes over 8 lines of their own (2 per
 * set: one warp alone would keep them all in the 16-line L1 of small_l1).
 * Every load writes register 1, so a warp's next load waits for the data and
 * GTO moves to another warp at every load.  Without CCWS, between two touches
 * of a line by one warp the 7 others bring in 56 lines, 14 per set, through
 * the 4-way LRU sets: every access misses, 8 x 8 x 8 = 512 misses.  With
 * CCWS the second pass finds lost lines in the VTAs, scores rise, the warps
 * below the cutoff are held at their loads, and the warps that run keep
 * their lines for the later passes: fewer misses, VTA hits and held loads.
 * (The exact counts depend on the whole interleaving; the direction is what
 * CCWS promises and what the test holds it to.)
 */
#define PASSES 8
#define LINES  8
static list_source *thrash(void)
{
    list_source *l = ls_create(1, 8 * 32);
    for (unsigned w = 0; w < 8; w++)
        for (unsigned pass = 0; pass < PASSES; pass++)
            for (unsigned i = 0; i < LINES; i++)
                ls_load(l, w, 0x100000 + (uint64_t)w * 0x10000 + i * 128, 1);
    return l;
}

static void test_thrashing_throttled(void)
{
    wc_config c;
    small_l1(&c);
    wc_stats base, cc;
    CHECK_EQ(simulate(&c, thrash(), NULL, &base), 0);
    CHECK_EQ(simulate(&c, thrash(), "", &cc), 0);
    CHECK_EQ(wc_kstats_l1_misses(&base.total), 512);
    CHECK(tiny_extra(&cc.total, "ccws_vta_hits") >= 1);
    CHECK(tiny_extra(&cc.total, "ccws_blocked_loads") >= 1);
    /* one SM: held cycles are at most the run's, and each had a held load */
    CHECK(tiny_extra(&cc.total, "ccws_blocked_cycles") >= 1);
    CHECK(tiny_extra(&cc.total, "ccws_blocked_cycles") <= (double)cc.total.cycles);
    CHECK(tiny_extra(&cc.total, "ccws_blocked_loads") >=
          tiny_extra(&cc.total, "ccws_blocked_cycles"));
    CHECK(wc_kstats_l1_misses(&cc.total) < wc_kstats_l1_misses(&base.total));
    CHECK_EQ(tiny_extra(&base.total, "ccws_vta_hits"), -1); /* no controller, no extras */
    wc_stats_free(&base);
    wc_stats_free(&cc);
}

/*
 * A barrier does not hold CCWS's list hostage.  One block of two warps.
 * Warp 0 loads A B C D E A (set 0, as above), waits at a barrier, then runs
 * one ALU instruction; warp 1 loads X, uses it, loads Y, waits at the
 * barrier, runs one ALU instruction.  E holds the memory stage until A's
 * data is back (cycle 186, tiny_config.h), so warp 1 cannot load X before
 * warp 0's second A reaches the L1 (cycle 191), by which time warp 0 has
 * issued its BAR too (a load does not block its warp): 7 instructions.  Were
 * barrier waiters part of the list, the cutoff would be 2 x 100 and warp 0's
 * score 1/7 x 8 x 200 = 228 >= 200: the list would be warp 0 alone, and with
 * decay=0 warp 1 could never load X - the run spins to -max_cycles (seen by
 * disabling the rule: 99809 refused loads, truncated at 100000).  With the
 * rule only warp 1 is live, it loads at once (no refusal), and the kernel
 * ends after two dependent memory round trips.  The bound, by hand:
 *   - the second A fails at 187 (E, B, C, D hold the four ways) and gets B's
 *     way when B's response has drained the SM port, 5 flits after A's (186):
 *     at 191.  X is behind it in the in-order stage: at the L1 at 192 at the
 *     earliest, a miss in the L1 and the L2 (a new line).
 *   - an L2 miss is back 185 cycles after its access at the earliest
 *     (tiny_config.h): X's data at >= 377, warp 1's ALU then, its load of Y
 *     the cycle after (>= 378), Y's data >= 378 + 186 = 564, and a warp
 *     retires when its loads are back (sm.c): at least 564 cycles.
 *   - X and Y can queue in the memory system behind warp 0's last requests
 *     (E's miss, A's L2 hit) for a few transfers, never for a round trip:
 *     fewer than 564 + 186 = 750 cycles.  (The run takes 568: the 4 cycles
 *     of queueing are not derived here, hence a bound and not a value.)
 */
static void test_barrier_not_held(void)
{
    wc_config c;
    small_l1(&c);
    c.max_cycles = 100000;
    list_source *l = ls_create(1, 64);
    const uint64_t a = 0x10000;
    const uint64_t seq[] = {a, a + 512, a + 1024, a + 1536, a + 2048, a};
    for (unsigned i = 0; i < 6; i++) ls_load(l, 0, seq[i], 1 + i);
    ls_load(l, 1, 0x80080, 1);
    ls_alu(l, 1, 2, 1);
    ls_load(l, 1, 0x80100, 3);
    for (unsigned w = 0; w < 2; w++) {
        wc_winst *in = &l->insts[w][l->n_insts[w]++];
        wc_winst_clear(in);
        in->op = WC_OP_BAR;
        ls_alu(l, w, 7, WC_REG_NONE); /* the warp lives on after the barrier */
    }
    wc_stats st;
    CHECK_EQ(simulate(&c, l, "decay=0", &st), 0);
    CHECK(!st.truncated);
    CHECK(st.total.cycles >= 564 && st.total.cycles < 750);
    CHECK_EQ(tiny_extra(&st.total, "ccws_vta_hits"), 1);
    CHECK_EQ(tiny_extra(&st.total, "ccws_blocked_loads"), 0);
    wc_stats_free(&st);
}

/*
 * Parameter errors name the controller, the parameter and the reason (the
 * messages of ctl_ccws.c's ranges and of wc_params_each), after where the
 * option came from (control.c: "configuration" for one built in code); the
 * ends of every range are accepted.
 */
static void test_params(void)
{
    wc_config c;
    tiny_config(&c);
    const char *bad[][2] = {
        {"kthrottle=0", "ccws: kthrottle=0: must be a whole number from 1 to 1000"},
        {"vta_ways=65", "ccws: vta_ways=65: must be a whole number from 1 to 64"},
        {"vta_sets=0", "ccws: vta_sets=0: must be a whole number from 1 to 64"},
        {"base=x", "ccws: base=x: must be a whole number from 1 to 1000000"},
        {"decay=1000001", "ccws: decay=1000001: must be a whole number from 0 to 1000000"},
        {"decay=-1", "ccws: decay=-1: numbers are plain decimal (no sign, blank or 0x)"},
        {"size=3", "ccws: unknown parameter 'size' (base, kthrottle, vta_sets, vta_ways, decay)"},
        {"base", "ccws: parameter \"base\" is not key=value"},
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wc_err err = {{0}};
        wc_sim *sim = wc_sim_create(&c, &err);
        CHECK(sim != NULL);
        if (!sim) continue;
        CHECK_EQ(wc_sim_add_controller(sim, ccws_ops(), bad[i][0], &err), -1);
        char want[200];
        snprintf(want, sizeof want, "configuration: option -controllers: %s", bad[i][1]);
        CHECK_STR(err.msg, want);
        wc_sim_destroy(sim);
    }
    const char *good[] = {"base=1,kthrottle=1,vta_sets=1,vta_ways=1,decay=0",
                          "base=1000000,kthrottle=1000,vta_sets=64,vta_ways=64,decay=1000000"};
    for (unsigned i = 0; i < 2; i++) {
        wc_err err = {{0}};
        wc_sim *sim = wc_sim_create(&c, &err);
        CHECK_EQ(wc_sim_add_controller(sim, ccws_ops(), good[i], &err), 0);
        wc_sim_destroy(sim);
    }
}

/*
 * The VTA's geometry parameters reach the VTA.  One warp loads A B C D E F A
 * (set 0 of small_l1, as in test_lost_line_detected).  E evicts A once A's
 * data is back (186); F evicts B once B's response has drained the SM port
 * (191); the second A finds the four ways reserved or filling and, once C's
 * data is back, evicts C.  A, B, C go into the warp's VTA in that order (one
 * VTA set here): the eviction is reported while the L1 handles the access,
 * the miss after it (sm.c), so C is in before the second A probes.  With
 * three ways A is still there (a VTA hit); with two, C has pushed it out.
 */
static void test_vta_geometry_params_taken(void)
{
    const char *params[2] = {"vta_sets=1,vta_ways=3", "vta_sets=1,vta_ways=2"};
    const double hits[2] = {1, 0};
    for (int i = 0; i < 2; i++) {
        wc_config c;
        small_l1(&c);
        list_source *l = ls_create(1, 32);
        const uint64_t a = 0x10000;
        const uint64_t seq[] = {a, a + 512, a + 1024, a + 1536, a + 2048, a + 2560, a};
        for (unsigned k = 0; k < 7; k++) ls_load(l, 0, seq[k], 1 + k);
        wc_stats st;
        CHECK_EQ(simulate(&c, l, params[i], &st), 0);
        CHECK_EQ(tiny_extra(&st.total, "ccws_vta_inserts"), 3);
        CHECK_EQ(tiny_extra(&st.total, "ccws_vta_hits"), hits[i]);
        wc_stats_free(&st);
    }
}

int main(void)
{
    RUN(test_vta_insert_lookup);
    RUN(test_vta_lru);
    RUN(test_new_warp_starts_afresh);
    RUN(test_score_rises_and_decays);
    RUN(test_load_list);
    RUN(test_load_list_wide);
    RUN(test_refresh_matches_evaluate);
    RUN(test_lost_line_detected);
    RUN(test_thrashing_throttled);
    RUN(test_barrier_not_held);
    RUN(test_params);
    RUN(test_vta_geometry_params_taken);
    return check_summary("ccws");
}
