/*
 * point_pick.h - the order in which parallel runs are started (point_pick.c):
 * longest expected first, the expectation learned from the points already
 * finished.  Used by the MPI sweep's rank 0 (src/mpi/sweep_mpi.c) and by the
 * worker threads of `-j N` batches (batch.c).  Pure bookkeeping, no MPI and no
 * threads: tests/test_point_pick.c compiles it in.
 */
#ifndef WC_EXP_POINT_PICK_H
#define WC_EXP_POINT_PICK_H

#include <stddef.h>
#include <stdint.h>

#define WC_PICK_NONE SIZE_MAX

typedef struct wc_point_pick {
    size_t ninputs;
    size_t *queue;   /* the points of every input, point order, input after input */
    size_t *head;    /* [input]: next point of the input still to hand out (index into queue) */
    size_t *end;     /* [input]: one past its last */
    uint64_t *cost;  /* [input]: summed cost of its finished points */
    uint64_t *nseen; /* [input]: how many of its points finished */
    size_t left;     /* points not handed out */
} wc_point_pick;

/* points[0..n) (point order) with input_of[i] the input of points[i], each
 * below ninputs.  -1 when out of memory. */
int wc_point_pick_init(wc_point_pick *pk, const size_t *points, const size_t *input_of, size_t n,
                       size_t ninputs);
/* The next point to hand out, WC_PICK_NONE when all are handed out. */
size_t wc_point_pick_next(wc_point_pick *pk);
/* A point of `input` finished, having cost `cost` (any unit, the same for all). */
void wc_point_pick_learn(wc_point_pick *pk, size_t input, uint64_t cost);
void wc_point_pick_free(wc_point_pick *pk);

#endif
