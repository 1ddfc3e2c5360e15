/*
 * test_engine.c - the cycle engine on tiny scenarios whose timing is derived
 * by hand from the configuration, plus determinism, congestion, occupancy and
 * the shipped/real configuration files.
 */
#include "check.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "listsrc.h"
#include "core/stages/memstage_inorder.h"
#include "warpcache/experiment.h"
#include "warpcache/sim.h"
#include "warpcache/traceio.h"
#include "warpcache/workloads.h"

/*
 * LDG r1 <- [A]; ALU r2 <- r1.  By hand (I = icnt 10, R = L2 100, D = DRAM 50):
 *   cycle 0 issue LDG; cycle 1 the memory stage misses in L1 and the request
 *   leaves (1 flit): it is at the L2 after I + 1 = 11 -> cycle 12; L2 miss,
 *   DRAM fetch starts at 12 + R = 112, data at 112 + D + 4 (128 B / 32 B) = 166;
 *   the response (8 + 128 B = 5 flits) leaves the L2 port at 171, crosses
 *   (I = 10) and drains the SM port (5 flits) at 186: the load completes at 186.
 *   The ALU issues at 186 and its result is ready at 190: the warp retires and
 *   the kernel ends at cycle 190.
 */
static void test_single_miss_timing(void)
{
    wc_config c;
    tiny_config(&c);
    list_source *l = ls_create(1, 32);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.n_kernels, 1);
    CHECK_EQ(st.total.cycles, 190);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 1);
    CHECK_EQ(st.total.l2.misses, 1);
    CHECK_EQ(st.total.dram.reads, 1);
    CHECK_EQ(st.total.icnt.l1_to_l2_bytes, 32);  /* 1 flit */
    CHECK_EQ(st.total.icnt.l2_to_l1_bytes, 160); /* 5 flits */
    CHECK_EQ(st.total.warp_insts, 2);
    CHECK_EQ(st.total.thread_insts, 64);
    wc_stats_free(&st);
}

/*
 * The same miss with DRAM activate and CAS times (-gpgpu_dram_timing_opt
 * RCD=3, CL=5, DRAM clock = core clock): every DRAM access takes 3 + 5 more
 * cycles, so the fill and the run end 8 cycles later (198).  At half the
 * core clock's frequency a DRAM cycle is two core cycles: activate + CAS
 * take 16, the 128 B transfer 8 instead of 4, so 16 + 4 later than the
 * first case's 190 + 0 (210); -dram_latency (50) stays in core cycles, as
 * GPGPU-Sim counts it.
 */
static void test_dram_timing(void)
{
    static const double mhz[2] = {1000.0, 500.0};
    static const uint64_t want[2] = {198, 210};
    for (unsigned i = 0; i < 2; i++) {
        wc_config c;
        tiny_config(&c);
        wc_err err = {{0}};
        CHECK_EQ(wc_config_set(&c, "gpgpu_dram_timing_opt", "nbk=16:RCD=3:RP=4:CL=5", "t", &err),
                 0);
        c.clk_dram = mhz[i];
        list_source *l = ls_create(1, 32);
        ls_load(l, 0, 0x10000, 1);
        ls_alu(l, 0, 2, 1);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.total.cycles, want[i]);
        wc_stats_free(&st);
    }
}

/*
 * The same load and ALU with GPGPU-Sim's launch latencies: nothing happens
 * until the kernel's blocks may start, so the whole timeline moves by the
 * latency and the kernel's cycles include it: 190 + 1000 with a 1000-cycle
 * kernel launch latency.  With 7 cycles per block on top, a three-block
 * kernel takes what it takes without any latency plus 1000 + 3 x 7.
 */
static uint64_t three_blocks(const wc_config *c)
{
    list_source *l = ls_create(3, 32);
    l->block_stride = 1 << 20;
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    wc_stats st;
    CHECK_EQ(tiny_simulate(c, &l->base, &st), 0);
    uint64_t cycles = st.total.cycles;
    wc_stats_free(&st);
    return cycles;
}

static void test_launch_latency(void)
{
    wc_config c;
    tiny_config(&c);
    uint64_t plain = three_blocks(&c);
    c.kernel_launch_latency = 1000;
    list_source *l = ls_create(1, 32);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.cycles, 190 + 1000);
    wc_stats_free(&st);
    c.tb_launch_latency = 7;
    CHECK_EQ(three_blocks(&c), plain + 1000 + 3 * 7);
}

/*
 * -ifetch 1, GPGPU-Sim's front end.  One warp of four independent ALU
 * instructions (latency 4): without it they issue at 0, 1, 2, 3 and the
 * last result is ready at 7.  With it, the new warp's buffer is empty: it
 * is fetched at 0, decoded at 1, and issues its two buffered instructions at
 * 2 and 3; the buffer is then empty again, is fetched at 3 (after that
 * cycle's issue), decoded at 4, and the last two issue at 5 and 6: ready at
 * 10.
 * Two such warps, one fetch unit, GTO (greedy on the last warp issued, else
 * the oldest).  Without the front end: warp 0 at 0..3, warp 1 at 4..7, ready
 * at 11.  With it: fetch w0 at 0, w1 at 1; decode w0 at 1, w1 at 2.
 *   2: w0 I1        3: w0 I2 (empty: fetched at 3)
 *   4: w1 I1 (w0 decoded at 4, ready at 5)
 *   5: w1 I2 (greedy; empty: fetched at 5)
 *   6: w0 I3        7: w0 I4        8: w1 I3 (decoded at 6)   9: w1 I4
 * ready at 13.
 */
static void test_ifetch_front_end(void)
{
    wc_config c;
    tiny_config(&c);
    for (unsigned warps = 1; warps <= 2; warps++)
        for (int on = 0; on < 2; on++) {
            c.ifetch = (uint32_t)on;
            list_source *l = ls_create(1, 32 * warps);
            for (unsigned w = 0; w < warps; w++)
                for (unsigned i = 0; i < 4; i++) ls_alu(l, w, 1 + i, WC_REG_NONE);
            wc_stats st;
            CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
            if (warps == 1)
                CHECK_EQ(st.total.cycles, on ? 10 : 7);
            else
                CHECK_EQ(st.total.cycles, on ? 13 : 11);
            CHECK_EQ(st.total.warp_insts, 4 * warps);
            wc_stats_free(&st);
        }
}

/*
 * -oc_wb_latency: GPGPU-Sim's operand collector and writeback stages
 * (src/core/op_latency.c).  One warp: ALU r1, ALU r2 <- r1, LDS r3 <- r2,
 * ALU r4 <- r3, SFU r5 <- r4.  By hand, with tiny_config's ALU latency 4,
 * SFU 20 and shared memory 26, each instruction issuing when its source is
 * ready:
 *   off (0): issues at 0, 4, 8, 34, 38; the SFU result at 38 + 20 = 58;
 *   5:       ALU 4 + 5 = 9, SFU 25, LDS 26 + 5 + 1 (the LD/ST unit's
 *            writeback register) = 32: issues at 0, 9, 18, 50, 59; the SFU
 *            result at 59 + 25 = 84.
 * A global load's latency is not changed (its round trip is the memory
 * system's): test_single_miss_timing's load, then ALU r2 <- r1, takes
 * 186 + 4 with the option off and 186 + 9 with 5.
 */
static void test_oc_wb_latency(void)
{
    for (unsigned extra = 0; extra <= 5; extra += 5) {
        wc_config c;
        tiny_config(&c);
        c.oc_wb_latency = extra;
        c.sfu_latency = 20;
        c.smem_latency = 26;
        list_source *l = ls_create(1, 32);
        ls_alu(l, 0, 1, WC_REG_NONE);
        ls_alu(l, 0, 2, 1);
        ls_load(l, 0, 0, 3);
        l->insts[0][2].op = WC_OP_LDS;
        l->insts[0][2].src[l->insts[0][2].nsrc++] = 2;
        ls_alu(l, 0, 4, 3);
        ls_alu(l, 0, 5, 4);
        l->insts[0][4].op = WC_OP_SFU;
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.total.cycles, extra ? 84 : 58);
        CHECK_EQ(st.total.warp_insts, 5);
        wc_stats_free(&st);

        l = ls_create(1, 32);
        ls_load(l, 0, 0x10000, 1);
        ls_alu(l, 0, 2, 1);
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.total.cycles, extra ? 195 : 190);
        wc_stats_free(&st);
    }
}

/*
 * ... then LDG r3 <- [A] again and ALU r4 <- r3: the second load is issued at
 * 187 (the ALU went at 186), hits in L1 at 188 and is answered after the hit
 * latency (20) at 208; its ALU result is ready at 212.
 */
static void test_hit_after_miss(void)
{
    wc_config c;
    tiny_config(&c);
    list_source *l = ls_create(1, 32);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    ls_load(l, 0, 0x10000, 3);
    ls_alu(l, 0, 4, 3);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.cycles, 212);
    CHECK_EQ(st.total.l1.outcome[WC_HIT], 1);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 1);
    wc_stats_free(&st);
}

/*
 * GPGPU-Sim's L1 latency queue (-mem_stage l1q, depth = the L1 latency, 20):
 * the LDG of test_single_miss_timing is issued at 0 and enters the queue's
 * tail (slot 19) at 1; it moves one slot a cycle and reaches the head (slot
 * 0) at 1 + 19 = 20; the head is looked up at the start of cycle 21 (lookup
 * before shifting, as in ldst_unit::cycle), so the miss leaves 20 cycles
 * later than with the default stage and everything after it shifts by 20:
 * the load completes at 206, the ALU result is ready at 210.  The warp is
 * idle when the miss leaves (nothing else is scheduled), so this also pins
 * that a response scheduled in the SM's own cycle keeps the run going.
 */
static void test_l1q_single_miss(void)
{
    wc_config c;
    tiny_config(&c);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&c, "mem_stage", "l1q", "test", &err), 0);
    list_source *l = ls_create(1, 32);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.cycles, 210);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 1);
    wc_stats_free(&st);
}

/*
 * ... then the second LDG of test_hit_after_miss: issued at 207 (the ALU went
 * at 206), in the tail at 208, at the head at 227, looked up at 228 and, the
 * queue being the hit latency, answered there: its ALU result is ready at
 * 232.  An isolated hit takes as long as with the default stage (issue + 21);
 * only the miss before it is 20 cycles later.  With depth=1 the first
 * request enters slot 0 at 1 and is looked up at 2, one cycle later than with
 * the default stage: the load completes at 187, its ALU issues then; the
 * second LDG issues at 188, enters at 189, hits at its lookup at 190 and is
 * answered there (a one-slot queue is a 2-cycle hit): ALU ready at 194.
 */
static void test_l1q_hit_after_miss(void)
{
    static const struct {
        const char *stage;
        uint64_t cycles;
    } cases[] = {{"l1q", 232}, {"l1q:depth=1", 194}};
    for (unsigned i = 0; i < 2; i++) {
        wc_config c;
        tiny_config(&c);
        wc_err err = {{0}};
        CHECK_EQ(wc_config_set(&c, "mem_stage", cases[i].stage, "test", &err), 0);
        list_source *l = ls_create(1, 32);
        ls_load(l, 0, 0x10000, 1);
        ls_alu(l, 0, 2, 1);
        ls_load(l, 0, 0x10000, 3);
        ls_alu(l, 0, 4, 3);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.total.cycles, cases[i].cycles);
        CHECK_EQ(st.total.l1.outcome[WC_HIT], 1);
        CHECK_EQ(st.total.l1.outcome[WC_MISS], 1);
        wc_stats_free(&st);
    }
}

/* A depth outside 1..4096 or an unknown parameter is refused when the
 * option is set (naming where it came from and the stage), and a
 * configuration built in code that holds one is refused by the run. */
static void test_l1q_bad_depth(void)
{
    const char *bad[] = {"l1q:depth=0",    "l1q:depth=x",       "l1q:size=4",
                         "l1q:depth=4097", "l1q:depth=4,foo=1", "l1q:issue=4"};
    for (unsigned i = 0; i < 6; i++) {
        wc_config c;
        tiny_config(&c);
        wc_err err = {{0}};
        CHECK_EQ(wc_config_set(&c, "mem_stage", bad[i], "test", &err), -1);
        CHECK(strncmp(err.msg, "test: option -mem_stage: l1q: ", 30) == 0);
        snprintf(c.mem_stage, sizeof c.mem_stage, "%s", bad[i]);
        list_source *l = ls_create(1, 32);
        ls_load(l, 0, 0x10000, 1);
        wc_stats st;
        CHECK(tiny_run(&c, &l->base, &st, NULL, &err) < 0);
        CHECK(strstr(err.msg, "-mem_stage") != NULL);
        wc_stats_free(&st);
    }
}

/* The order in which requests reach the L1 (an L1 listener). */
typedef struct access_log {
    uint64_t line[16];
    unsigned n;
} access_log;

static void log_access(void *ctx, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                       uint64_t now)
{
    access_log *a = ctx;
    if (a->n < 16 && o != WC_RESERVATION_FAIL) a->line[a->n++] = req->addr >> 7;
}

/* Runs `l` on `c`, logging the lines that reach the L1 in order. */
static void run_logged(const wc_config *c, list_source *l, access_log *a)
{
    memset(a, 0, sizeof *a);
    wc_l1_listener lis = {.ctx = a, .on_access = log_access};
    tiny_hooks h = {.listener = &lis};
    wc_stats st;
    CHECK_EQ(tiny_run(c, &l->base, &st, &h, NULL), 0);
    wc_stats_free(&st);
}

static void issue_order(const char *stage, const char *ahead, access_log *a)
{
    wc_config c;
    tiny_config(&c);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&c, "mem_stage", stage, "test", &err), 0);
    CHECK_EQ(wc_config_set(&c, "mem_issue_ahead", ahead, "test", &err), 0);
    list_source *l = ls_create(1, 64);
    ls_load(l, 0, 0x10040, 1); /* bytes 0x10040..0x100bf: lines 0x200 (P), 0x201 (Q) */
    ls_load(l, 0, 0x20000, 2); /* line 0x400 (R), independent of the first */
    ls_alu(l, 1, 3, WC_REG_NONE);
    ls_load(l, 1, 0x30000, 4); /* line 0x600 (S) */
    run_logged(&c, l, a);
}

/*
 * -mem_issue_ahead K: memory instructions issued ahead of the LD/ST unit
 * (GPGPU-Sim's ID_OC_MEM register and memory operand collectors), in front
 * of either stage.  GTO, one scheduler.  Warp 0: LD P,Q (two requests);
 * LD R.  Warp 1: ALU; LD S.
 *   K=0: cycle 0 warp 0's first load is taken; its two requests leave the
 *   stage at 1 and 2 (inorder: to the L1; l1q: into the queue), and until
 *   the second has, the stage is full.  At 1 GTO's greedy warp 0 wants the
 *   stage, so warp 1's ALU issues and warp 1 becomes the greedy warp; at 2
 *   the stage frees and warp 1's LD S goes before warp 0's LD R: the L1 sees
 *   P Q S R.
 *   K=1 (and the Fermi default, auto = 4): at 1 there is a place ahead of
 *   the stage, so greedy warp 0 issues LD R at once: P Q R S.
 */
static void check_order(const char *stage, const char *ahead, const uint64_t want[4])
{
    access_log a;
    issue_order(stage, ahead, &a);
    CHECK_EQ(a.n, 4);
    for (unsigned i = 0; i < 4; i++) CHECK_EQ(a.line[i], want[i]);
}

static void test_issue_ahead(void)
{
    static const uint64_t psqr[4] = {0x200, 0x201, 0x600, 0x400};
    static const uint64_t pqrs[4] = {0x200, 0x201, 0x400, 0x600};
    static const char *const stage[2] = {"inorder", "l1q"};
    for (unsigned i = 0; i < 2; i++) {
        check_order(stage[i], "0", psqr);
        check_order(stage[i], "1", pqrs);
        check_order(stage[i], "auto", pqrs);
    }
}

/*
 * -exit_store_acks 1 alone takes a lean present for reads (sm.c,
 * env_present_acks); a listener must still see every access then.  The
 * loads of test_issue_ahead's K=1 case, where stores' acknowledgements play
 * no part: P Q R S with the acknowledgements on as off.
 */
static void test_store_acks_listener(void)
{
    static const uint64_t pqrs[4] = {0x200, 0x201, 0x400, 0x600};
    for (uint32_t acks = 0; acks < 2; acks++) {
        wc_config c;
        tiny_config(&c);
        c.exit_store_acks = acks;
        wc_err err = {{0}};
        CHECK_EQ(wc_config_set(&c, "mem_issue_ahead", "1", "test", &err), 0);
        list_source *l = ls_create(1, 64);
        ls_load(l, 0, 0x10040, 1);
        ls_load(l, 0, 0x20000, 2);
        ls_alu(l, 1, 3, WC_REG_NONE);
        ls_load(l, 1, 0x30000, 4);
        access_log a;
        run_logged(&c, l, &a);
        CHECK_EQ(a.n, 4);
        for (unsigned i = 0; i < 4; i++) CHECK_EQ(a.line[i], pqrs[i]);
    }
}

/*
 * -sched_rotate: two schedulers (warp 0 on scheduler 0, warp 1 on scheduler
 * 1), nothing issued ahead of the inorder stage, so one memory instruction
 * is taken per free stage.  Each warp: ALU (r3), then an independent load
 * (warp 0: line 0x200, warp 1: line 0x400).  Cycle 0: both ALUs issue (one
 * per scheduler).  Cycle 1: both loads are ready and the stage is free; the
 * scheduler that goes first takes it, the other finds it full and issues its
 * load at 2, when the first load's request has left the stage.
 *   sched_rotate 0: scheduler 0 always first: 0x200, then 0x400.
 *   sched_rotate 1: cycle 1 starts with scheduler 1 % 2 = 1: 0x400, 0x200.
 */
static void rotate_order(uint32_t rotate, uint64_t first, uint64_t second)
{
    wc_config c;
    tiny_config(&c);
    c.n_sched_per_sm = 2;
    c.sched_rotate = rotate;
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&c, "mem_issue_ahead", "0", "test", &err), 0);
    list_source *l = ls_create(1, 64);
    for (unsigned w = 0; w < 2; w++) {
        ls_alu(l, w, 3, WC_REG_NONE);
        ls_load(l, w, 0x10000 + (uint64_t)w * 0x10000, 1);
    }
    access_log a;
    run_logged(&c, l, &a);
    CHECK_EQ(a.n, 2);
    CHECK_EQ(a.line[0], first);
    CHECK_EQ(a.line[1], second);
}

static void test_sched_rotate(void)
{
    rotate_order(0, 0x200, 0x400);
    rotate_order(1, 0x400, 0x200);
}

/*
 * Two warps load the same line: warp 0 issues at 0 and misses at 1; warp 1
 * issues at 1 (one scheduler issues one warp per cycle; GTO sticks to warp 0
 * whose next instruction waits on r1, so warp 1 goes) and hits the reserved
 * line at 2 (merged in the MSHR).  Both loads complete with the fill at 186.
 * Each ALU issues at 186 and 187 (one per cycle): the last result is ready
 * at 191.
 */
static void test_mshr_merge(void)
{
    wc_config c;
    tiny_config(&c);
    list_source *l = ls_create(1, 64);
    for (unsigned w = 0; w < 2; w++) {
        ls_load(l, w, 0x10000, 1);
        ls_alu(l, w, 2, 1);
    }
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 1);
    CHECK_EQ(st.total.l1.outcome[WC_HIT_RESERVED], 1);
    CHECK_EQ(st.total.l2.accesses, 1);
    CHECK_EQ(st.total.cycles, 191);
    wc_stats_free(&st);
}

/*
 * Stall cycles by reason: one MSHR entry, two warps loading different lines
 * A and B.  By hand: warp 0 issues at 0, its request misses at 1 and takes
 * the only MSHR entry (A's fill comes back at 186, as in the single miss
 * above); the stage is free again in cycle 1 before the scheduler runs, so
 * warp 1 issues at 1 and its request is presented at 2: MSHR_ENTRY_FAIL.  The
 * inorder stage retries at the next fill, 186, where B misses: the stage was
 * stalled 186 - 2 = 184 cycles, all of them by MSHR_ENTRY_FAIL, and the
 * reasons sum to the total.
 */
static void test_stall_cycles_by_reason(void)
{
    wc_config c;
    tiny_config(&c);
    c.l1.mshr_entries = 1;
    list_source *l = ls_create(1, 64);
    ls_load(l, 0, 0x10000, 1);
    ls_alu(l, 0, 2, 1);
    ls_load(l, 1, 0x20000, 1);
    ls_alu(l, 1, 2, 1);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.l1.fail[WC_FAIL_MSHR_ENTRY], 1);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 2);
    CHECK_EQ(st.total.mem_stall_cycles, 184);
    CHECK_EQ(st.total.mem_stall_by[WC_FAIL_MSHR_ENTRY], 184);
    uint64_t sum = 0;
    for (unsigned f = 0; f < WC_FAIL__COUNT; f++) sum += st.total.mem_stall_by[f];
    CHECK_EQ(sum, 184);
    CHECK_EQ(st.kernels[0].mem_stall_by[WC_FAIL_MSHR_ENTRY], 184);
    wc_stats_free(&st);
}

/*
 * Congestion: K warps each miss on a different line of the same DRAM channel
 * (addresses 6 x 256 B apart map to partition 0 of 6).  The DRAM channel moves
 * one 128 B line per 4 cycles, so the K-th response cannot come before
 * (K-1) x 4 cycles after the first: a flood costs more than a trickle.
 */
static uint64_t flood_cycles(unsigned k)
{
    wc_config c;
    tiny_config(&c);
    c.l1.mshr_entries = 64;
    c.l1.miss_queue = 64;
    c.l2.mshr_entries = 64;
    list_source *l = ls_create(1, 32 * k);
    for (unsigned w = 0; w < k; w++) {
        ls_load(l, w, 0x100000 + (uint64_t)w * 6 * 256, 1);
        ls_alu(l, w, 2, 1);
    }
    wc_stats st;
    uint64_t cycles = tiny_simulate(&c, &l->base, &st) == 0 ? st.total.cycles : 0;
    CHECK_EQ(st.total.dram.reads, k);
    wc_stats_free(&st);
    return cycles;
}

static void test_congestion(void)
{
    uint64_t one = flood_cycles(1), many = flood_cycles(32);
    CHECK_EQ(one, 190);
    CHECK(many >= one + 31 * 4);
    /* ... and far less than 32 serial misses. */
    CHECK(many < 32 * one);
}

/* Occupancy: 8 blocks of 192 threads fit (1536 threads, 8 blocks); the
 * ninth waits.  With 16 blocks on 1 SM two waves run: ~2x the cycles of 8. */
static void test_occupancy_waves(void)
{
    wc_config c;
    tiny_config(&c);
    uint64_t cyc[2];
    for (int i = 0; i < 2; i++) {
        list_source *l = ls_create(i ? 16 : 8, 192);
        l->block_stride = 1 << 20;
        for (unsigned w = 0; w < 6; w++) {
            ls_load(l, w, 0x100000 + w * 128, 1);
            ls_alu(l, w, 2, 1);
        }
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        cyc[i] = st.total.cycles;
        wc_stats_free(&st);
    }
    CHECK(cyc[1] > cyc[0] + cyc[0] / 2);
}

/* A kernel that cannot fit is an input error, not a hang. */
static void test_kernel_too_big(void)
{
    wc_config c;
    tiny_config(&c);
    list_source *l = ls_create(1, 32);
    l->k.shmem_bytes = 1 << 20;
    ls_alu(l, 0, 1, WC_REG_NONE);
    wc_err err = {{0}};
    wc_stats st;
    CHECK(tiny_run(&c, &l->base, &st, NULL, &err) < 0);
    CHECK(strstr(err.msg, "does not fit") != NULL);
    wc_stats_free(&st);
}

/* Barrier: warp 1 arrives after a long-latency load; warp 0 must wait. */
static void test_barrier_holds_block(void)
{
    wc_config c;
    tiny_config(&c);
    list_source *l = ls_create(1, 64);
    ls_load(l, 1, 0x20000, 1);
    ls_alu(l, 1, 2, 1); /* waits for the miss: issues at 186 */
    for (unsigned w = 0; w < 2; w++) {
        wc_winst *in = &l->insts[w][l->n_insts[w]++];
        wc_winst_clear(in);
        in->op = WC_OP_BAR;
    }
    ls_alu(l, 0, 3, WC_REG_NONE);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    /* Cycle 0: GTO takes the oldest warp, 0, whose first instruction is the
     * barrier.  Cycle 1: warp 1 issues its LDG, which misses at 2 and is back
     * one cycle later than in test_single_miss_timing, at 187; its ALU issues at
     * 187 and its BAR at 188, which releases warp 0: its ALU issues at 189 and
     * is ready at 193 (warp 1's ALU result is ready at 191). */
    CHECK_EQ(st.total.cycles, 193);
    wc_stats_free(&st);
}

static void run_to_json(const char *workload, char **buf, size_t *len)
{
    wc_config c;
    wc_config_defaults(&c);
    wc_err err = {{0}};
    wc_source *src = wc_workload_open(workload, c.seed, &err);
    wc_stats st;
    CHECK(src != NULL);
    if (!src) return;
    CHECK_EQ(tiny_simulate(&c, src, &st), 0);
    FILE *f = open_memstream(buf, len);
    wc_stats_write_json(&st, f);
    fclose(f);
    wc_stats_free(&st);
}

static void test_deterministic(void)
{
    char *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    run_to_json("micro/stride:n=65536,stride=3", &a, &la);
    run_to_json("micro/stride:n=65536,stride=3", &b, &lb);
    CHECK(la > 0 && la == lb && memcmp(a, b, la) == 0);
    CHECK(strstr(a, "\"reservation_fails\"") != NULL);
    free(a);
    free(b);
}

/* Fully coalesced copy: 1 request per warp load and store, every load a
 * compulsory miss in a 128 B-line L1 (each line read once).  The L2 also
 * reads the kernel's code: its 4 instructions fit one 128 B line, which each
 * of the 15 SMs (32 blocks: every SM has one) misses in its instruction
 * cache once. */
static void test_stream_counts(void)
{
    wc_config c;
    wc_config_defaults(&c);
    wc_err err = {{0}};
    wc_source *src = wc_workload_open("micro/stream:n=8192", 1, &err);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, src, &st), 0);
    CHECK_EQ(st.total.gmem_reqs, 2 * 8192 / 32);
    CHECK_EQ(st.total.l1.reads, 8192 / 32);
    CHECK_EQ(st.total.l1.outcome[WC_HIT], 0);
    CHECK_EQ(st.total.l2.read_bytes, 8192 * 4 + 15 * 128);
    CHECK_EQ(st.total.l2.write_bytes, 8192 * 4);
    wc_stats_free(&st);
}

/* The last store of a kernel is presented in full before the kernel ends.
 * micro/stream:n=65536 copies 65536 4-byte floats: 2048 warp loads and 2048
 * warp stores, each touching one 128 B line = four 32 B requests with
 * -coalesce_bytes 32, so 4 * 4096 = 16384 requests, and every one of them
 * must reach the L1.  Before the fix the last warp retired while the memory
 * stage still held three requests of its store (16381 L1 accesses): a store
 * never delays a warp's retirement, but its requests belong to the kernel. */
static void test_last_store_presented(void)
{
    wc_config c;
    wc_config_defaults(&c);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&c, "coalesce_bytes", "32", "test", &err), 0);
    wc_source *src = wc_workload_open("micro/stream:n=65536", 1, &err);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, src, &st), 0);
    CHECK_EQ(st.total.gmem_reqs, 16384);
    CHECK_EQ(st.total.l1.accesses, 16384);
    CHECK_EQ(st.total.l1.writes, 8192);
    wc_stats_free(&st);
}

/* Every shipped and real configuration builds a GPU that runs a workload. */
static void test_config_files_run(void)
{
    const char *files[] = {"configs/fermi-16k.config",
                           "configs/fermi-48k.config",
                           "../shared/data/gpgpusim-configs/SM2_GTX480/gpgpusim.config",
                           "../shared/data/gpgpusim-configs/SM6_TITANX/gpgpusim.config",
                           "../shared/data/gpgpusim-configs/SM7_QV100/gpgpusim.config",
                           "../shared/data/gpgpusim-configs/SM75_RTX2060/gpgpusim.config"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        wc_config c;
        wc_config_defaults(&c);
        wc_err err = {{0}};
        int rc = wc_config_load_file(&c, files[i], NULL, NULL, &err);
        CHECK_EQ(rc, 0);
        if (rc < 0) {
            fprintf(stderr, "%s\n", err.msg);
            continue;
        }
        wc_source *src = wc_workload_open("micro/stride:n=16384,stride=2", c.seed, &err);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, src, &st), 0);
        CHECK_EQ(st.total.gmem_reqs, 16384 / 32 * 3); /* load spans 2 lines, store 1 */
        CHECK(st.total.cycles > 0);
        wc_stats_free(&st);
    }
}

/*
 * The real vectoradd trace (GTX 1080, 100 floats, one block of 1024 threads):
 * only warps 0..3 have active lanes at the loads (threads 0..99); each warp's
 * 32 floats lie in one aligned 128 B line of each array, so every memory
 * instruction is one request: 4 warps x (2 loads + 1 store) = 12 requests,
 * 8 reads that all miss (distinct lines) and 4 write-evict writes.
 */
static void test_real_trace_vectoradd(void)
{
    wc_config c;
    wc_config_defaults(&c);
    c.icache = 0; /* the data requests only (the code's lines are test_icache's) */
    wc_err err = {{0}};
    wc_source *src = wc_trace_open("../shared/data/traces/accelsim/vectoradd-100-32/kernelslist.g",
                                   WC_TRACE_AUTO, NULL, &err);
    CHECK(src != NULL);
    if (!src) return;
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, src, &st), 0);
    CHECK_EQ(st.total.gmem_reqs, 12);
    CHECK_EQ(st.total.l1.reads, 8);
    CHECK_EQ(st.total.l1.writes, 4);
    CHECK_EQ(st.total.l1.outcome[WC_MISS], 12);
    CHECK_EQ(st.total.l2.read_bytes, 8 * 128);
    CHECK_EQ(st.total.op_count[WC_OP_LDG], 8); /* warps 4..31 exit at the bounds check */
    wc_stats_free(&st);
}

/* Round trip: built-in workload -> Accel-Sim text -> .wct -> simulate gives
 * the statistics of simulating the workload directly, byte for byte. */
static void test_round_trip_same_stats(void)
{
    const char *wl = "micro/stride:n=8192,stride=3";
    char *direct = NULL, *via = NULL;
    size_t ld = 0, lv = 0;
    run_to_json(wl, &direct, &ld);
    char dir[] = "/tmp/wc-rt.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char wct[300], list[300];
    snprintf(wct, sizeof wct, "%s/t.wct", dir);
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    wc_err err = {{0}};
    wc_source *src = wc_workload_open(wl, 1, &err);
    CHECK_EQ(wc_trace_write_accelsim(src, dir, &err), 0);
    wc_source_destroy(src);
    src = wc_trace_open(list, WC_TRACE_AUTO, NULL, &err);
    CHECK(src != NULL);
    CHECK_EQ(wc_trace_write_wct(src, wct, NULL, &err), 0);
    wc_source_destroy(src);
    src = wc_trace_open(wct, WC_TRACE_AUTO, NULL, &err);
    CHECK(src != NULL);
    if (src) {
        wc_config c;
        wc_config_defaults(&c);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, src, &st), 0);
        snprintf(st.workload, sizeof st.workload, "%s", "");
        FILE *f = open_memstream(&via, &lv);
        wc_stats_write_json(&st, f);
        fclose(f);
        wc_stats_free(&st);
        /* Kernel names survive the trip; compare everything after them. */
        const char *a = strstr(direct, "\"id\""), *b = strstr(via, "\"id\"");
        CHECK(a && b && strcmp(a, b) == 0);
    }
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ(system(cmd), 0);
    free(direct);
    free(via);
}

/* Two launches of a kernel reading one line: the second launch misses again
 * when L1s are flushed between kernels, and hits when they are not. */
static void test_flush_between_kernels(void)
{
    for (int flush = 0; flush <= 1; flush++) {
        wc_config c;
        tiny_config(&c);
        c.l1_flush = flush;
        list_source *l = ls_create(1, 32);
        l->kernels_left = 2;
        ls_load(l, 0, 0x10000, 1);
        ls_alu(l, 0, 2, 1);
        wc_stats st;
        CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
        CHECK_EQ(st.n_kernels, 2);
        CHECK_EQ(st.kernels[1].l1.outcome[WC_HIT], flush ? 0 : 1);
        CHECK_EQ(st.kernels[1].l1.outcome[WC_MISS], flush ? 1 : 0);
        CHECK_EQ(st.total.l1.evictions, flush ? 2 : 0);
        wc_stats_free(&st);
    }
}

/*
 * Blocks whose warps retire at different times (some wait for a load): every
 * warp of every block still runs exactly once.  (test_ragged_2dconv below is
 * the case that once failed with "no room on SM".)
 */
static void test_ragged_block_retirement(void)
{
    wc_config c;
    tiny_config(&c);
    list_source *l = ls_create(64, 256);
    l->block_stride = 4096;
    for (unsigned w = 0; w < 8; w++) {
        if (w % 3 == 2) {
            ls_load(l, w, 0x100000 + w * 128, 1);
            ls_alu(l, w, 2, 1);
        } else {
            ls_alu(l, w, 1, WC_REG_NONE);
        }
    }
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    /* warps 2 and 5 run 2 instructions, the other 6 run 1: 10 per block */
    CHECK_EQ(st.total.warp_insts, 64 * 10);
    wc_stats_free(&st);
}

/* Warp instructions of a workload, pulled straight from its source. */
static uint64_t count_source_insts(const char *spec)
{
    wc_err err = {{0}};
    wc_source *src = wc_workload_open(spec, 1, &err);
    uint64_t n = 0;
    wc_kernel k;
    wc_winst in;
    while (src && src->ops->next_kernel(src, &k, &err) > 0)
        for (uint64_t b = 0; b < wc_dim3_count(k.grid); b++) {
            void *blk;
            if (src->ops->open_block(src, b, &blk, &err) < 0) break;
            for (uint32_t w = 0; w < wc_kernel_warps_per_block(&k); w++)
                while (src->ops->next_inst(src, blk, w, &in, &err) > 0) n++;
            src->ops->close_block(src, blk);
        }
    wc_source_destroy(src);
    return n;
}

/* The same regression on the workload that exposed it: 2dconv's border warps
 * finish early.  Every instruction the source yields is issued exactly once. */
static void test_ragged_2dconv(void)
{
    const char *spec = "polybench/2dconv:scale=0.125";
    wc_config c;
    wc_config_defaults(&c);
    wc_err err = {{0}};
    wc_source *src = wc_workload_open(spec, 1, &err);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, src, &st), 0);
    CHECK_EQ(st.total.warp_insts, count_source_insts(spec));
    wc_stats_free(&st);
}

/* -max_cycles stops the run with the statistics of the cycles simulated,
 * marked truncated, and every open block handed back (ASan checks leaks). */
static void test_max_cycles_truncates(void)
{
    wc_config c;
    wc_config_defaults(&c);
    c.max_cycles = 5000;
    wc_err err = {{0}};
    wc_source *src = wc_workload_open("micro/colcopy:h=256", 1, &err);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, src, &st), 0);
    CHECK(st.truncated);
    CHECK_STR(st.truncated_in, "colcopy");
    CHECK_EQ(st.total.cycles, 5000);
    CHECK(st.total.l1.accesses > 0);
    wc_stats_free(&st);
}

/* What the progress callback saw: calls inside the first kernel before any
 * block finished, and whether the reported cycles only grew. */
typedef struct progress_log {
    unsigned calls, before_first_block;
    uint64_t last_cycle, widest_gap;
    bool monotonic;
} progress_log;

static void log_progress(void *ctx, const wc_kernel *k, uint64_t done, uint64_t total,
                         uint64_t cycle)
{
    progress_log *l = ctx;
    if (k->id == 1 && done == 0) l->before_first_block++;
    if (l->calls && cycle < l->last_cycle) l->monotonic = false;
    if (l->calls && cycle - l->last_cycle > l->widest_gap) l->widest_gap = cycle - l->last_cycle;
    l->calls++;
    l->last_cycle = cycle;
}

/* The callback also fires between finished blocks, every few thousand cycles
 * (a kernel of few long blocks reports while it runs), and changes nothing. */
static void test_progress_on_cycles(void)
{
    wc_config c;
    wc_config_defaults(&c);
    wc_err err = {{0}};
    /* 2 blocks a kernel at this size: the first finishes after ~100k cycles */
    wc_run_spec spec = {.workload = "polybench/atax:scale=0.125"};
    wc_stats plain, watched;
    wc_stats_init(&plain);
    wc_stats_init(&watched);
    CHECK_EQ(wc_run_simulation(&c, &spec, &plain, &err), 0);
    progress_log l = {.monotonic = true};
    spec.progress = log_progress;
    spec.progress_ctx = &l;
    CHECK_EQ(wc_run_simulation(&c, &spec, &watched, &err), 0);
    CHECK(l.before_first_block >= 10);
    CHECK(l.monotonic);
    /* between two calls at most the timer's 4096 cycles, plus one step of the
     * clock (an idle stretch jumps at once to the next event) */
    CHECK(l.widest_gap < 4096 + 2000);
    CHECK_EQ(watched.total.cycles, plain.total.cycles);
    CHECK_EQ(wc_kstats_l1_misses(&watched.total), wc_kstats_l1_misses(&plain.total));
    wc_stats_free(&plain);
    wc_stats_free(&watched);
}

/*
 * Sleeping over a held reservation fail (wc_stage_fail_holds_until): a
 * stage whose head failed for a reason the L1 says holds sleeps to the
 * first cycle it has other work, and counts the attempts of the cycles it
 * slept through when it next runs.  The reference is the same run with an
 * access listener that does nothing: a listener sees each attempt, so the
 * engine refuses the sleep there (sm.c, env_fail_holds_until) and the stage
 * retries every cycle, as before.  Everything reported must be the same,
 * the fail counts by reason and the stall cycles by reason included, while
 * the stage runs fewer cycles.
 */
static void ignore_access(void *ctx, int sm, const wc_mem_req *req, wc_outcome o,
                          wc_fail_reason why, uint64_t now)
{
}

/* A stage that runs another and counts the cycles it ran (one run at a time). */
static const wc_mstage_ops *counted;
static uint64_t counted_cycles;

static wc_mstage *counting_create(wc_stage_env *env, const wc_param_values *p, wc_err *err)
{
    return counted->create(env, p, err);
}

static void counting_destroy(wc_mstage *ms)
{
    counted->destroy(ms);
}

static void counting_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n,
                            uint32_t load, uint64_t now)
{
    counted->accept(ms, slot, reqs, n, load, now);
}

static void counting_cycle(wc_mstage *ms, uint64_t now)
{
    counted_cycles++;
    counted->cycle(ms, now);
}

/* Runs src on c through `stage` (counted), with the do-nothing listener or
 * without; the statistics as JSON, the stage's cycles and the fails. */
static void run_counted(const wc_config *c, wc_source *src, const wc_mstage_ops *stage,
                        bool listener, char **json, size_t *len, uint64_t *cycles,
                        uint64_t fails[WC_FAIL__COUNT])
{
    static wc_mstage_ops ops;
    ops = (wc_mstage_ops){.name = "counting",
                          .params = stage->params,
                          .create = counting_create,
                          .destroy = counting_destroy,
                          .accept = counting_accept,
                          .cycle = counting_cycle};
    counted = stage;
    counted_cycles = 0;
    wc_l1_listener lis = {.on_access = ignore_access};
    tiny_hooks h = {.stage = &ops, .listener = listener ? &lis : NULL};
    wc_stats st;
    CHECK_EQ(tiny_run(c, src, &st, &h, NULL), 0);
    FILE *f = open_memstream(json, len);
    wc_stats_write_json(&st, f);
    fclose(f);
    *cycles = counted_cycles;
    for (unsigned r = 0; r < WC_FAIL__COUNT; r++) fails[r] = st.total.l1.fail[r];
    wc_stats_free(&st);
}

/* Random traffic: each warp of 8 alternates gathers of 32 random words
 * (up to 32 requests an instruction, so requests keep entering behind a
 * failing head) over a small footprint shared by every block, and stores. */
static wc_source *random_traffic(uint64_t seed)
{
    list_source *l = ls_create(45, 256);
    for (unsigned w = 0; w < 8; w++)
        for (unsigned i = 0; i < 24; i++) {
            wc_winst *in = &l->insts[w][l->n_insts[w]++];
            wc_winst_clear(in);
            in->width = 4;
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            if (i % 3 == 2) { /* a store of one to four lines */
                in->op = WC_OP_STG;
                in->amode = WC_ADDR_STRIDE;
                in->base = 0x100000 + (seed >> 40) % 4096 * 128;
                in->stride = 4u << (seed >> 20) % 3;
                continue;
            }
            in->op = WC_OP_LDG;
            in->amode = WC_ADDR_LIST;
            for (unsigned t = 0; t < 32; t++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                in->addr[t] = 0x100000 + (seed >> 33) % (96 * 1024) * 4;
            }
            in->dst[in->ndst++] = (uint16_t)(1 + i % 8);
        }
    return &l->base;
}

typedef struct held_case {
    const char *what;    /* a workload, or "random" */
    const char *stage;   /* -mem_stage */
    uint32_t miss_queue; /* 0: the default */
    uint32_t max_merge;  /* 0: the default */
    uint32_t mshr;       /* 0: the default */
    uint32_t l1_latency; /* 0: the default; l1q's depth */
    bool sleeps;         /* the stage must run fewer cycles */
} held_case;

static void test_held_fail_sleep(void)
{
    extern const wc_mstage_ops wc_mstage_l1q;
    static const held_case cases[] = {
        /* l1q: the next head's fail decided ahead (every MSHR taken) */
        {"micro/colcopy:h=128", "l1q", 0, 0, 0, 0, true},
        {"polybench/atax:scale=0.0625", "l1q", 0, 0, 0, 0, true},
        /* miss-queue fails held until a slot frees */
        {"micro/stream:n=131072", "l1q", 1, 0, 0, 0, true},
        {"micro/stream:n=131072", "inorder", 1, 0, 0, 0, true},
        /* random gathers and stores: every reason, short queues */
        {"random", "l1q", 0, 0, 0, 0, true},
        {"random", "l1q", 2, 2, 8, 0, true},
        {"random", "l1q", 1, 1, 0, 0, true},
        {"random", "l1q", 1, 0, 0, 2, true},
        {"random", "l1q", 2, 0, 4, 3, true},
        {"random", "inorder", 1, 0, 0, 0, true},
        {"random", "inorder", 0, 0, 0, 0, false},
    };
    uint64_t seen[WC_FAIL__COUNT] = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const held_case *k = &cases[i];
        char *json[2] = {NULL, NULL};
        size_t len[2] = {0, 0};
        uint64_t cycles[2], fails[2][WC_FAIL__COUNT];
        for (int ref = 0; ref < 2; ref++) {
            wc_config c;
            wc_config_defaults(&c);
            wc_err err = {{0}};
            CHECK_EQ(wc_config_set(&c, "mem_stage", k->stage, "test", &err), 0);
            if (k->miss_queue) c.l1.miss_queue = k->miss_queue;
            if (k->max_merge) c.l1.mshr_max_merge = k->max_merge;
            if (k->mshr) c.l1.mshr_entries = k->mshr;
            if (k->l1_latency) c.l1_latency = k->l1_latency;
            wc_source *src = strcmp(k->what, "random") == 0
                                 ? random_traffic(i)
                                 : wc_workload_open(k->what, c.seed, &err);
            CHECK(src != NULL);
            if (!src) return;
            const wc_mstage_ops *ops =
                strcmp(k->stage, "l1q") == 0 ? &wc_mstage_l1q : &wc_mstage_inorder;
            run_counted(&c, src, ops, ref, &json[ref], &len[ref], &cycles[ref], fails[ref]);
        }
        bool same = len[0] == len[1] && memcmp(json[0], json[1], len[0]) == 0;
        if (!same)
            fprintf(stderr, "  case %zu (%s, %s): statistics differ\n", i, k->what, k->stage);
        CHECK(same);
        uint64_t all = 0;
        for (unsigned r = 0; r < WC_FAIL__COUNT; r++) {
            CHECK_EQ(fails[0][r], fails[1][r]);
            all += fails[1][r];
            seen[r] += fails[1][r];
        }
        CHECK(all > 0);
        if (k->sleeps) CHECK(cycles[0] < cycles[1]);
        fprintf(stderr, "  case %zu: %llu fails, stage cycles %llu (per-cycle retries %llu)\n", i,
                (unsigned long long)all, (unsigned long long)cycles[0],
                (unsigned long long)cycles[1]);
        free(json[0]);
        free(json[1]);
    }
    /* Every reason a read can fail for was slept over somewhere. */
    CHECK(seen[WC_FAIL_LINE_ALLOC] > 0);
    CHECK(seen[WC_FAIL_MISS_QUEUE_FULL] > 0);
    CHECK(seen[WC_FAIL_MSHR_ENTRY] > 0);
    CHECK(seen[WC_FAIL_MSHR_MERGE] > 0);
}

int main(void)
{
    RUN(test_progress_on_cycles);
    RUN(test_max_cycles_truncates);
    RUN(test_ragged_block_retirement);
    RUN(test_ragged_2dconv);
    RUN(test_flush_between_kernels);
    RUN(test_real_trace_vectoradd);
    RUN(test_round_trip_same_stats);
    RUN(test_single_miss_timing);
    RUN(test_dram_timing);
    RUN(test_launch_latency);
    RUN(test_ifetch_front_end);
    RUN(test_oc_wb_latency);
    RUN(test_hit_after_miss);
    RUN(test_l1q_single_miss);
    RUN(test_l1q_hit_after_miss);
    RUN(test_l1q_bad_depth);
    RUN(test_issue_ahead);
    RUN(test_store_acks_listener);
    RUN(test_sched_rotate);
    RUN(test_mshr_merge);
    RUN(test_stall_cycles_by_reason);
    RUN(test_congestion);
    RUN(test_occupancy_waves);
    RUN(test_kernel_too_big);
    RUN(test_barrier_holds_block);
    RUN(test_deterministic);
    RUN(test_stream_counts);
    RUN(test_last_store_presented);
    RUN(test_config_files_run);
    RUN(test_held_fail_sleep);
    return check_summary("engine");
}
