/*
 * kernel_count.h - how many kernels each of a command's sources holds, for
 * the progress report's "kernel k/N", counted on a thread of its own.
 *
 * Knowing N means opening the source once more and walking its kernels: for
 * a built-in workload that generates its input (a graph) or plays its
 * algorithm on the host (BFS levels, worklist rounds) that takes as long as
 * the workload's own opening, up to seconds.  So the count is made only once
 * a report is printed (never for a run shorter than the interval), beside
 * the simulations instead of before them, and the report shows N once it is
 * known.  The owner may let go while the thread still counts: the last of
 * the two frees it.
 */
#ifndef WC_CLI_KERNEL_COUNT_H
#define WC_CLI_KERNEL_COUNT_H

#include <stddef.h>
#include <stdint.h>

#include "warpcache/experiment.h"

typedef struct wc_kernel_count wc_kernel_count;

/* Room for `cap` sources; NULL when out of memory (the report shows no N). */
wc_kernel_count *wc_kernel_count_new(size_t cap);
/* Adds spec's source (its names are copied) opened with `seed`; its index. */
size_t wc_kernel_count_add(wc_kernel_count *c, const wc_run_spec *spec, uint64_t seed);
/* Starts the counting thread (once; later calls do nothing). */
void wc_kernel_count_start(wc_kernel_count *c);
/* Counts every source now, in this thread, unless counting started already
 * (--progress-interval=0: reports that do not depend on the machine). */
void wc_kernel_count_now(wc_kernel_count *c);
/* The kernels of source i: 0 while not (or not yet) known. */
unsigned wc_kernel_count_get(const wc_kernel_count *c, size_t i);
/* The owner is done with it (the thread stops at the next kernel). */
void wc_kernel_count_release(wc_kernel_count *c);

#endif
