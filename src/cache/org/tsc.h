/*
 * tsc.h - the tag-split cache's tag store (tsc.c), shared with TSC+
 * (tscplus.c), which adds storage modes on the same store.  Private to
 * src/cache/.
 */
#ifndef WC_CACHE_TSC_H
#define WC_CACHE_TSC_H

#include "cache/l1_core.h"
#include "cache/l1_impl.h"
#include "util/rng.h"
#include "warpcache/params.h"

#define TSC_MAX_SLOTS 64 /* chunk slots per set: the victim masks are 64 bits */

/* One chunk slot: which line of the set's pool owns it (-1: free), which
 * chunk of that line it holds (the inter-chunk offset), its NRU bit.  Valid
 * or pending is the owner line's mask bit for that chunk. */
typedef struct tsc_slot {
    int8_t owner;
    uint8_t off, nru;
} tsc_slot;

typedef struct tsc_ts {
    wc_tagstore base; /* first */
    wc_index index;
    uint32_t nsets;
    unsigned groups, per_group, nslots, npool; /* groups x chunks per group = slots */
    unsigned line_log2, priv_bits, shared_bits, shared_shift;
    wc_line *lines;  /* nsets x npool line records */
    tsc_slot *slots; /* nsets x nslots */
    uint64_t rng;
    uint32_t last_set;    /* the set of the latest lookup (the access in progress) */
    uint64_t valid_slots; /* slots holding valid data, whole L1 */
    /* counters (stats) */
    uint64_t partial_misses, chunk_evictions, group_invalidations, nru_resets;
    uint64_t occ_sum, occ_samples;
} tsc_ts;

extern const wc_param_desc wc_tsc_params[];

/* Initialises the store in *t (zeroed) for (cfg, env) with ops `ops`. */
int wc_tsc_init(tsc_ts *t, const wc_tagstore_ops *ops, const wc_config *cfg, const wc_l1_env *env,
                wc_err *err);
/* The store's operations, for variants' ops tables (TSC+). */
void wc_tsc_destroy(wc_tagstore *ts);
wc_line *wc_tsc_lookup(wc_tagstore *ts, uint64_t addr, uint32_t *set);
bool wc_tsc_can_allocate(const wc_tagstore *ts, uint32_t set);
wc_line *wc_tsc_allocate(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                         uint8_t state, const wc_repl_ctx *ctx, uint64_t now);
void wc_tsc_touch(wc_tagstore *ts, uint32_t set, wc_line *line, const wc_repl_ctx *ctx);
void wc_tsc_invalidate(wc_tagstore *ts, uint32_t set, wc_line *line);
void wc_tsc_fill(wc_tagstore *ts, uint32_t set, wc_line *line, uint64_t chunks);
bool wc_tsc_can_place(const wc_tagstore *ts, uint32_t set, const wc_line *line, uint64_t tag,
                      uint64_t chunks);
void wc_tsc_place(wc_tagstore *ts, wc_l1_core *core, uint32_t set, wc_line *line, uint64_t chunks,
                  const wc_repl_ctx *ctx, uint64_t now);
void wc_tsc_each_valid(wc_tagstore *ts, void (*fn)(void *arg, uint32_t set, wc_line *line),
                       void *arg);
void wc_tsc_stats(const wc_tagstore *ts, void (*emit)(void *ctx, const char *name, double v),
                  void *ctx);

#endif
