/*
 * conventional.c - the GPGPU-Sim-class L1 data cache ("conventional"): one
 * tag array, an MSHR table and a miss queue, driven by the geometry string's
 * policies (-gpgpu_cache:dl1).  docs/cache.md states the semantics in full;
 * in short:
 *
 *   reads   HIT / HIT_RESERVED (merged into the line's MSHR entry) / MISS /
 *           SECTOR_MISS ('S' geometry) / BYPASSED (no-alloc, atomics,
 *           -gpgpu_gmem_skip_L1D) / RESERVATION_FAIL (nothing changed).
 *   writes  by write policy: E write-evict, T write-through, B write-back,
 *           L local write-back + global write-evict, R read-only.
 *   fill    data from below: the line becomes VALID (allocate-on-miss) or is
 *           installed now (allocate-on-fill); the MSHR entry is released and
 *           every waiting request answered once all its sectors are in.
 *
 * The miss queue is a set of slots holding the cycles at which their last
 * sends leave the SM (a min-heap): a slot is busy while its leave time is in
 * the future.  Reservation-fail checks come first and have no side effects,
 * so the SM can simply retry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l1_impl.h"
#include "repl_impl.h"
#include "warpcache/trace.h"

#define ALL_SECTORS 0xFu

/* base, ta, mshr come first and in this order: tests/test_cache.c inspects
 * them through a view of just these three fields. */
typedef struct conv_l1 {
    wc_l1 base; /* first: wc_l1 * <-> conv_l1 * */
    wc_tag_array ta;
    wc_mshr mshr;
    uint64_t *mq; /* leave time of each miss-queue slot's last send */
    uint32_t mq_n;
    uint32_t mq_need_alloc; /* free slots a read miss that allocates needs */
    uint32_t *cookies;      /* scratch for releasing an MSHR entry (max_merge) */
    /* Per MSHR entry: who asked first and which sectors the waiters use, so an
     * allocate-on-fill install can fill in owner and utilisation fields. */
    uint32_t *e_block;
    uint16_t *e_warp;
    uint8_t *e_used;
    unsigned line_log2;
    bool sectored, alloc_on_miss, skip_global;
    char wp, wa;
} conv_l1;

/* ---- miss queue ------------------------------------------------------- */

/* The slots are a binary min-heap of leave times (mq[0] frees first): which
 * slot a send occupies does not matter, only the multiset of leave times, so
 * "free slots" and "the slot that frees first" need no scan of every slot. */
static bool mq_has(const conv_l1 *c, uint32_t need, uint64_t now)
{
    const uint64_t *h = c->mq;
    if (need == 1) return h[0] <= now;
    if (need == 2) /* the second smallest is one of the root's children */
        return h[0] <= now && c->mq_n >= 2 && (h[1] <= now || (c->mq_n >= 3 && h[2] <= now));
    uint32_t free_slots = 0;
    for (uint32_t i = 0; i < c->mq_n; i++) free_slots += h[i] <= now;
    return free_slots >= need;
}

/* Records a send in the slot that frees first (a free one when there is one;
 * sends made at fill time cannot fail and take the oldest busy slot). */
static void mq_record(conv_l1 *c, uint64_t leave)
{
    uint64_t *h = c->mq;
    uint32_t n = c->mq_n, i = 0;
    for (;;) { /* replace the root, sift down */
        uint32_t k = 2 * i + 1;
        if (k >= n) break;
        if (k + 1 < n && h[k + 1] < h[k]) k++;
        if (h[k] >= leave) break;
        h[i] = h[k];
        i = k;
    }
    h[i] = leave;
}

static void send_below(conv_l1 *c, const wc_mem_req *r, uint8_t sectors, uint64_t now)
{
    mq_record(c, c->base.env.send(c->base.env.ctx, r, sectors, now));
}

/* ---- line helpers ------------------------------------------------------ */

static bool set_all_reserved(const wc_line *s, uint32_t assoc)
{
    for (uint32_t w = 0; w < assoc; w++)
        if (s[w].state != WC_LINE_RESERVED) return false;
    return true;
}

/* Bytes of the 128 B request byte mask covered by a sector mask. */
static void sectors_to_bytemask(uint8_t sectors, uint64_t bytemask[2])
{
    /* Each 64-bit word holds two 32 B sectors: a pair of sector bits picks it. */
    static const uint64_t pair[4] = {0, 0x00000000FFFFFFFFull, 0xFFFFFFFF00000000ull, ~0ull};
    bytemask[0] = pair[sectors & 3];
    bytemask[1] = pair[(sectors >> 2) & 3];
}

static void send_writeback(conv_l1 *c, const wc_line *line, uint64_t now)
{
    wc_mem_req wb;
    memset(&wb, 0, sizeof wb);
    wb.addr = line->tag << c->line_log2;
    sectors_to_bytemask(line->dirty_sectors, wb.bytemask);
    wb.block = line->owner_block;
    wb.sm = (uint16_t)c->base.env.sm;
    wb.warp = line->owner_warp;
    wb.sectors = line->dirty_sectors;
    wb.op = WC_OP_STG;
    wb.flags = WC_REQ_WRITE | WC_REQ_WRITEBACK;
    send_below(c, &wb, line->dirty_sectors, now);
    c->base.stats.writebacks++;
}

/* Removes a valid line: dirty data is written back, listeners and the
 * utilisation histogram see it, and the way becomes INVALID. */
static void evict_line(conv_l1 *c, wc_line *line, uint64_t now)
{
    if (line->dirty_sectors) send_writeback(c, line, now);
    const wc_l1_listener *ls = c->base.env.listener;
    if (ls && ls->on_evict)
        ls->on_evict(ls->ctx, c->base.env.sm, line, line->tag << c->line_log2, now);
    c->base.stats.evictions++;
    c->base.stats.util_hist[wc_popcount32(line->used_sectors & ALL_SECTORS)]++;
    line->state = WC_LINE_INVALID;
    line->valid_sectors = line->dirty_sectors = line->used_sectors = line->pending_sectors = 0;
}

/* Takes a way of `set` for line `tag` (evicting what is there) and resets it
 * to `state`.  Callers have checked that some way is not reserved. */
static wc_line *allocate_line(conv_l1 *c, uint32_t set, uint64_t tag, uint8_t state, uint32_t block,
                              uint16_t warp, uint64_t now)
{
    int way = wc_tag_array_pick(&c->ta, set);
    if (way < 0) return NULL;
    wc_line *s = wc_tag_array_set(&c->ta, set);
    wc_line *line = &s[way];
    if (line->state == WC_LINE_VALID) evict_line(c, line, now);
    memset(line, 0, sizeof *line);
    line->tag = tag;
    line->state = state;
    line->owner_block = block;
    line->owner_warp = warp;
    c->ta.repl->on_insert(s, c->ta.assoc, (uint32_t)way, ++c->ta.stamp);
    return line;
}

static void touch_line(conv_l1 *c, uint32_t set, wc_line *line)
{
    wc_line *s = wc_tag_array_set(&c->ta, set);
    c->ta.repl->on_hit(s, c->ta.assoc, (uint32_t)(line - s), ++c->ta.stamp);
}

static inline uint8_t requested_sectors(const wc_mem_req *req)
{
    uint8_t want = req->sectors & ALL_SECTORS;
    return want ? want : ALL_SECTORS; /* a request without a mask means the whole line */
}

static wc_outcome fail(wc_fail_reason r, wc_fail_reason *why)
{
    *why = r;
    return WC_RESERVATION_FAIL;
}

/* ---- reads ------------------------------------------------------------- */

static wc_outcome read_bypass(conv_l1 *c, const wc_mem_req *req, uint8_t want, uint64_t now,
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

/* Everything but a plain hit: hit-reserved merges, misses, sector misses. */
static wc_outcome read_not_hit(conv_l1 *c, const wc_mem_req *req, uint32_t set, uint64_t tag,
                               wc_line *line, uint8_t want, uint64_t now, wc_fail_reason *why)
{
    wc_mshr *m = &c->mshr;
    int e = wc_mshr_find(m, tag);
    uint8_t pending = e >= 0 ? (uint8_t)(m->e[e].sectors & ~m->e[e].arrived) : 0;
    uint8_t have = (uint8_t)((line ? line->valid_sectors : 0) | pending);
    uint8_t missing = want & (uint8_t)~have;

    if (!missing) { /* all requested sectors are valid or on their way */
        if (e < 0) return fail(WC_FAIL_MSHR_ENTRY, why); /* cannot happen: pending != 0 */
        if (m->e[e].n_merged >= m->max_merge) return fail(WC_FAIL_MSHR_MERGE, why);
        wc_mshr_add(m, tag, req->tag, NULL, NULL);
        c->e_used[e] |= want;
        if (line) {
            touch_line(c, set, line);
            line->used_sectors |= want;
        }
        return WC_HIT_RESERVED;
    }

    /* A miss (line absent) or a sector miss (line present, sectors absent),
     * checked in GPGPU-Sim's order before anything changes. */
    bool take_way = !line && c->alloc_on_miss;
    if (take_way && set_all_reserved(wc_tag_array_set(&c->ta, set), c->ta.assoc))
        return fail(WC_FAIL_LINE_ALLOC, why);
    if (!mq_has(c, take_way ? c->mq_need_alloc : 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    if (e >= 0 && m->e[e].n_merged >= m->max_merge) return fail(WC_FAIL_MSHR_MERGE, why);
    if (e < 0 && m->used >= m->n_entries) return fail(WC_FAIL_MSHR_ENTRY, why);

    uint8_t fetch = c->sectored ? missing : (uint8_t)(ALL_SECTORS & ~have);
    bool sector_miss = line != NULL;
    if (take_way)
        line = allocate_line(c, set, tag, WC_LINE_RESERVED, req->block, req->warp, now);
    else if (line)
        touch_line(c, set, line);
    if (line) {
        line->used_sectors |= want;
        if (c->alloc_on_miss) {
            line->state = WC_LINE_RESERVED;
            line->pending_sectors |= fetch;
        }
    }
    bool is_new = false;
    e = wc_mshr_add(m, tag, req->tag, &is_new, NULL);
    if (is_new) {
        c->e_block[e] = req->block;
        c->e_warp[e] = req->warp;
        c->e_used[e] = 0;
    }
    c->e_used[e] |= want;
    m->e[e].sectors |= fetch;

    wc_mem_req r = *req;
    r.addr = tag << c->line_log2;
    r.sectors = fetch;
    sectors_to_bytemask(fetch, r.bytemask);
    send_below(c, &r, fetch, now);
    return sector_miss ? WC_SECTOR_MISS : WC_MISS;
}

/* ---- writes ------------------------------------------------------------ */

/* Write-evict (and read-only): invalidate a present line, send the data. */
static wc_outcome write_evict(conv_l1 *c, const wc_mem_req *req, uint8_t want, wc_line *line,
                              uint64_t now, wc_fail_reason *why)
{
    if (!mq_has(c, 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    if (line) evict_line(c, line, now);
    send_below(c, req, want, now);
    return line ? WC_HIT : WC_MISS;
}

static wc_outcome write_through(conv_l1 *c, const wc_mem_req *req, uint32_t set, uint64_t tag,
                                uint8_t want, wc_line *line, uint64_t now, wc_fail_reason *why)
{
    bool take_way = !line && c->wa != 'N';
    if (take_way && set_all_reserved(wc_tag_array_set(&c->ta, set), c->ta.assoc))
        return fail(WC_FAIL_LINE_ALLOC, why);
    if (!mq_has(c, 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    bool hit = line != NULL;
    if (take_way)
        line = allocate_line(c, set, tag, WC_LINE_VALID, req->block, req->warp, now);
    else if (line)
        touch_line(c, set, line);
    if (line) {
        line->valid_sectors |= c->sectored ? want : ALL_SECTORS;
        line->used_sectors |= want;
    }
    send_below(c, req, want, now);
    return hit ? WC_HIT : WC_MISS;
}

static wc_outcome write_back(conv_l1 *c, const wc_mem_req *req, uint32_t set, uint64_t tag,
                             uint8_t want, wc_line *line, uint64_t now, wc_fail_reason *why)
{
    uint8_t written = c->sectored ? want : ALL_SECTORS;
    if (line) { /* hit: the data stays here, dirty */
        touch_line(c, set, line);
        line->valid_sectors |= written;
        line->dirty_sectors |= written;
        line->used_sectors |= want;
        return WC_HIT;
    }
    if (c->wa == 'N') {
        if (!mq_has(c, 1, now)) return fail(WC_FAIL_MISS_QUEUE_FULL, why);
        send_below(c, req, want, now);
        return WC_MISS;
    }
    if (set_all_reserved(wc_tag_array_set(&c->ta, set), c->ta.assoc))
        return fail(WC_FAIL_LINE_ALLOC, why);
    if (!mq_has(c, 1, now)) /* room for the victim's write-back */
        return fail(WC_FAIL_MISS_QUEUE_FULL, why);
    line = allocate_line(c, set, tag, WC_LINE_VALID, req->block, req->warp, now);
    line->valid_sectors = line->dirty_sectors = written;
    line->used_sectors = want;
    return WC_MISS;
}

static wc_outcome write_access(conv_l1 *c, const wc_mem_req *req, uint8_t want, uint64_t now,
                               wc_fail_reason *why)
{
    uint64_t tag = req->addr >> c->line_log2;
    uint32_t set = wc_index_set(&c->ta.index, req->addr);
    int way = wc_tag_array_find(&c->ta, set, tag);
    wc_line *line = way >= 0 ? wc_tag_array_set(&c->ta, set) + way : NULL;

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
    case 'T': return write_through(c, req, set, tag, want, line, now, why);
    case 'B': return write_back(c, req, set, tag, want, line, now, why);
    default: return write_evict(c, req, want, line, now, why); /* 'E', 'R' */
    }
}

/* ---- the ops ----------------------------------------------------------- */

static wc_outcome conv_slow_access(conv_l1 *c, const wc_mem_req *req, uint8_t want, uint64_t now,
                                   wc_fail_reason *why)
{
    uint8_t f = req->flags;
    if (f & WC_REQ_ATOMIC) return read_bypass(c, req, want, now, why);
    if (f & WC_REQ_WRITE) return write_access(c, req, want, now, why);
    if ((f & WC_REQ_NO_ALLOC) || (c->skip_global && !(f & WC_REQ_LOCAL)))
        return read_bypass(c, req, want, now, why);
    uint64_t tag = req->addr >> c->line_log2;
    uint32_t set = wc_index_set(&c->ta.index, req->addr);
    int way = wc_tag_array_find(&c->ta, set, tag);
    wc_line *line = way >= 0 ? wc_tag_array_set(&c->ta, set) + way : NULL;
    return read_not_hit(c, req, set, tag, line, want, now, why);
}

static void count(wc_l1_stats *st, const wc_mem_req *req, wc_outcome o, wc_fail_reason r)
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

static wc_outcome conv_access(wc_l1 *l1, const wc_mem_req *req, uint64_t now, wc_fail_reason *why)
{
    conv_l1 *c = (conv_l1 *)l1;
    wc_fail_reason dummy;
    if (!why) why = &dummy;
    *why = WC_FAIL_NONE;
    uint8_t want = requested_sectors(req);

    /* Fast path: a cacheable read that hits. */
    if (!(req->flags & (WC_REQ_WRITE | WC_REQ_NO_ALLOC | WC_REQ_ATOMIC)) && !c->skip_global) {
        uint64_t tag = req->addr >> c->line_log2;
        uint32_t set = wc_index_set(&c->ta.index, req->addr);
        wc_line *s = wc_tag_array_set(&c->ta, set);
        for (uint32_t w = 0; w < c->ta.assoc; w++) {
            if (s[w].tag != tag || s[w].state == WC_LINE_INVALID) continue;
            if ((s[w].valid_sectors & want) != want) {
                wc_outcome o = read_not_hit(c, req, set, tag, &s[w], want, now, why);
                count(&c->base.stats, req, o, *why);
                return o;
            }
            if (c->ta.repl == &wc_repl_lru) /* LRU's on_hit, without the indirect call */
                s[w].repl = ++c->ta.stamp;
            else
                c->ta.repl->on_hit(s, c->ta.assoc, w, ++c->ta.stamp);
            s[w].used_sectors |= want;
            c->base.stats.accesses++;
            c->base.stats.reads++;
            c->base.stats.outcome[WC_HIT]++;
            return WC_HIT;
        }
        wc_outcome o = read_not_hit(c, req, set, tag, NULL, want, now, why);
        count(&c->base.stats, req, o, *why);
        return o;
    }
    wc_outcome o = conv_slow_access(c, req, want, now, why);
    count(&c->base.stats, req, o, *why);
    return o;
}

static void conv_fill(wc_l1 *l1, uint64_t addr, uint8_t sectors, uint64_t now)
{
    conv_l1 *c = (conv_l1 *)l1;
    uint64_t tag = addr >> c->line_log2;
    int e = wc_mshr_find(&c->mshr, tag);
    if (e < 0) return; /* not ours (or already answered) */
    wc_mshr_entry *ent = &c->mshr.e[e];
    uint8_t got = sectors & ent->sectors;
    if (!got) return;
    ent->arrived |= got;

    uint32_t set = wc_index_set(&c->ta.index, addr);
    int way = wc_tag_array_find(&c->ta, set, tag);
    wc_line *line = way >= 0 ? wc_tag_array_set(&c->ta, set) + way : NULL;
    if (!line) { /* allocate-on-fill: the way is chosen now */
        line = allocate_line(c, set, tag, WC_LINE_VALID, c->e_block[e], c->e_warp[e], now);
        if (line) line->used_sectors = c->e_used[e];
    }
    if (line) {
        line->valid_sectors |= got;
        line->pending_sectors &= (uint8_t)~got;
        if (line->state == WC_LINE_RESERVED && !line->pending_sectors) line->state = WC_LINE_VALID;
    }
    const wc_l1_listener *ls = c->base.env.listener;
    if (ls && ls->on_fill) ls->on_fill(ls->ctx, c->base.env.sm, tag << c->line_log2, got, now);
    c->base.stats.fills++;

    if ((ent->arrived & ent->sectors) != ent->sectors) return; /* more sectors to come */
    int n = wc_mshr_release(&c->mshr, tag, c->cookies);
    for (int i = 0; i < n; i++) c->base.env.respond(c->base.env.ctx, c->cookies[i], now);
}

static void conv_destroy(wc_l1 *l1)
{
    conv_l1 *c = (conv_l1 *)l1;
    if (!c) return;
    wc_tag_array_free(&c->ta);
    wc_mshr_free(&c->mshr);
    free(c->mq);
    free(c->cookies);
    free(c->e_block);
    free(c->e_warp);
    free(c->e_used);
    free(c);
}

/* Where configuration errors point: the file the configuration came from. */
static const char *config_where(const wc_config *cfg)
{
    return cfg->source_file[0] ? cfg->source_file : "config";
}

static int check_geom(const wc_config *cfg, wc_err *err)
{
    const wc_cache_geom *g = &cfg->l1;
    const char *w = config_where(cfg);
    if (g->type != 'N' && g->type != 'S')
        return wc_errf(err, "%s: -gpgpu_cache:dl1: cache type '%c' unknown (N or S)", w,
                       g->type ? g->type : '?');
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
    if (g->type == 'S' && g->line_bytes < 4)
        return wc_errf(err, "%s: -gpgpu_cache:dl1: a sectored line of %u bytes has no sectors", w,
                       g->line_bytes);
    return 0;
}

static wc_l1 *conv_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    if (check_geom(cfg, err) < 0) return NULL;
    const wc_cache_geom *g = &cfg->l1;
    conv_l1 *c = calloc(1, sizeof *c);
    if (!c) {
        wc_errf(err, "conventional L1: out of memory");
        return NULL;
    }
    c->base.ops = &wc_l1_conventional;
    c->base.env = *env;
    if (wc_tag_array_init(&c->ta, g, cfg->ipoly_poly,
                          cfg->seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(env->sm + 1)), err) < 0) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err ? err->msg : "");
        wc_errf(err, "%s: -gpgpu_cache:dl1: %s", config_where(cfg), why);
        conv_destroy(&c->base);
        return NULL;
    }
    if (wc_mshr_init(&c->mshr, g->mshr_entries, g->mshr_max_merge) < 0) {
        wc_errf(err, "%s: -gpgpu_cache:dl1: cannot build %u MSHRs x %u merges", config_where(cfg),
                g->mshr_entries, g->mshr_max_merge);
        conv_destroy(&c->base);
        return NULL;
    }
    c->mq_n = g->miss_queue;
    c->mq = calloc(c->mq_n, sizeof *c->mq);
    c->cookies = calloc(g->mshr_max_merge, sizeof *c->cookies);
    c->e_block = calloc(g->mshr_entries, sizeof *c->e_block);
    c->e_warp = calloc(g->mshr_entries, sizeof *c->e_warp);
    c->e_used = calloc(g->mshr_entries, sizeof *c->e_used);
    if (!c->mq || !c->cookies || !c->e_block || !c->e_warp || !c->e_used) {
        wc_errf(err, "conventional L1: out of memory");
        conv_destroy(&c->base);
        return NULL;
    }
    c->line_log2 = c->ta.line_log2;
    c->sectored = g->type == 'S';
    c->alloc_on_miss = g->alloc_policy == 'm';
    c->skip_global = cfg->l1_skip;
    c->wp = g->write_policy;
    c->wa = g->write_alloc;
    /* A write-back cache may have to write a dirty victim back as well. */
    bool may_be_dirty = c->wp == 'B' || c->wp == 'L';
    c->mq_need_alloc = may_be_dirty && c->mq_n >= 2 ? 2 : 1;
    return &c->base;
}

static void conv_flush(wc_l1 *l1, uint64_t now)
{
    conv_l1 *c = (conv_l1 *)l1;
    size_t n = (size_t)c->ta.nsets * c->ta.assoc;
    for (size_t i = 0; i < n; i++)
        if (c->ta.lines[i].state == WC_LINE_VALID) evict_line(c, &c->ta.lines[i], now);
}

const wc_l1_ops wc_l1_conventional = {
    "conventional",
    "GPGPU-Sim-class L1D: tag array + MSHRs + miss queue, policies from -gpgpu_cache:dl1",
    conv_create,
    conv_access,
    conv_fill,
    conv_destroy,
    conv_flush,
};
