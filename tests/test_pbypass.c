/*
 * test_pbypass.c - seed 001's Profiled-BYPASS on hand-built streams: the
 * profile's local and global counts, which lines each filter bypasses at
 * threshold t, and the two passes through the engine (a recording run, then
 * runs of the profiled-bypass organisation at several thresholds).
 */
#include "cache/org/pbypass_profile.h"
#include "check.h"
#include "listsrc.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "warpcache/sim.h"

enum { A = 100, B = 101, C = 102 }; /* line addresses */

/*
 * Kernel 1: SM 0 reads A three times and B once; SM 1 reads B twice and C
 * once.  Local counts: (0,A) 3, (0,B) 1, (1,B) 2, (1,C) 1, none else;
 * global: A 3, B 3, C 1.
 */
static wc_pbypass_profile *sample(void)
{
    wc_pbypass_profile *p = wc_pbypass_profile_create();
    for (int i = 0; i < 3; i++) wc_pbypass_profile_count(p, 1, 0, A);
    wc_pbypass_profile_count(p, 1, 0, B);
    wc_pbypass_profile_count(p, 1, 1, B);
    wc_pbypass_profile_count(p, 1, 1, B);
    wc_pbypass_profile_count(p, 1, 1, C);
    return p;
}

static void test_counts(void)
{
    wc_pbypass_profile *p = sample();
    CHECK_EQ(wc_pbypass_local(p, 1, 0, A), 3);
    CHECK_EQ(wc_pbypass_local(p, 1, 0, B), 1);
    CHECK_EQ(wc_pbypass_local(p, 1, 1, B), 2);
    CHECK_EQ(wc_pbypass_local(p, 1, 0, C), 0);
    CHECK_EQ(wc_pbypass_global(p, 1, A), 3);
    CHECK_EQ(wc_pbypass_global(p, 1, B), 3);
    CHECK_EQ(wc_pbypass_global(p, 1, C), 1);
    CHECK_EQ(wc_pbypass_global(p, 2, A), 0); /* per kernel launch */
    CHECK_EQ(wc_pbypass_lines(p), 3);
    CHECK(!wc_pbypass_profile_failed(p));
    wc_pbypass_profile_destroy(p);
}

/*
 * Which reads bypass (count < t), from the counts above:
 *   local, t 2:  SM 0: A 3 cached, B 1 bypass, C 0 bypass; SM 1: B 2 cached.
 *   global, t 2: A 3 and B 3 cached on any SM, C 1 bypasses; t 4: all bypass.
 *   local+global, t 2: SM 0 saw B (1): bypass, though B's global count is 3;
 *     SM 0 never saw C: global 1 -> bypass at t 2, cached at t 1; SM 2 saw
 *     nothing: B's global 3 -> cached at t 3, bypass at t 4.
 *   a kernel never profiled: count 0, bypass at any t >= 1.
 */
static void test_filters(void)
{
    wc_pbypass_profile *p = sample();
    CHECK(!wc_pbypass_decide(p, WC_PB_LOCAL, 2, 1, 0, A));
    CHECK(wc_pbypass_decide(p, WC_PB_LOCAL, 2, 1, 0, B));
    CHECK(wc_pbypass_decide(p, WC_PB_LOCAL, 2, 1, 0, C));
    CHECK(!wc_pbypass_decide(p, WC_PB_LOCAL, 2, 1, 1, B));
    CHECK(!wc_pbypass_decide(p, WC_PB_GLOBAL, 2, 1, 0, A));
    CHECK(!wc_pbypass_decide(p, WC_PB_GLOBAL, 2, 1, 0, B));
    CHECK(wc_pbypass_decide(p, WC_PB_GLOBAL, 2, 1, 0, C));
    CHECK(wc_pbypass_decide(p, WC_PB_GLOBAL, 4, 1, 0, A));
    CHECK(wc_pbypass_decide(p, WC_PB_LOCAL_GLOBAL, 2, 1, 0, B));
    CHECK(wc_pbypass_decide(p, WC_PB_LOCAL_GLOBAL, 2, 1, 0, C));
    CHECK(!wc_pbypass_decide(p, WC_PB_LOCAL_GLOBAL, 1, 1, 0, C));
    CHECK(!wc_pbypass_decide(p, WC_PB_LOCAL_GLOBAL, 3, 1, 2, B));
    CHECK(wc_pbypass_decide(p, WC_PB_LOCAL_GLOBAL, 4, 1, 2, B));
    CHECK(wc_pbypass_decide(p, WC_PB_GLOBAL, 1, 7, 0, A));
    wc_pbypass_profile_destroy(p);
}

/* Growing the table keeps every count (10000 lines, line i read i % 5 + 1
 * times). */
static void test_grow(void)
{
    wc_pbypass_profile *p = wc_pbypass_profile_create();
    for (uint64_t i = 0; i < 10000; i++)
        for (uint64_t k = 0; k <= i % 5; k++) wc_pbypass_profile_count(p, 1, 3, i);
    bool ok = true;
    for (uint64_t i = 0; i < 10000; i++)
        ok &= wc_pbypass_local(p, 1, 3, i) == i % 5 + 1 && wc_pbypass_global(p, 1, i) == i % 5 + 1;
    CHECK(ok);
    CHECK_EQ(wc_pbypass_lines(p), 10000);
    wc_pbypass_profile_destroy(p);
}

/* One warp on the tiny GPU reads lines A, B, A, C, C, C (128 B each, one
 * request per load; 0x10000 + k * 128 are lines 512 + k). */
static list_source *stream(void)
{
    static const unsigned seq[] = {0, 1, 0, 2, 2, 2};
    list_source *l = ls_create(1, 32);
    for (unsigned i = 0; i < 6; i++) ls_load(l, 0, 0x10000 + seq[i] * 128, 1 + i);
    return l;
}

/* Runs the stream on `c`, with profile p recorded (record) or used. */
static int run(const wc_config *c, wc_pbypass_profile *p, bool record, wc_stats *st)
{
    wc_l1_listener l = wc_pbypass_recorder(p);
    tiny_hooks h = {.listener = record ? &l : NULL, .l1_data = record ? NULL : p};
    return tiny_run(c, &stream()->base, st, &h, NULL);
}

/*
 * Pass 1 (the baseline with the recorder) counts A 2, B 1, C 3 on SM 0 of
 * kernel 1 and bypasses nothing.  Pass 2, global filter (one SM: local is
 * the same):
 *   t 1: no count is under 1: nothing bypasses, as the baseline;
 *   t 2: B (1) bypasses once: 1 BYPASSED, the other five reads as before;
 *   t 3: A (2) bypasses at both reads (a bypass leaves no line and no MSHR
 *        entry, so the second read of A is asked again) and B once: 3; C
 *        (3) is cached: its first read misses, the next two hit or merge.
 */
static void test_two_passes(void)
{
    wc_config c;
    tiny_config(&c);
    wc_pbypass_profile *p = wc_pbypass_profile_create();
    wc_stats st;
    CHECK_EQ(run(&c, p, true, &st), 0);
    CHECK_EQ(st.total.l1.outcome[WC_BYPASSED], 0);
    uint64_t base_misses = st.total.l1.outcome[WC_MISS];
    wc_stats_free(&st);
    CHECK_EQ(wc_pbypass_local(p, 1, 0, 512), 2);
    CHECK_EQ(wc_pbypass_local(p, 1, 0, 513), 1);
    CHECK_EQ(wc_pbypass_global(p, 1, 514), 3);
    CHECK_EQ(base_misses, 3);

    static const unsigned thr[] = {1, 2, 3};
    static const uint64_t bypassed[] = {0, 1, 3};
    for (unsigned f = 0; f < 3; f++)
        for (unsigned i = 0; i < 3; i++) {
            wc_config q = c;
            wc_err err = {{0}};
            char v[8], fv[8];
            snprintf(v, sizeof v, "%u", thr[i]);
            snprintf(fv, sizeof fv, "%u", f);
            snprintf(q.l1_org, sizeof q.l1_org, "profiled-bypass");
            CHECK_EQ(wc_config_set(&q, "pbypass_threshold", v, "test", &err), 0);
            CHECK_EQ(wc_config_set(&q, "pbypass_filter", fv, "test", &err), 0);
            CHECK_EQ(run(&q, p, false, &st), 0);
            CHECK_EQ(st.total.l1.outcome[WC_BYPASSED], bypassed[i]);
            CHECK_EQ(tiny_extra(&st.total, "pbypass_bypasses"), (double)bypassed[i]);
            CHECK_EQ(st.total.l1.accesses, 6);
            wc_stats_free(&st);
        }
    wc_pbypass_profile_destroy(p);
}

/* Without a profile the organisation is the conventional L1: 3 misses, no
 * bypass. */
static void test_no_profile(void)
{
    wc_config c;
    tiny_config(&c);
    snprintf(c.l1_org, sizeof c.l1_org, "profiled-bypass");
    wc_stats st;
    CHECK_EQ(run(&c, NULL, false, &st), 0);
    CHECK_EQ(st.total.l1.outcome[WC_BYPASSED], 0);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 3);
    wc_stats_free(&st);
}

int main(void)
{
    RUN(test_counts);
    RUN(test_filters);
    RUN(test_grow);
    RUN(test_two_passes);
    RUN(test_no_profile);
    return check_summary("pbypass");
}
