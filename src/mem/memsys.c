/*
 * memsys.c - interconnect and L2 partitions: walks a request from an SM
 * through the network, an L2 sub-partition and DRAM, and back (see mem.h).
 *
 * Interconnect: packets of `ctrl` header bytes plus payload, in flits; each
 * SM port and each partition port moves icnt_flits_per_cycle flits per
 * interconnect cycle and a packet takes icnt_latency core cycles to cross.
 * With -icnt_model islip or local the replies cross the crossbar of xbar.c
 * (localxbar.c) instead of the two response ports; under local a packet of
 * any size holds a port one interconnect cycle (GPGPU-Sim's local crossbar
 * knows packets, not flits).
 * L2: set-associative, write-back, one tag access per L2 cycle per
 * sub-partition (a sectored one: one per sector), with a pool of MSHRs that
 * bounds its outstanding DRAM fetches.  Sectored L2s ('S') fetch only
 * missing 32 B sectors; line-based ones fetch the whole line.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"
#include "util/sorted_ring.h"
#include "warpcache/control.h"
#include "warpcache/knob.h"
#include "warpcache/statreg.h"
#include "warpcache/stats.h"

int wc_mem_init(wc_mem *m, const wc_config *cfg, wc_err *err)
{
    memset(m, 0, sizeof *m);
    m->cfg = cfg;
    m->n_l2 = wc_config_n_l2(cfg);
    m->n_sm = wc_config_n_sm(cfg);
    m->flit = cfg->flit_bytes ? cfg->flit_bytes : 32;
    m->ctrl = cfg->ctrl_bytes;
    m->latency = cfg->icnt_latency;
    m->flits_per_cycle = cfg->icnt_flits_per_cycle ? cfg->icnt_flits_per_cycle : 1;
    /* Clock domains: ports move icnt_flits_per_cycle flits per interconnect
     * cycle and the L2 takes one access per L2 cycle and -gpgpu_l2_rop_latency
     * L2 cycles; everything here counts core cycles, so those are scaled by
     * core clock / domain clock (1 when the domains run at the core clock, as
     * in every shipped configuration, which then gives identical results). */
    double core_per_icnt = cfg->clk_core / cfg->clk_icnt;
    m->icnt_cycle = core_per_icnt;
    m->l2_cycle = cfg->clk_core / cfg->clk_l2;
    if (m->l2_cycle >= 1 && m->l2_cycle <= 1024 && m->l2_cycle == (double)(uint32_t)m->l2_cycle)
        m->l2_step = (uint32_t)m->l2_cycle;
    double l2_lat = ceil((double)cfg->l2_latency * m->l2_cycle);
    m->l2_latency = l2_lat < 4e9 ? (uint32_t)l2_lat : 4000000000u;
    if (wc_addrdec_init(&m->addrdec, cfg, err) < 0) return -1;
    bool is_xbar;
    wc_xbar_params xp;
    if (wc_xbar_parse(cfg->icnt_model, cfg->network_mode, &is_xbar, &xp, err) < 0) return -1;
    if (is_xbar && xp.kind == WC_XBAR_LOCAL) {
        xp.local = (wc_lxbar_params){.in_limit = cfg->icnt_in_buffer_limit,
                                     .out_limit = cfg->icnt_out_buffer_limit,
                                     .arbiter = cfg->icnt_arbiter_algo,
                                     .grant_cycles = cfg->icnt_grant_cycles};
        m->per_packet = true;
    }
    m->line_log2 = wc_log2(cfg->l2.line_bytes);
    if (cfg->l2.line_bytes > 32u * 16)
        return wc_errf(err,
                       "%s: option -gpgpu_cache:dl2: %u-byte L2 lines are not supported (at most "
                       "512 bytes: 16 sectors of 32 B)",
                       cfg->source_file, cfg->l2.line_bytes);
    m->l2_all = (uint32_t)wc_chunks_all(cfg->l2.line_bytes / 32);
    if (m->n_l2 == 0) return wc_errf(err, "%s: no L2 partitions (gpgpu_n_mem)", cfg->source_file);
    m->l2 = calloc(m->n_l2, sizeof *m->l2);
    m->dram = calloc(cfg->n_mem, sizeof *m->dram);
    m->sm_in_free = calloc(m->n_sm, sizeof *m->sm_in_free);
    if (!m->l2 || !m->dram || !m->sm_in_free) return wc_errf(err, "out of memory (memory side)");
    for (uint32_t p = 0; p < m->n_l2; p++) {
        wc_l2 *l2 = &m->l2[p];
        wc_err why = {{0}};
        if (wc_tag_array_init(&l2->tags, &cfg->l2, cfg->l2_ipoly_poly, cfg->seed + 1000 + p, cfg,
                              &why) < 0)
            return wc_errf(err, "%s: -gpgpu_cache:dl2 / -l2_ipoly_poly: %s",
                           cfg->source_file[0] ? cfg->source_file : "configuration", why.msg);
        l2->n_mshr = cfg->l2.mshr_entries ? cfg->l2.mshr_entries : 1;
        l2->mshr_free = calloc(l2->n_mshr, sizeof *l2->mshr_free);
        l2->tagv = calloc((size_t)l2->tags.nsets * l2->tags.assoc, sizeof *l2->tagv);
        l2->n_valid = calloc(l2->tags.nsets, sizeof *l2->n_valid);
        l2->fp_stride = (l2->tags.assoc + 7) & ~7u;
        l2->fp = calloc((size_t)l2->tags.nsets * l2->fp_stride, 1);
        if (!l2->mshr_free || !l2->tagv || !l2->n_valid || !l2->fp)
            return wc_errf(err, "out of memory (L2 MSHRs)");
        l2->lru = l2->tags.repl->letter == 'L';
        if (l2->lru && l2->tags.assoc <= 256) {
            size_t lines = (size_t)l2->tags.nsets * l2->tags.assoc;
            l2->lru_next = malloc(lines);
            l2->lru_prev = malloc(lines);
            l2->lru_head = calloc(l2->tags.nsets, 1);
            if (!l2->lru_next || !l2->lru_prev || !l2->lru_head)
                return wc_errf(err, "out of memory (L2 tags)");
        }
        l2->write_policy = cfg->l2.write_policy;
        l2->write_alloc = cfg->l2.write_alloc;
        l2->type = cfg->l2.type;
    }
    uint32_t sub = cfg->sub_per_channel ? cfg->sub_per_channel : 1;
    for (uint32_t p = 0; p < m->n_l2; p++) m->l2[p].ch = &m->dram[(p / sub) % cfg->n_mem];
    for (uint32_t n = 0; n <= WC_MEM_PKT_UNITS; n++) {
        m->pkt_flits[n] = wc_mem_flits(m, 32u * n);
        m->pkt_cycles[n] = wc_mem_port_cycles(m, m->pkt_flits[n]);
    }
    if (is_xbar && !(m->xbar = wc_xbar_new(m->n_l2, m->n_sm, &xp, core_per_icnt, m->latency, err)))
        return -1;
    double core_per_dram = cfg->clk_core / cfg->clk_dram;
    uint32_t rcd = 0, cl = 0; /* the configuration was validated: the text parses */
    if (wc_dram_timing_parse(cfg->dram_timing, &rcd, &cl, err) < 0) return -1;
    double bytes_per_dram_clk = (double)cfg->dram_bus_bytes * cfg->dram_freq_ratio *
                                (cfg->dram_chips_per_channel ? cfg->dram_chips_per_channel : 1);
    for (uint32_t c = 0; c < cfg->n_mem; c++) {
        m->dram[c].cycles_per_byte = core_per_dram / bytes_per_dram_clk;
        /* GPGPU-Sim counts -dram_latency in core cycles (its dram latency
         * queue), then the DRAM itself adds activate + CAS in DRAM cycles;
         * open rows are not modelled, so every access pays both. */
        m->dram[c].latency = cfg->dram_latency + (double)(rcd + cl) * core_per_dram;
        m->dram[c].atom = cfg->dram_atoms
                              ? cfg->dram_burst * cfg->dram_bus_bytes *
                                    (cfg->dram_chips_per_channel ? cfg->dram_chips_per_channel : 1)
                              : 0;
    }
    return 0;
}

void wc_mem_free(wc_mem *m)
{
    if (m->l2)
        for (uint32_t p = 0; p < m->n_l2; p++) {
            wc_tag_array_free(&m->l2[p].tags);
            free(m->l2[p].mshr_free);
            free(m->l2[p].tagv);
            free(m->l2[p].n_valid);
            free(m->l2[p].fp);
            free(m->l2[p].lru_next);
            free(m->l2[p].lru_prev);
            free(m->l2[p].lru_head);
        }
    free(m->l2);
    free(m->dram);
    free(m->sm_in_free);
    wc_xbar_free(m->xbar);
    memset(m, 0, sizeof *m);
}

/* A packet holding a port for `busy` cycles (pkt_cycles[]) passes it no
 * earlier than t; returns when it is through. */
static inline double port_pass(double *free_at, double t, double busy)
{
    double start = t > *free_at ? t : *free_at;
    *free_at = start + busy;
    return *free_at;
}

static inline uint32_t sector_bytes(uint16_t sectors)
{
    return 32u * wc_chunk_count(sectors);
}

static inline uint32_t dram_bytes(const wc_l2 *l2, const wc_dram *ch, uint16_t sectors)
{
    return wc_dram_request_bytes(ch, l2->type, sectors);
}

/* The L2 MSHR pool is the times its entries free up, kept as a ring sorted
 * ascending from mshr_head (the earliest).  Which entry serves a fetch does
 * not matter, only the multiset of free times, so taking "the entry that
 * frees first" is replacing the smallest time: the head leaves, and the new
 * time enters at the back, moving past the larger ones.  DRAM answers a
 * channel's fetches in order, so the new time is nearly always the largest
 * and the step is O(1) (a binary heap paid a full sift-down, log2 n levels,
 * every time).  test_memsys checks the multiset against a heap's. */
static uint64_t l2_mshr_first_free(const wc_l2 *l2, uint64_t t)
{
    uint64_t f = l2->mshr_free[l2->mshr_head];
    return f > t ? f : t;
}

/* The earliest-free entry is busy until `until` (>= its old time). */
static void l2_mshr_reserve(wc_l2 *l2, uint64_t until)
{
    wc_sorted_ring_replace_head(l2->mshr_free, l2->n_mshr, &l2->mshr_head, until);
}

/* The byte of a tag kept in l2->fp (Fibonacci hashing: the top byte of the
 * product depends on every bit of the tag, and a set's tags differ in their
 * high bits). */
static inline uint8_t tag_fp(uint64_t tag)
{
    return (uint8_t)((tag * 0x9e3779b97f4a7c15ull) >> 56);
}

#define BYTES_01 0x0101010101010101ull
#define BYTES_7F 0x7f7f7f7f7f7f7f7full

/* Way of line `tag` in `set`, or -1 (wc_tag_array_find over the valid ways;
 * a tag is in at most one way).  A miss in a full set used to read every
 * way's tag; here eight ways' hash bytes are compared a step (a byte that
 * equals fp gives 0x80 in `eq`, exactly: no carry crosses bytes), and only
 * ways whose byte matches, the right one among them, have their tag read.
 * Equal tags have equal bytes, so the way found is the one the scan found. */
static inline int l2_find(const wc_l2 *l2, uint32_t set, uint64_t tag)
{
    const uint64_t *t = l2->tagv + (size_t)set * l2->tags.assoc;
    uint32_t n = l2->n_valid[set];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint8_t *f = l2->fp + (size_t)set * l2->fp_stride;
    uint64_t pat = tag_fp(tag) * BYTES_01;
    for (uint32_t w0 = 0; w0 < n; w0 += 8) {
        uint64_t x;
        memcpy(&x, f + w0, 8);
        x ^= pat; /* a zero byte where the way's byte matches */
        uint64_t eq = ~(((x & BYTES_7F) + BYTES_7F) | x | BYTES_7F);
        if (n - w0 < 8) eq &= (1ull << ((n - w0) * 8)) - 1; /* valid ways only */
        for (; eq; eq &= eq - 1) {
            uint32_t w = w0 + ((unsigned)__builtin_ctzll(eq) >> 3);
            if (t[w] == tag) return (int)w;
        }
    }
    return -1;
#else
    for (uint32_t w = 0; w < n; w++)
        if (t[w] == tag) return (int)w;
    return -1;
#endif
}

/* ---- the LRU list (lru_next/lru_prev/lru_head, LRU L2s) --------------------
 * A set's valid ways are linked in the order of their LRU stamps: every
 * stamp is the tag array's next one, given when a way is filled or hit, and
 * both move the way to the back of its list, so the front is the way with
 * the oldest stamp, wc_repl_min_way's answer (stamps are distinct, so its
 * tie rule never applies; no L2 way is RESERVED).  The list is circular, so
 * the front becomes the back by moving the head one step. */

/* Way w (valid) becomes the most recently used of its set. */
static inline void lru_to_back(wc_l2 *l2, uint32_t set, uint32_t w)
{
    size_t base = (size_t)set * l2->tags.assoc;
    uint8_t *next = l2->lru_next + base, *prev = l2->lru_prev + base;
    uint8_t h = l2->lru_head[set], tail = prev[h];
    if (w == h) {
        l2->lru_head[set] = next[h];
        return;
    }
    if (w == tail) return;
    next[prev[w]] = next[w];
    prev[next[w]] = prev[w];
    next[tail] = (uint8_t)w;
    prev[w] = tail;
    next[w] = h;
    prev[h] = (uint8_t)w;
}

/* Way w = n_valid (the set's first invalid way) joins its list at the back. */
static inline void lru_append(wc_l2 *l2, uint32_t set, uint32_t w)
{
    size_t base = (size_t)set * l2->tags.assoc;
    uint8_t *next = l2->lru_next + base, *prev = l2->lru_prev + base;
    if (w == 0) {
        l2->lru_head[set] = 0;
        next[0] = prev[0] = 0;
        return;
    }
    uint8_t h = l2->lru_head[set], tail = prev[h];
    next[tail] = (uint8_t)w;
    prev[w] = tail;
    next[w] = h;
    prev[h] = (uint8_t)w;
}

/* A hit updates the replacement state: LRU (every shipped L2) stamps the
 * line as its on_hit does, without the call through the policy's ops. */
static inline void l2_touch(wc_l2 *l2, wc_line *line, uint32_t set, uint32_t way)
{
    if (l2->lru) {
        line->repl = ++l2->tags.stamp;
        if (l2->lru_head) lru_to_back(l2, set, way);
    } else {
        wc_tag_array_hit(&l2->tags, set, way, NULL);
    }
}

/* The way wc_tag_array_pick would choose: the lowest invalid way while the
 * set is not full, else the policy's victim (for LRU the oldest stamp, ties
 * to the lowest way; no L2 way is ever RESERVED). */
static int l2_pick(wc_l2 *l2, uint32_t set)
{
    wc_tag_array *ta = &l2->tags;
    if (l2->n_valid[set] < ta->assoc) return (int)l2->n_valid[set];
    if (l2->lru_head) return l2->lru_head[set]; /* the list's front: the oldest stamp */
    wc_line *s = wc_tag_array_set(ta, set);
    if (ta->repl->letter != 'L')
        return ta->repl->victim(ta->repl_state, s, ta->assoc, &ta->rng, NULL);
    uint32_t best = 0;
    uint64_t best_v = s[0].repl;
    for (uint32_t w = 1; w < ta->assoc; w++)
        if (s[w].repl < best_v) {
            best = w;
            best_v = s[w].repl;
        }
    return (int)best;
}

/* Makes room for line `tag` in `set`; writes back a dirty victim.  Inline:
 * every miss of a streaming kernel allocates (colcopy: each request), and
 * the call's register saves cost more than the work (1.2 % of colcopy's
 * instructions without LTO). */
static inline __attribute__((always_inline)) wc_line *
l2_allocate(wc_mem *m, wc_l2 *l2, uint32_t set, uint64_t tag, wc_dram *ch, uint64_t t)
{
    int way = l2_pick(l2, set);
    if (way < 0) way = 0; /* L2 lines are never left reserved, and the L2 never bypasses */
    l2->tagv[(size_t)set * l2->tags.assoc + (uint32_t)way] = tag;
    l2->fp[(size_t)set * l2->fp_stride + (uint32_t)way] = tag_fp(tag);
    if (l2->lru_head) { /* the stamp below is the newest: the way goes to the back */
        if ((uint32_t)way == l2->n_valid[set])
            lru_append(l2, set, (uint32_t)way);
        else /* the victim, the front: the circular list's next way becomes the front */
            l2->lru_head[set] = l2->lru_next[(size_t)set * l2->tags.assoc + (uint32_t)way];
    }
    if ((uint32_t)way == l2->n_valid[set]) l2->n_valid[set]++;
    wc_line *line = wc_tag_array_set(&l2->tags, set) + way;
    if (line->state != WC_LINE_INVALID) wc_tag_array_evicting(&l2->tags, set, (uint32_t)way);
    if (line->state != WC_LINE_INVALID && line->dirty_chunks) {
        wc_dram_transfer(ch, (double)t, dram_bytes(l2, ch, line->dirty_chunks));
        m->c.dram_writes++;
        m->c.l2_writebacks++;
    }
    memset(line, 0, sizeof *line);
    line->state = WC_LINE_VALID;
    line->tag = tag;
    if (l2->lru) /* LRU's on_insert, without the call through the policy's ops */
        line->repl = ++l2->tags.stamp;
    else
        wc_tag_array_inserted(&l2->tags, set, (uint32_t)way, NULL);
    return line;
}

static inline __attribute__((always_inline)) void l2_write(wc_mem *m, wc_l2 *l2, wc_line *line,
                                                           uint32_t set, uint64_t tag,
                                                           uint16_t sectors, wc_dram *ch,
                                                           uint64_t t)
{
    bool write_back = l2->write_policy == 'B' || l2->write_policy == 'L';
    if (line) {
        line->valid_chunks |= sectors;
        if (write_back) line->dirty_chunks |= sectors;
    } else if (write_back && l2->write_alloc != 'N') {
        line = l2_allocate(m, l2, set, tag, ch, t);
        line->valid_chunks = line->dirty_chunks = sectors;
        line->fill_time = t;
        return;
    }
    if (!write_back || !line) {
        wc_dram_transfer(ch, (double)t, dram_bytes(l2, ch, sectors));
        m->c.dram_writes++;
    }
}

/* Streaming bypass of the L2 (seed 002, section 4.1): the tags hit, but the
 * cache is switched off, so the data comes from DRAM (no L2 MSHR: nothing is
 * allocated).  Returns when the data is ready at the L2 port. */
static uint64_t l2_bypass_read(wc_mem *m, const wc_l2 *l2, uint16_t sectors, wc_dram *ch,
                               uint64_t ready)
{
    double done = wc_dram_transfer(ch, (double)ready, dram_bytes(l2, ch, sectors));
    m->c.dram_reads++;
    return wc_ceil_cycle(done);
}

/* Read (or atomic) lookup; returns when the data is ready at the L2.  With
 * WC_REQ_L2_BYPASS the tags are looked up and updated as usual (hits and
 * misses are still counted) but a hit is served by DRAM. */
static inline __attribute__((always_inline)) uint64_t l2_read(wc_mem *m, wc_l2 *l2, wc_line *line,
                                                              uint32_t set, uint64_t tag,
                                                              uint16_t sectors, wc_dram *ch,
                                                              uint64_t t, uint8_t flags)
{
    uint64_t ready = t + m->l2_latency;
    uint16_t missing = line ? (uint16_t)(sectors & ~line->valid_chunks) : sectors;
    if (!missing) {
        m->c.l2_hits++;
        if (flags & WC_REQ_L2_BYPASS) return l2_bypass_read(m, l2, sectors, ch, ready);
        return line->fill_time > ready ? line->fill_time : ready;
    }
    m->c.l2_misses++;
    if (!line) line = l2_allocate(m, l2, set, tag, ch, t);
    uint16_t fetch = l2->type == 'S' ? missing : (uint16_t)(m->l2_all & ~line->valid_chunks);
    uint64_t start = l2_mshr_first_free(l2, ready);
    double done = wc_dram_transfer(ch, (double)start, dram_bytes(l2, ch, fetch));
    uint64_t at = wc_ceil_cycle(done);
    m->c.dram_reads++;
    l2_mshr_reserve(l2, at);
    line->valid_chunks |= fetch;
    if (at > line->fill_time) line->fill_time = at;
    return at;
}

/* -icnt_model islip: a reply enters the crossbar at L2 sub-partition `p`,
 * ready at `ready`: `data` bytes for a read (an atomic's result), or a
 * header-only acknowledgement of a write (`ack`), which GPGPU-Sim sends for
 * every write the L2 takes (memory_sub_partition::cache_cycle) and nobody
 * here waits for.  A sectored L2 answers each sector with a packet of its
 * own, one L2 cycle apart (GPGPU-Sim 4.x: the sector requests of
 * memory_sub_partition::push are answered one by one). */
static __attribute__((noinline)) void xbar_reply(wc_mem *m, const wc_l2 *l2, uint32_t p,
                                                 unsigned sm, uint64_t ready, uint16_t sectors,
                                                 uint32_t data, bool ack)
{
    unsigned n = l2->type == 'S' ? wc_chunk_count(sectors) : 1;
    uint32_t bytes = ack ? 0 : (data + n - 1) / n;
    /* the packet tables hold wc_mem_flits and wc_mem_port_cycles of whole
     * 32 B units (a sector, a header), computed by the same expressions */
    uint32_t flits = wc_mem_pkt_flits(m, bytes);
    double eject = wc_mem_pkt_cycles(m, bytes); /* the SM takes it in */
    uint32_t rec = ack ? WC_XBAR_NONE : m->rec;
    int rc;
    if (m->l2_step && ready < (1ull << 52)) { /* ready + k * l2_cycle, exact */
        rc = wc_xbar_send_seq(m->xbar, p, sm, ready, m->l2_step, n, flits, eject, rec);
    } else {
        uint64_t at[16]; /* sectors is 16 bits */
        for (unsigned k = 0; k < n; k++) at[k] = wc_ceil_cycle((double)ready + k * m->l2_cycle);
        rc = wc_xbar_send_n(m->xbar, p, sm, at, n, flits, eject, rec);
    }
    if (rc < 0) m->failed = true;
    m->c.down_packets += n;
    m->c.down_bytes += (uint64_t)n * flits * m->flit;
}

/* One L2 access: `addr` in one L2 line, `sectors` its 32 B sectors, `data`
 * the payload bytes (what the chunks cover); `units` = data / 32 when that
 * is a whole number within the packet tables, else -1. */
static inline __attribute__((always_inline)) uint64_t access_piece(wc_mem *m, unsigned sm,
                                                                   uint64_t addr, uint8_t flags,
                                                                   uint16_t sectors, uint32_t data,
                                                                   int units, uint64_t leave)
{
    bool write = (flags & (WC_REQ_WRITE | WC_REQ_WRITEBACK)) != 0;
    bool atomic = (flags & WC_REQ_ATOMIC) != 0;
    uint32_t up_bytes = write || atomic ? data : 0;
    int up_units = write || atomic ? units : 0;
    uint32_t up_flits = up_units >= 0 ? m->pkt_flits[up_units] : wc_mem_flits(m, up_bytes);
    double up_cycles = up_units >= 0 ? m->pkt_cycles[up_units] : wc_mem_port_cycles(m, up_flits);
    m->c.up_packets++;
    m->c.up_bytes += (uint64_t)up_flits * m->flit;

    uint64_t part_addr; /* the address within the sub-partition: its set index */
    uint32_t p = wc_addrdec_map(&m->addrdec, addr, &part_addr);
    wc_l2 *l2 = &m->l2[p];
    wc_dram *ch = l2->ch;
    double arrive = port_pass(&l2->in_free, (double)(leave + m->latency), up_cycles);
    uint64_t t = wc_ceil_cycle(arrive);
    if ((double)t < l2->busy_until) t = wc_ceil_cycle(l2->busy_until);
    /* A sectored L2 takes a request as one access per sector, one per L2
     * cycle (GPGPU-Sim 4.x, memory_sub_partition::push splits it). */
    l2->busy_until = (double)t + m->l2_cycle * (l2->type == 'S' ? wc_chunk_count(sectors) : 1);

    uint64_t tag = addr >> m->line_log2;
    uint32_t set = wc_index_set(&l2->tags.index, part_addr);
    int way = l2_find(l2, set, tag);
    wc_line *line = way >= 0 ? wc_tag_array_set(&l2->tags, set) + way : NULL;
    if (line) l2_touch(l2, line, set, (uint32_t)way);
    m->c.l2_accesses++;
    if (write) {
        m->c.l2_write_bytes += data;
        bool hit = line && (line->valid_chunks & sectors) == sectors;
        if (hit)
            m->c.l2_hits++;
        else
            m->c.l2_misses++;
        l2_write(m, l2, line, set, tag, sectors, ch, t);
        /* the acknowledgement leaves once the L2 has taken the write and
         * comes back unloaded (a header-only packet) */
        uint64_t ack = t + m->l2_latency + m->latency;
        if (ack > m->write_ack) m->write_ack = ack;
        if (m->xbar) xbar_reply(m, l2, p, sm, t + m->l2_latency, sectors, 0, true);
        return 0;
    }
    m->c.l2_read_bytes += data;
    uint64_t ready = l2_read(m, l2, line, set, tag, sectors, ch, t, flags);
    if (atomic) {
        int w2 = l2_find(l2, set, tag);
        if (w2 >= 0 && (l2->write_policy == 'B' || l2->write_policy == 'L'))
            wc_tag_array_set(&l2->tags, set)[w2].dirty_chunks |= sectors;
    }
    if (m->xbar) {
        xbar_reply(m, l2, p, sm, ready, sectors, data, false);
        return WC_MEM_DEFERRED;
    }
    uint32_t down_flits = units >= 0 ? m->pkt_flits[units] : wc_mem_flits(m, data);
    double down = units >= 0 ? m->pkt_cycles[units] : wc_mem_port_cycles(m, down_flits);
    m->c.down_packets++;
    m->c.down_bytes += (uint64_t)down_flits * m->flit;
    double sent = port_pass(&l2->out_free, (double)ready, down);
    double at_sm = port_pass(&m->sm_in_free[sm], sent + m->latency, down);
    return wc_ceil_cycle(at_sm);
}

/* 32 B sectors of the L2 line at l2_base covered by `chunks` of the L1 line
 * at l1_base, and the bytes those chunks hold there. */
static uint16_t piece_sectors(uint64_t l1_base, uint64_t l2_base, uint32_t l2_bytes,
                              uint64_t chunks, unsigned clog, uint32_t *data)
{
    uint16_t sectors = 0;
    uint32_t bytes = 0;
    for (uint64_t c = chunks; c; c &= c - 1) {
        uint64_t lo = l1_base + ((uint64_t)__builtin_ctzll(c) << clog);
        uint64_t hi = lo + (1ull << clog); /* chunk bytes [lo, hi) */
        if (hi <= l2_base || lo >= l2_base + l2_bytes) continue;
        if (lo < l2_base) lo = l2_base;
        if (hi > l2_base + l2_bytes) hi = l2_base + l2_bytes;
        unsigned s0 = (unsigned)((lo - l2_base) >> 5), s1 = (unsigned)((hi - 1 - l2_base) >> 5);
        sectors |= (uint16_t)(((2u << s1) - 1) & ~((1u << s0) - 1));
        bytes += (uint32_t)(hi - lo);
    }
    *data = bytes;
    return sectors;
}

/* The seeds' packet count of one L1 request moving `units` 32 B units of
 * data (see mem.h): writes carry them up, reads and atomics get them back. */
static inline void count_units(wc_mem *m, uint8_t flags, uint32_t units)
{
    bool write = (flags & (WC_REQ_WRITE | WC_REQ_WRITEBACK)) != 0;
    bool atomic = (flags & WC_REQ_ATOMIC) != 0;
    m->c.up_units += 1 + (write || atomic ? units : 0);
    m->c.down_units += write ? 0 : units;
}

/* A request whose line is not one L2 line of 32 B chunks: one access per L2
 * line it covers (kept out of line so the common path stays small). */
static __attribute__((noinline)) uint64_t
access_pieces(wc_mem *m, unsigned sm, const wc_mem_req *req, uint64_t chunks, uint64_t leave)
{
    count_units(m, req->flags, (wc_chunk_bytes(chunks, req->chunk_log2) + 31) / 32);
    uint64_t l1_base = req->addr & ~((1ull << req->line_log2) - 1);
    uint32_t l2_bytes = 1u << m->line_log2;
    uint64_t first = l1_base & ~(uint64_t)(l2_bytes - 1);
    uint64_t end = l1_base + (1ull << req->line_log2);
    uint64_t back = 0;
    for (uint64_t b = first; b < end; b += l2_bytes) {
        uint32_t data;
        uint16_t sectors = piece_sectors(l1_base, b, l2_bytes, chunks, req->chunk_log2, &data);
        if (!sectors) continue;
        uint64_t addr = req->addr >= b && req->addr < b + l2_bytes ? req->addr : b;
        int units = (data & 31) == 0 && data <= 32u * WC_MEM_PKT_UNITS ? (int)(data >> 5) : -1;
        uint64_t t = access_piece(m, sm, addr, req->flags, sectors, data, units, leave);
        if (t > back) back = t;
    }
    return back;
}

/* -icnt_model islip: the request's replies are answered by the crossbar. */
static __attribute__((noinline)) uint64_t access_xbar(wc_mem *m, unsigned sm, const wc_mem_req *req,
                                                      uint64_t chunks, uint64_t leave)
{
    m->rec = wc_xbar_open(m->xbar);
    if (m->rec == WC_XBAR_NONE) {
        m->failed = true;
        return 0;
    }
    uint64_t back;
    if (req->line_log2 != m->line_log2 || req->chunk_log2 != 5) {
        back = access_pieces(m, sm, req, chunks, leave);
    } else {
        unsigned n = wc_chunk_count(chunks);
        count_units(m, req->flags, n);
        back = access_piece(m, sm, req->addr, req->flags, (uint16_t)chunks, 32u * n, (int)n, leave);
    }
    if (back == WC_MEM_DEFERRED)
        wc_xbar_close(m->xbar, m->rec);
    else
        wc_xbar_cancel(m->xbar, m->rec);
    return back;
}

uint64_t wc_mem_access(wc_mem *m, unsigned sm, const wc_mem_req *req, uint64_t chunks,
                       uint64_t leave)
{
    if (m->xbar) return access_xbar(m, sm, req, chunks, leave);
    /* The common case: L1 line = L2 line in 32 B chunks, so the chunks are the
     * L2 line's sectors. */
    if (req->line_log2 != m->line_log2 || req->chunk_log2 != 5)
        return access_pieces(m, sm, req, chunks, leave);
    unsigned n = wc_chunk_count(chunks);
    count_units(m, req->flags, n);
    return access_piece(m, sm, req->addr, req->flags, (uint16_t)chunks, 32u * n, (int)n, leave);
}

/* The knob l2_bypass (warpcache/knob.h): while it is set an SM's reads carry
 * WC_REQ_L2_BYPASS and DRAM serves them, the L2 tags still looked up and
 * updated (l2_bypass_read). */
const wc_knob_desc wc_knob_l2_bypass = {
    .name = "l2_bypass",
    .consumer = "memory side (L2)",
    .help = "1: this SM's loads are served by DRAM (L2 tags still updated)",
    .max = 1,
    .req_flag = WC_REQ_L2_BYPASS,
};
WC_PLUGIN(knob, wc_knob_l2_bypass, 30);

/* ---- the memory side's counters (wc_mem_counters; warpcache/statreg.h) ---- */

#define MEM_STAT(name, unit, desc, field, ks, pc)                                                  \
    {                                                                                              \
        name, unit, desc, WC_STAT_MEM, WC_STAT_AT(wc_mem_counters, field), WC_KS(ks), pc, 1, false \
    }

static const wc_stat_desc mem_stats[] = {
    MEM_STAT("l2.accesses", "lookups", "L2 lookups (reads, writes, atomics)", l2_accesses,
             l2.accesses, WC_PC(l2_accesses)),
    MEM_STAT("l2.hits", "lookups", "L2 hits", l2_hits, l2.hits, WC_NONE),
    MEM_STAT("l2.misses", "lookups", "L2 misses", l2_misses, l2.misses, WC_PC(l2_misses)),
    MEM_STAT("l2.read_bytes", "bytes", "bytes requested from the L2 (32 B sectors)", l2_read_bytes,
             l2.read_bytes, WC_NONE),
    MEM_STAT("l2.write_bytes", "bytes", "bytes written to the L2", l2_write_bytes, l2.write_bytes,
             WC_NONE),
    MEM_STAT("l2.writebacks", "lines", "dirty L2 lines written to DRAM", l2_writebacks,
             l2.writebacks, WC_NONE),
    MEM_STAT("icnt.l1_to_l2_packets", "packets", "packets from SMs to the L2", up_packets,
             icnt.l1_to_l2_packets, WC_NONE),
    MEM_STAT("icnt.l1_to_l2_bytes", "bytes", "bytes (whole flits) from SMs to the L2", up_bytes,
             icnt.l1_to_l2_bytes, WC_NONE),
    MEM_STAT("icnt.l2_to_l1_packets", "packets", "packets from the L2 to SMs", down_packets,
             icnt.l2_to_l1_packets, WC_NONE),
    MEM_STAT("icnt.l2_to_l1_bytes", "bytes", "bytes (flits x flit size) from the L2 to SMs",
             down_bytes, icnt.l2_to_l1_bytes, WC_NONE),
    MEM_STAT("icnt.l1_to_l2_seed_packets", "packets",
             "seed 000's count: 1 request packet + one per 32 B of data up", up_units,
             icnt.l1_to_l2_seed_packets, WC_NONE),
    MEM_STAT("icnt.l2_to_l1_seed_packets", "packets", "seed 000's count: one per 32 B of data down",
             down_units, icnt.l2_to_l1_seed_packets, WC_NONE),
    MEM_STAT("dram.reads", "transactions", "DRAM reads", dram_reads, dram.reads, WC_NONE),
    MEM_STAT("dram.writes", "transactions", "DRAM writes", dram_writes, dram.writes, WC_NONE),
    {0},
};
const wc_stat_group wc_stats_mem = {"memory side (wc_mem_counters, whole GPU)", mem_stats};
WC_PLUGIN(stats, wc_stats_mem, 40);
