/*
 * ctl_ccws.c - cache-conscious wavefront scheduling as a GPU-wide controller
 * (-controllers ccws[:base=100,kthrottle=8,vta_sets=2,vta_ways=8,decay=1])
 * layered over the SM's own scheduler (the design `ccws` uses GTO, as CCWS
 * does).  The mechanism is ccws.c; this file connects it to the engine:
 *
 *   - an L1 listener: every eviction puts the line into the VTA of the warp
 *     that allocated it (wc_line.owner_warp, if that warp still runs); every
 *     load request that misses (MISS or SECTOR_MISS) probes the missing
 *     warp's own VTA, and a hit is lost locality;
 *   - the SM's load gate (control.h): a warp whose next instruction is a
 *     global or local load may issue it only while the load list holds it;
 *     stores, atomics and every other instruction are never held.  A refused
 *     warp is asked again the next cycle (the engine's rule).
 *
 * Nothing runs on the per-access path of a simulation without the
 * controller: the listener and the gate exist only when it is configured.
 * The load list is looked at most once per SM and cycle, not at all while
 * every score is at base (all warps may load then), and evaluated again only
 * when it can have changed (wc_ccws_refresh).
 *
 * Counters (extras in the report, docs/stats.md): ccws_vta_hits (lost
 * locality detections), ccws_vta_inserts (evictions recorded),
 * ccws_blocked_loads (times a ready load was refused: warp-cycles) and
 * ccws_blocked_cycles (SM-cycles with at least one refusal).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/controllers/ccws.h"
#include "warpcache/control.h"

typedef struct ccws {
    const wc_smview *views; /* [n_sm] */
    wc_ccws_params p;
    unsigned n_sm;
    wc_ccws_sm *sm; /* [n_sm] */
} ccws;

/* The identity of the warp now in `slot` (ccws.h: a new warp starts afresh):
 * the kernel launch (as requests carry it, 24 bits) and its block. */
static uint64_t who_of(const wc_smview *sm, unsigned slot)
{
    uint64_t block = wc_smview_block_id(sm, wc_smview_warp_block(sm, slot));
    return (uint64_t)(wc_smview_kernel_id(sm) & 0xffffffu) << 32 | (uint32_t)block;
}

static void ccws_evict(void *ctx, int smi, const wc_line *line, uint64_t line_addr, uint64_t now)
{
    ccws *c = ctx;
    const wc_smview *sm = &c->views[smi];
    unsigned slot = line->owner_warp;
    if (slot >= sm->n_slots || wc_smview_warp_state(sm, slot) == WC_WARP_FREE) return;
    uint64_t who = who_of(sm, slot);
    if ((uint32_t)who != line->owner_block) return; /* its warp has gone: nobody to tell */
    wc_ccws_sm *s = &c->sm[smi];
    wc_ccws_sync(s, slot, who);
    wc_ccws_vta_insert(s, slot, line_addr);
}

/* The warps the load list is made of: the members of the SM's schedulers
 * (warps whose stream has not ended) less those waiting at a barrier.  A
 * barrier waiter cannot issue anyway; keeping a high-scoring one in the list
 * would hold its block's other warps at the loads before that barrier until
 * its score decayed (forever with decay=0) - the engine's warp limit has the
 * same rule (sched.h). */
static unsigned live_warps(const wc_smview *sm, uint64_t *live)
{
    unsigned n = 0;
    memset(live, 0, WC_CCWS_WORDS * sizeof *live);
    for (unsigned i = 0; i < sm->n_sched; i++)
        for (unsigned k = 0, nk = wc_smview_sched_count(sm, i); k < nk; k++) {
            unsigned slot = wc_smview_sched_warp(sm, i, k);
            if (wc_smview_warp_at_barrier(sm, slot) || slot >= WC_CCWS_MAX_SLOTS) continue;
            live[slot >> 6] |= 1ull << (slot & 63);
            n++;
        }
    return n;
}

static void ccws_access(void *ctx, int smi, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                        uint64_t now)
{
    if (o != WC_MISS && o != WC_SECTOR_MISS) return;
    if (req->op != WC_OP_LDG && req->op != WC_OP_LDL) return;
    ccws *c = ctx;
    const wc_smview *sm = &c->views[smi];
    wc_ccws_sm *s = &c->sm[smi];
    uint64_t who = (uint64_t)wc_req_kernel(req) << 32 | req->block;
    wc_ccws_sync(s, req->warp, who);
    uint64_t line = req->addr & ~((1ull << req->line_log2) - 1);
    if (wc_ccws_vta_probe(s, req->warp, line)) {
        uint64_t live[WC_CCWS_WORDS];
        wc_ccws_lost_locality(s, req->warp, now, live_warps(sm, live), wc_smview_warp_insts(sm));
    }
}

static bool ccws_gate(void *ctx, unsigned smi, unsigned slot)
{
    ccws *c = ctx;
    const wc_smview *sm = &c->views[smi];
    wc_ccws_sm *s = &c->sm[smi];
    uint64_t now = wc_smview_now(sm);
    if (now >= s->hot_until) return true; /* every score at base: every warp may load */
    unsigned op = wc_smview_warp_next_op(sm, slot);
    if (op != WC_OP_LDG && op != WC_OP_LDL) return true;
    if (s->eval_at != now) {
        uint64_t live[WC_CCWS_WORDS];
        live_warps(sm, live);
        /* A slot above base may hold a gone warp's score: only those need a
         * look (a new warp is at base anyway). */
        for (unsigned wi = 0; wi < WC_CCWS_WORDS; wi++)
            for (uint64_t m = live[wi]; m; m &= m - 1) {
                unsigned k = wi * 64 + (unsigned)__builtin_ctzll(m);
                if (s->w[k].score > s->p.base) wc_ccws_sync(s, k, who_of(sm, k));
            }
        wc_ccws_refresh(s, live, now);
    }
    if (wc_ccws_allowed(s, slot)) return true;
    s->refusals++;
    if (s->last_refusal != now + 1) { /* the SM's first refusal this cycle */
        s->last_refusal = now + 1;
        s->blocked_cycles++;
    }
    return false;
}

static void ccws_destroy(wc_ctl *ctl)
{
    ccws *c = ctl->priv;
    if (!c) return;
    for (unsigned i = 0; c->sm && i < c->n_sm; i++) wc_ccws_sm_free(&c->sm[i]);
    free(c->sm);
    free(c);
}

static unsigned log2_of(uint32_t v)
{
    unsigned l = 0;
    while ((1u << l) < v) l++;
    return l;
}

static int ccws_create(wc_ctl *ctl, const wc_param_values *params, wc_err *err)
{
    ccws *c = calloc(1, sizeof *c);
    if (!c) return wc_errf(err, "out of memory");
    ctl->priv = c;
    wc_ccws_params_from(params, &c->p);
    wc_sim *g = ctl->sim;
    if (!g) return 0; /* a parameter check only */
    c->views = ctl->views;
    c->n_sm = ctl->n_sm;
    c->sm = calloc(c->n_sm, sizeof *c->sm);
    if (!c->sm) return wc_errf(err, "out of memory");
    unsigned slots = ctl->cfg->max_threads_per_sm / WC_WARP_SIZE;
    unsigned line_log2 = log2_of(ctl->cfg->l1.line_bytes ? ctl->cfg->l1.line_bytes : 128);
    for (unsigned i = 0; i < c->n_sm; i++) {
        wc_err why = {{0}};
        if (wc_ccws_sm_init(&c->sm[i], &c->p, slots, line_log2, &why) < 0)
            return wc_errf(err, "ccws: %s", why.msg);
    }
    wc_l1_listener l = {.ctx = c, .on_evict = ccws_evict, .on_access = ccws_access};
    if (wc_sim_add_l1_listener(g, &l) < 0) return wc_errf(err, "out of memory");
    wc_sim_set_load_gate(g, ccws_gate, c);
    return 0;
}

static void ccws_kernel_begin(wc_ctl *ctl, wc_ctl_io *io)
{
    ccws *c = ctl->priv;
    for (unsigned i = 0; i < c->n_sm; i++)
        wc_ccws_kernel_begin(&c->sm[i], wc_smview_warp_insts(&io->views[i]));
}

static void ccws_stats(const wc_ctl *ctl, void (*add)(void *ctx, const char *name, double v),
                       void *ctx)
{
    const ccws *c = ctl->priv;
    uint64_t hits = 0, inserts = 0, refusals = 0, cycles = 0;
    for (unsigned i = 0; i < c->n_sm; i++) {
        hits += c->sm[i].vta_hits;
        inserts += c->sm[i].vta_inserts;
        refusals += c->sm[i].refusals;
        cycles += c->sm[i].blocked_cycles;
    }
    add(ctx, "ccws_vta_hits", (double)hits);
    add(ctx, "ccws_vta_inserts", (double)inserts);
    add(ctx, "ccws_blocked_loads", (double)refusals);
    add(ctx, "ccws_blocked_cycles", (double)cycles);
}

const wc_controller_ops wc_ctl_ccws = {
    .name = "ccws",
    .help = "cache-conscious wavefront scheduling: warps that lose locality (victim tag array "
            "hits) gain score, and only the highest-scored warps may load",
    .params = wc_ccws_param_schema,
    .create = ccws_create,
    .destroy = ccws_destroy,
    .kernel_begin = ccws_kernel_begin,
    .stats = ccws_stats,
};
WC_PLUGIN(controller, wc_ctl_ccws, 50);
