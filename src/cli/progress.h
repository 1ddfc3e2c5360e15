/*
 * progress.h - the progress report of the simulating commands on stderr:
 * `--progress=bar` (one line redrawn in place, for a terminal), `lines`
 * (a whole line every --progress-interval seconds, for logs and batch
 * systems), `none`, and `auto` (bar on a terminal, lines otherwise).  Both
 * kinds are driven by the simulator's progress callback, which also fires on
 * a cycle count between finished blocks, and print when the interval has
 * passed, so the report moves on a timer.  Progress never reaches stdout or
 * an output file.
 */
#ifndef WC_CLI_PROGRESS_H
#define WC_CLI_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/kernel_count.h"
#include "warpcache/experiment.h"

typedef enum wc_progress_mode {
    WC_PROGRESS_AUTO = 0,
    WC_PROGRESS_BAR,
    WC_PROGRESS_LINES,
    WC_PROGRESS_NONE
} wc_progress_mode;

/* The options, as given (part of wc_cli_common). */
typedef struct wc_progress_opts {
    wc_progress_mode mode;
    double interval;   /* seconds (0: at every call of the simulator), when set */
    bool interval_set; /* else 0.5 for bar, 10 for lines */
} wc_progress_opts;

/* --progress MODE and --progress-interval SECONDS, as a table of the option
 * parser (opts.h): run, compare, sweep and oracle list it among their tables,
 * so their help shows it and the other commands refuse the options. */
enum { WC_CLI_O_PROGRESS = 1200, WC_CLI_O_PROGRESS_INTERVAL };
struct wc_opt;
struct wc_opts;
extern const struct wc_opt wc_cli_progress_opts[];
/* Takes option `id` (its value in p) if it is one of the two: 1; not ours: 0;
 * a bad value: -1 (message printed). */
int wc_cli_progress_take(wc_progress_opts *o, const struct wc_opts *p, int id);

/* Where and how often a report is printed (shared by the two kinds). */
typedef struct wc_progress_out {
    bool enabled, lines, drawn;
    double interval, t0, next;
    const char *label;
} wc_progress_out;

/* One simulation (run, validate): "kernel k/N NAME: x% of B blocks, cycle C,
 * elapsed, ETA" with the ETA of the whole run when N is known. */
typedef struct wc_progress {
    wc_progress_out out;
    wc_kernel_count *count; /* N, once counted (NULL: not asked) */
    unsigned kernel_no;     /* 1-based, of the kernel being simulated */
    uint32_t kernel_id;
} wc_progress;
void wc_progress_init(wc_progress *p, const char *label, const wc_progress_opts *o, bool quiet);
/* The kernels of `spec` are counted (kernel_count.h) once a report is due. */
void wc_progress_count_kernels(wc_progress *p, const wc_run_spec *spec, uint64_t seed);
void wc_progress_cb(void *ctx, const wc_kernel *k, uint64_t done, uint64_t total, uint64_t cycle);
void wc_progress_end(wc_progress *p);

/* Many simulations on worker threads (compare, sweep, oracle): "D/K
 * simulations done, R running; WORKLOAD (workload i/M): kernel k/N, x%;
 * elapsed, ETA".  The per-job state is written by the job's thread under the
 * mutex. */
typedef struct wc_job_progress {
    struct wc_batch_progress *bp;
    size_t workload; /* 0-based among the batch's distinct inputs */
    unsigned kernel_no;
    uint32_t kernel_id;
    double kernel_frac;
    bool running;
} wc_job_progress;
typedef struct wc_batch_progress {
    wc_progress_out out;
    pthread_mutex_t mu;
    size_t done, total, n_workloads;
    const wc_job *jobs;
    wc_job_progress *slots, *last;
    size_t n_jobs;
    wc_kernel_count *count; /* per distinct input, once a report is due */
} wc_batch_progress;
void wc_batch_progress_init(wc_batch_progress *p, const char *label, const wc_progress_opts *o,
                            bool quiet);
/* Follows each of jobs[0..n) from inside (sets its spec.progress) and finds
 * the batch's distinct inputs (their kernels are counted once a report is
 * due).  Before wc_batch_run. */
void wc_batch_progress_attach(wc_batch_progress *p, wc_job *jobs, size_t n);
/* wc_batch_opts.on_done: `done` of `total` finished (job: NULL or one of the
 * attached jobs). */
void wc_batch_progress_cb(void *ctx, size_t done, size_t total, const wc_job *job);
/* An attached job is finished (its thread no longer reports). */
void wc_batch_progress_job_done(wc_batch_progress *p, const wc_job *job);
void wc_batch_progress_end(wc_batch_progress *p);

double wc_now_seconds(void);

#endif
