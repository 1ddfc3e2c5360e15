/*
 * test_control.c - the engine's seams on hand-built scenarios: a GPU-wide
 * controller's period counters and knobs, streaming bypass of the L1 and the
 * L2 and its timeline, the warp limit (and its barrier rule), a toy memory
 * stage, two-level scheduling order, and eviction events with the request
 * that caused them.  Timings are derived by hand from the tiny configuration
 * (the same one as test_engine.c: every latency visible).
 */
#include "check.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "core/gpu.h"
#include "warpcache/stage.h"
#include "listsrc.h"
#include "warpcache/control.h"
#include "warpcache/sim.h"

/* ---- a controller that records what it sees and turns on L1 bypass ------ */

typedef struct probe {
    unsigned n_calls;
    uint64_t at[8];
    wc_period_counters seen[8];
    unsigned begins, ends;
    wc_period_counters end;
} probe;

static probe the_probe; /* the test's own record (reset by each test) */

/* The test controllers' one parameter: the sampling period. */
static const wc_param_desc probe_params[] = {
    {.key = "period", .def = 0, .min = 0, .max = 1000000, .help = "sampling period (0: none)"},
    {0},
};

static int probe_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    c->period = wc_param_u(params, "period");
    c->priv = &the_probe;
    return 0;
}

static void probe_begin(wc_ctl *c, wc_ctl_io *io)
{
    ((probe *)c->priv)->begins++;
}

static void probe_period(wc_ctl *c, wc_ctl_io *io)
{
    probe *p = c->priv;
    if (p->n_calls < 8) {
        p->at[p->n_calls] = io->now;
        p->seen[p->n_calls] = io->sm[0];
    }
    p->n_calls++;
    wc_knob_set(io, 0, (wc_knob_id)wc_knob_find("l1_bypass"), 1);
}

static void probe_end(wc_ctl *c, wc_ctl_io *io)
{
    probe *p = c->priv;
    p->ends++;
    p->end = io->sm[0];
}

static const wc_controller_ops probe_ops = {
    .name = "probe",
    .params = probe_params,
    .create = probe_create,
    .kernel_begin = probe_begin,
    .period = probe_period,
    .kernel_end = probe_end,
};

/* LDG r1 <- [A]; ALU r2 <- r1; LDG r3 <- [A]; ALU r4 <- r3 (test_engine.c's
 * test_hit_after_miss: the second load reaches the L1 at cycle 188 and hits,
 * the kernel ends at 212). */
static list_source *miss_then_reuse(void)
{
    list_source *l = ls_create(1, 32);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    ls_load(l, 0, 0x10000, 3);
    ls_alu(l, 0, 4, 3);
    return l;
}

static uint64_t run_probe(uint64_t period, wc_stats *st)
{
    wc_config c;
    tiny_config(&c);
    memset(&the_probe, 0, sizeof the_probe);
    char params[32];
    snprintf(params, sizeof params, "period=%llu", (unsigned long long)period);
    tiny_hooks h = {.ctl = &probe_ops, .ctl_params = params};
    CHECK_EQ(tiny_run(&c, &miss_then_reuse()->base, st, &h, NULL), 0);
    return st->total.cycles;
}

/*
 * Period 100.  Nothing happens between cycle 1 (the miss) and 186 (the
 * fill), so the engine skips that stretch - but it stops at the boundary:
 * the hook runs at exactly 100, 200 and 300.  The first period [0, 100) holds
 * the LDG (1 warp instruction), one L1 read that missed, 32 bytes up (one
 * flit) and 160 bytes down (5 flits; traffic counts when a request is sent).
 * Its knob (L1 bypass) applies from cycle 100 on, so the second load at 188
 * goes around the L1: the tags still hit (BYPASSED), the L2 hits, the data
 * is back at 187 + 132 = 319, the ALU issues there and is ready at 323.
 */
static void test_controller_period_counters(void)
{
    wc_stats st;
    CHECK_EQ(run_probe(100, &st), 323);
    CHECK_EQ(the_probe.begins, 1);
    CHECK_EQ(the_probe.n_calls, 3);
    CHECK_EQ(the_probe.at[0], 100);
    CHECK_EQ(the_probe.at[1], 200);
    CHECK_EQ(the_probe.at[2], 300);
    const wc_period_counters *p = &the_probe.seen[0];
    CHECK_EQ(p->cycles, 100);
    CHECK_EQ(p->warp_insts, 1);
    CHECK_EQ(p->thread_insts, 32);
    CHECK_EQ(p->l1_accesses, 1);
    CHECK_EQ(p->l1_reads, 1);
    CHECK_EQ(p->l1_misses, 1);
    CHECK_EQ(p->l1_read_misses, 1);
    CHECK(p->l1_miss_rate == 1.0);
    CHECK(p->l1_mpki == 1000.0);
    CHECK_EQ(p->up_bytes, 32);
    CHECK_EQ(p->down_bytes, 160);
    /* [100, 200): the ALU at 186, the LDG at 187 and its access at 188,
     * bypassed (no miss: the tags hit) */
    p = &the_probe.seen[1];
    CHECK_EQ(p->warp_insts, 2);
    CHECK_EQ(p->l1_accesses, 1);
    CHECK_EQ(p->l1_outcome[WC_BYPASSED], 1);
    CHECK_EQ(p->l1_misses, 0);
    /* [200, 300): the engine skips from 188 to the answer at 319; nothing here */
    CHECK_EQ(the_probe.seen[2].warp_insts, 0);
    CHECK_EQ(the_probe.seen[2].cycles, 100);
    /* [300, 323): the last ALU */
    CHECK_EQ(the_probe.ends, 1);
    CHECK_EQ(the_probe.end.warp_insts, 1);
    CHECK_EQ(the_probe.end.cycles, 23);
    CHECK_EQ(st.total.l1.outcome[WC_BYPASSED], 1);
    CHECK_EQ(st.total.l1.outcome[WC_HIT], 0);
    CHECK_EQ(st.total.l2.hits, 1);
    wc_stats_free(&st);
}

/* The knob takes effect exactly from the boundary's cycle: with period 188
 * the access at 188 is bypassed (323 cycles, as above); with period 189 it
 * is not (a hit: 212 cycles, as without a controller). */
static void test_knob_from_next_cycle(void)
{
    wc_stats st;
    CHECK_EQ(run_probe(188, &st), 323);
    CHECK_EQ(st.total.l1.outcome[WC_BYPASSED], 1);
    wc_stats_free(&st);
    CHECK_EQ(run_probe(189, &st), 212);
    CHECK_EQ(st.total.l1.outcome[WC_HIT], 1);
    CHECK_EQ(the_probe.at[0], 189);
    wc_stats_free(&st);
}

/*
 * A knob change wakes a memory stage parked until a fill.  A one-line L1:
 * warp 0's load of A misses at cycle 1 and reserves the only way; warp 1
 * issues its load of B at 1, which fails at 2 (LINE_ALLOC: every way is
 * reserved) and would wait for A's fill at 186.  The probe turns on L1 bypass
 * at its first boundary, 50: the stage retries at 50 and B goes around the L1
 * (the tags cannot take it: nothing installed): it leaves at 50, misses in
 * the L2 (another DRAM channel than A) and is back at 50 + 185 = 235; warp
 * 1's ALU is ready at 239, after warp 0's (190).  Waiting for the fill
 * instead would have sent B at 186 and ended at 375.
 */
static void test_knob_wakes_parked_stage(void)
{
    wc_config c;
    tiny_config(&c);
    CHECK_EQ(wc_cache_geom_parse("N:1:128:1,L:L:m:N:L,A:4:8,4", &c.l1, NULL), 0);
    list_source *l = ls_create(1, 64);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    ls_load(l, 1, 0x20000, 1);
    ls_alu(l, 1, 2, 1);
    memset(&the_probe, 0, sizeof the_probe);
    tiny_hooks h = {.ctl = &probe_ops, .ctl_params = "period=50"};
    wc_stats st;
    CHECK_EQ(tiny_run(&c, &l->base, &st, &h, NULL), 0);
    CHECK_EQ(st.total.cycles, 239);
    CHECK_EQ(st.total.l1.fail[WC_FAIL_LINE_ALLOC], 1);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 2);
    wc_stats_free(&st);
}

/* An L1 that is the conventional one but logs ctl calls (the l1_mode knob). */
typedef struct ctl_log {
    unsigned n;
    int op;
    int64_t arg;
} ctl_log;

static ctl_log the_ctl_log;

static int64_t logging_ctl(wc_l1 *l1, int op, int64_t arg)
{
    the_ctl_log.n++;
    the_ctl_log.op = op;
    the_ctl_log.arg = arg;
    return 0;
}

static wc_l1_ops logging_l1;

/* The conventional L1, answering through logging_l1's table. */
static wc_l1 *logging_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    wc_l1 *l1 = wc_l1_find("conventional")->create(cfg, env, err);
    if (l1) l1->ops = &logging_l1;
    return l1;
}

static void mode_period(wc_ctl *c, wc_ctl_io *io)
{
    wc_knob_set(io, 0, (wc_knob_id)wc_knob_find("l1_mode"), 7);
}

static const wc_controller_ops mode_ops = {
    .name = "mode", .params = probe_params, .create = probe_create, .period = mode_period};

/* A controller sets l1_mode 7 at every boundary of the 212-cycle run of
 * miss_then_reuse (100 and 200): the organisation's ctl is called once, with
 * WC_L1_CTL_MODE and 7 - only changes reach it. */
static void test_l1_mode_knob(void)
{
    wc_config c;
    tiny_config(&c);
    logging_l1 = *wc_l1_find("conventional");
    logging_l1.ctl = logging_ctl;
    logging_l1.create = logging_create;
    memset(&the_ctl_log, 0, sizeof the_ctl_log);
    tiny_hooks h = {.l1_ops = &logging_l1, .ctl = &mode_ops, .ctl_params = "period=100"};
    wc_stats st;
    CHECK_EQ(tiny_run(&c, &miss_then_reuse()->base, &st, &h, NULL), 0);
    CHECK_EQ(st.total.cycles, 212);
    CHECK_EQ(the_ctl_log.n, 1);
    CHECK_EQ(the_ctl_log.op, WC_L1_CTL_MODE);
    CHECK_EQ(the_ctl_log.arg, 7);
    wc_stats_free(&st);
}

/* ---- streaming bypass ---------------------------------------------------- */

/* Loads of the given lines in a dependent chain (LDG r1; ALU r2 <- r1). */
static list_source *chain(const uint64_t *addr, unsigned n)
{
    list_source *l = ls_create(1, 32);
    for (unsigned i = 0; i < n; i++) {
        ls_load(l, 0, addr[i], 1);
        ls_alu(l, 0, 2, 1);
    }
    return l;
}

/*
 * L1 streaming bypass, period 400, threshold 90 %.  Loads A0 A1 A2 B B B.
 * Each L2 miss takes 186 cycles from issue and the next LDG issues one cycle
 * after the ALU: LDGs at 0, 187, 374 (accesses 1, 188, 375, all misses).
 * Boundary 400: read miss rate 3/3 > 90 % -> bypass (timeline 400, sm 0, 1).
 * B at 561 (access 562): a tag miss, counted MISS, the tag is installed and
 * the data comes around the L1 (L2 miss) at 747.  B at 748 (access 749): a
 * tag hit, BYPASSED, L2 hit, back at 748 + 132 = 880.  Boundary 800: 1 miss
 * in 2 reads = 50 % -> cache used again (timeline 800, sm 0, 0).  B at 881
 * (access 882) hits the installed line: data at 902, ALU ready at 906.
 */
static void test_stream_bypass_l1(void)
{
    wc_config c;
    tiny_config(&c);
    snprintf(c.controllers, sizeof c.controllers, "stream_bypass:level=l1,period=400");
    const uint64_t a[] = {0x10000, 0x20000, 0x30000, 0x40000, 0x40000, 0x40000};
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &chain(a, 6)->base, &st), 0);
    CHECK_EQ(st.total.cycles, 906);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 4); /* misses are still counted while bypassing */
    CHECK_EQ(st.total.l1.outcome[WC_BYPASSED], 1);
    CHECK_EQ(st.total.l1.outcome[WC_HIT], 1);
    CHECK_EQ(st.total.l1.read_misses, 4);
    CHECK_EQ(st.total.l2.accesses, 5);
    CHECK_EQ(st.total.l2.hits, 1);
    CHECK_EQ(st.n_timeline, 2);
    if (st.n_timeline == 2) {
        CHECK_EQ(st.timeline[0].cycle, 400);
        CHECK_EQ(st.timeline[0].sm, 0);
        CHECK_STR(st.timeline[0].key, "l1_bypass");
        CHECK(st.timeline[0].value == 1);
        CHECK_EQ(st.timeline[1].cycle, 800);
        CHECK(st.timeline[1].value == 0);
    }
    wc_stats_free(&st);
}

/*
 * L2 streaming bypass with the L1 skipped (-gpgpu_gmem_skip_L1D: every load
 * goes to the L2, 186 cycles for a miss as above).  Loads A0 A1 A2 A0 A1 A2.
 * Boundary 400: L2 miss rate 3/3 -> bypass (timeline 400, sm -1, 1).  A0 at
 * 561: the L2 tags hit but DRAM serves it: at the L2 at 573, ready at 673,
 * DRAM 673 + 54 = 727, back at 747 (a hit costs what a miss does).  A1 at
 * 748, the same: back at 934.  Boundary 800: 0 misses in 2 accesses -> the
 * L2 is used again (timeline 800, sm -1, 0).  A2 at 935 hits the L2 for
 * real: back at 935 + 132 = 1067, ALU ready at 1071.  DRAM reads: 3 misses
 * + 2 bypassed hits.
 */
static void test_stream_bypass_l2(void)
{
    wc_config c;
    tiny_config(&c);
    c.l1_skip = true;
    snprintf(c.controllers, sizeof c.controllers, "stream_bypass:level=l2,period=400");
    const uint64_t a[] = {0x10000, 0x20000, 0x30000, 0x10000, 0x20000, 0x30000};
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &chain(a, 6)->base, &st), 0);
    CHECK_EQ(st.total.cycles, 1071);
    CHECK_EQ(st.total.l2.hits, 3);
    CHECK_EQ(st.total.l2.misses, 3);
    CHECK_EQ(st.total.dram.reads, 5);
    CHECK_EQ(st.n_timeline, 2);
    if (st.n_timeline == 2) {
        CHECK_EQ(st.timeline[0].cycle, 400);
        CHECK_EQ(st.timeline[0].sm, -1);
        CHECK_STR(st.timeline[0].key, "l2_bypass");
        CHECK(st.timeline[0].value == 1);
        CHECK_EQ(st.timeline[1].cycle, 800);
        CHECK(st.timeline[1].value == 0);
    }
    wc_stats_free(&st);
}

/*
 * A relaunched kernel starts in the mode its previous launch ended in
 * (ctl_stream_bypass.c keeps the last mode per kernel name; the paper, 002
 * section 4.1, only says the mode follows each period's miss rate).  Kernel
 * "list" loads A B C D in a chain and is launched twice; the L1 keeps its
 * lines across launches (-gpgpu_flush_l1_cache 0), period 600.
 * Launch 1: LDGs at 0, 187, 374, 561 (accesses 1, 188, 375, 562), each an L2
 * miss of 186 cycles, all four cached; boundary 600: 4 misses in 4 reads ->
 * bypass (timeline 600, sm 0, 1).  D's data at 747, its ALU ready at 751: the
 * launch ends there, still bypassing, before its next boundary (1200).
 * Launch 2 begins at 751 bypassing: A, B, C, D are in the L1's tags, so each
 * access is BYPASSED and served by the L2 (a hit: 132 cycles): LDGs at 751,
 * 884, 1017, 1150, D's data at 1282, ALU ready at 1286 - 535 cycles, before
 * its first boundary (751 + 600).  No new timeline event: the mode did not
 * change.  A launch that forgot its mode would hit A, B, C, D in the L1.
 */
static void test_stream_bypass_relaunch_keeps_mode(void)
{
    wc_config c;
    tiny_config(&c);
    c.l1_flush = false;
    snprintf(c.controllers, sizeof c.controllers, "stream_bypass:level=l1,period=600");
    const uint64_t a[] = {0x10000, 0x20000, 0x30000, 0x40000};
    list_source *l = chain(a, 4);
    l->kernels_left = 2;
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.n_kernels, 2);
    if (st.n_kernels == 2) {
        CHECK_EQ(st.kernels[0].cycles, 751);
        CHECK_EQ(st.kernels[0].l1.outcome[WC_MISS], 4);
        CHECK_EQ(st.kernels[1].cycles, 535);
        CHECK_EQ(st.kernels[1].l1.outcome[WC_BYPASSED], 4);
        CHECK_EQ(st.kernels[1].l1.outcome[WC_HIT], 0);
        CHECK_EQ(st.kernels[1].l2.hits, 4);
    }
    CHECK_EQ(st.total.cycles, 1286);
    CHECK_EQ(st.n_timeline, 1);
    if (st.n_timeline == 1) {
        CHECK_EQ(st.timeline[0].cycle, 600);
        CHECK(st.timeline[0].value == 1);
    }
    wc_stats_free(&st);
}

/*
 * The threshold is strict: a period's read miss rate above it bypasses, at
 * it or below the cache is used.  Loads A B C C D C: A, B, C miss (accesses
 * 1, 188, 375; C's data at 560), the second C hits at 562 (LDG 561, data at
 * 582 as in test_knob_from_next_cycle), D issues at 583 and reaches the L1 at
 * 584.  Boundary 580 sees 3 misses in 4 reads, 75 %:
 *   threshold 74: above -> bypass from 580 (timeline 580, value 1).  D is
 *     not in the tags: a MISS served around the L1 (L2 miss, data at 583 +
 *     186 = 769).  C again at 770 (access 771) hits the tags: BYPASSED, an L2
 *     hit, data at 770 + 132 = 902, its ALU ready at 906.
 *   threshold 75 (equal) and 76: the cache stays in use, no timeline.  D
 *     misses the same way (data at 769); C at 771 is an L1 HIT, data at 791,
 *     ALU ready at 795.
 */
static void test_stream_bypass_threshold_is_strict(void)
{
    const unsigned thr[3] = {74, 75, 76};
    const bool bypass[3] = {true, false, false};
    for (int i = 0; i < 3; i++) {
        wc_config c;
        tiny_config(&c);
        snprintf(c.controllers, sizeof c.controllers,
                 "stream_bypass:level=l1,period=580,threshold=%u", thr[i]);
        const uint64_t a[] = {0x10000, 0x20000, 0x30000, 0x30000, 0x40000, 0x30000};
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &chain(a, 6)->base, &st), 0);
        CHECK_EQ(st.n_timeline, bypass[i] ? 1 : 0);
        CHECK_EQ(st.total.l1.outcome[WC_MISS], 4);
        CHECK_EQ(st.total.l1.outcome[WC_HIT], bypass[i] ? 1 : 2);
        CHECK_EQ(st.total.l1.outcome[WC_BYPASSED], bypass[i] ? 1 : 0);
        CHECK_EQ(st.total.cycles, bypass[i] ? 906 : 795);
        wc_stats_free(&st);
    }
}

/*
 * throttled=open: an SM whose warp limit a controller lowered keeps its L1
 * open.  The loads of test_stream_bypass_l1 (A0 A1 A2 B B B, period 400)
 * with swl:warp_limit=1 listed first (the tiny GPU's one warp fits under it,
 * so the limit changes no timing).  With the default (throttled=bypass) the
 * run is test_stream_bypass_l1's: bypass at 400, 906 cycles.  With
 * throttled=open boundary 400 sees the limit 1 and keeps the cache: B at 561
 * misses (data at 747), B at 748 hits (data at 748 + 21 = 769), B at 770
 * hits (data at 791, ALU ready at 795: the pattern of
 * test_stream_bypass_threshold_is_strict's C); no timeline event.  With
 * throttled=open and no warp limit nothing is throttled: bypass at 400 again.
 */
static void test_stream_bypass_open_if_throttled(void)
{
    const char *spec[3] = {"swl:warp_limit=1+stream_bypass:level=l1,period=400,throttled=bypass",
                           "swl:warp_limit=1+stream_bypass:level=l1,period=400,throttled=open",
                           "stream_bypass:level=l1,period=400,throttled=open"};
    for (int k = 0; k < 3; k++) {
        bool open = k == 1;
        wc_config c;
        tiny_config(&c);
        snprintf(c.controllers, sizeof c.controllers, "%s", spec[k]);
        const uint64_t a[] = {0x10000, 0x20000, 0x30000, 0x40000, 0x40000, 0x40000};
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &chain(a, 6)->base, &st), 0);
        CHECK_EQ(st.total.cycles, open ? 795 : 906);
        CHECK_EQ(st.total.l1.outcome[WC_MISS], 4);
        CHECK_EQ(st.total.l1.outcome[WC_HIT], open ? 2 : 1);
        CHECK_EQ(st.total.l1.outcome[WC_BYPASSED], open ? 0 : 1);
        CHECK_EQ(st.n_timeline, open ? 0 : 2);
        wc_stats_free(&st);
    }
}

/* Nothing recorded: no timeline in the JSON (runs without controllers report
 * what they did before the timeline existed); recorded: a timeline array. */
static void test_timeline_json(void)
{
    wc_config c;
    tiny_config(&c);
    const uint64_t a[] = {0x10000, 0x20000, 0x30000, 0x40000};
    for (int with = 0; with < 2; with++) {
        if (with) snprintf(c.controllers, sizeof c.controllers, "stream_bypass:period=400");
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &chain(a, 4)->base, &st), 0);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        wc_stats_write_json(&st, f);
        fclose(f);
        CHECK_EQ(strstr(buf, "\"timeline\"") != NULL, with);
        if (with)
            CHECK(strstr(buf, "{\"cycle\": 400, \"sm\": 0, \"key\": \"l1_bypass\", \"value\": 1") !=
                  NULL);
        free(buf);
        wc_stats_free(&st);
    }
}

/* A controller that records WC_TIMELINE_MAX + 4 events at kernel begin. */
static int flood_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    return 0;
}

static void flood_begin(wc_ctl *c, wc_ctl_io *io)
{
    for (unsigned i = 0; i < WC_TIMELINE_MAX + 4; i++) wc_sim_record(io->sim, io->now, 0, "x", i);
}

static const wc_controller_ops flood_ops = {
    .name = "flood", .create = flood_create, .kernel_begin = flood_begin};

/* The timeline is bounded: the first WC_TIMELINE_MAX events are kept, the
 * 4 after them only counted. */
static void test_timeline_bounded(void)
{
    wc_config c;
    tiny_config(&c);
    const uint64_t a[] = {0x10000};
    tiny_hooks h = {.ctl = &flood_ops};
    wc_stats st;
    CHECK_EQ(tiny_run(&c, &chain(a, 1)->base, &st, &h, NULL), 0);
    CHECK_EQ(st.n_timeline, WC_TIMELINE_MAX);
    CHECK_EQ(st.timeline_dropped, 4);
    CHECK(st.timeline[WC_TIMELINE_MAX - 1].value == WC_TIMELINE_MAX - 1);
    wc_stats_free(&st);
}

/* Counts launches per kernel name in the kernel state and records the count. */
static void launches_begin(wc_ctl *c, wc_ctl_io *io)
{
    unsigned *n = *io->kernel_state;
    if (!n) *io->kernel_state = n = calloc(1, sizeof *n);
    wc_sim_record(io->sim, io->now, -1, io->kernel, ++*n);
}

static const wc_controller_ops launches_ops = {
    .name = "launches", .create = flood_create, .kernel_begin = launches_begin};

/* Three launches of the kernel "list": the state kept under its name is
 * found again at each relaunch (counts 1, 2, 3), and freed by the engine. */
static void test_kernel_state_survives_relaunch(void)
{
    wc_config c;
    tiny_config(&c);
    const uint64_t a[] = {0x10000};
    list_source *l = chain(a, 1);
    l->kernels_left = 3;
    tiny_hooks h = {.ctl = &launches_ops};
    wc_stats st;
    CHECK_EQ(tiny_run(&c, &l->base, &st, &h, NULL), 0);
    CHECK_EQ(st.n_kernels, 3);
    CHECK_EQ(st.n_timeline, 3);
    for (unsigned i = 0; i < 3 && i < st.n_timeline; i++) {
        CHECK_STR(st.timeline[i].key, "list");
        CHECK(st.timeline[i].value == i + 1);
    }
    wc_stats_free(&st);
}

/* ---- warp limit ---------------------------------------------------------- */

/* Four warps, each LDG r1 <- [own line]; ALU r2 <- r1. */
static list_source *four_loaders(void)
{
    list_source *l = ls_create(1, 128);
    for (unsigned w = 0; w < 4; w++) {
        ls_load(l, w, 0x10000 + 0x10000 * w, 1);
        ls_alu(l, w, 2, 1);
    }
    return l;
}

/*
 * Limit 1: only the oldest warp may issue.  Warp 0: LDG at 0, ALU at 186,
 * then its stream ends and it leaves the scheduler, so warp 1 issues its LDG
 * at 187, ... warp 3's LDG at 561, its ALU at 747, ready at 751.  The limit
 * comes from -max_warp_limit or from the swl controller's knob: the same.
 * Without a limit the four loads overlap and the kernel ends much earlier.
 */
static void test_warp_limit_caps_issue(void)
{
    wc_config c;
    tiny_config(&c);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &four_loaders()->base, &st), 0);
    uint64_t free_run = st.total.cycles;
    CHECK(free_run < 300);
    wc_stats_free(&st);
    c.max_warp_limit = 1;
    CHECK_EQ(tiny_simulate(&c, &four_loaders()->base, &st), 0);
    CHECK_EQ(st.total.cycles, 751);
    wc_stats_free(&st);
    c.max_warp_limit = 0;
    snprintf(c.controllers, sizeof c.controllers, "swl:warp_limit=1");
    CHECK_EQ(tiny_simulate(&c, &four_loaders()->base, &st), 0);
    CHECK_EQ(st.total.cycles, 751);
    CHECK_EQ(st.total.warp_insts, 8);
    wc_stats_free(&st);
}

static void add_bar(list_source *l, unsigned w)
{
    wc_winst *in = &l->insts[w][l->n_insts[w]++];
    wc_winst_clear(in);
    in->op = WC_OP_BAR;
}

/*
 * Limit 1 and a barrier the oldest warp reaches first.  Warp 0: BAR; ALU r5.
 * Warp 1: ALU r3; BAR; ALU r6.  Cycle 0: warp 0 issues BAR and waits; a
 * barrier waiter does not count towards the limit, so warp 1 is in the window:
 * ALU at 1, BAR at 2, which releases both from 3.  Cycle 3: warp 0 (the oldest
 * again) issues its ALU and its stream ends; cycle 4: warp 1's ALU, ready at 8.
 * (Counting the waiter, warp 1 never issued: the kernel deadlocked.)
 */
static void test_warp_limit_barrier(void)
{
    wc_config c;
    tiny_config(&c);
    c.max_warp_limit = 1;
    list_source *l = ls_create(1, 64);
    add_bar(l, 0);
    ls_alu(l, 0, 5, WC_REG_NONE);
    ls_alu(l, 1, 3, WC_REG_NONE);
    add_bar(l, 1);
    ls_alu(l, 1, 6, WC_REG_NONE);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.cycles, 8);
    CHECK_EQ(st.total.warp_insts, 5);
    wc_stats_free(&st);
}

/* ---- events -------------------------------------------------------------- */

typedef struct access_log {
    unsigned n;
    uint64_t addr[16];
    uint16_t warp[16], wib[16];
    uint32_t kernel[16];
    wc_outcome o[16];
    unsigned n_evict;
    uint64_t victim[2], incoming[2];
} access_log;

static void log_access(void *ctx, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                       uint64_t now)
{
    access_log *a = ctx;
    if (a->n >= 16) return;
    a->addr[a->n] = req->addr;
    a->warp[a->n] = req->warp;
    a->wib[a->n] = (uint16_t)wc_req_wib(req);
    a->kernel[a->n] = wc_req_kernel(req);
    a->o[a->n++] = o;
}

static void log_evict(void *ctx, int sm, const wc_line *victim, uint64_t line_addr,
                      const wc_mem_req *incoming, uint64_t now)
{
    access_log *a = ctx;
    if (a->n_evict < 2) {
        a->victim[a->n_evict] = line_addr;
        a->incoming[a->n_evict] = incoming ? incoming->addr : 0;
    }
    a->n_evict++;
}

/* A direct-mapped one-line L1: B evicts A, and the listener sees B's request
 * as the cause; the flush at the kernel's end (-gpgpu_flush_l1_cache, on in
 * the Fermi defaults) evicts B with no request.  Every access carries the
 * kernel id and the warp's index in its block. */
static void test_evict_with_request(void)
{
    wc_config c;
    tiny_config(&c);
    CHECK_EQ(wc_cache_geom_parse("N:1:128:1,L:L:m:N:L,A:4:8,4", &c.l1, NULL), 0);
    const uint64_t a[] = {0x10000, 0x20000};
    access_log log = {0};
    wc_l1_listener ls = {.ctx = &log, .on_access = log_access, .on_evict_by = log_evict};
    tiny_hooks h = {.listener = &ls};
    wc_stats st;
    CHECK_EQ(tiny_run(&c, &chain(a, 2)->base, &st, &h, NULL), 0);
    CHECK_EQ(log.n, 2);
    CHECK_EQ(log.o[0], WC_MISS);
    CHECK_EQ(log.o[1], WC_MISS);
    CHECK_EQ(log.kernel[1], 1);
    CHECK_EQ(log.wib[1], 0);
    CHECK_EQ(log.n_evict, 2);
    CHECK_EQ(log.victim[0], 0x10000);
    CHECK_EQ(log.incoming[0], 0x20000);
    CHECK_EQ(log.victim[1], 0x20000);
    CHECK_EQ(log.incoming[1], 0);
    wc_stats_free(&st);
}

/* ---- a toy memory stage: two instructions, the younger first ------------- */

typedef struct toy {
    wc_mstage base;
    wc_mem_req req[2];
    uint32_t load[2];
    unsigned n, sent;
} toy;

static wc_mstage *toy_create(wc_stage_env *env, const wc_param_values *params, wc_err *err)
{
    toy *t = calloc(1, sizeof *t);
    t->base.retry_at = WC_NEVER;
    return &t->base;
}

static void toy_destroy(wc_mstage *ms)
{
    free(ms);
}

/* Holds single-request instructions until it has two, then presents them
 * youngest first, one per cycle. */
static void toy_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n,
                       uint32_t load, uint64_t now)
{
    toy *t = (toy *)ms;
    t->req[t->n] = reqs[0];
    t->load[t->n++] = load;
    ms->holding = true;
    if (t->n == 2) {
        ms->full = true;
        ms->retry_at = now + 1;
    }
}

static void toy_cycle(wc_mstage *ms, uint64_t now)
{
    toy *t = (toy *)ms;
    unsigned i = 1 - t->sent; /* 1, then 0 */
    wc_fail_reason why;
    if (wc_stage_present(ms->env, &t->req[i], t->load[i], now, &why) == WC_RESERVATION_FAIL) {
        ms->retry_at = now + 1;
        return;
    }
    wc_stage_inst_sent(ms->env, t->load[i]);
    if (++t->sent < 2) {
        ms->retry_at = now + 1;
        return;
    }
    t->n = t->sent = 0;
    ms->full = ms->holding = false;
    ms->retry_at = WC_NEVER;
    wc_stage_freed(ms->env, now);
}

static const wc_mstage_ops toy_ops = {
    .name = "toy",
    .create = toy_create,
    .destroy = toy_destroy,
    .accept = toy_accept,
    .cycle = toy_cycle,
};

/*
 * Warp 0 loads A (partition 4), warp 1 loads B = A + 512 (partition 6, another
 * DRAM channel); each then an ALU on the result.  Default stage: A reaches
 * the L1 at 1 (back at 186), B at 2; B's response reaches the SM port at
 * 182 but waits for A's to drain: 191.  ALUs at 186 and 191, the last ready
 * at 195.  Toy stage: warp 0 issues at 0, warp 1 at 1, the stage then has
 * two and sends B at 2 (back at 187) and A at 3 (at the port at 183, after
 * B's drains: 192).  ALUs at 187 and 192, the last ready at 196.
 */
static void test_toy_memory_stage(void)
{
    wc_config c;
    tiny_config(&c);
    for (int use_toy = 0; use_toy < 2; use_toy++) {
        list_source *l = ls_create(1, 64);
        ls_load(l, 0, 0x10000, 1);
        ls_alu(l, 0, 2, 1);
        ls_load(l, 1, 0x10200, 1);
        ls_alu(l, 1, 2, 1);
        access_log log = {0};
        wc_l1_listener ls = {.ctx = &log, .on_access = log_access};
        tiny_hooks h = {.listener = &ls, .stage = use_toy ? &toy_ops : NULL};
        wc_stats st;
        CHECK_EQ(tiny_run(&c, &l->base, &st, &h, NULL), 0);
        CHECK_EQ(log.n, 2);
        CHECK_EQ(log.addr[0], use_toy ? 0x10200 : 0x10000);
        CHECK_EQ(log.addr[1], use_toy ? 0x10000 : 0x10200);
        CHECK_EQ(log.wib[0], use_toy ? 1 : 0);
        CHECK_EQ(st.total.cycles, use_toy ? 196 : 195);
        wc_stats_free(&st);
    }
}

/* A stage that sends every request around the L1, one per cycle. */
typedef struct around {
    wc_mstage base;
    wc_mem_req req[WC_MAX_REQS_PER_INST];
    unsigned n, next;
    uint32_t load;
} around;

static wc_mstage *around_create(wc_stage_env *env, const wc_param_values *params, wc_err *err)
{
    around *a = calloc(1, sizeof *a);
    a->base.retry_at = WC_NEVER;
    return &a->base;
}

static void around_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n,
                          uint32_t load, uint64_t now)
{
    around *a = (around *)ms;
    memcpy(a->req, reqs, n * sizeof *reqs);
    a->n = n;
    a->next = 0;
    a->load = load;
    ms->full = ms->holding = true;
    ms->retry_at = now + 1;
}

static void around_cycle(wc_mstage *ms, uint64_t now)
{
    around *a = (around *)ms;
    wc_stage_send_around(ms->env, &a->req[a->next], a->load, now);
    if (++a->next < a->n) {
        ms->retry_at = now + 1;
        return;
    }
    ms->full = ms->holding = false;
    ms->retry_at = WC_NEVER;
    wc_stage_freed(ms->env, now);
    wc_stage_inst_sent(ms->env, a->load);
}

static const wc_mstage_ops around_ops = {
    .name = "around",
    .create = around_create,
    .destroy = toy_destroy,
    .accept = around_accept,
    .cycle = around_cycle,
};

/* LDG r1 <- [A]; ALU r2 <- r1 with every request sent around the L1: the
 * request leaves at cycle 1 as an L1 miss would, the data goes straight to
 * the warp at 186, the ALU is ready at 190 - and the L1 saw nothing. */
static void test_stage_sends_around_l1(void)
{
    wc_config c;
    tiny_config(&c);
    const uint64_t a[] = {0x10000};
    tiny_hooks h = {.stage = &around_ops};
    wc_stats st;
    CHECK_EQ(tiny_run(&c, &chain(a, 1)->base, &st, &h, NULL), 0);
    CHECK_EQ(st.total.cycles, 190);
    CHECK_EQ(st.total.l1.accesses, 0);
    CHECK_EQ(st.total.l2.misses, 1);
    wc_stats_free(&st);
}

/* ---- the SM-level load gate ---------------------------------------------- */

static bool refuse_ten(void *ctx, unsigned sm, unsigned slot)
{
    unsigned *asked = ctx;
    return ++*asked > 10;
}

/* The gate refuses the warp's load 10 times; a refused warp is asked again
 * the next cycle, so the LDG issues at cycle 10 instead of 0 and the kernel
 * ends 10 cycles later than test_engine.c's single miss: 200. */
static void test_load_gate(void)
{
    wc_config c;
    tiny_config(&c);
    const uint64_t a[] = {0x10000};
    unsigned asked = 0;
    tiny_hooks h = {.load_gate = refuse_ten, .gate_ctx = &asked};
    wc_stats st;
    CHECK_EQ(tiny_run(&c, &chain(a, 1)->base, &st, &h, NULL), 0);
    CHECK_EQ(st.total.cycles, 200);
    CHECK_EQ(asked, 11);
    wc_stats_free(&st);
}

/* ---- two-level scheduling ------------------------------------------------ */

/* Four warps of two stores each: a store does not block its warp, and the
 * memory stage takes one per cycle, so the order in which stores reach the
 * L1 is the issue order. */
static void store_order(const char *sched, uint16_t *order)
{
    wc_config c;
    tiny_config(&c);
    snprintf(c.scheduler, sizeof c.scheduler, "%s", sched);
    list_source *l = ls_create(1, 128);
    for (unsigned w = 0; w < 4; w++)
        for (unsigned k = 0; k < 2; k++) {
            ls_load(l, w, 0x10000 + 0x1000 * w + 0x80 * k, WC_REG_NONE);
            wc_winst *in = &l->insts[w][l->n_insts[w] - 1];
            in->op = WC_OP_STG;
            in->ndst = 0;
            in->src[in->nsrc++] = 9;
        }
    access_log log = {0};
    wc_l1_listener ls = {.ctx = &log, .on_access = log_access};
    tiny_hooks h = {.listener = &ls};
    wc_stats st;
    CHECK_EQ(tiny_run(&c, &l->base, &st, &h, NULL), 0);
    CHECK_EQ(log.n, 8);
    for (unsigned i = 0; i < 8; i++) order[i] = log.warp[i];
    wc_stats_free(&st);
}

/*
 * two_level_active:2:0:1: active [w0 w1], pending [w2 w3].  w0 issues and the
 * list rotates to [w1 w0]; w1 issues: [w0 w1]; w0 issues its last store and
 * leaves; w2 is promoted behind w1: [w1 w2]; w1 issues its last and leaves;
 * w3 is promoted: [w2 w3]; then w2, w3, w2, w3.  LRR interleaves all four,
 * GTO keeps to one warp while it can.
 */
static void test_two_level_order(void)
{
    uint16_t o[8];
    const uint16_t two_level[8] = {0, 1, 0, 1, 2, 3, 2, 3};
    const uint16_t lrr[8] = {0, 1, 2, 3, 0, 1, 2, 3};
    const uint16_t gto[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    store_order("two_level_active:2:0:1", o);
    CHECK(memcmp(o, two_level, sizeof o) == 0);
    store_order("lrr", o);
    CHECK(memcmp(o, lrr, sizeof o) == 0);
    store_order("gto", o);
    CHECK(memcmp(o, gto, sizeof o) == 0);
}

/* Bad parameters are errors that name the option. */
static void test_bad_parameters(void)
{
    wc_config c;
    tiny_config(&c);
    wc_err err = {{0}};
    snprintf(c.scheduler, sizeof c.scheduler, "two_level_active:6:2:1");
    CHECK(wc_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "option -gpgpu_scheduler") && strstr(err.msg, "inner=2: must be 0"));
    tiny_config(&c);
    snprintf(c.controllers, sizeof c.controllers, "stream_bypass:level=l3");
    CHECK(wc_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "option -controllers") && strstr(err.msg, "level=l3"));
    snprintf(c.controllers, sizeof c.controllers, "nosuch");
    CHECK(wc_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "unknown controller 'nosuch'") != NULL);
    tiny_config(&c);
    snprintf(c.mem_stage, sizeof c.mem_stage, "nosuch");
    CHECK(wc_sim_create(&c, &err) == NULL);
    CHECK(strstr(err.msg, "option -mem_stage") != NULL);
}

int main(void)
{
    RUN(test_controller_period_counters);
    RUN(test_knob_from_next_cycle);
    RUN(test_knob_wakes_parked_stage);
    RUN(test_l1_mode_knob);
    RUN(test_stream_bypass_l1);
    RUN(test_stream_bypass_l2);
    RUN(test_stream_bypass_relaunch_keeps_mode);
    RUN(test_stream_bypass_threshold_is_strict);
    RUN(test_stream_bypass_open_if_throttled);
    RUN(test_timeline_json);
    RUN(test_timeline_bounded);
    RUN(test_kernel_state_survives_relaunch);
    RUN(test_warp_limit_caps_issue);
    RUN(test_warp_limit_barrier);
    RUN(test_evict_with_request);
    RUN(test_toy_memory_stage);
    RUN(test_stage_sends_around_l1);
    RUN(test_load_gate);
    RUN(test_two_level_order);
    RUN(test_bad_parameters);
    return check_summary("control");
}
