/*
 * contention.c - the cache contention breakdown of seed 004
 * (004_0fcfedff3b0ef5ba.txt, sections 2.2 and 2.4, Figure 4): every L1 miss
 * that evicts a valid line is classified by the warps that own the incoming
 * and the evicted line:
 *
 *   intra_warp      the same warp (same kernel launch, block and warp slot)
 *   xw_intra_block  another warp of the same block
 *   xw_cross_block  a warp of another block (or of an earlier kernel)
 *
 * reported as counts and per 1000 warp instructions (the paper's MPKI).
 *
 * A line's owner is the warp whose request brought it in.  The analysis
 * keeps its own table per SM, line address -> owner, fed by listener events
 * only, so it works for every L1 organisation: a read MISS records its warp
 * as the owner of its line (the line is allocated by it, now or at fill
 * time), an eviction looks the victim up and removes it.  Lines the table
 * does not know (allocated by a write: a write miss cannot tell from outside
 * whether it allocated, so writes are not recorded and a write-evict miss
 * leaves no stale entry) are classified by the owner fields the
 * organisation keeps in the victim line (block and warp slot), taken to be
 * of the running kernel.
 *
 * The incoming request is the one the SM was presenting when the eviction
 * happened.  An allocate-on-fill organisation evicts when the fill arrives,
 * outside any request: that victim is held until the fill event of the same
 * SM and cycle, whose line's owner is then the incoming one.  Evictions with
 * no incoming line (a flush at a kernel boundary) and a write-evict's
 * invalidation of its own line are not misses and are not classified.
 */
#include <stdlib.h>

#include "analysis/analysis_impl.h"
#include "analysis/touchmap.h"

enum { C_INTRA_WARP, C_XW_INTRA_BLOCK, C_XW_CROSS_BLOCK, C__COUNT };

static const char *const count_name[C__COUNT] = {
    "contention.intra_warp",
    "contention.xw_intra_block",
    "contention.xw_cross_block",
};
static const char *const mpki_name[C__COUNT] = {
    "contention.intra_warp_mpki",
    "contention.xw_intra_block_mpki",
    "contention.xw_cross_block_mpki",
};

/* A fill-time victim waiting for its fill (allocate-on-fill). */
typedef struct held {
    bool valid, known; /* known: the owner came from the table (else its kernel is the fill's) */
    uint64_t now;
    wc_toucher owner;
} held;

typedef struct contention {
    wc_sim *sim;
    unsigned n_sm;
    wc_touchmap *owner; /* [n_sm]: line byte address -> the warp that brought it in */
    held *held;         /* [n_sm] */
    uint64_t count[C__COUNT];
} contention;

static wc_toucher of_req(const wc_mem_req *r)
{
    wc_toucher t = {wc_req_kernel(r), r->block, r->lanes, r->warp, r->sm};
    return t;
}

static void classify(contention *c, const wc_toucher *in, const wc_toucher *out)
{
    if (in->kernel != out->kernel || in->block != out->block)
        c->count[C_XW_CROSS_BLOCK]++;
    else
        c->count[in->slot == out->slot ? C_INTRA_WARP : C_XW_INTRA_BLOCK]++;
}

/* The victim's owner from the table (removing the entry; *known), else from
 * the owner fields of the line with kernel 0 (*known false). */
static wc_toucher victim_owner(contention *c, int sm, const wc_line *v, uint64_t line, bool *known)
{
    wc_touchmap *m = &c->owner[sm];
    const wc_toucher *t = wc_touchmap_get(m, line);
    *known = t != NULL;
    wc_toucher o = {0, v->owner_block, 0, v->owner_warp, (uint16_t)sm};
    if (t) {
        o = *t;
        wc_touchmap_del(m, line);
    }
    return o;
}

static void on_evict_by(void *ctx, int sm, const wc_line *victim, uint64_t line,
                        const wc_mem_req *in, uint64_t now)
{
    contention *c = ctx;
    bool known;
    if (!in) { /* a fill-time install (held for its fill) or a flush */
        wc_toucher o = victim_owner(c, sm, victim, line, &known);
        c->held[sm] = (held){true, known, now, o};
        return;
    }
    if (in->addr >> in->line_log2 << in->line_log2 == line) {
        wc_touchmap_del(&c->owner[sm], line); /* a write-evict invalidating its own line */
        return;
    }
    wc_toucher w = of_req(in);
    wc_toucher o = victim_owner(c, sm, victim, line, &known);
    if (!known) o.kernel = w.kernel;
    classify(c, &w, &o);
}

static void on_fill(void *ctx, int sm, uint64_t line, uint64_t chunks, uint64_t now)
{
    contention *c = ctx;
    held *h = &c->held[sm];
    if (!h->valid) return;
    h->valid = false;
    const wc_toucher *in = wc_touchmap_get(&c->owner[sm], line);
    if (h->now != now || !in) return; /* a flush's victim, or a line we never saw missing */
    if (!h->known) h->owner.kernel = in->kernel;
    classify(c, in, &h->owner);
}

static void on_access(void *ctx, int sm, const wc_mem_req *req, wc_outcome o, wc_fail_reason why,
                      uint64_t now)
{
    contention *c = ctx;
    if (o != WC_MISS || (req->flags & WC_REQ_WRITE)) return;
    uint64_t line = req->addr >> req->line_log2 << req->line_log2;
    bool is_new;
    wc_toucher *t = wc_touchmap_put(&c->owner[sm], line, &is_new);
    if (!t) {
        wc_sim_fail(c->sim, "contention analysis: out of memory");
        return;
    }
    *t = of_req(req);
}

static void destroy(wc_analysis *a)
{
    contention *c = a->priv;
    if (!c) return;
    for (unsigned i = 0; c->owner && i < c->n_sm; i++) wc_touchmap_free(&c->owner[i]);
    free(c->owner);
    free(c->held);
    free(c);
}

static int create(wc_analysis *a, const wc_config *cfg, wc_err *err)
{
    contention *c = calloc(1, sizeof *c);
    if (!c) return wc_errf(err, "out of memory");
    a->priv = c;
    c->sim = a->sim;
    c->n_sm = wc_config_n_sm(cfg);
    c->owner = calloc(c->n_sm, sizeof *c->owner);
    c->held = calloc(c->n_sm, sizeof *c->held);
    if (!c->owner || !c->held) return wc_errf(err, "out of memory");
    wc_l1_listener l = {0};
    l.ctx = c;
    l.on_evict_by = on_evict_by;
    l.on_fill = on_fill;
    l.on_access = on_access;
    if (wc_sim_add_l1_listener(a->sim, &l) < 0) return wc_errf(err, "out of memory");
    return 0;
}

static void stats(const wc_analysis *a, void (*emit)(void *ctx, const char *name, double v),
                  void *ctx)
{
    const contention *c = a->priv;
    for (unsigned i = 0; i < C__COUNT; i++) emit(ctx, count_name[i], (double)c->count[i]);
}

static void derive(wc_kstats *k)
{
    for (unsigned i = 0; i < C__COUNT; i++) wc_analysis_set_pki(k, count_name[i], mpki_name[i]);
}

const wc_analysis_ops wc_analysis_contention = {
    .name = "contention",
    .help = "seed 004 section 2.4: L1 misses that evict a line, by the owners of the incoming "
            "and the evicted line (intra-warp, cross-warp intra-block, cross-warp cross-block)",
    .create = create,
    .destroy = destroy,
    .stats = stats,
    .derive = derive,
};
WC_PLUGIN(analysis, wc_analysis_contention, 10);
