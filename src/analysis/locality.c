/*
 * locality.c - the data locality classes of seed 002
 * (002_549a998632bcde66.txt, section 3.1, Figure 3(a)): every L1 access that
 * reuses a line is classified by the previous toucher of that line,
 *
 *   intra_thread  the same warp, and the two requests share a lane (a thread
 *                 of the warp touches the line again)
 *   inter_thread  the same warp, no lane in common
 *   intra_block   another warp of the same block
 *   intra_core    a warp of another block on the same SM
 *   inter_core    the line was never touched on this SM, but on another one
 *                 (locality only the L2 can exploit)
 *   inter_kernel  the previous toucher ran in an earlier kernel launch
 *
 * in two caches:
 *
 *   l1         the simulated (bounded) L1: its hits (HIT and HIT_RESERVED)
 *   unbounded  a fully associative L1 of unlimited size per SM: every access
 *              to a line this SM or another one touched before (first
 *              touches GPU-wide are the only misses it has)
 *
 * The previous toucher is the last access to the line on this SM (the L1 is
 * private: the reuse an SM's cache can exploit is of its own accesses); only
 * when this SM never touched the line is it the last access on any SM
 * (inter_core, or inter_kernel when that access was in an earlier kernel).
 * Every access the L1 accepted counts, whatever its kind (loads, stores,
 * atomics, bypassed requests): a store by one kernel and a load by the next
 * is inter-kernel locality in the paper.  Reservation fails are not accesses:
 * the retry that is accepted counts once.  The test for "same thread"
 * compares the lane masks of the two requests: a request is one coalescing
 * segment of one warp instruction, so lanes of one instruction that touch
 * other segments of the same line count as inter-thread.
 */
#include <stdlib.h>

#include "analysis/analysis_impl.h"
#include "analysis/touchmap.h"

enum {
    L_INTRA_THREAD,
    L_INTER_THREAD,
    L_INTRA_BLOCK,
    L_INTRA_CORE,
    L_INTER_CORE,
    L_INTER_KERNEL,
    L__COUNT,
    L_NONE = L__COUNT
};

static const char *const l1_name[L__COUNT] = {
    "locality.l1.intra_thread", "locality.l1.inter_thread", "locality.l1.intra_block",
    "locality.l1.intra_core",   "locality.l1.inter_core",   "locality.l1.inter_kernel",
};
static const char *const unb_name[L__COUNT] = {
    "locality.unbounded.intra_thread", "locality.unbounded.inter_thread",
    "locality.unbounded.intra_block",  "locality.unbounded.intra_core",
    "locality.unbounded.inter_core",   "locality.unbounded.inter_kernel",
};

typedef struct locality {
    wc_sim *sim;
    unsigned n_sm;
    wc_touchmap *seen; /* [n_sm]: line byte address -> last toucher on that SM */
    wc_touchmap any;   /* line byte address -> last toucher on any SM */
    uint64_t l1[L__COUNT], unbounded[L__COUNT];
} locality;

/* The class of a reuse whose previous toucher on this SM is `t` (NULL: none)
 * and on any SM `g` (NULL: a first touch). */
static unsigned class_of(const wc_toucher *t, const wc_toucher *g, const wc_toucher *cur)
{
    if (!t) {
        if (!g) return L_NONE;
        return g->kernel != cur->kernel ? L_INTER_KERNEL : L_INTER_CORE;
    }
    if (t->kernel != cur->kernel) return L_INTER_KERNEL;
    if (t->block != cur->block) return L_INTRA_CORE;
    if (t->slot != cur->slot) return L_INTRA_BLOCK;
    return (t->lanes & cur->lanes) ? L_INTRA_THREAD : L_INTER_THREAD;
}

/* Records cur as the last toucher of line in m; false when out of memory. */
static bool remember(wc_touchmap *m, uint64_t line, const wc_toucher *cur)
{
    bool is_new;
    wc_toucher *t = wc_touchmap_put(m, line, &is_new);
    if (!t) return false;
    *t = *cur;
    return true;
}

static void on_access(void *ctx, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                      uint64_t now)
{
    locality *x = ctx;
    if (o == WC_RESERVATION_FAIL) return;
    uint64_t line = req->addr >> req->line_log2 << req->line_log2;
    wc_toucher cur = {wc_req_kernel(req), req->block, req->lanes, req->warp, (uint16_t)sm};
    wc_touchmap *here = &x->seen[sm];
    const wc_toucher *t = wc_touchmap_get(here, line);
    const wc_toucher *g = t ? NULL : wc_touchmap_get(&x->any, line);
    unsigned c = class_of(t, g, &cur);
    if (c != L_NONE) {
        x->unbounded[c]++;
        if (o == WC_HIT || o == WC_HIT_RESERVED) x->l1[c]++;
    }
    if (!remember(here, line, &cur) || !remember(&x->any, line, &cur))
        wc_sim_fail(x->sim, "locality analysis: out of memory");
}

static void destroy(wc_analysis *a)
{
    locality *x = a->priv;
    if (!x) return;
    for (unsigned i = 0; x->seen && i < x->n_sm; i++) wc_touchmap_free(&x->seen[i]);
    free(x->seen);
    wc_touchmap_free(&x->any);
    free(x);
}

static int create(wc_analysis *a, const wc_config *cfg, wc_err *err)
{
    locality *x = calloc(1, sizeof *x);
    if (!x) return wc_errf(err, "out of memory");
    a->priv = x;
    x->sim = a->sim;
    x->n_sm = wc_config_n_sm(cfg);
    x->seen = calloc(x->n_sm, sizeof *x->seen);
    if (!x->seen) return wc_errf(err, "out of memory");
    wc_l1_listener l = {0};
    l.ctx = x;
    l.on_access = on_access;
    if (wc_sim_add_l1_listener(a->sim, &l) < 0) return wc_errf(err, "out of memory");
    return 0;
}

static void stats(const wc_analysis *a, void (*emit)(void *ctx, const char *name, double v),
                  void *ctx)
{
    const locality *x = a->priv;
    for (unsigned i = 0; i < L__COUNT; i++) emit(ctx, l1_name[i], (double)x->l1[i]);
    for (unsigned i = 0; i < L__COUNT; i++) emit(ctx, unb_name[i], (double)x->unbounded[i]);
}

const wc_analysis_ops wc_analysis_locality = {
    .name = "locality",
    .help = "seed 002 section 3: L1 hits and re-references in an unbounded L1, by the previous "
            "toucher (intra-thread, inter-thread, intra-block, intra-core, inter-core, "
            "inter-kernel)",
    .create = create,
    .destroy = destroy,
    .stats = stats,
};
WC_PLUGIN(analysis, wc_analysis_locality, 20);
