/*
 * test_sched_low.c - the SM's bound on its schedulers' wake times
 * (wc_sm.sched_low, core/gpu.h), which lets an SM cycle skip the schedulers
 * on one comparison.  Its contract: it is never later than the earliest
 * scheduler wake time, and whenever it is later than the cycle about to run
 * it is exactly that minimum (else a due scheduler would be skipped, or the
 * SM would wake at another cycle than before).  A controller with a period
 * of one cycle (the clock then visits every cycle) checks both before every
 * cycle of real workloads - with barriers, retiring warps and, in a second
 * pass, the warp_limit knob changing every few cycles (which sets every
 * scheduler's wake time at once).
 */
#include "check.h"
#include "tiny_gpu.h"
#include "warpcache/workloads.h"

static const wc_param_desc period_param[] = {
    {.key = "period", .def = 1, .min = 1, .max = 1000, .help = "sampling period"},
    {0},
};

typedef struct probe {
    bool knob;        /* also flip warp_limit between 2 and 0 every 7 periods */
    unsigned long n;  /* SM checks made */
    unsigned long up; /* of them with sched_low later than now (the skip) */
    unsigned long bad;
} probe;

static probe the_probe;

static int probe_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    c->period = wc_param_u(params, "period");
    if (!the_probe.knob) return 0;
    int id = wc_ctl_knob(c, "warp_limit", err);
    if (id < 0) return -1;
    c->priv = (void *)(uintptr_t)id;
    return 0;
}

static void probe_period(wc_ctl *c, wc_ctl_io *io)
{
    probe *p = &the_probe;
    const wc_sim *g = io->sim;
    for (unsigned i = 0; i < g->n_sm; i++) {
        const wc_sm *sm = &g->sms[i];
        uint64_t min = WC_NEVER;
        for (unsigned s = 0; s < sm->n_sched; s++)
            if (sm->sched[s].wake < min) min = sm->sched[s].wake;
        p->n++;
        if (sm->sched_low > min || (sm->sched_low > io->now && sm->sched_low != min)) {
            if (p->bad++ < 5)
                fprintf(stderr, "  cycle %llu SM %u: sched_low %llu, schedulers' minimum %llu\n",
                        (unsigned long long)io->now, i, (unsigned long long)sm->sched_low,
                        (unsigned long long)min);
        }
        if (sm->sched_low > io->now) p->up++;
    }
    if (p->knob && io->now % 7 == 0)
        for (unsigned i = 0; i < io->n_sm; i++)
            wc_knob_set(io, i, (wc_knob_id)(uintptr_t)c->priv, io->now % 14 ? 2 : 0);
}

static const wc_controller_ops probe_ops = {.name = "sched_low_probe",
                                            .params = period_param,
                                            .create = probe_create,
                                            .period = probe_period};

static void run_probe(const char *workload, bool knob)
{
    memset(&the_probe, 0, sizeof the_probe);
    the_probe.knob = knob;
    wc_config c;
    wc_config_defaults(&c);
    CHECK_EQ(tiny_run_with_probe(&c, workload, &probe_ops), 0);
    if (the_probe.bad) fprintf(stderr, "  %s%s\n", workload, knob ? " (warp_limit)" : "");
    CHECK_EQ(the_probe.bad, 0);
    CHECK(the_probe.n > 1000);
    CHECK(the_probe.up > 0); /* the skip was taken */
}

static const char *const workloads[] = {
    "micro/colcopy:h=64",          /* memory-bound: the stage's retries */
    "polybench/atax:scale=0.0625", /* two kernels, GTO over many warps */
    "rodinia/hotspot:size=64",     /* barriers, shared memory */
    "rodinia/bfs:nodes=2000",      /* divergent, warps retiring unevenly */
};

static void test_every_cycle(void)
{
    for (unsigned i = 0; i < sizeof workloads / sizeof *workloads; i++)
        run_probe(workloads[i], false);
}

static void test_every_cycle_warp_limit(void)
{
    for (unsigned i = 0; i < sizeof workloads / sizeof *workloads; i++)
        run_probe(workloads[i], true);
}

int main(void)
{
    RUN(test_every_cycle);
    RUN(test_every_cycle_warp_limit);
    return check_summary("sched_low");
}
