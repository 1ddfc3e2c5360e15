/*
 * ccws.h - the mechanism of cache-conscious wavefront scheduling (CCWS,
 * Rogers, O'Connor and Aamodt, MICRO 2012; seed 002's comparison scheme,
 * 002_549a998632bcde66.txt Table 4) for one SM, without the engine: the
 * lost-locality detector (a small victim tag array per warp) and the
 * locality scoring system that decides which warps may issue loads.
 *
 * ctl_ccws.c is the glue: an L1 listener feeds evictions (into the VTA of
 * the warp that allocated the line) and read misses (probes of the missing
 * warp's own VTA), and the SM's load gate asks wc_ccws_may_load.  Keeping the
 * mechanism here lets the tests drive it by hand.
 *
 * The rules (docs/techniques/ccws.md has the reasons for each choice):
 *   - VTA: per warp `vta_sets` sets of `vta_ways` line tags (2 x 8 = 16
 *     entries); set = line number mod vta_sets; LRU within a set (a re-
 *     inserted tag becomes most recent); a probe that hits removes the tag
 *     (the line is back in the L1 and re-enters on its next eviction).
 *   - Score: every warp starts at `base` (100).  A VTA hit sets the warp's
 *     score to max(base, hits / insts x kthrottle x cutoff), where hits and
 *     insts are the SM's VTA hits and warp instructions since the kernel
 *     began and cutoff = live warps x base (live as for the load list).  Above base a score loses
 *     `decay` (1) points per cycle.
 *   - Load list: live warps (not finished, not waiting at a barrier) sorted
 *     by score (highest first, ties lower slot first) are taken while the
 *     running sum is below the cutoff; the warp that reaches it is the last
 *     one taken.  Taken warps may issue loads;
 *     the others issue every other instruction.  With every score at base
 *     all warps are taken.
 */
#ifndef WC_CORE_CCWS_H
#define WC_CORE_CCWS_H

#include "warpcache/common.h"
#include "warpcache/params.h"

#define WC_CCWS_MAX_SLOTS 256 /* warp slots per SM */
#define WC_CCWS_WORDS     (WC_CCWS_MAX_SLOTS / 64)
#define WC_CCWS_NOBODY    UINT64_MAX /* identity of a slot no warp has used yet */

typedef struct wc_ccws_params {
    uint32_t base;      /* base locality score per warp */
    uint32_t kthrottle; /* scales the score a VTA hit gives */
    uint32_t vta_sets;  /* VTA sets per warp */
    uint32_t vta_ways;  /* VTA ways per set */
    uint32_t decay;     /* points a score above base loses per cycle */
} wc_ccws_params;

/* The parameters (-controllers ccws:key=value,...), read by name into a
 * wc_ccws_params by wc_ccws_params_from; wc_ccws_defaults gives the
 * schema's defaults, the paper's values (002 Table 4). */
extern const wc_param_desc wc_ccws_param_schema[];
void wc_ccws_params_from(const wc_param_values *v, wc_ccws_params *p);
void wc_ccws_defaults(wc_ccws_params *p);

/* Per warp slot. */
typedef struct wc_ccws_warp {
    uint64_t who;    /* identity of the warp the state belongs to */
    uint64_t set_at; /* cycle the score was set */
    uint32_t score;  /* the score at set_at (decays from there) */
} wc_ccws_warp;

typedef struct wc_ccws_sm {
    wc_ccws_params p;
    unsigned n_slots, line_log2;
    wc_ccws_warp *w;    /* [n_slots] */
    uint64_t *vta;      /* [n_slots][sets][ways]: line number + 1 (0 = empty), most recent first */
    uint64_t hot_until; /* from this cycle on no score is above base */
    uint64_t hits_kernel, insts_at_begin; /* the hit ratio's terms for the running kernel */
    uint64_t allowed[WC_CCWS_WORDS];      /* the load list, by slot ... */
    uint64_t eval_at;                     /* ... as evaluated at this cycle (UINT64_MAX: stale) */
    /* ... over this live set, and the same until this cycle (wc_ccws_refresh) */
    uint64_t eval_live[WC_CCWS_WORDS], eval_until;
    /* cumulative counters (reported) */
    uint64_t vta_hits, vta_inserts, refusals;
    uint64_t blocked_cycles, last_refusal; /* cycles with a refusal; the last such (+1) */
} wc_ccws_sm;

/* Errors give the reason only. */
int wc_ccws_sm_init(wc_ccws_sm *s, const wc_ccws_params *p, unsigned n_slots, unsigned line_log2,
                    wc_err *err);
void wc_ccws_sm_free(wc_ccws_sm *s);

/* A new kernel: the hit ratio restarts (its instructions counted from insts)
 * and every slot's VTA and score start afresh. */
void wc_ccws_kernel_begin(wc_ccws_sm *s, uint64_t insts);

/* Makes slot's state belong to warp `who`: a different warp than before
 * starts with an empty VTA and the base score. */
void wc_ccws_sync(wc_ccws_sm *s, unsigned slot, uint64_t who);

/* The L1 evicted `line_addr` (bytes), allocated by the warp in `slot`. */
void wc_ccws_vta_insert(wc_ccws_sm *s, unsigned slot, uint64_t line_addr);
/* Whether `line_addr` is in slot's VTA; a hit removes it. */
bool wc_ccws_vta_probe(wc_ccws_sm *s, unsigned slot, uint64_t line_addr);

/* slot's score at cycle now. */
uint32_t wc_ccws_score(const wc_ccws_sm *s, unsigned slot, uint64_t now);
/* Sets a score directly (tests; never below base). */
void wc_ccws_set_score(wc_ccws_sm *s, unsigned slot, uint32_t score, uint64_t now);

/* A read miss of the warp in `slot` hit its VTA at cycle now: lost
 * locality.  n_live = live warps on the SM; insts = the SM's warp
 * instructions so far (cumulative).  Returns the new score. */
uint32_t wc_ccws_lost_locality(wc_ccws_sm *s, unsigned slot, uint64_t now, unsigned n_live,
                               uint64_t insts);

/* Evaluates the load list over the live warps (bitset by slot, WC_CCWS_WORDS
 * words) at cycle now into s->allowed; returns how many warps it holds.  The
 * slots of live warps above base must have been synced (wc_ccws_sync). */
unsigned wc_ccws_evaluate(wc_ccws_sm *s, const uint64_t *live, uint64_t now);

/* The load list at cycle now, as wc_ccws_evaluate gives it: the last one
 * where nothing it depends on changed (the live set, a score set, a slot's
 * warp), and the cycle has not reached the first at which the scores'
 * decay could change it; else evaluated afresh.  Same precondition. */
void wc_ccws_refresh(wc_ccws_sm *s, const uint64_t *live, uint64_t now);

/* Whether the load list (as last evaluated) holds slot. */
static inline bool wc_ccws_allowed(const wc_ccws_sm *s, unsigned slot)
{
    return (s->allowed[slot >> 6] >> (slot & 63)) & 1;
}

#endif
