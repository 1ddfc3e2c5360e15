/*
 * memstage_mrpb.c - seed 004's memory request prioritization buffer (MRPB) as
 * a memory stage ("mrpb"): papers/004_0fcfedff3b0ef5ba.txt, Section 3
 * (3.1 system diagram, 3.2 signatures, 3.3 drain policies and flush, 3.4
 * bypassing), Section 5.1-5.4 and Table 4 (design space, final choices).
 *
 * Between the coalescer and the L1.  Requests enter FIFO queues chosen by a
 * signature (warp slot, block slot or in-block warp index), one request per
 * cycle; an enqueue into a full queue stalls the stage (memory instructions
 * wait at issue).  One request per cycle leaves for the L1, chosen by the
 * drain policy among queues whose head has been in the buffer for `latency`
 * cycles.  A request the L1 refuses (reservation fail) waits in the outbound
 * slot and is retried, as the default stage retries, unless the bypass option
 * sends it around the L1 (wc_stage_send_around: no line, no MSHR; the data goes
 * to the warp).  reorder=0 is one FIFO for everything (arrival order), the
 * paper's bypass-only configuration.
 *
 * Ordering rules (Section 3.2; GPU memory model, Section 2.1):
 * - one thread's requests keep their order: every signature puts all of a
 *   warp's requests into one queue, queues are FIFO and the L1 port serial;
 * - nothing crosses a barrier: each block slot has an epoch, bumped when one
 *   of its warps arrives at a barrier (`barrier` op); a request is stamped
 *   with its block's epoch when its instruction is accepted, and may leave
 *   only when no older-epoch request of its block is still queued.  Bumping
 *   at every arrival (rather than at the barrier's release, which the stage
 *   does not see) is conservative: it may hold back a request of a warp not
 *   yet at the barrier, never let one through early.  Writes sent directly
 *   (flush) obey the same rule.
 * The earliest-enqueued request is always at the head of its queue and never
 * waits for another, so the buffer cannot deadlock.
 *
 * Parameters (-mem_stage mrpb:key=value,...; defaults are the paper's final
 * design): mrpb_params below, listed by `warpcache list stages` and
 * docs/parameters.md.  docs/techniques/mrpb.md says how each paper
 * definition was read.
 */
#include <stdlib.h>
#include <string.h>

#include "warpcache/stage.h"

enum sig { SIG_WARP, SIG_BLOCK, SIG_WIB };
enum drain { DRAIN_FIXED, DRAIN_RR, DRAIN_LONGEST };
enum bypass { BYPASS_NONE, BYPASS_ASSOC, BYPASS_ALL };

typedef struct mrpb_cfg {
    enum sig sig;
    enum drain drain;
    bool greedy, flush, reorder;
    enum bypass bypass;
    unsigned len, latency;
} mrpb_cfg;

typedef struct mrpb_ent {
    wc_mem_req req;
    uint64_t ready; /* may leave from this cycle on (enqueue + latency) */
    uint32_t load;  /* load record, WC_NO_REC for a store */
    uint32_t epoch; /* its block slot's barrier epoch when accepted */
    uint32_t bslot; /* block slot of the issuing warp */
    bool last;      /* the last request of its instruction */
    uint64_t seq;   /* arrival order in the buffer (for the reorder counter) */
} mrpb_ent;

/* Queued requests of one block slot with one epoch (epochs of a block's
 * queued requests, oldest first: a ring per block slot). */
typedef struct epoch_run {
    uint32_t epoch, count;
} epoch_run;

typedef struct wc_mrpb {
    wc_mstage base; /* first */
    mrpb_cfg cfg;
    unsigned nq;        /* queues */
    mrpb_ent *ent;      /* nq * len, queue q at ent[q * len], a ring from head[q] */
    unsigned *head, *n; /* per queue */
    unsigned queued;    /* requests in all queues */
    int last_q;         /* the queue drained last (greedy, round-robin), -1: none */
    /* barrier epochs, per block slot */
    unsigned n_bslots, run_cap;
    uint32_t *epoch;
    epoch_run *runs; /* n_bslots * run_cap */
    unsigned *run_head, *n_runs;
    /* the instruction whose requests are entering (the SM's coalescer
     * buffer, stable while the stage is full) */
    const wc_mem_req *cur, *end;
    uint32_t cur_load, cur_epoch, cur_bslot;
    /* the outbound slot: a request the L1 refused, retried each cycle */
    mrpb_ent out;
    bool out_used;
    wc_fail_reason out_why;
    uint64_t stall_from;
    /* counters (extras mrpb.*): requests enqueued, the sum over them of the
     * requests already queued when each arrived (mean occupancy seen on
     * arrival = queued_at_enqueue / enqueued), and the requests that left
     * while an older one was still queued (overtook it: reordered) */
    uint64_t seq_next, enqueued, queued_at_enqueue, reordered;
} wc_mrpb;

/* ---- queues and epochs ---------------------------------------------------- */

/* The queue of the current instruction's request r.  The block slot is the
 * one recorded at accept: a warp may retire (and its slot change hands)
 * while its stores are still entering. */
static unsigned queue_of(const wc_mrpb *s, const wc_mem_req *r)
{
    if (!s->cfg.reorder) return 0;
    switch (s->cfg.sig) {
    case SIG_BLOCK: return s->cur_bslot % s->nq;
    case SIG_WIB: return wc_req_wib(r) % s->nq;
    default: return r->warp % s->nq;
    }
}

static mrpb_ent *head_of(wc_mrpb *s, unsigned q)
{
    return &s->ent[q * s->cfg.len + s->head[q]];
}

static bool is_write(const wc_mem_req *r)
{
    return (r->flags & (WC_REQ_WRITE | WC_REQ_ATOMIC)) != 0;
}

/* True if no request of block slot b older than `epoch` is queued. */
static bool epoch_clear(const wc_mrpb *s, uint32_t b, uint32_t epoch)
{
    return s->n_runs[b] == 0 || s->runs[b * s->run_cap + s->run_head[b]].epoch == epoch;
}

static void run_push(wc_mrpb *s, uint32_t b, uint32_t epoch)
{
    epoch_run *r = &s->runs[b * s->run_cap];
    unsigned n = s->n_runs[b];
    if (n) {
        epoch_run *tail = &r[(s->run_head[b] + n - 1) % s->run_cap];
        if (tail->epoch == epoch) {
            tail->count++;
            return;
        }
    }
    /* a new epoch: at most one run per queued request, so n < run_cap */
    r[(s->run_head[b] + n) % s->run_cap] = (epoch_run){epoch, 1};
    s->n_runs[b]++;
}

/* A request of the oldest epoch of block slot b left the queues. */
static void run_pop(wc_mrpb *s, uint32_t b)
{
    epoch_run *front = &s->runs[b * s->run_cap + s->run_head[b]];
    if (--front->count == 0) {
        s->run_head[b] = (s->run_head[b] + 1) % s->run_cap;
        s->n_runs[b]--;
    }
}

/* Queue q's head may leave now: it has waited the buffer latency and no
 * older-epoch request of its block is queued. */
static bool drainable(wc_mrpb *s, unsigned q, uint64_t now)
{
    if (s->n[q] == 0) return false;
    const mrpb_ent *e = head_of(s, q);
    return e->ready <= now && epoch_clear(s, e->bslot, e->epoch);
}

/* ---- drain policies (Section 3.3) ----------------------------------------- */

/* The queue the policy drains now, -1 if no head may leave. */
static int pick_queue(wc_mrpb *s, uint64_t now)
{
    if (s->cfg.greedy && s->last_q >= 0 && drainable(s, (unsigned)s->last_q, now)) return s->last_q;
    switch (s->cfg.drain) {
    case DRAIN_RR: { /* the next queue after the one drained last */
        unsigned start = s->last_q < 0 ? 0 : (unsigned)s->last_q + 1;
        for (unsigned i = 0; i < s->nq; i++) {
            unsigned q = (start + i) % s->nq;
            if (drainable(s, q, now)) return (int)q;
        }
        return -1;
    }
    case DRAIN_LONGEST: { /* most requests; ties: lowest index */
        int best = -1;
        for (unsigned q = 0; q < s->nq; q++)
            if (drainable(s, q, now) && (best < 0 || s->n[q] > s->n[best])) best = (int)q;
        return best;
    }
    default: /* fixed order: lowest index */
        for (unsigned q = 0; q < s->nq; q++)
            if (drainable(s, q, now)) return (int)q;
        return -1;
    }
}

static void enqueue(wc_mrpb *s, unsigned q, uint64_t now)
{
    mrpb_ent *e = &s->ent[q * s->cfg.len + (s->head[q] + s->n[q]) % s->cfg.len];
    e->req = *s->cur;
    e->ready = now + s->cfg.latency;
    e->load = s->cur_load;
    e->epoch = s->cur_epoch;
    e->bslot = s->cur_bslot;
    e->last = s->cur + 1 == s->end;
    e->seq = s->seq_next++;
    s->enqueued++;
    s->queued_at_enqueue += s->queued;
    s->n[q]++;
    s->queued++;
    run_push(s, e->bslot, e->epoch);
}

/* True if a request older than queue q's head waits in another queue (heads
 * are each queue's oldest, so only heads need looking at). */
static bool overtakes(wc_mrpb *s, unsigned q)
{
    uint64_t seq = head_of(s, q)->seq;
    for (unsigned i = 0; i < s->nq; i++)
        if (i != q && s->n[i] && head_of(s, i)->seq < seq) return true;
    return false;
}

static mrpb_ent dequeue(wc_mrpb *s, unsigned q)
{
    if (s->queued > s->n[q] && overtakes(s, q)) s->reordered++;
    mrpb_ent e = *head_of(s, q);
    s->head[q] = (s->head[q] + 1) % s->cfg.len;
    s->n[q]--;
    s->queued--;
    run_pop(s, e.bslot);
    s->last_q = (int)q;
    return e;
}

/* ---- the L1 port ------------------------------------------------------------ */

static bool bypasses(const wc_mrpb *s, const mrpb_ent *e, wc_fail_reason why)
{
    if (s->cfg.bypass == BYPASS_NONE || is_write(&e->req)) return false;
    return s->cfg.bypass == BYPASS_ALL || why == WC_FAIL_LINE_ALLOC;
}

/* Presents e to the L1 (one request per cycle); a refused request stays in
 * the outbound slot unless it bypasses.  True if it left the stage. */
static bool present(wc_mrpb *s, const mrpb_ent *e, uint64_t now)
{
    wc_stage_env *env = s->base.env;
    wc_fail_reason why = WC_FAIL_NONE;
    if (wc_stage_present(env, &e->req, e->load, now, &why) == WC_RESERVATION_FAIL) {
        if (!bypasses(s, e, why)) {
            if (!s->out_used) s->out = *e;
            if (s->stall_from && why != s->out_why) { /* the stall's cause changed */
                wc_stage_add_stall(env, now - s->stall_from, s->out_why);
                s->stall_from = now;
            }
            s->out_used = true;
            s->out_why = why;
            if (!s->stall_from) s->stall_from = now;
            return false;
        }
        wc_stage_send_around(env, &e->req, e->load, now);
        /* The L1 counted the attempt as a reservation fail; the read itself
         * is an access that bypassed it ("L1 bypasses" in the report). */
        wc_stage_count_bypassed(env, &e->req);
    }
    if (s->stall_from) {
        wc_stage_add_stall(env, now - s->stall_from, s->out_why);
        s->stall_from = 0;
    }
    s->out_used = false;
    if (e->last) wc_stage_inst_sent(env, e->load);
    return true;
}

/* ---- the cycle ---------------------------------------------------------------- */

/* The current instruction's next request leaves the input: into its queue,
 * or (a write under flush) through the L1 port once its queue is empty.
 * Called after the request was placed. */
static void advance_cur(wc_mrpb *s, uint64_t now)
{
    if (++s->cur < s->end) return;
    s->cur = s->end = NULL;
    s->base.full = false;
    wc_stage_freed(s->base.env, now);
}

static bool flush_write(const wc_mrpb *s)
{
    return s->cur && s->cfg.flush && is_write(s->cur);
}

/* Enqueue half of the cycle (the paper's split cycle: enqueue, then
 * dequeue).  Returns the full queue a read waits for, or -1. */
static int enqueue_step(wc_mrpb *s, uint64_t now)
{
    if (!s->cur || flush_write(s)) return -1;
    unsigned q = queue_of(s, s->cur);
    if (s->n[q] == s->cfg.len) return (int)q;
    enqueue(s, q, now);
    advance_cur(s, now);
    return -1;
}

/* Dequeue half: the flush rules first, then the drain policy. */
static void drain_step(wc_mrpb *s, int full_q, uint64_t now)
{
    int q = -1;
    if (flush_write(s)) {
        unsigned wq = queue_of(s, s->cur);
        if (s->n[wq] == 0 && epoch_clear(s, s->cur_bslot, s->cur_epoch)) {
            /* the write's queue is empty: it goes straight to the L1 */
            mrpb_ent w = {.req = *s->cur,
                          .load = s->cur_load,
                          .epoch = s->cur_epoch,
                          .bslot = s->cur_bslot,
                          .last = s->cur + 1 == s->end};
            advance_cur(s, now);
            present(s, &w, now);
            return;
        }
        if (drainable(s, wq, now)) q = (int)wq; /* flush the write's queue */
    } else if (full_q >= 0 && s->cfg.flush && drainable(s, (unsigned)full_q, now)) {
        q = full_q; /* make room for the waiting read */
    }
    if (q < 0) q = pick_queue(s, now);
    if (q < 0) return;
    mrpb_ent e = dequeue(s, (unsigned)q);
    present(s, &e, now);
}

/* The next cycle with work: WC_NEVER while the L1 refused the outbound
 * request for a reason only a fill resolves and nothing can enter. */
static uint64_t next_cycle(wc_mrpb *s, uint64_t now)
{
    if (s->out_used) {
        if (s->out_why == WC_FAIL_MISS_QUEUE_FULL) return now + 1;
        bool can_enter = s->cur && !flush_write(s) && s->n[queue_of(s, s->cur)] < s->cfg.len;
        return can_enter ? now + 1 : WC_NEVER;
    }
    if (s->cur) return now + 1;
    uint64_t t = WC_NEVER; /* the earliest head to come out of its latency */
    for (unsigned q = 0; q < s->nq; q++)
        if (s->n[q] && head_of(s, q)->ready < t) t = head_of(s, q)->ready;
    return t <= now ? now + 1 : t;
}

static void mrpb_cycle(wc_mstage *ms, uint64_t now)
{
    wc_mrpb *s = (wc_mrpb *)ms;
    int full_q = enqueue_step(s, now);
    if (s->out_used) {
        mrpb_ent e = s->out;
        present(s, &e, now); /* the retry takes this cycle's L1 port */
    } else {
        drain_step(s, full_q, now);
    }
    ms->holding = s->cur || s->out_used || s->queued;
    ms->retry_at = ms->holding ? next_cycle(s, now) : WC_NEVER;
}

static void mrpb_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n,
                        uint32_t load, uint64_t now)
{
    wc_mrpb *s = (wc_mrpb *)ms;
    s->cur = reqs;
    s->end = reqs + n;
    s->cur_load = load;
    s->cur_bslot = wc_smview_warp_block(ms->env->view, slot) % s->n_bslots;
    s->cur_epoch = s->epoch[s->cur_bslot];
    ms->full = ms->holding = true;
    ms->retry_at = now + 1;
}

static void mrpb_barrier(wc_mstage *ms, unsigned slot, uint64_t now)
{
    wc_mrpb *s = (wc_mrpb *)ms;
    s->epoch[wc_smview_warp_block(ms->env->view, slot) % s->n_bslots]++;
}

static void mrpb_stats(const wc_mstage *ms, void (*emit)(void *ctx, const char *name, double v),
                       void *ctx)
{
    const wc_mrpb *s = (const wc_mrpb *)ms;
    emit(ctx, "mrpb.enqueued", (double)s->enqueued);
    emit(ctx, "mrpb.queued_at_enqueue", (double)s->queued_at_enqueue);
    emit(ctx, "mrpb.reordered", (double)s->reordered);
}

/* ---- parameters ---------------------------------------------------------------- */

/* Table 4's final design is every default: warp ID, fixed order, 8
 * entries, flush, 5 cycles, bypass on associativity stalls. */
static const char *const mrpb_sigs[] = {"warp", "block", "wib", NULL};     /* enum sig */
static const char *const mrpb_drains[] = {"fixed", "rr", "longest", NULL}; /* enum drain */
static const char *const mrpb_bypass[] = {"none", "assoc", "all", NULL};   /* enum bypass */

static const wc_param_desc mrpb_params[] = {
    {.key = "sig",
     .type = WC_PARAM_ENUM,
     .words = mrpb_sigs,
     .def = SIG_WARP,
     .help = "queue signature: warp slot, block slot or the warp's index in its block"},
    {.key = "drain",
     .type = WC_PARAM_ENUM,
     .words = mrpb_drains,
     .def = DRAIN_FIXED,
     .help = "drain policy: fixed priority, round robin, or the longest queue"},
    {.key = "greedy",
     .type = WC_PARAM_BOOL,
     .def = 0,
     .help = "keep draining the queue that drained last while it has a ready head"},
    {.key = "len", .def = 8, .min = 1, .max = 1024, .unit = "entries", .help = "entries per queue"},
    {.key = "latency",
     .def = 5,
     .min = 0,
     .max = 1000,
     .unit = "cycles",
     .help = "cycles a request spends in the buffer at least"},
    {.key = "flush",
     .type = WC_PARAM_BOOL,
     .def = 1,
     .help = "writes go to the L1 directly (in order with their block's barriers)"},
    {.key = "bypass",
     .type = WC_PARAM_ENUM,
     .words = mrpb_bypass,
     .def = BYPASS_ASSOC,
     .help = "send a request the L1 refuses around it: never, on associativity stalls, always"},
    {.key = "reorder",
     .type = WC_PARAM_BOOL,
     .def = 1,
     .help = "0: one FIFO for everything (the paper's bypass-only configuration)"},
    {0},
};

/* ---- create / destroy ------------------------------------------------------------ */

static void mrpb_destroy(wc_mstage *ms)
{
    wc_mrpb *s = (wc_mrpb *)ms;
    if (!s) return;
    free(s->ent);
    free(s->head);
    free(s->n);
    free(s->epoch);
    free(s->runs);
    free(s->run_head);
    free(s->n_runs);
    free(s);
}

static wc_mstage *mrpb_create(wc_stage_env *env, const wc_param_values *params, wc_err *err)
{
    mrpb_cfg c = {.sig = (enum sig)wc_param_u(params, "sig"),
                  .drain = (enum drain)wc_param_u(params, "drain"),
                  .greedy = wc_param_b(params, "greedy"),
                  .flush = wc_param_b(params, "flush"),
                  .reorder = wc_param_b(params, "reorder"),
                  .bypass = (enum bypass)wc_param_u(params, "bypass"),
                  .len = (unsigned)wc_param_u(params, "len"),
                  .latency = (unsigned)wc_param_u(params, "latency")};
    wc_mrpb *s = calloc(1, sizeof *s);
    if (!s) {
        wc_errf(err, "out of memory (memory stage)");
        return NULL;
    }
    s->cfg = c;
    s->base.env = env;
    s->base.retry_at = WC_NEVER;
    s->last_q = -1;
    unsigned bslots = env->view->n_block_slots ? env->view->n_block_slots : 1;
    if (!c.reorder)
        s->nq = 1;
    else if (c.sig == SIG_BLOCK)
        s->nq = bslots; /* 8 on Fermi */
    else if (c.sig == SIG_WIB)
        s->nq = WC_MAX_BLOCK_WARPS; /* 32 */
    else
        s->nq = env->view->n_slots ? env->view->n_slots : 1; /* 48 on Fermi */
    s->n_bslots = bslots;
    s->run_cap = s->nq * c.len + 1;
    s->ent = calloc((size_t)s->nq * c.len, sizeof *s->ent);
    s->head = calloc(s->nq, sizeof *s->head);
    s->n = calloc(s->nq, sizeof *s->n);
    s->epoch = calloc(bslots, sizeof *s->epoch);
    s->runs = calloc((size_t)bslots * s->run_cap, sizeof *s->runs);
    s->run_head = calloc(bslots, sizeof *s->run_head);
    s->n_runs = calloc(bslots, sizeof *s->n_runs);
    if (!s->ent || !s->head || !s->n || !s->epoch || !s->runs || !s->run_head || !s->n_runs) {
        mrpb_destroy(&s->base);
        wc_errf(err, "out of memory (memory stage)");
        return NULL;
    }
    return &s->base;
}

const wc_mstage_ops wc_mstage_mrpb = {
    .name = "mrpb",
    .help = "seed 004's memory request prioritization buffer: signature queues, drain policy, "
            "flush, bypass on stall",
    .params = mrpb_params,
    .create = mrpb_create,
    .destroy = mrpb_destroy,
    .accept = mrpb_accept,
    .cycle = mrpb_cycle,
    .stats = mrpb_stats,
    .barrier = mrpb_barrier,
};
WC_PLUGIN(stage, wc_mstage_mrpb, 30);
