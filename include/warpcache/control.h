/*
 * control.h - the engine's seam for adaptive mechanisms: GPU-wide
 * controllers and the timeline they record into.
 *
 * A controller (TSC+ set dueling, SM dueling, DWT-CS, streaming bypass,
 * static warp limiting ...) is one file with a wc_controller_ops registered
 * with WC_PLUGIN(controller, ...) (warpcache/plugin.h).  The engine calls it at kernel begin
 * (with the kernel's name), at every sampling period boundary (the clock never
 * jumps past one, even across idle stretches it skips) and at kernel end.  It
 * reads the counters of the period that just ended, per SM and for the whole
 * GPU, and writes per-SM knobs (declared by the parts that read them,
 * warpcache/knob.h); the engine applies changed knobs before the
 * first cycle of the next period (a memory stage parked waiting for a fill
 * and schedulers whose warps were outside their window look again then).
 *
 * What a controller may rely on: this header and the ones it includes - the
 * configuration (c->cfg, io->cfg), each SM's read-only view (c->views,
 * io->views: warp slots, blocks, barrier state, kernel id, instructions,
 * time; smview.h), the period counters and the knobs.  It never sees the
 * engine's own records (src/core/gpu.h is private to the engine).
 *
 * Controllers are chosen with the option -controllers
 * ("name[:key=value,...][+name...]", e.g. "stream_bypass:level=l2+swl:warp_limit=4").
 */
#ifndef WARPCACHE_CONTROL_H
#define WARPCACHE_CONTROL_H

#include "warpcache/cache.h"
#include "warpcache/knob.h"
#include "warpcache/plugin.h"
#include "warpcache/params.h"
#include "warpcache/sim.h"
#include "warpcache/smview.h"

/* What one SM (or the whole GPU) did during one sampling period. */
typedef struct wc_period_counters {
    uint64_t cycles; /* length of the period */
    uint64_t warp_insts, thread_insts;
    uint64_t l1_accesses, l1_reads, l1_misses, l1_read_misses; /* misses: MISS + SECTOR_MISS */
    uint64_t l1_outcome[WC_OUTCOME__COUNT];
    uint64_t l1_fails[WC_FAIL__COUNT]; /* reservation fails by reason */
    uint64_t up_bytes, down_bytes;     /* traffic: SM -> L2 and back, bytes on the wire */
    uint64_t l2_accesses, l2_misses;   /* the whole GPU only (0 in per-SM rows) */
    double l1_miss_rate;               /* l1_misses / l1_accesses (0 without accesses) */
    double l1_mpki;                    /* l1_misses per 1000 warp instructions */
} wc_period_counters;

typedef struct wc_ctl wc_ctl;

/* What a hook sees and may change. */
typedef struct wc_ctl_io {
    wc_sim *sim;          /* for wc_sim_record */
    const wc_config *cfg; /* the simulator's configuration */
    uint64_t now;         /* the cycle (a period boundary for `period`) */
    const char *kernel;   /* name of the running kernel */
    unsigned n_sm;
    const wc_smview *views;        /* [n_sm]: each SM (smview.h) */
    const wc_period_counters *sm;  /* [n_sm]: the period that just ended (NULL at kernel begin) */
    const wc_period_counters *gpu; /* sums over SMs plus the L2 (NULL at kernel begin) */
    /* [n_sm * n_knobs]: every SM's knobs (knob.h), read and written with
     * wc_knob_get / wc_knob_set by the ids wc_ctl_knob gave at create;
     * changes apply from the next cycle. */
    uint64_t *knobs;
    unsigned n_knobs;
    /* State kept for this kernel name, surviving relaunches of the kernel:
     * NULL the first time; store a malloc()ed block, the engine frees it. */
    void **kernel_state;
} wc_ctl_io;

typedef struct wc_controller_ops {
    const char *name;
    const char *help; /* one line: what it does (the parameters are listed from `params`) */
    /* Its parameters ("name:key=value,..."), NULL-terminated; NULL: none. */
    const wc_param_desc *params;
    /* It drives the l1_mode knob: the L1 organisation must have modes
     * (wc_l1_ops.n_modes), or the knob would do nothing and the run would
     * silently be the plain L1; such a configuration is refused. */
    bool uses_l1_mode;
    /* The parameter that tells several instances apart (stream_bypass:
     * level), or NULL: one instance at most.  Two instances with the same
     * value would drive the same knobs, the later overriding the first, and
     * are refused. */
    const char *instance_key;
    /* Reads the parsed and checked parameters by name (wc_param_u ...),
     * sets c->period (cycles; 0 = no period hook) and c->priv. */
    int (*create)(wc_ctl *c, const wc_param_values *params, wc_err *err);
    void (*destroy)(wc_ctl *c);                     /* optional */
    void (*kernel_begin)(wc_ctl *c, wc_ctl_io *io); /* optional */
    void (*period)(wc_ctl *c, wc_ctl_io *io);       /* optional */
    void (*kernel_end)(wc_ctl *c, wc_ctl_io *io);   /* optional */
    /* Optional: the controller's own cumulative counters, passed to add() by
     * name; they appear as extras in the report (per kernel: the difference
     * over the kernel, like an L1 organisation's counters). */
    void (*stats)(const wc_ctl *c, void (*add)(void *ctx, const char *name, double v), void *ctx);
} wc_controller_ops;

/* One controller instance of a simulator. */
struct wc_ctl {
    const wc_controller_ops *ops;
    /* Its simulator: create may subscribe L1 listeners to it and install a
     * load gate.  NULL (and cfg, views NULL, n_sm 0) when create is only
     * asked to check the parameters. */
    wc_sim *sim;
    uint64_t period; /* sampling period in cycles, 0 = none (set by create) */
    void *priv;      /* the controller's own state */
    /* Set by the engine before create (after the fields above, so that
     * initializers written for them stay valid). */
    const wc_config *cfg;   /* the simulator's configuration */
    unsigned n_sm;          /* SMs */
    const wc_smview *views; /* [n_sm]: each SM, valid while the simulator runs (smview.h) */
};

/* SM sm's value of knob k (an id from wc_ctl_knob). */
static inline uint64_t wc_knob_get(const wc_ctl_io *io, unsigned sm, wc_knob_id k)
{
    return io->knobs[(size_t)sm * io->n_knobs + k];
}

/* Sets SM sm's knob k from the next cycle on (outside the knob's declared
 * range the run fails, naming the controller and the knob). */
static inline void wc_knob_set(wc_ctl_io *io, unsigned sm, wc_knob_id k, uint64_t v)
{
    io->knobs[(size_t)sm * io->n_knobs + k] = v;
}

/* The id of the knob `name`, for create: an unknown knob is an error naming
 * the controller and the knob (the run's configuration is refused). */
int wc_ctl_knob(const wc_ctl *c, const char *name, wc_err *err);

const wc_controller_ops *wc_controller_find(const char *name);
/* Adds a controller that is not in the registry (tests, embedding programs),
 * before wc_sim_run; -controllers adds the registered ones. */
int wc_sim_add_controller(wc_sim *sim, const wc_controller_ops *ops, const char *params,
                          wc_err *err);
const wc_controller_ops *const *wc_controller_list(size_t *count);

/* Parses -controllers text "NAME[:key=value,...][+NAME...]" against the
 * registry and each controller's schema, and refuses two instances that
 * would drive the same knobs; calls fn (may be NULL: a check only) for each
 * instance in order.  Errors are the reason only ("swl: warp_limit=0: ..."). */
int wc_controllers_parse(const char *spec,
                         int (*fn)(void *ctx, const wc_controller_ops *ops,
                                   const wc_param_values *p, wc_err *err),
                         void *ctx, wc_err *err);

/* A controller that drives the l1_mode knob needs an L1 organisation with
 * modes: -1 with the reason (naming the organisations that have them). */
int wc_controller_check_l1(const wc_controller_ops *ops, const wc_l1_ops *l1, wc_err *err);

/* "May warp `slot` of SM `sm` issue its global memory instruction now?" -
 * the gate throttling mechanisms (CCWS) install before wc_sim_run (or from a
 * controller hook); a refused warp is asked again the next cycle. */
typedef bool (*wc_load_gate_fn)(void *ctx, unsigned sm, unsigned slot);
void wc_sim_set_load_gate(wc_sim *sim, wc_load_gate_fn fn, void *ctx);

/* Timeline: (cycle, sm, key, value) events; sm -1 = the whole GPU.  At most
 * WC_TIMELINE_MAX events are kept per run; later ones are counted as dropped. */
#define WC_TIMELINE_MAX 65536
void wc_sim_record(wc_sim *sim, uint64_t cycle, int sm, const char *key, double value);

#endif
