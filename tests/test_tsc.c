/*
 * test_tsc.c - the tag-split cache (src/cache/org/tsc.c; seed 000, sections 3-4):
 * partial misses, the issued-chunk mask, the free-chunk rule with a
 * conflicting shared tag, several lines' chunks replaced in one step, the NRU
 * reset, private tag length 0 behaving like the sector cache, and DSC-2
 * (src/cache/org/dsc.c) refusing two lines that TSC stores (section 5.2), and
 * TSC+ (src/cache/org/tscplus.c) switching mode when its counters cross.  Every
 * expected value is derived by hand in the comment above its test.
 *
 * Geometry in every test: 32 sets x 4 groups x 4 chunks of 32 B (128 B
 * lines), LINEAR set index, so set = (addr >> 7) & 31 and the line tag
 * t = addr >> 7.  With the default 8 private bits, shared = t >> 13: lines
 * t and t + 32 share a shared tag (same set, private tags differ), lines
 * t and t + 8192 do not.
 */
#include <stdlib.h>

#include "cache/l1_core.h"
#include "check.h"
#include "fake_l1.h"
#include "tiny_gpu.h"
#include "warpcache/sim.h"

typedef fake_l1 rec;

/* An L1 of organisation `org` on geometry `geom`, with one extra option
 * (key=value) or none. */
static wc_l1 *make(rec *r, const char *org, const char *geom, const char *key, const char *val)
{
    const char *const kv[] = {key, val, NULL};
    wc_l1_env env = fake_l1_env(r);
    return tiny_lone_l1(org, geom, kv, &env);
}

#define GEOM "N:32:128:4,L:L:m:N:L,A:32:8,8"

static wc_l1 *make_tsc(rec *r)
{
    return make(r, "tsc", GEOM, NULL, NULL);
}

/* Line with tag t (set t & 31). */
static uint64_t line_addr(uint64_t t)
{
    return t << 7;
}

static wc_outcome rd(wc_l1 *l1, uint64_t t, uint64_t chunks, uint64_t now)
{
    wc_mem_req q;
    memset(&q, 0, sizeof q);
    q.addr = line_addr(t);
    q.chunks = chunks;
    q.op = WC_OP_LDG;
    q.line_log2 = 7;
    q.chunk_log2 = 5;
    wc_fail_reason why;
    return l1->ops->access(l1, &q, now, &why);
}

/* A read that misses, then its data arriving. */
static wc_outcome rd_fill(wc_l1 *l1, uint64_t t, uint64_t chunks, uint64_t now)
{
    wc_outcome o = rd(l1, t, chunks, now);
    l1->ops->fill(l1, line_addr(t), chunks, now + 1);
    return o;
}

typedef struct named {
    const char *name;
    double v;
} named;

static void find_stat(void *ctx, const char *name, double v)
{
    named *n = ctx;
    if (strcmp(name, n->name) == 0) n->v = v;
}

static double stat(const wc_l1 *l1, const char *name)
{
    named n = {name, -1};
    l1->ops->stats(l1, find_stat, &n);
    return n.v;
}

/*
 * Partial miss.  Read chunks {0,1} of line 0: MISS, chunks 0b0011 sent.
 * After the fill, read chunks {1,2}: chunk 1 is cached, chunk 2 is not ->
 * SECTOR_MISS (the partial miss: cached chunk served, the missing one
 * requested), and only chunk 2 (0b0100) is sent; tsc_partial_misses = 1.
 * After its fill, {0,1,2} hits.
 */
static void test_partial_miss(void)
{
    rec r = {0};
    wc_l1 *l1 = make_tsc(&r);
    if (!l1) return;
    CHECK_EQ(rd_fill(l1, 0, 0x3, 0), WC_MISS);
    CHECK_EQ(r.sent_chunks[0], 0x3);
    CHECK_EQ(rd(l1, 0, 0x6, 10), WC_SECTOR_MISS);
    CHECK_EQ(r.n_sent, 2);
    CHECK_EQ(r.sent_chunks[1], 0x4);
    CHECK_EQ(stat(l1, "tsc_partial_misses"), 1);
    l1->ops->fill(l1, 0, 0x4, 11);
    CHECK_EQ(rd(l1, 0, 0x7, 12), WC_HIT);
    CHECK_EQ(r.n_sent, 2);
    l1->ops->destroy(l1);
}

/*
 * The issued-chunk mask suppresses a duplicate chunk request.  Read {0,1}
 * of line 0: MISS, sends 0b0011.  Before any fill, read {0,1,2}: chunks 0
 * and 1 are already on their way, so only chunk 2 (0b0100) is sent
 * (SECTOR_MISS: the line's record exists).  Then read {0}: everything is
 * pending -> HIT_RESERVED, nothing sent.  Fills of 0b0011 and 0b0100
 * answer all three requests.
 */
static void test_issued_mask_suppresses_duplicates(void)
{
    rec r = {0};
    wc_l1 *l1 = make_tsc(&r);
    if (!l1) return;
    CHECK_EQ(rd(l1, 0, 0x3, 0), WC_MISS);
    CHECK_EQ(rd(l1, 0, 0x7, 1), WC_SECTOR_MISS);
    CHECK_EQ(rd(l1, 0, 0x1, 2), WC_HIT_RESERVED);
    CHECK_EQ(r.n_sent, 2);
    CHECK_EQ(r.sent_chunks[0], 0x3);
    CHECK_EQ(r.sent_chunks[1], 0x4);
    l1->ops->fill(l1, 0, 0x3, 5);
    CHECK_EQ(r.n_resp, 0);
    l1->ops->fill(l1, 0, 0x4, 6);
    CHECK_EQ(r.n_resp, 3);
    l1->ops->destroy(l1);
}

/*
 * The free-chunk rule with a conflicting shared tag, and the NRU victim.
 * Set 0.  Lines (tag: shared tag): A = 0 (0), B = 8192 (1), C = 16384 (2),
 * D = 24576 (3), E = 32768 (4), F = 8192 + 32 (1, like B).
 *   A {0,1,2,3} -> group 0 full; B {0} -> group 1; C {0} -> group 2;
 *   D {0} -> group 3.  9 slots are free, but all in groups whose shared tag
 *   differs from E's.
 *   NRU (one access or placement sets all its chunks, then the all-ones
 *   check): A's placement: all ones, nothing else to clear; B's: all ones
 *   -> A's 4 bits clear; C's, D's: A still 0, no reset.  A hit on A: all
 *   ones -> B, C, D clear; hits on B and D: only C's slot is 0.
 *   E {0}: no usable free slot -> victim = the only NRU-0 slot, C's; C's
 *   group has another shared tag -> the group is invalidated: C is evicted
 *   (evictions 1, group_invalidations 1), E takes group 2.
 *   F {0}: shares B's shared tag -> uses a free slot of group 1, no eviction.
 * Afterwards A, B, D, E, F hit; C misses.
 */
static void test_free_chunk_rule_and_nru_victim(void)
{
    rec r = {0};
    wc_l1 *l1 = make_tsc(&r);
    if (!l1) return;
    uint64_t A = 0, B = 8192, C = 16384, D = 24576, E = 32768, F = 8192 + 32;
    CHECK_EQ(rd_fill(l1, A, 0xf, 0), WC_MISS);
    CHECK_EQ(rd_fill(l1, B, 0x1, 2), WC_MISS);
    CHECK_EQ(rd_fill(l1, C, 0x1, 4), WC_MISS);
    CHECK_EQ(rd_fill(l1, D, 0x1, 6), WC_MISS);
    CHECK_EQ(rd(l1, A, 0xf, 8), WC_HIT);
    CHECK_EQ(rd(l1, B, 0x1, 9), WC_HIT);
    CHECK_EQ(rd(l1, D, 0x1, 9), WC_HIT);
    CHECK_EQ(l1->stats.evictions, 0);
    CHECK_EQ(rd_fill(l1, E, 0x1, 10), WC_MISS);
    CHECK_EQ(l1->stats.evictions, 1);
    CHECK_EQ(stat(l1, "tsc_group_invalidations"), 1);
    CHECK_EQ(rd_fill(l1, F, 0x1, 12), WC_MISS);
    CHECK_EQ(l1->stats.evictions, 1);
    CHECK_EQ(rd(l1, A, 0xf, 20), WC_HIT);
    CHECK_EQ(rd(l1, B, 0x1, 21), WC_HIT);
    CHECK_EQ(rd(l1, D, 0x1, 22), WC_HIT);
    CHECK_EQ(rd(l1, E, 0x1, 23), WC_HIT);
    CHECK_EQ(rd(l1, F, 0x1, 24), WC_HIT);
    CHECK_EQ(rd(l1, C, 0x1, 25), WC_MISS);
    l1->ops->destroy(l1);
}

/*
 * Several lines' chunks replaced in one step.  Set 0.  A0..A3 = 0, 32, 64,
 * 96 (shared tag 0, one chunk each) share group 0; X = 8192, Y = 16384,
 * Z = 24576 (4 chunks each) fill groups 1, 2, 3.  NRU: A0's placement is
 * alone (nothing to clear); A1's: all ones -> A0's bit clears; A2, A3, X,
 * Y, Z: A0 still 0, no reset.  Hits on X and Y change nothing: A0's slot
 * (group 0) is the only NRU-0 candidate.
 * N = 32768 (shared tag 4) {0}: the NRU-0 candidates are all in group 0,
 * whose shared tag differs -> the group is invalidated: A0..A3, four lines,
 * leave in one step (evictions 4, chunk evictions 4, group invalidations 1).
 * The utilisation histogram sees four lines with 1 of 4 chunks used
 * (bucket 1).  Then A0..A3 miss; X, Y, Z still hit.
 */
static void test_several_lines_in_one_step(void)
{
    rec r = {0};
    wc_l1 *l1 = make_tsc(&r);
    if (!l1) return;
    for (uint64_t k = 0; k < 4; k++) CHECK_EQ(rd_fill(l1, 32 * k, 0x1, 2 * k), WC_MISS);
    CHECK_EQ(rd_fill(l1, 8192, 0xf, 10), WC_MISS);
    CHECK_EQ(rd_fill(l1, 16384, 0xf, 12), WC_MISS);
    CHECK_EQ(rd_fill(l1, 24576, 0xf, 14), WC_MISS);
    CHECK_EQ(rd(l1, 8192, 0xf, 16), WC_HIT);
    CHECK_EQ(rd(l1, 16384, 0xf, 17), WC_HIT);
    CHECK_EQ(l1->stats.evictions, 0);
    CHECK_EQ(rd_fill(l1, 32768, 0x1, 20), WC_MISS);
    CHECK_EQ(l1->stats.evictions, 4);
    CHECK_EQ(l1->stats.util_hist[1], 4);
    CHECK_EQ(stat(l1, "tsc_chunk_evictions"), 4);
    CHECK_EQ(stat(l1, "tsc_group_invalidations"), 1);
    CHECK_EQ(rd(l1, 8192, 0xf, 30), WC_HIT);
    CHECK_EQ(rd(l1, 16384, 0xf, 31), WC_HIT);
    CHECK_EQ(rd(l1, 24576, 0xf, 32), WC_HIT);
    for (uint64_t k = 0; k < 4; k++) CHECK_EQ(rd(l1, 32 * k, 0x1, 40 + k), WC_MISS);
    l1->ops->destroy(l1);
}

/*
 * A victim in a group with the same shared tag costs only that chunk: the
 * line keeps its other chunks.  Set 0, shared tag 0 for P = 0 and Q = 32.
 * Groups 1..3 hold X, Y, Z = 8192, 16384, 24576 (4 chunks each, other
 * shared tags).  P {0,1,2} then Q {0} fill group 0 (slots 0..3).  NRU:
 * placing X's first chunk (slot 4; slots 0..3 at 1) resets 0..3; Y's and Z's
 * placements: X's alone, nothing cleared; Y's: all ones -> X clears; Z's,
 * P's, Q's: X still 0, no reset.  Hits on Q, X (all ones now -> every other
 * slot clears: Y, Z, P, Q), then Q, Y, Z: P's three slots are the only 0s.
 * Q {1} (a sector miss of Q, shared tag 0): group 0 is full and matches ->
 * a victim chunk; NRU 0 = P's chunks (random among 3), and a matching group
 * costs only that slot: P loses one chunk, is not evicted (evictions 0,
 * chunk evictions 1), and reading P {0,1,2} is then a partial miss.
 */
static void test_matching_group_loses_one_chunk(void)
{
    rec r = {0};
    wc_l1 *l1 = make_tsc(&r);
    if (!l1) return;
    CHECK_EQ(rd_fill(l1, 8192, 0xf, 0), WC_MISS);
    CHECK_EQ(rd_fill(l1, 16384, 0xf, 2), WC_MISS);
    CHECK_EQ(rd_fill(l1, 24576, 0xf, 4), WC_MISS);
    CHECK_EQ(rd_fill(l1, 0, 0x7, 6), WC_MISS);
    CHECK_EQ(rd_fill(l1, 32, 0x1, 8), WC_MISS);
    CHECK_EQ(rd(l1, 32, 0x1, 10), WC_HIT);
    CHECK_EQ(rd(l1, 8192, 0xf, 11), WC_HIT);
    CHECK_EQ(rd(l1, 32, 0x1, 11), WC_HIT);
    CHECK_EQ(rd(l1, 16384, 0xf, 12), WC_HIT);
    CHECK_EQ(rd(l1, 24576, 0xf, 13), WC_HIT);
    CHECK_EQ(rd_fill(l1, 32, 0x2, 14), WC_SECTOR_MISS);
    CHECK_EQ(l1->stats.evictions, 0);
    CHECK_EQ(stat(l1, "tsc_chunk_evictions"), 1);
    CHECK_EQ(rd(l1, 32, 0x3, 20), WC_HIT);
    CHECK_EQ(rd(l1, 0, 0x7, 21), WC_SECTOR_MISS);
    l1->ops->destroy(l1);
}

/*
 * NRU all-ones reset.  Set 0.  A = 0 {0} takes slot 0: it is the only
 * occupied slot, nothing to clear (no reset counted).  B = 32 {0} (same
 * shared tag) takes slot 1: every occupied slot is 1 -> A's bit clears:
 * resets 1.  A hit on A: again all ones -> B's bit clears: resets 2.  A
 * second hit on A changes nothing (B is 0): resets stay 2.
 */
static void test_nru_reset(void)
{
    rec r = {0};
    wc_l1 *l1 = make_tsc(&r);
    if (!l1) return;
    CHECK_EQ(rd_fill(l1, 0, 0x1, 0), WC_MISS);
    CHECK_EQ(stat(l1, "tsc_nru_resets"), 0);
    CHECK_EQ(rd_fill(l1, 32, 0x1, 2), WC_MISS);
    CHECK_EQ(stat(l1, "tsc_nru_resets"), 1);
    CHECK_EQ(rd(l1, 0, 0x1, 4), WC_HIT);
    CHECK_EQ(stat(l1, "tsc_nru_resets"), 2);
    CHECK_EQ(rd(l1, 0, 0x1, 5), WC_HIT);
    CHECK_EQ(stat(l1, "tsc_nru_resets"), 2);
    l1->ops->destroy(l1);
}

/*
 * Private tag length 0 behaves exactly like the sector cache.  With 0
 * private bits every line has its own shared tag, so a group holds one line:
 * 4 ways of 128 B lines of 4 sectors.  The same sequence goes to tsc
 * (-tsc_private_bits 0) and to the conventional L1 with a type-S geometry
 * and NRU ("S:32:128:4,N:..."); outcomes and sent chunk masks must agree
 * step by step.  Set 0, lines A..E = 0, 32, 64, 96, 128 (5 lines, 4 ways).
 *   A {0,1}, B {0}, C {0}, D {0}: misses, one way each (TSC NRU: B's
 *   placement clears A's bits; C, D: no reset).
 *   B {2}: sector miss, sends 0b0100 (both).  Hits on B, C.
 *   E {0}: a miss needing a way.  Sector NRU: A, B, C, D all at 1 -> clear,
 *   way 0 = A.  TSC: A's chunks are the only NRU-0 slots -> A's group.  Both
 *   evict A; E takes way 0 / group 0 (TSC: all ones -> every other bit
 *   clears).
 *   Hits on B {0,2} and D.  A {0}: a miss; sector NRU: E, B, D at 1, C at
 *   0 -> C (way 2); TSC: C's slot is the only 0 -> C.  Both evict C.
 * Afterwards B, D, E hit and C misses in both.
 */
static void test_private_zero_is_sector_cache(void)
{
    rec rt = {0}, rs = {0};
    wc_l1 *t = make(&rt, "tsc", GEOM, "tsc_private_bits", "0");
    wc_l1 *s = make(&rs, "conventional", "S:32:128:4,N:L:m:N:L,A:32:8,8", NULL, NULL);
    if (!t || !s) return;
    struct {
        uint64_t tag, chunks;
        wc_outcome want;
    } seq[] = {
        {0, 0x3, WC_MISS},         {32, 0x1, WC_MISS}, {64, 0x1, WC_MISS}, {96, 0x1, WC_MISS},
        {32, 0x4, WC_SECTOR_MISS}, {32, 0x5, WC_HIT},  {64, 0x1, WC_HIT},  {128, 0x1, WC_MISS},
        {32, 0x5, WC_HIT},         {96, 0x1, WC_HIT},  {0, 0x1, WC_MISS},
    };
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        wc_outcome a = rd_fill(t, seq[i].tag, seq[i].chunks, 10 * i);
        wc_outcome b = rd_fill(s, seq[i].tag, seq[i].chunks, 10 * i);
        CHECK_EQ(a, seq[i].want);
        CHECK_EQ(b, seq[i].want);
        CHECK_EQ(rt.n_sent, rs.n_sent);
        CHECK_EQ(rt.sent_chunks[rt.n_sent - 1], rs.sent_chunks[rs.n_sent - 1]);
    }
    CHECK_EQ(t->stats.evictions, 2);
    CHECK_EQ(s->stats.evictions, 2);
    uint64_t probe[] = {32, 96, 128, 64};
    wc_outcome want[] = {WC_HIT, WC_HIT, WC_HIT, WC_MISS};
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(rd(t, probe[i], 0x1, 200 + i), want[i]);
        CHECK_EQ(rd(s, probe[i], 0x1, 200 + i), want[i]);
    }
    t->ops->destroy(t);
    s->ops->destroy(s);
}

/*
 * Section 5.2's example: two lines that need the same 32 B position.  One
 * sector frame / chunk group per set ("N:32:128:1"), set 0, lines A = 0 and
 * B = 32 (same shared tag for TSC: 0 >> 13 = 32 >> 13 = 0).
 *   DSC-2: A {0} takes tag 0 and position 0 of the frame.  B {0}: the frame
 *   has a second tag, but chunk 0 can only sit at position 0, which A holds:
 *   B takes it, A loses its only chunk and leaves (evictions 1, position
 *   conflicts 1); A {0} then misses.
 *   TSC: A {0} -> slot 0, B {0} -> slot 1 (the inter-chunk offset says
 *   which chunk): both stay, both hit, no eviction.
 *   DSC-2 with different positions, A {0} and B {1}: both stay.
 */
static void test_dsc2_refuses_what_tsc_stores(void)
{
    const char *g1 = "N:32:128:1,L:L:m:N:L,A:32:8,8";
    rec rd_ = {0}, rt = {0}, r2 = {0};
    wc_l1 *d = make(&rd_, "dsc", g1, "dsc_tags", "2");
    wc_l1 *t = make(&rt, "tsc", g1, NULL, NULL);
    wc_l1 *d2 = make(&r2, "dsc", g1, "dsc_tags", "2");
    if (!d || !t || !d2) return;
    CHECK_EQ(rd_fill(d, 0, 0x1, 0), WC_MISS);
    CHECK_EQ(rd_fill(d, 32, 0x1, 2), WC_MISS);
    CHECK_EQ(d->stats.evictions, 1);
    CHECK_EQ(stat(d, "dsc_position_conflicts"), 1);
    CHECK_EQ(rd(d, 32, 0x1, 4), WC_HIT);
    CHECK_EQ(rd(d, 0, 0x1, 5), WC_MISS);

    CHECK_EQ(rd_fill(t, 0, 0x1, 0), WC_MISS);
    CHECK_EQ(rd_fill(t, 32, 0x1, 2), WC_MISS);
    CHECK_EQ(t->stats.evictions, 0);
    CHECK_EQ(rd(t, 32, 0x1, 4), WC_HIT);
    CHECK_EQ(rd(t, 0, 0x1, 5), WC_HIT);

    CHECK_EQ(rd_fill(d2, 0, 0x1, 0), WC_MISS);
    CHECK_EQ(rd_fill(d2, 32, 0x2, 2), WC_MISS);
    CHECK_EQ(d2->stats.evictions, 0);
    CHECK_EQ(rd(d2, 0, 0x1, 4), WC_HIT);
    CHECK_EQ(rd(d2, 32, 0x2, 5), WC_HIT);
    d->ops->destroy(d);
    t->ops->destroy(t);
    d2->ops->destroy(d2);
}

/* A TSC+ L1 of SM 0 with its own shared block (freed by the caller). */
static wc_l1 *make_tscp(rec *r, const char *halve, void **sh)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    if (wc_config_set(&cfg, "gpgpu_cache:dl1", GEOM, "test", &err) != 0 ||
        (halve && wc_config_set(&cfg, "tscp_halve_at", halve, "test", &err) != 0))
        return NULL;
    const wc_l1_ops *ops = wc_l1_find("tsc-plus");
    *sh = ops->shared_create(&cfg, 1, &err);
    wc_l1_env env = fake_l1_env(r);
    env.shared = *sh;
    wc_l1 *l1 = ops->create(&cfg, &env, &err);
    if (!l1) fprintf(stderr, "create: %s\n", err.msg);
    return l1;
}

/* The set of SM 0 with role `role` (1 fine sampler, 2 coarse, 0 follower). */
static int64_t set_with_role(wc_l1 *l1, int role)
{
    for (int64_t s = 0; s < 32; s++)
        if (wc_l1_ctl(l1, WC_L1_CTL_ORG + 1, s) == role) return s;
    return -1;
}

/*
 * TSC+ switches mode when the counters cross.  SM 0 has 4 fine and 4
 * coarse sampler sets (seeded draw); F, C, X are a fine sampler, a coarse
 * sampler and a follower set (line tag = set, so address = set << 7).
 * Products miss x traffic (traffic per miss = 1 request + chunks fetched):
 *   C {0}: coarse fetches the whole line: 0b1111; coarse 1 x 5 = 5, fine
 *     0 -> fine stays (ties and smaller: fine).  C {1},{2},{3}: hits.
 *   X {0}: a follower in fine mode fetches 0b0001.
 *   F {0}: fine 1 x 2 = 2 <= 5: fine.  F {1}: sector miss, fine 2 x 4 = 8
 *     > 5 -> coarse wins (1 switch).
 *   X + 32 lines on (same set, new line) {0}: the follower now fetches
 *     0b1111.
 * With -tscp_halve_at 1 the same steps halve at F's second miss (fine
 * misses 2 > 1): fine 2, 4 -> 1, 2; coarse 1, 5 -> 0, 2; coarse product
 * 0 < 2 -> coarse.
 */
static void test_tscplus_switches_mode(void)
{
    for (int h = 0; h < 2; h++) {
        rec r = {0};
        void *sh = NULL;
        wc_l1 *l1 = make_tscp(&r, h ? "1" : NULL, &sh);
        if (!l1) return;
        int64_t F = set_with_role(l1, 1), C = set_with_role(l1, 2), X = set_with_role(l1, 0);
        CHECK(F >= 0 && C >= 0 && X >= 0);
        CHECK_EQ(rd_fill(l1, (uint64_t)C, 0x1, 0), WC_MISS);
        CHECK_EQ(r.sent_chunks[0], 0xf);
        l1->ops->fill(l1, line_addr((uint64_t)C), 0xf, 1);
        for (uint64_t c = 1; c < 4; c++) CHECK_EQ(rd(l1, (uint64_t)C, 1ull << c, 2 + c), WC_HIT);
        CHECK_EQ(wc_l1_ctl(l1, WC_L1_CTL_ORG + 2, 0), 0);
        CHECK_EQ(rd_fill(l1, (uint64_t)X, 0x1, 10), WC_MISS);
        CHECK_EQ(r.sent_chunks[1], 0x1);
        CHECK_EQ(rd_fill(l1, (uint64_t)F, 0x1, 12), WC_MISS);
        CHECK_EQ(wc_l1_ctl(l1, WC_L1_CTL_ORG + 2, 0), 0);
        r.n_rec = 0;
        CHECK_EQ(rd_fill(l1, (uint64_t)F, 0x2, 14), WC_SECTOR_MISS);
        CHECK_EQ(wc_l1_ctl(l1, WC_L1_CTL_ORG + 2, 0), 1);
        CHECK_EQ(r.n_rec, 1); /* the switch is on the timeline: coarse at cycle 14 */
        CHECK_STR(r.last_rec_key, "tscp_mode_coarse");
        CHECK_EQ(r.last_rec_value, 1);
        CHECK_EQ(r.last_rec_at, 14);
        CHECK_EQ(stat(l1, "tscp_winner_switches"), 1);
        CHECK_EQ(rd(l1, (uint64_t)X + 32, 0x1, 20), WC_MISS);
        CHECK_EQ(r.sent_chunks[r.n_sent - 1], 0xf);
        CHECK_EQ(stat(l1, "tscp_duel_miss_fine"), h ? 1 : 2);
        CHECK_EQ(stat(l1, "tscp_duel_traffic_fine"), h ? 2 : 4);
        CHECK_EQ(stat(l1, "tscp_duel_miss_coarse"), h ? 0 : 1);
        CHECK_EQ(stat(l1, "tscp_duel_traffic_coarse"), h ? 2 : 5);
        l1->ops->destroy(l1);
        wc_l1_find("tsc-plus")->shared_destroy(sh);
    }
}

/*
 * A chunk that arrived, was taken away and is fetched again inside the same
 * MSHR entry must arrive again before the entry completes (l1_core.c).  DSC-2,
 * one frame per set, set 0, A = 0, B = 32:
 *   A {0,1}: MISS, one entry issuing 0b0011.  Chunk 0 arrives (A valid {0},
 *   chunk 1 still pending; no answer yet).
 *   B {0}: takes position 0 from A (A loses chunk 0); B filled: 1 answer.
 *   A {0}: SECTOR_MISS, sends chunk 0 again on A's entry.
 *   Chunk 1 arrives: the entry must still wait for the resent chunk 0 -> no
 *   new answer (1).  Chunk 0 arrives: both A requests answered (3), and A
 *   {0,1} hits.  (Before the fix the entry completed at chunk 1, the resent
 *   chunk found no entry, and A stayed pending for ever: a deadlock.)
 */
static void test_refetch_waits_in_same_entry(void)
{
    rec r = {0};
    wc_l1 *d = make(&r, "dsc", "N:32:128:1,L:L:m:N:L,A:32:8,8", "dsc_tags", "2");
    if (!d) return;
    CHECK_EQ(rd(d, 0, 0x3, 0), WC_MISS);
    d->ops->fill(d, 0, 0x1, 1);
    CHECK_EQ(r.n_resp, 0);
    CHECK_EQ(rd_fill(d, 32, 0x1, 2), WC_MISS);
    CHECK_EQ(r.n_resp, 1);
    CHECK_EQ(rd(d, 0, 0x1, 4), WC_SECTOR_MISS);
    CHECK_EQ(r.sent_chunks[r.n_sent - 1], 0x1);
    d->ops->fill(d, 0, 0x2, 5);
    CHECK_EQ(r.n_resp, 1);
    d->ops->fill(d, 0, 0x1, 6);
    CHECK_EQ(r.n_resp, 3);
    CHECK_EQ(rd(d, 0, 0x3, 7), WC_HIT);
    d->ops->destroy(d);
}

/* Options out of range or unsupported are refused at creation. */
static void test_refused(void)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    CHECK(wc_config_set(&cfg, "tsc_private_bits", "21", "test", &err) != 0);
    /* a chunk that is not a power of two: refused when set (the schema's .pow2) */
    CHECK(wc_config_set(&cfg, "tsc_chunk_bytes", "24", "test", &err) != 0);
    CHECK(strstr(err.msg, "test: option -tsc_chunk_bytes: 24 is not a power of two") != NULL);
    rec r = {0};
    wc_l1_env env = fake_l1_env(&r);
    wc_config_defaults(&cfg);
    CHECK(wc_config_set(&cfg, "gpgpu_cache:dl1", "N:32:128:4,L:L:f:N:L,A:32:8,8", "test", &err) ==
          0);
    CHECK(wc_l1_find("tsc")->create(&cfg, &env, &err) == NULL);
    CHECK(strstr(err.msg, "allocates on miss") != NULL);
}

int main(void)
{
    RUN(test_partial_miss);
    RUN(test_issued_mask_suppresses_duplicates);
    RUN(test_free_chunk_rule_and_nru_victim);
    RUN(test_several_lines_in_one_step);
    RUN(test_matching_group_loses_one_chunk);
    RUN(test_nru_reset);
    RUN(test_private_zero_is_sector_cache);
    RUN(test_dsc2_refuses_what_tsc_stores);
    RUN(test_tscplus_switches_mode);
    RUN(test_refetch_waits_in_same_entry);
    RUN(test_refused);
    return check_summary("tsc");
}
