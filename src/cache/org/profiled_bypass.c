/*
 * profiled_bypass.c - seed 001's Profiled-BYPASS (../shared/papers/
 * 001_94c1440347ca7d61.txt, section 5), the second run: the conventional L1
 * (the -gpgpu_cache:dl1 geometry and its replacement policy) whose read
 * misses bypass - no line, no MSHR entry, the data straight to the warp -
 * when the line's reference count in the profiling run's profile
 * (pbypass_profile.h) is under -pbypass_threshold, counted by the filter
 * -pbypass_filter (0 local, 1 global, 2 local+global, the paper's
 * "Profiled-BYPASS").  A "software filter": the decision is the profile's,
 * fixed before the run; hits, merges and writes are the conventional L1's.
 *
 * A tag store on the shared L1 core (l1_core.h) with its own wc_tag_array
 * and base.ta NULL, so the core asks `bypasses` on a read miss; the array
 * operations are the array-backed stores' inline ones (tagstore_array.h).
 * The profile is the data the program gave the simulator
 * (wc_sim_set_l1_data -> wc_l1_env.data): only `warpcache oracle
 * profiled-bypass`, which records it, runs this organisation (the CLI
 * refuses -l1_org profiled-bypass elsewhere).  Without a profile nothing
 * bypasses.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cache/l1_impl.h"
#include "cache/org/pbypass_profile.h"
#include "cache/tagstore_array.h"
#include "util/rng.h"
#include "warpcache/params.h"

#define MAX_CHUNKS 16

static const wc_param_desc pb_params[] = {
    {.key = "pbypass_threshold",
     .def = 2,
     .min = 1,
     .max = 255,
     .help = "profiled-bypass: a read miss bypasses when the line's profiled reference "
             "count is below this"},
    {.key = "pbypass_filter",
     .def = WC_PB_LOCAL_GLOBAL,
     .min = 0,
     .max = WC_PB__FILTERS - 1,
     .help = "profiled-bypass: the count used: 0 the SM's own (local), 1 kernel-wide "
             "(global), 2 the SM's own if it saw the line, else kernel-wide (local+global)"},
    {0},
};

typedef struct pb_ts {
    wc_tagstore base; /* first; base.ta stays NULL: the core asks bypasses */
    wc_tag_array arr;
    const wc_pbypass_profile *profile; /* env.data; NULL: nothing bypasses */
    unsigned thr;
    int filter;
    uint64_t n_bypass;
} pb_ts;

static wc_line *pb_lookup(wc_tagstore *ts, uint64_t addr, uint32_t *set)
{
    return arr_lookup(&((pb_ts *)ts)->arr, addr, set);
}

static bool pb_can_allocate(const wc_tagstore *ts, uint32_t set)
{
    return arr_can_allocate(&((const pb_ts *)ts)->arr, set);
}

static wc_line *pb_allocate(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                            uint8_t state, const wc_repl_ctx *ctx, uint64_t now)
{
    return arr_allocate(&((pb_ts *)ts)->arr, core, set, tag, state, ctx, now);
}

static void pb_touch(wc_tagstore *ts, uint32_t set, wc_line *line, const wc_repl_ctx *ctx)
{
    arr_touch(&((pb_ts *)ts)->arr, set, line, ctx);
}

static void pb_invalidate(wc_tagstore *ts, uint32_t set, wc_line *line)
{
    arr_invalidate(&((pb_ts *)ts)->arr, set, line);
}

static void pb_fill(wc_tagstore *ts, uint32_t set, wc_line *line, uint64_t chunks)
{
    arr_fill(&((pb_ts *)ts)->arr, set, line, chunks);
}

static void pb_each_valid(wc_tagstore *ts, void (*fn)(void *arg, uint32_t set, wc_line *line),
                          void *arg)
{
    wc_tag_array *ta = &((pb_ts *)ts)->arr;
    for (uint32_t s = 0; s < ta->nsets; s++)
        for (uint32_t w = 0; w < ta->assoc; w++) {
            wc_line *l = wc_tag_array_set(ta, s) + w;
            if (l->state == WC_LINE_VALID) fn(arg, s, l);
        }
}

/* The profile's answer for this kernel launch, SM and line. */
static bool pb_bypasses(const wc_tagstore *ts, uint32_t set, uint64_t tag, const wc_mem_req *req)
{
    const pb_ts *p = (const pb_ts *)ts;
    return p->profile &&
           wc_pbypass_decide(p->profile, p->filter, p->thr, wc_req_kernel(req), req->sm, tag);
}

static void pb_bypassed(wc_tagstore *ts, wc_l1_core *core, uint32_t set, uint64_t tag,
                        const wc_repl_ctx *ctx, uint64_t now)
{
    ((pb_ts *)ts)->n_bypass++;
}

static void pb_stats(const wc_tagstore *ts, void (*emit)(void *ctx, const char *name, double v),
                     void *ctx)
{
    const pb_ts *p = (const pb_ts *)ts;
    emit(ctx, "pbypass_bypasses", (double)p->n_bypass);
    if (p->arr.repl->stats) p->arr.repl->stats(p->arr.repl_state, emit, ctx);
}

static void pb_destroy(wc_tagstore *ts)
{
    pb_ts *p = (pb_ts *)ts;
    if (!p) return;
    wc_tag_array_free(&p->arr);
    free(p);
}

static const wc_tagstore_ops pb_ops = {
    .name = "profiled-bypass",
    .destroy = pb_destroy,
    .lookup = pb_lookup,
    .can_allocate = pb_can_allocate,
    .allocate = pb_allocate,
    .touch = pb_touch,
    .invalidate = pb_invalidate,
    .fill = pb_fill,
    .each_valid = pb_each_valid,
    .bypasses = pb_bypasses,
    .bypassed = pb_bypassed,
    .stats = pb_stats,
    .retry_memo = true, /* the profile's answer is fixed by the request */
};

static wc_tagstore *pb_ts_create(wc_l1_core *core, const wc_config *cfg, const wc_l1_env *env,
                                 wc_err *err)
{
    const wc_cache_geom *g = &cfg->l1;
    const char *where = wc_l1_config_where(cfg);
    if (g->line_bytes < 32 || g->line_bytes / 32 > MAX_CHUNKS) {
        wc_errf(err,
                "%s: -gpgpu_cache:dl1: %u-byte lines are not supported by profiled-bypass "
                "(32 to %u)",
                where, g->line_bytes, 32 * MAX_CHUNKS);
        return NULL;
    }
    pb_ts *p = calloc(1, sizeof *p);
    if (!p) {
        wc_errf(err, "profiled-bypass tag store: out of memory");
        return NULL;
    }
    p->base.ops = &pb_ops;
    p->base.chunk_log2 = 5;
    p->base.nchunks = g->line_bytes / 32;
    p->base.whole_line = g->type != 'S';
    p->thr = (unsigned)wc_cfg_param(cfg, pb_params, "pbypass_threshold");
    p->filter = (int)wc_cfg_param(cfg, pb_params, "pbypass_filter");
    p->profile = env->data;
    /* the conventional L1's seed per SM, so its random choices match */
    uint64_t seed = wc_rng_sm_seed(cfg->seed, env->sm);
    if (wc_tag_array_init(&p->arr, g, cfg->ipoly_poly, seed, cfg, err) < 0) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err ? err->msg : "");
        wc_errf(err, "%s: -gpgpu_cache:dl1: %s", where, why);
        pb_destroy(&p->base);
        return NULL;
    }
    return &p->base;
}

static wc_l1 *pb_create(const wc_config *cfg, const wc_l1_env *env, wc_err *err)
{
    return wc_l1_core_create(&wc_l1_profiled_bypass, pb_ts_create, cfg, env, err);
}

const wc_l1_ops wc_l1_profiled_bypass = {
    .name = "profiled-bypass",
    .help = "seed 001's Profiled-BYPASS: the conventional L1 bypassing lines whose reference "
            "count in a profiling run is under a threshold (run by `warpcache oracle "
            "profiled-bypass`)",
    .create = pb_create,
    .params = pb_params,
    WC_L1_CORE_OPS,
};
WC_PLUGIN(l1_org, wc_l1_profiled_bypass, 40);
