/*
 * memstage_l1q.c - GPGPU-Sim's L1 latency queue as a memory stage ("l1q").
 *
 * GPGPU-Sim 4.x does not look up the L1 when the LD/ST unit handles a
 * request.  ldst_unit::process_memory_access_queue_l1cache moves at most
 * one request per cycle (per L1 bank) into the tail slot of a queue of
 * -gpgpu_l1_latency slots, and stalls the memory stage (BK_CONF) while that
 * slot is taken; the instruction leaves the stage once its requests are all
 * in the queue, so the next memory instruction, of any warp, can follow.
 * Each cycle ldst_unit::L1_latency_queue_cycle looks up the head entry (a
 * hit is answered then; a reservation fail stays at the head and is retried,
 * blocking the entries behind it) and then moves every entry one slot
 * toward the head into a free slot.  (src/gpgpu-sim/shader.cc of GPGPU-Sim
 * 4.2.0, commit 667834cf; see docs/fidelity.md.)
 *
 * warpcache's default stage ("inorder") looks the L1 up when the request
 * leaves the stage and adds -gpgpu_l1_latency to a hit's answer.  This stage
 * reproduces GPGPU-Sim's order instead: up to `depth` requests of several
 * warps are in flight ahead of the tag lookup, which changes both the order
 * in which warps reach contended sets and how far they run ahead.  The queue
 * is the hit latency here, so the SM answers hits at lookup time.
 *
 * Parameter: depth=N (slots; default -gpgpu_l1_latency, at least 1).  The
 * memory instructions issued ahead of the LD/ST unit wait in front of any
 * stage (-mem_issue_ahead, mem_issue.c); this one takes an instruction while
 * it is not full, as every stage does.  One bank (-gpgpu_l1_banks 1, the
 * Fermi files' value).  Reservation fails are
 * counted per attempt as in the other stages; the head is retried every
 * cycle while anything behind it can move, else at the SM's next fill
 * (which is when the retry can first succeed).  The cycles whose retry must
 * fail again are slept through and their attempts counted later (below).
 */
#include <stdlib.h>
#include <string.h>

#include "warpcache/stage.h"
#include "warpcache/control.h"

/*
 * The queue is kept as a FIFO of its entries rather than as slots moved one
 * by one every cycle.  The slot model (GPGPU-Sim's) is reproduced exactly:
 *   - an entry that entered the tail in cycle E moves one slot per cycle and
 *     reaches the head for the lookup of cycle E + depth, unless the entry
 *     ahead of it is in the way;
 *   - the entry ahead stays at the head while its lookup fails; when it
 *     succeeds in cycle S, the same cycle's shift moves the train behind it
 *     up, so the next entry is looked up in cycle max(E + depth, S + 1);
 *   - after a cycle's shift the tail slot is free iff fewer than depth
 *     entries are queued, so a request enters iff count < depth;
 *   - the entries are packed against a failing head once the last one has
 *     caught up: its unobstructed slot after cycle t's shift is
 *     depth - 1 - (t - E_last), packed when that is <= count - 1.
 * Each cycle is O(1) instead of O(depth), and cycles in which only entries
 * move are skipped (the stage sleeps until the head's lookup cycle).
 *
 * A failing head is retried every cycle while anything behind it moves, and
 * each attempt counts.  When the L1 says the fail holds (the same request
 * fails for the same reason until a fill, or until a miss-queue slot frees:
 * wc_stage_fail_holds_until), those cycles are slept through too: the stage
 * sleeps to the first cycle it has something else to do (the instruction's
 * last request enters the tail and the stage frees, or the fail may lift)
 * and a fill wakes it earlier; when it next runs, or takes an instruction,
 * catch_up replays the cycles slept through: one counted fail each (until
 * the entries are packed, where the per-cycle retries stop too), the
 * requests that entered the tail in them with the due each would have had,
 * and the cycle the tail was first found taken (the stall's start).  That is
 * everything those cycles did: the lookups changed nothing but the fail
 * counters, and the stage neither freed nor took anything in them.  The
 * same holds from a head's first lookup when the L1 can tell ahead that it
 * will fail (wc_stage_fail_ahead, asked when the head before it leaves and
 * it is due in the next cycle): on a miss-bound run the SM then sleeps from
 * one request's success to the fill that lets the next one through.
 */
typedef struct l1q_entry {
    wc_mem_req req;
    uint32_t load; /* load record, WC_NO_REC for a store */
    bool last;     /* the last request of its instruction */
    uint64_t due;  /* the cycle it entered the tail slot + depth: its earliest lookup */
} l1q_entry;

typedef struct wc_l1q {
    wc_mstage base; /* first */
    unsigned depth;
    l1q_entry *q; /* ring of depth entries: q[head] is the oldest */
    unsigned head, count;
    uint64_t left; /* the cycle the previous head's lookup succeeded */
    /* the instruction whose requests are entering the queue (the caller's
     * buffer, stable while the stage is full) */
    const wc_mem_req *cur, *end;
    uint32_t load;
    uint64_t stall_from; /* first cycle the tail was taken when cur wanted in */
    /* The reason of the head's latest fail: what the stall is waiting for
     * (a stall is split where the head starts failing for another reason). */
    wc_fail_reason head_why;
    /* Sleeping over a held fail of the head (wc_mstage.wake_on_fill): the
     * last cycle that ran, the ones after it replayed by catch_up, in each
     * of which the head fails for held_why. */
    uint64_t held_from;
    wc_fail_reason held_why;
} wc_l1q;

/* The first cycle the head entry can be looked up. */
static uint64_t head_due(const wc_l1q *s)
{
    uint64_t due = s->q[s->head].due;
    return due > s->left ? due : s->left + 1;
}

enum head { HEAD_EMPTY, HEAD_WAIT, HEAD_LEFT, HEAD_FAILED };

/* Looks up the head entry, if it is at the head by now. */
static enum head lookup_head(wc_stage_env *env, wc_l1q *s, uint64_t now, wc_fail_reason *why)
{
    if (!s->count) return HEAD_EMPTY;
    if (head_due(s) > now) return HEAD_WAIT;
    l1q_entry *h = &s->q[s->head];
    wc_outcome o = wc_stage_present(env, &h->req, h->load, now, why);
    if (o == WC_RESERVATION_FAIL) return HEAD_FAILED;
    if (h->last) wc_stage_inst_sent(env, h->load);
    s->head = s->head + 1 == s->depth ? 0 : s->head + 1;
    s->count--;
    s->left = now;
    return HEAD_LEFT;
}

/* Moves the current instruction's next request into the tail if it is free
 * (inline in l1q_cycle, its hot caller, as well as in catch_up). */
static inline __attribute__((always_inline)) void enter_tail(wc_stage_env *env, wc_l1q *s,
                                                             uint64_t now)
{
    if (!s->cur) return;
    if (s->count == s->depth) {
        if (!s->stall_from) s->stall_from = now;
        return;
    }
    if (s->stall_from) {
        wc_stage_add_stall(env, now - s->stall_from, s->head_why);
        s->stall_from = 0;
    }
    unsigned at = s->head + s->count;
    if (at >= s->depth) at -= s->depth;
    l1q_entry *t = &s->q[at];
    t->req = *s->cur;
    t->load = s->load;
    t->due = now + s->depth;
    t->last = ++s->cur == s->end;
    s->count++;
    if (t->last) { /* the instruction has left the stage */
        s->cur = s->end = NULL;
        if (s->base.full) {
            s->base.full = false;
            wc_stage_freed(env, now);
        }
    }
}

/* True if the entries are packed against the head after cycle now's shift. */
static bool packed(const wc_l1q *s, uint64_t now)
{
    unsigned tail = s->head + s->count - 1;
    if (tail >= s->depth) tail -= s->depth;
    return now + s->count >= s->q[tail].due;
}

/* True if, after cycle `now` in which the head failed, the stage waits for a
 * fill: nothing behind the head can move any more, and the fail is not the
 * miss queue's (which the clock lifts). */
static inline bool stuck(const wc_l1q *s, uint64_t now, wc_fail_reason why)
{
    return why != WC_FAIL_MISS_QUEUE_FULL && packed(s, now) && (!s->cur || s->count == s->depth);
}

/* Replays cycles held_from + 1 .. to of a sleep over the head's held fail as
 * l1q_cycle would have run them: each looks up the head, which fails again
 * (counted), and lets the instruction's next request into the tail or finds
 * the tail taken; after a cycle that leaves the stage stuck nothing runs
 * until the fill that ends the sleep.  `to` is before the cycle the last
 * request enters (the sleep ends there), so the stage never frees here.
 * The first of those cycles runs whatever held_from left (a sleep begins
 * only where the stage would run the next cycle); the reason becomes the
 * head's (the stall's) once a cycle has failed. */
static __attribute__((noinline)) void catch_up(wc_stage_env *env, wc_l1q *s, uint64_t to)
{
    uint64_t c = s->held_from, fails = 0;
    wc_fail_reason why = s->held_why;
    s->base.wake_on_fill = false;
    if (to <= c) return;
    s->head_why = why; /* no stall runs across cycle held_from + 1 (hold) */
    while (c < to && (c == s->held_from || !stuck(s, c, why)) && s->cur && s->count < s->depth) {
        enter_tail(env, s, ++c); /* one request a cycle while the tail frees */
        fails++;
    }
    if (c < to && (c == s->held_from || !stuck(s, c, why))) {
        /* Nothing moves any more; the cycles until the entries are packed
         * behind the head (or until `to`) each fail once, and the first finds
         * the tail taken if a request still wants in. */
        uint64_t end = to;
        if (why != WC_FAIL_MISS_QUEUE_FULL) {
            unsigned tail = s->head + s->count - 1;
            if (tail >= s->depth) tail -= s->depth;
            uint64_t due = s->q[tail].due; /* packed from cycle due - count on */
            uint64_t k = due - s->count > c + 1 ? due - s->count : c + 1;
            if (k < end) end = k;
        }
        if (s->cur && !s->stall_from) s->stall_from = c + 1;
        fails += end - c;
    }
    wc_stage_count_fails(env, why, fails);
}

/* After cycle `now`, where the stage would run again at now + 1 and the
 * head's lookup will fail for `why` in each cycle before `until`: sleeps
 * instead, until then or the cycle the instruction's last request enters
 * the tail (the stage frees then), whichever comes first. */
static void hold(wc_l1q *s, uint64_t now, uint64_t until, wc_fail_reason why)
{
    if (s->cur) {
        size_t left = (size_t)(s->end - s->cur); /* it enters in cycle now + left */
        if (left <= s->depth - s->count && now + left < until) until = now + left;
    }
    if (until <= now + 1) return;
    s->held_from = now;
    s->held_why = why;
    s->base.retry_at = until;
    s->base.wake_on_fill = true;
}

/* The head failed in cycle `now`: while the L1 says the fail holds. */
static __attribute__((noinline)) void hold_fail(wc_stage_env *env, wc_l1q *s, uint64_t now)
{
    hold(s, now, wc_stage_fail_holds_until(env, now), s->head_why);
}

/* The head left in cycle `now` and the next one is due at now + 1: if the L1
 * can tell that its lookup will fail then (colcopy: every MSHR taken by the
 * reads ahead), the stage sleeps as if it had failed.  No stall is running
 * (the request entering the freed tail ended it), and a fill in now + 1
 * wakes the stage for the lookup as before. */
static __attribute__((noinline)) void fail_ahead(wc_stage_env *env, wc_l1q *s, uint64_t now)
{
    wc_fail_reason why = WC_FAIL_NONE;
    uint64_t until = wc_stage_fail_ahead(env, &s->q[s->head].req, now + 1, &why);
    if (until > now + 1) hold(s, now, until, why);
}

static void l1q_cycle(wc_mstage *ms, uint64_t now)
{
    wc_l1q *s = (wc_l1q *)ms;
    wc_stage_env *env = ms->env;
    if (ms->wake_on_fill) catch_up(env, s, now - 1);
    wc_fail_reason why = WC_FAIL_NONE;
    enum head head = lookup_head(env, s, now, &why);
    if (head == HEAD_FAILED) {
        if (s->stall_from && why != s->head_why) { /* the stall's cause changed */
            wc_stage_add_stall(env, now - s->stall_from, s->head_why);
            s->stall_from = now;
        }
        s->head_why = why;
    }
    enter_tail(env, s, now);
    ms->holding = s->count > 0 || s->cur != NULL;
    if (!ms->holding) {
        ms->retry_at = WC_NEVER;
    } else if (s->cur && s->count < s->depth) {
        ms->retry_at = now + 1; /* one request enters per cycle */
        if (head == HEAD_FAILED)
            hold_fail(env, s, now);
        else if (head == HEAD_LEFT && s->count && head_due(s) == now + 1)
            fail_ahead(env, s, now);
    } else if (head == HEAD_FAILED) {
        /* Retried every cycle while entries still move up behind it (each
         * attempt counts as a reservation fail, as GPGPU-Sim counts them);
         * once nothing can change before a fill, at the fill. */
        if (stuck(s, now, why)) {
            ms->retry_at = WC_NEVER;
        } else {
            ms->retry_at = now + 1;
            hold_fail(env, s, now);
        }
    } else {
        uint64_t due = head_due(s); /* nothing happens before the head's lookup */
        ms->retry_at = due > now ? due : now + 1;
        if (head == HEAD_LEFT && due == now + 1) fail_ahead(env, s, now);
    }
}

static void l1q_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n,
                       uint32_t load, uint64_t now)
{
    wc_l1q *s = (wc_l1q *)ms;
    if (ms->wake_on_fill) catch_up(ms->env, s, now); /* this cycle's lookup came first */
    s->cur = reqs;
    s->end = reqs + n;
    s->load = load;
    ms->full = true;
    ms->holding = true;
    ms->retry_at = now + 1;
}

static const wc_param_desc l1q_params[] = {
    {.key = "depth",
     .min = 1,
     .max = 4096,
     .unit = "slots",
     .default_note = "-gpgpu_l1_latency",
     .help = "queue slots: the L1 hit latency (memory instructions issued ahead are "
             "-mem_issue_ahead)"},
    {0},
};

static wc_mstage *l1q_create(wc_stage_env *env, const wc_param_values *params, wc_err *err)
{
    unsigned depth = env->cfg->l1_latency ? env->cfg->l1_latency : 1;
    if (wc_param_given(params, "depth")) depth = (unsigned)wc_param_u(params, "depth");
    wc_l1q *s = calloc(1, sizeof *s);
    l1q_entry *q = calloc(depth, sizeof *q);
    if (!s || !q) {
        free(s);
        free(q);
        wc_errf(err, "out of memory (memory stage)");
        return NULL;
    }
    s->q = q;
    s->depth = depth;
    s->load = WC_NO_REC;
    s->base.env = env;
    s->base.retry_at = WC_NEVER;
    wc_stage_set_hit_latency(env, 0); /* the queue is the hit latency */
    return &s->base;
}

static void l1q_destroy(wc_mstage *ms)
{
    wc_l1q *s = (wc_l1q *)ms;
    if (s) free(s->q);
    free(s);
}

const wc_mstage_ops wc_mstage_l1q = {
    .name = "l1q",
    .help = "GPGPU-Sim's L1 latency queue: requests enter a queue of depth=N slots (default "
            "-gpgpu_l1_latency) and are looked up at its head; hits are answered there",
    .params = l1q_params,
    .create = l1q_create,
    .destroy = l1q_destroy,
    .accept = l1q_accept,
    .cycle = l1q_cycle,
};
WC_PLUGIN(stage, wc_mstage_l1q, 20);
