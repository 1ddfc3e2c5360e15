/*
 * test_wl_seedmicro.c - the seed micro-benchmarks (src/workloads/seedmicro/):
 * counts of warp memory instructions and exact addresses, derived by hand
 * from the figures of seeds 002, 003 and 004 (see seedmicro.c's header) and
 * the documented array layout (first array at 0x10000000, next arrays at the
 * following 4 KiB boundaries).
 */
#include "check.h"

/* ---- pulling helpers (as in test_wl_polybench.c) ---- */
#include <stdio.h>
#include <string.h>

#include "warpcache/workloads.h"

#include "wl_pull.h"
/* seed 003 Figure 5, defaults (128 threads = 4 warps, 32 loads, sv = 4096):
 * stage 1: 4 warps * 32 loads; stage 2: warp 0 lane 0, 1 load; stage 3:
 * 4 * 32 loads + 4 * 32 stores.  257 loads, 128 stores. */
static void test_assoc(void)
{
    const char *s = "seed/assoc";
    wl_counts c;
    CHECK(wl_pull_all(s, &c) == 0);
    CHECK_EQ(c.launches, 1);
    CHECK_EQ(c.ldg, 257);
    CHECK_EQ(c.stg, 128);
    uint64_t mem = BASE0, time = next_base(mem, 4097 * 4);
    CHECK_EQ(time, 0x10005000);
    /* warp 2, stage 1, i = 5: mem[64 + l + 5*128]: one 128 B line */
    CHECK_MEM(s, 0, 0, 2, 5, WC_OP_LDG, mem + (64 + 5 * 128) * 4, 4, 0xffffffffu);
    /* stage 2: thread 0 loads mem[sv] = byte 16384, the first line past 16 KB */
    CHECK_MEM(s, 0, 0, 0, 32, WC_OP_LDG, mem + 16384, 0, 0x1u);
    /* stage 3, i = 0: load then time[tid] store; warp 1 has no stage-2 load */
    CHECK_MEM(s, 0, 0, 0, 34, WC_OP_STG, time, 4, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 1, 33, WC_OP_STG, time + 128, 4, 0xffffffffu);
    /* a larger sv grows mem: 8193 elements, time at the next 4 KiB */
    CHECK_MEM("seed/assoc:sv=8192", 0, 0, 0, 32, WC_OP_LDG, mem + 8192 * 4, 0, 0x1u);
    CHECK_MEM("seed/assoc:sv=8192", 0, 0, 0, 34, WC_OP_STG, next_base(mem, 8193 * 4), 4,
              0xffffffffu);
}

/* seed 003 section 5.1 verification: one warp, 2 loops of n = 8 loads
 * stride 4096 B apart: 16 loads, the second loop repeating the first. */
static void test_assoc_stride(void)
{
    const char *s = "seed/assoc_stride:stride=4096,n=8";
    wl_counts c;
    CHECK(wl_pull_all(s, &c) == 0);
    CHECK_EQ(c.ldg, 16);
    CHECK_EQ(c.stg, 0);
    CHECK_MEM(s, 0, 0, 0, 3, WC_OP_LDG, BASE0 + 3 * 4096, 4, 0xffffffffu);
    CHECK_MEM(s, 0, 0, 0, 11, WC_OP_LDG, BASE0 + 3 * 4096, 4, 0xffffffffu);
    wc_err err;
    CHECK(wc_workload_open("seed/assoc_stride:stride=100", 1, &err) == NULL);
}

/* seed 003 Figure 8, warps=2 loads=3: lane 0 of each warp loads
 * mem[32*(tid + i*2*32)] (byte 4096*(w + 2i)), uses them, stores time[w]:
 * 6 loads, 2 stores; ALU per warp: test, clock, 3 uses, clock = 6. */
static void test_mshr(void)
{
    const char *s = "seed/mshr:warps=2,loads=3";
    wl_counts c;
    CHECK(wl_pull_all(s, &c) == 0);
    CHECK_EQ(c.ldg, 6);
    CHECK_EQ(c.stg, 2);
    CHECK_EQ(c.alu, 12);
    uint64_t time = next_base(BASE0, 4096 * 6);
    CHECK_MEM(s, 0, 0, 1, 2, WC_OP_LDG, BASE0 + 4096 * (1 + 2 * 2), 4, 0x1u);
    CHECK_MEM(s, 0, 0, 1, 3, WC_OP_STG, time + 4, 4, 0x1u);
    /* each load has its own destination register, read by a later ALU op */
    wc_err err;
    wc_source *src = wc_workload_open(s, 1, &err);
    CHECK(src != NULL);
    if (src) {
        wc_kernel k;
        wc_winst in;
        void *blk;
        CHECK(src->ops->next_kernel(src, &k, &err) == 1);
        CHECK(src->ops->open_block(src, 0, &blk, &err) == 1);
        unsigned ld_regs[8], nld = 0, used = 0;
        while (src->ops->next_inst(src, blk, 0, &in, &err) == 1) {
            if (in.op == WC_OP_LDG && nld < 8) ld_regs[nld++] = in.dst[0];
            if (in.op == WC_OP_ALU)
                for (unsigned i = 0; i < in.nsrc; i++)
                    for (unsigned j = 0; j < nld; j++) used += in.src[i] == ld_regs[j];
        }
        CHECK_EQ(nld, 3);
        CHECK(ld_regs[0] != ld_regs[1] && ld_regs[1] != ld_regs[2]);
        CHECK_EQ(used, 3);
        src->ops->close_block(src, blk);
        wc_source_destroy(src);
    }
}

/* seed 004 Figure 2 at n = 64: kernel_1 only: 2 warps * 64 * (3 LD + ST). */
static void test_atax_col(void)
{
    const char *s = "seed/atax_col:n=64";
    wl_counts c;
    CHECK(wl_pull_all(s, &c) == 0);
    CHECK_EQ(c.launches, 1);
    CHECK_EQ(c.ldg, 384);
    CHECK_EQ(c.stg, 128);
    CHECK(wl_pull_all("seed/atax_col:n=64,both=1", &c) == 0);
    CHECK_EQ(c.launches, 2);
    CHECK_EQ(c.ldg, 768);
    /* column vector: lane l reads A[l*64 + 5] */
    CHECK_MEM(s, 0, 0, 0, 20, WC_OP_LDG, BASE0 + 5 * 4, 64 * 4, 0xffffffffu);
    /* default n = 2048: rows 8 KB apart */
    CHECK_MEM("seed/atax_col", 0, 0, 0, 0, WC_OP_LDG, BASE0, 2048 * 4, 0xffffffffu);
}

/* seed 004 Figure 3 at n = 32: grid (2, 2) of 16x16 = 32 warps, each one
 * LDG, STS, BAR, LDS (+ STG with store=1). */
static void test_srad_preload(void)
{
    const char *s = "seed/srad_preload:n=32";
    wl_counts c;
    CHECK(wl_pull_all(s, &c) == 0);
    CHECK_EQ(c.ldg, 32);
    CHECK_EQ(c.sts, 32);
    CHECK_EQ(c.lds, 32);
    CHECK_EQ(c.bar, 32);
    CHECK_EQ(c.stg, 0);
    CHECK(wl_pull_all("seed/srad_preload:n=32,store=1", &c) == 0);
    CHECK_EQ(c.stg, 32);
    /* block 3 (bx = by = 1), warp 3: rows ty = 6 (lanes 0..15), 7 (16..31):
     * J[32*16 + 16 + 32*ty + tx] */
    wc_winst in;
    wc_kernel k;
    CHECK(wl_nth_mem(s, 0, 3, 3, 0, &in, &k) == 0);
    CHECK_EQ(in.op, WC_OP_LDG);
    CHECK_EQ(in.mask, 0xffffffffu);
    CHECK_EQ(wc_winst_lane_addr(&in, 0), BASE0 + (512 + 16 + 192) * 4);
    CHECK_EQ(wc_winst_lane_addr(&in, 15), BASE0 + (512 + 16 + 192 + 15) * 4);
    CHECK_EQ(wc_winst_lane_addr(&in, 17), BASE0 + (512 + 16 + 224 + 1) * 4);
    CHECK(wl_nth_mem("seed/srad_preload:n=32,store=1", 0, 3, 3, 1, &in, &k) == 0);
    CHECK_EQ(in.op, WC_OP_STG);
    CHECK_EQ(wc_winst_lane_addr(&in, 17), next_base(BASE0, 32 * 32 * 4) + (512 + 16 + 225) * 4);
    /* default n = 2048: the two rows of a warp are 8 KB apart */
    CHECK(wl_nth_mem("seed/srad_preload", 0, 0, 0, 0, &in, &k) == 0);
    CHECK_EQ(wc_winst_lane_addr(&in, 16) - wc_winst_lane_addr(&in, 0), 2048 * 4);
}

/* seed 002 Figure 6, n = 32, k = 2 lines per row (M = 64), iters = 4:
 * grid (1, 4) = 32 warps, each LD c, ST c + 4 * (3 LD + ST) = 13 / 5. */
static void test_syrk_conflict(void)
{
    const char *s = "seed/syrk_conflict:n=32,k=2,iters=4";
    wl_counts c;
    CHECK(wl_pull_all(s, &c) == 0);
    CHECK_EQ(c.ldg, 32 * 13);
    CHECK_EQ(c.stg, 32 * 5);
    /* a[j*M + 1]: lanes K*128 = 256 B apart */
    CHECK_MEM(s, 0, 0, 0, 7, WC_OP_LDG, BASE0 + 4, 256, 0xffffffffu);
    /* default k = 32: rows of 32 lines = 4 KB apart */
    CHECK_MEM("seed/syrk_conflict", 0, 0, 0, 3, WC_OP_LDG, BASE0, 4096, 0xffffffffu);
}

static void test_registry(void)
{
    const char *names[] = {"seed/assoc",    "seed/assoc_stride", "seed/mshr",
                           "seed/atax_col", "seed/srad_preload", "seed/syrk_conflict"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const wc_workload *w = wc_workload_find(names[i]);
        CHECK(w != NULL);
        if (w) CHECK_STR(w->suite, "seed");
    }
    const wc_workload *w = wc_workload_find("seed/atax_col");
    CHECK(w && strcmp(w->classes, "004:figure2 004:IW") == 0);
}

int main(void)
{
    RUN(test_assoc);
    RUN(test_assoc_stride);
    RUN(test_mshr);
    RUN(test_atax_col);
    RUN(test_srad_preload);
    RUN(test_syrk_conflict);
    RUN(test_registry);
    return check_summary("wl_seedmicro");
}
