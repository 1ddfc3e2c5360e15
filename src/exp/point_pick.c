/*
 * point_pick.c - the hand-out order of the MPI sweep and of `-j N` batches
 * (point_pick.h).
 *
 * Why not point order: a sweep's points differ in cost several times over,
 * and in point order the last points (the last design's) are as likely as
 * any to be the most expensive; then one worker simulates the last long
 * point while the others idle.  Handing out the longest first leaves the
 * short points for the end, where they fill the gaps.
 *
 * The expectation: the points of one input (workload or trace) under other
 * designs and -g values cost alike - the input sets the work, the design
 * modulates it - so an input's expected cost is the mean cost of its points
 * finished so far.  Until an input has a finished point nothing is known of
 * it, and it goes first (its points in point order): an unknown input may be
 * the longest, and seeing it early is what makes the rest of the order good.
 * Ties go to point order.  The order changes only when points run, never
 * what a point's line says: rank 0 puts the results file into point order at
 * the end, and a batch delivers its jobs in index order (batch.c).
 */
#include <stdlib.h>

#include "exp/point_pick.h"

int wc_point_pick_init(wc_point_pick *pk, const size_t *points, const size_t *input_of, size_t n,
                       size_t ninputs)
{
    size_t ni = ninputs ? ninputs : 1;
    *pk = (wc_point_pick){.ninputs = ni, .left = n};
    pk->queue = malloc((n ? n : 1) * sizeof *pk->queue);
    pk->head = calloc(ni, sizeof *pk->head);
    pk->end = calloc(ni, sizeof *pk->end);
    pk->cost = calloc(ni, sizeof *pk->cost);
    pk->nseen = calloc(ni, sizeof *pk->nseen);
    if (!pk->queue || !pk->head || !pk->end || !pk->cost || !pk->nseen) {
        wc_point_pick_free(pk);
        return -1;
    }
    /* counting sort by input: each input's points stay in point order */
    for (size_t i = 0; i < n; i++) pk->end[input_of[i]]++;
    size_t at = 0;
    for (size_t k = 0; k < ni; k++) {
        pk->head[k] = at;
        at += pk->end[k];
        pk->end[k] = pk->head[k];
    }
    for (size_t i = 0; i < n; i++) pk->queue[pk->end[input_of[i]]++] = points[i];
    return 0;
}

/* a before b: unknown inputs first (by point), then the larger mean cost,
 * then the earlier point */
static int goes_first(const wc_point_pick *pk, size_t a, size_t b)
{
    size_t pa = pk->queue[pk->head[a]], pb = pk->queue[pk->head[b]];
    if (!pk->nseen[a] || !pk->nseen[b]) {
        if (!pk->nseen[a] != !pk->nseen[b]) return !pk->nseen[a];
        return pa < pb;
    }
    double ma = (double)pk->cost[a] / (double)pk->nseen[a];
    double mb = (double)pk->cost[b] / (double)pk->nseen[b];
    return ma != mb ? ma > mb : pa < pb;
}

size_t wc_point_pick_next(wc_point_pick *pk)
{
    size_t best = WC_PICK_NONE;
    for (size_t k = 0; k < pk->ninputs; k++)
        if (pk->head[k] < pk->end[k] && (best == WC_PICK_NONE || goes_first(pk, k, best))) best = k;
    if (best == WC_PICK_NONE) return WC_PICK_NONE;
    pk->left--;
    return pk->queue[pk->head[best]++];
}

void wc_point_pick_learn(wc_point_pick *pk, size_t input, uint64_t cost)
{
    if (input >= pk->ninputs) return;
    pk->cost[input] += cost;
    pk->nseen[input]++;
}

void wc_point_pick_free(wc_point_pick *pk)
{
    free(pk->queue);
    free(pk->head);
    free(pk->end);
    free(pk->cost);
    free(pk->nseen);
    *pk = (wc_point_pick){0};
}
