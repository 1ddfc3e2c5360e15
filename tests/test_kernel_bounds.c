/*
 * test_kernel_bounds.c - where kernels start and end as GPGPU-Sim has them
 * (issue 29): -exit_store_acks (a warp exits once its stores are
 * acknowledged) and -block_rr_carry (block dispatch deals blocks to the SMs
 * round robin from the SM after the one that took the last block, within
 * and across kernels).  Cycles and L1 misses derived by hand from
 * tiny_config.h's latencies.
 */
#include "check.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "listsrc.h"

/* Appends a full-warp unit-stride 4 B store to `addr` (one 128 B line). */
static void ls_store(list_source *l, unsigned warp, uint64_t addr)
{
    wc_winst *in = &l->insts[warp][l->n_insts[warp]++];
    wc_winst_clear(in);
    in->op = WC_OP_STG;
    in->width = 4;
    in->amode = WC_ADDR_STRIDE;
    in->base = addr;
    in->stride = 4;
}

/*
 * One warp, one store of a whole 128 B line, issued at cycle 0.  The stage
 * presents it at 1 and it leaves the SM then: 8 B of header + 128 B of data
 * are 5 flits of 32 B, so it is at the L2 at 1 + 10 (interconnect) + 5 =
 * 16; the L2 takes 100 cycles and the acknowledgement crosses back in 10:
 * it reaches the SM at 126.
 *   off: the warp exits once its stream has ended and the stage is empty,
 *        at cycle 1: the kernel takes 1 cycle.
 *   on:  it exits when the acknowledgement is back: 126 cycles.
 */
static void test_store_ack_ends_kernel(void)
{
    for (unsigned on = 0; on <= 1; on++) {
        wc_config c;
        tiny_config(&c);
        c.exit_store_acks = on;
        list_source *l = ls_create(1, 32);
        ls_store(l, 0, 0);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.total.cycles, on ? 126 : 1);
        CHECK_EQ(st.total.l1.writes, 1);
        wc_stats_free(&st);
    }
}

/*
 * The store, then a load of another line, which misses in the L1 and the
 * L2: its data come back after 186 cycles at the earliest (tiny_config.h),
 * later than the store's acknowledgement (126), so waiting for the
 * acknowledgement changes nothing: the same cycles on and off, past 186.
 */
static void test_store_ack_hidden_by_load(void)
{
    uint64_t cycles[2];
    for (unsigned on = 0; on <= 1; on++) {
        wc_config c;
        tiny_config(&c);
        c.exit_store_acks = on;
        list_source *l = ls_create(1, 32);
        ls_store(l, 0, 0);
        ls_load(l, 0, 4096, 1);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        cycles[on] = st.total.cycles;
        wc_stats_free(&st);
    }
    CHECK(cycles[0] > 186);
    CHECK_EQ(cycles[1], cycles[0]);
}

/*
 * Two SMs, three kernels of three one-warp blocks; block b of every kernel
 * loads line 5b (640 B apart, three different L1 sets), and the L1s are not
 * flushed between kernels, so a block hits when its SM held its line
 * before.
 *   off: every kernel's first pass starts at SM 0 (blocks 0, 1 to SMs 0,
 *        1), the second one SM later (block 2 to SM 1): kernels 2 and 3
 *        find every line where it was: read misses 3, 0, 0.
 *   on:  kernel 1 deals blocks 0, 1, 2 to SMs 0, 1, 0 (GPGPU-Sim's order);
 *        kernel 2 starts after SM 0: blocks 0, 1, 2 to SMs 1, 0, 1, none of
 *        which held those lines: 3 misses; kernel 3 starts after SM 1:
 *        SMs 0, 1, 0 again, and both now hold all three lines: 0.
 */
static void test_block_rr_carry(void)
{
    for (unsigned on = 0; on <= 1; on++) {
        wc_config c;
        tiny_config(&c);
        c.n_clusters = 2;
        c.l1_flush = false;
        c.block_rr_carry = on;
        list_source *l = ls_create(3, 32);
        l->kernels_left = 3;
        l->block_stride = 640;
        ls_load(l, 0, 0, 1);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.n_kernels, 3);
        if (st.n_kernels == 3) {
            CHECK_EQ(st.kernels[0].l1.read_misses, 3);
            CHECK_EQ(st.kernels[1].l1.read_misses, on ? 3 : 0);
            CHECK_EQ(st.kernels[2].l1.read_misses, 0);
        }
        wc_stats_free(&st);
    }
}

int main(void)
{
    RUN(test_store_ack_ends_kernel);
    RUN(test_store_ack_hidden_by_load);
    RUN(test_block_rr_carry);
    return check_summary("kernel_bounds");
}
