/*
 * test_l1core.c - the cache-side seams: transfer geometry (line sizes 32..256
 * B move exactly the data asked for), the L1 core's issued-chunk masks, a
 * replacement policy answering bypass, and the per-organisation seams
 * (shared block, ctl, stats).  Expected values are derived by hand in the
 * comment above each test.
 */
#include <stdlib.h>

#include "cache/l1_core.h"
#include "check.h"
#include "fake_l1.h"
#include "tiny_gpu.h"
#include "warpcache/coalescer.h"
#include "warpcache/sim.h"
#include "warpcache/workloads.h"

typedef fake_l1 rec;

/* An L1 of geometry `geom` (GPGPU-Sim syntax) on the defaults. */
static wc_l1 *make_l1(rec *r, const char *geom, uint32_t coalesce)
{
    char co[16];
    snprintf(co, sizeof co, "%u", coalesce);
    const char *const kv[] = {"coalesce_bytes", co, NULL};
    wc_l1_env env = fake_l1_env(r);
    return tiny_lone_l1("conventional", geom, kv, &env);
}

static wc_winst stride_inst(uint64_t base, int64_t stride, unsigned width)
{
    wc_winst in;
    wc_winst_clear(&in);
    in.op = WC_OP_LDG;
    in.amode = WC_ADDR_STRIDE;
    in.base = base;
    in.stride = stride;
    in.width = (uint8_t)width;
    in.mask = 0xffffffffu;
    return in;
}

/* Presents every request of `in` to l1 (cookie = request index). */
static void issue(wc_l1 *l1, const wc_winst *in, uint64_t now)
{
    wc_mem_req q[WC_MAX_REQS_PER_INST];
    memset(q, 0, sizeof q); /* the coalescer sets only the address fields; the rest: a load */
    unsigned n = wc_coalesce(in, &l1->xfer, q);
    for (unsigned i = 0; i < n; i++) {
        q[i].tag = i;
        q[i].op = WC_OP_LDG;
        wc_fail_reason why;
        CHECK(l1->ops->access(l1, &q[i], now, &why) != WC_RESERVATION_FAIL);
    }
}

/* ---- transfer geometry --------------------------------------------------- */

/*
 * The L1 alone: one warp reads 32 x 4 B contiguous (128 B at 0x10000).  At
 * every line size the L1 must ask for exactly those 128 B:
 *   32 B lines: 4 requests, 4 misses of one chunk each   = 4 x 32  = 128 B
 *   64 B lines: 2 requests, 2 misses of 2 chunks          = 2 x 64  = 128 B
 *  128 B lines: 1 request, 1 miss of 4 chunks             = 128 B
 *  256 B lines: 1 request of chunks 0..3 (bytes 0..127 of the 256 B line);
 *               an N line fetches the whole line: 8 chunks = 256 B, which
 *               the next warp's 128 B (0x10080) then hits (HIT_RESERVED):
 *               two warps, 256 B, no second fetch.
 */
static void test_line_sizes_fetch_what_is_read(void)
{
    const char *geoms[] = {"N:128:32:4,L:L:m:N:L,A:32:8,8", "N:64:64:4,L:L:m:N:L,A:32:8,8",
                           "N:32:128:4,L:L:m:N:L,A:32:8,8", "N:16:256:4,L:L:m:N:L,A:32:8,8"};
    const int sends[] = {4, 2, 1, 1};
    for (int g = 0; g < 4; g++) {
        rec r = {0};
        wc_l1 *l1 = make_l1(&r, geoms[g], 0);
        if (!l1) continue;
        wc_winst in = stride_inst(0x10000, 4, 4);
        issue(l1, &in, 0);
        CHECK_EQ(r.n_sent, sends[g]);
        CHECK_EQ(r.sent_bytes, g == 3 ? 256 : 128);
        CHECK_EQ(l1->xfer.granularity, 32u << g);
        in = stride_inst(0x10080, 4, 4);
        issue(l1, &in, 1);
        CHECK_EQ(r.sent_bytes, 256); /* the second warp's 128 B: fetched once */
        l1->ops->destroy(l1);
    }
}

/*
 * A 64 B-line L1 on a stride pattern: 32 lanes x 4 B at a 64 B stride touch
 * 32 lines (0x20000 + 64 k), each in its first 32 B chunk only:
 *   type N (line): 32 misses, each fetching the whole 64 B line = 2048 B;
 *   type S (sector): 32 misses, each fetching the one chunk  = 1024 B.
 * At a 16 B stride the 32 lanes cover 512 B = 8 lines, both chunks of each
 * touched: 8 misses of 2 chunks = 512 B for both types.
 */
static void test_64b_lines_stride(void)
{
    for (int sector = 0; sector < 2; sector++) {
        rec r = {0};
        wc_l1 *l1 = make_l1(
            &r, sector ? "S:64:64:4,L:L:m:N:L,A:32:8,8" : "N:64:64:4,L:L:m:N:L,A:32:8,8", 0);
        if (!l1) continue;
        wc_winst in = stride_inst(0x20000, 64, 4);
        issue(l1, &in, 0);
        CHECK_EQ(r.n_sent, 32);
        CHECK_EQ(r.sent_bytes, sector ? 1024 : 2048);
        CHECK_EQ(r.sent_chunks[5], sector ? 0x1 : 0x3);
        CHECK_EQ(r.sent[5].addr, 0x20000 + 5 * 64);
        CHECK_EQ(l1->stats.outcome[WC_MISS], 32);
        rec r2 = {0};
        wc_l1 *l2 = make_l1(
            &r2, sector ? "S:64:64:4,L:L:m:N:L,A:32:8,8" : "N:64:64:4,L:L:m:N:L,A:32:8,8", 0);
        in = stride_inst(0x40000, 16, 4);
        issue(l2, &in, 0);
        CHECK_EQ(r2.n_sent, 8);
        CHECK_EQ(r2.sent_bytes, 512);
        l1->ops->destroy(l1);
        l2->ops->destroy(l2);
    }
}

/* Combinations that do not work are refused with the option's name. */
static void test_refused_combinations(void)
{
    rec r = {0};
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    cfg.coalesce_bytes = 256; /* larger than the 128 B line */
    wc_l1_env env = fake_l1_env(&r);
    CHECK(wc_l1_find("conventional")->create(&cfg, &env, &err) == NULL);
    CHECK(strstr(err.msg, "option -coalesce_bytes: 256") != NULL);
    wc_config_defaults(&cfg);
    CHECK_EQ(wc_config_set(&cfg, "gpgpu_cache:dl1", "N:2:1024:4,L:L:m:N:L,A:32:8,8", "t", &err), 0);
    CHECK(wc_l1_find("conventional")->create(&cfg, &env, &err) == NULL);
    CHECK(strstr(err.msg, "1024-byte lines are not supported") != NULL);
}

/*
 * The whole GPU on micro/stream:n=65536 (a copy: 65536 x 4 B = 262144 B read,
 * each byte once, no reuse), 16 KB L1 at 32/64/128/256 B lines, coalescing at
 * the line size.  By hand, for every line size L:
 *   l2.read_bytes = 262144 (the data read, nothing more);
 *   seed-counted L2->L1 packets = 262144 / 32 = 8192;
 *   L2->L1 bytes (8 B header + payload, in 32 B flits) = responses x flits:
 *     L = 32:  8192 responses x (8 + 32 -> 64 B)  = 524288
 *     L = 64:  4096 x (8 + 64 -> 96 B)            = 393216
 *     L = 128: 2048 x (8 + 128 -> 160 B)          = 327680
 *     L = 256: 1024 lines, each two 128 B L2 lines answered as two packets:
 *              2048 x 160 B                        = 327680.
 * (With the instruction cache off: its 15 code lines would add their own.)
 */
static void test_stream_every_line_size(void)
{
    const char *geoms[] = {"N:128:32:4,L:L:m:N:P,A:32:8,8", "N:64:64:4,L:L:m:N:P,A:32:8,8",
                           "N:32:128:4,L:L:m:N:P,A:32:8,8", "N:16:256:4,L:L:m:N:P,A:32:8,8"};
    const uint64_t down_bytes[] = {524288, 393216, 327680, 327680};
    for (int g = 0; g < 4; g++) {
        wc_config c;
        wc_config_defaults(&c);
        wc_err err = {{0}};
        CHECK_EQ(wc_config_set(&c, "gpgpu_cache:dl1", geoms[g], "t", &err), 0);
        c.coalesce_bytes = 0;
        c.icache = 0;
        wc_source *src = wc_workload_open("micro/stream:n=65536", 1, &err);
        wc_sim *sim = wc_sim_create(&c, &err);
        wc_stats st;
        wc_stats_init(&st);
        CHECK(sim && src && wc_sim_run(sim, src, &st, &err) == 0);
        CHECK_EQ(st.total.l2.read_bytes, 262144);
        CHECK_EQ(st.total.icnt.l2_to_l1_seed_packets, 8192);
        CHECK_EQ(st.total.icnt.l2_to_l1_bytes, down_bytes[g]);
        wc_stats_free(&st);
        wc_sim_destroy(sim);
        wc_source_destroy(src);
    }
}

/* ---- MSHR issued-chunk masks ---------------------------------------------- */

/*
 * A sectored L1 with 256 B lines (8 chunks).  Request chunks 0..3 of line
 * 0x8000: MISS, sends 0x0F.  Request chunks 0..7: chunks 0..3 are pending,
 * so only 0xF0 is sent (SECTOR_MISS).  Request chunks 2..5 (0x3C): all
 * pending, HIT_RESERVED, nothing sent.  The fill of 0x0F answers nobody (the
 * entry waits for 0xF0 too); the fill of 0xF0 answers all three.
 */
static void test_issued_chunks_suppress_duplicates(void)
{
    rec r = {0};
    wc_l1 *l1 = make_l1(&r, "S:16:256:4,L:L:m:N:L,A:32:8,8", 0);
    if (!l1) return;
    wc_mem_req q = {.addr = 0x8000, .chunks = 0x0F, .line_log2 = 8, .chunk_log2 = 5, .tag = 1};
    wc_fail_reason why;
    CHECK_EQ(l1->ops->access(l1, &q, 0, &why), WC_MISS);
    CHECK_EQ(r.sent_chunks[0], 0x0F);
    q.chunks = 0xFF;
    q.tag = 2;
    CHECK_EQ(l1->ops->access(l1, &q, 1, &why), WC_SECTOR_MISS);
    CHECK_EQ(r.n_sent, 2);
    CHECK_EQ(r.sent_chunks[1], 0xF0); /* chunks 0..3 not asked again */
    q.chunks = 0x3C;
    q.tag = 3;
    CHECK_EQ(l1->ops->access(l1, &q, 2, &why), WC_HIT_RESERVED);
    CHECK_EQ(r.n_sent, 2);
    l1->ops->fill(l1, 0x8000, 0x0F, 10);
    CHECK_EQ(r.n_resp, 0);
    l1->ops->fill(l1, 0x8000, 0xF0, 12);
    CHECK_EQ(r.n_resp, 3);
    q.chunks = 0xFF;
    CHECK_EQ(l1->ops->access(l1, &q, 13, &why), WC_HIT);
    l1->ops->destroy(l1);
}

/* ---- a replacement policy that answers bypass ------------------------------ */

static void none_touch(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                       const wc_repl_ctx *ctx)
{
    set[way].repl = stamp;
}

static int always_bypass(void *st, wc_line *set, uint32_t assoc, uint64_t *rng,
                         const wc_repl_ctx *ctx)
{
    return WC_REPL_BYPASS;
}

static const wc_repl_ops bypass_policy = {
    .name = "test-bypass",
    .on_hit = none_touch,
    .on_insert = none_touch,
    .victim = always_bypass,
};

/*
 * One set of 2 ways, the policy swapped for one that always answers bypass.
 * Lines 0x0 and 0x80 go into the invalid ways (no victim asked).  A read of
 * 0x100 needs a victim: the policy answers bypass, so the read is BYPASSED
 * (sent with WC_REQ_BYPASS), and the set - tags, states, replacement state,
 * chunk masks - is exactly as before; nothing was evicted.  The same with
 * allocate-on-fill: the miss takes no way, the fill asks the policy, gets
 * bypass, installs nothing - and still answers the waiting read.
 */
static void test_policy_bypass_leaves_set(void)
{
    for (int on_fill = 0; on_fill < 2; on_fill++) {
        rec r = {0};
        wc_l1 *l1 =
            make_l1(&r, on_fill ? "N:1:128:2,L:L:f:N:L,A:8:8,8" : "N:1:128:2,L:L:m:N:L,A:8:8,8", 0);
        if (!l1) continue;
        wc_tag_array *ta = ((wc_l1_core *)l1)->ts->ta;
        ta->repl = &bypass_policy;
        wc_fail_reason why;
        for (uint32_t i = 0; i < 2; i++) {
            wc_mem_req q = {.addr = 0x80 * i, .chunks = 0xF, .line_log2 = 7, .chunk_log2 = 5};
            CHECK_EQ(l1->ops->access(l1, &q, i, &why), WC_MISS);
            l1->ops->fill(l1, q.addr, 0xF, 10 + i);
        }
        wc_line before[2];
        memcpy(before, ta->lines, sizeof before);
        uint64_t stamp = ta->stamp;
        wc_mem_req q = {.addr = 0x100, .chunks = 0xF, .line_log2 = 7, .chunk_log2 = 5, .tag = 7};
        wc_outcome o = l1->ops->access(l1, &q, 20, &why);
        if (!on_fill) {
            CHECK_EQ(o, WC_BYPASSED);
            CHECK(r.sent[2].flags & WC_REQ_BYPASS);
        } else {
            CHECK_EQ(o, WC_MISS);
            l1->ops->fill(l1, 0x100, 0xF, 30);
            CHECK_EQ(r.n_resp, 3); /* the two earlier reads and this one */
        }
        CHECK(memcmp(before, ta->lines, sizeof before) == 0);
        CHECK_EQ(ta->stamp, stamp);
        CHECK_EQ(l1->stats.evictions, 0);
        l1->ops->destroy(l1);
    }
}

/* ---- an organisation with its own tag store (through the ops table) ------- */

/* A toy fully-associative store of 4 lines, 32 B chunks, fetching only the
 * missing requested chunks, FIFO, that makes room by evicting the TWO oldest
 * lines at once (as a TSC chunk group would): the seam's "allocate victims,
 * possibly several lines" path, and every ops-table call of the core. */
typedef struct toy_ts {
    wc_tagstore base;
    wc_line lines[4];
    uint64_t born[4], clock;
    unsigned line_log2;
} toy_ts;

static wc_line *toy_lookup(wc_tagstore *ts, uint64_t addr, uint32_t *set)
{
    toy_ts *t = (toy_ts *)ts;
    *set = 0;
    for (int i = 0; i < 4; i++)
        if (t->lines[i].state != WC_LINE_INVALID && t->lines[i].tag == addr >> t->line_log2)
            return &t->lines[i];
    return NULL;
}

static bool toy_can_allocate(const wc_tagstore *ts, uint32_t set)
{
    const toy_ts *t = (const toy_ts *)ts;
    for (int i = 0; i < 4; i++)
        if (t->lines[i].state != WC_LINE_RESERVED) return true;
    return false;
}

static wc_line *toy_allocate(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                             uint8_t state, const wc_repl_ctx *ctx, uint64_t now)
{
    toy_ts *t = (toy_ts *)ts;
    int slot = -1;
    for (int i = 0; i < 4 && slot < 0; i++)
        if (t->lines[i].state == WC_LINE_INVALID) slot = i;
    if (slot < 0) /* no room: the two oldest valid lines go, in one step */
        for (int round = 0; round < 2; round++) {
            int old = -1;
            for (int i = 0; i < 4; i++)
                if (t->lines[i].state == WC_LINE_VALID && (old < 0 || t->born[i] < t->born[old]))
                    old = i;
            if (old < 0) break;
            wc_l1_core_evict(core, 0, &t->lines[old], now);
            if (slot < 0) slot = old;
        }
    if (slot < 0) return NULL;
    memset(&t->lines[slot], 0, sizeof t->lines[slot]);
    t->lines[slot].tag = tag;
    t->lines[slot].state = state;
    t->born[slot] = ++t->clock;
    return &t->lines[slot];
}

static void toy_touch(wc_tagstore *ts, uint32_t set, wc_line *line, const wc_repl_ctx *ctx) {}

static void toy_invalidate(wc_tagstore *ts, uint32_t set, wc_line *line)
{
    line->state = WC_LINE_INVALID;
    line->valid_chunks = line->dirty_chunks = line->used_chunks = line->pending_chunks = 0;
}

static void toy_fill(wc_tagstore *ts, uint32_t set, wc_line *line, uint64_t chunks)
{
    line->valid_chunks |= (uint16_t)chunks;
    line->pending_chunks &= (uint16_t)~chunks;
    if (line->state == WC_LINE_RESERVED && !line->pending_chunks) line->state = WC_LINE_VALID;
}

static void toy_each_valid(wc_tagstore *ts, void (*fn)(void *, uint32_t, wc_line *), void *arg)
{
    toy_ts *t = (toy_ts *)ts;
    for (int i = 0; i < 4; i++)
        if (t->lines[i].state == WC_LINE_VALID) fn(arg, 0, &t->lines[i]);
}

static void toy_destroy(wc_tagstore *ts)
{
    free(ts);
}

static const wc_tagstore_ops toy_ops = {
    .name = "toy",
    .destroy = toy_destroy,
    .lookup = toy_lookup,
    .can_allocate = toy_can_allocate,
    .allocate = toy_allocate,
    .touch = toy_touch,
    .invalidate = toy_invalidate,
    .fill = toy_fill,
    .each_valid = toy_each_valid,
};

static wc_tagstore *toy_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                               wc_err *err)
{
    toy_ts *t = calloc(1, sizeof *t);
    t->base.ops = &toy_ops;
    t->base.chunk_log2 = 5;
    t->base.nchunks = 4;
    t->line_log2 = 7;
    return &t->base;
}

static const wc_l1_ops toy_org = {
    .name = "toy",
    .access = wc_l1_core_access,
    .fill = wc_l1_core_fill,
    .destroy = wc_l1_core_destroy,
    .flush = wc_l1_core_flush,
};

/*
 * The core around the toy store, reads of chunk 0 of 128 B lines A..E
 * (0x000, 0x080, ... 0x200), each miss filled at once.  By hand:
 *   A B C D: 4 misses into the free lines, each sending chunk 0 only (32 B);
 *   A: HIT;  E: MISS, no free line: the two oldest (A, B) are evicted at
 *   once (evictions 2), E takes A's place;  B: MISS into B's freed place (no
 *   eviction);  C, D: HIT;  A: MISS, full: the two oldest now C, D go
 *   (evictions 4), A takes C's place and D's stays free.  Sends: 7, 32 B each
 *   = 224 B.  A flush then evicts the 3 valid lines E, B, A (evictions 7).
 */
static void test_own_tag_store(void)
{
    rec r = {0};
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&cfg, "gpgpu_cache:dl1", "N:1:128:4,L:E:m:N:L,A:8:8,8", "t", &err), 0);
    wc_l1_env env = fake_l1_env(&r);
    wc_l1 *l1 = wc_l1_core_create(&toy_org, toy_create, &cfg, &env, &err);
    CHECK(l1 != NULL);
    if (!l1) return;
    const uint64_t A = 0x000, B = 0x080, C = 0x100, D = 0x180, E = 0x200;
    const uint64_t seq[] = {A, B, C, D, A, E, B, C, D, A};
    const wc_outcome want[] = {WC_MISS, WC_MISS, WC_MISS, WC_MISS, WC_HIT,
                               WC_MISS, WC_MISS, WC_HIT,  WC_HIT,  WC_MISS};
    const uint64_t evictions_after[] = {0, 0, 0, 0, 0, 2, 2, 2, 2, 4};
    for (int i = 0; i < 10; i++) {
        wc_mem_req q = {.addr = seq[i], .chunks = 0x1, .line_log2 = 7, .chunk_log2 = 5, .tag = 1};
        wc_fail_reason why;
        CHECK_EQ(l1->ops->access(l1, &q, (uint64_t)i, &why), want[i]);
        if (want[i] == WC_MISS) l1->ops->fill(l1, seq[i], 0x1, (uint64_t)i);
        CHECK_EQ(l1->stats.evictions, evictions_after[i]);
    }
    CHECK_EQ(r.n_sent, 7);
    CHECK_EQ(r.sent_bytes, 224);
    CHECK_EQ(r.sent_chunks[6], 0x1);
    l1->ops->flush(l1, 20);
    CHECK_EQ(l1->stats.evictions, 7);
    l1->ops->destroy(l1);
}

/* ---- retries of a reservation fail ------------------------------------------ */

/* The toy store counting its lookups, with and without the retry memo. */
static int toy_lookups;

static wc_line *toy_counted_lookup(wc_tagstore *ts, uint64_t addr, uint32_t *set)
{
    toy_lookups++;
    return toy_lookup(ts, addr, set);
}

#define TOY_COUNTED_OPS(memo)                                                                      \
    {                                                                                              \
        .name = "toy", .destroy = toy_destroy, .lookup = toy_counted_lookup,                       \
        .can_allocate = toy_can_allocate, .allocate = toy_allocate, .touch = toy_touch,            \
        .invalidate = toy_invalidate, .fill = toy_fill, .each_valid = toy_each_valid,              \
        .retry_memo = memo,                                                                        \
    }
static const wc_tagstore_ops toy_memo_ops = TOY_COUNTED_OPS(true);
static const wc_tagstore_ops toy_plain_ops = TOY_COUNTED_OPS(false);

static wc_tagstore *toy_memo_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                    wc_err *err)
{
    wc_tagstore *ts = toy_create(core, cfg, env, err);
    ts->ops = &toy_memo_ops;
    return ts;
}

static wc_tagstore *toy_plain_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                     wc_err *err)
{
    wc_tagstore *ts = toy_create(core, cfg, env, err);
    ts->ops = &toy_plain_ops;
    return ts;
}

static wc_l1 *make_toy(rec *r, const char *geom, bool memo)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&cfg, "gpgpu_cache:dl1", geom, "t", &err), 0);
    wc_l1_env env = fake_l1_env(r);
    return wc_l1_core_create(&toy_org, memo ? toy_memo_create : toy_plain_create, &cfg, &env, &err);
}

static wc_outcome toy_read(wc_l1 *l1, uint64_t addr, uint64_t now, wc_fail_reason *why)
{
    wc_mem_req q = {.addr = addr, .chunks = 0x1, .line_log2 = 7, .chunk_log2 = 5, .tag = 1};
    return l1->ops->access(l1, &q, now, why);
}

/*
 * A retry of the request that failed last is answered without a lookup
 * while nothing changed, and counted as every attempt is.  The toy store (4
 * lines, one set), 8 MSHRs, reads of chunk 0 of lines A..F (0x000 ...):
 *   t0-3  A B C D miss: 4 lookups, every line RESERVED;
 *   t4    E: LINE_ALLOC (no line can be taken): lookup 5;
 *   t5,6  E again: LINE_ALLOC, no lookup with the memo (5), one each
 *         without it (7); LINE_ALLOC fails 3 either way;
 *   t7    F, another request: its own lookup (6 / 8), LINE_ALLOC;
 *   t8    E: the memo is F's now: lookup (7 / 9), LINE_ALLOC;
 *   t9    A filled (the fill finds its line: lookup 8 / 10): a line can be
 *         taken;
 *   t10   E: lookup (9 / 11), MISS (A, the only valid line, is evicted).
 */
static void test_retry_memo_waits_for_change(void)
{
    for (int memo = 0; memo < 2; memo++) {
        rec r = {0};
        wc_l1 *l1 = make_toy(&r, "N:1:128:4,L:E:m:N:L,A:8:8,8", memo);
        CHECK(l1 != NULL);
        if (!l1) return;
        toy_lookups = 0;
        wc_fail_reason why;
        for (uint64_t i = 0; i < 4; i++) CHECK_EQ(toy_read(l1, 0x80 * i, i, &why), WC_MISS);
        CHECK_EQ(toy_lookups, 4);
        const uint64_t E = 0x200, F = 0x280;
        for (uint64_t t = 4; t <= 6; t++) {
            CHECK_EQ(toy_read(l1, E, t, &why), WC_RESERVATION_FAIL);
            CHECK_EQ(why, WC_FAIL_LINE_ALLOC);
        }
        CHECK_EQ(toy_lookups, memo ? 5 : 7);
        CHECK_EQ(l1->stats.fail[WC_FAIL_LINE_ALLOC], 3);
        CHECK_EQ(l1->stats.outcome[WC_RESERVATION_FAIL], 3);
        CHECK_EQ(toy_read(l1, F, 7, &why), WC_RESERVATION_FAIL);
        CHECK_EQ(toy_read(l1, E, 8, &why), WC_RESERVATION_FAIL);
        CHECK_EQ(toy_lookups, memo ? 7 : 9);
        l1->ops->fill(l1, 0x000, 0x1, 9);
        CHECK_EQ(toy_read(l1, E, 10, &why), WC_MISS);
        CHECK_EQ(toy_lookups, memo ? 9 : 11);
        CHECK_EQ(l1->stats.evictions, 1);
        CHECK_EQ(l1->stats.fail[WC_FAIL_LINE_ALLOC], 5);
        l1->ops->destroy(l1);
    }
}

/*
 * A MISS_QUEUE_FULL fail holds only until a slot frees.  One miss-queue
 * slot; a send leaves the SM 10 cycles after it is made.  A misses at t0
 * (its send leaves at 10); B at t1 and t9 finds the slot busy (the retry at
 * t9 without a lookup: 2 lookups); at t10 the slot is free: B is looked up
 * and MISSes.
 */
static void test_retry_memo_miss_queue(void)
{
    rec r = {.delay = 10};
    wc_l1 *l1 = make_toy(&r, "N:1:128:4,L:E:m:N:L,A:8:8,1", true);
    CHECK(l1 != NULL);
    if (!l1) return;
    toy_lookups = 0;
    wc_fail_reason why;
    CHECK_EQ(toy_read(l1, 0x000, 0, &why), WC_MISS);
    CHECK_EQ(toy_read(l1, 0x080, 1, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_MISS_QUEUE_FULL);
    CHECK_EQ(toy_read(l1, 0x080, 9, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_MISS_QUEUE_FULL);
    CHECK_EQ(toy_lookups, 2);
    CHECK_EQ(toy_read(l1, 0x080, 10, &why), WC_MISS);
    CHECK_EQ(toy_lookups, 3);
    CHECK_EQ(l1->stats.fail[WC_FAIL_MISS_QUEUE_FULL], 2);
    l1->ops->destroy(l1);
}

static wc_outcome line_read(wc_l1 *l1, uint64_t addr, uint64_t now)
{
    wc_mem_req q = {.addr = addr, .chunks = 0xF, .line_log2 = 7, .chunk_log2 = 5, .tag = 1};
    wc_fail_reason why;
    return l1->ops->access(l1, &q, now, &why);
}

/*
 * The miss queue's slots free at their sends' leave times, whatever order
 * those come in (the ring keeps them sorted; the SM's port gives them in
 * order, a test's sends need not).  Three slots, write-evict (a read miss
 * needs one), every line its own set.  Leave times by hand, slots as a
 * sorted multiset:
 *   t0: A leaves at 30 {0,0,30}; B at 10 {0,10,30}; C at 20 {10,20,30}
 *   t5: D fails MISS_QUEUE_FULL (the earliest, 10, is after 5)
 *   t10: D misses, leaves at 60 {20,30,60}
 *   t19: E fails; t20: E misses, leaves at 21 {21,30,60}
 *   t20: F fails; t21: F misses, leaves at 21 {21,30,60}; G misses too
 *   (21 <= 21), leaves at 100 {30,60,100}; t29: H fails; t30: H misses.
 */
static void test_miss_queue_ring(void)
{
    rec r = {0};
    wc_l1 *l1 = make_l1(&r, "N:64:128:8,L:E:m:N:L,A:32:8,3", 0);
    CHECK(l1 != NULL);
    if (!l1) return;
    static const struct {
        uint64_t now, delay;
        bool fails;
    } step[] = {{0, 30, false},  {0, 10, false},  {0, 20, false}, {5, 0, true},
                {10, 50, false}, {19, 0, true},   {20, 1, false}, {20, 0, true},
                {21, 0, false},  {21, 79, false}, {29, 0, true},  {30, 0, false}};
    uint64_t line = 0;
    for (size_t i = 0; i < sizeof step / sizeof step[0]; i++) {
        r.delay = step[i].delay;
        wc_outcome o = line_read(l1, line << 7, step[i].now);
        CHECK_EQ(o, step[i].fails ? WC_RESERVATION_FAIL : WC_MISS);
        if (!step[i].fails) line++;
    }
    CHECK_EQ(l1->stats.fail[WC_FAIL_MISS_QUEUE_FULL], 4);
    l1->ops->destroy(l1);
}

static bool remembered(const wc_l1 *l1)
{
    return ((const wc_l1_core *)l1)->memo.live;
}

/*
 * In an array-backed L1 allocating on miss, only a fill that can lift the
 * fail forgets it: one in the failing request's set (LINE_ALLOC) or one
 * that frees an MSHR entry (MSHR_ENTRY).
 *   2 sets x 1 way, linear index (line n -> set n % 2): lines 0 and 1 miss
 *   (both RESERVED); line 2 (set 0) fails LINE_ALLOC.  Line 1's fill (set
 *   1) keeps the fail; the retry fails LINE_ALLOC again.  Line 0's fill
 *   (set 0) lifts it: line 2 MISSes.
 *   One MSHR entry, 2 ways: line 0 misses (fetching 4 chunks); line 1 fails
 *   MSHR_ENTRY.  Chunk 0 of line 0 arrives: the entry waits for 3 more, the
 *   fail holds.  Chunks 1-3 arrive: the entry is freed, the fail forgotten;
 *   line 1 MISSes.
 */
static void test_retry_memo_fill_in_other_set(void)
{
    rec r = {0};
    wc_l1 *l1 = make_l1(&r, "N:2:128:1,L:L:m:N:L,A:8:8,8", 0);
    if (!l1) return;
    CHECK_EQ(line_read(l1, 0x000, 0), WC_MISS);
    CHECK_EQ(line_read(l1, 0x080, 1), WC_MISS);
    CHECK_EQ(line_read(l1, 0x100, 2), WC_RESERVATION_FAIL);
    CHECK(remembered(l1));
    l1->ops->fill(l1, 0x080, 0xF, 3);
    CHECK(remembered(l1));
    CHECK_EQ(line_read(l1, 0x100, 4), WC_RESERVATION_FAIL);
    CHECK_EQ(l1->stats.fail[WC_FAIL_LINE_ALLOC], 2);
    l1->ops->fill(l1, 0x000, 0xF, 5);
    CHECK(!remembered(l1));
    CHECK_EQ(line_read(l1, 0x100, 6), WC_MISS);
    l1->ops->destroy(l1);

    rec r2 = {0};
    l1 = make_l1(&r2, "N:2:128:2,L:L:m:N:L,A:1:8,8", 0);
    if (!l1) return;
    CHECK_EQ(line_read(l1, 0x000, 0), WC_MISS);
    CHECK_EQ(line_read(l1, 0x080, 1), WC_RESERVATION_FAIL);
    CHECK_EQ(l1->stats.fail[WC_FAIL_MSHR_ENTRY], 1);
    l1->ops->fill(l1, 0x000, 0x1, 2);
    CHECK(remembered(l1));
    l1->ops->fill(l1, 0x000, 0xE, 3);
    CHECK(!remembered(l1));
    CHECK_EQ(line_read(l1, 0x080, 4), WC_MISS);
    l1->ops->destroy(l1);
}

/*
 * Which organisations remember fails (wc_tagstore_ops.retry_memo): all
 * whose probes are pure and whose state is their own; not TSC+, whose
 * followers' mode is a duel shared by every SM.
 */
static void test_retry_memo_per_org(void)
{
    const char *orgs[] = {"conventional", "tsc", "dsc", "dl1d-static", "ball", "profiled-bypass"};
    for (size_t i = 0; i < sizeof orgs / sizeof *orgs; i++) {
        rec r = {0};
        wc_l1_env env = fake_l1_env(&r);
        wc_l1 *l1 = tiny_lone_l1(orgs[i], "N:32:128:4,L:L:m:N:L,A:32:8,8", NULL, &env);
        CHECK(l1 != NULL);
        if (!l1) continue;
        CHECK(((wc_l1_core *)l1)->retry_memo);
        l1->ops->destroy(l1);
    }
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    const wc_l1_ops *ops = wc_l1_find("tsc-plus");
    void *sh = ops->shared_create(&cfg, 1, &err);
    rec r = {0};
    wc_l1_env env = fake_l1_env(&r);
    env.shared = sh;
    wc_l1 *l1 = ops->create(&cfg, &env, &err);
    CHECK(l1 != NULL);
    if (l1) {
        CHECK(!((wc_l1_core *)l1)->retry_memo);
        l1->ops->destroy(l1);
    }
    ops->shared_destroy(sh);
}

/* ---- reads of an absent line (l1_core.c, absent_line_read) --------------- */

/* Whether every live MSHR entry's line is in its set, RESERVED, and every
 * RESERVED line has a live entry: what lets a read of an absent line skip the
 * MSHR lookup in an array-backed store allocating on miss. */
static bool entries_match_reserved_lines(const wc_l1_core *c)
{
    const wc_tag_array *ta = &c->arr;
    unsigned live = 0;
    for (uint32_t i = 0; i < c->mshr.n_entries; i++) {
        const wc_mshr_entry *e = &c->mshr.e[i];
        if (!e->n_merged) continue;
        live++;
        uint32_t set = wc_index_set(&ta->index, e->addr << c->line_log2);
        int way = wc_tag_array_find(ta, set, e->addr);
        if (way < 0 || ta->lines[(size_t)set * ta->assoc + way].state != WC_LINE_RESERVED)
            return false;
    }
    unsigned reserved = 0;
    for (size_t i = 0; i < (size_t)ta->nsets * ta->assoc; i++)
        if (ta->lines[i].state == WC_LINE_RESERVED) {
            reserved++;
            if (wc_mshr_find(&c->mshr, ta->lines[i].tag) < 0) return false;
        }
    return live == c->mshr.used && reserved == live;
}

/*
 * Random traffic (reads of any chunks, streaming reads, writes, fills of
 * part of a line, flushes while nothing is in flight) on small array-backed
 * L1s allocating on miss, line and sector stores, under every write policy:
 * after every step each live MSHR entry's line is RESERVED in its set and
 * each RESERVED line has an entry.  Also, every read of a line the set does
 * not hold that fails for want of an MSHR entry (the check absent_line_read
 * makes without a lookup) finds no entry for its line.
 */
static void test_absent_line_has_no_entry(void)
{
    static const char *geoms[] = {
        "N:2:128:2,L:L:m:N:L,A:3:2,4", "S:2:128:2,L:E:m:N:L,A:3:2,4", "S:4:128:2,L:T:m:W:L,A:4:4,2",
        "N:2:128:4,L:B:m:W:L,A:3:2,3", "S:2:128:2,L:L:m:W:L,A:2:8,8", "N:1:128:3,L:E:m:N:L,A:2:3,5",
    };
    uint64_t rng = 0x12345678u;
    for (size_t g = 0; g < sizeof geoms / sizeof *geoms; g++) {
        rec r = {0};
        r.delay = 3;
        wc_l1 *l1 = make_l1(&r, geoms[g], 32);
        CHECK(l1 != NULL);
        if (!l1) continue;
        wc_l1_core *c = (wc_l1_core *)l1;
        CHECK(c->ta != NULL && c->alloc_on_miss);
        unsigned bad = 0, entry_fails = 0;
        for (uint64_t now = 1; now < 20000; now++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            unsigned x = (unsigned)(rng >> 33), kind = x % 10;
            uint64_t line = (x >> 4) % 12;
            if (kind < 3 && c->mshr.used) { /* a fill of part of a live entry */
                uint32_t i = (x >> 8) % c->mshr.n_entries;
                while (!c->mshr.e[i].n_merged) i = (i + 1) % c->mshr.n_entries;
                uint64_t got = c->mshr.e[i].issued & ((x >> 12) | 1);
                l1->ops->fill(l1, c->mshr.e[i].addr << 7, got ? got : c->mshr.e[i].issued, now);
            } else if (kind == 3 && !c->mshr.used) {
                l1->ops->flush(l1, now);
            } else {
                wc_mem_req q = {.addr = line << 7, .line_log2 = 7, .chunk_log2 = 5};
                q.chunks = ((x >> 12) & 0xF) ? (x >> 12) & 0xF : 0x1;
                q.tag = (uint32_t)now;
                if (kind == 4) q.flags = WC_REQ_WRITE, q.op = WC_OP_STG;
                if (kind == 5) q.flags = WC_REQ_STREAM;
                uint32_t set = wc_index_set(&c->arr.index, q.addr);
                bool absent = wc_tag_array_find(&c->arr, set, line) < 0;
                wc_fail_reason why = WC_FAIL_NONE;
                wc_outcome o = l1->ops->access(l1, &q, now, &why);
                if (absent && !q.flags && o == WC_RESERVATION_FAIL && why == WC_FAIL_MSHR_ENTRY) {
                    entry_fails++;
                    bad += wc_mshr_find(&c->mshr, line) >= 0;
                }
            }
            bad += !entries_match_reserved_lines(c);
        }
        CHECK_EQ(bad, 0u);
        CHECK(entry_fails > 0); /* the case the shortcut takes was exercised */
        l1->ops->destroy(l1);
    }
}

/*
 * The order of the fails a read of an absent line checks (GPGPU-Sim's, as
 * read_not_hit has it): no way to reserve, then the miss queue, then the
 * MSHRs.  One set (linear index), one MSHR entry, one miss-queue slot, sends
 * leaving 10 cycles after they are made.  One way:
 *   t0: line 0 misses (the way RESERVED, the entry taken, the slot busy to 10)
 *   t1: line 1 fails LINE_ALLOC (the queue and the MSHRs are full too)
 * Two ways:
 *   t0: line 0 misses as above
 *   t1: line 1 fails MISS_QUEUE_FULL (way 1 is free; the entry is taken too)
 *   t10: line 1 fails MSHR_ENTRY (the slot is free again)
 *   t11: line 0's fill frees the entry; line 1 misses (way 1, slot to 21)
 */
static void test_absent_line_fail_order(void)
{
    rec r = {0}, r2 = {0};
    r.delay = r2.delay = 10;
    wc_l1 *one = make_l1(&r, "N:1:128:1,L:L:m:N:L,A:1:8,1", 0);
    wc_l1 *two = make_l1(&r2, "N:1:128:2,L:L:m:N:L,A:1:8,1", 0);
    CHECK(one != NULL && two != NULL);
    if (!one || !two) return;
    wc_fail_reason why;
    wc_mem_req q = {.addr = 0, .chunks = 0xF, .line_log2 = 7, .chunk_log2 = 5, .tag = 1};
    CHECK_EQ(one->ops->access(one, &q, 0, &why), WC_MISS);
    CHECK_EQ(two->ops->access(two, &q, 0, &why), WC_MISS);
    q.addr = 0x80;
    CHECK_EQ(one->ops->access(one, &q, 1, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_LINE_ALLOC);
    CHECK_EQ(two->ops->access(two, &q, 1, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_MISS_QUEUE_FULL);
    CHECK_EQ(two->ops->access(two, &q, 10, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_MSHR_ENTRY);
    two->ops->fill(two, 0, 0xF, 11);
    CHECK_EQ(two->ops->access(two, &q, 11, &why), WC_MISS);
    CHECK_EQ(two->stats.outcome[WC_MISS], 2);
    CHECK_EQ(r2.n_sent, 2);
    CHECK_EQ(r2.sent[1].addr, 0x80u);
    one->ops->destroy(one);
    two->ops->destroy(two);
}

/* ---- ctl and the organisation's counters ---------------------------------- */

/*
 * Two SMs' instances behave differently through ctl: SM 1 is told to bypass
 * global accesses, SM 0 is not.  The same read misses (allocates) on SM 0
 * and is BYPASSED on SM 1.  Ops the organisation does not know answer -1.
 */
static void test_ctl_per_sm(void)
{
    rec r0 = {0}, r1 = {0};
    wc_l1 *a = make_l1(&r0, "N:32:128:4,L:L:m:N:L,A:32:8,8", 0);
    wc_l1 *b = make_l1(&r1, "N:32:128:4,L:L:m:N:L,A:32:8,8", 0);
    if (!a || !b) return;
    CHECK_EQ(wc_l1_ctl(b, WC_L1_CTL_SKIP_GLOBAL, 1), 0);
    CHECK_EQ(wc_l1_ctl(b, WC_L1_CTL_QUERY_SKIP_GLOBAL, 0), 1);
    CHECK_EQ(wc_l1_ctl(a, WC_L1_CTL_QUERY_SKIP_GLOBAL, 0), 0);
    CHECK_EQ(wc_l1_ctl(a, WC_L1_CTL_ORG + 5, 0), -1);
    wc_mem_req q = {.addr = 0x1000, .chunks = 0xF, .line_log2 = 7, .chunk_log2 = 5};
    wc_fail_reason why;
    CHECK_EQ(a->ops->access(a, &q, 0, &why), WC_MISS);
    CHECK_EQ(b->ops->access(b, &q, 0, &why), WC_BYPASSED);
    a->ops->destroy(a);
    b->ops->destroy(b);
}

static void add_up(void *ctx, const char *name, double v)
{
    if (strcmp(name, "ship.inserts") == 0) *(double *)ctx += v;
}

/*
 * An organisation's counters reach the report: with SHiP the L1's stats()
 * emits ship.inserts; on micro/stream:n=8192 (8192 x 4 B read, 128 B lines,
 * no reuse) every read miss inserts a line: 32768 / 128 = 256 inserts,
 * summed over SMs into the run's extras.
 */
static void test_org_stats_reported(void)
{
    rec r = {0};
    wc_l1 *l1 = make_l1(&r, "N:32:128:4,S:L:m:N:L,A:32:8,8", 0);
    if (!l1) return;
    wc_mem_req q = {.addr = 0x1000, .chunks = 0xF, .line_log2 = 7, .chunk_log2 = 5};
    wc_fail_reason why;
    l1->ops->access(l1, &q, 0, &why);
    double n = 0;
    l1->ops->stats(l1, add_up, &n);
    CHECK(n == 1.0);
    l1->ops->destroy(l1);

    wc_config c;
    wc_config_defaults(&c);
    wc_err err = {{0}};
    CHECK_EQ(wc_config_set(&c, "gpgpu_cache:dl1", "N:32:128:4,S:L:m:N:H,A:32:8,8", "t", &err), 0);
    wc_source *src = wc_workload_open("micro/stream:n=8192", 1, &err);
    wc_sim *sim = wc_sim_create(&c, &err);
    wc_stats st;
    wc_stats_init(&st);
    CHECK(sim && src && wc_sim_run(sim, src, &st, &err) == 0);
    bool found = false;
    for (unsigned e = 0; e < st.total.n_extras; e++)
        if (strcmp(st.total.extras[e].name, "ship.inserts") == 0) {
            found = true;
            CHECK(st.total.extras[e].value == 256.0);
        }
    CHECK(found);
    wc_stats_free(&st);
    wc_sim_destroy(sim);
    wc_source_destroy(src);
}

int main(void)
{
    RUN(test_line_sizes_fetch_what_is_read);
    RUN(test_64b_lines_stride);
    RUN(test_refused_combinations);
    RUN(test_stream_every_line_size);
    RUN(test_issued_chunks_suppress_duplicates);
    RUN(test_policy_bypass_leaves_set);
    RUN(test_own_tag_store);
    RUN(test_retry_memo_waits_for_change);
    RUN(test_retry_memo_miss_queue);
    RUN(test_miss_queue_ring);
    RUN(test_retry_memo_fill_in_other_set);
    RUN(test_retry_memo_per_org);
    RUN(test_absent_line_has_no_entry);
    RUN(test_absent_line_fail_order);
    RUN(test_ctl_per_sm);
    RUN(test_org_stats_reported);
    return check_summary("l1core");
}
