/*
 * l1_core.h - the L1 core every organisation shares, and the tag-store seam
 * an organisation plugs into it (the gem5 BaseCache / BaseTags split).
 * Private to src/cache/ (and the tests).
 *
 * The core (l1_core.c) owns what does not depend on how tags are organised:
 * the MSHRs and their waiters (with the issued-chunk mask: only chunks not
 * yet requested are sent), the miss queue, the write policies, bypassing,
 * outcome counting, listener publishing and write-backs.  A tag store owns
 * where lines live: lookup (-> the line and its cached chunks), whether room
 * can be made, allocation (evicting one or several victims through
 * wc_l1_core_evict), touch, invalidate, fill, and which chunks a miss
 * fetches.  docs/design.md says how to add an organisation.
 *
 * Lines are wc_line records wherever the store keeps them; chunk masks in
 * them are relative to the line, of the store's chunk size.
 */
#ifndef WC_CACHE_L1_CORE_H
#define WC_CACHE_L1_CORE_H

#include "warpcache/cache.h"

typedef struct wc_l1_core wc_l1_core;
typedef struct wc_tagstore wc_tagstore;

typedef struct wc_tagstore_ops {
    const char *name;
    void (*destroy)(wc_tagstore *ts);
    /* The line holding the line of `addr` (VALID or RESERVED), or NULL; *set
     * gets the set the address maps to either way. */
    wc_line *(*lookup)(wc_tagstore *ts, uint64_t addr, uint32_t *set);
    /* Whether allocate() could make room in `set` now (false: every candidate
     * is RESERVED -> LINE_ALLOC_FAIL).  No side effects. */
    bool (*can_allocate)(const wc_tagstore *ts, uint32_t set);
    /* Makes room for line `tag` in `set` and returns it reset (state `state`,
     * owner from ctx), having passed every valid victim (one or several) to
     * wc_l1_core_evict first; ctx->req is never NULL here; NULL when the replacement policy answers
     * bypass (nothing changed) or no room exists. */
    wc_line *(*allocate)(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                         uint8_t state, const wc_repl_ctx *ctx, uint64_t now);
    /* A later access to a present line (replacement update). */
    void (*touch)(wc_tagstore *ts, uint32_t set, wc_line *line, const wc_repl_ctx *ctx);
    /* The line leaves (the core has done write-back and listeners): clear it. */
    void (*invalidate)(wc_tagstore *ts, uint32_t set, wc_line *line);
    /* Chunks arrived for a present line. */
    void (*fill)(wc_tagstore *ts, uint32_t set, wc_line *line, uint64_t chunks);
    /* Optional: chunks a read miss fetches: it misses `missing`, the line
     * has or awaits `have`.  NULL: the base's whole_line flag decides (all
     * absent chunks of the line, or only `missing`). */
    uint64_t (*miss_chunks)(const wc_tagstore *ts, uint64_t missing, uint64_t have);
    /* Optional: chunks a write of `want` leaves valid in an allocated or
     * present line.  NULL: whole_line ? the whole line : want. */
    uint64_t (*write_chunks)(const wc_tagstore *ts, uint64_t want);
    /* Optional, for stores that place chunks rather than whole lines (TSC,
     * DSC): whether room for `chunks` more of line `tag` (its record, or NULL
     * when absent) can be made in `set` now, without side effects (false ->
     * LINE_ALLOC_FAIL); and, once every check passed, making it (victims go
     * through wc_l1_core_evict or lose chunks).  place() runs after allocate
     * (a new line) or touch (a present one) and before the core adds
     * `chunks` to the line's pending or valid mask. */
    bool (*can_place)(const wc_tagstore *ts, uint32_t set, const wc_line *line, uint64_t tag,
                      uint64_t chunks);
    void (*place)(wc_tagstore *ts, wc_l1_core *core, uint32_t set, wc_line *line, uint64_t chunks,
                  const wc_repl_ctx *ctx, uint64_t now);
    /* Calls fn on every VALID line (flush). */
    void (*each_valid)(wc_tagstore *ts, void (*fn)(void *arg, uint32_t set, wc_line *line),
                       void *arg);
    /* Optional: whether a read of line `tag` that misses in `set` (no line,
     * no MSHR entry) goes around the cache, decided per access by the store
     * (the decoupled L1D's reference counts, BALL).  No side effects.  When
     * it answers true the core neither takes a way nor an MSHR entry (so
     * neither LINE_ALLOC nor MSHR fails apply): it sends the request as a
     * bypass and then calls bypassed().  NULL: never; stores with an array
     * (ts->ta set) are never asked.  `req` is the read (its SM and kernel:
     * profiled-bypass decides per kernel launch and SM). */
    bool (*bypasses)(const wc_tagstore *ts, uint32_t set, uint64_t tag, const wc_mem_req *req);
    /* Required with bypasses: the bypass of line `tag` was sent (the store
     * records the access). */
    void (*bypassed)(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                     const wc_repl_ctx *ctx, uint64_t now);
    /* Optional: counters of the store (and its replacement policy). */
    void (*stats)(const wc_tagstore *ts, void (*emit)(void *ctx, const char *name, double v),
                  void *ctx);
    /* True when a reservation fail of this store is a function of the request,
     * of this L1's own state and of the miss queue's clock only: a failed
     * probe (lookup, can_allocate, can_place, bypasses) changes nothing, and
     * nothing but the core's access, fill, flush and ctl (or an organisation
     * calling wc_l1_core_changed) changes what a probe answers.  The core
     * then answers a retry of the request that failed last with the same
     * fail, without looking it up again, until one of those runs (or a
     * miss-queue slot frees, for MISS_QUEUE_FULL).  False (the default) where
     * something else can change the answer: TSC+'s storage mode follows a
     * duel on SM 0 shared by every SM. */
    bool retry_memo;
} wc_tagstore_ops;

/* Every tag store embeds this first. */
struct wc_tagstore {
    const wc_tagstore_ops *ops;
    /* Non-NULL for a plain set-associative array of wc_line (one line per
     * tag, set = index function): the core's read-hit fast path then scans
     * the set itself instead of calling lookup. */
    wc_tag_array *ta;
    unsigned chunk_log2, nchunks; /* chunk size and chunks per line */
    bool whole_line;              /* a miss fetches (a write validates) the whole line */
};

/* Builds a tag store for (cfg, env) of `core` (an array-backed store keeps its
 * array in core->arr); NULL with err set. */
typedef wc_tagstore *(*wc_tagstore_create_fn)(wc_l1_core *core, const wc_config *cfg,
                                              const wc_l1_env *env, wc_err *err);

struct wc_l1_core {
    wc_l1 base; /* first: wc_l1 * <-> wc_l1_core * */
    wc_tagstore *ts;
    wc_tag_array *ta; /* ts->ta: non-NULL (= &arr) for array-backed stores */
    uint64_t *mq;     /* leave time of each miss-queue slot's last send */
    uint32_t mq_n;
    uint32_t mq_head;       /* mq is a ring sorted ascending from here (l1_core.c) */
    uint32_t mq_need_alloc; /* free slots a read miss that allocates needs */
    /* Per MSHR entry: the first request (an allocate-on-fill install gives
     * it to the replacement policy and takes its owner) and the chunks the
     * waiters use. */
    wc_mem_req *e_req;
    uint64_t *e_used;
    /* Array-backed stores: per MSHR entry, the line (NULL: none yet, an
     * allocate-on-fill install) and set it was opened for, so a fill finds
     * its line without the index function and the set scan. */
    struct wc_l1_entry_line {
        wc_line *line;
        uint32_t set;
    } * e_line;
    uint64_t all; /* every chunk of a line */
    unsigned line_log2;
    bool alloc_on_miss, skip_global;
    char wp, wa;
    wc_mshr mshr;
    /* -l1_mshr_per_warp (0: off, and the arrays are NULL): the warp slot
     * that opened each entry, and the entries each warp slot holds. */
    uint32_t warp_mshr_max;
    uint16_t *e_warp, *warp_mshr;
    uint32_t n_warp_slots;
    /* The latest reservation fail, while it still holds (ts->ops->retry_memo):
     * the request, its reason, and the cycle from which a miss-queue slot
     * may have freed (UINT64_MAX for the other reasons, which only a change
     * of the L1's state can lift).  live is cleared by every change that can
     * lift it (l1_core.c, "retries of a reservation fail"). */
    struct {
        wc_mem_req req;
        uint64_t until;
        uint32_t set; /* the set of a LINE_ALLOC fail */
        wc_fail_reason why;
        bool live;
    } memo;
    bool retry_memo; /* ts->ops->retry_memo, next to the memo */
    /* The array of an array-backed store, here so the hot paths reach it at a
     * fixed offset from the core (last: it is large). */
    wc_tag_array arr;
};

/* The wc_l1_ops entries of an organisation that is a tag store on the core:
 * everything but its name, help, create and parameters is the core's.  Use as
 *   const wc_l1_ops wc_l1_NAME = {.name = ..., .help = ..., .create = ...,
 *                                 WC_L1_CORE_OPS};                            */
#define WC_L1_CORE_OPS                                                                             \
    .access = wc_l1_core_access, .fill = wc_l1_core_fill, .destroy = wc_l1_core_destroy,           \
    .flush = wc_l1_core_flush, .ctl = wc_l1_core_ctl, .stats = wc_l1_core_stats

/* Creates an L1 of organisation `ops` around the tag store `mk` builds. */
wc_l1 *wc_l1_core_create(const wc_l1_ops *ops, wc_tagstore_create_fn mk, const wc_config *cfg,
                         const wc_l1_env *env, wc_err *err);

/* Something that decides the outcome of an access changed outside the
 * core's own entry points (an organisation's ctl): a remembered reservation
 * fail no longer holds. */
static inline void wc_l1_core_changed(wc_l1_core *c)
{
    c->memo.live = false;
}

/* The first cycle at which the reservation fail answered last, in cycle
 * `now`, can be answered otherwise for the same request: the memo's `until`
 * (UINT64_MAX = WC_NEVER for the reasons only a fill, a flush, a ctl or a
 * successful access can lift; the cycle a miss-queue slot frees for
 * MISS_QUEUE_FULL), or now + 1 when no fail is remembered (no retry_memo).
 * Only the core's entry points lift it (wc_stage_fail_holds_until). */
uint64_t wc_l1_core_fail_holds_until(const wc_l1 *l1, uint64_t now);

/* Whether the read `req`, presented in cycle `at` (after now) with nothing
 * presented to or filled into this L1 before it, would fail: then the
 * fail is remembered as that lookup would remember it, *why is its reason
 * and the result is the first cycle it may be answered otherwise (as
 * wc_l1_core_fail_holds_until).  `at` when it would not fail, or when it
 * cannot tell without the lookup (only a read of a line its array-backed
 * set does not hold is decided, and only while every MSHR entry or the miss
 * queue is taken: absent_line_read's checks, which change nothing).  Nothing is counted: the caller
 * counts the attempt once cycle `at` has passed without a fill (wc_stage_fail_ahead). */
uint64_t wc_l1_core_fail_ahead(wc_l1 *l1, const wc_mem_req *req, uint64_t at, wc_fail_reason *why);

/* Removes a valid line: dirty data is written back, listeners and the
 * utilisation histogram see it, then the store invalidates it. */
void wc_l1_core_evict(wc_l1_core *c, uint32_t set, wc_line *line, uint64_t now);

/* The core's wc_l1_ops functions, for organisations' ops tables. */
wc_outcome wc_l1_core_access(wc_l1 *l1, const wc_mem_req *req, uint64_t now, wc_fail_reason *why);
void wc_l1_core_fill(wc_l1 *l1, uint64_t addr, uint64_t chunks, uint64_t now);
void wc_l1_core_destroy(wc_l1 *l1);
void wc_l1_core_flush(wc_l1 *l1, uint64_t now);
int64_t wc_l1_core_ctl(wc_l1 *l1, int op, int64_t arg);
void wc_l1_core_stats(const wc_l1 *l1, void (*emit)(void *ctx, const char *name, double v),
                      void *ctx);

/* The array-backed tag stores (tagstore_array.c): "line" (a miss fetches
 * the whole line, GPGPU-Sim type N) and "sector" (a miss fetches the missing
 * requested chunks, type S).  32 B chunks. */
wc_tagstore *wc_tagstore_line_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                     wc_err *err);
wc_tagstore *wc_tagstore_sector_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                       wc_err *err);

/* Where configuration errors point: the file the configuration came from. */
static inline const char *wc_l1_config_where(const wc_config *cfg)
{
    return cfg->source_file[0] ? cfg->source_file : "config";
}

#endif
