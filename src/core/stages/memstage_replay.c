/*
 * memstage_replay.c - a memory stage that replays ("replay"): an instruction
 * whose request meets a reservation fail gives the LD/ST unit up.
 *
 * The default stage (GPGPU-Sim's LD/ST unit) holds an instruction whose
 * request cannot get an L1 line, MSHR entry or merge slot until a fill lets
 * it through, and no other warp's memory instruction - not even one that
 * would only hit - reaches the L1 meanwhile.  Fermi hardware replays
 * instead: the instruction is re-issued later for the requests it has not
 * done (the "replay" counters of Fermi's profiler), and the unit serves other
 * warps in between.  Seed 003's model does the same ("if a warp does not
 * succeed because all MSHRs are in use, it is sent to the back of the warp
 * queue", section 4.5), which is what lets warps whose lines are resident
 * run ahead of warps that wait for MSHRs (Figure 3).
 *
 * Here: one instruction at a time presents one request per cycle, as the
 * default stage.  A MISS_QUEUE_FULL fail is retried the next cycle (the
 * queue drains by itself).  Any other fail parks the instruction's remaining
 * requests and frees the stage, so the next memory instruction can issue.
 * Parked instructions wait for the SM's next fill (the first moment a retry
 * can succeed); then they resume before any new instruction is taken, one
 * at a time, oldest first, as the parameter `wake` says (replay:wake=...):
 *
 *   oldest  (default) the oldest parked instruction resumes; if it fails
 *           again it goes back to the front, and all parked ones wait for
 *           the next fill - even those a fill of another warp has let
 *           through (a per-warp MSHR limit, a merge into a line now filled);
 *   all     every parked instruction is retried once after each fill,
 *           oldest first; one that fails again keeps its place.  Seed 003,
 *           section 4.4: "while waiting for an entry to become free, the GPU
 *           processes warps that do not require MSHRs", and every failed
 *           instruction of Fermi is replayed.  A fill during the retries
 *           makes the ones already retried eligible again, so the oldest
 *           parked instruction is always the first to get a freed entry.
 *
 * A warp's parked load keeps its destination registers pending, so the
 * warp's dependent instructions wait as before; independent ones may pass
 * it, as on hardware.
 */
#include <stdlib.h>
#include <string.h>

#include "warpcache/stage.h"

typedef struct rp_inst {
    wc_mem_req reqs[WC_MAX_REQS_PER_INST];
    unsigned n, next; /* requests, and the first not yet accepted by the L1 */
    uint32_t load;
    bool parked_before; /* it was parked once: it keeps its age when parked again */
    uint64_t seen;      /* wake=all: the L1's fill count at its last fail */
} rp_inst;

typedef enum { WAKE_OLDEST, WAKE_ALL } rp_wake;

typedef struct wc_replay {
    wc_mstage base; /* first */
    rp_inst *pool;  /* n_pool instruction buffers */
    unsigned n_pool;
    int active;      /* the pool entry presenting requests, or -1 */
    int *order;      /* parked pool entries, oldest first */
    unsigned parked; /* how many */
    int *free_list;
    unsigned n_free;
    uint64_t blocked_fills; /* wake=oldest: the L1's fill count when the parked last failed */
    uint64_t stall_from;    /* a MISS_QUEUE_FULL stall in progress */
    rp_wake wake;
    unsigned from; /* the position in order[] the active instruction resumed from */
} wc_replay;

/* The position in order[] of the parked instruction to resume now, or -1:
 * under wake=oldest the front one once a fill happened since the last fail;
 * otherwise the oldest that has not failed since the latest fill. */
static int parked_next(const wc_replay *s)
{
    uint64_t fills = wc_stage_l1_fills(s->base.env);
    if (s->wake == WAKE_OLDEST) return s->parked && fills != s->blocked_fills ? 0 : -1;
    for (unsigned i = 0; i < s->parked; i++)
        if (s->pool[s->order[i]].seen != fills) return (int)i;
    return -1;
}

/* Resumes the parked instruction at position p of order[]. */
static void resume_parked(wc_replay *s, unsigned p)
{
    s->active = s->order[p];
    s->from = p;
    s->parked--;
    memmove(s->order + p, s->order + p + 1, (s->parked - p) * sizeof *s->order);
    s->base.full = true;
}

/* Parks the active instruction: at the back when it was new, else where it
 * resumed from (it keeps its age: the front under wake=oldest). */
static void park(wc_replay *s)
{
    rp_inst *in = &s->pool[s->active];
    if (in->parked_before) {
        unsigned p = s->from;
        memmove(s->order + p + 1, s->order + p, (s->parked - p) * sizeof *s->order);
        s->order[p] = s->active;
    } else {
        s->order[s->parked] = s->active;
    }
    in->parked_before = true;
    in->seen = wc_stage_l1_fills(s->base.env);
    s->parked++;
    s->active = -1;
    s->blocked_fills = in->seen;
}

static void finish_active(wc_replay *s)
{
    rp_inst *in = &s->pool[s->active];
    wc_stage_inst_sent(s->base.env, in->load);
    s->free_list[s->n_free++] = s->active;
    s->active = -1;
}

static void rp_cycle(wc_mstage *ms, uint64_t now)
{
    wc_replay *s = (wc_replay *)ms;
    wc_stage_env *env = ms->env;
    int p;
    if (s->active < 0 && (p = parked_next(s)) >= 0) resume_parked(s, (unsigned)p);
    if (s->active >= 0) {
        rp_inst *in = &s->pool[s->active];
        if (s->stall_from) {
            wc_stage_add_stall(env, now - s->stall_from, WC_FAIL_MISS_QUEUE_FULL);
            s->stall_from = 0;
        }
        wc_fail_reason why = WC_FAIL_NONE;
        wc_outcome o = wc_stage_present(env, &in->reqs[in->next], in->load, now, &why);
        if (o == WC_RESERVATION_FAIL && why == WC_FAIL_MISS_QUEUE_FULL) {
            s->stall_from = now;
        } else if (o == WC_RESERVATION_FAIL) {
            park(s);
        } else if (++in->next == in->n) {
            finish_active(s);
        }
    }
    if (s->active < 0 && (p = parked_next(s)) >= 0) resume_parked(s, (unsigned)p); /* first */
    if (s->active < 0 && ms->full) {
        ms->full = false;
        wc_stage_freed(env, now);
    }
    ms->holding = s->active >= 0 || s->parked;
    ms->retry_at = s->active >= 0 ? now + 1 : WC_NEVER; /* parked: the next fill */
}

/* Doubles the instruction buffers (parked instructions are few: one per
 * warp that met a fail, more only for warps that issue independent ones). */
static int grow(wc_replay *s)
{
    unsigned n = s->n_pool ? 2 * s->n_pool : 8;
    rp_inst *pool = realloc(s->pool, n * sizeof *pool);
    if (pool) s->pool = pool;
    int *order = pool ? realloc(s->order, n * sizeof *order) : NULL;
    if (order) s->order = order;
    int *fl = order ? realloc(s->free_list, n * sizeof *fl) : NULL;
    if (!fl) {
        wc_stage_fail(s->base.env, "out of memory (memory stage replay)");
        return -1;
    }
    s->free_list = fl;
    for (unsigned i = s->n_pool; i < n; i++) fl[s->n_free++] = (int)(n - 1 - (i - s->n_pool));
    s->n_pool = n;
    return 0;
}

static void rp_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n,
                      uint32_t load, uint64_t now)
{
    (void)slot;
    wc_replay *s = (wc_replay *)ms;
    if (!s->n_free && grow(s) < 0) { /* out of memory: the request is dropped, the run fails */
        wc_stage_inst_sent(ms->env, load);
        return;
    }
    int e = s->free_list[--s->n_free];
    rp_inst *in = &s->pool[e];
    memcpy(in->reqs, reqs, n * sizeof *reqs);
    in->n = n;
    in->next = 0;
    in->load = load;
    in->parked_before = false;
    s->active = e;
    ms->full = ms->holding = true;
    ms->retry_at = now + 1;
}

static void rp_destroy(wc_mstage *ms)
{
    wc_replay *s = (wc_replay *)ms;
    if (s) {
        free(s->pool);
        free(s->order);
        free(s->free_list);
    }
    free(s);
}

static const char *const rp_wake_words[] = {"oldest", "all", NULL}; /* rp_wake's order */

static const wc_param_desc rp_params[] = {
    {.key = "wake",
     .type = WC_PARAM_ENUM,
     .words = rp_wake_words,
     .def = WAKE_OLDEST,
     .help = "after a fill, the oldest parked instruction resumes, or every one is retried once"},
    {0},
};

static wc_mstage *rp_create(wc_stage_env *env, const wc_param_values *params, wc_err *err)
{
    rp_wake wake = (rp_wake)wc_param_u(params, "wake");
    wc_replay *s = calloc(1, sizeof *s);
    if (!s) {
        wc_errf(err, "out of memory (memory stage)");
        return NULL;
    }
    s->wake = wake;
    s->active = -1;
    s->base.env = env;
    s->base.retry_at = WC_NEVER;
    if (grow(s) < 0) {
        wc_errf(err, "out of memory (memory stage)");
        rp_destroy(&s->base);
        return NULL;
    }
    return &s->base;
}

const wc_mstage_ops wc_mstage_replay = {
    .name = "replay",
    .help = "Fermi hardware's replay: an instruction whose request meets a reservation fail "
            "(other than a full miss queue) is parked and retried after the next fill, and "
            "other warps' memory instructions use the L1 meanwhile",
    .params = rp_params,
    .create = rp_create,
    .destroy = rp_destroy,
    .accept = rp_accept,
    .cycle = rp_cycle,
};
WC_PLUGIN(stage, wc_mstage_replay, 40);
