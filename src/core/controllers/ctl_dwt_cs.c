/*
 * ctl_dwt_cs.c - seed 002's Dynamic Warp Throttling via Cores Sampling
 * (../shared/papers/002_549a998632bcde66.txt section 4.2; Table 4 for the
 * period and the MPKI threshold; section 3.1 for what "MPKI" means there).
 *
 * Detection: at every period boundary the L1 misses of the period are turned
 * into an MPKI.  The paper's Figure 4(b) counts "misses per kilo cycles"
 * (section 3.1), so by default it is L1 misses per 1000 cycles per SM (the
 * GPU's misses / SMs / kilo-cycles of the period); unit=insts uses misses
 * per 1000 warp instructions instead.  After `n` consecutive periods above
 * `threshold` (a period at or below it resets the count) sampling starts.
 * The paper does not say over which SMs: mpki_sms=all (default, today's)
 * divides by every SM, mpki_sms=busy by the SMs that committed an
 * instruction in the period (a grid smaller than the GPU leaves SMs idle,
 * and their zero misses would dilute the busy ones').
 *
 * Sampling: SM k (0-based) runs with first+k active warps per scheduler for
 * `m` periods; first = 1 in the first round (the paper's "core#1 throttles
 * the active warps to only one warp, core#2: two").  SMs past the largest
 * warp count per scheduler run at that largest count (more samples of "no
 * throttling").  The coordinator then picks the SM that committed the most
 * thread instructions in the window (ties: the smallest limit) and every SM
 * adopts its limit for the rest of the kernel.  If the winner ran the
 * round's highest limit and higher limits exist, an extended round samples
 * again with first = the winner's limit (SM 0 re-runs the winner, so it
 * competes with the new candidates; the paper tests "16-24" after core 15).
 *
 * Relaunch: the chosen limit is kept per kernel name.  relaunch=detect (the
 * paper: "when the same kernel is relaunched and MPKI exceeds the threshold,
 * it doesn't sample the cores again") applies it when detection fires;
 * relaunch=begin applies it from the kernel's first cycle.
 *
 * Launches shorter than detection plus sampling: the paper is silent.
 * across_launches=restart (default) forgets an undecided launch's progress,
 * so every launch detects from scratch; across_launches=continue stores it
 * under the kernel name (the detection count, or the sampling round with
 * each SM's instructions so far) and the next launch of that kernel resumes
 * there, the SMs back on their sample limits from its first cycle.  The
 * partial period a launch ends with counts towards neither (periods are
 * whole, as within a launch).
 *
 * N and M are not given in the paper; section 4.2 says detection plus search
 * take "around 60K cycles", i.e. six 10K-cycle periods: n=3, m=3.
 *
 * Timeline (sm -1): dwt_sampling = round number when a round starts,
 * dwt_limit = the limit every SM adopts, dwt_kernel_limit at kernel end = the
 * limit in force (0: not throttled) - the per-kernel report.  Per SM:
 * dwt_sample_limit = the limit it samples with.  With one SM there is nothing
 * to compare: the controller only records dwt_kernel_limit 0.
 */
#include <stdlib.h>
#include <string.h>

#include "warpcache/control.h"

enum dwt_phase { DWT_DETECT, DWT_SAMPLING, DWT_DECIDED };

typedef struct dwt {
    /* parameters */
    double threshold;
    unsigned n, m;
    bool per_insts;      /* unit=insts */
    bool reuse_at_begin; /* relaunch=begin */
    bool busy_sms;       /* mpki_sms=busy */
    bool carry_over;     /* across_launches=continue */
    uint32_t max_limit;  /* warps per scheduler */
    uint32_t base_limit; /* the configured limit outside throttling (0 = none) */
    /* the running kernel */
    enum dwt_phase phase;
    unsigned above;   /* consecutive periods above the threshold */
    unsigned sampled; /* periods of the current round so far */
    unsigned round;
    uint32_t first;  /* SM 0's limit in this round */
    uint32_t chosen; /* the adopted limit (DWT_DECIDED) */
    unsigned n_sm;   /* size of insts */
    uint64_t *insts; /* [n_sm] thread instructions in the round */
    bool remembered; /* kernel_state held a limit at kernel begin */
    uint32_t memory; /* that limit */

    wc_knob_id limit_knob; /* the warp_limit knob (knob.h), found at create */
} dwt;

/* What is kept per kernel name (io->kernel_state): the decided limit, or
 * (across_launches=continue) an undecided launch's progress. */
typedef struct dwt_memory {
    uint32_t limit; /* the adopted limit, when decided */
    bool decided;
    enum dwt_phase phase; /* DWT_DETECT or DWT_SAMPLING: where to resume */
    unsigned above, sampled, round;
    uint32_t first;
    unsigned n_sm;    /* size of insts */
    uint64_t insts[]; /* each SM's thread instructions in the round so far */
} dwt_memory;

static const char *const dwt_units[] = {"cycles", "insts", NULL};
static const char *const dwt_relaunch[] = {"detect", "begin", NULL};
static const char *const dwt_mpki_sms[] = {"all", "busy", NULL};
static const char *const dwt_across[] = {"restart", "continue", NULL};

static const wc_param_desc dwt_params[] = {
    {.key = "period",
     .def = 10000,
     .min = 1,
     .max = 1ull << 40,
     .unit = "cycles",
     .help = "sampling period (seed 002 Table 4: 10K)"},
    {.key = "threshold",
     .type = WC_PARAM_DOUBLE,
     .fdef = 10,
     .fmin = 0,
     .fmax = 1e6,
     .unit = "MPKI",
     .help = "L1 misses per kilo unit above which sampling starts (Table 4: 10)"},
    {.key = "n",
     .def = 3,
     .min = 1,
     .max = 1000,
     .unit = "periods",
     .help = "consecutive periods above the threshold that start sampling"},
    {.key = "m",
     .def = 3,
     .min = 1,
     .max = 1000,
     .unit = "periods",
     .help = "periods each sampled warp limit runs"},
    {.key = "unit",
     .type = WC_PARAM_ENUM,
     .words = dwt_units,
     .def = 0,
     .help = "MPKI per kilo-cycle per SM (cycles) or per kilo warp instruction (insts)"},
    {.key = "relaunch",
     .type = WC_PARAM_ENUM,
     .words = dwt_relaunch,
     .def = 0,
     .help = "a relaunched kernel detects again, or reuses its limit from its first cycle"},
    {.key = "mpki_sms",
     .type = WC_PARAM_ENUM,
     .words = dwt_mpki_sms,
     .def = 0,
     .help = "unit=cycles divides the misses by every SM (all) or by the SMs that committed an "
             "instruction in the period (busy); the paper does not say"},
    {.key = "across_launches",
     .type = WC_PARAM_ENUM,
     .words = dwt_across,
     .def = 0,
     .help = "a launch that ends before deciding: the next launch of the kernel detects from "
             "scratch (restart) or resumes its detection count or sampling round (continue)"},
    {0},
};

static int dwt_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    dwt *d = calloc(1, sizeof *d);
    if (!d) return wc_errf(err, "out of memory");
    c->priv = d;
    int knob = wc_ctl_knob(c, "warp_limit", err);
    if (knob < 0) return -1;
    d->limit_knob = (wc_knob_id)knob;
    c->period = wc_param_u(params, "period");
    d->threshold = wc_param_d(params, "threshold");
    d->n = (unsigned)wc_param_u(params, "n");
    d->m = (unsigned)wc_param_u(params, "m");
    d->per_insts = wc_param_u(params, "unit") == 1;
    d->reuse_at_begin = wc_param_u(params, "relaunch") == 1;
    d->busy_sms = wc_param_u(params, "mpki_sms") == 1;
    d->carry_over = wc_param_u(params, "across_launches") == 1;
    /* With unit=insts the MPKI has no SM count to choose: refuse rather than ignore. */
    if (d->busy_sms && d->per_insts)
        return wc_errf(err, "dwt_cs: mpki_sms=busy applies to unit=cycles only (unit=insts "
                            "divides by warp instructions, not by SMs)");
    const wc_config *cfg = c->cfg;
    if (!cfg) return 0; /* a parameter check only */
    uint32_t warps = cfg->warp_size ? cfg->max_threads_per_sm / cfg->warp_size : 0;
    d->max_limit = cfg->n_sched_per_sm ? warps / cfg->n_sched_per_sm : warps;
    if (d->max_limit == 0) d->max_limit = 1;
    d->base_limit = cfg->max_warp_limit;
    return 0;
}

static void dwt_destroy(wc_ctl *c)
{
    dwt *d = c->priv;
    if (d) free(d->insts);
    free(d);
}

static void set_all(const dwt *d, wc_ctl_io *io, uint32_t limit)
{
    for (unsigned i = 0; i < io->n_sm; i++) wc_knob_set(io, i, d->limit_knob, limit);
}

static void adopt(dwt *d, wc_ctl_io *io, uint32_t limit)
{
    d->phase = DWT_DECIDED;
    d->chosen = limit;
    set_all(d, io, limit);
    wc_sim_record(io->sim, io->now, -1, "dwt_limit", limit);
}

static uint32_t sample_limit(const dwt *d, unsigned sm)
{
    uint64_t l = (uint64_t)d->first + sm;
    return l < d->max_limit ? (uint32_t)l : d->max_limit;
}

static void start_round(dwt *d, wc_ctl_io *io, uint32_t first)
{
    d->phase = DWT_SAMPLING;
    d->round++;
    d->first = first;
    d->sampled = 0;
    memset(d->insts, 0, d->n_sm * sizeof *d->insts);
    wc_sim_record(io->sim, io->now, -1, "dwt_sampling", d->round);
    for (unsigned i = 0; i < io->n_sm; i++) {
        wc_knob_set(io, i, d->limit_knob, sample_limit(d, i));
        wc_sim_record(io->sim, io->now, (int)i, "dwt_sample_limit", sample_limit(d, i));
    }
}

/* across_launches=continue: pick up where the kernel's last launch stopped. */
static void resume(dwt *d, wc_ctl_io *io, const dwt_memory *mem)
{
    if (mem->n_sm != d->n_sm) return; /* another GPU: start afresh */
    d->above = mem->above;
    if (mem->phase != DWT_SAMPLING) return;
    d->phase = DWT_SAMPLING;
    d->round = mem->round;
    d->first = mem->first;
    d->sampled = mem->sampled;
    memcpy(d->insts, mem->insts, d->n_sm * sizeof *d->insts);
    for (unsigned i = 0; i < io->n_sm; i++) {
        wc_knob_set(io, i, d->limit_knob, sample_limit(d, i));
        wc_sim_record(io->sim, io->now, (int)i, "dwt_sample_limit", sample_limit(d, i));
    }
}

static void dwt_kernel_begin(wc_ctl *c, wc_ctl_io *io)
{
    dwt *d = c->priv;
    if (d->n_sm != io->n_sm) {
        free(d->insts);
        d->insts = calloc(io->n_sm, sizeof *d->insts);
        d->n_sm = d->insts ? io->n_sm : 0;
    }
    d->phase = DWT_DETECT;
    d->above = d->round = 0;
    d->chosen = 0;
    const dwt_memory *mem = *io->kernel_state;
    d->remembered = mem && mem->decided;
    d->memory = d->remembered ? mem->limit : 0;
    set_all(d, io, d->base_limit);
    if (d->remembered && d->reuse_at_begin) adopt(d, io, d->memory);
    if (mem && !mem->decided && d->carry_over) resume(d, io, mem);
}

/* The period's L1 MPKI in the chosen unit. */
static double period_mpki(const dwt *d, const wc_ctl_io *io)
{
    const wc_period_counters *g = io->gpu;
    if (d->per_insts) return g->l1_mpki;
    unsigned sms = io->n_sm;
    if (d->busy_sms) {
        sms = 0;
        for (unsigned i = 0; i < io->n_sm; i++) sms += io->sm[i].thread_insts > 0;
    }
    if (!g->cycles || !sms) return 0;
    return 1000.0 * (double)g->l1_misses / ((double)g->cycles * sms);
}

/* The end of a sampling round: adopt the winner or extend the search. */
static void finish_round(dwt *d, wc_ctl_io *io)
{
    unsigned best = 0;
    for (unsigned i = 1; i < io->n_sm; i++) /* ties: the smaller index, the smaller limit */
        if (d->insts[i] > d->insts[best]) best = i;
    uint32_t win = sample_limit(d, best), top = sample_limit(d, io->n_sm - 1);
    if (win == top && top < d->max_limit) {
        start_round(d, io, win);
        return;
    }
    adopt(d, io, win);
}

static void dwt_period(wc_ctl *c, wc_ctl_io *io)
{
    dwt *d = c->priv;
    if (d->phase == DWT_DECIDED || io->n_sm < 2 || d->n_sm != io->n_sm) return;
    if (d->phase == DWT_SAMPLING) {
        for (unsigned i = 0; i < io->n_sm; i++) d->insts[i] += io->sm[i].thread_insts;
        if (++d->sampled >= d->m) finish_round(d, io);
        return;
    }
    d->above = period_mpki(d, io) > d->threshold ? d->above + 1 : 0;
    if (d->above < d->n) return;
    if (d->remembered)
        adopt(d, io, d->memory);
    else
        start_round(d, io, 1);
}

/* Replaces the kernel's memory with this launch's decision or progress. */
static void remember(const dwt *d, wc_ctl_io *io, bool decided)
{
    unsigned n = decided ? 0 : d->n_sm;
    dwt_memory *mem = calloc(1, sizeof *mem + n * sizeof mem->insts[0]);
    if (!mem) return; /* the next launch starts afresh */
    mem->decided = decided;
    mem->limit = d->chosen;
    mem->phase = d->phase;
    mem->above = d->above;
    mem->sampled = d->sampled;
    mem->round = d->round;
    mem->first = d->first;
    mem->n_sm = n;
    if (n) memcpy(mem->insts, d->insts, n * sizeof mem->insts[0]);
    free(*io->kernel_state);
    *io->kernel_state = mem;
}

static void dwt_kernel_end(wc_ctl *c, wc_ctl_io *io)
{
    dwt *d = c->priv;
    bool decided = d->phase == DWT_DECIDED;
    wc_sim_record(io->sim, io->now, -1, "dwt_kernel_limit", decided ? d->chosen : 0);
    if (d->remembered) return;
    if (decided)
        remember(d, io, true);
    else if (d->carry_over && d->n_sm == io->n_sm)
        remember(d, io, false);
}

const wc_controller_ops wc_ctl_dwt_cs = {
    .name = "dwt_cs",
    .help = "seed 002 DWT-CS warp throttling by core sampling: while the L1 MPKI is high, SMs "
            "sample warp limits and the best one is adopted",
    .params = dwt_params,
    .create = dwt_create,
    .destroy = dwt_destroy,
    .kernel_begin = dwt_kernel_begin,
    .period = dwt_period,
    .kernel_end = dwt_kernel_end,
};
WC_PLUGIN(controller, wc_ctl_dwt_cs, 40);
