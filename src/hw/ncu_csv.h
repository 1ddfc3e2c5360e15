/*
 * ncu_csv.h - hardware counters from Nsight Compute CSV exports, the input of
 * `warpcache validate --hw` (issue 17: validating the simulator against a
 * real GPU).  See ncu_csv.c for the formats read and docs/fidelity.md for
 * the ncu command line that writes them.
 */
#ifndef WC_HW_NCU_CSV_H
#define WC_HW_NCU_CSV_H

#include "warpcache/common.h"

/* One profiled kernel launch.  A counter the file does not hold is NAN. */
typedef struct wc_hw_kernel {
    char name[256];         /* base name: "void f<int>(float *)" -> "f" */
    char id[32];            /* the "ID" column: ncu's launch number, as written */
    unsigned line;          /* line of the file where the launch first appears */
    double l1_hit_pct;      /* L1 sector hit rate, percent */
    double l2_read_sectors; /* 32 B sectors read from the L2 */
    double cycles;          /* elapsed cycles of the kernel */
    /* launch__shared_mem_config_size: the shared-memory carveout the launch
     * ran with, bytes (on a unified L1/shared array the L1 has the rest) */
    double shmem_config_bytes;
    /* the metric each value came from (static strings, NULL if absent) */
    const char *l1_metric, *l2_metric, *cycles_metric;
    /* the precedence of the metric that set each value (a more specific one
     * wins when a file holds several) */
    unsigned char l1_rank, l2_rank, cycles_rank;
} wc_hw_kernel;

typedef struct wc_hw_set {
    wc_hw_kernel *k; /* in the file's order (ncu's launch order) */
    size_t n, cap;
} wc_hw_set;

/* Parses text[0..len) (`file` names it in messages: "file:line: reason").
 * Returns 0 or -1 with err set; `out` is freed by wc_hw_set_free either way. */
int wc_ncu_parse(const char *text, size_t len, const char *file, wc_hw_set *out, wc_err *err);

/* Reads and parses the file at `path` (at most 64 MiB). */
int wc_ncu_read(const char *path, wc_hw_set *out, wc_err *err);

void wc_hw_set_free(wc_hw_set *s);

/* The names of the metrics recognised, one per line, for help texts. */
extern const char wc_ncu_metrics_help[];

#endif
