/*
 * test_model.c - the reuse-distance model (src/model/) against the worked
 * examples of seed 003 (../shared/papers/003_ffafd1cb931cbd21.txt):
 * Table 1 (address and line distances), Table 2 (GPU ordering), Table 3 (fixed
 * latency 2), Table 4 (hit latency 0, miss latency 2, 2-line cache, with and
 * without clipping), Table 5 (one MSHR: cancelled and re-issued request), and
 * hand-derived cases for the per-warp MSHR limit and warp divergence.
 *
 * The examples use x[i] with 4 elements per cache line; here an element is 32
 * bytes (x[i] at byte i*32) so that the project's 128 B line holds 4 of them.
 * A "thread" of the paper is a warp with one active lane (the paper's tables
 * assume one thread per warp).
 */
#include <stdlib.h>

#include "check.h"
#include "model/sdstack.h"
#include "warpcache/model.h"

#define INF UINT64_MAX

/* ---- a hand-written source: warps with lists of single-lane loads ------------- */

#define MAX_W 8
#define MAX_I 16

typedef struct hand_src {
    wc_source base;
    unsigned nwarps, ninst[MAX_W];
    uint64_t elem[MAX_W][MAX_I]; /* element index of each load */
    uint16_t reg[MAX_W][MAX_I];  /* its destination register, 0 = none */
    unsigned lanes;              /* lanes per load (1, or 32 for the MSHR case) */
    uint64_t lane_stride;        /* bytes between lanes */
    bool kernel_done;
    unsigned pc[MAX_W];
} hand_src;

static int hs_next_kernel(wc_source *s, wc_kernel *k, wc_err *err)
{
    hand_src *h = (hand_src *)s;
    if (h->kernel_done) return 0;
    h->kernel_done = true;
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "hand");
    k->id = 1;
    k->grid = (wc_dim3){1, 1, 1};
    k->block = (wc_dim3){h->nwarps * 32, 1, 1};
    return 1;
}

static int hs_open_block(wc_source *s, uint64_t id, void **b, wc_err *err)
{
    *b = s;
    return 1;
}

static int hs_next_inst(wc_source *s, void *b, uint32_t warp, wc_winst *o, wc_err *err)
{
    hand_src *h = (hand_src *)s;
    if (h->pc[warp] >= h->ninst[warp]) return 0;
    wc_winst_clear(o);
    o->op = WC_OP_LDG;
    o->width = 4;
    o->amode = WC_ADDR_STRIDE;
    o->mask = h->lanes >= 32 ? 0xffffffffu : (1u << h->lanes) - 1u;
    if (h->reg[warp][h->pc[warp]]) o->dst[o->ndst++] = h->reg[warp][h->pc[warp]];
    o->base = 0x100000 + h->elem[warp][h->pc[warp]++] * 32;
    o->stride = (int64_t)h->lane_stride;
    return 1;
}

static void hs_close_block(wc_source *s, void *b) {}
static void hs_destroy(wc_source *s) {}

static const wc_source_ops hs_ops = {"hand",       hs_next_kernel, hs_open_block,
                                     hs_next_inst, hs_close_block, hs_destroy};

static void hs_init(hand_src *h, unsigned nwarps)
{
    memset(h, 0, sizeof *h);
    h->base.ops = &hs_ops;
    h->nwarps = nwarps;
    h->lanes = 1;
}

/* A one-core GPU with a fully associative cache of `lines` 128 B lines. */
static void tiny_config(wc_config *cfg, uint32_t lines)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->n_clusters = cfg->cores_per_cluster = 1;
    cfg->max_threads_per_sm = 1536;
    cfg->max_blocks_per_sm = 8;
    cfg->warp_size = 32;
    cfg->l1.nsets = 1;
    cfg->l1.line_bytes = 128;
    cfg->l1.assoc = lines;
    cfg->l1.set_index = 'L';
    cfg->seed = 1;
}

/* Options with every extension off (plain GPU ordering, round robin). */
static void plain_opts(wc_model_opts *o)
{
    wc_model_opts_defaults(o);
    o->latency = o->mshr = o->divergence = o->clip = false;
    o->sigma = 0;
}

typedef struct trace_log {
    wc_model_event ev[256];
    unsigned n;
} trace_log;

static void log_event(void *ctx, const wc_model_event *e)
{
    trace_log *l = ctx;
    if (l->n < 256) l->ev[l->n++] = *e;
}

static int run_hand(hand_src *h, const wc_model_opts *o, uint32_t lines, trace_log *log,
                    wc_model_result *res)
{
    wc_config cfg;
    tiny_config(&cfg, lines);
    wc_err err = {{0}};
    memset(log, 0, sizeof *log);
    memset(res, 0, sizeof *res);
    int rc = wc_model_run(o, &cfg, &h->base, WC_RUN_FULL, res, log_event, log, &err);
    if (rc < 0) fprintf(stderr, "model error: %s\n", err.msg);
    return rc;
}

/* ---- Table 1: plain reuse distances ------------------------------------------- */

/* Distances of a sequence through one stack (granularity: the values given). */
static void stack_distances(const uint64_t *seq, unsigned n, uint64_t *out)
{
    wc_linemap map;
    wc_sdstack st;
    uint32_t stamps[64] = {0};
    CHECK(wc_linemap_init(&map, 4) == 0);
    CHECK(wc_sdstack_init(&st, 16) == 0);
    for (unsigned i = 0; i < n; i++) {
        bool created;
        uint32_t slot = wc_linemap_get(&map, seq[i], &created);
        out[i] = wc_sdstack_distance(&st, stamps[slot]);
        CHECK(wc_sdstack_touch(&st, slot, stamps) == 0);
    }
    wc_sdstack_free(&st);
    wc_linemap_free(&map);
}

static void test_table1_address_and_line_distances(void)
{
    /* x[0] x[5] x[3] x[9] x[3] x[3] x[5] */
    const uint64_t addr[7] = {0, 5, 3, 9, 3, 3, 5};
    const uint64_t want_addr[7] = {INF, INF, INF, INF, 1, 0, 2};
    const uint64_t want_line[7] = {INF, INF, 1, INF, 1, 0, 2};
    uint64_t lines[7], d[7];
    stack_distances(addr, 7, d);
    for (int i = 0; i < 7; i++) CHECK_EQ(d[i], want_addr[i]);
    for (int i = 0; i < 7; i++) lines[i] = addr[i] / 4;
    stack_distances(lines, 7, d);
    for (int i = 0; i < 7; i++) CHECK_EQ(d[i], want_line[i]);

    /* The same sequence as one thread's loads through the model: 2-line cache,
     * 3 compulsory misses (42 %) and 1 capacity miss (14 %). */
    hand_src h;
    hs_init(&h, 1);
    h.ninst[0] = 7;
    for (int i = 0; i < 7; i++) h.elem[0][i] = addr[i];
    wc_model_opts o;
    plain_opts(&o);
    trace_log log;
    wc_model_result res;
    CHECK(run_hand(&h, &o, 2, &log, &res) == 0);
    CHECK_EQ(log.n, 7);
    for (int i = 0; i < 7; i++) CHECK_EQ(log.ev[i].distance, want_line[i]);
    CHECK_EQ(res.kernels[0].run[WC_RUN_FULL].accesses, 7);
    CHECK_EQ(res.kernels[0].run[WC_RUN_FULL].inf, 3);
    CHECK_EQ(res.kernels[0].run[WC_RUN_FULL].misses, 4);
    wc_model_result_free(&res);

    /* The same through the MRC: miss ratio of a 2-line cache = 4/7. */
    wc_mrc_opts mo = {1, 'L', 128, 1.0};
    wc_err err;
    wc_mrc *m = wc_mrc_create(&mo, &err);
    CHECK(m != NULL);
    for (int i = 0; i < 7; i++) wc_mrc_access(m, lines[i]);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 2), 4.0 / 7.0, 1e-12);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 3), 3.0 / 7.0, 1e-12);
    CHECK_NEAR(wc_mrc_miss_ratio(m, 1), 6.0 / 7.0, 1e-12);
    wc_mrc_destroy(m);
}

/* Table 2-4 program: 4 threads, thread t loads x[2t] then x[2t+1]. */
static void table_program(hand_src *h)
{
    hs_init(h, 4);
    for (unsigned t = 0; t < 4; t++) {
        h->ninst[t] = 2;
        h->elem[t][0] = 2 * t;
        h->elem[t][1] = 2 * t + 1;
    }
}

static void check_rows(const trace_log *log, const uint64_t *time, const uint64_t *line,
                       const uint64_t *dist, const uint64_t *effect, const bool *hit, unsigned n)
{
    CHECK_EQ(log->n, n);
    for (unsigned i = 0; i < n && i < log->n; i++) {
        const wc_model_event *e = &log->ev[i];
        if (time) CHECK_EQ(e->time, time[i]);
        if (line) CHECK_EQ(e->line, line[i] + 0x100000 / 128);
        if (dist) CHECK_EQ(e->distance, dist[i]);
        if (effect) CHECK_EQ(e->effect, effect[i]);
        if (hit) CHECK_EQ(e->hit, hit[i]);
    }
}

static void test_table2_gpu_ordering(void)
{
    hand_src h;
    table_program(&h);
    wc_model_opts o;
    plain_opts(&o);
    trace_log log;
    wc_model_result res;
    CHECK(run_hand(&h, &o, 2, &log, &res) == 0);
    const uint64_t time[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const uint64_t line[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    const uint64_t dist[8] = {INF, 0, INF, 0, 1, 0, 1, 0};
    check_rows(&log, time, line, dist, NULL, NULL, 8);
    /* thread order 0 1 2 3 0 1 2 3 */
    for (unsigned i = 0; i < 8; i++) CHECK_EQ(log.ev[i].warp, i % 4);
    wc_model_result_free(&res);
}

static void test_table3_fixed_latency(void)
{
    hand_src h;
    table_program(&h);
    wc_model_opts o;
    plain_opts(&o);
    o.latency = true;
    o.hit_latency = 2;
    o.lambda_min = 2;
    trace_log log;
    wc_model_result res;
    CHECK(run_hand(&h, &o, 2, &log, &res) == 0);
    const uint64_t time[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const uint64_t dist[8] = {INF, INF, INF, INF, 0, 1, 0, 1};
    const uint64_t effect[8] = {2, 3, 4, 5, 6, 7, 8, 9};
    const bool hit[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    check_rows(&log, time, NULL, dist, effect, hit, 8);
    /* accesses at times 1 and 3 miss on a line still in flight: latency misses */
    CHECK_EQ(res.kernels[0].run[WC_RUN_FULL].inflight, 2);
    CHECK_EQ(res.kernels[0].run[WC_RUN_FULL].cold, 2);
    wc_model_result_free(&res);
}

static void test_table4_conditional_latency(void)
{
    hand_src h;
    table_program(&h);
    wc_model_opts o;
    plain_opts(&o);
    o.latency = true;
    o.hit_latency = 0;
    o.lambda_min = 2;
    trace_log log;
    wc_model_result res;
    CHECK(run_hand(&h, &o, 2, &log, &res) == 0);
    const uint64_t dist[8] = {INF, INF, INF, INF, 0, 0, 1, 0};
    const uint64_t effect[8] = {2, 3, 4, 5, 4, 5, 6, 7};
    const bool hit[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    check_rows(&log, NULL, NULL, dist, effect, hit, 8);
    wc_model_result_free(&res);

    /* With clipping the request at time 1 takes effect with the in-flight one
     * at 2 (the paper's example), and the one at 3 with the one at 4. */
    table_program(&h);
    o.clip = true;
    CHECK(run_hand(&h, &o, 2, &log, &res) == 0);
    const uint64_t effect_clip[8] = {2, 2, 4, 4, 4, 5, 6, 7};
    check_rows(&log, NULL, NULL, dist, effect_clip, hit, 8);
    wc_model_result_free(&res);
}

static void test_table5_one_mshr(void)
{
    /* threads 0 and 2 of Table 4: x[0], x[1] and x[4], x[5] */
    hand_src h;
    hs_init(&h, 2);
    h.ninst[0] = h.ninst[1] = 2;
    h.elem[0][0] = 0, h.elem[0][1] = 1, h.elem[1][0] = 4, h.elem[1][1] = 5;
    wc_model_opts o;
    plain_opts(&o);
    o.latency = true;
    o.hit_latency = 0;
    o.lambda_min = 2;
    o.mshr = true;
    o.mshr_per_core = 1;
    o.mshr_per_warp = 0;
    trace_log log;
    wc_model_result res;
    CHECK(run_hand(&h, &o, 2, &log, &res) == 0);
    /* time, thread, line, distance, status, MSHRs before/after, effect */
    const uint64_t time[5] = {0, 1, 2, 3, 4};
    const uint32_t warp[5] = {0, 1, 0, 1, 1};
    const uint64_t line[5] = {0, 1, 0, 1, 1};
    const uint64_t dist[5] = {INF, INF, 0, INF, INF};
    const bool refused[5] = {0, 1, 0, 0, 0};
    const bool hit[5] = {0, 0, 1, 0, 0};
    const uint32_t before[5] = {0, 1, 0, 0, 1};
    const uint32_t after[5] = {1, 1, 0, 1, 1};
    const uint64_t effect[5] = {2, 0, 2, 5, 6};
    CHECK_EQ(log.n, 5);
    for (unsigned i = 0; i < 5 && i < log.n; i++) {
        const wc_model_event *e = &log.ev[i];
        CHECK_EQ(e->time, time[i]);
        CHECK_EQ(e->warp, warp[i]);
        CHECK_EQ(e->line, line[i] + 0x100000 / 128);
        CHECK_EQ(e->refused, refused[i]);
        if (!refused[i]) {
            CHECK_EQ(e->distance, dist[i]);
            CHECK_EQ(e->hit, hit[i]);
            CHECK_EQ(e->effect, effect[i]);
            CHECK_EQ(e->mshr_after, after[i]);
        }
        CHECK_EQ(e->mshr_before, before[i]);
    }
    CHECK_EQ(res.kernels[0].run[WC_RUN_FULL].mshr_stalls, 1);
    CHECK_EQ(res.kernels[0].run[WC_RUN_FULL].accesses, 4);
    wc_model_result_free(&res);
}

/* One uncoalesced instruction touching 32 lines, 6 MSHRs per warp, fixed
 * latency 10, no divergence: it issues in chunks of 6.  Chunk k issues at
 * 11k: its lines' fills at 11k + 10 free the MSHRs at the end of that step. */
static void test_mshr_per_warp_chunks(void)
{
    hand_src h;
    hs_init(&h, 1);
    h.ninst[0] = 1;
    h.lanes = 32;
    h.lane_stride = 4096;
    wc_model_opts o;
    plain_opts(&o);
    o.latency = o.mshr = true;
    o.lambda_min = 10;
    o.mshr_per_core = 64;
    o.mshr_per_warp = 6;
    wc_config cfg;
    tiny_config(&cfg, 128);
    trace_log log;
    memset(&log, 0, sizeof log);
    wc_model_result res;
    memset(&res, 0, sizeof res);
    wc_err err;
    CHECK(wc_model_run(&o, &cfg, &h.base, WC_RUN_FULL, &res, log_event, &log, &err) == 0);
    unsigned issued = 0;
    for (unsigned i = 0; i < log.n; i++) {
        if (log.ev[i].refused) continue;
        CHECK_EQ(log.ev[i].time, 11 * (issued / 6));
        CHECK_EQ(log.ev[i].line, (0x100000 + 4096ull * issued) / 128);
        issued++;
    }
    CHECK_EQ(issued, 32);
    CHECK_EQ(res.kernels[0].run[WC_RUN_FULL].misses, 32);
    wc_model_result_free(&res);
}

/* Divergence: two warps, two missing loads each, latency 10.  Warp 0 issues at
 * 0 and re-enters the queue at the end of step 10; warp 1 at 1 and 11.  Without
 * divergence they alternate 0 1 0 1 at times 0..3. */
static void test_divergence_reentry(void)
{
    hand_src h;
    hs_init(&h, 2);
    h.ninst[0] = h.ninst[1] = 2;
    h.elem[0][0] = 0, h.elem[0][1] = 100, h.elem[1][0] = 200, h.elem[1][1] = 300;
    wc_model_opts o;
    plain_opts(&o);
    o.latency = o.divergence = true;
    o.lambda_min = 10;
    trace_log log;
    wc_model_result res;
    CHECK(run_hand(&h, &o, 8, &log, &res) == 0);
    const uint64_t time[4] = {0, 1, 11, 12};
    check_rows(&log, time, NULL, NULL, NULL, NULL, 4);
    CHECK_EQ(log.ev[2].warp, 0);
    CHECK_EQ(log.ev[3].warp, 1);
    wc_model_result_free(&res);

    hs_init(&h, 2);
    h.ninst[0] = h.ninst[1] = 2;
    h.elem[0][0] = 0, h.elem[0][1] = 100, h.elem[1][0] = 200, h.elem[1][1] = 300;
    o.divergence = false;
    CHECK(run_hand(&h, &o, 8, &log, &res) == 0);
    const uint64_t time_rr[4] = {0, 1, 2, 3};
    check_rows(&log, time_rr, NULL, NULL, NULL, NULL, 4);
    wc_model_result_free(&res);
}

/* step_requests: warps 0 and 1 load 4 lines each (4 lanes 4 KB apart), no
 * latency.  One step per instruction: warp 0's four requests at 0, warp 1's
 * at 1.  One step per request: warp 0's instruction holds the core for steps
 * 0..3, so warp 1 issues at 4. */
static void test_step_requests(void)
{
    for (int per_req = 0; per_req <= 1; per_req++) {
        hand_src h;
        hs_init(&h, 2);
        h.lanes = 4;
        h.lane_stride = 4096;
        h.ninst[0] = h.ninst[1] = 1;
        h.elem[0][0] = 0, h.elem[1][0] = 1000;
        wc_model_opts o;
        plain_opts(&o);
        o.step_requests = per_req;
        trace_log log;
        wc_model_result res;
        CHECK(run_hand(&h, &o, 64, &log, &res) == 0);
        const uint64_t t1 = per_req ? 4 : 1;
        const uint64_t time[8] = {0, 0, 0, 0, t1, t1, t1, t1};
        check_rows(&log, time, NULL, NULL, NULL, NULL, 8);
        CHECK_EQ(log.ev[4].warp, 1);
        wc_model_result_free(&res);
    }
}

/* scoreboard: one warp loads A into r1, B into r2, C into r1 (misses, latency
 * 10, divergence on).  The seed's rule: each load waits for the previous
 * one's latency - issue at 0, at 11 (ready at the end of step 10), at 22.
 * scoreboard=1: B reads and writes nothing pending and issues at 1; C
 * overwrites r1, ready at 10, so it issues at 11.  Without registers (every
 * load independent) the three issue at 0, 1, 2. */
static void sb_program(hand_src *h, bool regs)
{
    hs_init(h, 1);
    h->ninst[0] = 3;
    h->elem[0][0] = 0, h->elem[0][1] = 100, h->elem[0][2] = 200;
    if (regs) h->reg[0][0] = 1, h->reg[0][1] = 2, h->reg[0][2] = 1;
}

static void test_scoreboard(void)
{
    wc_model_opts o;
    plain_opts(&o);
    o.latency = o.divergence = true;
    o.lambda_min = 10;
    const uint64_t want[3][3] = {{0, 11, 22}, {0, 1, 11}, {0, 1, 2}};
    for (unsigned c = 0; c < 3; c++) {
        hand_src h;
        sb_program(&h, c < 2);
        o.scoreboard = c > 0;
        trace_log log;
        wc_model_result res;
        CHECK(run_hand(&h, &o, 8, &log, &res) == 0);
        check_rows(&log, want[c], NULL, NULL, NULL, NULL, 3);
        wc_model_result_free(&res);
    }
}

/* Classification arithmetic on counts chosen by hand. */
static void test_classes_from_runs(void)
{
    wc_model_kernel k;
    memset(&k, 0, sizeof k);
    wc_model_opts o;
    wc_model_opts_defaults(&o);
    for (int i = 0; i < WC_RUN__COUNT; i++) k.ran[i] = true;
    k.run[WC_RUN_FULL].misses = 100, k.run[WC_RUN_FULL].inf = 40;
    k.run[WC_RUN_NO_LATENCY].inf = 30;  /* latency misses: 10, compulsory 30 */
    k.run[WC_RUN_NO_ASSOC].misses = 80; /* associativity: 20 */
    k.run[WC_RUN_NO_MSHR].misses = 105; /* MSHRs remove misses: 0 */
    wc_model_classes_compute(&k, &o);
    CHECK_EQ(k.cls.compulsory, 30);
    CHECK_EQ(k.cls.latency, 10);
    CHECK_EQ(k.cls.associativity, 20);
    CHECK_EQ(k.cls.mshr, 0);
    CHECK_EQ(k.cls.capacity, 40);
    /* overshoot: MSHR gives way first */
    k.run[WC_RUN_NO_MSHR].misses = 10; /* 90 MSHR misses claimed, only 40 left */
    wc_model_classes_compute(&k, &o);
    CHECK_EQ(k.cls.mshr, 40);
    CHECK_EQ(k.cls.capacity, 0);
    CHECK_EQ(k.cls.compulsory + k.cls.latency + k.cls.associativity + k.cls.mshr, 100);
}

/* Options by name, and errors. */
static void test_options_by_name(void)
{
    wc_model_opts o;
    wc_model_opts_defaults(&o);
    wc_err err;
    CHECK_EQ(o.lambda_min, 100);
    CHECK_NEAR(o.sigma, 5.0, 0);
    CHECK_EQ(o.mshr_per_core, 64);
    CHECK_EQ(o.mshr_per_warp, 6);
    CHECK_EQ(wc_model_opts_set(&o, "lambda_min", "250", &err), 0);
    CHECK_EQ(o.lambda_min, 250);
    CHECK_EQ(wc_model_opts_set(&o, "core", "all", &err), 0);
    CHECK_EQ(o.core, -1);
    CHECK_EQ(wc_model_opts_set(&o, "latency", "off", &err), 0);
    CHECK(!o.latency);
    CHECK_EQ(wc_model_opts_set(&o, "sigma", "-1", &err), -1);
    CHECK(strstr(err.msg, "sigma") != NULL);
    CHECK_EQ(wc_model_opts_set(&o, "mshr_per_warp", "x", &err), -1);
    CHECK_EQ(wc_model_opts_set(&o, "gpgpu_cache:dl1", "x", &err), 1);
}

int main(void)
{
    RUN(test_table1_address_and_line_distances);
    RUN(test_table2_gpu_ordering);
    RUN(test_table3_fixed_latency);
    RUN(test_table4_conditional_latency);
    RUN(test_table5_one_mshr);
    RUN(test_mshr_per_warp_chunks);
    RUN(test_divergence_reentry);
    RUN(test_step_requests);
    RUN(test_scoreboard);
    RUN(test_classes_from_runs);
    RUN(test_options_by_name);
    return check_summary("model");
}
