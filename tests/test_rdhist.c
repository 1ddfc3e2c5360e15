/*
 * test_rdhist.c - the reuse-distance histogram of the L1 data stores'
 * access stream (-l1_rd_hist, src/core/rdhist.c) on hand-built streams, the
 * bucket boundaries, and that the option off reports nothing.
 */
#include "check.h"
#include "core/rdhist.h"
#include "listsrc.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "warpcache/sim.h"

/* One warp reads lines A B C A B A (0x10000 + k * 128: lines 512 + k). */
static int run(const wc_config *c, wc_stats *st)
{
    static const unsigned seq[] = {0, 1, 2, 0, 1, 0};
    list_source *l = ls_create(1, 32);
    for (unsigned i = 0; i < 6; i++) ls_load(l, 0, 0x10000 + seq[i] * 128, 1 + i);
    return tiny_simulate(c, &l->base, st);
}

/* Buckets: 0 -> 0, 1 -> 1, 2..3 -> 2, 4..7 -> 3, 2^15..2^16-1 -> 16, the
 * rest -> 17. */
static void test_buckets(void)
{
    CHECK_EQ(wc_rd_bucket(0), 0);
    CHECK_EQ(wc_rd_bucket(1), 1);
    CHECK_EQ(wc_rd_bucket(2), 2);
    CHECK_EQ(wc_rd_bucket(3), 2);
    CHECK_EQ(wc_rd_bucket(4), 3);
    CHECK_EQ(wc_rd_bucket(7), 3);
    CHECK_EQ(wc_rd_bucket(65535), 16);
    CHECK_EQ(wc_rd_bucket(65536), 17);
    CHECK_EQ(wc_rd_bucket(UINT64_MAX), 17);
}

/*
 * The conventional L1 takes in all six reads.  Distances (distinct lines
 * since the line's last reference): A, B, C first (footprint 3); A: {B, C}
 * = 2; B: {C, A} = 2; A: {B} = 1.  So 6 references, footprint 3, one in
 * bucket 1 (distance 1) and two in bucket 2 (distances 2-3).
 */
static void test_conventional(void)
{
    wc_config c;
    tiny_config(&c);
    c.l1_rd_hist = true;
    wc_stats st;
    CHECK_EQ(run(&c, &st), 0);
    CHECK(st.total.rd_on);
    CHECK_EQ(st.total.rd_accesses, 6);
    CHECK_EQ(st.total.rd_footprint, 3);
    CHECK_EQ(st.total.rd_hist[0], 0);
    CHECK_EQ(st.total.rd_hist[1], 1);
    CHECK_EQ(st.total.rd_hist[2], 2);
    CHECK_EQ(st.kernels[0].rd_accesses, 6); /* the kernel's share: all of it */
    wc_stats_free(&st);
}

/*
 * dl1d-static (threshold 2) filters the stream: the first reads of A, B and
 * C bypass (RC 1) and never reach the data store; the second A and B
 * allocate (RC 2), the third A hits its line.  The data store sees A B A:
 * 3 references, footprint 2, and A's distance {B} = 1.
 */
static void test_filtered(void)
{
    wc_config c;
    tiny_config(&c);
    c.l1_rd_hist = true;
    snprintf(c.l1_org, sizeof c.l1_org, "dl1d-static");
    wc_stats st;
    CHECK_EQ(run(&c, &st), 0);
    CHECK_EQ(st.total.l1.outcome[WC_BYPASSED], 3);
    CHECK_EQ(st.total.rd_accesses, 3);
    CHECK_EQ(st.total.rd_footprint, 2);
    CHECK_EQ(st.total.rd_hist[1], 1);
    wc_stats_free(&st);
}

/* Off (the default): nothing measured, nothing reported. */
static void test_off(void)
{
    wc_config c;
    tiny_config(&c);
    wc_stats st;
    CHECK_EQ(run(&c, &st), 0);
    CHECK(!st.total.rd_on);
    CHECK_EQ(st.total.rd_accesses, 0);
    wc_stats_free(&st);
}

int main(void)
{
    RUN(test_buckets);
    RUN(test_conventional);
    RUN(test_filtered);
    RUN(test_off);
    return check_summary("rdhist");
}
