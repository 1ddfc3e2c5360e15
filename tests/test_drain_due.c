/*
 * test_drain_due.c - the SM's memory of its draining warps' earliest retire
 * time (wc_sm.drain_due, core/gpu.h), which lets an SM cycle before it skip
 * the pass over those warps.  Its contract: between SM cycles it is 0 ("look
 * at all of them") or exactly the earliest time a draining warp can retire,
 * its last pending register write and, with -exit_store_acks 1, its last
 * store acknowledgement (WC_NEVER while a load or a store is outstanding).
 * A later value would let a warp retire late, an earlier one would wake the
 * SM at another cycle than before.  A controller with a period of one cycle
 * checks it before every cycle of workloads whose warps drain waiting for
 * loads and for store acknowledgements, with and without the store acks.
 */
#include "check.h"
#include "tiny_gpu.h"
#include "warpcache/workloads.h"

static const wc_param_desc period_param[] = {
    {.key = "period", .def = 1, .min = 1, .max = 1000, .help = "sampling period"},
    {0},
};

typedef struct probe {
    unsigned long n;    /* SM checks made with warps draining */
    unsigned long skip; /* of them where the next cycle would skip the pass */
    unsigned long bad;
} probe;

static probe the_probe;

static int probe_create(wc_ctl *c, const wc_param_values *params, wc_err *err)
{
    c->period = wc_param_u(params, "period");
    return 0;
}

/* When warp w may retire, from its fields (what retire_drained waits for). */
static uint64_t retire_time(const wc_sm *sm, const wc_warp *w)
{
    uint64_t t = 0;
    for (unsigned p = 0; p < w->npend; p++)
        if (w->pend[p].ready > t) t = w->pend[p].ready;
    if (sm->store_acks) {
        if (w->stores_out) return WC_NEVER;
        if (w->acked_at > t) t = w->acked_at;
    }
    return t;
}

static void probe_period(wc_ctl *c, wc_ctl_io *io)
{
    probe *p = &the_probe;
    const wc_sim *g = io->sim;
    for (unsigned i = 0; i < g->n_sm; i++) {
        const wc_sm *sm = &g->sms[i];
        if (!sm->n_draining) continue;
        uint64_t min = WC_NEVER;
        for (unsigned k = 0; k < sm->n_draining; k++) {
            const wc_warp *w = &sm->warps[sm->draining[k]];
            CHECK_EQ(w->state, W_DRAINING);
            uint64_t t = retire_time(sm, w);
            if (t < min) min = t;
        }
        p->n++;
        if (sm->drain_due != 0 && sm->drain_due != min) {
            if (p->bad++ < 5)
                fprintf(stderr, "  cycle %llu SM %u: drain_due %llu, earliest retire %llu\n",
                        (unsigned long long)io->now, i, (unsigned long long)sm->drain_due,
                        (unsigned long long)min);
        }
        if (sm->drain_due > io->now) p->skip++;
    }
}

static const wc_controller_ops probe_ops = {.name = "drain_due_probe",
                                            .params = period_param,
                                            .create = probe_create,
                                            .period = probe_period};

/* Returns the checks at which the next cycle would skip the pass. */
static unsigned long run_probe(const char *workload, bool store_acks)
{
    memset(&the_probe, 0, sizeof the_probe);
    wc_config c;
    wc_config_defaults(&c);
    c.exit_store_acks = store_acks;
    CHECK_EQ(tiny_run_with_probe(&c, workload, &probe_ops), 0);
    if (the_probe.bad)
        fprintf(stderr, "  %s%s\n", workload, store_acks ? "" : " (-exit_store_acks 0)");
    CHECK_EQ(the_probe.bad, 0);
    CHECK(the_probe.n > 100); /* warps drained in many cycles */
    return the_probe.skip;
}

static const char *const workloads[] = {
    "micro/stream:n=32768",        /* stores: warps drain waiting for their acks */
    "micro/colcopy:h=64",          /* loads and stores, memory-bound */
    "polybench/atax:scale=0.0625", /* two kernels, loads in flight at the end */
    "rodinia/bfs:nodes=1000",      /* divergent, warps retiring unevenly */
};

static void test_every_cycle(void)
{
    unsigned long skip = 0;
    for (unsigned i = 0; i < sizeof workloads / sizeof *workloads; i++)
        skip += run_probe(workloads[i], true);
    CHECK(skip > 10000); /* the skip was taken (stream: nearly every cycle) */
}

static void test_every_cycle_no_store_acks(void)
{
    unsigned long skip = 0;
    for (unsigned i = 0; i < sizeof workloads / sizeof *workloads; i++)
        skip += run_probe(workloads[i], false);
    CHECK(skip > 100);
}

int main(void)
{
    RUN(test_every_cycle);
    RUN(test_every_cycle_no_store_acks);
    return check_summary("drain_due");
}
