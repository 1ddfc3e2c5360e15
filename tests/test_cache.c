/*
 * test_cache.c - the conventional L1 (src/cache/org/conventional.c) driven
 * through its ops table with a fake environment that records every send and
 * respond.  Each scenario's expectations are traced by hand from the
 * semantics in docs/cache.md (GPGPU-Sim's check order for reservation fails).
 */
#include <stdlib.h>

#include "cache/l1_core.h"
#include "check.h"
#include "fake_l1.h"
#include "warpcache/cache.h"

/* ---- fake engine ------------------------------------------------------- */

#define MAXREC 64

/* What the listeners saw (the sends and answers: fake_l1.h). */
typedef struct seen {
    int n_evict, n_fill, n_bypass;
    uint64_t evict_addr[MAXREC];
    uint8_t evict_used[MAXREC];
} seen;

static void fake_evict(void *ctx, int sm, const wc_line *line, uint64_t line_addr, uint64_t now)
{
    seen *f = ctx;
    if (f->n_evict < MAXREC) {
        f->evict_addr[f->n_evict] = line_addr;
        f->evict_used[f->n_evict] = (uint8_t)line->used_chunks;
    }
    f->n_evict++;
}

static void fake_fill(void *ctx, int sm, uint64_t line_addr, uint64_t sectors, uint64_t now)
{
    ((seen *)ctx)->n_fill++;
}

static void fake_bypass(void *ctx, int sm, const wc_mem_req *req, uint64_t now)
{
    ((seen *)ctx)->n_bypass++;
}

typedef struct rig {
    fake_l1 f; /* sends and answers */
    seen l;    /* listener events */
    wc_l1_listener ls;
    wc_l1_env env;
    wc_config cfg;
    wc_l1 *l1;
} rig;

/* Geometry in GPGPU-Sim's fields: type, sets, assoc, rp, wp, ap, wap, sif,
 * MSHR entries, max merge, miss queue. 128 B lines. */
static void set_geom(rig *r, char type, uint32_t nsets, uint32_t assoc, char rp, char wp, char ap,
                     char wa, char sif, uint32_t mshr, uint32_t merge, uint32_t mq)
{
    wc_cache_geom *g = &r->cfg.l1;
    g->type = type;
    g->nsets = nsets;
    g->line_bytes = 128;
    g->assoc = assoc;
    g->repl = rp;
    g->write_policy = wp;
    g->alloc_policy = ap;
    g->write_alloc = wa;
    g->set_index = sif;
    g->mshr_type = 'A';
    g->mshr_entries = mshr;
    g->mshr_max_merge = merge;
    g->miss_queue = mq;
}

static rig *rig_new(void)
{
    rig *r = calloc(1, sizeof *r);
    r->ls = (wc_l1_listener){
        .ctx = &r->l, .on_evict = fake_evict, .on_fill = fake_fill, .on_bypass = fake_bypass};
    r->env = fake_l1_env(&r->f);
    r->env.sm = 3;
    r->env.listener = &r->ls;
    /* Fermi baseline N:32:128:4,L:L:m:N:H,A:32:8,8 unless a test changes it. */
    set_geom(r, 'N', 32, 4, 'L', 'L', 'm', 'N', 'H', 32, 8, 8);
    r->cfg.seed = 1;
    return r;
}

static bool rig_start(rig *r)
{
    wc_err err;
    const wc_l1_ops *ops = wc_l1_find("conventional");
    r->l1 = ops ? ops->create(&r->cfg, &r->env, &err) : NULL;
    if (!r->l1) fprintf(stderr, "create: %s\n", ops ? err.msg : "no conventional L1");
    return r->l1 != NULL;
}

static void rig_free(rig *r)
{
    if (r->l1) r->l1->ops->destroy(r->l1);
    free(r);
}

static wc_mem_req mkreq(uint64_t addr, uint8_t sectors, uint8_t flags, uint32_t cookie)
{
    wc_mem_req q;
    memset(&q, 0, sizeof q);
    q.addr = addr;
    q.chunks = sectors; /* 32 B chunks of a 128 B line, as the coalescer cuts them */
    q.line_log2 = 7;
    q.chunk_log2 = 5;
    q.flags = flags;
    q.tag = cookie;
    q.warp = 5;
    q.block = 9;
    return q;
}

static wc_outcome acc(rig *r, uint64_t addr, uint8_t sectors, uint8_t flags, uint32_t cookie,
                      uint64_t now, wc_fail_reason *why)
{
    wc_mem_req q = mkreq(addr, sectors, flags, cookie);
    wc_fail_reason dummy;
    return r->l1->ops->access(r->l1, &q, now, why ? why : &dummy);
}

static void fill(rig *r, uint64_t addr, uint64_t sectors, uint64_t now)
{
    r->l1->ops->fill(r->l1, addr, sectors, now);
}

/* With linear indexing and 128 B lines, line n of set s in a 32-set cache. */
#define LINE(set, n) ((uint64_t)(((n)*32 + (set)) * 128))

/* ---- tests ------------------------------------------------------------- */

static void test_names_and_registry(void)
{
    CHECK_STR(wc_outcome_name(WC_HIT), "HIT");
    CHECK_STR(wc_outcome_name(WC_HIT_RESERVED), "HIT_RESERVED");
    CHECK_STR(wc_outcome_name(WC_MISS), "MISS");
    CHECK_STR(wc_outcome_name(WC_SECTOR_MISS), "SECTOR_MISS");
    CHECK_STR(wc_outcome_name(WC_RESERVATION_FAIL), "RESERVATION_FAIL");
    CHECK_STR(wc_outcome_name(WC_BYPASSED), "BYPASSED");
    CHECK_STR(wc_fail_reason_name(WC_FAIL_NONE), "NONE");
    CHECK_STR(wc_fail_reason_name(WC_FAIL_LINE_ALLOC), "LINE_ALLOC_FAIL");
    CHECK_STR(wc_fail_reason_name(WC_FAIL_MISS_QUEUE_FULL), "MISS_QUEUE_FULL");
    CHECK_STR(wc_fail_reason_name(WC_FAIL_MSHR_ENTRY), "MSHR_ENTRY_FAIL");
    CHECK_STR(wc_fail_reason_name(WC_FAIL_MSHR_MERGE), "MSHR_MERGE_ENTRY_FAIL");
    CHECK_STR(wc_fail_reason_name(WC_FAIL_MSHR_RW_PENDING), "MSHR_RW_PENDING");
    CHECK_STR(wc_fail_reason_key(WC_FAIL_NONE), "none");
    CHECK_STR(wc_fail_reason_key(WC_FAIL_LINE_ALLOC), "line_alloc");
    CHECK_STR(wc_fail_reason_key(WC_FAIL_MISS_QUEUE_FULL), "miss_queue_full");
    CHECK_STR(wc_fail_reason_key(WC_FAIL_MSHR_ENTRY), "mshr_entry");
    CHECK_STR(wc_fail_reason_key(WC_FAIL_MSHR_MERGE), "mshr_merge");
    CHECK_STR(wc_fail_reason_key(WC_FAIL_MSHR_RW_PENDING), "mshr_rw_pending");
    CHECK_STR(wc_outcome_name((wc_outcome)99), "?");
    size_t n = 0;
    const wc_l1_ops *const *all = wc_l1_list(&n);
    CHECK(n >= 1);
    CHECK_STR(all[0]->name, "conventional");
    CHECK(wc_l1_find("conventional") == all[0]);
    CHECK(wc_l1_find("nope") == NULL);
}

static void test_bad_geometry(void)
{
    rig *r = rig_new();
    wc_err err;
    const wc_l1_ops *ops = wc_l1_find("conventional");
    r->cfg.l1.write_policy = 'Q';
    CHECK(ops->create(&r->cfg, &r->env, &err) == NULL);
    CHECK(strstr(err.msg, "write policy") != NULL);
    set_geom(r, 'N', 48, 4, 'L', 'E', 'm', 'N', 'L', 32, 8, 8);
    CHECK(ops->create(&r->cfg, &r->env, &err) == NULL);
    CHECK(strstr(err.msg, "48") != NULL);
    set_geom(r, 'N', 32, 4, 'L', 'E', 'm', 'N', 'L', 0, 8, 8);
    CHECK(ops->create(&r->cfg, &r->env, &err) == NULL);
    set_geom(r, 'N', 32, 4, 'L', 'E', 'm', 'N', 'L', 32, 8, 0);
    CHECK(ops->create(&r->cfg, &r->env, &err) == NULL);
    set_geom(r, 'X', 32, 4, 'L', 'E', 'm', 'N', 'L', 32, 8, 8);
    CHECK(ops->create(&r->cfg, &r->env, &err) == NULL);
    rig_free(r);
}

/* Miss -> one fetch of the whole line; fill -> respond; then a hit. */
static void test_miss_fill_hit(void)
{
    rig *r = rig_new();
    if (!rig_start(r)) return;
    wc_fail_reason why = WC_FAIL_LINE_ALLOC;
    CHECK_EQ(acc(r, 0x1000 + 32, 0x2, 0, 7, 10, &why), WC_MISS);
    CHECK_EQ(why, WC_FAIL_NONE);
    CHECK_EQ(r->f.n_sent, 1);
    CHECK_EQ(r->f.sent[0].addr, 0x1000); /* line-aligned fetch */
    CHECK_EQ(r->f.sent_chunks[0], 0xF);  /* 'N' lines fetch all 4 sectors */
    CHECK_EQ(r->f.sent[0].flags & WC_REQ_WRITE, 0);
    CHECK_EQ(r->f.n_resp, 0);
    fill(r, 0x1000, 0xF, 50);
    CHECK_EQ(r->f.n_resp, 1);
    CHECK_EQ(r->f.resp_cookie[0], 7);
    CHECK_EQ(r->f.resp_t[0], 50);
    CHECK_EQ(r->l.n_fill, 1);
    CHECK_EQ(acc(r, 0x1000 + 96, 0x8, 0, 8, 60, &why), WC_HIT);
    CHECK_EQ(r->f.n_resp, 1); /* hits are answered by the engine */
    CHECK_EQ(r->f.n_sent, 1);
    const wc_l1_stats *st = &r->l1->stats;
    CHECK_EQ(st->accesses, 2);
    CHECK_EQ(st->reads, 2);
    CHECK_EQ(st->outcome[WC_MISS], 1);
    CHECK_EQ(st->outcome[WC_HIT], 1);
    CHECK_EQ(st->fills, 1);
    /* A fill nobody asked for is ignored. */
    fill(r, 0x8000, 0xF, 70);
    fill(r, 0x1000, 0xF, 70); /* already answered */
    CHECK_EQ(r->f.n_resp, 1);
    CHECK_EQ(st->fills, 1);
    rig_free(r);
}

/* Requests to a line whose fill is pending merge; all answered at the fill. */
static void test_hit_reserved_merge(void)
{
    rig *r = rig_new();
    set_geom(r, 'N', 32, 4, 'L', 'E', 'm', 'N', 'L', 32, 3, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    CHECK_EQ(acc(r, LINE(4, 1), 0x1, 0, 1, 0, &why), WC_MISS);
    CHECK_EQ(acc(r, LINE(4, 1) + 64, 0x4, 0, 2, 1, &why), WC_HIT_RESERVED);
    CHECK_EQ(acc(r, LINE(4, 1), 0x1, 0, 3, 2, &why), WC_HIT_RESERVED);
    CHECK_EQ(r->f.n_sent, 1); /* merged: no new fetch */
    /* Fourth: the entry holds its maximum of 3. */
    CHECK_EQ(acc(r, LINE(4, 1), 0x1, 0, 4, 3, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_MSHR_MERGE);
    CHECK_EQ(r->l1->stats.fail[WC_FAIL_MSHR_MERGE], 1);
    CHECK_EQ(r->l1->stats.accesses, 3);
    fill(r, LINE(4, 1), 0xF, 100);
    CHECK_EQ(r->f.n_resp, 3);
    CHECK_EQ(r->f.resp_cookie[0], 1);
    CHECK_EQ(r->f.resp_cookie[1], 2);
    CHECK_EQ(r->f.resp_cookie[2], 3);
    CHECK_EQ(r->f.resp_t[2], 100);
    CHECK_EQ(acc(r, LINE(4, 1), 0x1, 0, 4, 101, &why), WC_HIT); /* the retry now hits */
    rig_free(r);
}

static void test_mshr_entry_fail(void)
{
    rig *r = rig_new();
    set_geom(r, 'N', 32, 4, 'L', 'E', 'm', 'N', 'L', 2, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    CHECK_EQ(acc(r, LINE(0, 1), 0xF, 0, 1, 0, &why), WC_MISS);
    CHECK_EQ(acc(r, LINE(1, 1), 0xF, 0, 2, 0, &why), WC_MISS);
    CHECK_EQ(acc(r, LINE(2, 1), 0xF, 0, 3, 0, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_MSHR_ENTRY);
    CHECK_EQ(r->f.n_sent, 2);
    fill(r, LINE(0, 1), 0xF, 10);
    CHECK_EQ(acc(r, LINE(2, 1), 0xF, 0, 3, 11, &why), WC_MISS);
    rig_free(r);
}

/* 1 set x 1 way, allocate on miss: the second line finds its only way
 * reserved by the first. */
static void test_line_alloc_fail(void)
{
    rig *r = rig_new();
    set_geom(r, 'N', 1, 1, 'L', 'E', 'm', 'N', 'L', 32, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    CHECK_EQ(acc(r, 0x0, 0xF, 0, 1, 0, &why), WC_MISS);
    CHECK_EQ(acc(r, 0x80, 0xF, 0, 2, 1, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_LINE_ALLOC);
    CHECK_EQ(r->l1->stats.fail[WC_FAIL_LINE_ALLOC], 1);
    CHECK_EQ(r->l1->stats.outcome[WC_RESERVATION_FAIL], 1);
    CHECK_EQ(r->f.n_sent, 1);
    fill(r, 0x0, 0xF, 20);
    /* Now the way is valid and can be evicted. */
    CHECK_EQ(acc(r, 0x80, 0x3, 0, 2, 21, &why), WC_MISS);
    CHECK_EQ(r->l1->stats.evictions, 1);
    CHECK_EQ(r->l.n_evict, 1);
    CHECK_EQ(r->l.evict_addr[0], 0x0);
    CHECK_EQ(r->l1->stats.util_hist[4], 1);                          /* line 0 used all 4 sectors */
    CHECK_EQ(acc(r, 0x0, 0xF, 0, 3, 22, &why), WC_RESERVATION_FAIL); /* 0x80 now reserved */
    fill(r, 0x80, 0xF, 40);
    CHECK_EQ(acc(r, 0x0, 0xF, 0, 3, 41, &why), WC_MISS);
    CHECK_EQ(r->l1->stats.util_hist[2], 1); /* line 0x80 used sectors 0,1 */
    rig_free(r);
}

/* Miss queue of 2, sends leave 10 cycles later. */
static void test_miss_queue_full(void)
{
    rig *r = rig_new();
    set_geom(r, 'N', 32, 4, 'L', 'E', 'm', 'N', 'L', 32, 8, 2);
    if (!rig_start(r)) return;
    r->f.delay = 10;
    wc_fail_reason why;
    CHECK_EQ(acc(r, LINE(0, 1), 0xF, 0, 1, 0, &why), WC_MISS);
    CHECK_EQ(acc(r, LINE(1, 1), 0xF, 0, 2, 0, &why), WC_MISS);
    CHECK_EQ(acc(r, LINE(2, 1), 0xF, 0, 3, 5, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_MISS_QUEUE_FULL);
    /* Stores and bypasses need a slot too; hits and merges do not. */
    CHECK_EQ(acc(r, LINE(2, 1), 0xF, WC_REQ_WRITE, 4, 5, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(acc(r, LINE(2, 1), 0xF, WC_REQ_NO_ALLOC, 5, 5, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(acc(r, LINE(0, 1), 0xF, 0, 6, 5, &why), WC_HIT_RESERVED);
    CHECK_EQ(r->f.n_sent, 2);
    CHECK_EQ(r->l1->stats.fail[WC_FAIL_MISS_QUEUE_FULL], 3);
    /* At cycle 10 both sends have left. */
    CHECK_EQ(acc(r, LINE(2, 1), 0xF, 0, 3, 10, &why), WC_MISS);
    rig_free(r);
}

/* Snapshot of everything a reservation fail must leave alone. */
typedef struct snap {
    wc_line lines[8];
    wc_mshr_entry e[4];
    uint64_t accesses, reads, evictions, fills, stamp;
    int n_sent;
} snap;

/* The rig's L1 is an L1 core (l1_core.h) around an array-backed tag store;
 * this view reads its tag array and MSHRs. */
typedef struct conv_view {
    wc_tag_array ta;
    wc_mshr mshr;
} conv_view;

static conv_view view_of(rig *r)
{
    wc_l1_core *c = (wc_l1_core *)r->l1;
    conv_view v = {*c->ts->ta, c->mshr};
    return v;
}

static void take_snap(rig *r, snap *s)
{
    conv_view v = view_of(r), *c = &v;
    memset(s, 0, sizeof *s);
    memcpy(s->lines, c->ta.lines, sizeof(wc_line) * c->ta.nsets * c->ta.assoc);
    memcpy(s->e, c->mshr.e, sizeof(wc_mshr_entry) * c->mshr.n_entries);
    s->accesses = r->l1->stats.accesses;
    s->reads = r->l1->stats.reads;
    s->evictions = r->l1->stats.evictions;
    s->fills = r->l1->stats.fills;
    s->stamp = c->ta.stamp;
    s->n_sent = r->f.n_sent;
}

/* Every kind of reservation fail, on NRU and SRRIP sets (whose victim
 * selection has side effects) - state before and after must be equal. */
static void test_reservation_fail_changes_nothing(void)
{
    const char rps[] = {'N', 'R', 'L'};
    for (int k = 0; k < 3; k++) {
        rig *r = rig_new();
        /* 2 sets x 2 ways, 2 MSHRs of 2 merges, miss queue 2. */
        set_geom(r, 'N', 2, 2, rps[k], 'E', 'm', 'N', 'L', 2, 2, 2);
        if (!rig_start(r)) return;
        wc_fail_reason why;
        snap a, b;
        /* Set 0: two valid lines (all NRU bits 1, SRRIP none at 3). */
        acc(r, 0 * 128, 0xF, 0, 1, 0, &why);
        acc(r, 2 * 128, 0xF, 0, 2, 0, &why);
        fill(r, 0 * 128, 0xF, 1);
        fill(r, 2 * 128, 0xF, 1);
        /* Set 1: two reserved lines -> LINE_ALLOC for a third. */
        acc(r, 1 * 128, 0xF, 0, 3, 2, &why);
        acc(r, 3 * 128, 0xF, 0, 4, 2, &why);
        take_snap(r, &a);
        CHECK_EQ(acc(r, 5 * 128, 0xF, 0, 5, 3, &why), WC_RESERVATION_FAIL);
        CHECK_EQ(why, WC_FAIL_LINE_ALLOC);
        /* Set 0 miss with both MSHRs busy -> MSHR_ENTRY (victim choice must
         * not have run). */
        CHECK_EQ(acc(r, 4 * 128, 0xF, 0, 6, 3, &why), WC_RESERVATION_FAIL);
        CHECK_EQ(why, WC_FAIL_MSHR_ENTRY);
        take_snap(r, &b);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        acc(r, 1 * 128, 0xF, 0, 7, 3, &why); /* merge: entry now full (2) */
        take_snap(r, &a);
        CHECK_EQ(acc(r, 1 * 128, 0xF, 0, 8, 3, &why), WC_RESERVATION_FAIL);
        CHECK_EQ(why, WC_FAIL_MSHR_MERGE);
        take_snap(r, &b);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        fill(r, 1 * 128, 0xF, 4);
        fill(r, 3 * 128, 0xF, 4);
        r->f.delay = 100; /* two sends fill the miss queue */
        acc(r, 8 * 128, 0xF, WC_REQ_NO_ALLOC, 9, 5, &why);
        acc(r, 9 * 128, 0xF, WC_REQ_NO_ALLOC, 10, 5, &why);
        take_snap(r, &a);
        CHECK_EQ(acc(r, 4 * 128, 0xF, 0, 11, 6, &why), WC_RESERVATION_FAIL);
        CHECK_EQ(why, WC_FAIL_MISS_QUEUE_FULL);
        CHECK_EQ(acc(r, 0 * 128, 0xF, WC_REQ_WRITE, 12, 6, &why), WC_RESERVATION_FAIL);
        take_snap(r, &b);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        CHECK_EQ(r->l1->stats.outcome[WC_RESERVATION_FAIL], 5);
        rig_free(r);
    }
}

/* Write-evict: a write hit invalidates the line, every write goes below. */
static void test_write_evict(void)
{
    rig *r = rig_new();
    set_geom(r, 'N', 32, 4, 'L', 'E', 'm', 'N', 'L', 32, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    acc(r, 0x2000, 0x1, 0, 1, 0, &why);
    fill(r, 0x2000, 0xF, 10);
    CHECK_EQ(acc(r, 0x2000 + 32, 0x2, WC_REQ_WRITE, 2, 11, &why), WC_HIT);
    CHECK_EQ(r->f.n_sent, 2);
    CHECK(r->f.sent[1].flags & WC_REQ_WRITE);
    CHECK_EQ(r->f.sent[1].addr, 0x2000 + 32);
    CHECK_EQ(r->f.sent_chunks[1], 0x2);
    CHECK_EQ(r->l1->stats.evictions, 1);
    CHECK_EQ(r->l1->stats.writebacks, 0);
    CHECK_EQ(r->l1->stats.writes, 1);
    CHECK_EQ(acc(r, 0x2000, 0x1, 0, 3, 12, &why), WC_MISS); /* gone */
    /* A write miss goes below and allocates nothing. */
    CHECK_EQ(acc(r, 0x9000, 0x1, WC_REQ_WRITE, 4, 13, &why), WC_MISS);
    CHECK_EQ(r->f.n_sent, 4);
    CHECK_EQ(acc(r, 0x9000, 0x1, 0, 5, 14, &why), WC_MISS);
    /* A write to a line whose fill is pending leaves it alone. */
    CHECK_EQ(acc(r, 0x9000, 0x1, WC_REQ_WRITE, 6, 15, &why), WC_MISS);
    CHECK_EQ(acc(r, 0x9000, 0x1, 0, 7, 16, &why), WC_HIT_RESERVED);
    CHECK_EQ(r->f.n_resp, 1); /* only the first read: writes are never answered */
    rig_free(r);
}

static void test_write_through(void)
{
    rig *r = rig_new();
    set_geom(r, 'S', 32, 4, 'L', 'T', 'm', 'N', 'L', 32, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    acc(r, 0x2000, 0x1, 0, 1, 0, &why);
    fill(r, 0x2000, 0x1, 10);
    /* Hit: updated in place and sent; the written sector becomes valid. */
    CHECK_EQ(acc(r, 0x2000 + 32, 0x2, WC_REQ_WRITE, 2, 11, &why), WC_HIT);
    CHECK_EQ(r->f.n_sent, 2);
    CHECK_EQ(acc(r, 0x2000, 0x3, 0, 3, 12, &why), WC_HIT);
    /* Miss without write-allocate: sent, not allocated. */
    CHECK_EQ(acc(r, 0x4000, 0x1, WC_REQ_WRITE, 4, 13, &why), WC_MISS);
    CHECK_EQ(r->f.n_sent, 3);
    CHECK_EQ(acc(r, 0x4000, 0x1, 0, 5, 14, &why), WC_MISS);
    rig_free(r);

    r = rig_new();
    set_geom(r, 'S', 32, 4, 'L', 'T', 'm', 'W', 'L', 32, 8, 8);
    if (!rig_start(r)) return;
    CHECK_EQ(acc(r, 0x4000, 0x4, WC_REQ_WRITE, 4, 13, &why), WC_MISS);
    CHECK_EQ(r->f.n_sent, 1);
    CHECK_EQ(acc(r, 0x4000 + 64, 0x4, 0, 5, 14, &why), WC_HIT); /* written sector valid */
    CHECK_EQ(acc(r, 0x4000, 0x1, 0, 6, 15, &why), WC_SECTOR_MISS);
    rig_free(r);
}

/* Write-back: hits stay dirty in L1; evicting a dirty line writes it back. */
static void test_write_back_eviction(void)
{
    rig *r = rig_new();
    set_geom(r, 'S', 1, 1, 'L', 'B', 'm', 'W', 'L', 32, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    CHECK_EQ(acc(r, 0x1000, 0x2, WC_REQ_WRITE, 1, 0, &why), WC_MISS);
    CHECK_EQ(r->f.n_sent, 0); /* allocated dirty, nothing fetched or sent */
    CHECK_EQ(acc(r, 0x1000, 0x4, WC_REQ_WRITE, 2, 1, &why), WC_HIT);
    CHECK_EQ(r->f.n_sent, 0);
    CHECK_EQ(acc(r, 0x1000, 0x2, 0, 3, 2, &why), WC_HIT); /* written data readable */
    /* A read of another line evicts the dirty one: write-back, then fetch. */
    CHECK_EQ(acc(r, 0x5000, 0x1, 0, 4, 3, &why), WC_MISS);
    CHECK_EQ(r->f.n_sent, 2);
    CHECK_EQ(r->f.sent[0].addr, 0x1000);
    CHECK_EQ(r->f.sent[0].flags & (WC_REQ_WRITE | WC_REQ_WRITEBACK),
             WC_REQ_WRITE | WC_REQ_WRITEBACK);
    CHECK_EQ(r->f.sent_chunks[0], 0x6); /* the dirty sectors only */
    CHECK_EQ(r->f.sent[0].chunks, 0x6);
    CHECK_EQ(r->f.sent[0].line_log2, 7);
    CHECK_EQ(r->f.sent[0].chunk_log2, 5);
    CHECK_EQ(r->f.sent[1].addr, 0x5000);
    CHECK_EQ(r->f.sent_chunks[1], 0x1); /* sectored: only the requested sector */
    CHECK_EQ(r->l1->stats.writebacks, 1);
    CHECK_EQ(r->l1->stats.evictions, 1);
    CHECK_EQ(r->l1->stats.util_hist[2], 1); /* sectors 1, 2 used */
    rig_free(r);

    /* Write-back without write-allocate: a miss is sent through. */
    r = rig_new();
    set_geom(r, 'N', 1, 1, 'L', 'B', 'm', 'N', 'L', 32, 8, 8);
    if (!rig_start(r)) return;
    CHECK_EQ(acc(r, 0x1000, 0x2, WC_REQ_WRITE, 1, 0, &why), WC_MISS);
    CHECK_EQ(r->f.n_sent, 1);
    CHECK_EQ(acc(r, 0x1000, 0x2, 0, 2, 1, &why), WC_MISS);
    rig_free(r);
}

/* 'L': local stores write back, global stores write-evict. */
static void test_local_write_back(void)
{
    rig *r = rig_new();
    set_geom(r, 'N', 32, 4, 'L', 'L', 'm', 'W', 'L', 32, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    CHECK_EQ(acc(r, 0x3000, 0xF, WC_REQ_WRITE | WC_REQ_LOCAL, 1, 0, &why), WC_MISS);
    CHECK_EQ(r->f.n_sent, 0);
    CHECK_EQ(acc(r, 0x3000, 0xF, WC_REQ_LOCAL, 2, 1, &why), WC_HIT);
    acc(r, 0x7000, 0xF, 0, 3, 2, &why);
    fill(r, 0x7000, 0xF, 3);
    CHECK_EQ(acc(r, 0x7000, 0xF, WC_REQ_WRITE, 4, 4, &why), WC_HIT);
    CHECK_EQ(r->f.n_sent, 2); /* fetch + global store */
    CHECK_EQ(acc(r, 0x7000, 0xF, 0, 5, 5, &why), WC_MISS);
    rig_free(r);
}

/* Allocate on fill: no way is reserved at miss time. */
static void test_alloc_on_fill(void)
{
    rig *r = rig_new();
    set_geom(r, 'N', 1, 1, 'L', 'E', 'f', 'N', 'L', 32, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    wc_tag_array *ta = ((wc_l1_core *)r->l1)->ts->ta; /* the live array */
    CHECK_EQ(acc(r, 0x0, 0xF, 0, 1, 0, &why), WC_MISS);
    CHECK_EQ(ta->lines[0].state, WC_LINE_INVALID);
    CHECK_EQ(acc(r, 0x80, 0xF, 0, 2, 1, &why), WC_MISS); /* no LINE_ALLOC_FAIL */
    CHECK_EQ(acc(r, 0x80, 0x1, 0, 3, 2, &why), WC_HIT_RESERVED);
    CHECK_EQ(r->f.n_sent, 2);
    fill(r, 0x0, 0xF, 10);
    CHECK_EQ(ta->lines[0].state, WC_LINE_VALID);
    CHECK_EQ(ta->lines[0].tag, 0);
    CHECK_EQ(r->f.n_resp, 1);
    CHECK_EQ(acc(r, 0x0, 0xF, 0, 4, 11, &why), WC_HIT);
    fill(r, 0x80, 0xF, 20); /* installs over line 0 */
    CHECK_EQ(r->l1->stats.evictions, 1);
    CHECK_EQ(r->f.n_resp, 3);
    CHECK_EQ(r->f.resp_cookie[1], 2);
    CHECK_EQ(r->f.resp_cookie[2], 3);
    CHECK_EQ(ta->lines[0].tag, 1);
    CHECK_EQ(ta->lines[0].owner_warp, 5);
    CHECK_EQ(acc(r, 0x80, 0xF, 0, 5, 21, &why), WC_HIT);
    CHECK_EQ(acc(r, 0x0, 0xF, 0, 6, 22, &why), WC_MISS);
    rig_free(r);
}

/* Sectored lines: only missing sectors are fetched. */
static void test_sector_miss(void)
{
    rig *r = rig_new();
    set_geom(r, 'S', 32, 4, 'L', 'E', 'm', 'N', 'L', 32, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    CHECK_EQ(acc(r, 0x1000, 0x1, 0, 1, 0, &why), WC_MISS);
    CHECK_EQ(r->f.sent_chunks[0], 0x1);
    fill(r, 0x1000, 0x1, 10);
    CHECK_EQ(r->f.n_resp, 1);
    CHECK_EQ(acc(r, 0x1000, 0x1, 0, 2, 11, &why), WC_HIT);
    CHECK_EQ(acc(r, 0x1000, 0x3, 0, 3, 12, &why), WC_SECTOR_MISS);
    CHECK_EQ(r->f.n_sent, 2);
    CHECK_EQ(r->f.sent_chunks[1], 0x2); /* sector 0 is there already */
    CHECK_EQ(acc(r, 0x1000 + 32, 0x2, 0, 4, 13, &why), WC_HIT_RESERVED);
    CHECK_EQ(acc(r, 0x1000, 0x1, 0, 5, 14, &why), WC_HIT); /* valid sector still hits */
    CHECK_EQ(acc(r, 0x1000, 0xC, 0, 6, 15, &why), WC_SECTOR_MISS);
    CHECK_EQ(r->f.sent_chunks[2], 0xC);
    fill(r, 0x1000, 0x2, 20); /* entry still waits for sectors 2, 3 */
    CHECK_EQ(r->f.n_resp, 1);
    fill(r, 0x1000, 0xC, 30);
    CHECK_EQ(r->f.n_resp, 4);
    CHECK_EQ(r->f.resp_cookie[1], 3);
    CHECK_EQ(r->f.resp_cookie[2], 4);
    CHECK_EQ(r->f.resp_cookie[3], 6);
    CHECK_EQ(r->f.resp_t[3], 30);
    CHECK_EQ(acc(r, 0x1000, 0xF, 0, 7, 31, &why), WC_HIT);
    CHECK_EQ(r->l1->stats.outcome[WC_SECTOR_MISS], 2);
    CHECK_EQ(r->l1->stats.fills, 3);
    rig_free(r);
}

static void test_bypass(void)
{
    rig *r = rig_new();
    if (!rig_start(r)) return;
    wc_fail_reason why;
    CHECK_EQ(acc(r, 0x1000, 0x1, WC_REQ_NO_ALLOC, 1, 0, &why), WC_BYPASSED);
    CHECK_EQ(r->f.n_sent, 1);
    CHECK(r->f.sent[0].flags & WC_REQ_BYPASS);
    CHECK_EQ(r->f.sent[0].tag, 1);
    CHECK_EQ(r->l.n_bypass, 1);
    CHECK_EQ(acc(r, 0x1000, 0x1, WC_REQ_ATOMIC, 2, 1, &why), WC_BYPASSED);
    CHECK_EQ(acc(r, 0x1000, 0x1, 0, 3, 2, &why), WC_MISS); /* nothing was allocated */
    CHECK_EQ(r->l1->stats.outcome[WC_BYPASSED], 2);
    rig_free(r);

    r = rig_new();
    r->cfg.l1_skip = true;
    if (!rig_start(r)) return;
    CHECK_EQ(acc(r, 0x1000, 0x1, 0, 1, 0, &why), WC_BYPASSED);
    CHECK_EQ(acc(r, 0x1000, 0x1, WC_REQ_LOCAL, 2, 0, &why), WC_MISS); /* local still cached */
    rig_free(r);
}

/* The Fermi baseline with its hash: lines that conflict under linear
 * indexing land in different sets. */
static void test_fermi_baseline_hash(void)
{
    rig *r = rig_new();
    set_geom(r, 'N', 32, 1, 'L', 'L', 'm', 'N', 'H', 32, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    /* 0x0 and 0x2000 share linear set 0, but addr13 flips set bit 0. */
    CHECK_EQ(acc(r, 0x0, 0xF, 0, 1, 0, &why), WC_MISS);
    CHECK_EQ(acc(r, 0x2000, 0xF, 0, 2, 0, &why), WC_MISS); /* not LINE_ALLOC */
    /* 0x2080 hashes to set 0 again: its only way is reserved. */
    CHECK_EQ(acc(r, 0x2080, 0xF, 0, 3, 0, &why), WC_RESERVATION_FAIL);
    CHECK_EQ(why, WC_FAIL_LINE_ALLOC);
    rig_free(r);
}

/* 1 set x 256 ways, LRU: 256 lines fit, the 257th evicts the oldest. */
static void test_fully_associative_l1(void)
{
    rig *r = rig_new();
    set_geom(r, 'N', 1, 256, 'L', 'E', 'm', 'N', 'H', 4, 8, 8);
    if (!rig_start(r)) return;
    wc_fail_reason why;
    for (uint32_t i = 0; i < 256; i++) {
        CHECK_EQ(acc(r, (uint64_t)i * 128, 0xF, 0, i, i, &why), WC_MISS);
        fill(r, (uint64_t)i * 128, 0xF, i);
    }
    CHECK_EQ(acc(r, 0, 0xF, 0, 999, 300, &why), WC_HIT); /* line 0 now most recent */
    CHECK_EQ(acc(r, 256 * 128, 0xF, 0, 1000, 301, &why), WC_MISS);
    CHECK_EQ(r->l.n_evict, 1);
    CHECK_EQ(r->l.evict_addr[0], 128); /* line 1 was the least recent */
    CHECK_EQ(r->l1->stats.outcome[WC_HIT], 1);
    rig_free(r);
}

int main(void)
{
    RUN(test_names_and_registry);
    RUN(test_bad_geometry);
    RUN(test_miss_fill_hit);
    RUN(test_hit_reserved_merge);
    RUN(test_mshr_entry_fail);
    RUN(test_line_alloc_fail);
    RUN(test_miss_queue_full);
    RUN(test_reservation_fail_changes_nothing);
    RUN(test_write_evict);
    RUN(test_write_through);
    RUN(test_write_back_eviction);
    RUN(test_local_write_back);
    RUN(test_alloc_on_fill);
    RUN(test_sector_miss);
    RUN(test_bypass);
    RUN(test_fermi_baseline_hash);
    RUN(test_fully_associative_l1);
    return check_summary("cache");
}
