/*
 * ctl_stream_bypass.c - seed 002's dynamic streaming bypass
 * (002_549a998632bcde66.txt, section 4.1; Table 4: 10K-cycle sampling
 * period, 90 % miss-rate threshold), for the L1 or, separately, the L2.
 *
 * At the end of every sampling period the miss rate of the period is
 * compared with the threshold: above it the cache is bypassed, at or below it
 * the cache is used again.  While bypassing, the cache's tags are still
 * looked up and updated (WC_REQ_STREAM in the L1, WC_REQ_L2_BYPASS in the
 * L2), so the miss rate keeps being measured and the cache can reopen when
 * the access pattern changes (CONV in the paper).
 *
 *   level=l1  each SM decides for its own L1 from its read miss rate (loads:
 *             what the L1 caches; Fermi's L1 does not keep global stores)
 *   level=l2  one decision for the whole L2 from its miss rate, applied to
 *             every SM's loads
 *
 * Every switch is a timeline event (key l1_bypass per SM, l2_bypass with sm
 * -1; value 1 = bypassing, 0 = cache used).  A relaunched kernel starts in the
 * mode its previous launch ended in (state kept per kernel name).
 *
 * throttled=open (default: bypass, deciding from the miss rate alone): an SM
 * whose warp limit a controller has lowered (the warp_limit knob below the
 * run's starting limit and below the warps per scheduler) keeps its L1 open,
 * and the L2 stays open while any SM is throttled.  The paper (section 5)
 * combines the bypass with DWT-CS without saying how they interact; this is
 * the reading in which DWT-CS samples, and runs its limit with, the cache
 * it throttles for.  Only a controller listed before this one has set the
 * knob when this one decides at the same boundary (list DWT-CS first).
 */
#include <stdlib.h>
#include "warpcache/control.h"

typedef struct sb {
    bool l2;
    double threshold;         /* fraction */
    wc_knob_id knob;          /* l1_bypass or l2_bypass */
    bool open_if_throttled;   /* throttled=open */
    wc_knob_id limit_knob;    /* warp_limit, read when open_if_throttled */
    uint64_t start_limit;     /* the run's starting warp limit (0 = none) */
    uint64_t warps_per_sched; /* the most a limit can allow */
} sb;

static const char *const sb_levels[] = {"l1", "l2", NULL};
static const char *const sb_throttled[] = {"bypass", "open", NULL};

static const wc_param_desc sb_params[] = {
    {.key = "level",
     .type = WC_PARAM_ENUM,
     .words = sb_levels,
     .def = 0,
     .help = "the cache bypassed: each SM's L1, or the whole L2"},
    {.key = "period",
     .def = 10000,
     .min = 1,
     .max = 1ull << 40,
     .unit = "cycles",
     .help = "sampling period (seed 002 Table 4: 10K)"},
    {.key = "threshold",
     .type = WC_PARAM_DOUBLE,
     .fdef = 90,
     .fmin = 0,
     .fmax = 100,
     .unit = "%",
     .help = "miss rate above which the cache is bypassed (Table 4: 90 %)"},
    {.key = "throttled",
     .type = WC_PARAM_ENUM,
     .words = sb_throttled,
     .def = 0,
     .help = "an SM whose warp limit a controller lowered: bypass by miss rate as any other "
             "(bypass), or keep the cache open (open; the L2 while any SM is throttled)"},
    {0},
};

static int sb_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    sb *b = calloc(1, sizeof *b);
    if (!b) return wc_errf(err, "out of memory");
    b->l2 = wc_param_u(params, "level") == 1;
    b->threshold = wc_param_d(params, "threshold") / 100.0;
    c->priv = b;
    c->period = wc_param_u(params, "period");
    int knob = wc_ctl_knob(c, b->l2 ? "l2_bypass" : "l1_bypass", err);
    if (knob < 0) return -1;
    b->knob = (wc_knob_id)knob;
    b->open_if_throttled = wc_param_u(params, "throttled") == 1;
    if (!b->open_if_throttled) return 0;
    int limit = wc_ctl_knob(c, "warp_limit", err);
    if (limit < 0) return -1;
    b->limit_knob = (wc_knob_id)limit;
    const wc_config *cfg = c->cfg;
    if (!cfg) return 0; /* a parameter check only */
    uint32_t warps = cfg->warp_size ? cfg->max_threads_per_sm / cfg->warp_size : 0;
    b->warps_per_sched = cfg->n_sched_per_sm ? warps / cfg->n_sched_per_sm : warps;
    b->start_limit = cfg->max_warp_limit;
    return 0;
}

static void sb_destroy(wc_ctl *c)
{
    free(c->priv);
}

/* Sets SM i's switch; records a change. */
static void set_mode(wc_ctl_io *io, const sb *b, unsigned i, bool on)
{
    if (wc_knob_get(io, i, b->knob) == on) return;
    wc_knob_set(io, i, b->knob, on);
    if (!b->l2) wc_sim_record(io->sim, io->now, (int)i, "l1_bypass", on);
}

static void set_l2(wc_ctl_io *io, const sb *b, bool on)
{
    if (wc_knob_get(io, 0, b->knob) == on) return;
    for (unsigned i = 0; i < io->n_sm; i++) set_mode(io, b, i, on);
    wc_sim_record(io->sim, io->now, -1, "l2_bypass", on);
}

/* throttled=open: SM i runs under a limit a controller lowered (0 = none). */
static bool throttled(const wc_ctl_io *io, const sb *b, unsigned i)
{
    if (!b->open_if_throttled) return false;
    uint64_t v = wc_knob_get(io, i, b->limit_knob);
    return v && v < b->warps_per_sched && (!b->start_limit || v < b->start_limit);
}

static bool any_throttled(const wc_ctl_io *io, const sb *b)
{
    for (unsigned i = 0; i < io->n_sm; i++)
        if (throttled(io, b, i)) return true;
    return false;
}

/* The kernel state: one byte per SM (L1) or one byte (L2), the last mode. */
static void sb_kernel_begin(wc_ctl *c, wc_ctl_io *io)
{
    const sb *b = c->priv;
    const uint8_t *last = *io->kernel_state;
    if (b->l2) {
        set_l2(io, b, last && last[0] && !any_throttled(io, b));
        return;
    }
    for (unsigned i = 0; i < io->n_sm; i++)
        set_mode(io, b, i, last && last[i] && !throttled(io, b, i));
}

static void sb_period(wc_ctl *c, wc_ctl_io *io)
{
    const sb *b = c->priv;
    if (b->l2) {
        const wc_period_counters *g = io->gpu;
        if (any_throttled(io, b))
            set_l2(io, b, false);
        else if (g->l2_accesses)
            set_l2(io, b, (double)g->l2_misses / (double)g->l2_accesses > b->threshold);
        return;
    }
    for (unsigned i = 0; i < io->n_sm; i++) {
        const wc_period_counters *p = &io->sm[i];
        if (throttled(io, b, i))
            set_mode(io, b, i, false);
        else if (p->l1_reads) /* nothing measured: keep the mode */
            set_mode(io, b, i, (double)p->l1_read_misses / (double)p->l1_reads > b->threshold);
    }
}

static void sb_kernel_end(wc_ctl *c, wc_ctl_io *io)
{
    const sb *b = c->priv;
    uint8_t *last = *io->kernel_state;
    if (!last && !(last = calloc(io->n_sm, 1))) return;
    *io->kernel_state = last;
    for (unsigned i = 0; i < io->n_sm; i++)
        last[i] = (uint8_t)wc_knob_get(io, b->l2 ? 0 : i, b->knob);
}

const wc_controller_ops wc_ctl_stream_bypass = {
    .name = "stream_bypass",
    .help = "seed 002 streaming bypass: a cache whose period miss rate passes the threshold is "
            "bypassed (tags still updated) until it falls again",
    .params = sb_params,
    .instance_key = "level",
    .create = sb_create,
    .destroy = sb_destroy,
    .kernel_begin = sb_kernel_begin,
    .period = sb_period,
    .kernel_end = sb_kernel_end,
};
WC_PLUGIN(controller, wc_ctl_stream_bypass, 10);
