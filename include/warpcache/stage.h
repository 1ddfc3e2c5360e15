/*
 * stage.h - the memory-stage plug-in API: what sits between issue and the
 * L1, and the environment the SM gives it.
 *
 * When a warp issues a global/local memory instruction the coalescer splits
 * it into requests and hands them to the SM's memory stage (`accept`).  Each
 * cycle in which it has work the stage presents requests to the L1
 * (wc_stage_present: the L1 access with the SM's bookkeeping, knobs,
 * listeners and scheduler notifications), may send a request around the L1
 * (wc_stage_send_around: the data goes straight back to the warp), and says
 * when an instruction's requests have all been presented
 * (wc_stage_inst_sent).  While `full` is set memory instructions wait at
 * issue; `retry_at` is the next cycle the stage needs to run (WC_NEVER while
 * it waits for something only a fill or a knob change can bring: the SM sets
 * it to that cycle).  A stage that holds requests of many warps chooses which
 * reaches the L1 each cycle (MRPB); `barrier` tells it that a warp arrived
 * at a barrier, so it can keep a block's requests from crossing one.
 *
 * What a stage may rely on: the wc_stage_* calls below, the SM view
 * (env->view, smview.h), the configuration (env->cfg) and the simulator
 * handle (env->sim) for the public calls of sim.h and control.h (listeners,
 * timeline).  The other fields of wc_stage_env are where the engine keeps
 * what the inline calls read; a stage does not touch them.  The calls run
 * once per request on the hot path, so the common case is inline here and
 * the rarely taken branches call into the engine through the pointers.
 *
 * A new stage is one file with a wc_mstage_ops registered with
 * WC_PLUGIN(stage, ...) (warpcache/plugin.h), chosen with -mem_stage
 * NAME[:params]; it includes only public headers.  The default "inorder" stage is written
 * against this API too, and the SM calls its inline code directly (its
 * fast path, src/core/stages/memstage_inorder.h).
 */
#ifndef WARPCACHE_STAGE_H
#define WARPCACHE_STAGE_H

#include "warpcache/cache.h"
#include "warpcache/coalescer.h" /* WC_MAX_REQS_PER_INST */
#include "warpcache/params.h"
#include "warpcache/plugin.h"
#include "warpcache/sim.h"
#include "warpcache/smview.h"

/* A load instruction in flight as a stage sees it (the head of the engine's
 * load record): how many of its requests are still unanswered, and whether
 * all of them have left the stage. */
typedef struct wc_stage_load {
    uint32_t outstanding;
    uint8_t all_sent;
} wc_stage_load;

typedef struct wc_stage_env wc_stage_env;

struct wc_stage_env {
    const wc_smview *view; /* the SM (smview.h) */
    const wc_config *cfg;  /* the simulator's configuration */
    wc_sim *sim;           /* for wc_sim_add_l1_listener in create */
    /* Kept by the engine, read by the inline calls below. */
    wc_l1 *l1;            /* the SM's L1 (built after the stage: not in create) */
    bool hooks;           /* present needs the engine's full version */
    uint32_t hit_latency; /* cycles from an L1 hit to its answer */
    unsigned char *loads; /* load record 0 (a wc_stage_load at its start) */
    size_t load_stride;   /* the distance between load records */
    uint64_t *stall_by;   /* [WC_FAIL__COUNT]: stall cycles by reason */
    /* The engine's out-of-line parts. */
    wc_outcome (*present_hooked)(wc_stage_env *env, const wc_mem_req *req, uint32_t load,
                                 uint64_t now, wc_fail_reason *why);
    void (*respond)(wc_stage_env *env, uint32_t load, uint64_t t);
    void (*load_complete)(wc_stage_env *env, uint32_t load);
    void (*send_around)(wc_stage_env *env, const wc_mem_req *req, uint32_t load, uint64_t now);
    void (*stage_freed)(wc_stage_env *env, uint64_t now);
    void (*count_bypassed)(wc_stage_env *env, const wc_mem_req *req);
    uint64_t (*fail_holds_until)(wc_stage_env *env, uint64_t now); /* NULL: never sleeps */
    uint64_t (*fail_ahead)(wc_stage_env *env, const wc_mem_req *req, uint64_t at,
                           wc_fail_reason *why); /* NULL: never tells */
};

typedef struct wc_mstage {
    const struct wc_mstage_ops *ops;
    wc_stage_env *env;
    bool full;         /* memory instructions cannot issue (read by the schedulers) */
    bool holding;      /* requests are waiting in the stage */
    uint64_t retry_at; /* next cycle `cycle` has work; WC_NEVER: until a fill or knob change */
    /* retry_at is a sleep over a held reservation fail
     * (wc_stage_fail_holds_until, wc_stage_fail_ahead): a fill or a knob
     * change ends it early, as it ends WC_NEVER (the SM sets retry_at to that
     * cycle).  The engine clears it after create; the stage clears it when it
     * next runs. */
    bool wake_on_fill;
} wc_mstage;

typedef struct wc_mstage_ops {
    const char *name;
    const char *help;
    /* Its parameters (-mem_stage NAME:key=value,...), NULL-terminated; NULL: none. */
    const wc_param_desc *params;
    /* Creates the stage of one SM from its parsed parameters (read by name:
     * wc_param_u ...).  It may subscribe L1 listeners
     * (wc_sim_add_l1_listener(env->sim)).  The engine sets ops and env of the
     * result. */
    wc_mstage *(*create)(wc_stage_env *env, const wc_param_values *params, wc_err *err);
    void (*destroy)(wc_mstage *ms);
    /* Takes the n >= 1 requests of one instruction of warp `slot`; `load`
     * is its load record (WC_NO_REC for stores).  Only called while !full.
     * `reqs` is the SM's coalescer buffer: it is rewritten by the next
     * accept, so a stage that is not full while it holds requests copies
     * them. */
    void (*accept)(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n, uint32_t load,
                   uint64_t now);
    /* Runs one cycle; called when holding && retry_at <= now. */
    void (*cycle)(wc_mstage *ms, uint64_t now);
    /* Optional: warp `slot` arrived at a barrier, or retired while other
     * warps of its block live (which may release their barrier). */
    void (*barrier)(wc_mstage *ms, unsigned slot, uint64_t now);
    /* Optional: the stage's own cumulative counters, emitted as extras
     * (summed over SMs; called at each kernel's statistics snapshot, never
     * per request). */
    void (*stats)(const wc_mstage *ms, void (*emit)(void *ctx, const char *name, double v),
                  void *ctx);
} wc_mstage_ops;

#define WC_NO_REC UINT32_MAX /* no load record (stores, sends without a load) */

static inline wc_stage_load *wc_stage_load_of(wc_stage_env *env, uint32_t load)
{
    return (wc_stage_load *)(env->loads + (size_t)load * env->load_stride);
}

/* Presents one request to the L1 for load `load` (WC_NO_REC: none).  On
 * WC_RESERVATION_FAIL nothing changed and *why says why; a hit is answered
 * after the hit latency; the SM's knobs (streaming bypass) apply, listeners
 * see the access, the warp's scheduler hears of a miss. */
static inline wc_outcome wc_stage_present(wc_stage_env *env, const wc_mem_req *req, uint32_t load,
                                          uint64_t now, wc_fail_reason *why)
{
    /* Knobs, listeners or a scheduler that wants misses: the full version. */
    if (env->hooks) return env->present_hooked(env, req, load, now, why);
    wc_stage_load *ld = load != WC_NO_REC ? wc_stage_load_of(env, load) : NULL;
    if (ld) ld->outstanding++; /* before access: a hit may answer at once */
    wc_outcome o = env->l1->ops->access(env->l1, req, now, why);
    if (o == WC_RESERVATION_FAIL) {
        if (ld) ld->outstanding--;
    } else if (ld && o == WC_HIT) {
        env->respond(env, load, now + env->hit_latency);
    }
    return o;
}

/* Every request of the instruction with load record `load` has been sent. */
static inline void wc_stage_inst_sent(wc_stage_env *env, uint32_t load)
{
    if (load == WC_NO_REC) return;
    wc_stage_load *ld = wc_stage_load_of(env, load);
    ld->all_sent = 1;
    if (ld->outstanding == 0) env->load_complete(env, load);
}

/* Sends a read around the L1: the response goes straight to the warp. */
static inline void wc_stage_send_around(wc_stage_env *env, const wc_mem_req *req, uint32_t load,
                                        uint64_t now)
{
    env->send_around(env, req, load, now);
}

/* Counts a read sent around the L1 as a BYPASSED access of the L1 (a stage
 * that bypasses by itself, MRPB, so the L1's statistics see it). */
static inline void wc_stage_count_bypassed(wc_stage_env *env, const wc_mem_req *req)
{
    env->count_bypassed(env, req);
}

/* The stage is no longer full: schedulers whose warps waited for it look
 * again this cycle (the stage runs before issue). */
static inline void wc_stage_freed(wc_stage_env *env, uint64_t now)
{
    env->stage_freed(env, now);
}

/* Cycles the stage was stalled by a reservation fail of reason `why` (the
 * SM's counter; called once per stall, where the stage ends it). */
static inline void wc_stage_add_stall(wc_stage_env *env, uint64_t cycles, wc_fail_reason why)
{
    env->stall_by[why] += cycles;
}

/* The first cycle at which the reservation fail the L1 answered last, in
 * cycle `now`, can answer otherwise when the same request is presented again
 * (WC_NEVER: not before a fill, which the SM turns into a retry); now + 1
 * when it may, or when something sees every attempt (access listeners, knob
 * flags, controllers reading fail counts by period or ctl-ing the L1, a
 * -max_cycles stop).  A stage whose head failed may then sleep to the
 * earlier of that cycle and the next one in which it has other work to do
 * (ms->wake_on_fill set, so that a fill still wakes it), and count the
 * attempts of the cycles it slept through with wc_stage_count_fails when it
 * next runs: each would have failed for the same reason, changing nothing
 * but the L1's fail counters. */
static inline uint64_t wc_stage_fail_holds_until(wc_stage_env *env, uint64_t now)
{
    return env->fail_holds_until ? env->fail_holds_until(env, now) : now + 1;
}

/* Whether presenting `req` in cycle `at` (the next cycle), with nothing
 * presented to or filled into the L1 before it, would fail: then *why is
 * the reason and the result the first cycle from which it may be answered
 * otherwise, as wc_stage_fail_holds_until says after a fail; `at` when it
 * would not fail, when the L1 cannot tell without the lookup, or when
 * something sees every attempt.  Nothing is counted: a stage that sleeps
 * over cycle `at` on this answer (ms->wake_on_fill set: a fill in `at` wakes
 * it, and it presents the request then as before) counts the attempt with
 * wc_stage_count_fails once `at` has passed. */
static inline uint64_t wc_stage_fail_ahead(wc_stage_env *env, const wc_mem_req *req, uint64_t at,
                                           wc_fail_reason *why)
{
    return env->fail_ahead ? env->fail_ahead(env, req, at, why) : at;
}

/* Counts n attempts that failed for reason `why` without presenting them
 * (the cycles of a held fail a stage slept through). */
static inline void wc_stage_count_fails(wc_stage_env *env, wc_fail_reason why, uint64_t n)
{
    env->l1->stats.outcome[WC_RESERVATION_FAIL] += n;
    env->l1->stats.fail[why] += n;
}

/* Lines the SM's L1 has filled so far (a stage waiting for a fill). */
static inline uint64_t wc_stage_l1_fills(const wc_stage_env *env)
{
    return env->l1->stats.fills;
}

/* Cycles from an L1 hit to its answer; a stage that models the hit latency
 * itself (the L1 latency queue) sets 0 in create. */
static inline uint32_t wc_stage_hit_latency(const wc_stage_env *env)
{
    return env->hit_latency;
}

static inline void wc_stage_set_hit_latency(wc_stage_env *env, uint32_t cycles)
{
    env->hit_latency = cycles;
}

/* Stops the run with exit status 1 and `msg` (a stage that cannot go on:
 * out of memory). */
static inline void wc_stage_fail(wc_stage_env *env, const char *msg)
{
    wc_sim_fail(env->sim, msg);
}

#endif
