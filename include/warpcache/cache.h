/*
 * cache.h - the cache seams: requests, outcomes, tag arrays with pluggable
 * set-index functions and replacement policies, MSHRs, and the L1
 * organisation ops table (`wc_l1_ops`).
 *
 * An L1 organisation (conventional, sector, TSC, decoupled ...) is one file
 * implementing wc_l1_ops and registering it with WC_PLUGIN(l1_org, ...)
 * (warpcache/plugin.h); nothing else lists it.
 * It talks to the rest of the GPU only through the wc_l1_env it is given:
 * `send` hands a request to the interconnect, `respond` tells the SM that the
 * data of a request reached the warp.
 */
#ifndef WARPCACHE_CACHE_H
#define WARPCACHE_CACHE_H

#include "warpcache/common.h"
#include "warpcache/config.h"
#include "warpcache/plugin.h"

/* ---- requests -------------------------------------------------------- */

enum {
    WC_REQ_WRITE = 1u << 0,     /* store: carries data to L2 */
    WC_REQ_NO_ALLOC = 1u << 1,  /* must not allocate in L1 (atomics, .STRONG.GPU) */
    WC_REQ_BYPASS = 1u << 2,    /* sent around the L1: response goes straight to the warp */
    WC_REQ_ATOMIC = 1u << 3,    /* performed at L2, returns data */
    WC_REQ_LOCAL = 1u << 4,     /* local-memory space */
    WC_REQ_WRITEBACK = 1u << 5, /* eviction of a dirty line (no warp waits on it) */
    /* Streaming bypass (seed 002): a read sent around the L1 whose tags are
     * still looked up and updated, so the miss rate keeps being measured. */
    WC_REQ_STREAM = 1u << 6,
    WC_REQ_L2_BYPASS = 1u << 7 /* the L2 looks up and updates its tags, DRAM serves the data */
};

/* One coalesced request: a segment of one L1 line touched by one warp
 * instruction.  Which bytes it needs is a chunk mask relative to the enclosing
 * L1 line: bit i stands for bytes [i << chunk_log2, (i + 1) << chunk_log2) of
 * the line at addr & ~((1 << line_log2) - 1), up to 64 chunks.  The L1
 * organisation decides the chunk size (32 B sectors for the conventional L1;
 * TSC sweeps 8..64 B), the memory side moves exactly the chunks it is asked
 * for.  It carries its origin so statistics can be broken down by SM, warp, PC. */
typedef struct wc_mem_req {
    uint64_t addr; /* aligned to the coalescing granularity */
    uint64_t pc;
    uint64_t chunks;    /* chunks touched within the L1 line */
    uint32_t lanes;     /* warp lanes served */
    uint32_t block;     /* linear block id within the kernel */
    uint32_t tag;       /* engine cookie returned by respond() */
    uint16_t sm, warp;  /* SM id, warp slot within the SM */
    uint8_t op;         /* wc_opclass */
    uint8_t flags;      /* WC_REQ_* */
    uint8_t line_log2;  /* log2 of the L1 line the chunk mask is relative to */
    uint8_t chunk_log2; /* log2 of the chunk size in bytes */
    /* The launch id of the kernel (wc_kernel.id, modulo 2^24) << 8 | the
     * warp's index within its block (< 32); read them with wc_req_kernel and
     * wc_req_wib.  One word in what would be padding: a request stays 48
     * bytes (the coalescer writes up to 64 per instruction). */
    uint32_t origin;
} wc_mem_req;

static inline uint32_t wc_req_kernel(const wc_mem_req *r)
{
    return r->origin >> 8;
}
static inline unsigned wc_req_wib(const wc_mem_req *r)
{
    return r->origin & 0xffu;
}

/* The transfer geometry of an L1: what the coalescer and the memory side
 * need to know about how it cuts lines into chunks. */
typedef struct wc_xfer {
    uint32_t granularity; /* coalescing segment, bytes (<= the line) */
    uint8_t line_log2, chunk_log2;
} wc_xfer;

/* Chunks in a mask.  Baseline x86-64 has no popcount instruction (the
 * builtin is a libgcc call): masks of up to 4 chunks, the common case, are a
 * nibble lookup in a constant, others a SWAR count. */
static inline unsigned wc_chunk_count(uint64_t c)
{
    if (c < 16) return (unsigned)(0x4332322132212110ull >> (c * 4)) & 15;
    c = c - ((c >> 1) & 0x5555555555555555ull);
    c = (c & 0x3333333333333333ull) + ((c >> 2) & 0x3333333333333333ull);
    c = (c + (c >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((c * 0x0101010101010101ull) >> 56);
}

/* Bytes covered by a chunk mask. */
static inline uint32_t wc_chunk_bytes(uint64_t chunks, unsigned chunk_log2)
{
    return wc_chunk_count(chunks) << chunk_log2;
}
/* Mask of the first n chunks (n <= 64). */
static inline uint64_t wc_chunks_all(unsigned n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

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
const wc_index_desc *const *wc_index_list(size_t *count);
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
    uint8_t state; /* wc_line_state */
    uint8_t pad;
    /* Chunk masks (32 B sectors in the conventional L1 and the L2): a line
     * holds at most 16 chunks, so these stay 2 bytes and wc_line 40. */
    uint16_t valid_chunks;   /* chunks holding data */
    uint16_t dirty_chunks;   /* write-back caches */
    uint16_t used_chunks;    /* chunks referenced since the fill (utilisation) */
    uint16_t pending_chunks; /* chunks requested but not yet filled */
} wc_line;

/* What a replacement policy may know about the access that touches or
 * allocates a line: the request (its origin: PC, warp, block, op - SHiP
 * signs lines with the PC) and the set.  req is NULL where there is no
 * request (the L2, tests). */
typedef struct wc_repl_ctx {
    const wc_mem_req *req;
    uint32_t set;
} wc_repl_ctx;

/* victim() may answer this instead of a way: do not allocate, send the
 * request around the cache (the set is left exactly as it was). */
#define WC_REPL_BYPASS (-2)

struct wc_param_desc;

/* A replacement policy.  State that is not per line lives in an instance
 * made by create() (NULL create: a stateless policy, st is NULL); per-line
 * state lives in wc_line.repl.  on_insert runs when a way is (re)allocated,
 * on_hit on every later access, victim() only when the set has no invalid
 * way (it never returns a RESERVED way; -1 when every way is), on_evict when
 * a valid line leaves the set (replaced or invalidated). */
typedef struct wc_repl_ops {
    const char *name; /* "lru", "fifo", "nru", "srrip", "ship" */
    char letter;      /* GPGPU-Sim rp letter, or 0 */
    const char *help;
    const struct wc_param_desc *params; /* plug-in parameters (params.h), NULL-key ended; or NULL */
    void *(*create)(uint32_t sets, uint32_t ways, const wc_config *params, wc_err *err);
    void (*destroy)(void *st);
    void (*on_hit)(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                   const wc_repl_ctx *ctx);
    void (*on_insert)(void *st, wc_line *set, uint32_t assoc, uint32_t way, uint64_t stamp,
                      const wc_repl_ctx *ctx);
    int (*victim)(void *st, wc_line *set, uint32_t assoc, uint64_t *rng, const wc_repl_ctx *ctx);
    void (*on_evict)(void *st, wc_line *set, uint32_t assoc, uint32_t way); /* optional */
    /* Optional: the policy's own counters (reported as extras, summed over SMs). */
    void (*stats)(const void *st, void (*emit)(void *ctx, const char *name, double v), void *ctx);
} wc_repl_ops;

const wc_repl_ops *wc_repl_find(const char *name_or_letter);
const wc_repl_ops *const *wc_repl_list(size_t *count);

typedef struct wc_tag_array {
    uint32_t nsets, assoc;
    unsigned line_log2;
    wc_index index;
    const wc_repl_ops *repl;
    void *repl_state; /* the policy's instance (NULL for stateless policies) */
    wc_line *lines;   /* nsets * assoc */
    uint64_t stamp;   /* monotonically increasing access counter */
    uint64_t rng;     /* seeded state for random choices */
} wc_tag_array;

/* `params` (may be NULL: every plug-in parameter at its default) is where the
 * replacement policy reads its parameters. */
int wc_tag_array_init(wc_tag_array *ta, const wc_cache_geom *g, uint32_t ipoly, uint64_t seed,
                      const wc_config *params, wc_err *err);
void wc_tag_array_free(wc_tag_array *ta);
static inline wc_line *wc_tag_array_set(wc_tag_array *ta, uint32_t set)
{
    return ta->lines + (size_t)set * ta->assoc;
}
/* Way holding line `tag` (VALID or RESERVED) in `set`, or -1. */
int wc_tag_array_find(const wc_tag_array *ta, uint32_t set, uint64_t tag);
/* Way to (re)allocate in `set`: an invalid way first, else the policy's victim
 * among non-reserved ways; -1 when all are reserved, WC_REPL_BYPASS when the
 * policy declines to allocate.  Nothing is evicted yet. */
int wc_tag_array_pick(wc_tag_array *ta, uint32_t set, const wc_repl_ctx *ctx);
/* The replacement calls, with the array's instance and stamp. */
static inline void wc_tag_array_hit(wc_tag_array *ta, uint32_t set, uint32_t way,
                                    const wc_repl_ctx *ctx)
{
    ta->repl->on_hit(ta->repl_state, wc_tag_array_set(ta, set), ta->assoc, way, ++ta->stamp, ctx);
}
static inline void wc_tag_array_inserted(wc_tag_array *ta, uint32_t set, uint32_t way,
                                         const wc_repl_ctx *ctx)
{
    ta->repl->on_insert(ta->repl_state, wc_tag_array_set(ta, set), ta->assoc, way, ++ta->stamp,
                        ctx);
}
/* A valid line of `set` is leaving (before it is cleared). */
static inline void wc_tag_array_evicting(wc_tag_array *ta, uint32_t set, uint32_t way)
{
    if (ta->repl->on_evict)
        ta->repl->on_evict(ta->repl_state, wc_tag_array_set(ta, set), ta->assoc, way);
}

/* ---- MSHRs ----------------------------------------------------------- */

typedef struct wc_mshr_entry {
    uint64_t addr;     /* line address; 0 with n_merged 0 = free */
    uint64_t issued;   /* chunks requested from below (only chunks not yet issued are sent) */
    uint64_t arrived;  /* chunks received from below so far (done when it covers issued) */
    uint32_t n_merged; /* requests waiting on this line */
    uint32_t pos;      /* where the address index holds this entry (kept when it moves) */
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
/* wc_mshr_find that also gives the index position probed (*pos): the
 * entry's, or where a new entry for addr would go. */
int wc_mshr_lookup(const wc_mshr *m, uint64_t addr, uint32_t *pos);
/* Creates the entry for addr at position pos (from wc_mshr_lookup of addr,
 * with the table unchanged since) with one waiting request; -1 when the
 * table is full. */
int wc_mshr_insert(wc_mshr *m, uint32_t pos, uint64_t addr, uint32_t cookie);
/* The same for entry e (from wc_mshr_find), without a second lookup. */
int wc_mshr_release_entry(wc_mshr *m, int e, uint32_t *out);
/* Adds a waiting request to entry e, which the caller found and checked to
 * hold fewer than max_merge requests. */
static inline void wc_mshr_merge(wc_mshr *m, int e, uint32_t cookie)
{
    wc_mshr_entry *x = &m->e[e];
    m->waiters[(uint32_t)e * m->max_merge + x->n_merged++] = cookie;
}

/* ---- L1 organisations ------------------------------------------------ */

typedef struct wc_l1 wc_l1;

/* Listeners see what happens inside an L1 (CCWS, MRPB breakdowns, histograms). */
typedef struct wc_l1_listener {
    void *ctx;
    void (*on_evict)(void *ctx, int sm, const wc_line *line, uint64_t line_addr, uint64_t now);
    void (*on_fill)(void *ctx, int sm, uint64_t line_addr, uint64_t chunks, uint64_t now);
    void (*on_bypass)(void *ctx, int sm, const wc_mem_req *req, uint64_t now);
    /* Every request the SM presents to its L1, with the outcome (and the
     * reason of a reservation fail).  Called by the engine, not the L1. */
    void (*on_access)(void *ctx, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                      uint64_t now);
    /* An eviction with the request that caused it (NULL when no request of
     * the SM did: an allocate-on-fill install or a flush). */
    void (*on_evict_by)(void *ctx, int sm, const wc_line *victim, uint64_t line_addr,
                        const wc_mem_req *incoming, uint64_t now);
} wc_l1_listener;

/* What the engine gives an L1. */
typedef struct wc_l1_env {
    void *ctx;
    int sm;
    /* Sends `req` below (interconnect -> L2), moving `chunks` (relative to the
     * request's line, of its chunk size).  Returns the cycle at which it leaves
     * the SM (later than now when the port is busy). */
    uint64_t (*send)(void *ctx, const wc_mem_req *req, uint64_t chunks, uint64_t now);
    /* The data of the request with this cookie reaches its warp at cycle t. */
    void (*respond)(void *ctx, uint32_t cookie, uint64_t t);
    const wc_l1_listener *listener; /* may be NULL */
    /* Records a (cycle, sm, key, value) event on the run's timeline (may be NULL). */
    void (*record)(void *ctx, const char *key, double value, uint64_t now);
    /* The organisation's block shared by every SM's instance in this run
     * (wc_l1_ops.shared_create), or NULL.  With `sm`, this is how instances
     * of one run cooperate (set dueling decided on SM 0 for all SMs) or
     * differ (SM dueling: SM 0 runs the new design, SM 1 the baseline). */
    void *shared;
    /* What the program running the simulator gave the organisation with
     * wc_sim_set_l1_data (profiled-bypass's profile), or NULL; read-only. */
    const void *data;
} wc_l1_env;

/* Per-L1 counters (summed over SMs for reports). */
typedef struct wc_l1_stats {
    uint64_t accesses, reads, writes;
    uint64_t outcome[WC_OUTCOME__COUNT];
    uint64_t fail[WC_FAIL__COUNT];
    uint64_t evictions, writebacks, fills;
    uint64_t util_hist[5];  /* evicted lines by used chunks: 0, <=25, <=50, <=75, <=100 % */
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
    /* Data for line `addr` (chunks) arrived from below at cycle now. */
    void (*fill)(wc_l1 *l1, uint64_t addr, uint64_t chunks, uint64_t now);
    void (*destroy)(wc_l1 *l1);
    /* Optional: invalidate every line at a kernel boundary (-gpgpu_flush_l1_cache),
     * writing dirty data back.  Nothing is in flight when it is called. */
    void (*flush)(wc_l1 *l1, uint64_t now);
    /* Optional: the block every SM's instance of one run shares (env.shared),
     * made before the first create and freed after the last destroy. */
    void *(*shared_create)(const wc_config *cfg, unsigned n_sm, wc_err *err);
    void (*shared_destroy)(void *shared);
    /* Optional: a controller changes this instance's mode (WC_L1_CTL_* or the
     * organisation's own ops from WC_L1_CTL_ORG on).  Returns the op's answer
     * (>= 0), or -1 for an op the organisation does not know. */
    int64_t (*ctl)(wc_l1 *l1, int op, int64_t arg);
    /* Optional: the organisation's own counters, emitted by name; the engine
     * sums them over SMs and reports them as extras in text, JSON and CSV. */
    void (*stats)(const wc_l1 *l1, void (*emit)(void *ctx, const char *name, double v), void *ctx);
    const struct wc_param_desc *params; /* plug-in parameters (params.h), or NULL */
    /* Parameters of another plug-in the organisation reads too (TSC+: TSC's),
     * so that setting them with it is not "a plug-in that is not active". */
    const struct wc_param_desc *base_params;
    /* Values of WC_L1_CTL_MODE it takes (a controller's l1_mode knob, e.g.
     * sm_dueling's); 0: it has no modes and such a controller is refused. */
    unsigned n_modes;
} wc_l1_ops;

/* ctl ops every organisation built on the L1 core (l1_core.c) knows. */
enum {
    WC_L1_CTL_SKIP_GLOBAL = 1, /* arg 0/1: global accesses bypass the L1; returns the old value */
    WC_L1_CTL_QUERY_SKIP_GLOBAL,
    /* arg: an organisation-defined mode (e.g. TSC+'s coarse/fine), from the
     * l1_mode knob of a GPU-wide controller (control.h) */
    WC_L1_CTL_MODE,
    WC_L1_CTL_ORG = 256 /* first op number an organisation may define */
};

/* Every L1 embeds this first. */
struct wc_l1 {
    const wc_l1_ops *ops;
    wc_l1_env env;
    wc_l1_stats stats;
    wc_xfer xfer; /* set by create: how the coalescer cuts requests for it */
};

/* ctl through the ops table: -1 when the organisation has no ctl. */
static inline int64_t wc_l1_ctl(wc_l1 *l1, int op, int64_t arg)
{
    return l1->ops->ctl ? l1->ops->ctl(l1, op, arg) : -1;
}

const wc_l1_ops *wc_l1_find(const char *name);
const wc_l1_ops *const *wc_l1_list(size_t *count);

#endif
