/*
 * experiment.h - running simulations as experiments: one simulation from a
 * configuration and a source spec, many in parallel threads, named designs,
 * option grids and the normalised comparison tables of `warpcache compare`.
 *
 * This is the one path every multi-run command takes (`compare`, `sweep`,
 * `validate`) and what another C program embeds:
 *
 *     wc_config cfg;  wc_config_defaults(&cfg);
 *     wc_stats st;    wc_stats_init(&st);
 *     wc_err err;
 *     wc_run_spec spec = {.workload = "polybench/atax:scale=0.125"};
 *     if (wc_run_simulation(&cfg, &spec, &st, &err) < 0) fprintf(stderr, "%s\n", err.msg);
 *
 * Nothing here keeps global state: every simulation owns its configuration
 * copy, source and wc_sim, so a batch runs them on as many threads as asked
 * and its results do not depend on the number of threads or on completion
 * order.
 */
#ifndef WARPCACHE_EXPERIMENT_H
#define WARPCACHE_EXPERIMENT_H

#include "warpcache/config.h"
#include "warpcache/sim.h"
#include "warpcache/stats.h"

/* ---- one simulation --------------------------------------------------- */

/* What to simulate: exactly one of `workload` ("suite/name[:k=v,...]") or
 * `trace` (any format wc_trace_open reads, with an optional kernel selection:
 * ids "1,3-5" or a name pattern). */
typedef struct wc_run_spec {
    const char *workload;
    const char *trace;
    const char *kernels;
    const char *config_name; /* recorded in the statistics; NULL: "built-in defaults" */
    wc_progress_fn progress; /* optional per-kernel progress */
    void *progress_ctx;
    /* optional: an already opened source to simulate (wrapped, filtered...)
     * instead of opening workload/trace, which then only name the run;
     * wc_run_simulation destroys it */
    wc_source *source;
    /* optional: called once the simulator is built, before it runs (add L1
     * listeners, hand the L1 organisation its data with wc_sim_set_l1_data); a
     * negative return fails the run with *err */
    int (*setup)(void *ctx, wc_sim *sim, wc_err *err);
    void *setup_ctx;
} wc_run_spec;

/* Opens the source of `spec` (the workload's inputs use cfg->seed). */
wc_source *wc_run_open_source(const wc_run_spec *spec, uint64_t seed, wc_err *err);

/* Simulates `spec` on `cfg`, appending per-kernel statistics to *st (which the
 * caller initialised with wc_stats_init).  -1 with a reason in *err. */
int wc_run_simulation(const wc_config *cfg, const wc_run_spec *spec, wc_stats *st, wc_err *err);

/* ---- many simulations in parallel ------------------------------------- */

typedef struct wc_job {
    wc_config cfg; /* the job's own copy */
    wc_run_spec spec;
    void *user; /* caller's data, untouched */
    /* results, valid once the job is delivered */
    wc_stats stats;
    int rc; /* 0, or -1 with err */
    wc_err err;
} wc_job;

/* Called with the batch lock held, never concurrently: `on_done` for every
 * job as it finishes (completion order; for progress lines), `in_order` for
 * every job in index order as soon as all earlier ones are delivered (for
 * output that must not depend on timing).  Returning non-zero from
 * `in_order` stops the batch: no further job starts and no further
 * `in_order` call is made. */
typedef void (*wc_job_done_fn)(void *ctx, size_t done, size_t total, const wc_job *job);
typedef int (*wc_job_ordered_fn)(void *ctx, size_t index, wc_job *job);

typedef struct wc_batch_opts {
    unsigned threads; /* 0 = every online CPU */
    wc_job_done_fn on_done;
    void *done_ctx;
    wc_job_ordered_fn in_order;
    void *order_ctx;
} wc_batch_opts;

/* Runs jobs[0..n) on worker threads (each job's stats are initialised here).
 * Returns 0 when every job ran, 1 when `in_order` stopped the batch, -1 when
 * threads could not be started (*err).  A job's own failure is in its rc/err. */
int wc_batch_run(wc_job *jobs, size_t n, const wc_batch_opts *opts, wc_err *err);
/* Frees the statistics of every job. */
void wc_batch_free(wc_job *jobs, size_t n);
/* Online CPUs (at least 1). */
unsigned wc_cpu_count(void);

/* ---- workload lists --------------------------------------------------- */

/* Expands a workload argument into workload specs: a workload name stays as
 * it is; a suite name ("polybench") gives every member, and a suite with
 * parameters ("polybench:scale=0.125") gives every member with them.
 * Appends to (*names, *n) (realloc'd, strings owned by the caller: free each
 * and the array).  -1 on an unknown name or suite (*err). */
int wc_expand_workloads(const char *arg, char ***names, size_t *n, wc_err *err);

/* The class labels of seed `seed` ("004") the registry gives a workload spec,
 * e.g. "004:IW"; written space-separated into buf ("" when none). */
void wc_workload_classes(const char *spec, const char *seed, char *buf, size_t n);

/* ---- designs and grid options ----------------------------------------- */

/* A design is configs/designs/NAME.config (gpgpusim.config syntax) applied
 * after --config and before -o.  Its first comment line is the description,
 * a line "# paper: ..." names the paper it reproduces. */
typedef struct wc_design_info {
    char name[64];
    char path[1024];
    char description[256];
    char paper[256];
} wc_design_info;

/* Finds NAME in the first of dirs[0..ndirs) holding NAME.config; a NAME
 * containing '/' or ending in ".config" is a path.  On an unknown name the
 * error lists the known designs.  *info is filled. */
int wc_design_find(const char *name, const char *const *dirs, size_t ndirs, wc_design_info *info,
                   wc_err *err);
/* Every design of dirs (earlier directories win on equal names), sorted by
 * name.  *out is malloc'd (free it). */
int wc_design_list(const char *const *dirs, size_t ndirs, wc_design_info **out, size_t *n,
                   wc_err *err);

/* Sets an option like wc_config_set, plus the L1 geometry aliases of sweeps:
 * l1_sets, l1_assoc, l1_line (rewrite that field of -gpgpu_cache:dl1) and
 * l1_size (bytes, K/M suffix allowed: sets = size / (line * assoc)).
 * 0 ok, 1 unknown option, -1 bad value (*err). */
int wc_exp_set_option(wc_config *cfg, const char *name, const char *value, const char *where,
                      wc_err *err);

/* ---- metrics and comparison tables ------------------------------------ */

/* A metric by name: a key of the statistics table ("l1.miss_rate"), the same
 * with underscores ("l1_miss_rate"), a short alias ("l2_to_l1_bytes"), the
 * derived "res_fails_pki" (reservation fails per 1000 warp instructions), or
 * "extra.NAME" for a plug-in counter.  An unknown name fails with examples. */
typedef struct wc_exp_metric {
    char name[64]; /* the canonical key */
    const char *label;
    bool is_float;
    double (*get)(const wc_kstats *k); /* NULL for extras */
    char extra[48];
} wc_exp_metric;

int wc_exp_metric_find(const char *name, wc_exp_metric *m, wc_err *err);
/* The value, NAN when an extra is absent. */
double wc_exp_metric_value(const wc_exp_metric *m, const wc_kstats *k);

/* Normalisation and means over a rows x cols table of values (row-major).
 * norm[r][c] = v[r][c] / v[r][0] (NAN when v[r][0] is 0 or either is NAN).
 * A mean of a column uses the rows selected by `use` (NULL: all) whose
 * normalised value is finite and > 0; *count says how many. */
void wc_exp_normalise(const double *v, size_t rows, size_t cols, double *norm);
double wc_exp_geomean(const double *norm, size_t rows, size_t cols, size_t col, const bool *use,
                      size_t *count);
double wc_exp_hmean(const double *norm, size_t rows, size_t cols, size_t col, const bool *use,
                    size_t *count);

#endif
