/*
 * test_localxbar.c - GPGPU-Sim 4.x's local crossbar (-icnt_model local,
 * src/mem/localxbar.c) behind the wc_xbar interface: its option, and
 * arrival cycles derived by hand from GPGPU-Sim 4.2's xbar_router
 * (local_interconnect.cc) and the order of gpgpu_sim::cycle: in cycle c an
 * L2 pushes a reply into its input (one a cycle, while the input holds
 * fewer than its limit), then the router moves, for each output in index
 * order, one head packet; the SM takes it from its output in cycle c + 1 at
 * the earliest, one a cycle, and it arrives LAT + eject core cycles later.
 * So an unloaded packet ready at r arrives at r + 1 + LAT + 1.
 */
#include <string.h>

#include "check.h"
#include "mem/xbar.h"
#include "warpcache/config.h"

#define LAT 10 /* core cycles from the SM's output to the SM */

static wc_lxbar_params params(uint32_t in_limit, uint32_t arbiter, uint32_t grant)
{
    return (wc_lxbar_params){
        .in_limit = in_limit, .out_limit = 512, .arbiter = arbiter, .grant_cycles = grant};
}

static wc_xbar *make(unsigned n_in, unsigned n_out, wc_lxbar_params lp)
{
    wc_err err;
    bool is_xbar;
    wc_xbar_params p;
    CHECK_EQ(wc_xbar_parse("local", 0, &is_xbar, &p, &err), 0);
    CHECK(is_xbar);
    p.local = lp;
    return wc_xbar_new(n_in, n_out, &p, 1.0, LAT, &err);
}

/* One packet (its own record) from `in` to `out`, ready at `ready`. */
static uint32_t send(wc_xbar *x, unsigned in, unsigned out, uint64_t ready)
{
    uint32_t r = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send(x, in, out, ready, 1, 1.0, r), 0);
    wc_xbar_close(x, r);
    return r;
}

/* Runs the crossbar cycle by cycle to `until`, recording arrivals by id. */
static void run_to(wc_xbar *x, uint64_t until, uint64_t *got)
{
    for (uint64_t t = 0; t <= until; t++) {
        wc_xbar_run(x, t);
        const uint32_t *ids;
        const uint64_t *times;
        size_t n = wc_xbar_done(x, &ids, &times);
        for (size_t k = 0; k < n; k++) got[ids[k]] = times[k];
    }
}

static void test_parse(void)
{
    wc_err err;
    bool x;
    wc_xbar_params p;
    CHECK_EQ(wc_xbar_parse("local", 0, &x, &p, &err), 0);
    CHECK(x);
    CHECK_EQ(p.kind, WC_XBAR_LOCAL);
    CHECK_EQ(wc_xbar_parse("auto", 2, &x, &p, &err), 0); /* -network_mode 2 */
    CHECK(x);
    CHECK_EQ(p.kind, WC_XBAR_LOCAL);
    CHECK_EQ(wc_xbar_parse("auto", 1, &x, &p, &err), 0);
    CHECK_EQ(p.kind, WC_XBAR_ISLIP);
    CHECK(wc_xbar_parse("local:in=4", 0, &x, &p, &err) < 0);
    CHECK(strstr(err.msg, "local:in=4") != NULL && strstr(err.msg, "no parameters") != NULL);
    /* the options and their ranges (GPGPU-Sim's defaults; 4.2 works only
     * with two subnets) */
    wc_config c;
    wc_config_defaults(&c);
    CHECK_EQ(c.icnt_in_buffer_limit, 64);
    CHECK_EQ(c.icnt_out_buffer_limit, 64);
    CHECK_EQ(c.icnt_subnets, 2);
    CHECK_EQ(c.icnt_arbiter_algo, 1);
    CHECK_EQ(c.icnt_grant_cycles, 1);
    CHECK_EQ(wc_config_set(&c, "icnt_in_buffer_limit", "512", "t", &err), 0);
    CHECK_EQ(c.icnt_in_buffer_limit, 512);
    CHECK(wc_config_set(&c, "icnt_subnets", "1", "f:3", &err) < 0);
    CHECK(strstr(err.msg, "f:3") != NULL && strstr(err.msg, "icnt_subnets") != NULL);
    CHECK(wc_config_set(&c, "icnt_arbiter_algo", "2", "f:4", &err) < 0);
    CHECK(wc_config_set(&c, "icnt_in_buffer_limit", "0", "f:5", &err) < 0);
}

/* Ready at 5: enters and crosses in cycle 5, taken at 6, arrives 6 + 10 + 1. */
static void test_unloaded(void)
{
    uint64_t got[4] = {0};
    wc_xbar *x = make(2, 2, params(512, 1, 1));
    uint32_t a = send(x, 1, 0, 5);
    CHECK_EQ(wc_xbar_next(x), 5);
    run_to(x, 40, got);
    CHECK_EQ(got[a], 17);
    CHECK_EQ(wc_xbar_next(x), WC_NEVER);
    CHECK_EQ(wc_xbar_pending(x), 0);
    wc_xbar_free(x);
}

/* Three inputs, one output, all ready at 0: one packet a cycle crosses
 * (taken at 1, 2, 3), in round-robin order from input 0.  The SM takes one
 * a cycle, so an output buffer of one packet is as fast: it is empty again
 * whenever the router moves. */
static void test_one_per_output(void)
{
    for (uint32_t out_limit = 1; out_limit <= 512; out_limit += 511) {
        uint64_t got[4] = {0};
        wc_lxbar_params lp = params(512, 1, 1);
        lp.out_limit = out_limit;
        wc_xbar *x = make(3, 2, lp);
        uint32_t r2 = send(x, 2, 0, 0), r0 = send(x, 0, 0, 0), r1 = send(x, 1, 0, 0);
        run_to(x, 40, got);
        CHECK_EQ(got[r0], 12);
        CHECK_EQ(got[r1], 13);
        CHECK_EQ(got[r2], 14);
        wc_xbar_free(x);
    }
}

/* iSLIP's pointer: input 2 alone wins output 0 at cycle 0, so the pointer
 * is at input 3; at cycle 20 inputs 0 and 3 ask: 3 first (taken at 21,
 * arrives 32), then 0 (33).  Lowest index first would give 0 first. */
static void test_islip_pointer(void)
{
    uint64_t got[4] = {0};
    wc_xbar *x = make(4, 1, params(512, 1, 1));
    uint32_t a = send(x, 2, 0, 0), b0 = send(x, 0, 0, 20), b3 = send(x, 3, 0, 20);
    run_to(x, 60, got);
    CHECK_EQ(got[a], 12);
    CHECK_EQ(got[b3], 32);
    CHECK_EQ(got[b0], 33);
    wc_xbar_free(x);
}

/* -icnt_grant_cycles: input 0 has two packets for output 0 (ready 0 and 0:
 * they enter at 0 and 1), input 1 one (ready 0).  With 1 the pointer moves
 * past input 0 at its first grant: 0, 1, 0 (taken 1, 2, 3).  With 2 it
 * moves only in every second busy cycle (the first busy cycle counts the
 * counter down from 2 to 1, the second updates): cycle 0 input 0, cycle 1
 * input 0 again (the pointer still at 0), cycle 2 input 1. */
static void test_grant_cycles(void)
{
    for (uint32_t g = 1; g <= 2; g++) {
        uint64_t got[4] = {0};
        wc_xbar *x = make(2, 1, params(512, 1, g));
        uint32_t a1 = send(x, 0, 0, 0), a2 = send(x, 0, 0, 0), b = send(x, 1, 0, 0);
        run_to(x, 40, got);
        CHECK_EQ(got[a1], 12);
        CHECK_EQ(got[a2], g == 1 ? 14 : 13);
        CHECK_EQ(got[b], g == 1 ? 13 : 14);
        wc_xbar_free(x);
    }
}

/* The outputs' order, the input buffer limit, and the two arbiters, on
 * three inputs and two outputs:
 *   input 1: C for output 0, ready 0
 *   input 2: D1, D2 for output 0, ready 0 and 1
 *   input 0: A for output 0 and B for output 1, ready 1 (A enters at 1,
 *            B at 2: one push a cycle)
 * iSLIP (pointers at input 0):
 *   cycle 0: output 0 takes C (first asker from 0), pointer -> 2
 *   cycle 1: output 0 takes D1, pointer -> 0; A is in, waiting
 *   cycle 2: output 0 takes A; then output 1 takes B, input 0's new head,
 *            in the same cycle (outputs are visited after one another)
 *   cycle 3: output 0 takes D2
 * so C 12, D1 13, A 14, B 14, D2 15.  With an input buffer of one packet
 * B enters only at 3, after A left: B 15.
 * Naive round robin (5 nodes; cycle c starts at node c % 5, the inputs are
 * nodes 2..4 after the two SMs, so cycles 0-2 start at input 0 and cycle 3
 * at input 1), each input once a cycle, each output once:
 *   cycle 0: C (input 1); D1 loses output 0
 *   cycle 1: A (input 0 first); D1 loses again
 *   cycle 2: B (input 0), D1 (output 0 free)
 *   cycle 3: D2
 * so C 12, A 13, B 14, D1 14, D2 15. */
static void test_arbitration(void)
{
    struct {
        uint32_t arb, in_limit;
        uint64_t c, d1, a, b, d2;
    } cases[] = {
        {1, 512, 12, 13, 14, 14, 15},
        {1, 1, 12, 13, 14, 15, 15},
        {0, 512, 12, 14, 13, 14, 15},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint64_t got[8] = {0};
        wc_xbar *x = make(3, 2, params(cases[k].in_limit, cases[k].arb, 1));
        uint32_t c = send(x, 1, 0, 0), d1 = send(x, 2, 0, 0), d2 = send(x, 2, 0, 1);
        uint32_t a = send(x, 0, 0, 1), b = send(x, 0, 1, 1);
        run_to(x, 40, got);
        CHECK_EQ(got[c], cases[k].c);
        CHECK_EQ(got[d1], cases[k].d1);
        CHECK_EQ(got[a], cases[k].a);
        CHECK_EQ(got[b], cases[k].b);
        CHECK_EQ(got[d2], cases[k].d2);
        wc_xbar_free(x);
    }
}

/* The naive round robin's start moves every cycle, busy or not: with two
 * inputs and two SMs (4 nodes), in cycle 3 it starts at input 1 (node 3),
 * in cycle 0 at input 0.  Both inputs ask for output 0. */
static void test_rr_rotation(void)
{
    for (uint64_t r = 0; r <= 3; r += 3) {
        uint64_t got[4] = {0};
        wc_xbar *x = make(2, 2, params(512, 0, 1));
        uint32_t a = send(x, 0, 0, r), b = send(x, 1, 0, r);
        run_to(x, 40, got);
        CHECK_EQ(got[a], r == 0 ? 12 : 16);
        CHECK_EQ(got[b], r == 0 ? 13 : 15);
        wc_xbar_free(x);
    }
}

/* Several packets of one request complete it with the last; a write's ack
 * (WC_XBAR_NONE) completes nothing. */
static void test_records(void)
{
    uint64_t got[4] = {0};
    wc_xbar *x = make(2, 1, params(512, 1, 1));
    uint32_t r = wc_xbar_open(x);
    uint64_t ready[4] = {0, 1, 2, 3}; /* a sectored L2's four sectors */
    CHECK_EQ(wc_xbar_send_n(x, 0, 0, ready, 4, 1, 1.0, r), 0);
    wc_xbar_close(x, r);
    CHECK_EQ(wc_xbar_send(x, 1, 0, 0, 1, 1.0, WC_XBAR_NONE), 0); /* ack: takes cycle 1 */
    CHECK_EQ(wc_xbar_pending(x), 5);
    run_to(x, 40, got);
    /* cycle 0: sector 0 (input 0 first); 1: the ack (pointer at 1);
     * 2: sector 1 (entered at 1); 3: sector 2; 4: sector 3, taken at 5 */
    CHECK_EQ(got[r], 16);
    CHECK_EQ(wc_xbar_pending(x), 0);
    wc_xbar_free(x);
}

int main(void)
{
    RUN(test_parse);
    RUN(test_unloaded);
    RUN(test_one_per_output);
    RUN(test_islip_pointer);
    RUN(test_grant_cycles);
    RUN(test_arbitration);
    RUN(test_rr_rotation);
    RUN(test_records);
    return check_summary("localxbar");
}
