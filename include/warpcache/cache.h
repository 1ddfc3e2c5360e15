/*
 * cache.h - the cache seams: requests, outcomes, tag arrays with pluggable
 * set-index functions and replacement policies, MSHRs, and the L1
 * organisation ops table (`wc_l1_ops`).
 *
 * An L1 organisation (conventional, sector, TSC, decoupled ...) is one file
 * implementing wc_l1_ops plus one line in the registry (src/cache/l1_registry.c).
 * It talks to the rest of the GPU only through the wc_l1_env it is given:
 * `send` hands a request to the interconnect, `respond` tells the SM that the
 * data of a request reached the warp.
 */
#ifndef WARPCACHE_CACHE_H
#define WARPCACHE_CACHE_H

#include "warpcache/common.h"
#include "warpcache/config.h"

/* ---- requests -------------------------------------------------------- */

enum {
    WC_REQ_WRITE = 1u << 0,    /* store: carries data to L2 */
    WC_REQ_NO_ALLOC = 1u << 1, /* must not allocate in L1 (atomics, .STRONG.GPU) */
    WC_REQ_BYPASS = 1u << 2,   /* sent around the L1: response goes straight to the warp */
    WC_REQ_ATOMIC = 1u << 3,   /* performed at L2, returns data */
    WC_REQ_LOCAL = 1u << 4,    /* local-memory space */
    WC_REQ_WRITEBACK = 1u << 5 /* eviction of a dirty line (no warp waits on it) */
};

/* One coalesced request: a 128 B line (or 32 B segment) of one warp instruction.
 * It carries its origin so statistics can be broken down by SM, warp, PC. */
typedef struct wc_mem_req {
    uint64_t addr; /* aligned to the coalescing granularity */
    uint64_t pc;
    uint64_t bytemask[2]; /* bytes touched within the 128 B line */
    uint32_t lanes;       /* warp lanes served */
    uint32_t block;       /* linear block id within the kernel */
    uint32_t tag;         /* engine cookie returned by respond() */
    uint16_t sm, warp;    /* SM id, warp slot within the SM */
    uint8_t sectors;      /* 32 B sectors touched within the 128 B line */
    uint8_t op;           /* wc_opclass */
    uint8_t flags;        /* WC_REQ_* */
    uint8_t pad;
} wc_mem_req;

/* ---- outcomes -------------------------------------------------------- */

typedef enum wc_outcome {
    WC_HIT = 0,
    WC_HIT_RESERVED, /* line allocated, fill pending: merged into the MSHR */
    WC_MISS,
    WC_SECTOR_MISS, /* line present, sector(s) absent */
    WC_RESERVATION_FAIL,
    WC_BYPASSED, /* sent to L2 without allocating (policy or no-alloc request) */
    WC_OUTCOME__COUNT
} wc_outcome;

typedef enum wc_fail_reason {
    WC_FAIL_NONE = 0,
    WC_FAIL_LINE_ALLOC,      /* every way of the set is reserved */
    WC_FAIL_MISS_QUEUE_FULL, /* no room to send */
    WC_FAIL_MSHR_ENTRY,      /* MSHR table full */
    WC_FAIL_MSHR_MERGE,      /* the line's MSHR entry holds its maximum of merged requests */
    WC_FAIL_MSHR_RW_PENDING, /* a write meets a pending read of the same line */
    WC_FAIL__COUNT
} wc_fail_reason;

const char *wc_outcome_name(wc_outcome o);
const char *wc_fail_reason_name(wc_fail_reason r); /* "LINE_ALLOC_FAIL" ... */
const char *wc_fail_reason_key(wc_fail_reason r);  /* "line_alloc" ... (JSON names) */

/* ---- set-index functions -------------------------------------------- */

typedef struct wc_index {
    uint32_t nsets;
    unsigned line_log2;
    uint32_t (*fn)(const struct wc_index *ix, uint64_t addr);
    uint32_t poly;          /* IPOLY polynomial (with the x^n term) */
    uint32_t table[8][256]; /* IPOLY: contribution of each address byte, by byte position */
} wc_index;

typedef struct wc_index_desc {
    const char *name; /* "linear", "fermi", "ipoly", "xor" */
    char letter;      /* GPGPU-Sim sif letter */
    int (*init)(wc_index *ix, uint32_t nsets, uint32_t line_bytes, uint32_t poly, wc_err *err);
} wc_index_desc;

const wc_index_desc *wc_index_find(const char *name_or_letter);
const wc_index_desc *wc_index_list(size_t *count);
int wc_index_init(wc_index *ix, char letter, uint32_t nsets, uint32_t line_bytes, uint32_t poly,
                  wc_err *err);
static inline uint32_t wc_index_set(const wc_index *ix, uint64_t addr)
{
    return ix->fn(ix, addr);
}
/* Default irreducible polynomial of degree log2(nsets) (37 = x^5+x^2+1 for 32). */
uint32_t wc_ipoly_default(uint32_t nsets);

/* ---- tag arrays and replacement -------------------------------------- */

enum wc_line_state { WC_LINE_INVALID = 0, WC_LINE_RESERVED, WC_LINE_VALID };

typedef struct wc_line {
    uint64_t tag;         /* line address (addr >> line_log2) */
    uint64_t repl;        /* replacement metadata, owned by the policy */
    uint64_t fill_time;   /* L2: when the data is there (fills in flight) */
    uint32_t owner_block; /* who allocated it (for eviction listeners) */
    uint16_t owner_warp;
    uint8_t state;           /* wc_line_state */
    uint8_t valid_sectors;   /* sectors holding data */
    uint8_t dirty_sectors;   /* write-back caches */
    uint8_t used_sectors;    /* sectors referenced since the fill (utilisation) */
    uint8_t pending_sectors; /* sectors requested but not yet filled */
    uint8_t pad;
} wc_line;

typedef struct wc_repl_ops {
    const char *name; /* "lru", "fifo", "nru", "srrip" */
    char letter;      /* GPGPU-Sim rp letter, or 0 */
    void (*on_hit)(wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp);
    void (*on_insert)(wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp);
    /* Victim among ways that are not RESERVED (invalid ways are taken first by
     * the caller).  Returns -1 when every way is reserved. */
    int (*victim)(wc_line *set, uint32_t assoc, uint64_t *rng);
} wc_repl_ops;

const wc_repl_ops *wc_repl_find(const char *name_or_letter);
const wc_repl_ops *const *wc_repl_list(size_t *count);

typedef struct wc_tag_array {
    uint32_t nsets, assoc;
    unsigned line_log2;
    wc_index index;
    const wc_repl_ops *repl;
    wc_line *lines; /* nsets * assoc */
    uint64_t stamp; /* monotonically increasing access counter */
    uint64_t rng;   /* seeded state for random choices */
} wc_tag_array;

int wc_tag_array_init(wc_tag_array *ta, const wc_cache_geom *g, uint32_t ipoly, uint64_t seed,
                      wc_err *err);
void wc_tag_array_free(wc_tag_array *ta);
static inline wc_line *wc_tag_array_set(wc_tag_array *ta, uint32_t set)
{
    return ta->lines + (size_t)set * ta->assoc;
}
/* Way holding line `tag` (VALID or RESERVED) in `set`, or -1. */
int wc_tag_array_find(const wc_tag_array *ta, uint32_t set, uint64_t tag);
/* Way to (re)allocate in `set`: an invalid way first, else the policy's victim
 * among non-reserved ways; -1 when all are reserved. */
int wc_tag_array_pick(wc_tag_array *ta, uint32_t set);

/* ---- MSHRs ----------------------------------------------------------- */

typedef struct wc_mshr_entry {
    uint64_t addr;     /* line address; 0 with n_merged 0 = free */
    uint32_t n_merged; /* requests waiting on this line */
    uint32_t first;    /* index of the first waiting request in the pool */
    uint8_t sectors;   /* sectors requested from below */
    uint8_t busy;
    uint8_t arrived; /* sectors received from below so far (done when it covers sectors) */
} wc_mshr_entry;

typedef struct wc_mshr {
    uint32_t n_entries, max_merge, used;
    wc_mshr_entry *e;
    uint32_t *waiters; /* n_entries * max_merge request cookies */
    int32_t *slot;     /* open-addressing index: line address -> entry, -1 empty */
    uint32_t slot_mask;
    uint32_t *free_list; /* unused entries (a stack of n_entries - used) */
} wc_mshr;

int wc_mshr_init(wc_mshr *m, uint32_t entries, uint32_t max_merge);
void wc_mshr_free(wc_mshr *m);
/* Entry tracking line `addr`, or -1. */
int wc_mshr_find(const wc_mshr *m, uint64_t addr);
/* Probe: WC_FAIL_NONE if a request for `addr` could be taken (merge or new). */
wc_fail_reason wc_mshr_probe(const wc_mshr *m, uint64_t addr);
/* Adds a waiting request (cookie) for `addr`; returns the entry, or -1 (with
 * *why set) when the table or the entry is full.  *is_new tells whether the
 * entry was just created (a request must be sent below). */
int wc_mshr_add(wc_mshr *m, uint64_t addr, uint32_t cookie, bool *is_new, wc_fail_reason *why);
/* Releases the entry of `addr`; copies its cookies to out (capacity max_merge)
 * and returns their number, or -1 if no entry tracks addr. */
int wc_mshr_release(wc_mshr *m, uint64_t addr, uint32_t *out);

/* ---- L1 organisations ------------------------------------------------ */

typedef struct wc_l1 wc_l1;

/* Listeners see what happens inside an L1 (CCWS, MRPB breakdowns, histograms). */
typedef struct wc_l1_listener {
    void *ctx;
    void (*on_evict)(void *ctx, int sm, const wc_line *line, uint64_t line_addr, uint64_t now);
    void (*on_fill)(void *ctx, int sm, uint64_t line_addr, uint8_t sectors, uint64_t now);
    void (*on_bypass)(void *ctx, int sm, const wc_mem_req *req, uint64_t now);
} wc_l1_listener;

/* What the engine gives an L1. */
typedef struct wc_l1_env {
    void *ctx;
    int sm;
    /* Sends `req` below (interconnect -> L2), asking for `sectors`.  Returns the
     * cycle at which it leaves the SM (later than now when the port is busy). */
    uint64_t (*send)(void *ctx, const wc_mem_req *req, uint8_t sectors, uint64_t now);
    /* The data of the request with this cookie reaches its warp at cycle t. */
    void (*respond)(void *ctx, uint32_t cookie, uint64_t t);
    const wc_l1_listener *listener; /* may be NULL */
} wc_l1_env;

/* Per-L1 counters (summed over SMs for reports). */
typedef struct wc_l1_stats {
    uint64_t accesses, reads, writes;
    uint64_t outcome[WC_OUTCOME__COUNT];
    uint64_t fail[WC_FAIL__COUNT];
    uint64_t evictions, writebacks, fills;
    uint64_t util_hist[5];  /* evicted lines by used sectors: 0,1,2,3,4 of 4 (0..100 %) */
    uint64_t read_misses;   /* reads that were MISS or SECTOR_MISS */
    uint64_t read_bypasses; /* reads sent around the L1 */
} wc_l1_stats;

typedef struct wc_l1_ops {
    const char *name;
    const char *help;
    wc_l1 *(*create)(const wc_config *cfg, const wc_l1_env *env, wc_err *err);
    /* Presents one request at cycle `now`.  On WC_RESERVATION_FAIL nothing
     * changed and *why says why; the SM retries on a later cycle.  On
     * WC_HIT the caller adds the hit latency itself. */
    wc_outcome (*access)(wc_l1 *l1, const wc_mem_req *req, uint64_t now, wc_fail_reason *why);
    /* Data for line `addr` (sectors) arrived from below at cycle now. */
    void (*fill)(wc_l1 *l1, uint64_t addr, uint8_t sectors, uint64_t now);
    void (*destroy)(wc_l1 *l1);
    /* Optional: invalidate every line at a kernel boundary (-gpgpu_flush_l1_cache),
     * writing dirty data back.  Nothing is in flight when it is called. */
    void (*flush)(wc_l1 *l1, uint64_t now);
} wc_l1_ops;

/* Every L1 embeds this first. */
struct wc_l1 {
    const wc_l1_ops *ops;
    wc_l1_env env;
    wc_l1_stats stats;
};

const wc_l1_ops *wc_l1_find(const char *name);
const wc_l1_ops *const *wc_l1_list(size_t *count);

#endif
