/*
 * sim.h - the cycle-level GPU memory-system simulator.
 *
 * One wc_sim simulates one configuration: SMs (warps, schedulers,
 * scoreboard, memory stage, an L1 organisation each), the interconnect, the
 * L2 partitions and DRAM.  It pulls instructions from a wc_source until the
 * source runs out of kernels.  A wc_sim holds no global state; several can run
 * in one process, also in parallel threads.
 */
#ifndef WARPCACHE_SIM_H
#define WARPCACHE_SIM_H

#include "warpcache/config.h"
#include "warpcache/stats.h"
#include "warpcache/trace.h"

typedef struct wc_sim wc_sim;

/* Progress report: blocks done of total in the current kernel, at `cycle`.
 * Called as blocks finish (about 200 times a kernel at most), at the end of
 * each kernel (done == total), and every few thousand cycles in
 * between, so that a callback reading the clock can report on a timer.  It
 * runs in the simulating thread, must be cheap and must not touch the run. */
typedef void (*wc_progress_fn)(void *ctx, const wc_kernel *k, uint64_t blocks_done,
                               uint64_t blocks_total, uint64_t cycle);

wc_sim *wc_sim_create(const wc_config *cfg, wc_err *err);
void wc_sim_set_progress(wc_sim *sim, wc_progress_fn fn, void *ctx);
/* Adds a listener to every SM's L1 (before wc_sim_run; no fixed limit).
 * Returns -1 when out of memory. */
int wc_sim_add_l1_listener(wc_sim *sim, const wc_l1_listener *l);
/* Hands every SM's L1 organisation `data` (wc_l1_env.data; before
 * wc_sim_run, the L1s are built by it): how a program gives an organisation
 * what a number option cannot carry (profiled-bypass's profile).  The data
 * must outlive the run and is only read. */
void wc_sim_set_l1_data(wc_sim *sim, const void *data);
/* Simulates every kernel of `src`, appending per-kernel statistics to *st. */
int wc_sim_run(wc_sim *sim, wc_source *src, wc_stats *st, wc_err *err);
void wc_sim_destroy(wc_sim *sim);
/* Builds every part a run builds (memory, SMs, their L1s and memory
 * stages) and frees them again: what only those parts check (a memory
 * stage's parameters, an L1 organisation's limits) is reported now, as a run
 * would report it, without a workload.  0 or -1 with err set. */
int wc_sim_check(wc_sim *sim, wc_err *err);
/* For a plug-in that cannot go on (a listener or a memory stage out of
 * memory): the run stops with exit status 1 and this message. */
void wc_sim_fail(wc_sim *sim, const char *msg);

#endif
