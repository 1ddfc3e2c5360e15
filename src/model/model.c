/*
 * model.c - the reuse-distance GPU cache model of seed 003
 * (003_ffafd1cb931cbd21.txt, sections 4.1-4.5): one run over every kernel of a
 * source with one combination of the five extensions.
 *
 * Per modelled core the run keeps: a FIFO queue of ready warps (4.5), a heap of
 * warps waiting for their latency, one LRU stack per cache set (4.3, sdstack.c),
 * a map line -> slot with each line's stack stamp and in-flight state (4.2),
 * MSHR counters (4.4), and a heap of pending stack effects (4.2).
 *
 * One time step issues one warp instruction per core (the paper's tables: one
 * column per issue).  A step:
 *   1. the warp at the head of the queue issues its line requests in order; the
 *      distance of each is read from its set's stack *at issue*; a miss that
 *      needs a new MSHR when none is free stops the warp, which goes to the
 *      back of the queue and resumes with that request later (Table 5);
 *   2. the stack effects due at this time are applied in issue order (Table 4:
 *      effects of this step come after effects issued earlier);
 *   3. warps whose latency has elapsed join the back of the queue.
 * One exception reconciles Tables 4 and 5: a request that finds its own line's
 * fill due in this very step is served by that fill (the due effects are
 * applied before it), so it hits instead of missing on a line that is arriving.
 *
 * Cores: blocks go round-robin over `cores` cores.  With `core` = K only core
 * K's blocks are modelled (the seed's choice, static assignment); with core =
 * -1 all cores run in lockstep with private caches and a finished block is
 * replaced by the next block of the kernel (first-done, first-serve).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"
#include "model/sdstack.h"
#include "util/rng.h"
#include "warpcache/cache.h"
#include "warpcache/coalescer.h"

#define NO_WARP UINT32_MAX

/* ---- lines of a warp instruction ------------------------------------------ */

unsigned wc_model_split_lines(const wc_winst *in, unsigned line_log2, uint64_t *out)
{
    unsigned n = 0;
    unsigned width = in->width ? in->width : 1;
    for (unsigned lane = 0; lane < WC_WARP_SIZE; lane++) {
        if (!(in->mask & (1u << lane))) continue;
        uint64_t a = wc_winst_lane_addr(in, lane);
        uint64_t first = a >> line_log2, last = (a + width - 1) >> line_log2;
        for (uint64_t l = first; l <= last && n < WC_MAX_REQS_PER_INST; l++) {
            bool seen = n && out[n - 1] == l; /* the common, coalesced case */
            for (unsigned i = 0; i + 1 < n && !seen; i++) seen = out[i] == l;
            if (!seen) out[n++] = l;
        }
    }
    return n;
}

/* ---- per-core state -------------------------------------------------------- */

typedef struct mwarp {
    uint32_t block;   /* block slot on the core */
    uint32_t warp;    /* warp index within the block */
    uint32_t gen;     /* bumped when the slot gets a new warp (MSHR ownership) */
    uint32_t mshr;    /* MSHR entries allocated by this warp, still outstanding */
    uint16_t n, next; /* requests of the current instruction, next to issue */
    bool live, have_inst;
    uint64_t lines[WC_MAX_REQS_PER_INST];
    /* scoreboard=1: when each register (number mod MODEL_REGS) is ready, the
     * current load's destinations, and the step its operands are ready */
    uint64_t *ready;
    uint16_t dst[WC_MAX_DST];
    uint8_t ndst;
    uint64_t wake;
} mwarp;

#define MODEL_REGS 256 /* registers tracked per warp; higher numbers alias (false waits only) */

typedef struct mblock {
    void *handle;
    uint64_t id;
    uint32_t warps_left;
    bool live;
} mblock;

typedef struct mcore {
    uint32_t id;
    /* lines */
    wc_linemap map;
    uint32_t *stamp, *set, *pend, *owner, *owner_gen;
    uint64_t *fill; /* effect time of the line's in-flight miss */
    size_t lcap;
    wc_sdstack *stacks;
    /* warps and blocks */
    mwarp *warps;
    mblock *blocks;
    uint32_t nwarps, nblocks, live_blocks;
    uint32_t *queue; /* ring of ready warp slots */
    uint32_t qhead, qlen, qcap;
    wc_mheap waiting; /* warp wake-ups */
    wc_mheap effects; /* stack effects later than their issue step */
    wc_mev *now;      /* effects due in the issuing step, in issue order */
    size_t nnow, nowcap;
    uint32_t mshr_used;
    uint64_t busy_until;     /* step_requests: the core's LD/ST unit is busy before this step */
    uint64_t next_own_block; /* static assignment: next block id of this core */
    wc_model_counts cnt;
} mcore;

typedef struct mrun {
    const wc_model_opts *o;
    wc_source *src;
    wc_kernel k;
    wc_index index;
    bool use_index;
    unsigned line_log2;
    uint32_t nsets, ways;
    bool latency, mshr, divergence, assoc;
    uint32_t ncores; /* cores the blocks are spread over */
    uint32_t nmodel; /* cores modelled */
    mcore *cores;
    uint32_t active;     /* blocks per core at a time */
    uint32_t wpb, tpb;   /* warps / threads per block */
    uint64_t nblocks;    /* blocks of the kernel that are modelled */
    uint64_t next_block; /* dynamic assignment: next block id */
    uint64_t seq;
    uint64_t time;
    uint64_t rng;
    double spare;
    bool have_spare;
    wc_rd_hist *hist;
    wc_model_event_fn on_event;
    void *ctx;
    wc_err *err;
    int failed;
} mrun;

static int oom(mrun *r)
{
    r->failed = 1;
    return wc_errf(r->err, "model: out of memory");
}

/* ---- latencies (section 4.2): lambda_min + |N(0, sigma^2)| ------------------ */

static double normal01(mrun *r)
{
    if (r->have_spare) {
        r->have_spare = false;
        return r->spare;
    }
    double u1 = 1.0 - wc_rng_unit(&r->rng); /* (0, 1] */
    double u2 = wc_rng_unit(&r->rng);
    double rad = sqrt(-2.0 * log(u1));
    r->spare = rad * sin(2.0 * M_PI * u2);
    r->have_spare = true;
    return rad * cos(2.0 * M_PI * u2);
}

static uint64_t memory_latency(mrun *r)
{
    if (!r->latency) return 0;
    uint64_t lat = r->o->lambda_min;
    if (r->o->sigma > 0) lat += (uint64_t)llround(fabs(r->o->sigma * normal01(r)));
    return lat;
}

/* ---- line state -------------------------------------------------------------- */

static uint32_t set_of_line(const mrun *r, uint64_t line)
{
    if (r->nsets == 1) return 0;
    if (r->use_index) return wc_index_set(&r->index, line << r->line_log2);
    return (uint32_t)(line & (r->nsets - 1));
}

/* Slot of a line, creating its state (first use: *cold). */
static uint32_t line_slot(mrun *r, mcore *c, uint64_t line, bool *cold)
{
    uint32_t slot = wc_linemap_get(&c->map, line, cold);
    if (slot == WC_SD_NONE) return WC_SD_NONE;
    if (!*cold) return slot;
    if (slot >= c->lcap) {
        size_t cap = c->lcap ? c->lcap * 2 : 1024;
        uint32_t *p[5] = {c->stamp, c->set, c->pend, c->owner, c->owner_gen};
        for (int i = 0; i < 5; i++) {
            uint32_t *q = realloc(p[i], cap * sizeof *q);
            if (!q) return WC_SD_NONE;
            p[i] = q;
        }
        c->stamp = p[0], c->set = p[1], c->pend = p[2], c->owner = p[3], c->owner_gen = p[4];
        uint64_t *f = realloc(c->fill, cap * sizeof *f);
        if (!f) return WC_SD_NONE;
        c->fill = f;
        c->lcap = cap;
    }
    c->stamp[slot] = 0;
    c->set[slot] = set_of_line(r, line);
    c->pend[slot] = 0;
    c->owner[slot] = NO_WARP;
    c->owner_gen[slot] = 0;
    c->fill[slot] = 0;
    return slot;
}

/* Applies one stack effect: the line moves to the top of its set's stack; the
 * last outstanding miss of a line frees its MSHR entry. */
static int apply_effect(mrun *r, mcore *c, const wc_mev *e)
{
    uint32_t slot = e->slot;
    if (wc_sdstack_touch(&c->stacks[c->set[slot]], slot, c->stamp) < 0) return oom(r);
    if (e->miss && --c->pend[slot] == 0) {
        c->mshr_used--;
        uint32_t w = c->owner[slot];
        if (w != NO_WARP && c->warps[w].gen == c->owner_gen[slot] && c->warps[w].mshr)
            c->warps[w].mshr--;
        c->owner[slot] = NO_WARP;
    }
    return 0;
}

/* Effects queued in earlier steps and due by time t, in (time, issue) order. */
static int drain_due(mrun *r, mcore *c, uint64_t t)
{
    while (c->effects.n && c->effects.v[0].time <= t) {
        wc_mev e = wc_mheap_pop(&c->effects);
        if (apply_effect(r, c, &e) < 0) return -1;
    }
    return 0;
}

static int schedule_effect(mrun *r, mcore *c, uint32_t slot, uint64_t at, bool miss)
{
    wc_mev e = {at, r->seq++, slot, miss};
    if (at > r->time) return wc_mheap_push(&c->effects, e) < 0 ? oom(r) : 0;
    if (c->nnow == c->nowcap) {
        size_t cap = c->nowcap ? c->nowcap * 2 : 256;
        wc_mev *v = realloc(c->now, cap * sizeof *v);
        if (!v) return oom(r);
        c->now = v;
        c->nowcap = cap;
    }
    c->now[c->nnow++] = e;
    return 0;
}

/* ---- warps and blocks -------------------------------------------------------- */

static void queue_push(mcore *c, uint32_t w)
{
    c->queue[(c->qhead + c->qlen) % c->qcap] = w;
    c->qlen++;
}

static uint32_t queue_pop(mcore *c)
{
    uint32_t w = c->queue[c->qhead];
    c->qhead = (c->qhead + 1) % c->qcap;
    c->qlen--;
    return w;
}

static bool modelled_op(const mrun *r, const wc_winst *in)
{
    if (!in->mask) return false;
    if (in->flags & WC_INST_NO_L1_ALLOC) return false;
    if (in->op == WC_OP_LDG || in->op == WC_OP_LDL) return true;
    return r->o->stores && (in->op == WC_OP_STG || in->op == WC_OP_STL);
}

/* Lanes of threads beyond max_threads are not modelled. */
static uint32_t thread_limit_mask(const mrun *r, const mblock *b, uint32_t warp)
{
    uint64_t lim = r->o->max_threads;
    uint64_t t0 = b->id * r->tpb + (uint64_t)warp * WC_WARP_SIZE;
    if (!lim || t0 + WC_WARP_SIZE <= lim) return 0xffffffffu;
    if (t0 >= lim) return 0;
    return (1u << (lim - t0)) - 1u;
}

/* The instruction's line requests: the project's coalescer at its 128 B and
 * 32 B granularities (Fermi's rules, seed 003 section 4.1), the generic
 * unique-line split for other line sizes (cache-line sweeps). */
static unsigned inst_lines(const mrun *r, const wc_winst *in, uint64_t *lines)
{
    if (r->line_log2 != 7 && r->line_log2 != 5)
        return wc_model_split_lines(in, r->line_log2, lines);
    wc_mem_req reqs[WC_MAX_REQS_PER_INST];
    wc_xfer x = {1u << r->line_log2, (uint8_t)r->line_log2, 5};
    unsigned n = wc_coalesce(in, &x, reqs);
    for (unsigned i = 0; i < n; i++) lines[i] = reqs[i].addr >> r->line_log2;
    return n;
}

/* scoreboard=1: the warp issues in order, so instruction `in` issues once
 * the registers it reads and writes are ready and not before the ones ahead
 * of it (w->wake so far); a skipped instruction's result is ready when it
 * issues (the model has no compute time). */
static void scoreboard_walk(mwarp *w, const wc_winst *in, bool modelled)
{
    for (unsigned i = 0; i < in->nsrc; i++)
        if (in->src[i] != WC_REG_NONE && w->ready[in->src[i] % MODEL_REGS] > w->wake)
            w->wake = w->ready[in->src[i] % MODEL_REGS];
    for (unsigned i = 0; i < in->ndst; i++)
        if (in->dst[i] != WC_REG_NONE && w->ready[in->dst[i] % MODEL_REGS] > w->wake)
            w->wake = w->ready[in->dst[i] % MODEL_REGS];
    if (modelled) {
        w->ndst = 0;
        for (unsigned i = 0; i < in->ndst && i < WC_MAX_DST; i++)
            if (in->dst[i] != WC_REG_NONE) w->dst[w->ndst++] = in->dst[i];
        return;
    }
    for (unsigned i = 0; i < in->ndst; i++)
        if (in->dst[i] != WC_REG_NONE) w->ready[in->dst[i] % MODEL_REGS] = w->wake;
}

/* Loads the warp's next modelled memory instruction; 0 = the warp is done. */
static int fetch_inst(mrun *r, mcore *c, mwarp *w)
{
    mblock *b = &c->blocks[w->block];
    uint32_t lim = thread_limit_mask(r, b, w->warp);
    wc_winst in;
    if (w->ready && w->wake < r->time) w->wake = r->time;
    for (;;) {
        int rc = r->src->ops->next_inst(r->src, b->handle, w->warp, &in, r->err);
        if (rc < 0) {
            r->failed = 1;
            return -1;
        }
        if (rc == 0) return 0; /* an EXIT may be predicated off: only the end counts */
        in.mask &= lim;
        bool modelled = modelled_op(r, &in);
        if (w->ready) scoreboard_walk(w, &in, modelled);
        if (!modelled) continue;
        w->n = (uint16_t)inst_lines(r, &in, w->lines);
        w->next = 0;
        if (w->n) {
            c->cnt.warp_insts++;
            return 1;
        }
    }
}

static int open_block(mrun *r, mcore *c, uint64_t id)
{
    uint32_t bs = 0;
    while (bs < r->active && c->blocks[bs].live) bs++;
    mblock *b = &c->blocks[bs];
    if (r->src->ops->open_block(r->src, id, &b->handle, r->err) <= 0) {
        r->failed = 1;
        return -1;
    }
    b->id = id;
    b->live = true;
    b->warps_left = r->wpb;
    c->live_blocks++;
    uint64_t threads = r->tpb;
    if (r->o->max_threads && (id + 1) * r->tpb > r->o->max_threads)
        threads = r->o->max_threads - id * r->tpb;
    c->cnt.threads += threads;
    for (uint32_t i = 0; i < r->wpb; i++) {
        uint32_t ws = bs * r->wpb + i;
        mwarp *w = &c->warps[ws];
        w->block = bs;
        w->warp = i;
        w->gen++;
        w->mshr = 0;
        w->live = true;
        if (w->ready) { /* a new warp: nothing pending */
            memset(w->ready, 0, MODEL_REGS * sizeof *w->ready);
            w->wake = r->time;
        }
        int rc = fetch_inst(r, c, w);
        if (rc < 0) return -1;
        w->have_inst = rc > 0;
        if (w->have_inst) {
            queue_push(c, ws);
        } else {
            w->live = false;
            b->warps_left--;
        }
    }
    return 0;
}

static void close_block(mrun *r, mcore *c, uint32_t bs)
{
    mblock *b = &c->blocks[bs];
    r->src->ops->close_block(r->src, b->handle);
    b->handle = NULL;
    b->live = false;
    c->live_blocks--;
}

/* Next block for core c, or UINT64_MAX when none is left. */
static uint64_t next_block_for(mrun *r, mcore *c)
{
    uint64_t id;
    if (r->o->core >= 0) {
        id = c->next_own_block;
        if (id >= r->nblocks) return UINT64_MAX;
        c->next_own_block += r->ncores;
    } else {
        id = r->next_block;
        if (id >= r->nblocks) return UINT64_MAX;
        r->next_block++;
    }
    return id;
}

/* Fills the core's free block slots (all of them in `sets` mode only when the
 * whole set is done). */
static int refill_blocks(mrun *r, mcore *c)
{
    if (r->o->blocks == WC_MODEL_BLOCKS_SETS && c->live_blocks) return 0;
    while (c->live_blocks < r->active) {
        uint64_t id = next_block_for(r, c);
        if (id == UINT64_MAX) break;
        if (open_block(r, c, id) < 0) return -1;
        /* A block whose warps have no memory instruction is done at once. */
        for (uint32_t bs = 0; bs < r->active; bs++)
            if (c->blocks[bs].live && c->blocks[bs].warps_left == 0) close_block(r, c, bs);
    }
    return 0;
}

/* ---- issue ------------------------------------------------------------------- */

enum { ISSUED_ALL, REFUSED };

/* Issues requests of warp ws from w->next on; returns ISSUED_ALL or REFUSED
 * (MSHRs), or -1.  *delay is the largest latency issued. */
static int issue_warp(mrun *r, mcore *c, uint32_t ws, uint64_t *delay)
{
    mwarp *w = &c->warps[ws];
    uint64_t t = r->time;
    const wc_model_opts *o = r->o;
    *delay = 0;
    while (w->next < w->n) {
        uint64_t line = w->lines[w->next];
        bool created;
        uint32_t slot = line_slot(r, c, line, &created);
        if (slot == WC_SD_NONE) return oom(r);
        /* A fill due now serves this request (see the header comment). */
        if (c->pend[slot] && c->fill[slot] <= t && drain_due(r, c, t) < 0) return -1;
        uint32_t set = c->set[slot];
        uint64_t d = wc_sdstack_distance(&c->stacks[set], c->stamp[slot]);
        bool hit = d < r->ways;
        bool inflight = c->pend[slot] > 0;
        /* first use: never in the stack, nothing in flight (a refused first try
         * created the slot without using it) */
        bool cold = !c->stamp[slot] && !inflight;
        bool checked = !o->mshr_first_only || w->next == 0;
        if (!hit && !inflight && r->mshr && checked) {
            bool core_full = o->mshr_per_core && c->mshr_used >= o->mshr_per_core;
            bool warp_full = o->mshr_per_warp && w->mshr >= o->mshr_per_warp;
            if (core_full || warp_full) {
                c->cnt.mshr_stalls++;
                if (r->on_event) {
                    wc_model_event ev = {c->id, ws,  c->blocks[w->block].id, line,         t,
                                         0,     d,   c->mshr_used,           c->mshr_used, false,
                                         false, true};
                    r->on_event(r->ctx, &ev);
                }
                return REFUSED;
            }
        }
        c->cnt.accesses++;
        wc_rd_hist_add(r->hist, d);
        if (hit) {
            c->cnt.hits++;
        } else {
            c->cnt.misses++;
            if (d == WC_SD_INF) c->cnt.inf++;
            if (cold) c->cnt.cold++;
            if (inflight) c->cnt.inflight++;
        }
        uint32_t mshr_before = c->mshr_used;
        uint64_t at;
        if (hit) {
            at = t + (r->latency ? o->hit_latency : 0);
        } else if (inflight && o->clip && r->latency) {
            at = c->fill[slot] > t ? c->fill[slot] : t; /* merged with the in-flight request */
        } else {
            at = t + memory_latency(r);
        }
        if (!hit) {
            if (!inflight) {
                c->mshr_used++;
                w->mshr++;
                c->owner[slot] = ws;
                c->owner_gen[slot] = w->gen;
                c->fill[slot] = at;
            }
            c->pend[slot]++;
        }
        if (schedule_effect(r, c, slot, at, !hit) < 0) return -1;
        if (at - t > *delay) *delay = at - t;
        if (r->on_event) {
            wc_model_event ev = {c->id, ws,          c->blocks[w->block].id, line, t,        at,
                                 d,     mshr_before, c->mshr_used,           hit,  inflight, false};
            r->on_event(r->ctx, &ev);
        }
        w->next++;
    }
    return ISSUED_ALL;
}

/* One time step of one core: the head warp issues (section 4.5). */
static int core_issue(mrun *r, mcore *c)
{
    if (!c->qlen || r->time < c->busy_until) return 0;
    uint32_t ws = queue_pop(c);
    mwarp *w = &c->warps[ws];
    uint64_t delay;
    uint16_t first = w->next;
    int rc = issue_warp(r, c, ws, &delay);
    if (rc < 0) return -1;
    if (r->o->step_requests && w->next > first + 1) /* one line per step */
        c->busy_until = r->time + (uint64_t)(w->next - first);
    if (rc == REFUSED) { /* back of the queue, resumes where it stopped */
        queue_push(c, ws);
        return 0;
    }
    if (w->ready) /* the load's registers are ready once its slowest request is back */
        for (unsigned i = 0; i < w->ndst; i++) w->ready[w->dst[i] % MODEL_REGS] = r->time + delay;
    rc = fetch_inst(r, c, w);
    if (rc < 0) return -1;
    if (rc == 0) {
        w->live = false;
        mblock *b = &c->blocks[w->block];
        if (--b->warps_left == 0) {
            close_block(r, c, w->block);
            if (refill_blocks(r, c) < 0) return -1;
        }
        return 0;
    }
    if (w->ready && r->divergence) { /* scoreboard: when the next load's operands are */
        delay = w->wake > r->time ? w->wake - r->time : 0;
    }
    if (r->divergence && delay) {
        wc_mev e = {r->time + delay, r->seq++, ws, 0};
        if (wc_mheap_push(&c->waiting, e) < 0) return oom(r);
    } else {
        queue_push(c, ws);
    }
    return 0;
}

/* End of a step: due effects in issue order, then warps whose latency elapsed. */
static int core_settle(mrun *r, mcore *c)
{
    if (drain_due(r, c, r->time) < 0) return -1;
    for (size_t i = 0; i < c->nnow; i++)
        if (apply_effect(r, c, &c->now[i]) < 0) return -1;
    c->nnow = 0;
    while (c->waiting.n && c->waiting.v[0].time <= r->time) {
        wc_mev e = wc_mheap_pop(&c->waiting);
        queue_push(c, e.slot);
    }
    return 0;
}

/* Earliest time at which an idle core has something to do. */
static uint64_t core_next_event(const mcore *c)
{
    uint64_t t = UINT64_MAX;
    if (c->effects.n) t = c->effects.v[0].time;
    if (c->waiting.n && c->waiting.v[0].time < t) t = c->waiting.v[0].time;
    return t;
}

/* ---- setup --------------------------------------------------------------------- */

static void core_free(mcore *c)
{
    wc_linemap_free(&c->map);
    free(c->stamp);
    free(c->set);
    free(c->pend);
    free(c->owner);
    free(c->owner_gen);
    free(c->fill);
    for (uint32_t i = 0; c->warps && i < c->nwarps; i++) free(c->warps[i].ready);
    free(c->warps);
    free(c->blocks);
    free(c->queue);
    free(c->now);
    wc_mheap_free(&c->waiting);
    wc_mheap_free(&c->effects);
}

static void run_free_cores(mrun *r)
{
    if (!r->cores) return;
    for (uint32_t i = 0; i < r->nmodel; i++) {
        mcore *c = &r->cores[i];
        for (uint32_t b = 0; b < r->active && c->blocks; b++)
            if (c->blocks[b].live) close_block(r, c, b);
        if (c->stacks)
            for (uint32_t s = 0; s < r->nsets; s++) wc_sdstack_free(&c->stacks[s]);
        free(c->stacks);
        core_free(c);
    }
    free(r->cores);
    r->cores = NULL;
}

/* Blocks a core holds at a time: CUDA occupancy limits (seed 003 section 4.1). */
static uint32_t active_blocks(const wc_config *cfg, const wc_kernel *k)
{
    uint32_t tpb = wc_kernel_threads_per_block(k);
    uint32_t wpb = wc_kernel_warps_per_block(k);
    uint32_t n = cfg->max_blocks_per_sm ? cfg->max_blocks_per_sm : 8;
    uint32_t threads = cfg->max_threads_per_sm ? cfg->max_threads_per_sm : 1536;
    uint32_t by_threads = threads / (wpb * WC_WARP_SIZE);
    if (by_threads < n) n = by_threads;
    if (cfg->regs_per_sm && k->regs_per_thread) {
        uint64_t per_block = (uint64_t)k->regs_per_thread * wpb * WC_WARP_SIZE;
        uint64_t by_regs = cfg->regs_per_sm / per_block;
        if (by_regs < n) n = (uint32_t)by_regs;
    }
    if (cfg->shmem_per_sm && k->shmem_bytes) {
        uint64_t by_smem = cfg->shmem_per_sm / k->shmem_bytes;
        if (by_smem < n) n = (uint32_t)by_smem;
    }
    (void)tpb;
    return n ? n : 1; /* a block that exceeds the limits still runs, alone */
}

static int setup_kernel(mrun *r, const wc_config *cfg)
{
    r->tpb = wc_kernel_threads_per_block(&r->k);
    r->wpb = wc_kernel_warps_per_block(&r->k);
    if (!r->tpb) return wc_errf(r->err, "model: kernel '%s' has an empty block", r->k.name);
    r->active = active_blocks(cfg, &r->k);
    r->nblocks = wc_dim3_count(r->k.grid);
    if (r->o->max_threads) {
        uint64_t lim = (r->o->max_threads + r->tpb - 1) / r->tpb;
        if (lim < r->nblocks) r->nblocks = lim;
    }
    r->next_block = 0;
    r->time = 0;
    r->nmodel = r->o->core >= 0 ? 1 : r->ncores;
    r->cores = calloc(r->nmodel, sizeof *r->cores);
    if (!r->cores) return oom(r);
    uint32_t nw = r->active * r->wpb;
    for (uint32_t i = 0; i < r->nmodel; i++) {
        mcore *c = &r->cores[i];
        c->id = r->o->core >= 0 ? (uint32_t)r->o->core : i;
        c->next_own_block = c->id;
        c->warps = calloc(nw, sizeof *c->warps);
        c->blocks = calloc(r->active, sizeof *c->blocks);
        c->queue = calloc(nw + 1, sizeof *c->queue);
        c->qcap = nw + 1;
        c->nwarps = nw;
        c->nblocks = r->active;
        c->stacks = calloc(r->nsets, sizeof *c->stacks);
        if (!c->warps || !c->blocks || !c->queue || !c->stacks) return oom(r);
        for (uint32_t w = 0; r->o->scoreboard && w < nw; w++)
            if (!(c->warps[w].ready = calloc(MODEL_REGS, sizeof *c->warps[w].ready))) return oom(r);
        if (wc_linemap_init(&c->map, 4096) < 0) return oom(r);
        for (uint32_t s = 0; s < r->nsets; s++)
            if (wc_sdstack_init(&c->stacks[s], r->nsets == 1 ? 4096 : 64) < 0) return oom(r);
    }
    /* Initial distribution: round-robin over the cores until they are full. */
    for (uint32_t round = 0; round < r->active; round++) {
        for (uint32_t i = 0; i < r->nmodel; i++) {
            mcore *c = &r->cores[i];
            uint64_t id = next_block_for(r, c);
            if (id == UINT64_MAX) continue;
            if (open_block(r, c, id) < 0) return -1;
            for (uint32_t bs = 0; bs < r->active; bs++)
                if (c->blocks[bs].live && c->blocks[bs].warps_left == 0) close_block(r, c, bs);
        }
    }
    for (uint32_t i = 0; i < r->nmodel; i++)
        if (refill_blocks(r, &r->cores[i]) < 0) return -1;
    return 0;
}

/* Runs the current kernel to completion. */
static int run_kernel(mrun *r)
{
    for (;;) {
        bool busy = false;
        for (uint32_t i = 0; i < r->nmodel; i++) {
            mcore *c = &r->cores[i];
            if (core_issue(r, c) < 0) return -1;
        }
        for (uint32_t i = 0; i < r->nmodel; i++) {
            mcore *c = &r->cores[i];
            if (core_settle(r, c) < 0) return -1;
            if (c->live_blocks) busy = true;
        }
        if (!busy) break;
        /* Next step; idle stretches (every queue empty) are skipped. */
        uint64_t next = UINT64_MAX;
        bool any_ready = false;
        for (uint32_t i = 0; i < r->nmodel; i++) {
            mcore *c = &r->cores[i];
            if (c->qlen) any_ready = true;
            uint64_t e = core_next_event(c);
            if (e < next) next = e;
        }
        if (any_ready || next == UINT64_MAX || next <= r->time + 1) {
            r->time++;
        } else {
            r->time = next;
        }
        if (!any_ready && next == UINT64_MAX)
            return wc_errf(r->err, "model: kernel '%s' stalled with no pending event", r->k.name);
    }
    for (uint32_t i = 0; i < r->nmodel; i++) r->cores[i].cnt.time = r->time + 1;
    return 0;
}

/* ---- results ---------------------------------------------------------------------- */

static wc_model_kernel *result_kernel(wc_model_result *res, size_t idx, const wc_kernel *k)
{
    if (idx < res->n_kernels) return &res->kernels[idx];
    if (res->n_kernels == res->cap) {
        size_t cap = res->cap ? res->cap * 2 : 8;
        wc_model_kernel *v = realloc(res->kernels, cap * sizeof *v);
        if (!v) return NULL;
        res->kernels = v;
        res->cap = cap;
    }
    wc_model_kernel *mk = &res->kernels[res->n_kernels++];
    memset(mk, 0, sizeof *mk);
    snprintf(mk->name, sizeof mk->name, "%s", k->name);
    mk->id = k->id;
    return mk;
}

static int resolve_geometry(const wc_model_opts *o, const wc_config *cfg, wc_model_result *res,
                            wc_err *err)
{
    uint32_t line = o->line_bytes ? o->line_bytes : cfg->l1.line_bytes;
    uint32_t nsets = o->nsets ? o->nsets : cfg->l1.nsets;
    uint32_t assoc = o->ways ? o->ways : cfg->l1.assoc;
    char sif = o->set_index ? o->set_index : cfg->l1.set_index;
    if (!wc_is_pow2(line)) return wc_errf(err, "model: line size %u is not a power of two", line);
    if (!wc_is_pow2(nsets)) return wc_errf(err, "model: %u sets is not a power of two", nsets);
    if (!assoc) return wc_errf(err, "model: associativity is 0");
    res->line_bytes = line;
    res->nsets = nsets;
    res->assoc = assoc;
    res->set_index = sif ? sif : 'L';
    uint32_t cores = o->cores ? o->cores : wc_config_n_sm(cfg);
    if (!cores) cores = 1;
    if (o->core >= 0 && (uint32_t)o->core >= cores)
        return wc_errf(err, "model: core %d out of range (%u cores)", o->core, cores);
    res->cores = cores;
    return 0;
}

int wc_model_run(const wc_model_opts *o, const wc_config *cfg, wc_source *src,
                 wc_model_run_kind kind, wc_model_result *res, wc_model_event_fn on_event,
                 void *ctx, wc_err *err)
{
    if (resolve_geometry(o, cfg, res, err) < 0) return -1;
    mrun r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.src = src;
    r.err = err;
    r.on_event = on_event;
    r.ctx = ctx;
    r.line_log2 = wc_log2(res->line_bytes);
    r.assoc = o->assoc && kind != WC_RUN_NO_ASSOC;
    r.latency = o->latency && kind != WC_RUN_NO_LATENCY;
    r.mshr = o->mshr && kind != WC_RUN_NO_MSHR;
    r.divergence = o->divergence;
    r.nsets = r.assoc ? res->nsets : 1;
    r.ways = r.assoc ? res->assoc : res->assoc * res->nsets;
    r.ncores = res->cores;
    r.rng = wc_rng_seed(o->seed ? o->seed : cfg->seed);
    if (r.nsets > 1) {
        r.use_index = true;
        if (wc_index_init(&r.index, res->set_index, r.nsets, res->line_bytes, cfg->ipoly_poly,
                          err) < 0)
            return -1;
    }
    wc_rd_hist scratch;
    for (size_t idx = 0;; idx++) {
        int rc = src->ops->next_kernel(src, &r.k, err);
        if (rc < 0) return -1;
        if (rc == 0) break;
        wc_model_kernel *mk = result_kernel(res, idx, &r.k);
        if (!mk) return wc_errf(err, "model: out of memory");
        memset(&scratch, 0, sizeof scratch);
        r.hist = kind == WC_RUN_FULL ? &mk->hist : &scratch;
        if (kind == WC_RUN_FULL) memset(&mk->hist, 0, sizeof mk->hist);
        rc = setup_kernel(&r, cfg);
        if (rc == 0) rc = run_kernel(&r);
        wc_model_counts sum;
        memset(&sum, 0, sizeof sum);
        if (r.cores)
            for (uint32_t i = 0; i < r.nmodel; i++) wc_model_counts_add(&sum, &r.cores[i].cnt);
        if (r.cores && r.nmodel) sum.time = r.cores[0].cnt.time;
        run_free_cores(&r);
        if (rc < 0) return -1;
        mk->run[kind] = sum;
        mk->ran[kind] = true;
    }
    return 0;
}
