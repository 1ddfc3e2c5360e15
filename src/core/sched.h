/*
 * sched.h - the warp-scheduler seam.  Each SM has cfg->n_sched_per_sm
 * schedulers; warp slot w belongs to scheduler w % n.  A scheduler keeps its
 * warps oldest-first and, each cycle, offers candidates to the SM's `ready`
 * test in its own order; the first ready one issues.  An active-warp limit
 * (throttling: static warp limiting, DWT-CS, CCWS) restricts the candidates to
 * the `limit` oldest warps.  A new policy is one file with a wc_sched_ops and
 * one line in sched.c.
 *
 * Warps parked until an event (a load, a barrier: gate WC_NEVER) are kept out
 * of the scans altogether: `open` has a bit per position of warps[] that is
 * set while the warp's gate is finite, and policies walk its set bits.
 *
 * A policy may be stateful and parameterised: it declares its parameters
 * (params.h), `create` gets them parsed from the text after the scheduler's
 * name in -gpgpu_scheduler (GPGPU-Sim's positional "two_level_active:6:0:1"
 * or "two_level_active:active=6") and keeps its state in `priv`; optional notifications tell it
 * about issues, returned loads, L1 misses and warps joining or leaving.
 *
 * The warp limit never deadlocks a block: warps waiting at a barrier do not
 * count towards it (`bar`), so the younger warps they wait for get in.
 */
#ifndef WC_CORE_SCHED_H
#define WC_CORE_SCHED_H

#include "warpcache/common.h"
#include "warpcache/plugin.h"
#include "warpcache/params.h"
#include "warpcache/trace.h"

typedef bool (*wc_ready_fn)(void *ctx, unsigned slot);

#define WC_SCHED_MAX   256 /* warps per scheduler */
#define WC_SCHED_WORDS (WC_SCHED_MAX / 64)

typedef struct wc_sched {
    const struct wc_sched_ops *ops;
    uint16_t *warps; /* slots, oldest first */
    unsigned n, cap;
    uint16_t *pos_of;              /* slot -> position in warps[] */
    uint64_t open[WC_SCHED_WORDS]; /* positions whose warp is not parked */
    uint64_t mem[WC_SCHED_WORDS];  /* positions whose warp's next instruction needs memory */
    int last;                      /* slot issued last, -1 if none */
    unsigned limit;                /* consider only the `limit` oldest warps; 0 = all */
    uint64_t wake;                 /* no warp of this scheduler can issue before this cycle */
    const uint64_t *gate;          /* per warp slot: no issue before this cycle (owned by the SM) */
    const uint8_t *needs_mem;      /* per warp slot: next instruction needs the memory stage */
    const bool *mem_busy;          /* the SM's memory stage is taken this cycle */
    uint64_t now, scan_min;        /* set by the SM around pick() */
    uint64_t bar[WC_SCHED_WORDS];  /* positions whose warp waits at a barrier */
    unsigned n_bar;                /* how many */
    void *priv;                    /* the policy's own state (create/destroy) */
    uint8_t notify;                /* WC_SCHED_NOTIFY_*: which notifications the policy has */
    struct wc_sim *sim;            /* for subscribing listeners in create (NULL: only a check) */
    unsigned sm;                   /* the SM it belongs to */
    /* The SM's bound on its schedulers' wake times (wc_sm.sched_low): code
     * here that lowers `wake` lowers it too.  NULL outside an SM. */
    uint64_t *low;
} wc_sched;

enum { WC_SCHED_NOTIFY_ISSUE = 1, WC_SCHED_NOTIFY_LOAD = 2, WC_SCHED_NOTIFY_MEMBERS = 4 };

/* One scan of a scheduler's warps in one cycle.  Policies offer candidates
 * with wc_scan_try() in their own order: the SM's cheap per-slot gate first
 * (remembering the earliest gate seen, which becomes the scheduler's wake
 * time), then the memory stage, then the SM's full readiness check.  The scan
 * lives in locals so the hot loop stays in registers. */
typedef struct wc_scan {
    const uint64_t *gate;
    const uint8_t *needs_mem;
    uint64_t now, min;
    bool mem_busy;
} wc_scan;

static inline wc_scan wc_scan_begin(const wc_sched *s)
{
    wc_scan sc = {s->gate, s->needs_mem, s->now, WC_NEVER, *s->mem_busy};
    return sc;
}

static inline bool wc_scan_try(wc_scan *sc, unsigned w, wc_ready_fn ready, void *ctx)
{
    uint64_t g = sc->gate[w];
    if (g > sc->now) {
        sc->min = g < sc->min ? g : sc->min;
        return false;
    }
    if (sc->mem_busy && sc->needs_mem[w]) return false; /* the SM wakes us when it frees */
    return ready(ctx, w);
}

static inline void wc_scan_end(wc_sched *s, const wc_scan *sc)
{
    if (sc->min < s->scan_min) s->scan_min = sc->min;
}

typedef struct wc_sched_ops {
    const char *name;
    const char *help;
    /* Returns the slot to issue, or -1. */
    int (*pick)(wc_sched *s, wc_ready_fn ready, void *ctx);
    /* Its parameters, NULL-terminated (NULL: none).  After the name they
     * are key=value,... or, as GPGPU-Sim writes them, values in this order
     * separated by ':'. */
    const wc_param_desc *params;
    /* Optional: reads the parsed parameters by name and sets up priv; may
     * subscribe L1 listeners with wc_sim_add_l1_listener(s->sim) when s->sim
     * is not NULL.  Errors give the reason only. */
    int (*create)(wc_sched *s, const wc_param_values *params, wc_err *err);
    void (*destroy)(wc_sched *s); /* optional: frees priv */
    /* Optional notifications. */
    void (*on_add)(wc_sched *s, unsigned slot);    /* a warp joined (youngest) */
    void (*on_remove)(wc_sched *s, unsigned slot); /* a warp's stream ended */
    void (*on_issue)(wc_sched *s, unsigned slot, const wc_winst *in);
    void (*on_load_done)(wc_sched *s, unsigned slot);           /* a load of the warp completed */
    void (*on_miss)(wc_sched *s, unsigned slot, uint64_t addr); /* its request missed in L1 */
} wc_sched_ops;

const wc_sched_ops *wc_sched_find(const char *name);
const wc_sched_ops *const *wc_sched_list(size_t *count);

/* Parses -gpgpu_scheduler "NAME[:key=value,...]" or "NAME[:v1:v2...]":
 * *ops and the checked parameters; the reason only on error. */
int wc_sched_parse(const char *spec, const wc_sched_ops **ops, wc_param_values *params,
                   wc_err *err);

/* Sets up a scheduler for an SM of `cap` warp slots; `params` (parsed by
 * wc_sched_parse; NULL: defaults) goes to create. */
int wc_sched_init(wc_sched *s, const wc_sched_ops *ops, unsigned cap, const wc_param_values *params,
                  struct wc_sim *sim, unsigned sm, wc_err *err);
void wc_sched_free(wc_sched *s);
void wc_sched_add(wc_sched *s, unsigned slot);    /* a warp arrives (youngest, parked) */
void wc_sched_remove(wc_sched *s, unsigned slot); /* a warp finished */

/* Marks a member warp parked (gate WC_NEVER) or not. */
static inline void wc_sched_set_open(wc_sched *s, unsigned slot, bool open)
{
    unsigned p = s->pos_of[slot];
    if (open)
        s->open[p >> 6] |= 1ull << (p & 63);
    else
        s->open[p >> 6] &= ~(1ull << (p & 63));
}

/* Marks a member warp's next instruction as needing the memory stage or not
 * (mirrors the SM's needs_mem[] by position, so scans can skip such warps
 * wholesale while the stage is taken). */
static inline void wc_sched_set_mem(wc_sched *s, unsigned slot, bool mem)
{
    unsigned p = s->pos_of[slot];
    if (mem)
        s->mem[p >> 6] |= 1ull << (p & 63);
    else
        s->mem[p >> 6] &= ~(1ull << (p & 63));
}

/* Open positions of word `wi` below the window of n warps. */
static inline uint64_t wc_sched_open_word(const wc_sched *s, unsigned wi, unsigned n)
{
    uint64_t m = s->open[wi];
    unsigned lo = wi * 64;
    if (n <= lo) return 0;
    if (n - lo < 64) m &= (1ull << (n - lo)) - 1;
    return m;
}

/* The candidates of word `wi` in a scan: open warps in the window, less
 * those that need the memory stage while it is taken.  Skipping those changes
 * no decision: they cannot issue, and the SM wakes every scheduler the cycle
 * the stage frees (so their gates need not bound the scheduler's wake time). */
static inline uint64_t wc_scan_word(const wc_sched *s, const wc_scan *sc, unsigned wi, unsigned n)
{
    uint64_t m = wc_sched_open_word(s, wi, n);
    return sc->mem_busy ? m & ~s->mem[wi] : m;
}

/* Marks a member warp as waiting at a barrier or not. */
static inline void wc_sched_set_bar(wc_sched *s, unsigned slot, bool at)
{
    unsigned p = s->pos_of[slot];
    uint64_t bit = 1ull << (p & 63);
    if (at == !!(s->bar[p >> 6] & bit)) return;
    s->bar[p >> 6] ^= bit;
    s->n_bar += at ? 1 : -1u;
    s->wake = 0; /* the window changed */
    if (s->low) *s->low = 0;
}

unsigned wc_sched_window_slow(const wc_sched *s);

/* Positions 0..n-1 a policy considers: all warps, or the `limit` oldest
 * warps that are not waiting at a barrier (and the barrier waiters among
 * them, which cannot issue anyway). */
static inline unsigned wc_sched_window(const wc_sched *s)
{
    if (!s->limit || s->limit >= s->n) return s->n;
    return s->n_bar ? wc_sched_window_slow(s) : s->limit;
}

#endif
