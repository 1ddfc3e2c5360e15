/*
 * sched.c - warp-scheduler registry and the age-ordered warp list every
 * policy shares.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"

extern const wc_sched_ops wc_sched_lrr, wc_sched_gto;

static const wc_sched_ops *const scheds[] = {
    &wc_sched_lrr,
    &wc_sched_gto,
};

const wc_sched_ops *const *wc_sched_list(size_t *count)
{
    *count = sizeof scheds / sizeof scheds[0];
    return scheds;
}

const wc_sched_ops *wc_sched_find(const char *name)
{
    size_t n;
    const wc_sched_ops *const *all = wc_sched_list(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    return NULL;
}

int wc_sched_init(wc_sched *s, const wc_sched_ops *ops, unsigned cap)
{
    memset(s, 0, sizeof *s);
    s->ops = ops;
    s->cap = cap ? cap : 1;
    s->last = -1;
    s->warps = calloc(s->cap, sizeof *s->warps);
    return s->warps ? 0 : -1;
}

void wc_sched_free(wc_sched *s)
{
    free(s->warps);
    s->warps = NULL;
}

void wc_sched_add(wc_sched *s, unsigned slot)
{
    if (s->n < s->cap) s->warps[s->n++] = (uint16_t)slot;
}

void wc_sched_remove(wc_sched *s, unsigned slot)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->warps[i] == slot) {
            memmove(s->warps + i, s->warps + i + 1, (s->n - i - 1) * sizeof *s->warps);
            s->n--;
            break;
        }
    if (s->last == (int)slot) s->last = -1;
    s->wake = 0; /* the window may now hold a warp that was outside it */
}
