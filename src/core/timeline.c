/*
 * timeline.c - wc_sim_record (control.h): the (cycle, sm, key, value)
 * events controllers and L1 organisations record into the run's
 * statistics.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/gpu.h"

/* Bounded: past WC_TIMELINE_MAX events only the number dropped is kept. */
void wc_sim_record(wc_sim *sim, uint64_t cycle, int sm, const char *key, double value)
{
    wc_stats *st = sim->st;
    if (!st) return;
    if (st->n_timeline == st->cap_timeline) {
        size_t cap = st->cap_timeline ? 2 * st->cap_timeline : 256;
        wc_tl_event *p = cap <= WC_TIMELINE_MAX ? realloc(st->timeline, cap * sizeof *p) : NULL;
        if (!p) {
            st->timeline_dropped++;
            return;
        }
        st->timeline = p;
        st->cap_timeline = cap;
    }
    wc_tl_event *e = &st->timeline[st->n_timeline++];
    e->cycle = cycle;
    e->sm = sm;
    snprintf(e->key, sizeof e->key, "%s", key);
    e->value = value;
}
