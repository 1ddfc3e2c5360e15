/*
 * test_point_pick.c - the order in which the MPI sweep's rank 0 hands out
 * points (src/mpi/point_pick.c, compiled in here: it is part of
 * warpcache-mpi, not of the library, and needs no MPI).  Unknown inputs go
 * first in point order, then the longest expected (mean cost of an input's
 * finished points), ties in point order; every point exactly once.
 */
#include "check.h"
#include <stdbool.h>

#include "exp/point_pick.c"

/* points 0..n-1 with input p % ni, as a sweep's grid has them (workloads innermost) */
static int pick_grid(wc_point_pick *pk, size_t n, size_t ni)
{
    size_t pts[64], in[64];
    for (size_t i = 0; i < n; i++) {
        pts[i] = i;
        in[i] = i % ni;
    }
    return wc_point_pick_init(pk, pts, in, n, ni);
}

static void test_unknown_in_point_order(void)
{
    wc_point_pick pk;
    CHECK_EQ(pick_grid(&pk, 6, 3), 0);
    /* nothing finished: every input is unknown, so plain point order */
    for (size_t want = 0; want < 6; want++) CHECK_EQ(wc_point_pick_next(&pk), want);
    CHECK_EQ(wc_point_pick_next(&pk), WC_PICK_NONE);
    CHECK_EQ(pk.left, 0);
    wc_point_pick_free(&pk);
}

static void test_longest_expected_first(void)
{
    wc_point_pick pk;
    CHECK_EQ(pick_grid(&pk, 9, 3), 0);
    for (size_t want = 0; want < 3; want++) CHECK_EQ(wc_point_pick_next(&pk), want);
    wc_point_pick_learn(&pk, 0, 10);
    wc_point_pick_learn(&pk, 1, 30);
    wc_point_pick_learn(&pk, 2, 20);
    /* input 1 (30), then 2 (20), then 0 (10); each input's points in point order */
    CHECK_EQ(wc_point_pick_next(&pk), 4);
    CHECK_EQ(wc_point_pick_next(&pk), 7);
    CHECK_EQ(wc_point_pick_next(&pk), 5);
    CHECK_EQ(wc_point_pick_next(&pk), 8);
    CHECK_EQ(wc_point_pick_next(&pk), 3);
    CHECK_EQ(wc_point_pick_next(&pk), 6);
    CHECK_EQ(wc_point_pick_next(&pk), WC_PICK_NONE);
    wc_point_pick_free(&pk);
}

static void test_unknown_before_known(void)
{
    wc_point_pick pk;
    CHECK_EQ(pick_grid(&pk, 6, 3), 0);
    for (size_t want = 0; want < 3; want++) CHECK_EQ(wc_point_pick_next(&pk), want);
    wc_point_pick_learn(&pk, 0, 100);
    wc_point_pick_learn(&pk, 1, 1);
    /* input 2's point 2 is still running: nothing known of it, so it goes
     * before input 0's longer known cost */
    CHECK_EQ(wc_point_pick_next(&pk), 5);
    CHECK_EQ(wc_point_pick_next(&pk), 3);
    CHECK_EQ(wc_point_pick_next(&pk), 4);
    wc_point_pick_free(&pk);
}

static void test_mean_not_sum_and_ties(void)
{
    wc_point_pick pk;
    CHECK_EQ(pick_grid(&pk, 12, 3), 0);
    for (size_t want = 0; want < 6; want++) CHECK_EQ(wc_point_pick_next(&pk), want);
    /* input 0: two points of 10 (sum 20, mean 10); input 1: one of 15;
     * input 2: one of 15 - the mean ranks, and 1 and 2 tie: point order */
    wc_point_pick_learn(&pk, 0, 10);
    wc_point_pick_learn(&pk, 0, 10);
    wc_point_pick_learn(&pk, 1, 15);
    wc_point_pick_learn(&pk, 2, 15);
    CHECK_EQ(wc_point_pick_next(&pk), 7);  /* input 1, tie with 2, point 7 < 8 */
    CHECK_EQ(wc_point_pick_next(&pk), 8);  /* input 2: point 8 < input 1's 10 */
    CHECK_EQ(wc_point_pick_next(&pk), 10); /* input 1 */
    CHECK_EQ(wc_point_pick_next(&pk), 11); /* input 2 */
    CHECK_EQ(wc_point_pick_next(&pk), 6);  /* input 0 (mean 10) last */
    CHECK_EQ(wc_point_pick_next(&pk), 9);
    CHECK_EQ(wc_point_pick_next(&pk), WC_PICK_NONE);
    wc_point_pick_free(&pk);
}

/* --resume: only the points not in the file, any subset; none at all */
static void test_subset_and_empty(void)
{
    wc_point_pick pk;
    size_t pts[3] = {1, 4, 5}, in[3] = {1, 1, 2};
    CHECK_EQ(wc_point_pick_init(&pk, pts, in, 3, 3), 0);
    CHECK_EQ(wc_point_pick_next(&pk), 1);
    wc_point_pick_learn(&pk, 1, 5);
    CHECK_EQ(pk.left, 2);
    CHECK_EQ(wc_point_pick_next(&pk), 5); /* input 2 unknown: before input 1's point 4 */
    CHECK_EQ(wc_point_pick_next(&pk), 4);
    CHECK_EQ(wc_point_pick_next(&pk), WC_PICK_NONE);
    wc_point_pick_free(&pk);
    CHECK_EQ(wc_point_pick_init(&pk, NULL, NULL, 0, 0), 0);
    CHECK_EQ(wc_point_pick_next(&pk), WC_PICK_NONE);
    wc_point_pick_free(&pk);
}

/* Two workers, each taking the next point when it finishes (the earlier
 * worker first on a tie), the way the MPI sweep runs them.  Returns when
 * the last one ends. */
static unsigned makespan(const unsigned *cost, size_t n, size_t ni, bool learn)
{
    wc_point_pick pk;
    if (pick_grid(&pk, n, ni) < 0) return 0;
    size_t next_plain = 0, point[2];
    unsigned end[2] = {0, 0}, last = 0;
    bool busy[2];
    for (int w = 0; w < 2; w++) {
        point[w] = learn ? wc_point_pick_next(&pk) : next_plain++;
        busy[w] = point[w] < n;
        end[w] = busy[w] ? cost[point[w]] : 0;
    }
    while (busy[0] || busy[1]) {
        int w = !busy[0] || (busy[1] && end[1] < end[0]) ? 1 : 0;
        last = end[w];
        wc_point_pick_learn(&pk, point[w] % ni, cost[point[w]]);
        point[w] = learn ? wc_point_pick_next(&pk) : next_plain < n ? next_plain++ : WC_PICK_NONE;
        busy[w] = point[w] < n;
        if (busy[w]) end[w] += cost[point[w]];
    }
    wc_point_pick_free(&pk);
    return last;
}

/* The case that made point order slow: 6 workloads x 3 designs, the last
 * workload the longest, so in point order the last point is a long one.
 * 39 units on 2 workers take at least 19.5: the learned order reaches 20;
 * point order ends at 22: its last point, 5 units, starts at 17. */
static void test_tail_of_a_sweep(void)
{
    static const unsigned per_input[6] = {2, 2, 1, 2, 1, 5};
    unsigned cost[18];
    for (size_t p = 0; p < 18; p++) cost[p] = per_input[p % 6];
    CHECK_EQ(makespan(cost, 18, 6, false), 22);
    CHECK_EQ(makespan(cost, 18, 6, true), 20);
}

/* Every point exactly once, whatever is learned. */
static void test_each_point_once(void)
{
    wc_point_pick pk;
    CHECK_EQ(pick_grid(&pk, 40, 7), 0);
    bool seen[40] = {false};
    unsigned x = 12345;
    for (size_t k = 0; k < 40; k++) {
        size_t p = wc_point_pick_next(&pk);
        CHECK(p < 40 && !seen[p]);
        if (p < 40) seen[p] = true;
        x = x * 1103515245u + 12345u;
        wc_point_pick_learn(&pk, (x >> 8) % 7, (x >> 4) % 1000);
    }
    CHECK_EQ(wc_point_pick_next(&pk), WC_PICK_NONE);
    wc_point_pick_free(&pk);
}

int main(void)
{
    RUN(test_unknown_in_point_order);
    RUN(test_longest_expected_first);
    RUN(test_unknown_before_known);
    RUN(test_mean_not_sum_and_ties);
    RUN(test_subset_and_empty);
    RUN(test_tail_of_a_sweep);
    RUN(test_each_point_once);
    return check_summary("point_pick");
}
