/*
 * mem_issue.c - memory instructions issued ahead of the memory stage: a FIFO
 * of issued instructions in front of the stage (mem_issue.h says why).
 *
 * The ring holds the instruction the stage works on (while the stage is
 * full it may read the requests in place, memstage.h) and the ones waiting
 * behind it.  Issue is blocked (sm->mem_full, what the schedulers read) once
 * the ring holds `ahead` waiting instructions beside the stage's.
 */
#include <stdlib.h>

#include "core/mem_issue.h"
#include "core/stages/memstage_inorder.h"

int wc_mi_init(wc_sm *sm, unsigned ahead, wc_err *err)
{
    sm->mi_cap = ahead ? ahead + 1 : 0;
    if (!ahead) return 0;
    sm->mi = malloc(sm->mi_cap * sizeof *sm->mi); /* each place is written before it is read */
    if (!sm->mi) return wc_errf(err, "out of memory (SM %u issue queue)", sm->id);
    return 0;
}

void wc_mi_free(wc_sm *sm)
{
    free(sm->mi);
    sm->mi = NULL;
}

/* Blocks issue when every place is taken; wakes the schedulers when one
 * frees (the stage runs before issue, so they look again this cycle). */
static void update_full(wc_sm *sm, uint64_t now)
{
    bool full = sm->mi_count == sm->mi_cap;
    if (sm->mem_full && !full) wc_sm_stage_freed(sm, now);
    sm->mem_full = full;
}

void wc_mi_feed(wc_sm *sm, uint64_t now)
{
    wc_mstage *ms = sm->ms;
    while (sm->mi_count && !ms->full) {
        if (sm->mi_staged) { /* the stage is done with the head's requests */
            sm->mi_head = sm->mi_head + 1 == sm->mi_cap ? 0 : sm->mi_head + 1;
            sm->mi_count--;
            sm->mi_staged = false;
            continue;
        }
        wc_mi_inst *in = &sm->mi[sm->mi_head];
        if (sm->inorder)
            wc_inorder_accept(ms, in->slot, in->reqs, in->n, in->load, now);
        else
            ms->ops->accept(ms, in->slot, in->reqs, in->n, in->load, now);
        sm->mi_staged = true;
    }
    update_full(sm, now);
}

void wc_mi_push(wc_sm *sm, unsigned slot, unsigned n, uint32_t load, uint64_t now)
{
    unsigned at = sm->mi_head + sm->mi_count;
    if (at >= sm->mi_cap) at -= sm->mi_cap;
    wc_mi_inst *in = &sm->mi[at];
    in->n = n;
    in->slot = slot;
    in->load = load;
    sm->mi_count++;
    wc_mi_feed(sm, now);
}
