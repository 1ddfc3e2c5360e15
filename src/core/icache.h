/*
 * icache.h - GPGPU-Sim's L1 instruction cache in the SM's fetch unit
 * (-icache 1, icache.c): the cache itself, testable on its own, and the
 * fetch step and fill the SM (sm.c) calls when the option is on.
 */
#ifndef WC_CORE_ICACHE_H
#define WC_CORE_ICACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "warpcache/common.h"
#include "warpcache/config.h"

/* GPGPU-Sim fetches the instruction at PC from PROGRAM_MEM_START + PC
 * (shader.cc): a region of its own in the L2 and the address map. */
#define WC_ICACHE_BASE 0xF0000000ull

typedef enum wc_ic_result { WC_IC_HIT, WC_IC_MISS, WC_IC_FAIL } wc_ic_result;

/* One MSHR: a line on its way and the warps waiting for it, in order. */
typedef struct wc_ic_mshr {
    uint64_t line; /* line address */
    bool used;
    uint32_t head, n; /* waiters[head .. head + n) */
    uint16_t *waiter;
} wc_ic_mshr;

typedef struct wc_icache {
    uint32_t nsets, assoc, line_log2;
    uint64_t *tag;      /* [set * assoc + way]: line address + 1, 0 = invalid */
    uint64_t *last_use; /* LRU stamps, same index */
    uint64_t stamp;
    wc_ic_mshr *mshr;
    uint32_t n_mshr, max_merge;
    /* filled MSHRs whose warps are still to be handed to the fetch unit,
     * oldest first (GPGPU-Sim's m_current_response) */
    uint32_t *ready, ready_head, ready_n;
    /* lines still to be sent below, one per cycle (the miss queue) */
    uint64_t *mq;
    uint16_t *mq_warp;
    uint32_t mq_cap, mq_head, mq_n;
    uint64_t accesses, misses, merges, fails; /* counters for tests and debugging */
} wc_icache;

int wc_icache_init(wc_icache *ic, const wc_cache_geom *g, wc_err *err);
void wc_icache_free(wc_icache *ic);

/* Looks up the instruction at `addr` for warp slot `slot`: a hit, a miss
 * (a new one queued to be sent, or merged into the line's MSHR: either way
 * the warp waits for the fill), or a reservation fail (no MSHR, no room to
 * merge, or the miss queue is full: nothing changes, the fetch unit tries
 * again later). */
wc_ic_result wc_icache_access(wc_icache *ic, uint64_t addr, unsigned slot);

/* The miss queue's head (false when empty); pop it once it is sent. */
bool wc_icache_to_send(const wc_icache *ic, uint64_t *line, unsigned *slot);
void wc_icache_sent(wc_icache *ic);

/* The line at `line` arrived: it is allocated (an invalid way, else the
 * least recently used) and its MSHR's warps become ready. */
void wc_icache_fill(wc_icache *ic, uint64_t line);

/* The next warp whose line arrived (one per call), or -1. */
int wc_icache_next_ready(wc_icache *ic);

/* Something to do next cycle without a new fetch: a warp to hand out or a
 * miss to send. */
static inline bool wc_icache_busy(const wc_icache *ic)
{
    return ic->ready_n || ic->mq_n;
}

/* ---- the SM's side (sm.c calls these only with -icache 1) ------------- */

struct wc_sm;
struct wc_event;

/* Sets up sm->icache when -icache 1 (and not -gpgpu_perfect_inst_const_cache). */
int wc_sm_icache_init(struct wc_sm *sm, const wc_config *cfg, wc_err *err);
void wc_sm_icache_free(struct wc_sm *sm);
/* One cycle of the fetch unit through the cache (after decode). */
void wc_sm_icache_fetch(struct wc_sm *sm, uint64_t now);
/* An instruction line arrived (a WC_EV_IFILL event). */
void wc_sm_icache_deliver(struct wc_sm *sm, const struct wc_event *ev);

#endif
