/*
 * test_shmem.c - shared-memory instructions in the LD/ST unit
 * (src/core/shmem_unit.c): GPGPU-Sim's bank-conflict degree on patterns
 * counted by hand, and the cycles of small kernels with -shmem_issue_limit
 * and -shmem_bank_conflicts derived by hand from tiny_config's latencies.
 */
#include "check.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "listsrc.h"
#include "core/shmem_unit.h"

/* A full-warp 4 B shared access, lane l at base + l * stride. */
static wc_winst shared_access(unsigned op, uint64_t base, int64_t stride)
{
    wc_winst in;
    wc_winst_clear(&in);
    in.op = (uint8_t)op;
    in.width = 4;
    in.amode = WC_ADDR_STRIDE;
    in.base = base;
    in.stride = stride;
    return in;
}

static wc_shmem_unit unit(unsigned banks, bool limited_broadcast, unsigned parts)
{
    wc_config c;
    wc_config_defaults(&c);
    c.shmem_bank_conflicts = 1;
    c.shmem_num_banks = banks;
    c.shmem_limited_broadcast = limited_broadcast;
    c.shmem_warp_parts = parts;
    wc_shmem_unit u;
    wc_shmem_init(&u, &c);
    return u;
}

/*
 * Degrees by hand, banks of 4 bytes, bank = (addr / 4) % banks:
 *  - stride 4, 32 banks: lane l in bank l, one word each: 1.
 *  - stride 128: every lane in bank 0, 32 different words: 32.
 *  - stride 8: lanes l and l + 16 share bank 2l % 32, different words: 2.
 *  - stride 0 (one word for all): 1 with or without limited broadcast
 *    (with it: 32 lanes on the broadcast word count once).
 *  - lanes 0-15 read word 0, lanes 16-31 word 32 (both bank 0): 2 distinct
 *    words; with limited broadcast only word 0 is broadcast, the 16 lanes of
 *    word 32 cost one access each: 1 + 16 = 17.
 *  - 16 banks, stride 4: lanes l and l + 16 in bank l % 16: 2.
 *  - 2 warp parts, stride 4: 1 + 1 = 2; stride 128: 16 + 16 = 32.
 *  - only lane 5 active, stride 128: 1; no lane active: 1 (the unit's cycle).
 *  - the default GPGPU-Sim values (16 banks, limited broadcast, 2 parts)
 *    with stride 0: each half has one broadcast word: 1 + 1 = 2.
 */
static void test_conflict_degree(void)
{
    wc_shmem_unit u = unit(32, false, 1);
    wc_winst in = shared_access(WC_OP_LDS, 0, 4);
    CHECK_EQ(wc_shmem_conflict_degree(&u, &in), 1);
    in = shared_access(WC_OP_LDS, 0, 128);
    CHECK_EQ(wc_shmem_conflict_degree(&u, &in), 32);
    in = shared_access(WC_OP_STS, 4096, 8);
    CHECK_EQ(wc_shmem_conflict_degree(&u, &in), 2);
    in = shared_access(WC_OP_LDS, 64, 0);
    CHECK_EQ(wc_shmem_conflict_degree(&u, &in), 1);
    wc_shmem_unit lb = unit(32, true, 1);
    CHECK_EQ(wc_shmem_conflict_degree(&lb, &in), 1);

    in = shared_access(WC_OP_LDS, 0, 0);
    in.amode = WC_ADDR_LIST;
    for (unsigned l = 0; l < 32; l++) in.addr[l] = l < 16 ? 0 : 128;
    CHECK_EQ(wc_shmem_conflict_degree(&u, &in), 2);
    CHECK_EQ(wc_shmem_conflict_degree(&lb, &in), 17);

    wc_shmem_unit b16 = unit(16, false, 1);
    in = shared_access(WC_OP_LDS, 0, 4);
    CHECK_EQ(wc_shmem_conflict_degree(&b16, &in), 2);

    wc_shmem_unit halves = unit(32, false, 2);
    CHECK_EQ(wc_shmem_conflict_degree(&halves, &in), 2);
    in = shared_access(WC_OP_LDS, 0, 128);
    CHECK_EQ(wc_shmem_conflict_degree(&halves, &in), 32);

    in.mask = 1u << 5;
    CHECK_EQ(wc_shmem_conflict_degree(&u, &in), 1);
    in.mask = 0;
    CHECK_EQ(wc_shmem_conflict_degree(&u, &in), 1);

    wc_shmem_unit gpgpusim = unit(16, true, 2);
    in = shared_access(WC_OP_LDS, 0, 0);
    CHECK_EQ(wc_shmem_conflict_degree(&gpgpusim, &in), 2);
}

static void ls_shared(list_source *l, unsigned warp, unsigned op, int64_t stride, unsigned dst)
{
    wc_winst *in = &l->insts[warp][l->n_insts[warp]++];
    *in = shared_access(op, 0, stride);
    if (dst != WC_REG_NONE) in->dst[in->ndst++] = (uint16_t)dst;
}

/*
 * -shmem_issue_limit: one block of two warps, one per scheduler (2), each
 * four independent conflict-free LDS (shared-memory latency 26).  Off: each
 * scheduler issues one per cycle, at 0..3; the last result at 3 + 26 = 29.
 * On: one per SM per cycle, the eight at 0..7; the last at 7 + 26 = 33.
 */
static void test_issue_limit(void)
{
    for (unsigned on = 0; on <= 1; on++) {
        wc_config c;
        tiny_config(&c);
        c.n_sched_per_sm = 2;
        c.smem_latency = 26;
        c.shmem_issue_limit = on;
        list_source *l = ls_create(1, 64);
        for (unsigned w = 0; w < 2; w++)
            for (unsigned i = 0; i < 4; i++) ls_shared(l, w, WC_OP_LDS, 4, 1 + i);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.total.cycles, on ? 33 : 29);
        CHECK_EQ(st.total.warp_insts, 8);
        wc_stats_free(&st);
    }
}

/*
 * -shmem_bank_conflicts: one warp, LDS r1 with a 32-way conflict (stride
 * 128), LDS r2 conflict-free, ALU r3 <- r2 (ALU latency 4).
 *   off, or -shmem_issue_limit alone: LDS at 0 and 1, r2 at 27, the ALU at
 *     27, its result at 31; r1 came at 26.  31 cycles.
 *   conflicts: the first LDS holds the unit from 0 to 32 and its result
 *     comes 31 cycles late (0 + 26 + 31 = 57); the second issues at 32,
 *     r2 at 58, the ALU at 58, its result at 62.  62 cycles.
 * Then two STS with a 32-way conflict and an ALU r1 (no source): off, at
 * 0, 1, 2, result 6; conflicts: 0, 32, and the ALU (not a shared-memory
 * instruction) at 33, result 37, but the warp is done only when its second
 * store leaves the unit, at 32 + 32 = 64 (as GPGPU-Sim's warp waits for
 * its instructions in the pipeline).
 */
static void test_bank_conflicts(void)
{
    for (unsigned mode = 0; mode < 3; mode++) {
        wc_config c;
        tiny_config(&c);
        c.smem_latency = 26;
        c.shmem_issue_limit = mode == 1;
        c.shmem_bank_conflicts = mode == 2;
        list_source *l = ls_create(1, 32);
        ls_shared(l, 0, WC_OP_LDS, 128, 1);
        ls_shared(l, 0, WC_OP_LDS, 4, 2);
        ls_alu(l, 0, 3, 2);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.total.cycles, mode == 2 ? 62 : 31);
        wc_stats_free(&st);

        l = ls_create(1, 32);
        ls_shared(l, 0, WC_OP_STS, 128, WC_REG_NONE);
        ls_shared(l, 0, WC_OP_STS, 128, WC_REG_NONE);
        ls_alu(l, 0, 1, WC_REG_NONE);
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.total.cycles, mode == 2 ? 64 : 6);
        wc_stats_free(&st);
    }
}

/* The GPGPU-Sim options are read by their names and checked. */
static void test_options(void)
{
    wc_config c;
    wc_config_defaults(&c);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&c, "gpgpu_shmem_num_banks", "16", "t", &err), 0);
    CHECK_EQ(c.shmem_num_banks, 16);
    CHECK_EQ(wc_config_set(&c, "gpgpu_shmem_limited_broadcast", "1", "t", &err), 0);
    CHECK(c.shmem_limited_broadcast);
    CHECK_EQ(wc_config_set(&c, "gpgpu_shmem_warp_parts", "2", "t", &err), 0);
    CHECK_EQ(c.shmem_warp_parts, 2);
    CHECK(wc_config_set(&c, "gpgpu_shmem_warp_parts", "3", "t", &err) < 0);
    CHECK(wc_config_set(&c, "gpgpu_shmem_num_banks", "0", "t", &err) < 0);
    CHECK(wc_config_set(&c, "shmem_bank_conflicts", "2", "t", &err) < 0);
    CHECK_EQ(wc_config_set(&c, "shmem_issue_limit", "1", "t", &err), 0);
    CHECK_EQ(c.shmem_issue_limit, 1);
}

int main(void)
{
    RUN(test_conflict_degree);
    RUN(test_issue_limit);
    RUN(test_bank_conflicts);
    RUN(test_options);
    return check_summary("shmem");
}
