/*
 * test_mrpb.c - seed 004's memory request prioritization buffer
 * (src/core/stages/memstage_mrpb.c) driven directly, on a mock SM built from
 * the public stage API only (warpcache/stage.h, smview.h): a scripted L1
 * (which requests it refuses, why, until when) logs what reaches it and
 * what is sent around it, and a small driver plays the SM's part (the stage
 * runs before issue; an instruction is accepted only while the stage is not
 * full; a fill wakes a parked stage).  Every expected order and cycle is
 * derived by hand in the comment above its test.
 *
 * Timing rules used in the derivations: an instruction accepted at cycle a
 * enters one request per cycle from a + 1 on; a request enqueued at t may
 * leave at t + latency or later; one request per cycle reaches the L1; in a
 * cycle the enqueue comes before the drain (the paper's split cycle); the
 * stage frees at the cycle its instruction's last request entered, and the
 * next instruction is accepted in that same cycle.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/memstage.h" /* the registry: wc_mstage_find */
#include "warpcache/stage.h"
#include "util/rng.h"

#define LOG_MAX 4096

typedef struct mock {
    wc_stage_env env; /* first: the environment's calls find the mock */
    wc_smview view;
    wc_l1 l1;
    uint64_t stall_by[WC_FAIL__COUNT];
    uint32_t block[48], wib[48]; /* per warp slot */
    /* refusals: requests at refuse_addr are refused with refuse_why until
     * refuse_until; random refusals (refuse_pct) in the randomized test */
    uint64_t refuse_addr, refuse_until;
    wc_fail_reason refuse_why;
    unsigned refuse_pct;
    uint64_t rng;
    /* what reached the L1 (accepted), what went around it */
    unsigned n;
    uint64_t addr[LOG_MAX], at[LOG_MAX], pc[LOG_MAX];
    uint16_t warp[LOG_MAX];
    bool around[LOG_MAX];
    unsigned refused;
} mock;

static wc_outcome mock_access(wc_l1 *l1, const wc_mem_req *req, uint64_t now, wc_fail_reason *why)
{
    mock *m = (mock *)((char *)l1 - offsetof(mock, l1));
    bool refuse = req->addr == m->refuse_addr && now < m->refuse_until;
    if (m->refuse_pct && wc_rng_next(&m->rng) % 100 < m->refuse_pct) {
        static const wc_fail_reason r[] = {WC_FAIL_LINE_ALLOC, WC_FAIL_MISS_QUEUE_FULL,
                                           WC_FAIL_MSHR_ENTRY};
        m->refuse_why = r[wc_rng_next(&m->rng) % 3];
        refuse = true;
    }
    if (refuse) {
        *why = m->refuse_why;
        m->refused++;
        return WC_RESERVATION_FAIL;
    }
    if (m->n < LOG_MAX) {
        m->addr[m->n] = req->addr;
        m->at[m->n] = now;
        m->pc[m->n] = req->pc;
        m->warp[m->n] = req->warp;
        m->around[m->n++] = false;
    }
    return WC_HIT;
}

static uint64_t mock_send(void *ctx, const wc_mem_req *req, uint64_t chunks, uint64_t now)
{
    mock *m = ctx;
    if (m->n < LOG_MAX) {
        m->addr[m->n] = req->addr;
        m->at[m->n] = now;
        m->pc[m->n] = req->pc;
        m->warp[m->n] = req->warp;
        m->around[m->n++] = true;
    }
    return now;
}

static const wc_l1_ops mock_l1_ops = {.name = "mock", .access = mock_access};

static void mock_send_around(wc_stage_env *env, const wc_mem_req *req, uint32_t load, uint64_t now)
{
    mock_send(env, req, 0, now);
}

static void mock_stage_freed(wc_stage_env *env, uint64_t now) {}

/* As the engine counts a bypass of the stage's own: an L1 access that
 * bypassed it. */
static void mock_count_bypassed(wc_stage_env *env, const wc_mem_req *req)
{
    mock *m = (mock *)env;
    m->l1.stats.accesses++;
    m->l1.stats.reads++;
    m->l1.stats.outcome[WC_BYPASSED]++;
}

/* A mock SM of 48 warp slots and 8 block slots; warp slot w is in block
 * slot w / 6 unless a test says otherwise. */
static mock *mock_new(void)
{
    mock *m = calloc(1, sizeof *m);
    m->l1.ops = &mock_l1_ops;
    m->view.n_slots = 48;
    m->view.n_block_slots = 8;
    m->view.warp_block = (wc_view_field){(const unsigned char *)m->block, sizeof m->block[0]};
    m->env.view = &m->view;
    m->env.l1 = &m->l1;
    m->env.stall_by = m->stall_by;
    m->env.send_around = mock_send_around;
    m->env.stage_freed = mock_stage_freed;
    m->env.count_bypassed = mock_count_bypassed;
    for (unsigned w = 0; w < 48; w++) {
        m->block[w] = w / 6;
        m->wib[w] = w % 6;
    }
    return m;
}

/* The stage from parameter text, as -mem_stage gives it (parsed against
 * the stage's schema, then created). */
static wc_mstage *create_from(const wc_mstage_ops *ops, mock *m, const char *params, wc_err *err)
{
    wc_param_values v;
    if (wc_param_parse(&v, ops->params, ops->name, params, err) < 0) return NULL;
    return ops->create(&m->env, &v, err);
}

static wc_mstage *stage_new(mock *m, const char *params)
{
    const wc_mstage_ops *ops = wc_mstage_find("mrpb");
    wc_err err = {{0}};
    wc_mstage *ms = ops ? create_from(ops, m, params, &err) : NULL;
    if (!ms) {
        fprintf(stderr, "mrpb:%s: %s\n", params, err.msg);
        return NULL;
    }
    ms->ops = ops;
    ms->env = &m->env;
    return ms;
}

/* One scripted instruction: n requests of warp `slot` at addr + 128 * i,
 * accepted at cycle `at` or as soon after as the stage is free.  A barrier
 * entry (n == 0) tells the stage that `slot` arrived at a barrier. */
typedef struct inst {
    uint64_t at;
    unsigned slot, n;
    uint64_t addr;
    bool write;
} inst;

typedef struct driver {
    mock *m;
    wc_mstage *ms;
    const inst *prog;
    unsigned n_prog, next;
    wc_mem_req buf[WC_MAX_REQS_PER_INST]; /* the SM's coalescer buffer */
} driver;

/* Runs cycles [from, to]: the stage first (when due), then issue.  A stage
 * parked until a fill is woken each cycle (the scripted refusals end by
 * themselves). */
static void drive(driver *d, uint64_t from, uint64_t to)
{
    for (uint64_t now = from; now <= to; now++) {
        wc_mstage *ms = d->ms;
        if (ms->holding && ms->retry_at == WC_NEVER) ms->retry_at = now;
        if (ms->holding && ms->retry_at <= now) ms->ops->cycle(ms, now);
        while (d->next < d->n_prog && d->prog[d->next].at <= now && !ms->full) {
            const inst *in = &d->prog[d->next++];
            if (in->n == 0) {
                ms->ops->barrier(ms, in->slot, now);
                continue;
            }
            for (unsigned i = 0; i < in->n; i++) {
                wc_mem_req *r = &d->buf[i];
                memset(r, 0, sizeof *r);
                r->addr = in->addr + 128u * i;
                r->warp = (uint16_t)in->slot;
                r->origin = d->m->wib[in->slot];
                r->op = in->write ? WC_OP_STG : WC_OP_LDG;
                r->flags = in->write ? WC_REQ_WRITE : 0;
                r->line_log2 = 7;
                r->chunk_log2 = 5;
                r->chunks = 1;
            }
            ms->ops->accept(ms, in->slot, d->buf, in->n, WC_NO_REC, now);
        }
    }
}

/* Runs prog on a fresh stage with `params`; the request at 0xF000 (warp 47)
 * is refused with `why` until cycle `until`. */
static mock *run_prog(const char *params, const inst *prog, unsigned n, uint64_t until,
                      wc_fail_reason why, uint64_t cycles)
{
    mock *m = mock_new();
    m->refuse_addr = 0xF000;
    m->refuse_until = until;
    m->refuse_why = why;
    driver d = {.m = m, .ms = stage_new(m, params), .prog = prog, .n_prog = n};
    if (!d.ms) return m;
    drive(&d, 0, cycles);
    CHECK(!d.ms->holding);
    d.ms->ops->destroy(d.ms);
    return m;
}

static void check_order(const mock *m, const uint64_t *addr, const uint64_t *at, unsigned n)
{
    CHECK_EQ(m->n, n);
    for (unsigned i = 0; i < n && i < m->n; i++) {
        CHECK_EQ(m->addr[i], addr[i]);
        if (at) CHECK_EQ(m->at[i], at[i]);
    }
}

/* ---- drain policies ------------------------------------------------------ */

/*
 * The hand-built queue state: P (warp 47, 1 request) is accepted at 0,
 * enters at 1 and (latency 0) reaches the L1 at 1, which refuses it
 * (MISS_QUEUE_FULL) until 40: it waits in the outbound slot and the port is
 * taken until then.  Meanwhile A (warp 5, 2 requests: A0 A1) is accepted at
 * 1 and enters at 2, 3; B (warp 2: B0 B1) at 3, entering 4, 5; C (warp 9: C0
 * C1 C2) at 5, entering 6, 7, 8.  P leaves at 40; from 41 on one request per
 * cycle by the policy, all heads ready:
 *   fixed (lowest queue):        B0 B1 A0 A1 C0 C1 C2
 *   rr (after the last drained, 47, so from 0): B0 A0 C0 B1 A1 C1 C2
 *   longest (ties: lowest queue): q9 has 3: C0; then 2/2/2: B0; 1/2/2: A0;
 *                                 1/1/2: C1; then B1 A1 C2
 *   greedy rr: B0, stay on q2: B1; next after 2: A0 A1; then C0 C1 C2
 *   greedy longest: C0 C1 C2 (stays), then tie q2/q5: B0 B1 A0 A1
 *   greedy fixed: as fixed here (the lowest queue is also the one it stays on)
 */
static const inst policy_prog[] = {
    {0, 47, 1, 0xF000, false},
    {1, 5, 2, 0xA000, false},
    {1, 2, 2, 0xB000, false},
    {1, 9, 3, 0xC000, false},
};

#define A0 0xA000
#define A1 0xA080
#define B0 0xB000
#define B1 0xB080
#define C0 0xC000
#define C1 0xC080
#define C2 0xC100
#define P  0xF000

static void policy_case(const char *params, const uint64_t *want)
{
    mock *m = run_prog(params, policy_prog, 4, 40, WC_FAIL_MISS_QUEUE_FULL, 100);
    uint64_t at[8] = {40, 41, 42, 43, 44, 45, 46, 47};
    check_order(m, want, at, 8);
    CHECK_EQ(m->refused, 39); /* P at 1..39 */
    free(m);
}

static void test_drain_fixed(void)
{
    policy_case("latency=0,bypass=none", (uint64_t[]){P, B0, B1, A0, A1, C0, C1, C2});
    policy_case("latency=0,bypass=none,greedy=1", (uint64_t[]){P, B0, B1, A0, A1, C0, C1, C2});
}

static void test_drain_rr(void)
{
    policy_case("latency=0,bypass=none,drain=rr", (uint64_t[]){P, B0, A0, C0, B1, A1, C1, C2});
    policy_case("latency=0,bypass=none,drain=rr,greedy=1",
                (uint64_t[]){P, B0, B1, A0, A1, C0, C1, C2});
}

static void test_drain_longest(void)
{
    policy_case("latency=0,bypass=none,drain=longest", (uint64_t[]){P, C0, B0, A0, C1, B1, A1, C2});
    policy_case("latency=0,bypass=none,drain=longest,greedy=1",
                (uint64_t[]){P, C0, C1, C2, B0, B1, A0, A1});
}

/*
 * Greedy fixed order against plain fixed order: the stage must be draining
 * a higher queue when a lower one gets a request.  P (warp 47) enters at 1
 * and is refused until 3 (accepted at 3).  C (warp 9, 3 requests) is
 * accepted at 1 and enters at 2, 3, 4; A (warp 5, 2 requests) is accepted
 * at 4 and enters at 5, 6.  C0 leaves at 4 (the only ready head).  At 5
 * queue 5 holds A0:
 *   fixed: A0 5, A1 6 (entered at 6, before the drain), C1 7, C2 8;
 *   greedy: stays on q9 while it has a ready head: C1 5, C2 6, A0 7, A1 8.
 */
static void test_drain_greedy_fixed(void)
{
    static const inst prog[] = {
        {0, 47, 1, 0xF000, false},
        {1, 9, 3, 0xC000, false},
        {1, 5, 2, 0xA000, false},
    };
    uint64_t at[6] = {3, 4, 5, 6, 7, 8};
    mock *m = run_prog("latency=0,bypass=none", prog, 3, 3, WC_FAIL_MISS_QUEUE_FULL, 50);
    check_order(m, (uint64_t[]){P, C0, A0, A1, C1, C2}, at, 6);
    free(m);
    m = run_prog("latency=0,bypass=none,greedy=1", prog, 3, 3, WC_FAIL_MISS_QUEUE_FULL, 50);
    check_order(m, (uint64_t[]){P, C0, C1, C2, A0, A1}, at, 6);
    free(m);
}

/* ---- counters ------------------------------------------------------------------ */

typedef struct counts {
    double enqueued, at_enqueue, reordered;
} counts;

static void take(void *ctx, const char *name, double v)
{
    counts *c = ctx;
    if (strcmp(name, "mrpb.enqueued") == 0) c->enqueued = v;
    if (strcmp(name, "mrpb.queued_at_enqueue") == 0) c->at_enqueue = v;
    if (strcmp(name, "mrpb.reordered") == 0) c->reordered = v;
}

/*
 * The counters on the drain-policy program above.  Arrival order P A0 A1 B0
 * B1 C0 C1 C2 (8 enqueued).  P enters at 1 with nothing queued and leaves at
 * 1 (into the outbound slot, refused until 40), so A0 (2), A1 (3), B0 (4),
 * B1 (5), C0 (6), C1 (7), C2 (8) find 0, 1, 2, 3, 4, 5, 6 queued: 21.  A
 * request is reordered when it leaves while an older one is still queued:
 *   fixed   B0 B1 (A0 waits) A0 A1 C0 C1 C2                       2
 *   rr      B0 (A0) A0 C0 (A1) B1 (A1) A1 C1 C2                     3
 *   longest C0 (A0) B0 (A0) A0 C1 (A1) B1 (A1) A1 C2              4
 *   reorder=0: one FIFO, arrival order                            0
 */
static void test_counters(void)
{
    static const struct {
        const char *params;
        double reordered;
    } cases[] = {{"latency=0,bypass=none", 2},
                 {"latency=0,bypass=none,drain=rr", 3},
                 {"latency=0,bypass=none,drain=longest", 4},
                 {"latency=0,bypass=none,reorder=0", 0}};
    for (unsigned i = 0; i < 4; i++) {
        mock *m = mock_new();
        m->refuse_addr = 0xF000;
        m->refuse_until = 40;
        m->refuse_why = WC_FAIL_MISS_QUEUE_FULL;
        driver d = {.m = m, .ms = stage_new(m, cases[i].params), .prog = policy_prog, .n_prog = 4};
        CHECK(d.ms != NULL);
        if (!d.ms) {
            free(m);
            continue;
        }
        drive(&d, 0, 100);
        counts c = {0};
        d.ms->ops->stats(d.ms, take, &c);
        CHECK_EQ(c.enqueued, 8);
        CHECK_EQ(c.at_enqueue, 21);
        CHECK_EQ(c.reordered, cases[i].reordered);
        d.ms->ops->destroy(d.ms);
        free(m);
    }
}

/* ---- buffer latency ---------------------------------------------------------- */

/*
 * One instruction of two requests accepted at 0 enters at 1 and 2 and
 * leaves at 1 + latency and 2 + latency: latency 0 -> 1, 2; 5 (the
 * default) -> 6, 7; 18 -> 19, 20.
 */
static void test_latency(void)
{
    static const inst prog[] = {{0, 3, 2, 0xA000, false}};
    static const struct {
        const char *params;
        uint64_t first;
    } cases[] = {{"latency=0", 1}, {"", 6}, {"latency=18", 19}};
    for (unsigned i = 0; i < 3; i++) {
        mock *m = run_prog(cases[i].params, prog, 1, 0, WC_FAIL_NONE, 40);
        uint64_t at[2] = {cases[i].first, cases[i].first + 1};
        check_order(m, (uint64_t[]){A0, A1}, at, 2);
        free(m);
    }
}

/* ---- flush ------------------------------------------------------------------- */

/*
 * A read at a full queue (len=2): P (warp 47) holds the port until 40.  A
 * (warp 0: A0 A1) enters at 2, 3; B (warp 9: B0 B1 B2) at 4, 5; B2 finds q9
 * full from 6 on and the stage is full.  P leaves at 40.
 *   flush=1: at 41 B2 still waits, so q9 drains first: B0 at 41; B2 enters
 *     at 42; fixed order then: A0 42, A1 43, B1 44, B2 45.
 *   flush=0: fixed order: A0 41, A1 42, B0 43 (B2 still could not enter at
 *     43: the enqueue comes first); B2 enters at 44: B1 44, B2 45.
 */
static void test_flush_read(void)
{
    static const inst prog[] = {
        {0, 47, 1, 0xF000, false},
        {1, 0, 2, 0xA000, false},
        {1, 9, 3, 0xB000, false},
    };
    uint64_t at[6] = {40, 41, 42, 43, 44, 45};
    mock *m = run_prog("len=2,latency=0,bypass=none", prog, 3, 40, WC_FAIL_MISS_QUEUE_FULL, 80);
    check_order(m, (uint64_t[]){P, B0, A0, A1, B1, B0 + 256}, at, 6);
    free(m);
    m = run_prog("len=2,latency=0,bypass=none,flush=0", prog, 3, 40, WC_FAIL_MISS_QUEUE_FULL, 80);
    check_order(m, (uint64_t[]){P, A0, A1, B0, B1, B0 + 256}, at, 6);
    free(m);
}

/*
 * A write: P holds the port until 40; A (warp 0) enters at 2, 3; B (warp 9
 * reads) at 4, 5; W (warp 9, a store of one request) is accepted at 5.
 *   flush=1: W never enters; from 41 its queue drains first: B0 41, B1 42;
 *     q9 is empty, so W goes to the L1 at 43; then A0 44, A1 45.
 *   flush=0: W enters q9 at 6 like a read; fixed order: A0 41, A1 42, B0 43,
 *     B1 44, W 45.
 */
static void test_flush_write(void)
{
    static const inst prog[] = {
        {0, 47, 1, 0xF000, false},
        {1, 0, 2, 0xA000, false},
        {1, 9, 2, 0xB000, false},
        {1, 9, 1, 0xE000, true},
    };
    uint64_t at[6] = {40, 41, 42, 43, 44, 45};
    mock *m = run_prog("latency=0,bypass=none", prog, 4, 40, WC_FAIL_MISS_QUEUE_FULL, 80);
    check_order(m, (uint64_t[]){P, B0, B1, 0xE000, A0, A1}, at, 6);
    free(m);
    m = run_prog("latency=0,bypass=none,flush=0", prog, 4, 40, WC_FAIL_MISS_QUEUE_FULL, 80);
    check_order(m, (uint64_t[]){P, A0, A1, B0, B1, 0xE000}, at, 6);
    free(m);
}

/* ---- bypass on stall ------------------------------------------------------------ */

/*
 * P (warp 47, a read) is refused at its first attempt (cycle 1: accepted at
 * 0, entered at 1, latency 0) with the given reason, and would be until 30.
 * A (warp 5) is accepted at 1 and enters at 2 and 3.
 *   bypass=assoc, LINE_ALLOC: P goes around the L1 at 1 (its only
 *     attempt); A0 reaches the L1 at 2, A1 at 3.
 *   bypass=assoc, MSHR_ENTRY: not an associativity stall; P is retried
 *     (every cycle here: the driver wakes the parked stage), refused at
 *     1..29 and accepted at 30; then A0 31, A1 32.
 *   bypass=all, MSHR_ENTRY or MISS_QUEUE_FULL: around at 1; A0 2, A1 3.
 *   bypass=none, LINE_ALLOC: retried until 30.
 * The same without reordering (one FIFO of one entry): A0 enters at 2; with
 * P retried, A1 cannot enter (the queue is full) until A0 leaves at 31.
 * The L1 counts a bypassed read as an access with outcome BYPASSED.
 */
static void bypass_case(const char *params, wc_fail_reason why, bool around)
{
    static const inst prog[] = {{0, 47, 1, 0xF000, false}, {1, 5, 2, 0xA000, false}};
    mock *m = run_prog(params, prog, 2, 30, why, 60);
    uint64_t t0 = around ? 1 : 30;
    check_order(m, (uint64_t[]){P, A0, A1}, (uint64_t[]){t0, t0 + 1, t0 + 2}, 3);
    CHECK_EQ(m->around[0], around);
    CHECK_EQ(m->around[1], false);
    CHECK_EQ(m->l1.stats.outcome[WC_BYPASSED], around ? 1 : 0);
    CHECK_EQ(m->refused, around ? 1 : 29);
    free(m);
}

static void test_bypass_triggers(void)
{
    bypass_case("latency=0", WC_FAIL_LINE_ALLOC, true);
    bypass_case("latency=0,bypass=assoc", WC_FAIL_MSHR_ENTRY, false);
    bypass_case("latency=0,bypass=all", WC_FAIL_MSHR_ENTRY, true);
    bypass_case("latency=0,bypass=all", WC_FAIL_MISS_QUEUE_FULL, true);
    bypass_case("latency=0,bypass=none", WC_FAIL_LINE_ALLOC, false);
    /* without reordering (one FIFO, the paper's bypass-only MRPB) too */
    bypass_case("reorder=0,len=1,latency=0", WC_FAIL_LINE_ALLOC, true);
    bypass_case("reorder=0,len=1,latency=0", WC_FAIL_MSHR_ENTRY, false);
}

/* A write refused for an associativity stall is never bypassed: W (warp 47,
 * a store at 0xF000) waits for its line until 30 even under bypass=all. */
static void test_bypass_never_writes(void)
{
    static const inst prog[] = {{0, 47, 1, 0xF000, true}};
    mock *m = run_prog("latency=0,bypass=all", prog, 1, 30, WC_FAIL_LINE_ALLOC, 60);
    check_order(m, (uint64_t[]){P}, (uint64_t[]){30}, 1);
    CHECK_EQ(m->around[0], false);
    free(m);
}

/*
 * reorder=0: one FIFO, arrival order, whatever the warps: with P holding the
 * port until 40, the same program as the policy tests drains A0 A1 B0 B1 C0
 * C1 C2 (fixed order with warp queues would put warp 2's B first).
 */
static void test_no_reorder(void)
{
    mock *m = run_prog("reorder=0,latency=0,len=8,bypass=none", policy_prog, 4, 40,
                       WC_FAIL_MISS_QUEUE_FULL, 100);
    check_order(m, (uint64_t[]){P, A0, A1, B0, B1, C0, C1, C2}, NULL, 8);
    free(m);
}

/* ---- barriers and signatures ------------------------------------------------------ */

/*
 * Warps 2 and 5 share block slot 0 (warps 0..5).  P holds the port until
 * 40.  A (warp 5) enters at 2, 3; both warps arrive at the barrier at 3
 * (after A was accepted); B (warp 2, after the barrier) enters at 4, 5.
 * Fixed order would drain q2 (B) before q5 (A); the barrier keeps A first:
 * P A0 A1 B0 B1.  Without the barrier entries: P B0 B1 A0 A1.
 */
static void test_barrier(void)
{
    static const inst with_bar[] = {
        {0, 47, 1, 0xF000, false}, {1, 5, 2, 0xA000, false}, {3, 5, 0, 0, false},
        {3, 2, 0, 0, false},       {3, 2, 2, 0xB000, false},
    };
    mock *m = run_prog("latency=0,bypass=none", with_bar, 5, 40, WC_FAIL_MISS_QUEUE_FULL, 80);
    check_order(m, (uint64_t[]){P, A0, A1, B0, B1}, NULL, 5);
    free(m);
    static const inst no_bar[] = {
        {0, 47, 1, 0xF000, false},
        {1, 5, 2, 0xA000, false},
        {3, 2, 2, 0xB000, false},
    };
    m = run_prog("latency=0,bypass=none", no_bar, 3, 40, WC_FAIL_MISS_QUEUE_FULL, 80);
    check_order(m, (uint64_t[]){P, B0, B1, A0, A1}, NULL, 5);
    free(m);
}

/*
 * A barrier of block slot 1 (warps 6..11) does not hold back block slot 0:
 * A (warp 8, block 1) enters at 2, 3; warp 8 arrives at a barrier at 3; B
 * (warp 2, block 0) enters at 4, 5: fixed order drains q2 first: P B0 B1 A0
 * A1.  A write of block 1 issued after its barrier waits for block 1's
 * older reads even with its own queue empty: W (warp 7, store) accepted at
 * 5 (after B); from 41: q7 is empty but A (epoch 0) is queued, so the drain
 * policy runs: B0 41, B1 42, A0 43, A1 44, then W 45.
 */
static void test_barrier_other_block(void)
{
    static const inst prog[] = {
        {0, 47, 1, 0xF000, false}, {1, 8, 2, 0xA000, false}, {3, 8, 0, 0, false},
        {3, 2, 2, 0xB000, false},  {5, 7, 1, 0xE000, true},
    };
    uint64_t at[6] = {40, 41, 42, 43, 44, 45};
    mock *m = run_prog("latency=0,bypass=none", prog, 5, 40, WC_FAIL_MISS_QUEUE_FULL, 80);
    check_order(m, (uint64_t[]){P, B0, B1, A0, A1, 0xE000}, at, 6);
    free(m);
}

/*
 * Signatures: block ID puts warps 2 and 5 (block slot 0) in one queue, so
 * with P holding the port (warp 47, block slot 7) the policy program drains
 * block 0's queue in arrival order (A0 A1 B0 B1), then block 1's (C, warp
 * 9): P A0 A1 B0 B1 C0 C1 C2.  In-block warp ID (wib = slot % 6 here): A is
 * wib 5, B wib 2, C wib 3: fixed order gives B (q2), C (q3), A (q5).
 */
static void test_signatures(void)
{
    mock *m = run_prog("sig=block,latency=0,bypass=none", policy_prog, 4, 40,
                       WC_FAIL_MISS_QUEUE_FULL, 100);
    check_order(m, (uint64_t[]){P, A0, A1, B0, B1, C0, C1, C2}, NULL, 8);
    free(m);
    m = run_prog("sig=wib,latency=0,bypass=none", policy_prog, 4, 40, WC_FAIL_MISS_QUEUE_FULL, 100);
    check_order(m, (uint64_t[]){P, B0, B1, C0, C1, C2, A0, A1}, NULL, 8);
    free(m);
}

/* ---- randomized interleavings ------------------------------------------------------ */

/*
 * Random programs (fixed seeds): 3 blocks of 4 warps (slots 0..11, block
 * slot = slot / 4), each warp a random sequence of reads, writes and
 * barriers (a block's warps pass a barrier together: a warp at a barrier
 * issues nothing until all its block's live warps arrived; a warp that
 * ends counts as arrived, and the stage hears of it, as from the SM's
 * warp_retire); the mock L1
 * refuses 20 % of the attempts for a random reason; every parameter set.
 * Each request carries (warp, sequence number, barrier generation of its
 * block) in its pc.  Checked: every request reaches the L1 or goes around
 * it exactly once; a warp's requests in program order; no request of
 * generation g + 1 of a block before every request of generation <= g of
 * that block; the stage empties.
 */
#define RW 12

/* Block b passes its barrier when every warp still running is at it. */
static void release_check(unsigned b, const unsigned *left, bool *at_bar, unsigned *gen)
{
    bool any = false, all = true;
    for (unsigned x = b * 4; x < b * 4 + 4; x++) {
        any |= at_bar[x];
        all &= at_bar[x] || left[x] == 0;
    }
    if (!any || !all) return;
    for (unsigned x = b * 4; x < b * 4 + 4; x++) at_bar[x] = false;
    gen[b]++;
}

static void random_case(const char *params, uint64_t seed)
{
    mock *m = mock_new();
    for (unsigned w = 0; w < RW; w++) {
        m->block[w] = w / 4;
        m->wib[w] = w % 4;
    }
    m->rng = wc_rng_seed(seed);
    m->refuse_pct = 20;
    wc_mstage *ms = stage_new(m, params);
    if (!ms) {
        CHECK(ms != NULL);
        free(m);
        return;
    }
    uint64_t rng = wc_rng_seed(seed + 1000);
    unsigned left[RW], seq[RW] = {0}, gen[3] = {0};
    bool at_bar[RW] = {false};
    unsigned issued_gen[3][64] = {{0}}; /* requests issued per block and generation */
    for (unsigned w = 0; w < RW; w++) left[w] = 10 + (unsigned)(wc_rng_next(&rng) % 10);
    wc_mem_req buf[8];
    unsigned total = 0;
    uint64_t now = 0;
    for (; now < 200000; now++) {
        if (ms->holding && ms->retry_at == WC_NEVER && wc_rng_next(&rng) % 4 == 0)
            ms->retry_at = now; /* a fill */
        if (ms->holding && ms->retry_at <= now) ms->ops->cycle(ms, now);
        bool more = false;
        for (unsigned w = 0; w < RW; w++) more |= left[w] > 0;
        if (!more) {
            if (!ms->holding) break;
            continue;
        }
        if (ms->full || wc_rng_next(&rng) % 3 == 0) continue; /* issue is busy */
        unsigned w = (unsigned)(wc_rng_next(&rng) % RW);
        unsigned b = w / 4;
        if (!left[w] || at_bar[w]) continue;
        left[w]--;
        unsigned kind = (unsigned)(wc_rng_next(&rng) % 10);
        if (kind == 0 && gen[b] < 63) { /* a barrier */
            at_bar[w] = true;
            ms->ops->barrier(ms, w, now);
            release_check(b, left, at_bar, gen);
            continue;
        }
        unsigned n = 1 + (unsigned)(wc_rng_next(&rng) % 4);
        for (unsigned i = 0; i < n; i++) {
            wc_mem_req *r = &buf[i];
            memset(r, 0, sizeof *r);
            r->addr = 0x100000u * w + 128u * seq[w];
            r->pc = (uint64_t)w << 40 | (uint64_t)gen[b] << 32 | seq[w]++;
            r->warp = (uint16_t)w;
            r->origin = w % 4;
            r->flags = kind == 1 ? WC_REQ_WRITE : 0;
            r->line_log2 = 7;
            r->chunk_log2 = 5;
            r->chunks = 1;
            issued_gen[b][gen[b]]++;
        }
        total += n;
        ms->ops->accept(ms, w, buf, n, WC_NO_REC, now);
        if (!left[w]) { /* w ends: the SM tells the stage, as at a barrier */
            ms->ops->barrier(ms, w, now);
            release_check(b, left, at_bar, gen);
        }
    }
    CHECK(!ms->holding);
    CHECK_EQ(m->n, total);
    unsigned next_seq[RW] = {0}, done_gen[3][64] = {{0}};
    bool ok_order = true, ok_bar = true;
    for (unsigned i = 0; i < m->n; i++) {
        unsigned w = (unsigned)(m->pc[i] >> 40), g = (unsigned)(m->pc[i] >> 32) & 0xff;
        unsigned s = (unsigned)m->pc[i], b = w / 4;
        ok_order &= s == next_seq[w];
        next_seq[w] = s + 1;
        for (unsigned older = 0; older < g; older++)
            ok_bar &= done_gen[b][older] == issued_gen[b][older];
        done_gen[b][g]++;
    }
    CHECK(ok_order);
    CHECK(ok_bar);
    if (!ok_order || !ok_bar)
        fprintf(stderr, "  (mrpb:%s seed %llu)\n", params, (unsigned long long)seed);
    ms->ops->destroy(ms);
    free(m);
}

static void test_random_interleavings(void)
{
    static const char *const params[] = {
        "",
        "bypass=all",
        "bypass=none,flush=0",
        "drain=rr,greedy=1,len=4",
        "drain=longest,latency=3",
        "drain=longest,greedy=1,len=2,latency=0",
        "sig=block,len=4",
        "sig=wib,drain=rr,len=2",
        "reorder=0,len=1,latency=0",
    };
    for (unsigned p = 0; p < sizeof params / sizeof params[0]; p++)
        for (uint64_t seed = 1; seed <= 20; seed++) random_case(params[p], seed);
}

/* ---- parameters ------------------------------------------------------------------ */

static void test_params(void)
{
    const wc_mstage_ops *ops = wc_mstage_find("mrpb");
    CHECK(ops != NULL);
    if (!ops) return;
    mock *m = mock_new();
    static const char *const bad[] = {"len=0",       "len=x",      "latency=-1",
                                      "sig=thread",  "drain=lifo", "flush=2",
                                      "bypass=some", "queues=8",   "len"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wc_err err = {{0}};
        wc_mstage *ms = create_from(ops, m, bad[i], &err);
        CHECK(ms == NULL);
        CHECK(strncmp(err.msg, "mrpb: ", 6) == 0);
        if (ms) ops->destroy(ms);
    }
    wc_err err = {{0}};
    wc_mstage *ms = create_from(ops, m, "sig=warp,drain=fixed,greedy=0,len=32,latency=18", &err);
    CHECK(ms != NULL);
    if (ms) ops->destroy(ms);
    free(m);
}

int main(void)
{
    RUN(test_drain_fixed);
    RUN(test_drain_rr);
    RUN(test_drain_longest);
    RUN(test_counters);
    RUN(test_drain_greedy_fixed);
    RUN(test_latency);
    RUN(test_flush_read);
    RUN(test_flush_write);
    RUN(test_bypass_triggers);
    RUN(test_bypass_never_writes);
    RUN(test_no_reorder);
    RUN(test_barrier);
    RUN(test_barrier_other_block);
    RUN(test_signatures);
    RUN(test_random_interleavings);
    RUN(test_params);
    return check_summary("mrpb");
}
