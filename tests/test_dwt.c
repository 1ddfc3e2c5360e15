/*
 * test_dwt.c - seed 002's DWT-CS controller (src/core/controllers/ctl_dwt_cs.c) driven
 * through its hooks with hand-made period counters: no simulation runs, the
 * test plays the engine (kernel begin, period boundaries, kernel end) on a
 * 4-SM GPU and checks the knobs, the timeline and the per-kernel memory.
 *
 * MPKI by hand: unit=cycles is 1000 * misses / (cycles * SMs); every period
 * here is 1000 cycles on 4 SMs, so MPKI = misses / 4 and the default
 * threshold 10 is crossed by more than 40 misses.  mpki_sms=busy divides by
 * the SMs with thread_insts > 0 in the period instead of by 4.
 */
#include "check.h"
#include "core/gpu.h"
#include "warpcache/control.h"
#include "warpcache/sim.h"

extern const wc_controller_ops wc_ctl_dwt_cs;

#define NSM 4

/* One simulated kernel launch as the engine would present it. */
typedef struct rig {
    wc_sim *sim;
    wc_stats st;
    wc_ctl c;
    uint64_t knobs[NSM * 16]; /* [sm * n_knobs + id] (knob.h) */
    unsigned n_knobs;
    wc_period_counters sm[NSM], gpu;
    void *kstate; /* the engine's per-kernel-name slot */
    uint64_t now;
} rig;

/* warps_per_sched: Fermi's 1536 threads = 48 warps, 2 schedulers = 24 each. */
static int rig_open(rig *r, const char *params, unsigned warps_per_sched)
{
    memset(r, 0, sizeof *r);
    wc_config cfg;
    wc_config_defaults(&cfg);
    cfg.n_clusters = NSM;
    cfg.cores_per_cluster = 1;
    cfg.n_sched_per_sm = 2;
    cfg.max_threads_per_sm = warps_per_sched * 2 * cfg.warp_size;
    wc_err err = {{0}};
    r->sim = wc_sim_create(&cfg, &err);
    if (!r->sim) {
        fprintf(stderr, "create: %s\n", err.msg);
        return -1;
    }
    wc_stats_init(&r->st);
    r->sim->st = &r->st; /* what wc_sim_run does: the timeline goes here */
    r->c.ops = &wc_ctl_dwt_cs;
    r->c.sim = r->sim;
    r->c.cfg = &r->sim->cfg; /* what the engine hands every controller (control.c) */
    r->c.n_sm = NSM;
    size_t nk;
    wc_knob_list(&nk);
    if (nk > 16) return -1;
    r->n_knobs = (unsigned)nk;
    wc_param_values v;
    if (wc_param_parse(&v, r->c.ops->params, r->c.ops->name, params, &err) < 0 ||
        r->c.ops->create(&r->c, &v, &err) < 0) {
        fprintf(stderr, "dwt_cs: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static void rig_close(rig *r)
{
    r->c.ops->destroy(&r->c);
    r->sim->st = NULL;
    wc_sim_destroy(r->sim);
    wc_stats_free(&r->st);
    free(r->kstate);
}

static wc_ctl_io rig_io(rig *r, bool counters)
{
    wc_ctl_io io = {.sim = r->sim,
                    .cfg = &r->sim->cfg,
                    .now = r->now,
                    .kernel = "k",
                    .n_sm = NSM,
                    .sm = counters ? r->sm : NULL,
                    .gpu = counters ? &r->gpu : NULL,
                    .knobs = r->knobs,
                    .n_knobs = r->n_knobs,
                    .kernel_state = &r->kstate};
    return io;
}

static void begin(rig *r)
{
    wc_ctl_io io = rig_io(r, false);
    r->c.ops->kernel_begin(&r->c, &io);
}

/* A 1000-cycle period with `misses` L1 misses on the GPU and insts[i]
 * thread instructions committed by SM i (NULL: 1000 each). */
static void period(rig *r, uint64_t misses, const uint64_t *insts)
{
    r->now += 1000;
    memset(r->sm, 0, sizeof r->sm);
    memset(&r->gpu, 0, sizeof r->gpu);
    for (unsigned i = 0; i < NSM; i++) {
        r->sm[i].cycles = 1000;
        r->sm[i].thread_insts = insts ? insts[i] : 1000;
        r->sm[i].warp_insts = r->sm[i].thread_insts / 32;
        r->gpu.thread_insts += r->sm[i].thread_insts;
        r->gpu.warp_insts += r->sm[i].warp_insts;
    }
    r->gpu.cycles = 1000;
    r->gpu.l1_misses = misses;
    r->gpu.l1_mpki = r->gpu.warp_insts ? 1000.0 * (double)misses / (double)r->gpu.warp_insts : 0;
    wc_ctl_io io = rig_io(r, true);
    r->c.ops->period(&r->c, &io);
}

static void end(rig *r)
{
    wc_ctl_io io = rig_io(r, true);
    r->c.ops->kernel_end(&r->c, &io);
}

/* Number of timeline events with this key (and sm, or any sm with -2). */
static unsigned events(const rig *r, const char *key, int sm)
{
    unsigned n = 0;
    for (size_t i = 0; i < r->st.n_timeline; i++)
        n += strcmp(r->st.timeline[i].key, key) == 0 && (sm == -2 || r->st.timeline[i].sm == sm);
    return n;
}

/* Value of the last event with this key (-1 when none). */
static double last_event(const rig *r, const char *key)
{
    double v = -1;
    for (size_t i = 0; i < r->st.n_timeline; i++)
        if (strcmp(r->st.timeline[i].key, key) == 0) v = r->st.timeline[i].value;
    return v;
}

static void limits_are(const rig *r, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    unsigned k = (unsigned)wc_knob_find("warp_limit");
    CHECK_EQ(r->knobs[0 * r->n_knobs + k], a);
    CHECK_EQ(r->knobs[1 * r->n_knobs + k], b);
    CHECK_EQ(r->knobs[2 * r->n_knobs + k], c);
    CHECK_EQ(r->knobs[3 * r->n_knobs + k], d);
}

/* n=2 consecutive periods above the threshold start sampling; a dip below
 * resets the count.  100 misses = MPKI 25 (above), 40 = MPKI 10 (not above:
 * the rule is "exceeded"). */
static void test_consecutive_rule(void)
{
    rig r;
    if (rig_open(&r, "n=2,m=2", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 100, NULL); /* above: 1 */
    period(&r, 40, NULL);  /* exactly 10: not above, count back to 0 */
    period(&r, 100, NULL); /* above: 1 */
    limits_are(&r, 0, 0, 0, 0);
    CHECK_EQ(events(&r, "dwt_sampling", -1), 0);
    period(&r, 100, NULL); /* above: 2 = n, sampling: SM k runs k+1 warps */
    limits_are(&r, 1, 2, 3, 4);
    CHECK_EQ(events(&r, "dwt_sampling", -1), 1);
    CHECK_EQ(events(&r, "dwt_sample_limit", -2), NSM);
    rig_close(&r);
}

/* The coordinator picks the SM with the most instructions over the m=2
 * sampling periods: sums 200, 600, 600, 300 - SMs 1 and 2 tie, the smaller
 * limit (2) wins.  Every SM adopts 2 and keeps it whatever MPKI does; the
 * kernel end reports 2 and remembers it. */
static void test_picks_most_instructions(void)
{
    rig r;
    if (rig_open(&r, "n=1,m=2", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 100, NULL); /* n=1: sampling from here */
    limits_are(&r, 1, 2, 3, 4);
    const uint64_t a[NSM] = {100, 300, 250, 200}, b[NSM] = {100, 300, 350, 100};
    period(&r, 100, a);
    limits_are(&r, 1, 2, 3, 4); /* one period of two: still sampling */
    period(&r, 100, b);
    limits_are(&r, 2, 2, 2, 2);
    CHECK_EQ(last_event(&r, "dwt_limit"), 2);
    period(&r, 0, NULL);
    period(&r, 500, NULL);
    limits_are(&r, 2, 2, 2, 2);
    CHECK_EQ(events(&r, "dwt_sampling", -1), 1);
    end(&r);
    CHECK_EQ(last_event(&r, "dwt_kernel_limit"), 2);
    CHECK(r.kstate != NULL);
    if (r.kstate) CHECK_EQ(*(uint32_t *)r.kstate, 2);
    rig_close(&r);
}

/* Drives a first launch to choose limit 3 (SM 2 commits the most). */
static void first_launch_picks_3(rig *r)
{
    const uint64_t win3[NSM] = {10, 20, 90, 30};
    begin(r);
    period(r, 100, NULL);
    period(r, 100, win3);
    end(r);
}

/* Relaunch (relaunch=detect, the paper's): the new launch starts at the
 * configured limit (none), and when detection fires (n=1 period above) it
 * adopts the remembered 3 at once: no second sampling round. */
static void test_relaunch_memory(void)
{
    rig r;
    if (rig_open(&r, "n=1,m=1", 24) < 0) {
        CHECK(0);
        return;
    }
    first_launch_picks_3(&r);
    CHECK_EQ(last_event(&r, "dwt_kernel_limit"), 3);
    begin(&r);
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 10, NULL); /* MPKI 2.5: not thrashing, no limit */
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 100, NULL);
    limits_are(&r, 3, 3, 3, 3);
    CHECK_EQ(events(&r, "dwt_sampling", -1), 1); /* only the first launch's */
    CHECK_EQ(events(&r, "dwt_limit", -1), 2);
    end(&r);
    CHECK_EQ(last_event(&r, "dwt_kernel_limit"), 3);
    rig_close(&r);

    /* relaunch=begin: the remembered limit applies from the first cycle. */
    if (rig_open(&r, "n=1,m=1,relaunch=begin", 24) < 0) {
        CHECK(0);
        return;
    }
    first_launch_picks_3(&r);
    begin(&r);
    limits_are(&r, 3, 3, 3, 3);
    end(&r);
    CHECK_EQ(events(&r, "dwt_sampling", -1), 1);
    rig_close(&r);
}

/* The last (highest-limit) SM wins: round 2 samples from its limit, SM 0
 * re-running it (4, 5, 6, 7); SM 2 (6) wins round 2 and is adopted. */
static void test_extended_search(void)
{
    rig r;
    if (rig_open(&r, "n=1,m=1", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 100, NULL);
    const uint64_t last_wins[NSM] = {10, 20, 30, 40}, third_wins[NSM] = {40, 50, 60, 55};
    period(&r, 100, last_wins);
    limits_are(&r, 4, 5, 6, 7);
    CHECK_EQ(last_event(&r, "dwt_sampling"), 2);
    CHECK_EQ(events(&r, "dwt_limit", -1), 0);
    period(&r, 100, third_wins);
    limits_are(&r, 6, 6, 6, 6);
    CHECK_EQ(last_event(&r, "dwt_limit"), 6);
    rig_close(&r);
}

/* 4 warps per scheduler: round 1 already reaches the largest count (1..4),
 * so the last SM winning ends the search at 4 (nothing higher to test).
 * With 3 warps per scheduler SMs 2 and 3 both run 3. */
static void test_no_extension_at_max(void)
{
    rig r;
    if (rig_open(&r, "n=1,m=1", 4) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 100, NULL);
    const uint64_t last_wins[NSM] = {10, 20, 30, 40};
    period(&r, 100, last_wins);
    limits_are(&r, 4, 4, 4, 4);
    CHECK_EQ(events(&r, "dwt_sampling", -1), 1);
    rig_close(&r);

    if (rig_open(&r, "n=1,m=1", 3) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 100, NULL);
    limits_are(&r, 1, 2, 3, 3);
    rig_close(&r);
}

/* A kernel that ends while sampling remembers nothing: its next launch
 * samples again; unit=insts uses misses per kilo warp instruction (1000
 * thread instructions per SM = 31 warp instructions, 124 on the GPU: 2 misses
 * is MPKI 16.1, above 10). */
static void test_end_while_sampling_and_unit(void)
{
    rig r;
    if (rig_open(&r, "n=1,m=5,unit=insts", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 1, NULL); /* MPKI 8.1 */
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 2, NULL); /* MPKI 16.1 */
    limits_are(&r, 1, 2, 3, 4);
    end(&r);
    CHECK_EQ(last_event(&r, "dwt_kernel_limit"), 0);
    CHECK(r.kstate == NULL);
    begin(&r); /* knobs back to the configured limit */
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 2, NULL);
    CHECK_EQ(events(&r, "dwt_sampling", -1), 2);
    rig_close(&r);
}

/* mpki_sms=busy: a period where SMs 0 and 1 commit 1000 instructions each
 * and SMs 2 and 3 none.  30 misses are 1000 * 30 / (1000 cycles * 4 SMs) =
 * 7.5 over every SM (not above 10: no sampling with the default all) but
 * 30 / 2 = 15 over the 2 busy SMs (above: sampling).  One busy SM with 10
 * misses is exactly 10 (not above), with 11 is 11 (above); a period with no
 * busy SM reads 0 whatever the misses. */
static void test_mpki_busy_sms(void)
{
    const uint64_t two_busy[NSM] = {1000, 1000, 0, 0}, one_busy[NSM] = {0, 500, 0, 0},
                   none[NSM] = {0, 0, 0, 0};
    rig r;
    if (rig_open(&r, "n=1,m=1", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 30, two_busy); /* all: 7.5 */
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 11, one_busy); /* all: 2.75 */
    limits_are(&r, 0, 0, 0, 0);
    rig_close(&r);

    if (rig_open(&r, "n=1,m=1,mpki_sms=busy", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 10, one_busy); /* busy: 10, not above */
    period(&r, 100, none);    /* no busy SM: 0 */
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 30, two_busy); /* busy: 15 */
    limits_are(&r, 1, 2, 3, 4);
    rig_close(&r);

    if (rig_open(&r, "n=1,m=1,mpki_sms=busy", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 11, one_busy); /* busy: 11 */
    limits_are(&r, 1, 2, 3, 4);
    rig_close(&r);
}

/* Launch 1 of "k" (n=2, m=3): two periods above start sampling, one
 * sampling period (SM instructions 10, 200, 20, 30), then the launch ends.
 * restart: launch 2 starts unthrottled and must detect again.  continue:
 * launch 2 resumes the round - limits 1..4 from its first cycle, no new
 * round - and after 2 more periods (3 in all) the coordinator sums both
 * launches: 10+10+10, 200+10+10, 20+60+60, 30+30+10 = 30, 220, 140, 70, so
 * SM 1 (limit 2) wins; launch 2's periods alone (20, 20, 120, 40) would pick
 * SM 2 (limit 3).  Launch 3 (relaunch=detect) adopts 2 when detection fires,
 * without sampling.  A detection count carries over too: one period above
 * in a launch, one in the next, and n=2 is reached. */
static void test_across_launches(void)
{
    const uint64_t a[NSM] = {10, 200, 20, 30}, b[NSM] = {10, 10, 60, 30}, c[NSM] = {10, 10, 60, 10};
    rig r;
    if (rig_open(&r, "n=2,m=3", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 100, NULL);
    period(&r, 100, NULL);
    period(&r, 100, a);
    end(&r);
    CHECK(r.kstate == NULL);
    begin(&r);
    limits_are(&r, 0, 0, 0, 0);
    rig_close(&r);

    if (rig_open(&r, "n=2,m=3,across_launches=continue", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 100, NULL);
    period(&r, 100, NULL);
    limits_are(&r, 1, 2, 3, 4);
    period(&r, 100, a);
    end(&r);
    CHECK_EQ(last_event(&r, "dwt_kernel_limit"), 0);
    CHECK(r.kstate != NULL);
    begin(&r);
    limits_are(&r, 1, 2, 3, 4);
    CHECK_EQ(events(&r, "dwt_sample_limit", -2), 2 * NSM); /* each launch's limits */
    period(&r, 100, b);
    limits_are(&r, 1, 2, 3, 4);
    period(&r, 0, c); /* sampling ignores MPKI */
    limits_are(&r, 2, 2, 2, 2);
    CHECK_EQ(events(&r, "dwt_sampling", -1), 1);
    end(&r);
    CHECK_EQ(last_event(&r, "dwt_kernel_limit"), 2);
    CHECK(r.kstate != NULL);
    if (r.kstate) CHECK_EQ(*(uint32_t *)r.kstate, 2);
    begin(&r);
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 100, NULL);
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 100, NULL);
    limits_are(&r, 2, 2, 2, 2);
    CHECK_EQ(events(&r, "dwt_sampling", -1), 1);
    rig_close(&r);

    if (rig_open(&r, "n=2,m=3,across_launches=continue", 24) < 0) {
        CHECK(0);
        return;
    }
    begin(&r);
    period(&r, 100, NULL);
    end(&r);
    begin(&r);
    limits_are(&r, 0, 0, 0, 0);
    period(&r, 100, NULL);
    limits_are(&r, 1, 2, 3, 4);
    rig_close(&r);
}

static void test_bad_parameters(void)
{
    const char *bad[] = {
        "n=0",     "m=x",           "threshold=-1",         "unit=kc", "relaunch=never", "period=0",
        "speed=3", "mpki_sms=idle", "across_launches=carry"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rig r;
        CHECK_EQ(rig_open(&r, bad[i], 24), -1);
        r.c.ops->destroy(&r.c);
        wc_sim_destroy(r.sim);
        wc_stats_free(&r.st);
    }
}

int main(void)
{
    RUN(test_consecutive_rule);
    RUN(test_picks_most_instructions);
    RUN(test_relaunch_memory);
    RUN(test_extended_search);
    RUN(test_no_extension_at_max);
    RUN(test_end_while_sampling_and_unit);
    RUN(test_mpki_busy_sms);
    RUN(test_across_launches);
    RUN(test_bad_parameters);
    return check_summary("dwt");
}
