/*
 * tiny_gpu.h - the scaffolding the simulator tests share: run one source on a
 * configuration (usually tiny_config.h's hand-timed GPU) with optional hooks
 * and collect its statistics, read a named extra counter, and build a lone
 * L1 organisation on the default configuration for tests that drive an L1
 * by hand.  Before this header every test file carried its own copy of these
 * few lines; they differed only in which hooks they attached.
 *
 * Header-only, like tiny_config.h and listsrc.h: each tests/test_*.c is one
 * program linked against libwarpcache.a alone.
 */
#ifndef WC_TESTS_TINY_GPU_H
#define WC_TESTS_TINY_GPU_H

#include <stdio.h>
#include <string.h>

#include "core/gpu.h"
#include "warpcache/cache.h"
#include "warpcache/config.h"
#include "warpcache/control.h"
#include "warpcache/sim.h"
#include "warpcache/stats.h"
#include "warpcache/workloads.h"

/* What a test attaches to the simulator before the run; unset fields attach
 * nothing. */
typedef struct tiny_hooks {
    const wc_controller_ops *ctl; /* a controller, with ctl_params ("" if NULL) */
    const char *ctl_params;
    const wc_mstage_ops *stage;     /* a memory stage replacing -mem_stage's */
    const wc_l1_listener *listener; /* an L1 access listener */
    const void *l1_data;            /* every L1's env.data (wc_sim_set_l1_data) */
    const wc_l1_ops *l1_ops;        /* an L1 organisation replacing the configured one */
    wc_load_gate_fn load_gate;      /* a gate asked before each load issues, with gate_ctx */
    void *gate_ctx;
} tiny_hooks;

/*
 * Runs src on c with hooks h (may be NULL) into st, then destroys src and the
 * simulator.  st is initialised first, so a caller may read (zero) counters
 * and must free it whatever the result.  Returns the run's result, or -1 when
 * src is NULL or the simulator, or a hook, cannot be set up.  The failure's
 * message goes to *err when err is given (tests of error messages), else to
 * stderr.
 */
static inline int tiny_run(const wc_config *c, wc_source *src, wc_stats *st, const tiny_hooks *h,
                           wc_err *err)
{
    wc_err local = {{0}};
    wc_err *e = err ? err : &local;
    wc_stats_init(st);
    if (!src) {
        snprintf(e->msg, sizeof e->msg, "no source");
        if (!err) fprintf(stderr, "tiny_run: %s\n", e->msg);
        return -1;
    }
    wc_sim *sim = wc_sim_create(c, e);
    int rc = sim ? 0 : -1;
    if (sim && h && h->l1_ops) wc_sim_use_l1_ops(sim, h->l1_ops);
    if (sim && h && h->ctl)
        rc = wc_sim_add_controller(sim, h->ctl, h->ctl_params ? h->ctl_params : "", e);
    if (rc == 0 && h && h->stage) rc = wc_sim_use_mem_stage(sim, h->stage, NULL, e);
    if (rc == 0 && h && h->listener) wc_sim_add_l1_listener(sim, h->listener);
    if (rc == 0 && h && h->l1_data) wc_sim_set_l1_data(sim, h->l1_data);
    if (rc == 0 && h && h->load_gate) wc_sim_set_load_gate(sim, h->load_gate, h->gate_ctx);
    if (rc == 0) rc = wc_sim_run(sim, src, st, e);
    if (rc < 0 && !err) fprintf(stderr, "tiny_run: %s\n", e->msg);
    if (sim) wc_sim_destroy(sim);
    wc_source_destroy(src);
    return rc;
}

/* tiny_run without hooks, errors to stderr: the common case. */
static inline int tiny_simulate(const wc_config *c, wc_source *src, wc_stats *st)
{
    return tiny_run(c, src, st, NULL, NULL);
}

/* Runs the built-in workload `workload` (name[:k=v,...]) on c with the
 * controller ctl - a test's probe, which checks an invariant in its period
 * calls - and drops the statistics.  Returns the run's result (-1 when the
 * workload does not open). */
static inline int tiny_run_with_probe(const wc_config *c, const char *workload,
                                      const wc_controller_ops *ctl)
{
    wc_err err = {{0}};
    wc_source *src = wc_workload_open(workload, c->seed, &err);
    if (!src) fprintf(stderr, "tiny_run_with_probe: %s: %s\n", workload, err.msg);
    tiny_hooks h = {.ctl = ctl};
    wc_stats st;
    int rc = tiny_run(c, src, &st, &h, NULL);
    wc_stats_free(&st);
    return rc;
}

/* The value of the extra counter `name` (a controller's, an analysis's, an
 * organisation's) in k, or -1 when k has none of that name (every counter
 * the tests read is >= 0, so -1 cannot pass for a real value). */
static inline double tiny_extra(const wc_kstats *k, const char *name)
{
    for (unsigned i = 0; i < k->n_extras; i++)
        if (strcmp(k->extras[i].name, name) == 0) return k->extras[i].value;
    return -1;
}

/*
 * A lone L1 of organisation `org` on the default configuration with L1
 * geometry `geom` (GPGPU-Sim syntax) and options kv ("key", "value", ...,
 * NULL; may be NULL), talking to the test through env.  NULL, with the reason
 * on stderr, when an option or the organisation refuses.
 */
static inline wc_l1 *tiny_lone_l1(const char *org, const char *geom, const char *const *kv,
                                  const wc_l1_env *env)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    if (wc_config_set(&cfg, "gpgpu_cache:dl1", geom, "test", &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    for (; kv && kv[0]; kv += 2)
        if (wc_config_set(&cfg, kv[0], kv[1], "test", &err) != 0) {
            fprintf(stderr, "%s\n", err.msg);
            return NULL;
        }
    wc_l1 *l1 = wc_l1_find(org)->create(&cfg, env, &err);
    if (!l1) fprintf(stderr, "create: %s\n", err.msg);
    return l1;
}

#endif
