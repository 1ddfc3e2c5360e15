/*
 * sched_two_level.c - two-level warp scheduling, GPGPU-Sim's
 * two_level_active:<active>:<inner>:<outer> (Narasiman et al., MICRO 2011).
 *
 * A scheduler keeps at most <active> warps in an active list and the rest in
 * a pending FIFO.  At each decision, as GPGPU-Sim's order_warps does every
 * cycle: active warps that wait (here: parked until an event - a load their
 * next instruction needs, or a barrier) are demoted to the back of the
 * pending FIFO, in list order; then warps from the front of the FIFO are
 * promoted until the active list is full again (outer level 1 = SRR, the only
 * one GPGPU-Sim implements).  The first ready warp of the active list issues,
 * and the list is rotated to start after it (inner level 0 = LRR, the only
 * one GPGPU-Sim implements).  New warps join the active list while it has
 * room, else the FIFO.
 *
 * What differs: warpcache skips cycles in which no warp of the scheduler can
 * issue, so demotion and promotion run once per decision rather than once per
 * cycle; and "waiting" is the engine's parked state, which also covers an
 * instruction whose destination a load is still writing.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"

typedef struct two_level {
    unsigned max_active;
    uint16_t *active; /* in priority order */
    unsigned n_active;
    uint16_t *fifo; /* pending warps, a ring of cap entries */
    unsigned head, n_pending, cap;
} two_level;

static const char *const tl_inner[] = {"0", NULL}; /* LRR: the only one GPGPU-Sim has */
static const char *const tl_outer[] = {"1", NULL}; /* SRR: likewise */

/* GPGPU-Sim's order: two_level_active:<active>:<inner>:<outer> */
static const wc_param_desc tl_params[] = {
    {.key = "active",
     .min = 1,
     .max = 65535,
     .required = true,
     .unit = "warps",
     .help = "warps in the active list"},
    {.key = "inner",
     .type = WC_PARAM_ENUM,
     .words = tl_inner,
     .help = "inner level: 0 = LRR (the only one implemented)"},
    {.key = "outer",
     .type = WC_PARAM_ENUM,
     .words = tl_outer,
     .help = "outer level: 1 = SRR (the only one implemented)"},
    {0},
};

static int tl_create(wc_sched *s, const wc_param_values *params, wc_err *err)
{
    unsigned active = (unsigned)wc_param_u(params, "active");
    two_level *t = calloc(1, sizeof *t);
    if (!t) return wc_errf(err, "out of memory");
    t->max_active = active;
    t->cap = s->cap;
    t->active = calloc(s->cap, sizeof *t->active);
    t->fifo = calloc(s->cap, sizeof *t->fifo);
    s->priv = t;
    if (!t->active || !t->fifo) return wc_errf(err, "out of memory");
    return 0;
}

static void tl_destroy(wc_sched *s)
{
    two_level *t = s->priv;
    if (!t) return;
    free(t->active);
    free(t->fifo);
    free(t);
}

static void fifo_push(two_level *t, unsigned slot)
{
    t->fifo[(t->head + t->n_pending++) % t->cap] = (uint16_t)slot;
}

static unsigned fifo_pop(two_level *t)
{
    unsigned slot = t->fifo[t->head];
    t->head = (t->head + 1) % t->cap;
    t->n_pending--;
    return slot;
}

static void tl_add(wc_sched *s, unsigned slot)
{
    two_level *t = s->priv;
    if (t->n_active < t->max_active)
        t->active[t->n_active++] = (uint16_t)slot;
    else
        fifo_push(t, slot);
}

static void tl_remove(wc_sched *s, unsigned slot)
{
    two_level *t = s->priv;
    for (unsigned i = 0; i < t->n_active; i++)
        if (t->active[i] == slot) {
            memmove(&t->active[i], &t->active[i + 1], (t->n_active - i - 1) * sizeof *t->active);
            t->n_active--;
            return;
        }
    unsigned k = 0; /* rebuild the FIFO without it, in order */
    for (unsigned i = 0; i < t->n_pending; i++) {
        uint16_t w = t->fifo[(t->head + i) % t->cap];
        if (w != slot) t->fifo[(t->head + k++) % t->cap] = w;
    }
    t->n_pending = k;
}

/* Demote parked active warps (in list order), then promote from the FIFO. */
static void tl_order(wc_sched *s, two_level *t)
{
    unsigned k = 0;
    for (unsigned i = 0; i < t->n_active; i++) {
        uint16_t w = t->active[i];
        if (s->gate[w] == WC_NEVER)
            fifo_push(t, w);
        else
            t->active[k++] = w;
    }
    t->n_active = k;
    while (t->n_active < t->max_active && t->n_pending)
        t->active[t->n_active++] = (uint16_t)fifo_pop(t);
}

static int tl_pick(wc_sched *s, wc_ready_fn ready, void *ctx)
{
    two_level *t = s->priv;
    tl_order(s, t);
    wc_scan sc = wc_scan_begin(s);
    int pick = -1;
    unsigned at = 0;
    for (; at < t->n_active && pick < 0; at++)
        if (wc_scan_try(&sc, t->active[at], ready, ctx)) pick = t->active[at];
    if (pick >= 0) { /* LRR inside the active list: start after the warp that issued */
        uint16_t tmp[WC_SCHED_MAX];
        unsigned n = t->n_active;
        for (unsigned i = 0; i < n; i++) tmp[i] = t->active[(at + i) % n];
        memcpy(t->active, tmp, n * sizeof *tmp);
        s->last = pick;
    }
    /* A pending warp may become ready before any active one: look again
     * then, so it can be promoted (parked ones wake the scheduler anyway). */
    for (unsigned i = 0; i < t->n_pending; i++) {
        uint64_t g = s->gate[t->fifo[(t->head + i) % t->cap]];
        if (g < sc.min) sc.min = g > s->now ? g : s->now + 1;
    }
    wc_scan_end(s, &sc);
    return pick;
}

const wc_sched_ops wc_sched_two_level = {
    .name = "two_level_active",
    .help = "two-level: an active list and a pending FIFO (GPGPU-Sim two_level_active:"
            "<active>:<inner>:<outer>)",
    .params = tl_params,
    .pick = tl_pick,
    .create = tl_create,
    .destroy = tl_destroy,
    .on_add = tl_add,
    .on_remove = tl_remove,
};
WC_PLUGIN(scheduler, wc_sched_two_level, 30);
