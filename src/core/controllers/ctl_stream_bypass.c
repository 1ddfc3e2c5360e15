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
 */
#include <stdlib.h>
#include "warpcache/control.h"

typedef struct sb {
    bool l2;
    double threshold; /* fraction */
    wc_knob_id knob;  /* l1_bypass or l2_bypass */
} sb;

static const char *const sb_levels[] = {"l1", "l2", NULL};

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

/* The kernel state: one byte per SM (L1) or one byte (L2), the last mode. */
static void sb_kernel_begin(wc_ctl *c, wc_ctl_io *io)
{
    const sb *b = c->priv;
    const uint8_t *last = *io->kernel_state;
    if (b->l2) {
        set_l2(io, b, last && last[0]);
        return;
    }
    for (unsigned i = 0; i < io->n_sm; i++) set_mode(io, b, i, last && last[i]);
}

static void sb_period(wc_ctl *c, wc_ctl_io *io)
{
    const sb *b = c->priv;
    if (b->l2) {
        const wc_period_counters *g = io->gpu;
        if (g->l2_accesses)
            set_l2(io, b, (double)g->l2_misses / (double)g->l2_accesses > b->threshold);
        return;
    }
    for (unsigned i = 0; i < io->n_sm; i++) {
        const wc_period_counters *p = &io->sm[i];
        if (!p->l1_reads) continue; /* nothing measured: keep the mode */
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
