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
 * (which is when the retry can first succeed).
 */
#include <stdlib.h>
#include <string.h>

#include "core/memstage_sm.h"

typedef struct l1q_slot {
    wc_mem_req req;
    uint32_t load; /* load record, WC_NO_REC for a store */
    bool used;
    bool last; /* the last request of its instruction */
} l1q_slot;

typedef struct wc_l1q {
    wc_mstage base; /* first */
    unsigned depth;
    l1q_slot *q; /* q[0] is the head (looked up), q[depth - 1] the tail (filled) */
    unsigned count;
    /* the instruction whose requests are entering the queue (the caller's
     * buffer, stable while the stage is full) */
    const wc_mem_req *cur, *end;
    uint32_t load;
    uint64_t stall_from; /* first cycle the tail was taken when cur wanted in */
    /* The reason of the head's latest fail: what the stall is waiting for
     * (a stall is split where the head starts failing for another reason). */
    wc_fail_reason head_why;
} wc_l1q;

enum head { HEAD_EMPTY, HEAD_LEFT, HEAD_FAILED };

/* Looks up the head entry, if there is one. */
static enum head lookup_head(wc_sm *sm, wc_l1q *s, uint64_t now, wc_fail_reason *why)
{
    l1q_slot *h = &s->q[0];
    if (!h->used) return HEAD_EMPTY;
    wc_outcome o = wc_sm_present(sm, &h->req, h->load, now, why);
    if (o == WC_RESERVATION_FAIL) return HEAD_FAILED;
    h->used = false;
    s->count--;
    if (h->last) wc_sm_inst_sent(sm, h->load);
    return HEAD_LEFT;
}

/* Every entry moves one slot toward the head into a free slot (one pass,
 * head first, as GPGPU-Sim does); true if anything moved. */
static bool shift(wc_l1q *s)
{
    bool moved = false;
    for (unsigned i = 0; i + 1 < s->depth; i++)
        if (!s->q[i].used && s->q[i + 1].used) {
            s->q[i] = s->q[i + 1];
            s->q[i + 1].used = false;
            moved = true;
        }
    return moved;
}

/* Moves the current instruction's next request into the tail if it is free. */
static void enter_tail(wc_sm *sm, wc_l1q *s, uint64_t now)
{
    if (!s->cur) return;
    l1q_slot *t = &s->q[s->depth - 1];
    if (t->used) {
        if (!s->stall_from) s->stall_from = now;
        return;
    }
    if (s->stall_from) {
        wc_sm_add_stall(sm, now - s->stall_from, s->head_why);
        s->stall_from = 0;
    }
    t->req = *s->cur;
    t->load = s->load;
    t->used = true;
    t->last = ++s->cur == s->end;
    s->count++;
    if (t->last) { /* the instruction has left the stage */
        s->cur = s->end = NULL;
        if (s->base.full) {
            s->base.full = false;
            wc_sm_stage_freed(sm, now);
        }
    }
}

/* True if nothing can change before a fill: the head failed, the entries
 * behind it are packed against it, and no request can enter the tail. */
static bool stuck(const wc_l1q *s)
{
    for (unsigned i = 0; i < s->count; i++)
        if (!s->q[i].used) return false;
    return s->count > 0 && (!s->cur || s->q[s->depth - 1].used);
}

static void l1q_cycle(wc_mstage *ms, uint64_t now)
{
    wc_l1q *s = (wc_l1q *)ms;
    wc_sm *sm = ms->sm;
    wc_fail_reason why = WC_FAIL_NONE;
    enum head head = lookup_head(sm, s, now, &why);
    if (head == HEAD_FAILED) {
        if (s->stall_from && why != s->head_why) { /* the stall's cause changed */
            wc_sm_add_stall(sm, now - s->stall_from, s->head_why);
            s->stall_from = now;
        }
        s->head_why = why;
    }
    shift(s);
    enter_tail(sm, s, now);
    ms->holding = s->count > 0 || s->cur != NULL;
    if (!ms->holding)
        ms->retry_at = WC_NEVER;
    else if (head == HEAD_FAILED && why != WC_FAIL_MISS_QUEUE_FULL && stuck(s))
        ms->retry_at = WC_NEVER; /* only a fill can let the head through */
    else
        ms->retry_at = now + 1;
}

static void l1q_accept(wc_mstage *ms, unsigned slot, const wc_mem_req *reqs, unsigned n,
                       uint32_t load, uint64_t now)
{
    wc_l1q *s = (wc_l1q *)ms;
    s->cur = reqs;
    s->end = reqs + n;
    s->load = load;
    ms->full = true;
    ms->holding = true;
    ms->retry_at = now + 1;
}

/* Parses "key=N" into *out within lo..hi; -1 with err set otherwise. */
static int parse_param(const char *kv, size_t len, const char *key, unsigned lo, unsigned hi,
                       unsigned *out, wc_err *err)
{
    size_t kl = strlen(key);
    if (len <= kl + 1 || strncmp(kv, key, kl) != 0 || kv[kl] != '=') return 0;
    char buf[32];
    size_t vl = len - kl - 1;
    if (vl >= sizeof buf) vl = sizeof buf - 1;
    memcpy(buf, kv + kl + 1, vl);
    buf[vl] = '\0';
    char *end;
    unsigned long v = strtoul(buf, &end, 10);
    if (end == buf || *end || buf[0] == '-' || v < lo || v > hi) {
        wc_errf(err, "l1q %s must be %u..%u (got \"%s\")", key, lo, hi, buf);
        return -1;
    }
    *out = (unsigned)v;
    return 1;
}

static wc_mstage *l1q_create(wc_sm *sm, const char *params, wc_err *err)
{
    unsigned depth = sm->gpu->cfg.l1_latency ? sm->gpu->cfg.l1_latency : 1;
    for (const char *p = params ? params : ""; *p;) {
        size_t len = strcspn(p, ",");
        int r = parse_param(p, len, "depth", 1, 4096, &depth, err);
        if (r < 0) return NULL;
        if (r == 0) {
            wc_errf(err,
                    "l1q takes depth=N (got \"%.*s\"; memory instructions issued ahead "
                    "are -mem_issue_ahead)",
                    (int)len, p);
            return NULL;
        }
        p += len + (p[len] == ',');
    }
    wc_l1q *s = calloc(1, sizeof *s);
    l1q_slot *q = calloc(depth, sizeof *q);
    if (!s || !q) {
        free(s);
        free(q);
        wc_errf(err, "out of memory (memory stage)");
        return NULL;
    }
    s->q = q;
    s->depth = depth;
    s->load = WC_NO_REC;
    s->base.sm = sm;
    s->base.retry_at = WC_NEVER;
    sm->hit_latency = 0; /* the queue is the hit latency */
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
    .create = l1q_create,
    .destroy = l1q_destroy,
    .accept = l1q_accept,
    .cycle = l1q_cycle,
};
