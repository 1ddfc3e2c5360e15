/*
 * test_xbar.c - the reply crossbar of -icnt_model islip (src/mem/xbar.c):
 * its option, and arrival cycles derived by hand from the rules in xbar.c's
 * header for an unloaded packet, one input's packet rate at internal speedup
 * 2 and 1, head-of-line blocking behind a packet whose output is taken, and
 * request records, and idle gaps the clock jumps over (the router's steps
 * and round-robin pointer across them, run every cycle or at a few), runs
 * of sector packets queued at once and split by a packet ready among them,
 * and wc_xbar_send_n against single sends; an engine that runs the
 * crossbar only from its due cycle (wc_xbar_due) against one that runs it
 * every cycle; then,
 * end to end, that an unloaded miss takes the ports' time on a line-based
 * L2 and three cycles less on a sectored one whose 32 B replies are one
 * flit each.
 */
#include <string.h>

#include "check.h"
#include "listsrc.h"
#include "mem/xbar.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "warpcache/sim.h"

/* The reference crossbar (xbar_ref.h), its public names renamed. */
typedef struct ref_xbar ref_xbar;
void ref_xbar_free(ref_xbar *x);
#define wc_xbar              ref_xbar
#define wc_xbar_islip_params ref_xbar_islip_params
#define wc_xbar_parse        ref_xbar_parse
#define wc_xbar_new          ref_xbar_new
#define wc_xbar_free         ref_xbar_free
#define wc_xbar_open         ref_xbar_open
#define wc_xbar_close        ref_xbar_close
#define wc_xbar_cancel       ref_xbar_cancel
#define wc_xbar_send_n       ref_xbar_send_n
#define wc_xbar_send         ref_xbar_send
#define wc_xbar_run          ref_xbar_run
#define wc_xbar_next         ref_xbar_next
#define wc_xbar_done         ref_xbar_done
#define wc_xbar_pending      ref_xbar_pending
#include "xbar_ref.h"
#undef wc_xbar
#undef wc_xbar_islip_params
#undef wc_xbar_parse
#undef wc_xbar_new
#undef wc_xbar_free
#undef wc_xbar_open
#undef wc_xbar_close
#undef wc_xbar_cancel
#undef wc_xbar_send_n
#undef wc_xbar_send
#undef wc_xbar_run
#undef wc_xbar_next
#undef wc_xbar_done
#undef wc_xbar_pending

#define LAT 10 /* core cycles from the router to the SM */

static wc_xbar *make(unsigned n_in, unsigned n_out, const char *spec)
{
    wc_err err;
    bool is_xbar;
    wc_xbar_params p;
    CHECK_EQ(wc_xbar_parse(spec, 0, &is_xbar, &p, &err), 0);
    CHECK(is_xbar);
    return wc_xbar_new(n_in, n_out, &p, 1.0, LAT, &err);
}

/* Runs the crossbar to cycle `until` and returns the arrival of record
 * `rec` (0 if it has not completed). */
static uint64_t run_until_done(wc_xbar *x, uint32_t rec, uint64_t until, uint64_t *got)
{
    for (uint64_t t = 0; t <= until; t++) {
        wc_xbar_run(x, t);
        const uint32_t *ids;
        const uint64_t *times;
        size_t n = wc_xbar_done(x, &ids, &times);
        for (size_t k = 0; k < n; k++) got[ids[k]] = times[k];
    }
    return got[rec];
}

static void test_parse(void)
{
    wc_err err;
    bool x;
    wc_xbar_params p;
    CHECK_EQ(wc_xbar_parse("ports", 1, &x, &p, &err), 0);
    CHECK(!x);
    CHECK_EQ(wc_xbar_parse("auto", 0, &x, &p, &err), 0);
    CHECK(!x);
    CHECK_EQ(wc_xbar_parse("auto", 2, &x, &p, &err), 0); /* GPGPU-Sim's local crossbar */
    CHECK(x);
    CHECK_EQ(p.kind, WC_XBAR_LOCAL);                     /* test_localxbar.c */
    CHECK_EQ(wc_xbar_parse("auto", 1, &x, &p, &err), 0); /* booksim */
    CHECK(x);
    CHECK_EQ(p.kind, WC_XBAR_ISLIP);
    CHECK_EQ(p.speedup_x100, 200);
    CHECK_EQ(p.out_buf, 64);
    CHECK_EQ(wc_xbar_parse("islip:speedup=1,buf=8", 0, &x, &p, &err), 0);
    CHECK(x);
    CHECK_EQ(p.speedup_x100, 100);
    CHECK_EQ(p.out_buf, 8);
    CHECK_EQ(wc_xbar_parse("islip:speedup=1.5", 0, &x, &p, &err), 0);
    CHECK_EQ(p.speedup_x100, 150);
    CHECK(wc_xbar_parse("islip:speedup=0", 0, &x, &p, &err) < 0);
    CHECK(strstr(err.msg, "speedup=0") != NULL);
    CHECK(wc_xbar_parse("islip:buf=2.5", 0, &x, &p, &err) < 0);
    CHECK(wc_xbar_parse("islip:vcs=2", 0, &x, &p, &err) < 0);
    CHECK(strstr(err.msg, "unknown parameter 'vcs'") != NULL);
    CHECK(wc_xbar_parse("islipx", 0, &x, &p, &err) < 0);
    CHECK(wc_xbar_parse("booksim", 0, &x, &p, &err) < 0);
    CHECK(strstr(err.msg, "unknown interconnect model") != NULL);
    /* the option checker rejects a bad value with its reason */
    wc_config c;
    wc_config_defaults(&c);
    CHECK(wc_config_set(&c, "icnt_model", "islip:speedup=x", "t", &err) < 0);
    CHECK(strstr(err.msg, "icnt_model") != NULL &&
          strstr(err.msg, "speedup=x: must be a number from 0.01 to 64") != NULL);
}

/*
 * Unloaded, speedup 2.  A 1-flit packet ready at 10 enters at 10, wins its
 * output in step 1 of cycle 10, crosses in step 2, leaves at 11 and arrives
 * at 11 + LAT + 1 (its flit taken in by the SM) = 22.  A 4-flit packet
 * enters flit by flit at 10..13 and crosses each as it enters: its tail
 * leaves at 14, arrives at 14 + 10 + 4 = 28 - the timestamped ports' time
 * (L2 port 10..14, crossing 10, SM port 4).
 */
static void test_unloaded(void)
{
    uint64_t got[8] = {0};
    wc_xbar *x = make(2, 2, "islip");
    uint32_t a = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send(x, 0, 1, 10, 1, 1.0, a), 0);
    wc_xbar_close(x, a);
    CHECK_EQ(wc_xbar_next(x), 10);
    CHECK_EQ(run_until_done(x, a, 40, got), 22);
    CHECK_EQ(wc_xbar_next(x), WC_NEVER);
    uint32_t b = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send(x, 1, 0, 50, 4, 4.0, b), 0);
    wc_xbar_close(x, b);
    for (uint64_t t = 41; t < 50; t++) wc_xbar_run(x, t);
    CHECK_EQ(run_until_done(x, b, 80, got) - 50, 18);
    wc_xbar_free(x);
}

/*
 * One input, three 1-flit packets to three outputs, all ready at 0.  Speedup
 * 2: one enters per cycle (the channel), each wins its output in the first
 * step of its cycle and crosses in the second: they leave at 1, 2, 3 and
 * arrive 12, 13, 14.  Speedup 1: a packet needs two cycles (allocation,
 * then switch), and the next one asks only after the tail crossed: the
 * first wins at 0 and crosses at 1 (leaves 2), the second wins at 2 and
 * crosses at 3 (leaves 4), the third leaves 6: arrivals 13, 15, 17.
 */
static void test_packet_rate(void)
{
    const char *spec[2] = {"islip:speedup=2", "islip:speedup=1"};
    const uint64_t want[2][3] = {{12, 13, 14}, {13, 15, 17}};
    for (int s = 0; s < 2; s++) {
        uint64_t got[8] = {0};
        wc_xbar *x = make(1, 3, spec[s]);
        uint32_t r[3];
        for (unsigned k = 0; k < 3; k++) {
            r[k] = wc_xbar_open(x);
            CHECK_EQ(wc_xbar_send(x, 0, k, 0, 1, 1.0, r[k]), 0);
            wc_xbar_close(x, r[k]);
        }
        run_until_done(x, r[2], 40, got);
        for (unsigned k = 0; k < 3; k++) CHECK_EQ(got[r[k]], want[s][k]);
        wc_xbar_free(x);
    }
}

/*
 * Head-of-line blocking.  Input 1 sends a 4-flit packet to output 0 from
 * cycle 0: it holds output 0's channel until its tail crosses in step 1 of
 * cycle 3 (flits enter 0..3), leaves at 4, arrives 4 + 10 + 4 = 18.  Input
 * 0's packet A (1 flit, to output 0) enters at 1 and asks from then on; it
 * wins in step 2 of cycle 3, crosses at 4, leaves at 5, arrives 16.  Its
 * packet B (to the free output 1) entered at 2 but waits behind A: it asks
 * after A's tail crossed, wins in step 2 of cycle 4, crosses at 5, leaves
 * at 6 and arrives 17 - three cycles later than it would have alone (14).
 */
static void test_head_of_line(void)
{
    uint64_t got[8] = {0};
    wc_xbar *x = make(2, 2, "islip");
    uint32_t big = wc_xbar_open(x), a = wc_xbar_open(x), b = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send(x, 1, 0, 0, 4, 4.0, big), 0);
    CHECK_EQ(wc_xbar_send(x, 0, 0, 1, 1, 1.0, a), 0);
    CHECK_EQ(wc_xbar_send(x, 0, 1, 2, 1, 1.0, b), 0);
    wc_xbar_close(x, big);
    wc_xbar_close(x, a);
    wc_xbar_close(x, b);
    run_until_done(x, b, 40, got);
    CHECK_EQ(got[big], 18);
    CHECK_EQ(got[a], 16);
    CHECK_EQ(got[b], 17);
    wc_xbar_free(x);

    /* B alone: enters at 2, leaves at 3, arrives 14 */
    uint64_t alone[8] = {0};
    x = make(2, 2, "islip");
    b = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send(x, 0, 1, 2, 1, 1.0, b), 0);
    wc_xbar_close(x, b);
    CHECK_EQ(run_until_done(x, b, 40, alone), 14);
    wc_xbar_free(x);
}

/*
 * Allocation.  (a) Round-robin: inputs 0 and 1 each send two 1-flit packets
 * to output 0, all ready at 0 (speedup 2).  Cycle 0: both ask, the pointer
 * (0) picks input 0, whose P1 crosses in step 2 (leaves 1) and moves the
 * pointer to 1; input 1 asks again in step 2, but the output is granted
 * again only from the step after the tail crossed.  Cycle 1: both ask (P2
 * entered), the pointer picks input 1: Q1 leaves 2; cycle 2 input 0: P2
 * leaves 3; cycle 3 input 1: Q2 leaves 4.  Arrivals 12, 13 (Q1), 14 (P2),
 * 15.  Were the lowest input always first, P2 would arrive before Q1.
 * (b) An output freed in a step is granted from the next step on: speedup
 * 1, inputs 0 and 1 each one 1-flit packet to output 0, ready at 0.  Input
 * 0 wins in cycle 0, crosses in cycle 1 (leaves 2); input 1, asking in
 * cycle 1 after it, wins only in cycle 2, crosses in 3, leaves 4: arrivals
 * 13 and 15.
 */
static void test_allocation(void)
{
    uint64_t got[8] = {0};
    wc_xbar *x = make(2, 1, "islip");
    uint32_t p1 = wc_xbar_open(x), p2 = wc_xbar_open(x), q1 = wc_xbar_open(x), q2 = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send(x, 0, 0, 0, 1, 1.0, p1), 0);
    CHECK_EQ(wc_xbar_send(x, 0, 0, 0, 1, 1.0, p2), 0);
    CHECK_EQ(wc_xbar_send(x, 1, 0, 0, 1, 1.0, q1), 0);
    CHECK_EQ(wc_xbar_send(x, 1, 0, 0, 1, 1.0, q2), 0);
    uint32_t all[4] = {p1, p2, q1, q2};
    for (int k = 0; k < 4; k++) wc_xbar_close(x, all[k]);
    run_until_done(x, q2, 40, got);
    CHECK_EQ(got[p1], 12);
    CHECK_EQ(got[q1], 13);
    CHECK_EQ(got[p2], 14);
    CHECK_EQ(got[q2], 15);
    wc_xbar_free(x);

    uint64_t got1[8] = {0};
    x = make(2, 1, "islip:speedup=1");
    uint32_t a = wc_xbar_open(x), b = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send(x, 0, 0, 0, 1, 1.0, a), 0);
    CHECK_EQ(wc_xbar_send(x, 1, 0, 0, 1, 1.0, b), 0);
    wc_xbar_close(x, a);
    wc_xbar_close(x, b);
    run_until_done(x, b, 40, got1);
    CHECK_EQ(got1[a], 13);
    CHECK_EQ(got1[b], 15);
    wc_xbar_free(x);
}

/*
 * Records: one request answered by packets from two inputs completes when
 * the later arrives; an acknowledgement (no record) takes the channel but
 * completes nothing; a cancelled record's id is reused.  Input 0's ack (to
 * output 1, ready 0) leaves at 1; its data packet (to output 0, ready 0)
 * enters at 1 behind it, leaves at 2, arrives 13; input 1's packet (to
 * output 0, ready 0) leaves at 1, arrives 12: the record completes at 13.
 */
static void test_records(void)
{
    uint64_t got[8] = {0};
    wc_xbar *x = make(2, 2, "islip");
    uint32_t r = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send(x, 0, 1, 0, 1, 1.0, WC_XBAR_NONE), 0);
    CHECK_EQ(wc_xbar_send(x, 0, 0, 0, 1, 1.0, r), 0);
    CHECK_EQ(wc_xbar_send(x, 1, 0, 0, 1, 1.0, r), 0);
    wc_xbar_close(x, r);
    CHECK_EQ(wc_xbar_pending(x), 3);
    uint64_t seen = 0;
    for (uint64_t t = 0; t <= 30; t++) {
        wc_xbar_run(x, t);
        const uint32_t *ids;
        const uint64_t *times;
        size_t n = wc_xbar_done(x, &ids, &times);
        seen += n;
        for (size_t k = 0; k < n; k++) got[ids[k]] = times[k];
    }
    CHECK_EQ(seen, 1);
    CHECK_EQ(got[r], 13);
    CHECK_EQ(wc_xbar_pending(x), 0);
    uint32_t c = wc_xbar_open(x);
    wc_xbar_cancel(x, c);
    CHECK_EQ(wc_xbar_open(x), c);
    /* A record closed with nothing sent is done at once; a write's record
     * given back before the engine collects it must not take its place in
     * the done list (xbar.c keeps that list above the free ids). */
    wc_xbar_close(x, c);
    uint32_t w = wc_xbar_open(x);
    CHECK(w != c);
    wc_xbar_cancel(x, w);
    const uint32_t *ids;
    const uint64_t *times;
    CHECK_EQ(wc_xbar_done(x, &ids, &times), 1);
    CHECK_EQ(ids[0], c);
    CHECK_EQ(times[0], 0);
    /* both are free again: the next two opens take them, last freed first */
    CHECK_EQ(wc_xbar_open(x), c);
    CHECK_EQ(wc_xbar_open(x), w);
    wc_xbar_free(x);
}

/* Runs the crossbar only at the core cycles in `at` (ascending, the last
 * one past every arrival), as an engine that jumps does, and collects what
 * completed. */
static void run_at(wc_xbar *x, const uint64_t *at, size_t n, uint64_t *got)
{
    for (size_t k = 0; k < n; k++) {
        wc_xbar_run(x, at[k]);
        const uint32_t *ids;
        const uint64_t *times;
        size_t nd = wc_xbar_done(x, &ids, &times);
        for (size_t j = 0; j < nd; j++) got[ids[j]] = times[j];
    }
}

/*
 * Idle gaps the clock jumps over.  (a) Speedup 1.5: the router takes 1 step
 * in a cycle, then 2, then 1 ... counted over the cycles it simulates.  A
 * 1-flit packet ready at 0 enters at 0, wins in cycle 0's one step, crosses
 * in cycle 1's first, leaves at 2, arrives 2 + 10 + 1 = 13; the two cycles
 * leave the step count whole again.  The crossbar is then empty until a
 * packet ready at 101: the 99 empty cycles 2..100 are jumped over and count
 * no steps, so cycle 101 again has one step (the grant) and cycle 102 two
 * (the crossing): it leaves at 103 and arrives 114.  (Had the jump counted
 * 99 x 1.5 steps, cycle 101 would have had two and the packet 113.)
 * (b) The round-robin pointer survives a gap: speedup 2, inputs 0 and 1 to
 * output 0.  Input 0's packet at 0 wins (pointer to 1), leaves at 1,
 * arrives 12.  At 50 both inputs send one: the pointer picks input 1, whose
 * packet leaves at 51 (arrives 62); input 0's asks again in cycle 51, wins,
 * leaves at 52 and arrives 63 (were the lowest input first, 62 and 63 the
 * other way round).  Both hold whether the crossbar is run every cycle or
 * only at a few cycles, as a jumping engine does.
 */
static void test_idle_gaps(void)
{
    const uint64_t sparse[] = {0, 1, 7, 60, 100, 101, 103, 150};
    for (int mode = 0; mode < 2; mode++) {
        uint64_t got[8] = {0};
        wc_xbar *x = make(1, 1, "islip:speedup=1.5");
        uint32_t a = wc_xbar_open(x), b = wc_xbar_open(x);
        CHECK_EQ(wc_xbar_send(x, 0, 0, 0, 1, 1.0, a), 0);
        CHECK_EQ(wc_xbar_send(x, 0, 0, 101, 1, 1.0, b), 0);
        wc_xbar_close(x, a);
        wc_xbar_close(x, b);
        if (mode == 0)
            run_until_done(x, b, 150, got);
        else
            run_at(x, sparse, sizeof sparse / sizeof *sparse, got);
        CHECK_EQ(got[a], 13);
        CHECK_EQ(got[b], 114);
        CHECK_EQ(wc_xbar_pending(x), 0);
        wc_xbar_free(x);

        uint64_t got2[8] = {0};
        x = make(2, 1, "islip");
        uint32_t p = wc_xbar_open(x), q = wc_xbar_open(x), r = wc_xbar_open(x);
        CHECK_EQ(wc_xbar_send(x, 0, 0, 0, 1, 1.0, p), 0);
        wc_xbar_close(x, p);
        if (mode == 1) wc_xbar_run(x, 30); /* the engine sends the rest later */
        CHECK_EQ(wc_xbar_send(x, 0, 0, 50, 1, 1.0, r), 0);
        CHECK_EQ(wc_xbar_send(x, 1, 0, 50, 1, 1.0, q), 0);
        wc_xbar_close(x, q);
        wc_xbar_close(x, r);
        if (mode == 0)
            run_until_done(x, r, 100, got2);
        else
            run_at(x, sparse + 3, 5, got2);
        CHECK_EQ(got2[p], 12);
        CHECK_EQ(got2[q], 62);
        CHECK_EQ(got2[r], 63);
        wc_xbar_free(x);
    }
}

/*
 * Runs of sector packets (wc_xbar_send_n; xbar.c queues them as one entry).
 * Speedup 2, unloaded: a one-flit packet that enters in cycle e wins its
 * output in e's first step and crosses in the second, so it leaves at e + 1
 * and arrives e + 1 + 10 + 1; the next packet asks from e + 1 on.
 * (a) Input 0: A's four packets to output 0 ready at 0, 1, 2, 3 (one call),
 * then B (to output 1) ready at 1 and C (to output 0) ready at 3.  B goes
 * after A's packets ready by 1 and before the rest, C after A's last:
 * A0 A1 B A2 A3 C enter at 0..5, so B leaves at 3 (arrives 14), A's last at
 * 5 (16), C at 6 (17).  (Were B queued behind all of A, it would arrive 16.)
 * (b) A run whose packets have all entered takes one more of its record
 * ready right after them: A's packets ready at 0 and 1 enter at 0 and 1;
 * with cycles 0 and 1 simulated, a third ready at 2 enters at 2, leaves at
 * 3: A arrives 14.
 */
static void test_runs(void)
{
    uint64_t got[8] = {0};
    wc_xbar *x = make(1, 2, "islip");
    const uint64_t ra[4] = {0, 1, 2, 3};
    uint32_t a = wc_xbar_open(x), b = wc_xbar_open(x), c = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send_n(x, 0, 0, ra, 4, 1, 1.0, a), 0);
    CHECK_EQ(wc_xbar_send(x, 0, 1, 1, 1, 1.0, b), 0);
    CHECK_EQ(wc_xbar_send(x, 0, 0, 3, 1, 1.0, c), 0);
    CHECK_EQ(wc_xbar_pending(x), 6);
    wc_xbar_close(x, a);
    wc_xbar_close(x, b);
    wc_xbar_close(x, c);
    run_until_done(x, c, 40, got);
    CHECK_EQ(got[a], 16);
    CHECK_EQ(got[b], 14);
    CHECK_EQ(got[c], 17);
    wc_xbar_free(x);

    uint64_t got2[8] = {0};
    x = make(1, 1, "islip");
    a = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send_n(x, 0, 0, ra, 2, 1, 1.0, a), 0);
    wc_xbar_run(x, 0);
    wc_xbar_run(x, 1);
    CHECK_EQ(wc_xbar_send(x, 0, 0, 2, 1, 1.0, a), 0);
    wc_xbar_close(x, a);
    run_until_done(x, a, 40, got2);
    CHECK_EQ(got2[a], 14);
    wc_xbar_free(x);
}

/*
 * An input's entries keep no entry cycle: the head's is worked out when it
 * becomes the head, from when the flits before it entered.  One input, two
 * outputs, speedup 4 (so the input's feed, a flit a cycle, bounds it): A (3
 * flits, ready 0) enters in cycles 0-2, run B (to output 0, ready 1 and 2)
 * in 3 and 4, D (to output 1, ready 3) in 5, after B.  A leaves in cycle 2
 * (departure 3), B1 in 3 (4), B2 in 4 (5), D in 5 (6), each reaching its SM
 * LAT plus its flits later: A 16, B 16, D 17.  Between cycles 3 and 4 the
 * input holds nothing in the router (B2 enters in 4), and a packet C queued
 * then (ready 20) must not move B2's entry, and so D's, a cycle earlier.
 */
static void test_entry_after_run(void)
{
    uint64_t got[8] = {0};
    wc_xbar *x = make(1, 2, "islip:speedup=4");
    const uint64_t rb[2] = {1, 2};
    uint32_t a = wc_xbar_open(x), b = wc_xbar_open(x), d = wc_xbar_open(x);
    uint32_t c = wc_xbar_open(x); /* now, so that it is not a's id again */
    CHECK_EQ(wc_xbar_send(x, 0, 0, 0, 3, 3.0, a), 0);
    CHECK_EQ(wc_xbar_send_n(x, 0, 0, rb, 2, 1, 1.0, b), 0);
    CHECK_EQ(wc_xbar_send(x, 0, 1, 3, 1, 1.0, d), 0);
    wc_xbar_close(x, a);
    wc_xbar_close(x, b);
    wc_xbar_close(x, d);
    run_until_done(x, a, 3, got);
    CHECK_EQ(wc_xbar_send(x, 0, 0, 20, 1, 1.0, c), 0);
    wc_xbar_close(x, c);
    run_until_done(x, c, 40, got);
    CHECK_EQ(got[a], 16);
    CHECK_EQ(got[b], 16);
    CHECK_EQ(got[d], 17);
    CHECK_EQ(got[c], 20 + 1 + LAT + 1);
    wc_xbar_free(x);
}

/* A small deterministic generator for test_send_n's traffic. */
static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/*
 * wc_xbar_send_n is n wc_xbar_send calls: the same traffic - records of one
 * to four packets, one or two flits, ready in runs one cycle apart or with
 * gaps, from three inputs to three outputs, run cycle by cycle - completes
 * the same records at the same cycles in the same order either way, at
 * three speedups and buffer sizes.
 */
static void test_send_n(void)
{
    const char *spec[3] = {"islip", "islip:speedup=1.5,buf=4", "islip:speedup=1,buf=1"};
    for (int s = 0; s < 3; s++) {
        wc_xbar *one = make(3, 3, spec[s]), *many = make(3, 3, spec[s]);
        uint32_t seed = 12345u + (uint32_t)s;
        size_t n_done = 0, mismatches = 0;
        for (uint64_t t = 0; t < 2000; t++) {
            if (t < 1500 && lcg(&seed) % 3 == 0) {
                uint32_t r1 = wc_xbar_open(one), r2 = wc_xbar_open(many);
                CHECK_EQ(r1, r2);
                unsigned in = lcg(&seed) % 3, out = lcg(&seed) % 3, n = 1 + lcg(&seed) % 4;
                uint32_t flits = lcg(&seed) % 4 == 0 ? 2 : 1;
                uint64_t ready[4], at = t + lcg(&seed) % 12;
                for (unsigned k = 0; k < n; k++) {
                    ready[k] = at;
                    at += lcg(&seed) % 5 == 0 ? 2 : 1;
                }
                for (unsigned k = 0; k < n; k++)
                    CHECK_EQ(wc_xbar_send(one, in, out, ready[k], flits, flits, r1), 0);
                CHECK_EQ(wc_xbar_send_n(many, in, out, ready, n, flits, flits, r2), 0);
                wc_xbar_close(one, r1);
                wc_xbar_close(many, r2);
            }
            wc_xbar_run(one, t);
            wc_xbar_run(many, t);
            const uint32_t *i1, *i2;
            const uint64_t *t1, *t2;
            size_t n1 = wc_xbar_done(one, &i1, &t1), n2 = wc_xbar_done(many, &i2, &t2);
            CHECK_EQ(n1, n2);
            for (size_t k = 0; k < n1 && k < n2; k++)
                mismatches += i1[k] != i2[k] || t1[k] != t2[k];
            n_done += n1;
        }
        CHECK_EQ(mismatches, 0);
        CHECK(n_done > 400); /* most of the ~500 records, all through */
        CHECK_EQ(wc_xbar_pending(one), 0);
        CHECK_EQ(wc_xbar_pending(many), 0);
        wc_xbar_free(one);
        wc_xbar_free(many);
    }
}

/* One random scenario of test_reference: n_in inputs, n_out outputs,
 * bursts of records (one to eight packets of one to three flits, ready in
 * runs or with gaps, some acknowledgements nobody waits for) between idle
 * stretches, stepped through the engine's calls at random strides. */
static size_t compare_with_reference(unsigned n_in, unsigned n_out, const char *spec,
                                     double icnt_cycle, uint32_t seed, size_t *mismatches)
{
    wc_err err;
    bool is_xbar;
    wc_xbar_params p;
    CHECK_EQ(wc_xbar_parse(spec, 0, &is_xbar, &p, &err), 0);
    wc_xbar *x = wc_xbar_new(n_in, n_out, &p, icnt_cycle, LAT, &err);
    ref_xbar *r = ref_xbar_new(n_in, n_out, &p, icnt_cycle, LAT, &err);
    size_t n_done = 0;
    uint64_t t = 0;
    for (int round = 0; round < 3000; round++) {
        bool burst = (round / 200) % 3 != 2; /* every third stretch idle */
        for (unsigned k = lcg(&seed) % 4; burst && k > 0; k--) {
            bool ack = lcg(&seed) % 8 == 0;
            uint32_t a = ack ? WC_XBAR_NONE : wc_xbar_open(x);
            uint32_t b = ack ? WC_XBAR_NONE : ref_xbar_open(r);
            CHECK_EQ(a, b);
            unsigned in = lcg(&seed) % n_in, out = lcg(&seed) % n_out, n = 1 + lcg(&seed) % 8;
            uint32_t flits = lcg(&seed) % 4 == 0 ? 1 + lcg(&seed) % 3 : 1;
            double eject = flits * (lcg(&seed) % 2 ? 1.0 : 0.5);
            /* mode 0: wc_xbar_send_n, 1: single sends, 2: wc_xbar_send_seq
             * (ready cycles `step` apart) */
            unsigned mode = lcg(&seed) % 3;
            uint32_t step = 1 + (lcg(&seed) % 4 == 0);
            uint64_t ready[8], at = t + lcg(&seed) % 40;
            for (unsigned j = 0; j < n; j++) {
                ready[j] = at;
                at += mode == 2 ? step : lcg(&seed) % 4 == 0 ? lcg(&seed) % 6 : 1;
            }
            if (mode == 0) {
                CHECK_EQ(wc_xbar_send_n(x, in, out, ready, n, flits, eject, a), 0);
            } else if (mode == 1) {
                for (unsigned j = 0; j < n; j++)
                    CHECK_EQ(wc_xbar_send(x, in, out, ready[j], flits, eject, a), 0);
            } else {
                CHECK_EQ(wc_xbar_send_seq(x, in, out, ready[0], step, n, flits, eject, a), 0);
            }
            CHECK_EQ(ref_xbar_send_n(r, in, out, ready, n, flits, eject, b), 0);
            if (!ack) {
                wc_xbar_close(x, a);
                ref_xbar_close(r, b);
            }
        }
        *mismatches += wc_xbar_next(x) != ref_xbar_next(r);
        t += 1 + lcg(&seed) % 6;
        wc_xbar_run(x, t);
        ref_xbar_run(r, t);
        const uint32_t *i1, *i2;
        const uint64_t *t1, *t2;
        size_t n1 = wc_xbar_done(x, &i1, &t1), n2 = ref_xbar_done(r, &i2, &t2);
        *mismatches += n1 != n2;
        for (size_t k = 0; k < n1 && k < n2; k++) *mismatches += i1[k] != i2[k] || t1[k] != t2[k];
        *mismatches += wc_xbar_pending(x) != ref_xbar_pending(r);
        n_done += n1;
    }
    wc_xbar_free(x);
    ref_xbar_free(r);
    return n_done;
}

/*
 * The crossbar against the reference (xbar_ref.h, the cycle-by-cycle code
 * from before the router stopped noting every packet's entry): random
 * traffic through crossbars of one and of two set words, at the speedups
 * and buffers of cli_islip.sh and an interconnect clock other than the
 * core's, completes the same records at the same cycles in the same order,
 * and reports the same next cycle and pending packets after every call.
 */
static void test_reference(void)
{
    /* speedup 2 (the files') with a small buffer: outputs out of credit
     * while the router steps twice a cycle */
    const char *spec[6] = {"islip",
                           "islip:speedup=1.5,buf=4",
                           "islip:speedup=0.7,buf=2",
                           "islip:speedup=3,buf=16",
                           "islip:speedup=1.25,buf=1",
                           "islip:buf=2"};
    const unsigned dims[3][2] = {{3, 3}, {12, 15}, {70, 66}};
    uint32_t seed = 2024u;
    for (int s = 0; s < 6; s++)
        for (int d = 0; d < 3; d++) {
            size_t mismatches = 0;
            double icnt_cycle = d == 1 && s < 2 ? 0.75 : 1.0;
            size_t n = compare_with_reference(dims[d][0], dims[d][1], spec[s], icnt_cycle,
                                              seed + (uint32_t)(10 * s + d), &mismatches);
            CHECK_EQ(mismatches, 0);
            CHECK(n > 1000); /* the traffic went through */
        }
}

/* The engine's loop (respond.c) over one crossbar: in every core cycle t
 * it advances the crossbar to t + AHEAD - 1 (every cycle, or with `lazy`
 * only from wc_xbar_due on), then sends random requests ready from
 * t + AHEAD on.  Returns the completions, each as the order its record was
 * opened in and its arrival, and counts the advance calls. */
enum { DUE_AHEAD = 24, DUE_CYCLES = 3000, DUE_MAX = 4096 };

static size_t engine_loop(const char *spec, double icnt_cycle, bool lazy, uint32_t seed,
                          uint64_t *serial_time, size_t *calls, size_t *late)
{
    wc_err err;
    bool is_xbar;
    wc_xbar_params p;
    CHECK_EQ(wc_xbar_parse(spec, 0, &is_xbar, &p, &err), 0);
    wc_xbar *x = wc_xbar_new(6, 5, &p, icnt_cycle, LAT, &err);
    uint32_t serial_of[DUE_MAX]; /* record id -> the order it was opened in */
    size_t n = 0, opened = 0;
    for (uint64_t t = 0; t < DUE_CYCLES + 400; t++) {
        if (!lazy || t >= wc_xbar_due(x)) {
            const uint32_t *ids;
            const uint64_t *times;
            size_t k = wc_xbar_advance(x, t + DUE_AHEAD - 1, &ids, &times);
            ++*calls;
            for (size_t j = 0; j < k && n < DUE_MAX; j++, n++) {
                serial_time[2 * n] = serial_of[ids[j]];
                serial_time[2 * n + 1] = times[j];
                *late += times[j] < t; /* the engine would have missed it */
            }
        }
        /* bursts, then quiet stretches the crossbar drains in */
        unsigned sends = t < DUE_CYCLES && (t / 300) % 2 == 0 ? lcg(&seed) % 3 : 0;
        for (; sends > 0 && opened < DUE_MAX; sends--) {
            bool ack = lcg(&seed) % 6 == 0;
            uint32_t rec = ack ? WC_XBAR_NONE : wc_xbar_open(x);
            if (!ack) serial_of[rec] = (uint32_t)opened++;
            unsigned in = lcg(&seed) % 6, out = lcg(&seed) % 5, k = 1 + lcg(&seed) % 4;
            uint32_t flits = lcg(&seed) % 5 == 0 ? 2 : 1;
            uint64_t ready = t + DUE_AHEAD + lcg(&seed) % 30; /* hits and misses */
            CHECK_EQ(wc_xbar_send_seq(x, in, out, ready, 1, k, flits, flits, rec), 0);
            if (!ack) wc_xbar_close(x, rec);
        }
    }
    CHECK_EQ(wc_xbar_pending(x), 0);
    CHECK_EQ(wc_xbar_due(x), WC_NEVER); /* empty: nothing to run for */
    wc_xbar_free(x);
    return n;
}

/*
 * wc_xbar_due: an engine that advances the crossbar only from its due cycle
 * on gets every completion in the same order with the same arrival as one
 * that advances it in every cycle, none after its arrival has passed, in
 * far fewer calls.  A record closed with nothing sent is due at once.
 */
static void test_due(void)
{
    static uint64_t eager[2 * DUE_MAX], lazy[2 * DUE_MAX];
    const char *spec[3] = {"islip", "islip:speedup=1.5,buf=4", "islip:speedup=1,buf=1"};
    for (int s = 0; s < 3; s++) {
        double icnt_cycle = s == 1 ? 0.75 : 1.0;
        size_t calls_e = 0, calls_l = 0, late_e = 0, late_l = 0;
        size_t ne =
            engine_loop(spec[s], icnt_cycle, false, 99u + (uint32_t)s, eager, &calls_e, &late_e);
        size_t nl =
            engine_loop(spec[s], icnt_cycle, true, 99u + (uint32_t)s, lazy, &calls_l, &late_l);
        CHECK(ne > 1000);
        CHECK_EQ(nl, ne);
        CHECK(memcmp(eager, lazy, 2 * ne * sizeof *eager) == 0);
        CHECK_EQ(late_e, 0);
        CHECK_EQ(late_l, 0);
        CHECK(calls_l * 4 < calls_e); /* busy: one call per DUE_AHEAD + LAT cycles */
    }
    wc_xbar *x = make(2, 2, "islip");
    CHECK_EQ(wc_xbar_due(x), WC_NEVER);
    uint32_t r = wc_xbar_open(x);
    CHECK_EQ(wc_xbar_send(x, 1, 0, 50, 1, 1.0, r), 0);
    CHECK_EQ(wc_xbar_due(x), 50 + LAT); /* enters at 50, leaves at 51 at the earliest */
    wc_xbar_close(x, r);
    uint32_t c = wc_xbar_open(x);
    wc_xbar_close(x, c); /* nothing sent: done, to be handed over at once */
    CHECK_EQ(wc_xbar_due(x), 0);
    const uint32_t *ids;
    const uint64_t *times;
    CHECK_EQ(wc_xbar_advance(x, 0, &ids, &times), 1);
    CHECK_EQ(ids[0], c);
    CHECK_EQ(wc_xbar_due(x), 50 + LAT);
    wc_xbar_free(x);
}

/* Cycles of one warp's single load (an L1 and L2 miss) on tiny_config. */
static uint64_t one_miss(const char *icnt, char l2_type, uint32_t flit)
{
    wc_config c;
    tiny_config(&c);
    snprintf(c.icnt_model, sizeof c.icnt_model, "%s", icnt);
    c.l2.type = l2_type;
    c.flit_bytes = flit;
    list_source *l = ls_create(1, 32);
    ls_load(l, 0, 0x1000000, 1);
    ls_alu(l, 0, WC_REG_NONE, 1); /* waits for the load */
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    uint64_t cycles = st.total.cycles;
    wc_stats_free(&st);
    return cycles;
}

/*
 * End to end.  A line-based L2 answers the 128 B line with one 5-flit packet
 * (32 B flits, 8 B header): unloaded, the crossbar gives the ports' time
 * (test_unloaded).  A sectored L2 with 40 B flits answers it with four 1-flit
 * packets ready one L2 cycle apart from r (the fill): they enter at r..r+3,
 * the last leaves at r+4 and arrives r+4 + 10 + 1 = r+15; the ports send one
 * ceil(136 / 40) = 4-flit packet: L2 port r+4, crossing 10, SM port 4, so
 * r+18.  Three cycles less.
 */
static void test_end_to_end(void)
{
    CHECK_EQ(one_miss("islip", 'N', 32), one_miss("ports", 'N', 32));
    CHECK_EQ(one_miss("ports", 'S', 40) - one_miss("islip", 'S', 40), 3);
}

int main(void)
{
    RUN(test_parse);
    RUN(test_unloaded);
    RUN(test_packet_rate);
    RUN(test_head_of_line);
    RUN(test_allocation);
    RUN(test_records);
    RUN(test_idle_gaps);
    RUN(test_runs);
    RUN(test_entry_after_run);
    RUN(test_send_n);
    RUN(test_reference);
    RUN(test_due);
    RUN(test_end_to_end);
    return check_summary("xbar");
}
