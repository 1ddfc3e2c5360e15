/*
 * test_mrc.c - stack distances (src/model/sdstack.c) against a naive LRU list,
 * compaction under a small tree, one-pass miss-ratio curves (src/model/mrc.c)
 * on hand sequences, fully and set associative, and the error of SHARDS
 * sampling against the exact curve on a larger stream.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "model/sdstack.h"
#include "util/rng.h"
#include "warpcache/model.h"

/* Naive LRU stack: position of `line` from the top, moving it to the top. */
static uint64_t naive_touch(uint64_t *stack, unsigned *n, uint64_t line)
{
    unsigned i = 0;
    while (i < *n && stack[i] != line) i++;
    uint64_t d = i < *n ? i : UINT64_MAX;
    if (i == *n) (*n)++;
    for (; i > 0; i--) stack[i] = stack[i - 1];
    stack[0] = line;
    return d;
}

static void test_fenwick_matches_naive_with_compaction(void)
{
    enum { LINES = 300, N = 20000 };
    static uint64_t naive[LINES];
    static uint32_t stamps[LINES];
    unsigned nn = 0;
    wc_linemap map;
    wc_sdstack st;
    CHECK(wc_linemap_init(&map, 2) == 0); /* grows */
    CHECK(wc_sdstack_init(&st, 16) == 0); /* compacts and grows many times */
    uint64_t rng = wc_rng_seed(7);
    unsigned bad = 0;
    for (unsigned i = 0; i < N; i++) {
        /* a skewed mix: half the accesses go to 20 hot lines */
        uint64_t line =
            wc_rng_below(&rng, 2) ? wc_rng_below(&rng, 20) : 1000 + wc_rng_below(&rng, LINES - 20);
        bool created;
        uint32_t slot = wc_linemap_get(&map, line * 977, &created);
        if (created) stamps[slot] = 0;
        uint64_t d = wc_sdstack_distance(&st, stamps[slot]);
        uint64_t want = naive_touch(naive, &nn, line);
        if (d != want) bad++;
        CHECK(wc_sdstack_touch(&st, slot, stamps) == 0);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(map.n, nn);
    CHECK_EQ(st.live, nn);
    CHECK(st.cap <= 4 * nn); /* memory follows the distinct lines, not N */
    wc_sdstack_free(&st);
    wc_linemap_free(&map);
}

static wc_mrc *mrc_new(uint32_t nsets, double rate)
{
    wc_mrc_opts o = {nsets, 'L', 128, rate};
    wc_err err;
    wc_mrc *m = wc_mrc_create(&o, &err);
    CHECK(m != NULL);
    return m;
}

/* A B C A B C D A: distances inf inf inf 2 2 2 inf 3. */
static void test_exact_curve_hand_sequence(void)
{
    const uint64_t seq[8] = {10, 11, 12, 10, 11, 12, 13, 10};
    wc_mrc *m = mrc_new(1, 1.0);
    for (int i = 0; i < 8; i++) wc_mrc_access(m, seq[i]);
    CHECK_EQ(wc_mrc_accesses(m), 8);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 1), 8.0 / 8, 1e-12);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 2), 8.0 / 8, 1e-12);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 3), 5.0 / 8, 1e-12);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 4), 4.0 / 8, 1e-12);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 100), 4.0 / 8, 1e-12);
    CHECK_EQ(wc_mrc_max_size(m), 4);
    wc_mrc_destroy(m);
}

/* Two sets, linear index (line parity): lines 0 1 2 0 4 2.  Set 0 sees
 * 0 2 0 4 2 (inf inf 1 inf 2), set 1 sees 1 (inf). */
static void test_exact_curve_two_sets(void)
{
    const uint64_t seq[6] = {0, 1, 2, 0, 4, 2};
    wc_mrc *m = mrc_new(2, 1.0);
    for (int i = 0; i < 6; i++) wc_mrc_access(m, seq[i]);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 1), 6.0 / 6, 1e-12);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 2), 5.0 / 6, 1e-12);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 3), 4.0 / 6, 1e-12);
    wc_mrc_destroy(m);
}

static void test_default_sizes(void)
{
    uint64_t s[64];
    size_t n = wc_mrc_default_sizes(20, s, 64);
    const uint64_t want[] = {1, 2, 3, 4, 6, 8, 12, 16, 20};
    CHECK_EQ(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n && i < sizeof want / sizeof want[0]; i++) CHECK_EQ(s[i], want[i]);
}

/* SHARDS at rate 0.1 on 2 M accesses over 200 K lines (loops over working sets
 * of several sizes plus random accesses): the sampled curve must stay close to
 * the exact one.  The SHARDS paper reports mean absolute errors around 0.01 at
 * much lower rates; 0.02 mean and 0.05 max are generous bounds. */
static void test_shards_error_bound(void)
{
    wc_mrc *exact = mrc_new(1, 1.0), *sampled = mrc_new(1, 0.1);
    uint64_t rng = wc_rng_seed(3);
    for (unsigned phase = 0; phase < 40; phase++) {
        uint64_t ws = 500ull << (phase % 8); /* 500 .. 64000 lines */
        uint64_t base = (phase % 5) * 100000;
        for (unsigned i = 0; i < 50000; i++) {
            uint64_t line = wc_rng_below(&rng, 4) ? base + i % ws : wc_rng_below(&rng, 200000);
            wc_mrc_access(exact, line);
            wc_mrc_access(sampled, line);
        }
    }
    uint64_t sizes[128];
    size_t n = wc_mrc_default_sizes(wc_mrc_max_size(exact), sizes, 128);
    double mean = 0, max = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs(wc_mrc_miss_ratio(sampled, sizes[i]) - wc_mrc_miss_ratio(exact, sizes[i]));
        mean += e / (double)n;
        if (e > max) max = e;
    }
    printf("SHARDS rate 0.1: mean absolute error %.4f, max %.4f over %zu sizes\n", mean, max, n);
    CHECK(mean < 0.02);
    CHECK(max < 0.05);
    /* and the curve is not trivially flat */
    CHECK(wc_mrc_miss_ratio(exact, 1) > wc_mrc_miss_ratio(exact, 100000) + 0.3);
    wc_mrc_destroy(exact);
    wc_mrc_destroy(sampled);
}

static void test_bad_options(void)
{
    wc_err err;
    wc_mrc_opts o = {3, 'L', 128, 1.0};
    CHECK(wc_mrc_create(&o, &err) == NULL);
    CHECK(strstr(err.msg, "power of two") != NULL);
    o.nsets = 1;
    o.rate = 0;
    CHECK(wc_mrc_create(&o, &err) == NULL);
    CHECK(strstr(err.msg, "rate") != NULL);
}

int main(void)
{
    RUN(test_fenwick_matches_naive_with_compaction);
    RUN(test_exact_curve_hand_sequence);
    RUN(test_exact_curve_two_sets);
    RUN(test_default_sizes);
    RUN(test_shards_error_bound);
    RUN(test_bad_options);
    return check_summary("mrc");
}
