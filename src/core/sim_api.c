/*
 * sim_api.c - what programs and plug-ins call on a simulator around a run:
 * replace its L1 organisation or memory stage, add L1 listeners, hand the
 * L1s data, install a load gate, report progress, stop a run that cannot
 * go on.  Kept apart from the run loop (gpu.c) so that the plug-ins that
 * call these depend on the public API, not on the loop that drives them.
 */
#include <stdlib.h>

#include "core/gpu.h"

/* A test or an embedding program replaces the L1 organisation. */
void wc_sim_use_l1_ops(wc_sim *sim, const wc_l1_ops *ops)
{
    sim->l1_ops = ops;
}

/* A test or an embedding program replaces the memory stage (memstage.h). */
int wc_sim_use_mem_stage(wc_sim *sim, const wc_mstage_ops *ops, const wc_param_values *params,
                         wc_err *err)
{
    if (params)
        sim->mstage_params = *params;
    else if (wc_param_parse(&sim->mstage_params, ops->params, ops->name, "", err) < 0)
        return -1;
    sim->mstage_ops = ops;
    return 0;
}

void wc_sim_set_progress(wc_sim *sim, wc_progress_fn fn, void *ctx)
{
    sim->progress = fn;
    sim->progress_ctx = ctx;
}

int wc_sim_add_l1_listener(wc_sim *sim, const wc_l1_listener *l)
{
    if (sim->n_listeners == sim->cap_listeners) {
        unsigned cap = sim->cap_listeners ? 2 * sim->cap_listeners : 4;
        wc_l1_listener *p = realloc(sim->listeners, cap * sizeof *p);
        if (!p) return -1;
        sim->listeners = p;
        sim->cap_listeners = cap;
    }
    sim->listeners[sim->n_listeners++] = *l;
    if (l->on_access) sim->n_access_listeners++;
    if (!sim->building) sim->n_user_listeners = sim->n_listeners; /* not a run's own part */
    return 0;
}

void wc_sim_fail(wc_sim *sim, const char *msg)
{
    if (!sim->failed && sim->err) wc_errf(sim->err, "%s", msg);
    sim->failed = true;
}

void wc_sim_set_l1_data(wc_sim *sim, const void *data)
{
    sim->l1_data = data;
}

void wc_sim_set_load_gate(wc_sim *sim, wc_load_gate_fn fn, void *ctx)
{
    sim->load_gate = fn;
    sim->load_gate_ctx = ctx;
    for (unsigned i = 0; sim->sms && i < sim->n_sm; i++) wc_sm_set_load_gate(&sim->sms[i], fn, ctx);
}
