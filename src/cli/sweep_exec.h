/*
 * sweep_exec.h - the seam between `warpcache sweep` (cmd_sweep.c: the grid,
 * the results file, --resume) and what simulates its points somewhere else.
 *
 * The plain program runs a sweep's points on threads in one process and
 * needs none of this.  warpcache-mpi (src/mpi/) passes an executor that
 * spreads the points over MPI ranks: every rank parses the same command line
 * and builds the same grid, so a point is named by its index alone; one
 * rank (the writer) owns the results file, the others only simulate.  The
 * executor moves indices and finished lines between processes; everything
 * that decides what a line says, and what goes into the file, stays in
 * cmd_sweep.c, so the bytes cannot depend on how the points were run.
 */
#ifndef WC_CLI_SWEEP_EXEC_H
#define WC_CLI_SWEEP_EXEC_H

#include <stdbool.h>
#include <stddef.h>

/* The sweep as an executor sees it (opaque; cmd_sweep.c). */
typedef struct wc_sweep_task wc_sweep_task;

typedef struct wc_sweep_exec {
    const char *name; /* "mpi": named in messages */
    bool writer;      /* this process owns the results file (MPI rank 0) */
    void *ctx;
    /* Collective, first: every process passes the writer's set-up status
     * (the writer sets up alone first: parse, grid, configurations, inputs,
     * the results file) and gets it back, so a bad command line is reported
     * once, by the writer, and every process stops. */
    int (*lead)(void *ctx, int status);
    /* Collective, second (only when the writer's set-up succeeded): every
     * process passes its own set-up status and gets the worst of all, so a
     * process that cannot run (an input missing on its machine) makes all
     * of them stop instead of waiting for it. */
    int (*agree)(void *ctx, int status);
    /* Simulates the points: the writer hands wc_sweep_todo's points out and
     * passes each finished line to wc_sweep_append; the others call
     * wc_sweep_simulate for the points they are given.  Returns an exit
     * status (WC_EXIT_*) for this process. */
    int (*run)(void *ctx, wc_sweep_task *t);
} wc_sweep_exec;

/* Simulations at once per process: -j N, or 1 without -j (under MPI a rank
 * per core is the usual way to use the cores). */
unsigned wc_sweep_threads(const wc_sweep_task *t);
/* The points still to run (writer: after --resume), in point order. */
size_t wc_sweep_todo(const wc_sweep_task *t, const size_t **points);
/* The input (workload or trace, 0 to wc_sweep_inputs - 1) a point
 * simulates: points of one input under other designs or -g values tend to
 * cost alike, which is what an executor can learn its hand-out order from. */
size_t wc_sweep_input_of(const wc_sweep_task *t, size_t point);
size_t wc_sweep_inputs(const wc_sweep_task *t);
/* Simulates one point and formats its line (a result, or an error line when
 * it failed; *status is then its exit status, 1 or 2, else 0).  *line is
 * malloc'ed.  -1 only when out of memory. */
int wc_sweep_simulate(wc_sweep_task *t, size_t point, char **line, size_t *len, int *status);
/* Writer only: appends a finished point's line to the results file (one
 * write(), fdatasync'd) and counts it; `status` as wc_sweep_simulate gave
 * it.  -1 when the file cannot be written (the sweep must stop: the reason
 * is kept for the final message). */
int wc_sweep_append(wc_sweep_task *t, size_t point, const char *line, size_t len, int status);

/* `warpcache sweep` with an executor (NULL: threads in this process). */
int wc_cmd_sweep_with(int argc, char **argv, const wc_sweep_exec *ex);

#endif
