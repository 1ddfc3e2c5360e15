/*
 * icache.c - GPGPU-Sim's L1 instruction cache in the SM's fetch unit
 * (-icache 1; off by default).
 *
 * GPGPU-Sim 4.2 (src/gpgpu-sim/shader.cc, shader_core_ctx::fetch; the cache
 * is a read_only_cache of gpu-cache.cc, geometry -gpgpu_cache:il1): when the
 * fetch buffer is free, the fetch unit first hands out a warp whose line has
 * arrived (one per cycle, in the order the lines arrived and then the order
 * the warps asked); otherwise it takes the next warp after the last one
 * fetched (round robin) whose instruction buffer is empty and that does not
 * wait for a miss, and looks up the line of its next instruction at
 * PROGRAM_MEM_START (0xF0000000) + PC:
 *   - hit: the warp goes to decode (as with -ifetch 1 alone);
 *   - miss: an MSHR per line (2 on the GTX480 file) merges the warps asking
 *     for the same line (up to 32); a new line goes into the miss queue (4),
 *     whose head is sent below one per cycle (baseline_cache::cycle), through
 *     the SM's injection port, the interconnect and the L2 like a load of a
 *     whole line; the warp waits (imiss_pending) and the fetch unit moves on;
 *   - reservation fail (no MSHR, no room to merge, or the miss queue full -
 *     read_only_cache::access tests the queue before it even merges):
 *     nothing happens, the next cycle tries the next warp.
 * The line is allocated when it arrives (the 'f' of L:R:f:N:L): the invalid
 * way of its set, else the least recently used one.
 *
 * GPGPU-Sim never invalidates the instruction cache (ldst_unit::invalidate
 * and the -gpgpu_flush_l1_cache path touch the data caches only; the cores
 * and their L1I live across kernels), so neither does this: a launch finds
 * what earlier launches on the SM left.  The PC is the instruction's
 * wc_winst.pc: an Accel-Sim/NVBit trace's PC (an offset within the kernel's
 * code, so every kernel's code starts at 0, as Accel-Sim sees it), and for
 * built-in workloads the PC their generator gives each static instruction
 * (what `trace convert --format accelsim` writes for Accel-Sim).
 */
#include "core/icache.h"

#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "core/gpu.h"
#include "mem/mem.h"

/* need_fetch of a warp (gpu.h): waiting for the fetch unit, or for its miss */
enum { FETCH_WAIT = 1, FETCH_MISS = 2 };

int wc_icache_init(wc_icache *ic, const wc_cache_geom *g, wc_err *err)
{
    memset(ic, 0, sizeof *ic);
    if (g->nsets == 0 || g->assoc == 0 || g->line_bytes < 32 || !wc_is_pow2(g->nsets) ||
        !wc_is_pow2(g->line_bytes))
        return wc_errf(err, "option -gpgpu_cache:il1: -icache 1 needs a power-of-two number of "
                            "sets and line size of at least 32 bytes");
    if (g->mshr_entries == 0 || g->mshr_max_merge == 0 || g->miss_queue == 0)
        return wc_errf(err, "option -gpgpu_cache:il1: -icache 1 needs at least one MSHR, one "
                            "merge per MSHR and one miss-queue entry");
    ic->nsets = g->nsets;
    ic->assoc = g->assoc;
    ic->line_log2 = (uint32_t)__builtin_ctz(g->line_bytes);
    ic->n_mshr = g->mshr_entries;
    ic->max_merge = g->mshr_max_merge;
    ic->mq_cap = g->miss_queue;
    size_t lines = (size_t)ic->nsets * ic->assoc;
    ic->tag = calloc(lines, sizeof *ic->tag);
    ic->last_use = calloc(lines, sizeof *ic->last_use);
    ic->mshr = calloc(ic->n_mshr, sizeof *ic->mshr);
    ic->ready = calloc(ic->n_mshr, sizeof *ic->ready);
    ic->mq = calloc(ic->mq_cap, sizeof *ic->mq);
    ic->mq_warp = calloc(ic->mq_cap, sizeof *ic->mq_warp);
    bool ok = ic->tag && ic->last_use && ic->mshr && ic->ready && ic->mq && ic->mq_warp;
    for (uint32_t i = 0; ok && i < ic->n_mshr; i++)
        ok = (ic->mshr[i].waiter = calloc(ic->max_merge, sizeof *ic->mshr[i].waiter)) != NULL;
    if (!ok) {
        wc_icache_free(ic);
        return wc_errf(err, "out of memory (instruction cache)");
    }
    return 0;
}

void wc_icache_free(wc_icache *ic)
{
    for (uint32_t i = 0; ic->mshr && i < ic->n_mshr; i++) free(ic->mshr[i].waiter);
    free(ic->tag);
    free(ic->last_use);
    free(ic->mshr);
    free(ic->ready);
    free(ic->mq);
    free(ic->mq_warp);
    memset(ic, 0, sizeof *ic);
}

static inline uint32_t set_of(const wc_icache *ic, uint64_t line)
{
    return (uint32_t)(line >> ic->line_log2) & (ic->nsets - 1); /* linear index ('L') */
}

static wc_ic_mshr *mshr_of(wc_icache *ic, uint64_t line)
{
    for (uint32_t i = 0; i < ic->n_mshr; i++)
        if (ic->mshr[i].used && ic->mshr[i].line == line) return &ic->mshr[i];
    return NULL;
}

static void mshr_add(wc_ic_mshr *m, uint32_t max_merge, unsigned slot)
{
    m->waiter[(m->head + m->n) % max_merge] = (uint16_t)slot;
    m->n++;
}

wc_ic_result wc_icache_access(wc_icache *ic, uint64_t addr, unsigned slot)
{
    ic->accesses++;
    uint64_t line = addr & ~(((uint64_t)1 << ic->line_log2) - 1);
    uint32_t base = set_of(ic, line) * ic->assoc;
    for (uint32_t w = 0; w < ic->assoc; w++)
        if (ic->tag[base + w] == line + 1) {
            ic->last_use[base + w] = ++ic->stamp;
            return WC_IC_HIT;
        }
    if (ic->mq_n >= ic->mq_cap) { /* tested first, even for a merge */
        ic->fails++;
        return WC_IC_FAIL;
    }
    wc_ic_mshr *m = mshr_of(ic, line);
    if (m) {
        if (m->n >= ic->max_merge) {
            ic->fails++;
            return WC_IC_FAIL;
        }
        mshr_add(m, ic->max_merge, slot);
        ic->merges++;
        return WC_IC_MISS;
    }
    for (uint32_t i = 0; i < ic->n_mshr && !m; i++)
        if (!ic->mshr[i].used) m = &ic->mshr[i];
    if (!m) {
        ic->fails++;
        return WC_IC_FAIL;
    }
    m->used = true;
    m->line = line;
    m->head = m->n = 0;
    mshr_add(m, ic->max_merge, slot);
    uint32_t tail = (ic->mq_head + ic->mq_n) % ic->mq_cap;
    ic->mq[tail] = line;
    ic->mq_warp[tail] = (uint16_t)slot;
    ic->mq_n++;
    ic->misses++;
    return WC_IC_MISS;
}

bool wc_icache_to_send(const wc_icache *ic, uint64_t *line, unsigned *slot)
{
    if (!ic->mq_n) return false;
    *line = ic->mq[ic->mq_head];
    *slot = ic->mq_warp[ic->mq_head];
    return true;
}

void wc_icache_sent(wc_icache *ic)
{
    ic->mq_head = (ic->mq_head + 1) % ic->mq_cap;
    ic->mq_n--;
}

void wc_icache_fill(wc_icache *ic, uint64_t line)
{
    uint32_t base = set_of(ic, line) * ic->assoc, victim = 0;
    for (uint32_t w = 0; w < ic->assoc; w++) {
        if (ic->tag[base + w] == 0) { /* an invalid way first */
            victim = w;
            break;
        }
        if (ic->last_use[base + w] < ic->last_use[base + victim]) victim = w;
    }
    ic->tag[base + victim] = line + 1;
    ic->last_use[base + victim] = ++ic->stamp;
    wc_ic_mshr *m = mshr_of(ic, line);
    if (!m) return; /* cannot happen: every line sent has its MSHR */
    ic->ready[(ic->ready_head + ic->ready_n) % ic->n_mshr] = (uint32_t)(m - ic->mshr);
    ic->ready_n++;
}

int wc_icache_next_ready(wc_icache *ic)
{
    if (!ic->ready_n) return -1;
    wc_ic_mshr *m = &ic->mshr[ic->ready[ic->ready_head]];
    int slot = m->waiter[m->head];
    m->head = (m->head + 1) % ic->max_merge;
    if (--m->n == 0) { /* its last warp: the MSHR is free again */
        m->used = false;
        ic->ready_head = (ic->ready_head + 1) % ic->n_mshr;
        ic->ready_n--;
    }
    return slot;
}

/* ---- the SM's side ------------------------------------------------------ */

int wc_sm_icache_init(wc_sm *sm, const wc_config *cfg, wc_err *err)
{
    sm->icache = NULL;
    if (!cfg->icache || cfg->perfect_icache) return 0;
    sm->icache = malloc(sizeof *sm->icache);
    if (!sm->icache) return wc_errf(err, "out of memory (instruction cache)");
    if (wc_icache_init(sm->icache, &cfg->il1, err) < 0) {
        free(sm->icache);
        sm->icache = NULL;
        return -1;
    }
    return 0;
}

void wc_sm_icache_free(wc_sm *sm)
{
    if (!sm->icache) return;
    wc_icache_free(sm->icache);
    free(sm->icache);
    sm->icache = NULL;
}

/* Sends a missed line below as a read of the whole line, through the SM's
 * injection port (shared with the L1D's misses, as GPGPU-Sim's L1I and L1D
 * share the cluster's interconnect port); its fill comes back as an
 * WC_EV_IFILL event. */
static void send_line(wc_sm *sm, uint64_t line, unsigned slot, uint64_t now)
{
    wc_gpu *g = sm->gpu;
    uint64_t chunks = wc_chunks_all((1u << sm->icache->line_log2) >> 5);
    wc_mem_req req = {.addr = line,
                      .pc = line - WC_ICACHE_BASE,
                      .chunks = chunks,
                      .tag = WC_NO_REC,
                      .sm = (uint16_t)sm->id,
                      .warp = (uint16_t)slot,
                      .op = WC_OP_LDG,
                      .line_log2 = (uint8_t)sm->icache->line_log2,
                      .chunk_log2 = 5,
                      .origin = sm->kernel_id << 8};
    double leave = (double)now > sm->port_free ? (double)now : sm->port_free;
    uint32_t up = wc_mem_up_payload(&req, chunks);
    sm->port_free = leave + wc_mem_pkt_cycles(&g->mem, up);
    if (g->n_ctls) sm->up_bytes += (uint64_t)wc_mem_pkt_flits(&g->mem, up) * g->mem.flit;
    uint64_t back = wc_mem_access(&g->mem, sm->id, &req, chunks, (uint64_t)leave);
    if (!back) return; /* cannot happen: reads are answered */
    if (g->n_ctls)
        sm->down_bytes +=
            (uint64_t)wc_mem_pkt_flits(&g->mem, wc_chunk_bytes(chunks, 5)) * g->mem.flit;
    wc_event ev = {.time = back,
                   .addr = line,
                   .arg = (uint32_t)chunks,
                   .sm = (uint16_t)sm->id,
                   .kind = WC_EV_IFILL};
    if (back == WC_MEM_DEFERRED)
        wc_sim_defer_response(g, g->mem.rec, &ev, (uint32_t)(chunks >> 32));
    else
        wc_sim_push_response(g, ev, (uint32_t)(chunks >> 32));
}

void wc_sm_icache_fetch(wc_sm *sm, uint64_t now)
{
    wc_icache *ic = sm->icache;
    int ready = wc_icache_next_ready(ic);
    if (ready >= 0) { /* a warp whose line arrived goes to decode */
        wc_sm_set_need_fetch(sm, (unsigned)ready, FETCH_WAIT);
        sm->decoding = ready;
    } else if (sm->n_need_fetch) {
        int next = wc_sm_next_fetch(sm); /* round robin over the slots that wait */
        if (next >= 0) {
            unsigned slot = (unsigned)next;
            wc_warp *w = &sm->warps[slot];
            sm->fetch_last = slot;
            wc_ic_result r = wc_icache_access(ic, WC_ICACHE_BASE + w->inst.pc, slot);
            if (r == WC_IC_HIT) {
                sm->decoding = (int)slot;
                sm->n_need_fetch--;
            } else if (r == WC_IC_MISS) {
                wc_sm_set_need_fetch(sm, slot, FETCH_MISS);
                sm->n_need_fetch--;
            }
        }
    }
    uint64_t line;
    unsigned slot;
    if (wc_icache_to_send(ic, &line, &slot)) { /* the miss queue's head, one per cycle */
        send_line(sm, line, slot, now);
        wc_icache_sent(ic);
    }
}

void wc_sm_icache_deliver(wc_sm *sm, const wc_event *ev)
{
    wc_icache_fill(sm->icache, ev->addr);
    if (sm->wake > ev->time) sm->wake = ev->time; /* the fetch unit hands it out */
}
