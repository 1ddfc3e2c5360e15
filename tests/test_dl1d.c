/*
 * test_dl1d.c - seed 001's bypass schemes on hand-built request streams:
 * the decoupled L1D (dl1d-static: seen once bypassed, seen twice allocated,
 * LFU tag victims, dynamic aging, the evicted line's RC reset, bypasses
 * taking no MSHR), BALL (never allocates), PDP (protects, then bypasses)
 * SM dueling (switches both ways, the mode reaches the L1) and the seed's
 * metrics (hit rate, bypass fraction, L2/DRAM APKI).  Every L1 here uses a
 * linear set index on 32 sets of 128 B lines, so line address L (= addr >> 7) maps to set L mod 32:
 * addresses k * 4096 all fall in set 0.  Expected values are derived by hand in the comment above
 * each test.
 */
#include <stdlib.h>

#include "cache/l1_core.h"
#include "cache/l1_impl.h"
#include "check.h"
#include "fake_l1.h"
#include "tiny_gpu.h"
#include "warpcache/control.h"
#include "warpcache/experiment.h"
#include "warpcache/params.h"
#include "warpcache/trace.h"

typedef fake_l1 rec;

/* An L1 of organisation `org`, geometry `geom`, plug-in parameters
 * "key=value" (NULL-ended). */
static wc_l1 *make(rec *r, const char *org, const char *geom, const char *const *kv)
{
    wc_l1_env env = fake_l1_env(r);
    return tiny_lone_l1(org, geom, kv, &env);
}

#define GEOM_4WAY "N:32:128:4,L:L:m:N:L,A:32:8,8"
#define GEOM_1WAY "N:32:128:1,L:L:m:N:L,A:32:8,8"

static wc_outcome rd(wc_l1 *l1, uint64_t addr, uint32_t cookie, uint64_t now)
{
    wc_mem_req q;
    memset(&q, 0, sizeof q);
    q.addr = addr;
    q.chunks = 0xf;
    q.line_log2 = 7;
    q.chunk_log2 = 5;
    q.op = WC_OP_LDG;
    q.tag = cookie;
    wc_fail_reason why;
    return l1->ops->access(l1, &q, now, &why);
}

static void fill(wc_l1 *l1, uint64_t addr, uint64_t now)
{
    l1->ops->fill(l1, addr, 0xf, now);
}

/* RC of line address `line`, -1 when the tag store has no entry for it. */
static int rc_of(const wc_l1 *l1, uint64_t line, int *pos)
{
    unsigned rc;
    int p = -2;
    if (!wc_dl1d_entry(l1, line, &rc, &p)) return -1;
    if (pos) *pos = p;
    return (int)rc;
}

/*
 * Seen once bypassed, seen twice allocated (threshold 2, Table 3):
 *   read A (line 0): tag miss -> entry RC 1, BYPASSED, one send flagged
 *     BYPASS, no MSHR entry (fill of A then is not ours: no response);
 *   read A again: tag hit without data, RC 2 = threshold -> a data line,
 *     MISS (one normal send), entry points at way 0 (the set is empty);
 *   fill A: the one waiter is answered;  read A: HIT.
 */
static void test_seen_once_bypassed_twice_allocated(void)
{
    rec r = {0};
    wc_l1 *l1 = make(&r, "dl1d-static", GEOM_4WAY, NULL);
    if (!l1) return;
    int pos;
    CHECK_EQ(rd(l1, 0, 1, 0), WC_BYPASSED);
    CHECK_EQ(rc_of(l1, 0, &pos), 1);
    CHECK_EQ(pos, -1);
    CHECK_EQ(r.n_sent, 1);
    CHECK_EQ(r.n_bypass_sent, 1);
    CHECK_EQ(rd(l1, 0, 2, 10), WC_MISS);
    CHECK_EQ(rc_of(l1, 0, &pos), 2);
    CHECK_EQ(pos, 0);
    CHECK_EQ(r.n_sent, 2);
    CHECK_EQ(r.n_bypass_sent, 1);
    fill(l1, 0, 20);
    CHECK_EQ(r.n_resp, 1);
    CHECK_EQ(rd(l1, 0, 3, 30), WC_HIT);
    CHECK_EQ(l1->stats.outcome[WC_BYPASSED], 1);
    CHECK_EQ(l1->stats.read_bypasses, 1);
    CHECK_EQ(l1->stats.outcome[WC_MISS], 1);
    CHECK_EQ(l1->stats.outcome[WC_HIT], 1);
    l1->ops->destroy(l1);
}

/*
 * A bypass takes no MSHR entry: with 1 MSHR entry ("A:1:8"), lines 0 and 1
 * (sets 0 and 1) read once each at the same cycle are both BYPASSED; the
 * conventional L1 would fail the second with MSHR_ENTRY_FAIL.  Threshold 0
 * makes every access allocate: the first is a MISS, the second (another
 * line, no MSHR entry free) a reservation fail.
 */
static void test_bypass_takes_no_mshr(void)
{
    rec r = {0};
    wc_l1 *l1 = make(&r, "dl1d-static", "N:32:128:4,L:L:m:N:L,A:1:8,8", NULL);
    if (!l1) return;
    CHECK_EQ(rd(l1, 0, 1, 0), WC_BYPASSED);
    CHECK_EQ(rd(l1, 128, 2, 0), WC_BYPASSED);
    l1->ops->destroy(l1);
    const char *thr0[] = {"dl1d_threshold", "0", NULL};
    l1 = make(&r, "dl1d-static", "N:32:128:4,L:L:m:N:L,A:1:8,8", thr0);
    if (!l1) return;
    CHECK_EQ(rd(l1, 0, 1, 0), WC_MISS);
    CHECK_EQ(rd(l1, 128, 2, 0), WC_RESERVATION_FAIL);
    CHECK_EQ(l1->stats.fail[WC_FAIL_MSHR_ENTRY], 1);
    l1->ops->destroy(l1);
}

/*
 * LFU picks the smallest count: 2 tag ways, threshold 10 (nothing allocates
 * data, so nothing ages).  Set 0: A = line 0 read twice (RC 2, way 0), B =
 * line 32 read once (RC 1, way 1).  C = line 64: tag miss, no invalid
 * entry, victim = smallest RC = B.  After: A RC 2, B gone, C RC 1.  D =
 * line 96 then replaces C (RC 1 < A's 2), never A.
 */
static void test_lfu_picks_smallest_count(void)
{
    rec r = {0};
    const char *kv[] = {"dl1d_tag_ways", "2", "dl1d_threshold", "10", NULL};
    wc_l1 *l1 = make(&r, "dl1d-static", GEOM_4WAY, kv);
    if (!l1) return;
    rd(l1, 0 * 128, 1, 0);
    rd(l1, 0 * 128, 2, 1);
    rd(l1, 32 * 128, 3, 2);
    CHECK_EQ(rc_of(l1, 0, NULL), 2);
    CHECK_EQ(rc_of(l1, 32, NULL), 1);
    CHECK_EQ(rd(l1, 64 * 128, 4, 3), WC_BYPASSED);
    CHECK_EQ(rc_of(l1, 0, NULL), 2);
    CHECK_EQ(rc_of(l1, 32, NULL), -1);
    CHECK_EQ(rc_of(l1, 64, NULL), 1);
    rd(l1, 96 * 128, 5, 4);
    CHECK_EQ(rc_of(l1, 0, NULL), 2);
    CHECK_EQ(rc_of(l1, 64, NULL), -1);
    CHECK_EQ(rc_of(l1, 96, NULL), 1);
    l1->ops->destroy(l1);
}

/*
 * Aging evicts a stale tag entry: 3 tag ways, threshold 2, set 0.
 *   P (line 0) once: way 0, RC 1.   S (line 32) once: way 1, RC 1.
 *   X (line 64) twice: way 2, RC 2 -> data allocated: the others age,
 *     P 0 and S 0.
 *   P once more: RC 1 (still below 2: BYPASSED).
 *   Z (line 96): tag miss, ways full; dataless entries P (RC 1) and S
 *     (RC 0): the stale S goes.  X keeps its entry and its line.
 */
static void test_aging_evicts_stale_entry(void)
{
    rec r = {0};
    const char *kv[] = {"dl1d_tag_ways", "3", NULL};
    wc_l1 *l1 = make(&r, "dl1d-static", GEOM_4WAY, kv);
    if (!l1) return;
    rd(l1, 0, 1, 0);
    rd(l1, 32 * 128, 2, 1);
    rd(l1, 64 * 128, 3, 2);
    CHECK_EQ(rd(l1, 64 * 128, 4, 3), WC_MISS);
    CHECK_EQ(rc_of(l1, 0, NULL), 0);
    CHECK_EQ(rc_of(l1, 32, NULL), 0);
    CHECK_EQ(rc_of(l1, 64, NULL), 2);
    CHECK_EQ(rd(l1, 0, 5, 4), WC_BYPASSED);
    CHECK_EQ(rc_of(l1, 0, NULL), 1);
    CHECK_EQ(rd(l1, 96 * 128, 6, 5), WC_BYPASSED);
    CHECK_EQ(rc_of(l1, 32, NULL), -1);
    CHECK_EQ(rc_of(l1, 0, NULL), 1);
    CHECK_EQ(rc_of(l1, 96, NULL), 1);
    int pos;
    CHECK_EQ(rc_of(l1, 64, &pos), 2);
    CHECK_EQ(pos, 0);
    l1->ops->destroy(l1);
}

/*
 * The evicted line's RC resets: a 1-way data store (32 x 1), threshold 2.
 *   A (line 0) twice: allocated in way 0 (RC 2); fill; A: HIT.
 *   B (line 32) once: BYPASSED, RC 1.  B again: RC 2 -> allocated, the
 *     only way holds A: A's line is evicted, A's entry RC 0 and no line;
 *     one aging step for the others (B, the allocating entry, keeps 2).
 *   A again: tag hit without data, RC 0 + 1 = 1 < 2 -> BYPASSED (with A's
 *     old count of 2 it would have allocated at once).
 */
static void test_evicted_line_rc_resets(void)
{
    rec r = {0};
    wc_l1 *l1 = make(&r, "dl1d-static", GEOM_1WAY, NULL);
    if (!l1) return;
    rd(l1, 0, 1, 0);
    CHECK_EQ(rd(l1, 0, 2, 1), WC_MISS);
    fill(l1, 0, 2);
    CHECK_EQ(rd(l1, 0, 3, 3), WC_HIT);
    CHECK_EQ(rd(l1, 32 * 128, 4, 4), WC_BYPASSED);
    CHECK_EQ(rd(l1, 32 * 128, 5, 5), WC_MISS);
    int pos;
    CHECK_EQ(rc_of(l1, 0, &pos), 0);
    CHECK_EQ(pos, -1);
    CHECK_EQ(rc_of(l1, 32, &pos), 2);
    CHECK_EQ(pos, 0);
    CHECK_EQ(l1->stats.evictions, 1);
    CHECK_EQ(rd(l1, 0, 6, 6), WC_BYPASSED);
    CHECK_EQ(rc_of(l1, 0, NULL), 1);
    l1->ops->destroy(l1);
}

/*
 * BALL never allocates: 3 reads of the same global line, 1 local read, a
 * local write (write policy L: local writes are write-back, allocation N)
 * and a global write.  Every read is BYPASSED (4 bypass sends); the writes
 * go below as MISSes (2 more sends); no eviction, no fill, the MSHRs never
 * used (a fill of the line answers no one).
 */
static void ball_stream(const char *geom)
{
    rec r = {0};
    wc_l1 *l1 = make(&r, "ball", geom, NULL);
    if (!l1) return;
    for (int i = 0; i < 3; i++) CHECK_EQ(rd(l1, 0, (uint32_t)i, (uint64_t)i), WC_BYPASSED);
    wc_mem_req q;
    memset(&q, 0, sizeof q);
    q.addr = 4096;
    q.chunks = 1;
    q.line_log2 = 7;
    q.chunk_log2 = 5;
    q.op = WC_OP_LDL;
    q.flags = WC_REQ_LOCAL;
    CHECK_EQ(l1->ops->access(l1, &q, 5, NULL), WC_BYPASSED);
    q.flags = WC_REQ_LOCAL | WC_REQ_WRITE;
    q.op = WC_OP_STL;
    CHECK_EQ(l1->ops->access(l1, &q, 6, NULL), WC_MISS);
    q.flags = WC_REQ_WRITE;
    q.op = WC_OP_STG;
    CHECK_EQ(l1->ops->access(l1, &q, 7, NULL), WC_MISS);
    fill(l1, 0, 8);
    CHECK_EQ(r.n_sent, 6);
    CHECK_EQ(r.n_bypass_sent, 4);
    CHECK_EQ(r.n_resp, 0);
    CHECK_EQ(l1->stats.outcome[WC_BYPASSED], 4);
    CHECK_EQ(l1->stats.evictions, 0);
    CHECK_EQ(l1->stats.fills, 0);
    l1->ops->destroy(l1);
}

/* The same with allocate-on-miss and allocate-on-fill: the bypass does not
 * depend on the allocation policy. */
static void test_ball_never_allocates(void)
{
    ball_stream(GEOM_4WAY);
    ball_stream("N:32:128:4,L:L:f:N:L,A:32:8,8");
}

/*
 * PDP protects and bypasses: a 2-way L1 (set 0), protection distance 2,
 * every line filled before the next access.
 *   A (line 0): MISS into the free way 0, RPD 2.
 *   B (line 32): MISS into way 1; the access ages A: RPD 1; B RPD 2.
 *   C (line 64): no free way, A (1) and B (2) both protected -> BYPASSED;
 *     the access ages both: A 0, B 1.
 *   D (line 96): A is unprotected -> evicted (1 eviction), D in way 0 with
 *     RPD 2; B ages to 0.
 *   B: HIT (under LRU, C evicts A and D then evicts B: the LRU run below
 *     misses on B).
 *   A: gone; no free way, D (RPD 1 after B's hit aged it) and B (2) are
 *     both protected -> BYPASSED.
 */
static void test_pdp_protects_and_bypasses(void)
{
    rec r = {0};
    const char *kv[] = {"pdp_distance", "2", NULL};
    wc_l1 *l1 = make(&r, "conventional", "N:32:128:2,P:L:m:N:L,A:32:8,8", kv);
    if (!l1) return;
    CHECK_EQ(rd(l1, 0, 1, 0), WC_MISS);
    fill(l1, 0, 1);
    CHECK_EQ(rd(l1, 32 * 128, 2, 2), WC_MISS);
    fill(l1, 32 * 128, 3);
    CHECK_EQ(rd(l1, 64 * 128, 3, 4), WC_BYPASSED);
    CHECK_EQ(l1->stats.evictions, 0);
    CHECK_EQ(rd(l1, 96 * 128, 4, 5), WC_MISS);
    fill(l1, 96 * 128, 6);
    CHECK_EQ(l1->stats.evictions, 1);
    CHECK_EQ(rd(l1, 32 * 128, 5, 7), WC_HIT);
    CHECK_EQ(rd(l1, 0, 6, 8), WC_BYPASSED);
    CHECK_EQ(l1->stats.outcome[WC_BYPASSED], 2);
    l1->ops->destroy(l1);

    /* The same stream under LRU: C evicts A, D evicts B, so B misses. */
    rec r2 = {0};
    l1 = make(&r2, "conventional", "N:32:128:2,L:L:m:N:L,A:32:8,8", NULL);
    if (!l1) return;
    rd(l1, 0, 1, 0);
    fill(l1, 0, 1);
    rd(l1, 32 * 128, 2, 2);
    fill(l1, 32 * 128, 3);
    CHECK_EQ(rd(l1, 64 * 128, 3, 4), WC_MISS);
    fill(l1, 64 * 128, 5);
    CHECK_EQ(rd(l1, 96 * 128, 4, 6), WC_MISS);
    fill(l1, 96 * 128, 7);
    CHECK_EQ(rd(l1, 32 * 128, 5, 8), WC_MISS);
    l1->ops->destroy(l1);
}

/*
 * Seed 001's metrics on hand numbers: 1000 non-fail accesses of which 300
 * HIT, 100 HIT_RESERVED, 250 BYPASSED; 2000 warp instructions, 500 L2
 * accesses, 120 DRAM reads + 30 writes:
 *   hit rate = (300 + 100) / 1000 = 0.4;  bypass fraction = 250 / 1000 = 0.25;
 *   L2 APKI = 1000 * 500 / 2000 = 250;   DRAM APKI = 1000 * 150 / 2000 = 75.
 */
static void test_metrics(void)
{
    wc_kstats k;
    memset(&k, 0, sizeof k);
    k.warp_insts = 2000;
    k.l1.accesses = 1000;
    k.l1.outcome[WC_HIT] = 300;
    k.l1.outcome[WC_HIT_RESERVED] = 100;
    k.l1.outcome[WC_BYPASSED] = 250;
    k.l1.outcome[WC_RESERVATION_FAIL] = 77; /* not accesses: no effect */
    k.l2.accesses = 500;
    k.dram.reads = 120;
    k.dram.writes = 30;
    const char *names[] = {"l1_hit_rate", "l1_bypass_fraction", "l2_apki", "dram_apki"};
    const double want[] = {0.4, 0.25, 250.0, 75.0};
    for (int i = 0; i < 4; i++) {
        wc_exp_metric m;
        wc_err err = {{0}};
        CHECK(wc_exp_metric_find(names[i], &m, &err) == 0);
        double v = wc_exp_metric_value(&m, &k);
        CHECK(v > want[i] - 1e-12 && v < want[i] + 1e-12);
    }
}

/* The knobs' l1_mode of the 4 SMs as digits, SM 0 first. */
static unsigned duel_modes(const wc_ctl_io *io)
{
    wc_knob_id mode = (wc_knob_id)wc_knob_find("l1_mode");
    unsigned m = 0;
    for (unsigned i = 0; i < 4; i++) m = m * 10 + (unsigned)wc_knob_get(io, i, mode);
    return m;
}

/* One period of SM dueling with SM 0 and SM 1 at (accesses, hits) and the
 * other SMs idle; returns the knobs' modes as digits, SM 0 first. */
static unsigned duel_period(wc_ctl *c, wc_ctl_io *io, uint64_t a0, uint64_t h0, uint64_t a1,
                            uint64_t h1)
{
    wc_period_counters p[4];
    memset(p, 0, sizeof p);
    p[0].l1_accesses = a0;
    p[0].l1_outcome[WC_HIT] = h0;
    p[1].l1_accesses = a1;
    p[1].l1_outcome[WC_HIT_RESERVED] = h1; /* hit-reserved counts as a hit */
    io->sm = p;
    io->gpu = &p[3];
    c->ops->period(c, io);
    return duel_modes(io);
}

/*
 * SM dueling switches both ways (4 SMs, threshold 10 points; mode 0 = the
 * new design, 1 = the baseline; SM 0 always 0, SM 1 always 1):
 *   kernel begin: the rest follow SM 1 -> 0 1 1 1;
 *   SM 0 misses 50 of 100, SM 1 45 of 100: 5 points -> new design 0 1 0 0;
 *   SM 0 70 %, SM 1 45 %: 25 points > 10 -> baseline 0 1 1 1;
 *   SM 0 55 %, SM 1 45 %: exactly 10, not more -> new design 0 1 0 0;
 *   SM 0 made no access: the decision stays 0 1 0 0.
 */
static void test_sm_dueling_switches_both_ways(void)
{
    const wc_controller_ops *ops = wc_controller_find("sm_dueling");
    CHECK(ops != NULL);
    if (!ops) return;
    wc_ctl c = {.ops = ops};
    wc_err err = {{0}};
    wc_param_values v;
    CHECK(wc_param_parse(&v, ops->params, ops->name, "interval=500,threshold=10", &err) == 0);
    CHECK(ops->create(&c, &v, &err) == 0);
    CHECK_EQ(c.period, 500);
    size_t nk;
    wc_knob_list(&nk);
    CHECK(nk <= 16);
    uint64_t knobs[4 * 16] = {0}; /* [sm * nk + id] (knob.h) */
    void *state = NULL;
    wc_ctl_io io = {.sim = NULL,
                    .now = 0,
                    .kernel = "k",
                    .n_sm = 4,
                    .knobs = knobs,
                    .n_knobs = (unsigned)nk,
                    .kernel_state = &state};
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_sim *sim = wc_sim_create(&cfg, &err); /* for the timeline (no run: nothing kept) */
    io.sim = sim;
    ops->kernel_begin(&c, &io);
    CHECK_EQ(duel_modes(&io), 111);
    CHECK_EQ(duel_period(&c, &io, 100, 50, 100, 55), 100);
    CHECK_EQ(duel_period(&c, &io, 100, 30, 100, 55), 111);
    CHECK_EQ(duel_period(&c, &io, 100, 45, 100, 55), 100);
    CHECK_EQ(duel_period(&c, &io, 0, 0, 100, 55), 100);
    if (ops->destroy) ops->destroy(&c);
    wc_sim_destroy(sim);
    CHECK(wc_param_parse(&v, ops->params, ops->name, "threshold=101", &err) < 0);
    CHECK(strstr(err.msg, "threshold") != NULL);
}

/*
 * The mode knob reaches dl1d-static: mode 1 (the baseline, threshold 0)
 * allocates line 0 on its first read (MISS, not BYPASSED); back in mode 0
 * line 32, seen once, bypasses again.  ctl answers the old mode.
 */
static void test_dl1d_mode(void)
{
    rec r = {0};
    wc_l1 *l1 = make(&r, "dl1d-static", GEOM_4WAY, NULL);
    if (!l1) return;
    CHECK_EQ(wc_l1_ctl(l1, WC_L1_CTL_MODE, 1), 0);
    CHECK_EQ(rd(l1, 0, 1, 0), WC_MISS);
    CHECK_EQ(wc_l1_ctl(l1, WC_L1_CTL_MODE, 0), 1);
    CHECK_EQ(rd(l1, 32 * 128, 2, 1), WC_BYPASSED);
    CHECK_EQ(wc_l1_ctl(l1, WC_L1_CTL_MODE, 7), -1);
    l1->ops->destroy(l1);
}

/*
 * A mode change lifts a remembered reservation fail (dl1d_ctl tells the core,
 * wc_l1_core_changed).  One MSHR entry.  Mode 1 (every access allocates):
 * line 0 MISSes and holds the entry; line 32 then fails MSHR_ENTRY, and again
 * on its retry.  Back in mode 0 (threshold 2) line 32, never referenced (a
 * fail records nothing), has RC 1 < 2 and goes around the cache: BYPASSED,
 * which needs no MSHR entry.  Were the fail still remembered, the retry
 * would fail again.
 */
static void test_dl1d_mode_lifts_fail(void)
{
    rec r = {0};
    wc_l1 *l1 = make(&r, "dl1d-static", "N:32:128:4,L:L:m:N:L,A:1:8,8", NULL);
    if (!l1) return;
    CHECK_EQ(wc_l1_ctl(l1, WC_L1_CTL_MODE, 1), 0);
    CHECK_EQ(rd(l1, 0, 1, 0), WC_MISS);
    CHECK_EQ(rd(l1, 32 * 128, 2, 1), WC_RESERVATION_FAIL);
    CHECK_EQ(rd(l1, 32 * 128, 2, 2), WC_RESERVATION_FAIL);
    CHECK_EQ(l1->stats.fail[WC_FAIL_MSHR_ENTRY], 2);
    CHECK_EQ(wc_l1_ctl(l1, WC_L1_CTL_MODE, 0), 1);
    CHECK_EQ(rd(l1, 32 * 128, 2, 3), WC_BYPASSED);
    l1->ops->destroy(l1);
}

/* A parameter out of range is a configuration error naming the option. */
static void test_param_range(void)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    CHECK(wc_config_set(&cfg, "dl1d_rc_bits", "9", "test", &err) != 0);
    CHECK(strstr(err.msg, "dl1d_rc_bits") != NULL);
}

int main(void)
{
    RUN(test_seen_once_bypassed_twice_allocated);
    RUN(test_bypass_takes_no_mshr);
    RUN(test_lfu_picks_smallest_count);
    RUN(test_aging_evicts_stale_entry);
    RUN(test_evicted_line_rc_resets);
    RUN(test_ball_never_allocates);
    RUN(test_pdp_protects_and_bypasses);
    RUN(test_metrics);
    RUN(test_sm_dueling_switches_both_ways);
    RUN(test_dl1d_mode);
    RUN(test_dl1d_mode_lifts_fail);
    RUN(test_param_range);
    return check_summary("dl1d");
}
