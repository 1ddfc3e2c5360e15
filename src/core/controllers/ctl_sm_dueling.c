/*
 * ctl_sm_dueling.c - SM dueling for the decoupled L1D (seed 001,
 * ../shared/papers/001_94c1440347ca7d61.txt section 4.3, Table 3): SM 0 always
 * runs the new design (l1_mode 0), SM 1 always the baseline (l1_mode 1: the
 * decoupled L1D with locality threshold 0, every access goes to the L1D, as
 * the paper describes), the other SMs start as SM 1 (Table 3: "the rest SMs
 * follow SM1").  Every `interval` cycles (500) the two miss rates of the
 * period are compared: if SM 0's is higher than SM 1's by more than
 * `threshold` percentage points (10), every other SM uses the baseline,
 * otherwise the new design.  A miss here is an access that did not hit (not
 * HIT and not HIT_RESERVED): a bypass counts as a miss, or the new design,
 * which bypasses most of its misses, would always look better.  A period in
 * which SM 0 or SM 1 made no L1 access keeps the decision.  Each decision is
 * a timeline event "sm_dueling" (sm -1; 0 new design, 1 baseline) at kernel
 * begin and whenever it changes.  With fewer than 2 SMs there is no duel:
 * every SM runs the new design.
 */
#include <stdlib.h>
#include <string.h>

#include "warpcache/control.h"

typedef struct duel {
    uint64_t interval;
    unsigned threshold_pct;
    uint64_t decision; /* the mode of SMs 2..n-1 */
    wc_knob_id mode;   /* the knob l1_mode */
} duel;

static const wc_param_desc duel_params[] = {
    {.key = "interval",
     .def = 500,
     .min = 1,
     .max = 1000000000,
     .unit = "cycles",
     .help = "how often the followers adopt the better mode"},
    {.key = "threshold",
     .def = 10,
     .min = 0,
     .max = 100,
     .unit = "percentage points",
     .help = "miss-rate difference needed to switch"},
    {0},
};

static int duel_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    duel *d = calloc(1, sizeof *d);
    if (!d) return wc_errf(err, "out of memory");
    c->priv = d;
    d->interval = wc_param_u(params, "interval");
    d->threshold_pct = (unsigned)wc_param_u(params, "threshold");
    c->period = d->interval;
    int mode = wc_ctl_knob(c, "l1_mode", err);
    if (mode < 0) return -1;
    d->mode = (wc_knob_id)mode;
    return 0;
}

static void duel_destroy(wc_ctl *c)
{
    free(c->priv);
}

static void apply(duel *d, wc_ctl_io *io)
{
    for (unsigned i = 0; i < io->n_sm; i++)
        wc_knob_set(io, i, d->mode, io->n_sm < 2 || i == 0 ? 0 : i == 1 ? 1 : d->decision);
}

static void duel_kernel_begin(wc_ctl *c, wc_ctl_io *io)
{
    duel *d = c->priv;
    d->decision = io->n_sm < 2 ? 0 : 1;
    apply(d, io);
    wc_sim_record(io->sim, io->now, -1, "sm_dueling", (double)d->decision);
}

/* Accesses that did not hit (bypasses included). */
static uint64_t non_hits(const wc_period_counters *p)
{
    return p->l1_accesses - p->l1_outcome[WC_HIT] - p->l1_outcome[WC_HIT_RESERVED];
}

static void duel_period(wc_ctl *c, wc_ctl_io *io)
{
    duel *d = c->priv;
    if (io->n_sm < 2 || !io->sm[0].l1_accesses || !io->sm[1].l1_accesses) return;
    /* m0/a0 - m1/a1 > t/100, in integers (an exact 10-point gap is not "more") */
    uint64_t a0 = io->sm[0].l1_accesses, a1 = io->sm[1].l1_accesses;
    uint64_t lhs = 100 * non_hits(&io->sm[0]) * a1;
    uint64_t rhs = 100 * non_hits(&io->sm[1]) * a0 + (uint64_t)d->threshold_pct * a0 * a1;
    uint64_t want = lhs > rhs ? 1 : 0;
    if (want == d->decision) return;
    d->decision = want;
    apply(d, io);
    wc_sim_record(io->sim, io->now, -1, "sm_dueling", (double)want);
}

const wc_controller_ops wc_ctl_sm_dueling = {
    .name = "sm_dueling",
    .help = "seed 001's SM dueling for dl1d-static: SM 0 new design, SM 1 baseline, the rest "
            "follow the one with the lower miss rate",
    .params = duel_params,
    .uses_l1_mode = true,
    .create = duel_create,
    .destroy = duel_destroy,
    .kernel_begin = duel_kernel_begin,
    .period = duel_period,
};
WC_PLUGIN(controller, wc_ctl_sm_dueling, 30);
