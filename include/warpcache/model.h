/*
 * model.h - the reuse-distance GPU cache model of seed 003
 * (003_ffafd1cb931cbd21.txt, "A detailed GPU cache model based on reuse
 * distance theory"), its miss classification, and miss-ratio curves.
 *
 * The model is a second consumer of the same wc_source streams as the
 * simulator: it orders the (unordered, per-thread) memory accesses of a kernel
 * the way a GPU would and computes the LRU stack distance of every coalesced
 * line request.  The five extensions of the paper (section 4) are switches in
 * wc_model_opts:
 *
 *   1. execution model: threads -> warps -> blocks, blocks over cores, sets of
 *      active blocks limited by blocks/threads (and registers/shared memory)
 *      per SM, per-warp coalescing                              (always on)
 *   2. latencies: hit latency, memory latency lambda_min + |N(0, sigma^2)|,
 *      effect times, latency misses, clipping to the in-flight request
 *   3. associativity: one stack per set, the configured set-index function
 *   4. MSHRs: limited unique outstanding lines per core and per warp
 *   5. warp divergence: FIFO warp queue, a warp re-enters after its latency
 *
 * Time is the paper's abstract time: one warp instruction is issued per core
 * per time step.  See docs/model.md for every choice the paper leaves open.
 *
 * Typical use (one call per workload; `validate` uses the per-kernel results):
 *
 *   wc_model_opts o; wc_model_opts_defaults(&o);
 *   wc_model_result r;
 *   wc_model_classify(&o, &cfg, open_fn, ctx, &r, &err);   // 1 + up to 3 runs
 *   ... r.kernels[i].cls, r.kernels[i].run[WC_RUN_FULL], r.total ...
 *   wc_model_result_free(&r);
 */
#ifndef WARPCACHE_MODEL_H
#define WARPCACHE_MODEL_H

#include <stdio.h>

#include "warpcache/config.h"
#include "warpcache/trace.h"

/* ---- options --------------------------------------------------------- */

typedef enum wc_model_blocks {
    WC_MODEL_BLOCKS_DYNAMIC =
        0,               /* a finished block is replaced at once (first-done, first-serve) */
    WC_MODEL_BLOCKS_SETS /* the seed's code: the next set starts when the whole set is done */
} wc_model_blocks;

typedef struct wc_model_opts {
    /* extension switches (1 is always on) */
    bool latency;    /* 2: latencies and effect times (off: every effect at issue time) */
    bool assoc;      /* 3: per-set stacks (off: one fully associative stack, same lines) */
    bool mshr;       /* 4: MSHR limits (off: unlimited) */
    bool divergence; /* 5: warps re-enter after their latency (off: strict round robin) */
    bool clip;       /* 2: a miss to a line in flight merges with it (effect clipped) */

    /* latencies, in model time steps (warp issue slots) */
    uint32_t hit_latency; /* seed: 0 */
    uint32_t lambda_min;  /* seed: 100 */
    double sigma;         /* seed: 5 */

    /* MSHRs: unique outstanding lines, 0 = unlimited */
    uint32_t mshr_per_core; /* seed: 64 */
    uint32_t mshr_per_warp; /* seed: 6 */
    bool mshr_first_only;   /* the seed's code: only an instruction's first request is
                               checked, the others always issue (over-subscribing) */

    /* execution model */
    uint32_t cores;       /* blocks are distributed over this many cores; 0 = the config's SMs */
    int32_t core;         /* the core whose stream is modelled; -1 = all cores (summed) */
    uint64_t max_threads; /* model only the first N threads of a kernel, 0 = all (seed: 8192) */
    wc_model_blocks blocks;
    bool stores;        /* also model stores (Fermi's L1 does not cache them: off) */
    bool step_requests; /* a time step per line request (the LD/ST unit's rate), not per warp
                           instruction: an instruction of n lines holds its core n steps; off */
    bool scoreboard;    /* a warp re-enters when its next load's operands are ready (in-order
                           issue over every instruction), not after each load's latency; off */
    uint64_t seed;      /* latency generator; 0 = the config's seed */

    /* geometry overrides, 0 = from the config's L1 */
    uint32_t line_bytes, nsets, ways;
    char set_index; /* 0 = config's; 'L', 'H', 'P', 'X' */
} wc_model_opts;

void wc_model_opts_defaults(wc_model_opts *o);
/* Sets one option by name ("lambda_min", "mshr", "latency", ...).  Returns 0,
 * 1 when the name is not a model option, -1 (err) on a bad value. */
int wc_model_opts_set(wc_model_opts *o, const char *name, const char *value, wc_err *err);
/* One line per option, for --help. */
void wc_model_opts_help(FILE *f);

/* ---- results ------------------------------------------------------------ */

/* Reuse-distance histogram: exact bins below WC_RD_EXACT, then power-of-two
 * bins [2^k, 2^(k+1)), then infinity (first use of a line, or in flight). */
#define WC_RD_EXACT 256
#define WC_RD_LOG   56
typedef struct wc_rd_hist {
    uint64_t exact[WC_RD_EXACT];
    uint64_t log2[WC_RD_LOG]; /* bin k: [2^k, 2^(k+1)), used for k >= log2(WC_RD_EXACT) */
    uint64_t inf;
    uint64_t total;
} wc_rd_hist;

void wc_rd_hist_add(wc_rd_hist *h, uint64_t distance); /* UINT64_MAX = infinite */
void wc_rd_hist_merge(wc_rd_hist *dst, const wc_rd_hist *src);
/* Number of accesses with distance >= d (infinite included); exact for d <= WC_RD_EXACT
 * and at powers of two. */
uint64_t wc_rd_hist_at_least(const wc_rd_hist *h, uint64_t d);

/* What one run (one combination of switches) counted. */
typedef struct wc_model_counts {
    uint64_t accesses;    /* line requests after coalescing */
    uint64_t hits;        /* distance < ways */
    uint64_t misses;      /* distance >= ways or infinite */
    uint64_t inf;         /* misses with infinite distance */
    uint64_t cold;        /* first use of the line (true compulsory) */
    uint64_t inflight;    /* misses to a line still in flight (merged when clip is on) */
    uint64_t mshr_stalls; /* issue attempts refused for want of an MSHR */
    uint64_t warp_insts;  /* memory warp instructions modelled */
    uint64_t threads;     /* threads modelled */
    uint64_t time;        /* model time steps of the modelled core(s) */
} wc_model_counts;

void wc_model_counts_add(wc_model_counts *dst, const wc_model_counts *src);

/* The seed's miss classes (section 6.1), each clipped at 0, summing to the
 * full run's misses. */
typedef struct wc_model_classes {
    uint64_t compulsory, capacity, associativity, latency, mshr;
} wc_model_classes;

typedef enum wc_model_run_kind {
    WC_RUN_FULL = 0, /* every enabled extension */
    WC_RUN_NO_ASSOC, /* extension 3 off */
    WC_RUN_NO_LATENCY,
    WC_RUN_NO_MSHR,
    WC_RUN__COUNT
} wc_model_run_kind;

const char *wc_model_run_name(wc_model_run_kind k); /* "full", "no_assoc", ... */

typedef struct wc_model_kernel {
    char name[256];
    uint32_t id;
    wc_model_counts run[WC_RUN__COUNT];
    bool ran[WC_RUN__COUNT];
    wc_model_classes cls;
    wc_rd_hist hist; /* full run */
} wc_model_kernel;

typedef struct wc_model_result {
    wc_model_kernel *kernels;
    size_t n_kernels, cap;
    wc_model_kernel total; /* sums (name "total") */
    /* geometry actually used */
    uint32_t line_bytes, nsets, assoc, cores;
    char set_index;
} wc_model_result;

void wc_model_result_free(wc_model_result *r);
/* Miss rate (misses / accesses) of a run, and excluding latency misses (what
 * hardware counters see: a merged miss sends no request). */
double wc_model_miss_rate(const wc_model_kernel *k);
double wc_model_miss_rate_no_latency(const wc_model_kernel *k);

/* ---- running ---------------------------------------------------------- */

/* What the model did with one line request, in model order (MRC, tests). */
typedef struct wc_model_event {
    uint32_t core;                    /* core id */
    uint32_t warp;                    /* warp slot on the core */
    uint64_t block;                   /* linear block id */
    uint64_t line;                    /* line address (byte address >> log2(line size)) */
    uint64_t time;                    /* issue time step */
    uint64_t effect;                  /* time the request changes the stack (0 when refused) */
    uint64_t distance;                /* stack distance in its set, UINT64_MAX = infinite */
    uint32_t mshr_before, mshr_after; /* core MSHR entries in use around the issue */
    bool hit, inflight, refused;      /* refused: no MSHR, the warp retries later */
} wc_model_event;

typedef void (*wc_model_event_fn)(void *ctx, const wc_model_event *e);

/* Runs the model once, with the switches of `o`, over every kernel of `src`;
 * fills res->kernels[i].run[kind] (appending kernels on the first run) and, for
 * WC_RUN_FULL, the histogram.  `on_event` may be NULL. */
int wc_model_run(const wc_model_opts *o, const wc_config *cfg, wc_source *src,
                 wc_model_run_kind kind, wc_model_result *res, wc_model_event_fn on_event,
                 void *ctx, wc_err *err);

/* Opens a fresh copy of the same input (classification needs up to 4 passes). */
typedef wc_source *(*wc_model_open_fn)(void *ctx, wc_err *err);

/* The full model plus one run per enabled extension 2-4 with it disabled, and the
 * seed's classification into compulsory / capacity / associativity / latency /
 * MSHR misses. */
int wc_model_classify(const wc_model_opts *o, const wc_config *cfg, wc_model_open_fn open,
                      void *open_ctx, wc_model_result *res, wc_err *err);

/* Computes k->cls from k->run[] (exposed for tests). */
void wc_model_classes_compute(wc_model_kernel *k, const wc_model_opts *o);

/* Writers: aligned text, JSON (one object), CSV (one row per kernel + total),
 * histogram CSV (kernel,lo,hi,count). */
void wc_model_write_text(const wc_model_result *r, bool histogram, FILE *f);
void wc_model_write_json(const wc_model_result *r, const wc_model_opts *o, FILE *f);
void wc_model_write_csv(const wc_model_result *r, FILE *f);
void wc_model_write_hist_csv(const wc_model_result *r, FILE *f);

/* ---- miss-ratio curves ---------------------------------------------------- */

/* One-pass LRU miss-ratio curve of an ordered line stream.  With nsets == 1 the
 * curve is over fully associative sizes (in lines); with nsets > 1 each set has
 * its own stack and the curve is over associativity (size = nsets * ways).
 * Optional fixed-rate SHARDS sampling: a line is kept when
 * hash(line) mod 2^24 < rate * 2^24; distances and counts are scaled by 1/rate. */
typedef struct wc_mrc wc_mrc;

typedef struct wc_mrc_opts {
    uint32_t nsets;      /* 1 = fully associative */
    char set_index;      /* 'L' linear (default), 'H', 'P', 'X' */
    uint32_t line_bytes; /* for the set index, with nsets > 1 */
    double rate;         /* SHARDS sampling rate in (0, 1]; 1 = exact */
} wc_mrc_opts;

wc_mrc *wc_mrc_create(const wc_mrc_opts *o, wc_err *err);
void wc_mrc_destroy(wc_mrc *m);
/* One access to line address `line` (byte address >> line_log2). */
void wc_mrc_access(wc_mrc *m, uint64_t line);
uint64_t wc_mrc_accesses(const wc_mrc *m);
/* Largest finite (scaled) distance seen + 1: beyond it the curve is flat. */
uint64_t wc_mrc_max_size(const wc_mrc *m);
/* Miss ratio of an LRU cache of `size` lines (per set: `size` ways). */
double wc_mrc_miss_ratio(const wc_mrc *m, uint64_t size);

/* Sizes to report: 1, 2, 3, 4, 6, 8, 12, ... up to max (inclusive); returns count. */
size_t wc_mrc_default_sizes(uint64_t max, uint64_t *out, size_t cap);

/* A curve as points, and its writers. */
typedef struct wc_mrc_curve {
    const char *label;
    const uint64_t *size; /* lines (or ways) */
    const double *miss;   /* ratio 0..1 */
    size_t n;
} wc_mrc_curve;

void wc_mrc_write_text(const wc_mrc_curve *c, size_t ncurves, uint32_t line_bytes, FILE *f);
void wc_mrc_write_csv(const wc_mrc_curve *c, size_t ncurves, uint32_t line_bytes, FILE *f);
void wc_mrc_write_json(const wc_mrc_curve *c, size_t ncurves, uint32_t line_bytes, FILE *f);

/* ---- CLI entry points (src/cli/cmd_model.c) ------------------------------ */

int wc_cmd_model(int argc, char **argv);
int wc_cmd_mrc(int argc, char **argv);

#endif
