/*
 * gpu.h - internal state of the cycle engine: the GPU (kernel, dispatch,
 * event heap, memory side) and its SMs (warps, scoreboard, schedulers, memory
 * stage, L1).  sm.c runs one SM for one cycle; gpu.c runs the clock.
 *
 * Private to the engine (the .c files of src/core): no plug-in includes it
 * (tests/cli_plugins.sh checks).  What plug-ins see of these records is
 * the SM view (warpcache/smview.h, filled by sm.c's init_view), the stage
 * environment (warpcache/stage.h: `env`, the SM's first member) and the
 * controller I/O (warpcache/control.h).
 */
#ifndef WC_CORE_GPU_H
#define WC_CORE_GPU_H

#include "core/events.h"
#include "core/memstage.h"
#include "core/sched.h"
#include "core/shmem_unit.h"
#include "analysis/analyses.h"
#include "mem/mem.h"
#include "warpcache/analysis.h"
#include "warpcache/coalescer.h"
#include "warpcache/control.h"
#include "warpcache/sim.h"
#include "warpcache/smview.h"
#include "warpcache/stage.h"

#define WC_MAX_PENDING 16  /* scoreboard entries per warp */
#define WC_MAX_SLOTS   256 /* warp slots per SM (8192 threads) */

enum { W_FREE = WC_WARP_FREE, W_ACTIVE = WC_WARP_ACTIVE, W_DRAINING = WC_WARP_DRAINING };

/* A register write not yet done: ready at `ready` (WC_NEVER while a load is out). */
typedef struct wc_pending {
    uint64_t ready;
    uint16_t reg;
} wc_pending;

typedef struct wc_warp {
    uint32_t block; /* block slot in the SM */
    uint32_t wib;   /* warp index within its block */
    uint8_t state;
    uint8_t at_barrier;
    uint8_t npend;
    uint8_t ibuf;       /* -ifetch 1: instructions left in its instruction buffer */
    uint8_t need_fetch; /* -ifetch 1: the buffer is empty and waits for the fetch unit */
    uint8_t loads_out;  /* its load instructions in flight (-ldst_loads_per_warp) */
    /* -exit_store_acks 1: its store requests not yet taken by the L1, and
     * when the last acknowledgement of those taken reaches the SM */
    uint32_t stores_out;
    uint64_t acked_at;
    wc_pending pend[WC_MAX_PENDING];
    wc_winst inst; /* next instruction to issue */
} wc_warp;

typedef struct wc_block {
    bool used;
    uint64_t id;     /* linear block id */
    void *src_block; /* the source's handle */
    uint32_t nwarps, live, at_barrier;
    uint16_t slot[WC_MAX_BLOCK_WARPS]; /* warp i of the block runs in warp slot slot[i] */
} wc_block;

/* A load in flight: completes when every request has been answered. */
typedef struct wc_load {
    wc_stage_load h; /* first: what a memory stage sees (stage.h) */
    uint64_t ready;
    uint32_t next_free;
    uint16_t warp;
    uint8_t nregs;
    uint16_t regs[WC_MAX_DST];
} wc_load;

typedef struct wc_sim wc_gpu;

typedef struct wc_sm {
    /* first, so that the engine's calls behind the stage's environment find
     * the SM at the same address (sm_of_env in sm.c) */
    wc_stage_env env;
    unsigned id;
    wc_gpu *gpu;
    wc_l1 *l1;
    wc_warp *warps;
    uint64_t *gate;     /* per slot: earliest cycle of the next issue (WC_NEVER: parked) */
    uint8_t *needs_mem; /* per slot: the next instruction needs the memory stage */
    unsigned n_slots;
    wc_block *blocks;
    unsigned n_block_slots, used_blocks;
    wc_sched *sched;
    wc_sched **slot_sched; /* per slot: its scheduler, sched[slot % n_sched] (no division) */
    unsigned n_sched;
    wc_mstage *ms; /* the memory stage (stage.h); env.hit_latency: cycles from an L1 hit to its
                      answer (-gpgpu_l1_latency; a stage may change it) */
    wc_mem_req reqs[WC_MAX_REQS_PER_INST]; /* the coalescer's output for the stage */
    const wc_mem_req *cur_req;             /* request the L1 is serving (eviction events) */
    /* what the knobs (knob.h) add to a read: their req_flag while not 0 */
    uint8_t req_flags;
    /* env.hooks: wc_stage_present needs its full version (knobs, listeners, on_miss) */
    bool inorder; /* the stage is the default one: its code is called directly */
    /* memory instructions issued ahead of the stage (mem_issue.c); mi_cap 0:
     * none, the stage's `full` blocks issue directly */
    struct wc_mi_inst *mi;
    unsigned mi_cap, mi_head, mi_count;
    bool mi_staged; /* the head is the stage's instruction */
    bool mem_full;  /* with mi: no place left, issue of memory instructions waits */
    /* -ifetch 1 (frontend in sm.c): the warp in decode (-1: none), the last
     * warp fetched, and how many warps wait for a fetch */
    bool ifetch;
    /* -exit_store_acks 1: warps wait for their stores' acknowledgements
     * (store_taken in sm.c; present goes through the hooked version) */
    bool store_acks;
    /* -sched_rotate 1: which scheduler issues first moves on by one every
     * cycle (cycle % n_sched), as GPGPU-Sim's Issue_Prio does */
    bool sched_rotate, sched_pow2;
    int decoding;
    unsigned fetch_last, n_need_fetch;
    /* a bit per slot whose need_fetch is 1 (waits for the fetch unit): the
     * fetch's round robin finds the next one without visiting every slot */
    uint64_t fetch_wait[WC_MAX_SLOTS / 64];
    struct wc_icache *icache; /* -icache 1 (icache.c): the instruction cache; NULL: always hits */
    uint32_t kernel_id;
    wc_ready_fn ready;  /* warp readiness test given to the schedulers */
    uint32_t loads_cap; /* -ldst_loads_per_warp, 0 = none (then `ready` does not test it) */
    uint32_t op_lat[WC_OP__COUNT]; /* result latency by instruction class (op_latency.c) */
    /* "may this warp issue a load now" (throttling); NULL = always */
    wc_load_gate_fn load_gate;
    void *load_gate_ctx;
    /* loads in flight */
    wc_load *loads;
    uint32_t n_loads, free_load;
    /* draining warps: stream ended, waiting for their loads */
    uint16_t *draining;
    unsigned n_draining;
    double port_free; /* injection port into the interconnect */
    uint64_t wake;    /* next cycle this SM has something to do */
    uint64_t drain_wake;
    /* What the last pass over the draining warps found: the earliest cycle
     * one of them can retire (WC_NEVER: none until a load or a store ack
     * comes back), or 0 once something changed one of them since (a warp
     * started draining, a load of one completed, a store of one was taken).
     * A cycle before it finds what that pass found, so it skips the pass
     * (retire_drained in sm.c). */
    uint64_t drain_due;
    /* At most the earliest of the schedulers' wake times, and equal to it
     * whenever it is later than the cycle being run: every write that lowers
     * a scheduler's wake lowers it too, and a cycle that finds it due (at or
     * before now) looks at the schedulers and sets it to their minimum.  So
     * an SM cycle whose schedulers are not due skips them on one comparison. */
    uint64_t sched_low;
    uint64_t now;
    /* counters (cumulative) */
    uint64_t warp_insts, thread_insts, gmem_reqs;
    uint64_t stall_by[WC_FAIL__COUNT]; /* memory-stage stall cycles by the fail's reason */
    uint64_t op_count[WC_OP__COUNT];
    uint64_t up_bytes, down_bytes; /* traffic to and from the L2, bytes on the wire */
    wc_shmem_unit shmem;           /* shared-memory instructions in the LD/ST unit (shmem_unit.c) */
} wc_sm;

/* A controller instance with what the engine keeps for it. */
typedef struct wc_ctl_slot {
    wc_ctl c;
    uint64_t next;            /* next period boundary (WC_NEVER: none) */
    uint64_t last;            /* the last boundary (or the kernel's start) */
    wc_period_counters *snap; /* [n_sm + 1]: cumulative counters at the last boundary */
    struct wc_kstate *kstate; /* state per kernel name */
    size_t n_kstate, cap_kstate;
    void **cur_state; /* the running kernel's entry */
} wc_ctl_slot;

typedef struct wc_kstate {
    char name[256];
    void *state;
} wc_kstate;

struct wc_sim {
    wc_config cfg;
    wc_mem mem;
    wc_sm *sms;
    wc_smview *views; /* [n_sm]: each SM's read-only view for plug-ins (smview.h) */
    unsigned n_sm;
    wc_evq events;
    /* -icnt_model islip: responses waiting for crossbar records, by id */
    struct wc_deferred *deferred;
    uint32_t cap_deferred;
    uint64_t *live; /* bitset: SMs whose wake time is not WC_NEVER */
    const wc_l1_ops *l1_ops;
    void *l1_shared; /* the organisation's block shared by every SM's L1 (or NULL) */
    const wc_sched_ops *sched_ops;
    wc_param_values sched_params; /* cfg.scheduler's, parsed once */
    const wc_mstage_ops *mstage_ops;
    wc_param_values mstage_params; /* cfg.mem_stage's, parsed once */
    uint32_t mem_issue_ahead;      /* cfg.mem_issue_ahead resolved (issue_ahead.h), once */
    wc_l1_listener *listeners;     /* no fixed limit */
    const void *l1_data;           /* wc_sim_set_l1_data: every L1's env.data */
    struct wc_rdhist *rd;          /* -l1_rd_hist's listener state, or NULL */
    unsigned n_listeners, cap_listeners, n_access_listeners;
    unsigned n_user_listeners; /* added before the run; the rest by its schedulers and stages */
    bool building;             /* build() is creating the SMs */
    wc_l1_listener fanout;     /* calls every listener */
    /* GPU-wide controllers (control.c) */
    wc_ctl_slot *ctls;
    unsigned n_ctls;
    uint64_t ctl_next;         /* earliest period boundary of any controller (WC_NEVER: none) */
    uint64_t *knobs;           /* [n_sm * knobs]: what controllers asked for (knob.h) */
    uint64_t *knobs_applied;   /* [n_sm * knobs]: what the SMs run with */
    wc_period_counters *pc_sm; /* [n_sm + 1]: scratch for a period's counters */
    /* analyses (-analysis; src/analysis/): listeners and counters only */
    wc_analysis_set analyses;
    wc_load_gate_fn load_gate; /* installed on every SM */
    void *load_gate_ctx;
    wc_stats *st; /* the run's statistics: the timeline is recorded into it */
    wc_progress_fn progress;
    void *progress_ctx;
    /* current kernel */
    wc_source *src;
    wc_kernel k;
    uint64_t n_blocks, next_block, blocks_done;
    unsigned max_blocks_per_sm, warps_per_block;
    unsigned rr;      /* dispatch round-robin pointer */
    unsigned last_sm; /* the SM that took the last block dispatched (-block_rr_carry) */
    bool failed;
    bool truncated; /* stopped by -max_cycles */
    wc_err *err;
};

/* The stage is no longer full: schedulers whose warps waited for it look
 * again this cycle (the stage runs before issue). */
/* Sets warp `slot`'s need_fetch (0: its buffer is not waiting, 1: waits for
 * the fetch unit, 2: -icache 1, waits for its miss), keeping fetch_wait. */
static inline void wc_sm_set_need_fetch(wc_sm *sm, unsigned slot, uint8_t v)
{
    uint64_t bit = 1ull << (slot & 63);
    if (v == 1)
        sm->fetch_wait[slot >> 6] |= bit;
    else
        sm->fetch_wait[slot >> 6] &= ~bit;
    sm->warps[slot].need_fetch = v;
}

/* The fetch unit's next warp: the first slot after fetch_last, round robin
 * over the n_slots slots, whose need_fetch is 1; -1 when none is.  The same
 * slot as visiting fetch_last + 1, + 2, ... (mod n_slots) one by one: the
 * word holding fetch_last + 1 from that bit on, the words after it, and
 * that word again whole (its bits from fetch_last + 1 on are known clear). */
static inline int wc_sm_next_fetch(const wc_sm *sm)
{
    unsigned from = sm->fetch_last + 1 == sm->n_slots ? 0 : sm->fetch_last + 1;
    unsigned nw = (sm->n_slots + 63) / 64, w = from >> 6;
    uint64_t m = sm->fetch_wait[w] & (~0ull << (from & 63));
    for (unsigned k = 0; k <= nw; k++) {
        if (m) return (int)(w * 64 + (unsigned)__builtin_ctzll(m));
        w = w + 1 == nw ? 0 : w + 1;
        m = sm->fetch_wait[w];
    }
    return -1;
}

static inline void wc_sm_stage_freed(wc_sm *sm, uint64_t now)
{
    for (unsigned i = 0; i < sm->n_sched; i++)
        if (sm->sched[i].wake > now) sm->sched[i].wake = now;
    if (sm->sched_low > now) sm->sched_low = now;
    if (sm->wake > now) sm->wake = now;
}

/* sm.c */
void wc_sm_respond(void *ctx, uint32_t cookie, uint64_t t);
void wc_sm_load_complete(wc_sm *sm, uint32_t id);
void wc_sm_fanout_access(wc_gpu *g, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                         uint64_t now);
/* The full version of wc_stage_present (stage.h): knobs, listeners, a
 * scheduler's on_miss; and a read sent around the L1. */
wc_outcome wc_sm_present_hooked(wc_sm *sm, const wc_mem_req *req, uint32_t load, uint64_t now,
                                wc_fail_reason *why);
void wc_sm_send_around(wc_sm *sm, const wc_mem_req *r, uint32_t load, uint64_t now);
int wc_sm_init(wc_sm *sm, wc_gpu *gpu, unsigned id, wc_err *err);
int wc_sm_init_l1(wc_sm *sm, wc_err *err);
/* Applies the knobs `want` ([knobs], registry order) to the SM from cycle
 * `now` on, calling the declaring consumers' hooks for the ones that differ
 * from `have`, which then holds `want`. */
void wc_sm_apply_knobs(wc_sm *sm, const uint64_t *want, uint64_t *have, uint64_t now);
void wc_sm_update_hooks(wc_sm *sm);
void wc_sm_set_load_gate(wc_sm *sm, wc_load_gate_fn fn, void *ctx);
void wc_sm_free(wc_sm *sm);
void wc_sm_cycle(wc_sm *sm, uint64_t now);
bool wc_sm_block_fits(const wc_sm *sm);
int wc_sm_start_block(wc_sm *sm, uint64_t block_id, uint64_t now);
void wc_sm_deliver(wc_sm *sm, const wc_event *ev);

/* respond.c: what wc_sim_push_response leaves to it: a fill of more than 32
 * chunks (two events), or a push that failed to grow the queue (tried once
 * more; then the run fails). */
void wc_sim_push_response_slow(wc_sim *g, wc_event ev, uint32_t hi);

/* Queues the response `ev` (at ev.time); `hi` is chunks 32..63 of a fill,
 * which take a second event (a line of more than 32 chunks).  Inline: every
 * miss of every SM comes through here. */
static inline __attribute__((always_inline)) void wc_sim_push_response(wc_sim *g, wc_event ev,
                                                                       uint32_t hi)
{
    if ((hi && ev.kind == WC_EV_FILL) || wc_evq_push(&g->events, ev) < 0)
        wc_sim_push_response_slow(g, ev, hi);
}
/* -icnt_model islip: the response waits for the crossbar's record `rec`
 * (mem/xbar.h); the engine queues it when the record completes. */
void wc_sim_defer_response(wc_sim *g, uint32_t rec, const wc_event *ev, uint32_t hi);

/* respond.c: the crossbar as far as it is known at `now`; the responses it
 * completed are queued. */
void wc_sim_run_xbar(wc_sim *g, uint64_t now);

/* sim_api.c: replaces the memory stage chosen by -mem_stage (before
 * wc_sim_run); params NULL: the stage's defaults. */
int wc_sim_use_mem_stage(wc_sim *sim, const wc_mstage_ops *ops, const wc_param_values *params,
                         wc_err *err);
/* sim_api.c: replaces the L1 organisation chosen by -l1_org (before wc_sim_run). */
void wc_sim_use_l1_ops(wc_sim *sim, const wc_l1_ops *ops);

/* control.c */
int wc_ctl_create_all(wc_sim *g, wc_err *err);
void wc_ctl_destroy_all(wc_sim *g);
int wc_ctl_build(wc_sim *g, wc_err *err); /* per run: knobs and period buffers */
void wc_ctl_kernel_begin(wc_sim *g, uint64_t now);
void wc_ctl_period(wc_sim *g, uint64_t now);
void wc_ctl_kernel_end(wc_sim *g, uint64_t now);

#endif
