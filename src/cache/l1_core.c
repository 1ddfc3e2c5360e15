/*
 * l1_core.c - the L1 core shared by every organisation (l1_core.h): MSHRs,
 * miss queue, write policies, bypass, outcome counting, listeners and
 * write-backs around a pluggable tag store.  docs/cache.md states the
 * semantics in full; in short:
 *
 *   reads   HIT / HIT_RESERVED (merged into the line's MSHR entry) / MISS /
 *           SECTOR_MISS (line present, chunks absent) / BYPASSED (no-alloc,
 *           atomics, -gpgpu_gmem_skip_L1D, or the replacement policy
 *           declined to allocate) / RESERVATION_FAIL (nothing changed).
 *   writes  by write policy: E write-evict, T write-through, B write-back,
 *           L local write-back + global write-evict, R read-only.
 *   fill    data from below: the line gets its chunks (allocate-on-miss) or
 *           is installed now through the tag store (allocate-on-fill, with
 *           the context of the request that missed); the MSHR entry is
 *           released and every waiter answered once all issued chunks are in.
 *
 * The miss queue is a set of slots holding the cycles at which their last
 * sends leave the SM (a sorted ring): a slot is busy while its leave time is in
 * the future.  Reservation-fail checks come first and have no side effects,
 * so the SM can simply retry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/l1_core.h"
#include "cache/repl_impl.h"
#include "cache/tagstore_array.h"
#include "util/sorted_ring.h"
#include "warpcache/control.h"
#include "warpcache/knob.h"
#include "warpcache/statreg.h"
#include "warpcache/stats.h"
#include "warpcache/trace.h"

/* ---- miss queue ------------------------------------------------------- */

/* The slots' leave times, as a ring sorted ascending from mq_head (the
 * slot that frees first): which slot a send occupies does not matter, only
 * the multiset of leave times, so "free slots" are the ring's first times
 * up to now, and a send replaces the smallest time (the head leaves, the new
 * time enters at the back).  The SM's port hands out leave times in order
 * (sm.c, send_impl), so the new time is the largest and the record O(1),
 * where a binary heap sifted its whole depth; an earlier one would move back
 * past the larger ones.  test_l1core's test_miss_queue_ring checks it
 * against a heap. */
static inline bool mq_has(const wc_l1_core *c, uint32_t need, uint64_t now)
{
    if (need > c->mq_n) return false;
    uint32_t i = c->mq_head + need - 1; /* the need-th smallest: the others are no later */
    if (i >= c->mq_n) i -= c->mq_n;
    return c->mq[i] <= now;
}

/* Records a send in the slot that frees first (a free one when there is one;
 * sends made at fill time cannot fail and take the oldest busy slot). */
static void mq_record(wc_l1_core *c, uint64_t leave)
{
    wc_sorted_ring_replace_head(c->mq, c->mq_n, &c->mq_head, leave);
}

static void send_below(wc_l1_core *c, const wc_mem_req *r, uint64_t chunks, uint64_t now)
{
    mq_record(c, c->base.env.send(c->base.env.ctx, r, chunks, now));
}

/* ---- the tag store: array-backed stores inline, others through ops ---- */

static inline wc_line *ts_lookup(wc_l1_core *c, uint64_t addr, uint32_t *set)
{
    return c->ta ? arr_lookup(&c->arr, addr, set) : c->ts->ops->lookup(c->ts, addr, set);
}

static inline wc_line *ts_allocate(wc_l1_core *c, uint32_t set, uint64_t tag, uint8_t state,
                                   const wc_repl_ctx *x, uint64_t now)
{
    return c->ta ? arr_allocate(&c->arr, c, set, tag, state, x, now)
                 : c->ts->ops->allocate(c->ts, c, set, tag, state, x, now);
}

static inline void ts_touch(wc_l1_core *c, uint32_t set, wc_line *line, const wc_repl_ctx *x)
{
    if (c->ta)
        arr_touch(&c->arr, set, line, x);
    else
        c->ts->ops->touch(c->ts, set, line, x);
}

static inline void ts_invalidate(wc_l1_core *c, uint32_t set, wc_line *line)
{
    if (c->ta)
        arr_invalidate(&c->arr, set, line);
    else
        c->ts->ops->invalidate(c->ts, set, line);
}

static inline void ts_fill(wc_l1_core *c, uint32_t set, wc_line *line, uint64_t chunks)
{
    if (c->ta)
        arr_fill(&c->arr, set, line, chunks);
    else
        c->ts->ops->fill(c->ts, set, line, chunks);
}

/* ---- lines ------------------------------------------------------------- */

static inline wc_repl_ctx ctx_of(const wc_mem_req *req, uint32_t set)
{
    wc_repl_ctx x = {req, set};
    return x;
}

static void send_writeback(wc_l1_core *c, const wc_line *line, uint64_t now)
{
    wc_mem_req wb;
    memset(&wb, 0, sizeof wb);
    wb.addr = line->tag << c->line_log2;
    wb.chunks = line->dirty_chunks;
    wb.line_log2 = (uint8_t)c->line_log2;
    wb.chunk_log2 = (uint8_t)c->ts->chunk_log2;
    wb.block = line->owner_block;
    wb.sm = (uint16_t)c->base.env.sm;
    wb.warp = line->owner_warp;
    wb.op = WC_OP_STG;
    wb.flags = WC_REQ_WRITE | WC_REQ_WRITEBACK;
    send_below(c, &wb, line->dirty_chunks, now);
    c->base.stats.writebacks++;
}

/* Bucket of the line-utilisation histogram: 0, then quarters rounded up, so
 * with 4 chunks per line bucket k is "k of 4 chunks used". */
static inline unsigned util_bucket(unsigned used, unsigned n)
{
    return n == 4 ? used : (4 * used + n - 1) / n;
}

/* wc_l1_core_evict, inline for the miss path of array-backed stores. */
static inline void evict_line(wc_l1_core *c, uint32_t set, wc_line *line, uint64_t now)
{
    if (line->dirty_chunks) send_writeback(c, line, now);
    const wc_l1_listener *ls = c->base.env.listener;
    if (ls && ls->on_evict)
        ls->on_evict(ls->ctx, c->base.env.sm, line, line->tag << c->line_log2, now);
    c->base.stats.evictions++;
    unsigned used = wc_chunk_count(line->used_chunks & c->all);
    c->base.stats.util_hist[util_bucket(used, c->ts->nchunks)]++;
    ts_invalidate(c, set, line);
}

void wc_l1_core_evict(wc_l1_core *c, uint32_t set, wc_line *line, uint64_t now)
{
    evict_line(c, set, line, now);
}

static inline uint64_t requested_chunks(const wc_l1_core *c, const wc_mem_req *req)
{
    uint64_t want = req->chunks & c->all;
    return want ? want : c->all; /* a request without a mask means the whole line */
}

/* LINE_ALLOC check; array-backed stores are scanned in place (no call on
 * the miss path). */
static inline bool can_allocate(const wc_l1_core *c, uint32_t set)
{
    return c->ta ? arr_can_allocate(&c->arr, set) : c->ts->ops->can_allocate(c->ts, set);
}

/* Chunks a write of `want` leaves valid. */
static inline uint64_t write_chunks(const wc_l1_core *c, uint64_t want)
{
    const wc_tagstore *ts = c->ts;
    if (ts->ops->write_chunks) return ts->ops->write_chunks(ts, want);
    return ts->whole_line ? c->all : want;
}

/* Chunks a read miss fetches: it misses `missing`, the line has or awaits
 * `have`. */
static inline uint64_t fetch_chunks(const wc_l1_core *c, uint64_t missing, uint64_t have)
{
    const wc_tagstore *ts = c->ts;
    return ts->ops->miss_chunks ? ts->ops->miss_chunks(ts, missing, have)
           : ts->whole_line     ? c->all & ~have
                                : missing;
}

/* Chunk-placing stores (can_place/place set): room for `chunks` more of a
 * line.  Array-backed stores have neither, and never reach these on a hit. */
static inline bool can_place(const wc_l1_core *c, uint32_t set, const wc_line *line, uint64_t tag,
                             uint64_t chunks)
{
    if (c->ta) return true; /* array-backed: a line's room is its way */
    const wc_tagstore *ts = c->ts;
    return !ts->ops->can_place || !chunks || ts->ops->can_place(ts, set, line, tag, chunks);
}

static inline void place(wc_l1_core *c, uint32_t set, wc_line *line, uint64_t chunks,
                         const wc_repl_ctx *x, uint64_t now)
{
    if (!c->ta && c->ts->ops->place && chunks)
        c->ts->ops->place(c->ts, c, set, line, chunks, x, now);
}

static wc_outcome fail(wc_fail_reason r, wc_fail_reason *why)
{
    *why = r;
    return WC_RESERVATION_FAIL;
}

/* LINE_ALLOC: no room in `set`, which only a change in that set can make
 * (the retry memo keeps it; a store here is cheaper than computing it
 * again). */
static wc_outcome line_alloc_fail(wc_l1_core *c, uint32_t set, wc_fail_reason *why)
{
    c->memo.set = set;
    return fail(WC_FAIL_LINE_ALLOC, why);
}

/* ---- reads ------------------------------------------------------------- */

static wc_outcome read_bypass(wc_l1_core *c, const wc_mem_req *req, uint64_t want, uint64_t now,
                              wc_fail_reason *why)
{
    if (!mq_has(c, 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    wc_mem_req r = *req;
    r.flags |= WC_REQ_BYPASS;
    send_below(c, &r, want, now);
    const wc_l1_listener *ls = c->base.env.listener;
    if (ls && ls->on_bypass) ls->on_bypass(ls->ctx, c->base.env.sm, req, now);
    return WC_BYPASSED;
}

/* Streaming bypass (seed 002, 002_549a998632bcde66.txt section 4.1): the read
 * goes around the L1 (its data straight to the warp) while the tags are looked
 * up and updated as if it had been cached, so the miss rate is still measured.
 * A tag hit counts as BYPASSED, a tag miss as MISS or SECTOR_MISS; a miss
 * installs the tag, evicting as a real miss would (the data array is taken
 * to be written as well, so the line can hit once the cache is used again). */
static wc_outcome stream_read(wc_l1_core *c, const wc_mem_req *req, uint64_t want, uint64_t now,
                              wc_fail_reason *why)
{
    if (!mq_has(c, 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    uint32_t set;
    wc_line *line = ts_lookup(c, req->addr, &set);
    wc_repl_ctx x = ctx_of(req, set);
    wc_outcome o = WC_MISS;
    if (line) {
        bool pending = line->state == WC_LINE_RESERVED;
        o = pending || (line->valid_chunks & want) == want ? WC_BYPASSED : WC_SECTOR_MISS;
        ts_touch(c, set, line, &x);
        if (!pending) line->valid_chunks |= (uint16_t)write_chunks(c, want);
        line->used_chunks |= (uint16_t)want;
    } else if (can_allocate(c, set)) {
        line = ts_allocate(c, set, req->addr >> c->line_log2, WC_LINE_VALID, &x, now);
        if (line) { /* NULL: the replacement policy declined; nothing installed */
            line->valid_chunks = (uint16_t)write_chunks(c, want);
            line->used_chunks = (uint16_t)want;
        }
    }
    wc_mem_req r = *req;
    r.flags |= WC_REQ_BYPASS;
    send_below(c, &r, want, now);
    const wc_l1_listener *ls = c->base.env.listener;
    if (ls && ls->on_bypass) ls->on_bypass(ls->ctx, c->base.env.sm, req, now);
    return o;
}

/* ---- per-warp MSHR limit (-l1_mshr_per_warp) ------------------------------
 *
 * Seed 003 (section 5.2) measured that one warp of a Fermi SM can have at
 * most 6 lines in flight, out of 64 per SM.  With the limit set, a miss that
 * needs a new entry while its warp already holds `max` is a MSHR_ENTRY
 * reservation fail; merging into an entry (any warp's) needs none.  Only the
 * miss path looks at it, so a hit costs nothing.  Requests that carry no warp
 * slot (out of range: tests' hand-made requests) count against slot 0. */
static inline uint32_t warp_slot(const wc_l1_core *c, const wc_mem_req *req)
{
    return req->warp < c->n_warp_slots ? req->warp : 0;
}

static bool warp_mshr_full(const wc_l1_core *c, const wc_mem_req *req)
{
    return c->warp_mshr[warp_slot(c, req)] >= c->warp_mshr_max;
}

static void warp_mshr_take(wc_l1_core *c, int e, const wc_mem_req *req)
{
    uint32_t w = warp_slot(c, req);
    c->e_warp[e] = (uint16_t)w;
    c->warp_mshr[w]++;
}

/* Everything but a plain hit: hit-reserved merges, misses, sector misses. */
static wc_outcome read_not_hit(wc_l1_core *c, const wc_mem_req *req, uint32_t set, wc_line *line,
                               uint64_t want, uint64_t now, wc_fail_reason *why)
{
    wc_mshr *m = &c->mshr;
    uint64_t tag = req->addr >> c->line_log2;
    uint32_t pos; /* the entry's index position, or where a new one goes */
    int e = wc_mshr_lookup(m, tag, &pos);
    uint64_t pending = e >= 0 ? m->e[e].issued & ~m->e[e].arrived : 0;
    uint64_t have = (line ? line->valid_chunks : 0) | pending;
    uint64_t missing = want & ~have;
    wc_tagstore *ts = c->ts;

    if (!missing) { /* all requested chunks are valid or on their way */
        if (e < 0) return fail(WC_FAIL_MSHR_ENTRY, why); /* cannot happen: pending != 0 */
        if (m->e[e].n_merged >= m->max_merge) return fail(WC_FAIL_MSHR_MERGE, why);
        wc_mshr_merge(m, e, req->tag);
        c->e_used[e] |= want;
        if (line) {
            wc_repl_ctx x = ctx_of(req, set);
            ts_touch(c, set, line, &x);
            line->used_chunks |= (uint16_t)want;
        }
        return WC_HIT_RESERVED;
    }

    /* A miss (line absent) or a sector miss (line present, chunks absent),
     * checked in GPGPU-Sim's order before anything changes. */
    bool take_way = !line && c->alloc_on_miss;
    /* A store may send a line it holds no data for around the cache (either
     * allocation policy): no way, no MSHR entry. */
    if (!c->ta && !line && e < 0 && ts->ops->bypasses && ts->ops->bypasses(ts, set, tag, req)) {
        wc_outcome o = read_bypass(c, req, want, now, why);
        wc_repl_ctx x = ctx_of(req, set);
        if (o == WC_BYPASSED) ts->ops->bypassed(ts, c, set, tag, &x, now);
        return o;
    }
    if (take_way && !can_allocate(c, set)) return line_alloc_fail(c, set, why);
    /* A chunk-placing store needs the fetch first, to check room for it; the
     * array-backed ones compute it only once the checks passed (retries of a
     * reservation fail are frequent on the baseline's miss path). */
    uint64_t fetch = 0;
    if (!c->ta) {
        fetch = fetch_chunks(c, missing, have);
        if ((take_way || line) && c->alloc_on_miss && !can_place(c, set, line, tag, fetch))
            return line_alloc_fail(c, set, why);
    }
    if (!mq_has(c, take_way ? c->mq_need_alloc : 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    if (e >= 0 && m->e[e].n_merged >= m->max_merge) return fail(WC_FAIL_MSHR_MERGE, why);
    if (e < 0 && m->used >= m->n_entries) return fail(WC_FAIL_MSHR_ENTRY, why);
    if (e < 0 && c->warp_mshr_max && warp_mshr_full(c, req)) return fail(WC_FAIL_MSHR_ENTRY, why);
    if (c->ta) fetch = fetch_chunks(c, missing, have);

    bool sector_miss = line != NULL;
    wc_repl_ctx x = ctx_of(req, set);
    if (take_way) {
        line = ts_allocate(c, set, tag, WC_LINE_RESERVED, &x, now);
        /* The policy declined: the request goes around the cache, as a bypass
         * (can_allocate passed, so this is the policy's answer). */
        if (!line && e < 0) return read_bypass(c, req, want, now, why);
    } else if (line) {
        ts_touch(c, set, line, &x);
    }
    if (line) {
        if (c->alloc_on_miss) place(c, set, line, fetch, &x, now);
        line->used_chunks |= (uint16_t)want;
        if (c->alloc_on_miss) {
            line->state = WC_LINE_RESERVED;
            line->pending_chunks |= (uint16_t)fetch;
        }
    }
    /* Nothing touched the MSHRs since the lookup (allocation only evicts). */
    bool is_new = e < 0;
    if (is_new)
        e = wc_mshr_insert(m, pos, tag, req->tag);
    else
        wc_mshr_merge(m, e, req->tag);
    if (is_new) {
        if (c->warp_mshr_max) warp_mshr_take(c, e, req);
        if (!c->alloc_on_miss) c->e_req[e] = *req; /* only a fill-time install needs it */
        c->e_used[e] = 0;
    }
    c->e_used[e] |= want;
    if (c->ta) c->e_line[e] = (struct wc_l1_entry_line){line, set};
    m->e[e].issued |= fetch;
    /* A chunk that already arrived once but is fetched again (a chunk-placing
     * store dropped it since) must arrive again before the entry completes,
     * or its second fill would find no entry and stay pending for ever. */
    m->e[e].arrived &= ~fetch;

    wc_mem_req r = *req;
    r.addr = tag << c->line_log2;
    r.chunks = fetch;
    send_below(c, &r, fetch, now);
    return sector_miss ? WC_SECTOR_MISS : WC_MISS;
}

/* ---- writes ------------------------------------------------------------ */

/* Write-evict (and read-only): invalidate a present line, send the data. */
static wc_outcome write_evict(wc_l1_core *c, const wc_mem_req *req, uint64_t want, uint32_t set,
                              wc_line *line, uint64_t now, wc_fail_reason *why)
{
    if (!mq_has(c, 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    if (line) wc_l1_core_evict(c, set, line, now);
    send_below(c, req, want, now);
    return line ? WC_HIT : WC_MISS;
}

static wc_outcome write_through(wc_l1_core *c, const wc_mem_req *req, uint32_t set, uint64_t want,
                                wc_line *line, uint64_t now, wc_fail_reason *why)
{
    bool take_way = !line && c->wa != 'N';
    if (take_way && !can_allocate(c, set)) return line_alloc_fail(c, set, why);
    uint64_t tag = req->addr >> c->line_log2, wr = write_chunks(c, want);
    uint64_t more = line ? wr & ~line->valid_chunks : wr;
    if ((take_way || line) && !can_place(c, set, line, tag, more))
        return line_alloc_fail(c, set, why);
    if (!mq_has(c, 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    bool hit = line != NULL;
    wc_repl_ctx x = ctx_of(req, set);
    if (take_way)
        line = ts_allocate(c, set, tag, WC_LINE_VALID, &x, now);
    else if (line)
        ts_touch(c, set, line, &x);
    if (line) {
        place(c, set, line, more, &x, now);
        line->valid_chunks |= (uint16_t)wr;
        line->used_chunks |= (uint16_t)want;
    }
    send_below(c, req, want, now);
    return hit ? WC_HIT : WC_MISS;
}

static wc_outcome write_back(wc_l1_core *c, const wc_mem_req *req, uint32_t set, uint64_t want,
                             wc_line *line, uint64_t now, wc_fail_reason *why)
{
    uint16_t written = (uint16_t)write_chunks(c, want);
    uint64_t tag = req->addr >> c->line_log2;
    wc_repl_ctx x = ctx_of(req, set);
    if (line) { /* hit: the data stays here, dirty */
        uint64_t more = written & ~line->valid_chunks;
        if (!can_place(c, set, line, tag, more)) return line_alloc_fail(c, set, why);
        ts_touch(c, set, line, &x);
        place(c, set, line, more, &x, now);
        line->valid_chunks |= written;
        line->dirty_chunks |= written;
        line->used_chunks |= (uint16_t)want;
        return WC_HIT;
    }
    if (c->wa == 'N') {
        if (!mq_has(c, 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
        send_below(c, req, want, now);
        return WC_MISS;
    }
    if (!can_allocate(c, set) || !can_place(c, set, NULL, tag, written))
        return line_alloc_fail(c, set, why);
    if (!mq_has(c, 1, now)) /* room for the victim's write-back */
        return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    line = ts_allocate(c, set, tag, WC_LINE_VALID, &x, now);
    if (!line) { /* the policy declined: write through without allocating */
        send_below(c, req, want, now);
        return WC_MISS;
    }
    place(c, set, line, written, &x, now);
    line->valid_chunks = line->dirty_chunks = written;
    line->used_chunks = (uint16_t)want;
    return WC_MISS;
}

static wc_outcome write_access(wc_l1_core *c, const wc_mem_req *req, uint64_t want, uint64_t now,
                               wc_fail_reason *why)
{
    uint32_t set;
    wc_line *line = ts_lookup(c, req->addr, &set);

    if (line && line->state == WC_LINE_RESERVED) { /* fill pending: leave the line alone */
        if (!mq_has(c, 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
        send_below(c, req, want, now);
        return WC_MISS;
    }
    char wp = c->wp;
    if (wp == 'L') wp = (req->flags & WC_REQ_LOCAL) ? 'B' : 'E';
    /* Writes that must not allocate behave as write-evict whatever the policy. */
    if ((req->flags & WC_REQ_NO_ALLOC) || (c->skip_global && !(req->flags & WC_REQ_LOCAL)))
        wp = 'E';
    switch (wp) {
    case 'T': return write_through(c, req, set, want, line, now, why);
    case 'B': return write_back(c, req, set, want, line, now, why);
    default: return write_evict(c, req, want, set, line, now, why); /* 'E', 'R' */
    }
}

/* ---- the ops ----------------------------------------------------------- */

static wc_outcome slow_access(wc_l1_core *c, const wc_mem_req *req, uint64_t want, uint64_t now,
                              wc_fail_reason *why)
{
    uint8_t f = req->flags;
    if (f & WC_REQ_ATOMIC) return read_bypass(c, req, want, now, why);
    if (f & WC_REQ_WRITE) return write_access(c, req, want, now, why);
    if ((f & WC_REQ_NO_ALLOC) || (c->skip_global && !(f & WC_REQ_LOCAL)))
        return read_bypass(c, req, want, now, why);
    if (f & WC_REQ_STREAM) return stream_read(c, req, want, now, why);
    uint32_t set;
    wc_line *line = ts_lookup(c, req->addr, &set);
    if (line && (line->valid_chunks & want) == want) { /* a hit the fast path did not take */
        wc_repl_ctx x = ctx_of(req, set);
        ts_touch(c, set, line, &x);
        line->used_chunks |= (uint16_t)want;
        return WC_HIT;
    }
    return read_not_hit(c, req, set, line, want, now, why);
}

static inline void count(wc_l1_stats *st, const wc_mem_req *req, wc_outcome o, wc_fail_reason r)
{
    st->outcome[o]++;
    if (o == WC_RESERVATION_FAIL) {
        st->fail[r]++;
        return;
    }
    st->accesses++;
    if (req->flags & WC_REQ_WRITE) {
        st->writes++;
    } else {
        st->reads++;
        st->read_misses += o == WC_MISS || o == WC_SECTOR_MISS;
        st->read_bypasses += o == WC_BYPASSED;
    }
}

/* ---- retries of a reservation fail ---------------------------------------
 *
 * A request that failed is usually presented again every cycle until the
 * resource it lacks is released (GPGPU-Sim counts every attempt, and so do
 * the stages).  With a store whose fails depend on nothing but this L1
 * (wc_tagstore_ops.retry_memo), the core remembers the last fail; every
 * access that succeeds, every flush and ctl forgets it, and every fill that
 * can lift it (fill_lifts_fail: the stages retry at every fill, most of
 * which free nothing the request lacks).  A retry of the same request
 * while it is remembered fails again for the same reason (the checks saw
 * the same state), so it is counted without the lookup.
 * Time matters to one check only: miss-queue slots free as their leave
 * times pass, so a MISS_QUEUE_FULL fail holds until the next one does.  The
 * other fails either came before the miss-queue check (LINE_ALLOC) or after
 * it passed, and slots only become free while nothing is sent. */

/* The first cycle after `now` at which a busy miss-queue slot frees. */
static uint64_t mq_next_free(const wc_l1_core *c, uint64_t now)
{
    uint64_t t = UINT64_MAX;
    for (uint32_t i = 0; i < c->mq_n; i++)
        if (c->mq[i] > now && c->mq[i] < t) t = c->mq[i];
    return t;
}

static inline void remember_fail(wc_l1_core *c, const wc_mem_req *req, wc_fail_reason why,
                                 uint64_t now)
{
    c->memo.req = *req; /* memo.set: line_alloc_fail */
    c->memo.why = why;
    c->memo.until = why == WC_FAIL_MISS_QUEUE_FULL ? mq_next_free(c, now) : UINT64_MAX;
    c->memo.live = true;
}

/* Whether req is the remembered fail and it still holds at now. */
static inline bool fail_holds(const wc_l1_core *c, const wc_mem_req *req, uint64_t now)
{
    return c->memo.live && now < c->memo.until && !memcmp(&c->memo.req, req, sizeof *req);
}

uint64_t wc_l1_core_fail_holds_until(const wc_l1 *l1, uint64_t now)
{
    const wc_l1_core *c = (const wc_l1_core *)l1;
    return c->memo.live && now < c->memo.until ? c->memo.until : now + 1;
}

/* The checks absent_line_read makes before it changes anything, for a read
 * presented in cycle `at` with the L1 as it is now: the reason it would
 * fail, or WC_FAIL_NONE when it would not (or when the read is not one that
 * array_read would send there: a line present, a store that does not
 * allocate on miss, a flag that takes the slow path). */
static wc_fail_reason absent_read_fails(const wc_l1_core *c, const wc_mem_req *req, uint64_t at)
{
    if (!c->ta || !c->alloc_on_miss || c->skip_global ||
        (req->flags & (WC_REQ_WRITE | WC_REQ_NO_ALLOC | WC_REQ_ATOMIC | WC_REQ_STREAM)))
        return WC_FAIL_NONE;
    const wc_tag_array *ta = &c->arr;
    uint64_t tag = req->addr >> c->line_log2;
    uint32_t set = wc_index_set(&ta->index, req->addr);
    const wc_line *s = wc_tag_array_set((wc_tag_array *)ta, set);
    for (uint32_t w = 0; w < ta->assoc; w++)
        if (s[w].tag == tag && s[w].state != WC_LINE_INVALID) return WC_FAIL_NONE;
    if (!arr_can_allocate(ta, set)) return WC_FAIL_LINE_ALLOC;
    if (!mq_has(c, c->mq_need_alloc, at)) return WC_FAIL_MISS_QUEUE_FULL;
    if (c->mshr.used >= c->mshr.n_entries) return WC_FAIL_MSHR_ENTRY;
    if (c->warp_mshr_max && warp_mshr_full(c, req)) return WC_FAIL_MSHR_ENTRY;
    return WC_FAIL_NONE;
}

/* wc_l1_core_fail_ahead once it is worth deciding. */
static __attribute__((noinline)) uint64_t fail_ahead(wc_l1_core *c, const wc_mem_req *req,
                                                     uint64_t at, wc_fail_reason *why)
{
    if (fail_holds(c, req, at)) { /* it is the remembered fail */
        *why = c->memo.why;
        return c->memo.until;
    }
    wc_fail_reason r = absent_read_fails(c, req, at);
    if (r == WC_FAIL_NONE) return at;
    /* Remembered as the lookup in cycle `at` would remember it (memo.set
     * as line_alloc_fail keeps it), so fills lift it as they would. */
    if (r == WC_FAIL_LINE_ALLOC) c->memo.set = wc_index_set(&c->arr.index, req->addr);
    remember_fail(c, req, r, at);
    *why = r;
    return c->memo.until;
}

uint64_t wc_l1_core_fail_ahead(wc_l1 *l1, const wc_mem_req *req, uint64_t at, wc_fail_reason *why)
{
    wc_l1_core *c = (wc_l1_core *)l1;
    /* Only where every MSHR entry or the miss queue is taken (a read of an
     * absent line then fails, and most reads looked up are absent on a
     * miss-bound run): a LINE_ALLOC fail alone is not worth a set scan
     * ahead of the lookup's own (atax: half of all calls were hits). */
    if (!c->retry_memo || (c->mshr.used < c->mshr.n_entries && mq_has(c, c->mq_need_alloc, at)))
        return at;
    return fail_ahead(c, req, at, why);
}

/* Whether a fill of line `tag` in `set` (`released`: its MSHR entry with it)
 * can lift the remembered fail.  Any fill can for a store the core does not
 * see into.  In an array-backed store allocating on miss a fill installs
 * nothing, sends nothing and evicts nothing: it turns one RESERVED line
 * valid (only its set's LINE_ALLOC check, and requests of that line, can
 * change) and may free one MSHR entry (and its warp's share). */
static bool fill_lifts_fail(const wc_l1_core *c, uint64_t tag, uint32_t set, bool released)
{
    if (!c->ta || !c->alloc_on_miss || tag == c->memo.req.addr >> c->line_log2) return true;
    switch (c->memo.why) {
    case WC_FAIL_LINE_ALLOC: return set == c->memo.set;
    case WC_FAIL_MISS_QUEUE_FULL: return false; /* only the clock frees a slot */
    default: return released;                   /* MSHR_ENTRY, MSHR_MERGE */
    }
}

/* Counts an access that was not a fast-path hit and keeps the memo. */
static inline wc_outcome settle(wc_l1_core *c, const wc_mem_req *req, wc_outcome o,
                                wc_fail_reason why, uint64_t now)
{
    count(&c->base.stats, req, o, why);
    if (o != WC_RESERVATION_FAIL)
        c->memo.live = false;
    else if (c->retry_memo)
        remember_fail(c, req, why, now);
    return o;
}

/* A read of a line absent from an array-backed store allocating on miss:
 * read_not_hit's checks and miss for it, in its order, without the general
 * case's branches and without an MSHR lookup before the checks.  There a line
 * with an MSHR entry is always in its set: the miss that opens an entry
 * reserves the line (a sector miss marks its present line RESERVED), and a
 * RESERVED line stays until the fill that completes the entry (it is never a
 * victim; writes, streaming reads and flushes leave it alone; its pending
 * chunks are the entry's issued chunks not yet arrived, so it turns VALID in
 * the fill that releases the entry).  So an absent line has no entry: it
 * cannot merge, and needs a way, miss-queue slots for the send (and a
 * victim's write-back) and a new entry.  On a miss-bound run most of these
 * reads fail (l1q: one counted MSHR_ENTRY fail per request), and a fail now
 * costs three comparisons after the set scan.  test_l1core's
 * test_absent_line_has_no_entry checks the invariant on random traffic. */
static wc_outcome absent_line_read(wc_l1_core *c, const wc_mem_req *req, uint32_t set,
                                   uint64_t want, uint64_t now, wc_fail_reason *why)
{
    if (!arr_can_allocate(&c->arr, set)) return line_alloc_fail(c, set, why);
    if (!mq_has(c, c->mq_need_alloc, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    wc_mshr *m = &c->mshr;
    if (m->used >= m->n_entries) return fail(WC_FAIL_MSHR_ENTRY, why);
    if (c->warp_mshr_max && warp_mshr_full(c, req)) return fail(WC_FAIL_MSHR_ENTRY, why);

    uint64_t tag = req->addr >> c->line_log2, fetch = fetch_chunks(c, want, 0);
    wc_repl_ctx x = ctx_of(req, set);
    int way = arr_pick(&c->arr, set, &x);                    /* arr_allocate, its eviction inline */
    if (way < 0) return read_bypass(c, req, want, now, why); /* the policy declined */
    wc_line *line = wc_tag_array_set(&c->arr, set) + way;
    if (line->state == WC_LINE_VALID) evict_line(c, set, line, now);
    line = arr_install(&c->arr, set, way, tag, WC_LINE_RESERVED, &x);
    line->used_chunks = (uint16_t)want; /* a fresh RESERVED line */
    line->pending_chunks = (uint16_t)fetch;
    /* The eviction, if any, touched no MSHR: the position is the lookup's. */
    uint32_t pos;
    wc_mshr_lookup(m, tag, &pos);
    int e = wc_mshr_insert(m, pos, tag, req->tag); /* a fresh entry: nothing arrived */
    if (c->warp_mshr_max) warp_mshr_take(c, e, req);
    c->e_used[e] = want;
    c->e_line[e] = (struct wc_l1_entry_line){line, set};
    m->e[e].issued = fetch;

    wc_mem_req r = *req;
    r.addr = tag << c->line_log2;
    r.chunks = fetch;
    send_below(c, &r, fetch, now);
    return WC_MISS;
}

/* The read-hit fast path of array-backed stores: the set scanned in place,
 * LRU's on_hit without the indirect call. */
static inline wc_outcome array_read(wc_l1_core *c, const wc_mem_req *req, uint64_t want,
                                    uint64_t now, wc_fail_reason *why)
{
    wc_tag_array *ta = &c->arr;
    uint64_t tag = req->addr >> c->line_log2;
    uint32_t set = wc_index_set(&ta->index, req->addr);
    wc_line *s = wc_tag_array_set(ta, set);
    for (uint32_t w = 0; w < ta->assoc; w++) {
        if (s[w].tag != tag || s[w].state == WC_LINE_INVALID) continue;
        if ((s[w].valid_chunks & want) != want) {
            wc_outcome o = read_not_hit(c, req, set, &s[w], want, now, why);
            return settle(c, req, o, *why, now);
        }
        if (ta->repl == &wc_repl_lru) { /* LRU's on_hit, without the indirect call */
            s[w].repl = ++ta->stamp;
        } else {
            wc_repl_ctx x = ctx_of(req, set);
            wc_tag_array_hit(ta, set, w, &x);
        }
        s[w].used_chunks |= (uint16_t)want;
        c->base.stats.accesses++;
        c->base.stats.reads++;
        c->base.stats.outcome[WC_HIT]++;
        c->memo.live = false;
        return WC_HIT;
    }
    wc_outcome o = c->alloc_on_miss ? absent_line_read(c, req, set, want, now, why)
                                    : read_not_hit(c, req, set, NULL, want, now, why);
    return settle(c, req, o, *why, now); /* *why once o is known */
}

wc_outcome wc_l1_core_access(wc_l1 *l1, const wc_mem_req *req, uint64_t now, wc_fail_reason *why)
{
    wc_l1_core *c = (wc_l1_core *)l1;
    wc_fail_reason dummy;
    if (!why) why = &dummy;
    if (fail_holds(c, req, now)) { /* a retry that cannot succeed yet */
        *why = c->memo.why;
        count(&c->base.stats, req, WC_RESERVATION_FAIL, *why);
        return WC_RESERVATION_FAIL;
    }
    *why = WC_FAIL_NONE;
    uint64_t want = requested_chunks(c, req);

    /* Fast path: a cacheable read in an array-backed store. */
    if (!(req->flags & (WC_REQ_WRITE | WC_REQ_NO_ALLOC | WC_REQ_ATOMIC | WC_REQ_STREAM)) &&
        !c->skip_global && c->ta)
        return array_read(c, req, want, now, why);
    wc_outcome o = slow_access(c, req, want, now, why);
    return settle(c, req, o, *why, now);
}

/* The line a fill of entry e (line `tag`) goes to, as ts_lookup finds it.
 * In an array-backed store the line the miss reserved is still there (a
 * RESERVED line is never a victim; a tag is in at most one way of its set),
 * so the entry's record answers; checked, since the lookup is the rule. */
static inline wc_line *fill_line(wc_l1_core *c, int e, uint64_t addr, uint64_t tag, uint32_t *set)
{
    if (c->ta) {
        struct wc_l1_entry_line at = c->e_line[e];
        if (at.line && at.line->tag == tag && at.line->state != WC_LINE_INVALID) {
            *set = at.set;
            return at.line;
        }
    }
    return ts_lookup(c, addr, set);
}

void wc_l1_core_fill(wc_l1 *l1, uint64_t addr, uint64_t chunks, uint64_t now)
{
    wc_l1_core *c = (wc_l1_core *)l1;
    uint64_t tag = addr >> c->line_log2;
    int e = wc_mshr_find(&c->mshr, tag);
    if (e < 0) return; /* not ours (or already answered) */
    wc_mshr_entry *ent = &c->mshr.e[e];
    uint64_t got = chunks & ent->issued;
    if (!got) return;
    ent->arrived |= got;

    uint32_t set;
    wc_line *line = fill_line(c, e, addr, tag, &set);
    bool installed = !line;
    if (!line) { /* allocate-on-fill: the store (and its policy) choose now */
        wc_repl_ctx x = ctx_of(&c->e_req[e], set);
        line = ts_allocate(c, set, tag, WC_LINE_VALID, &x, now);
        if (line) line->used_chunks = (uint16_t)c->e_used[e];
    }
    if (line) ts_fill(c, set, line, got);
    const wc_l1_listener *ls = c->base.env.listener;
    if (ls && ls->on_fill) ls->on_fill(ls->ctx, c->base.env.sm, tag << c->line_log2, got, now);
    c->base.stats.fills++;

    bool done = (ent->arrived & ent->issued) == ent->issued;
    if (c->memo.live && (installed || fill_lifts_fail(c, tag, set, done))) c->memo.live = false;
    if (!done) return; /* more chunks to come */
    if (c->warp_mshr_max) c->warp_mshr[c->e_warp[e]]--;
    /* Releasing an entry leaves its waiters' slots as they are (mshr.c):
     * they are answered from there, without a copy. */
    const uint32_t *w = c->mshr.waiters + (size_t)e * c->mshr.max_merge;
    int n = wc_mshr_release_entry(&c->mshr, e, NULL);
    for (int i = 0; i < n; i++) c->base.env.respond(c->base.env.ctx, w[i], now);
}

void wc_l1_core_destroy(wc_l1 *l1)
{
    wc_l1_core *c = (wc_l1_core *)l1;
    if (!c) return;
    if (c->ts) c->ts->ops->destroy(c->ts);
    wc_mshr_free(&c->mshr);
    free(c->mq);
    free(c->e_req);
    free(c->e_warp);
    free(c->warp_mshr);
    free(c->e_used);
    free(c->e_line);
    free(c);
}

typedef struct flush_arg {
    wc_l1_core *c;
    uint64_t now;
} flush_arg;

static void flush_one(void *arg, uint32_t set, wc_line *line)
{
    flush_arg *f = arg;
    wc_l1_core_evict(f->c, set, line, f->now);
}

void wc_l1_core_flush(wc_l1 *l1, uint64_t now)
{
    wc_l1_core *c = (wc_l1_core *)l1;
    flush_arg f = {c, now};
    c->memo.live = false;
    c->ts->ops->each_valid(c->ts, flush_one, &f);
}

int64_t wc_l1_core_ctl(wc_l1 *l1, int op, int64_t arg)
{
    wc_l1_core *c = (wc_l1_core *)l1;
    bool old = c->skip_global;
    switch (op) {
    case WC_L1_CTL_SKIP_GLOBAL:
        c->skip_global = arg != 0;
        c->memo.live = false;
        return old;
    case WC_L1_CTL_QUERY_SKIP_GLOBAL: return old;
    default: return -1;
    }
}

void wc_l1_core_stats(const wc_l1 *l1, void (*emit)(void *ctx, const char *name, double v),
                      void *ctx)
{
    const wc_l1_core *c = (const wc_l1_core *)l1;
    if (c->ts->ops->stats) c->ts->ops->stats(c->ts, emit, ctx);
}

/* ---- creation ------------------------------------------------------------ */

static int check_geom(const wc_config *cfg, wc_err *err)
{
    const wc_cache_geom *g = &cfg->l1;
    const char *w = wc_l1_config_where(cfg);
    if (!g->write_policy || !strchr("RBTEL", g->write_policy))
        return wc_errf(err, "%s: -gpgpu_cache:dl1: write policy '%c' unknown (R B T E L)", w,
                       g->write_policy ? g->write_policy : '?');
    if (!g->alloc_policy || !strchr("mfs", g->alloc_policy))
        return wc_errf(err, "%s: -gpgpu_cache:dl1: allocation policy '%c' unknown (m f s)", w,
                       g->alloc_policy ? g->alloc_policy : '?');
    if (!g->write_alloc || !strchr("NWFL", g->write_alloc))
        return wc_errf(err, "%s: -gpgpu_cache:dl1: write-allocate policy '%c' unknown (N W F L)", w,
                       g->write_alloc ? g->write_alloc : '?');
    if (g->mshr_entries == 0 || g->mshr_max_merge == 0)
        return wc_errf(err, "%s: -gpgpu_cache:dl1: MSHR needs at least 1 entry and 1 merge", w);
    if (g->miss_queue == 0)
        return wc_errf(err, "%s: -gpgpu_cache:dl1: miss queue needs at least 1 entry", w);
    return 0;
}

/* The coalescing granularity: -coalesce_bytes, 0 meaning the line size; it
 * must be a power of two from one chunk to the line. */
static int set_xfer(wc_l1_core *c, const wc_config *cfg, wc_err *err)
{
    uint32_t line = 1u << c->line_log2, chunk = 1u << c->ts->chunk_log2;
    uint32_t gran = cfg->coalesce_bytes ? cfg->coalesce_bytes : line;
    if (c->ts->nchunks > 64 || line / chunk != c->ts->nchunks)
        return wc_errf(err, "internal: tag store %s has %u chunks of %u B in %u-byte lines",
                       c->ts->ops->name, c->ts->nchunks, chunk, line);
    if (!wc_is_pow2(gran) || gran > line || gran < chunk)
        return wc_errf(err,
                       "%s: option -coalesce_bytes: %u is not allowed with %u-byte L1 lines "
                       "(a power of two from %u to %u, or 0 for the line size)",
                       wc_l1_config_where(cfg), gran, line, chunk, line);
    c->base.xfer.granularity = gran;
    c->base.xfer.line_log2 = (uint8_t)c->line_log2;
    c->base.xfer.chunk_log2 = (uint8_t)c->ts->chunk_log2;
    return 0;
}

wc_l1 *wc_l1_core_create(const wc_l1_ops *ops, wc_tagstore_create_fn mk, const wc_config *cfg,
                         const wc_l1_env *env, wc_err *err)
{
    if (check_geom(cfg, err) < 0) return NULL;
    const wc_cache_geom *g = &cfg->l1;
    wc_l1_core *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "%s L1: out of memory", ops->name);
        return NULL;
    }
    c->base.ops = ops;
    c->base.env = *env;
    c->ts = mk(c, cfg, env, err);
    if (!c->ts) {
        wc_l1_core_destroy(&c->base);
        return NULL;
    }
    c->ta = c->ts->ta;
    c->retry_memo = c->ts->ops->retry_memo;
    c->line_log2 = wc_log2(g->line_bytes);
    c->all = wc_chunks_all(c->ts->nchunks);
    if (set_xfer(c, cfg, err) < 0) {
        wc_l1_core_destroy(&c->base);
        return NULL;
    }
    if (wc_mshr_init(&c->mshr, g->mshr_entries, g->mshr_max_merge) < 0) {
        wc_errf(err, "%s: -gpgpu_cache:dl1: cannot build %u MSHRs x %u merges",
                wc_l1_config_where(cfg), g->mshr_entries, g->mshr_max_merge);
        wc_l1_core_destroy(&c->base);
        return NULL;
    }
    c->mq_n = g->miss_queue;
    c->mq = calloc(c->mq_n, sizeof *c->mq);
    c->e_req = calloc(g->mshr_entries, sizeof *c->e_req);
    c->e_used = calloc(g->mshr_entries, sizeof *c->e_used);
    c->e_line = calloc(g->mshr_entries, sizeof *c->e_line);
    if (!c->mq || !c->e_req || !c->e_used || !c->e_line) {
        wc_errf(err, "%s L1: out of memory", ops->name);
        wc_l1_core_destroy(&c->base);
        return NULL;
    }
    if (cfg->l1_mshr_per_warp) {
        c->warp_mshr_max = cfg->l1_mshr_per_warp;
        c->n_warp_slots = cfg->max_threads_per_sm / WC_WARP_SIZE;
        if (c->n_warp_slots == 0) c->n_warp_slots = 1;
        c->e_warp = calloc(g->mshr_entries, sizeof *c->e_warp);
        c->warp_mshr = calloc(c->n_warp_slots, sizeof *c->warp_mshr);
        if (!c->e_warp || !c->warp_mshr) {
            wc_errf(err, "%s L1: out of memory", ops->name);
            wc_l1_core_destroy(&c->base);
            return NULL;
        }
    }
    c->alloc_on_miss = g->alloc_policy == 'm';
    c->skip_global = cfg->l1_skip;
    c->wp = g->write_policy;
    c->wa = g->write_alloc;
    /* A write-back cache may have to write a dirty victim back as well. */
    bool may_be_dirty = c->wp == 'B' || c->wp == 'L';
    c->mq_need_alloc = may_be_dirty && c->mq_n >= 2 ? 2 : 1;
    return &c->base;
}

/* The knob l1_bypass (warpcache/knob.h): streaming bypass of the L1.  While
 * it is set the SM's cacheable reads carry WC_REQ_STREAM and are served
 * around the data store, their tags still looked up and updated
 * (stream_read). */
const wc_knob_desc wc_knob_l1_bypass = {
    .name = "l1_bypass",
    .consumer = "L1 core",
    .help = "1: cacheable loads go around the L1 (tags still updated)",
    .max = 1,
    .req_flag = WC_REQ_STREAM,
};
WC_PLUGIN(knob, wc_knob_l1_bypass, 20);

/* ---- the L1's counters (wc_l1_stats; warpcache/statreg.h) ----------------- */

#define L1_STAT(name, unit, desc, field, n, pc)                                                    \
    {                                                                                              \
        name, unit, desc, WC_STAT_L1, WC_STAT_AT(wc_l1_stats, field), WC_KS(l1.field), pc, n,      \
            false                                                                                  \
    }

static const wc_stat_desc l1_stats[] = {
    L1_STAT("l1.accesses", "requests", "requests the L1 accepted (reservation fails excluded)",
            accesses, 1, WC_PC(l1_accesses)),
    L1_STAT("l1.reads", "requests", "accepted reads", reads, 1, WC_PC(l1_reads)),
    L1_STAT("l1.writes", "requests", "accepted writes", writes, 1, WC_NONE),
    L1_STAT("l1.outcome", "requests",
            "presentations by outcome (wc_outcome order: l1.hits, l1.hit_reserved, MISS, "
            "l1.sector_misses, l1.reservation_fails.total, l1.bypasses)",
            outcome, WC_OUTCOME__COUNT, WC_PC(l1_outcome)),
    L1_STAT("l1.reservation_fails", "presentations",
            "reservation fails by reason (wc_fail_reason order; reported as "
            "l1.reservation_fails.*)",
            fail, WC_FAIL__COUNT, WC_PC(l1_fails)),
    L1_STAT("l1.evictions", "lines", "lines evicted", evictions, 1, WC_NONE),
    L1_STAT("l1.writebacks", "lines", "dirty lines written back", writebacks, 1, WC_NONE),
    L1_STAT("l1.fills", "fills", "fills from below (not reported)", fills, 1, WC_NONE),
    L1_STAT("l1.line_use", "lines",
            "evicted lines by the share of their sectors referenced (0/25/50/75/100 %; "
            "l1.line_use.*)",
            util_hist, 5, WC_NONE),
    L1_STAT("l1.read_misses", "requests", "reads that were MISS or SECTOR_MISS", read_misses, 1,
            WC_PC(l1_read_misses)),
    L1_STAT("l1.read_bypasses", "requests", "reads sent around the L1 (for l1.read_miss_rate)",
            read_bypasses, 1, WC_NONE),
    {0},
};
const wc_stat_group wc_stats_l1 = {"L1 core (wc_l1_stats, per SM)", l1_stats};
WC_PLUGIN(stats, wc_stats_l1, 30);
