/*
 * stats.h - what a simulation measured, per kernel and in total, and the
 * writers that print it as an aligned text table, JSON and CSV.
 *
 * JSON names are a stable, documented interface (docs/stats.md).  Plug-ins
 * with counters of their own add them as named extras.
 */
#ifndef WARPCACHE_STATS_H
#define WARPCACHE_STATS_H

#include <stdio.h>

#include "warpcache/cache.h"
#include "warpcache/trace.h"

#define WC_MAX_EXTRAS 32
/* Reuse-distance buckets (-l1_rd_hist): distance 0, then [2^(k-1), 2^k) for
 * k = 1..16, then 65536 and more. */
#define WC_RD_BUCKETS 18

/* Version of the JSON layout (docs/stats.md); raised when a name changes. */
#define WC_STATS_SCHEMA_VERSION 1

typedef struct wc_extra {
    char name[48];
    double value;
} wc_extra;

typedef struct wc_kstats {
    char name[256];
    uint32_t id;
    uint64_t cycles;
    uint64_t warp_insts, thread_insts;
    uint64_t op_count[WC_OP__COUNT]; /* warp instructions by class */
    uint64_t gmem_reqs;              /* coalesced requests presented to L1 */
    uint64_t mem_stall_cycles;       /* cycles the memory stage was stalled by a fail */
    /* the same split by the reason of the fail that stalled it (sums to
     * mem_stall_cycles; [WC_FAIL_NONE] stays 0 with the built-in stages) */
    uint64_t mem_stall_by[WC_FAIL__COUNT];
    wc_l1_stats l1;
    struct {
        uint64_t accesses, hits, misses, read_bytes, write_bytes, writebacks;
    } l2;
    struct {
        uint64_t l1_to_l2_packets, l1_to_l2_bytes, l2_to_l1_packets, l2_to_l1_bytes;
        /* the seeds' count: 1 request packet + one per 32 B of data up, one
         * per 32 B of data down */
        uint64_t l1_to_l2_seed_packets, l2_to_l1_seed_packets;
    } icnt;
    struct {
        uint64_t reads, writes;
    } dram;
    /* -l1_rd_hist (src/core/rdhist.h; reported only when rd_on): references
     * to the L1 data stores, their footprint (first references of a line in
     * a kernel, per SM) and the histogram of the other references' reuse
     * distances.  rd_accesses = rd_footprint + the histogram's sum. */
    uint64_t rd_accesses, rd_footprint, rd_hist[WC_RD_BUCKETS];
    unsigned n_extras;
    wc_extra extras[WC_MAX_EXTRAS];
    bool rd_on; /* the rd_* counters were measured */
} wc_kstats;

/* One timeline event recorded by a controller or an organisation. */
typedef struct wc_tl_event {
    uint64_t cycle;
    int32_t sm; /* -1: the whole GPU */
    char key[28];
    double value;
} wc_tl_event;

typedef struct wc_stats {
    wc_kstats *kernels;
    size_t n_kernels, cap;
    wc_kstats total;
    char config_name[512];
    char workload[512];
    bool truncated;         /* -max_cycles stopped the run inside kernel `truncated_in` */
    char truncated_in[256]; /* statistics cover only the cycles simulated */
    /* Timeline (control.h): in recording order, at most WC_TIMELINE_MAX. */
    wc_tl_event *timeline;
    size_t n_timeline, cap_timeline;
    uint64_t timeline_dropped;
} wc_stats;

void wc_stats_init(wc_stats *st);
void wc_stats_free(wc_stats *st);
wc_kstats *wc_stats_new_kernel(wc_stats *st);             /* NULL on out-of-memory */
void wc_kstats_add(wc_kstats *dst, const wc_kstats *src); /* dst += src */
void wc_kstats_set_extra(wc_kstats *k, const char *name, double value);

/* Derived metrics. */
double wc_kstats_ipc(const wc_kstats *k);      /* thread instructions per cycle */
double wc_kstats_warp_ipc(const wc_kstats *k); /* warp instructions per cycle */
double wc_kstats_l1_miss_rate(const wc_kstats *k);
double wc_kstats_l1_mpki(const wc_kstats *k);
double wc_kstats_l1_read_miss_rate(const wc_kstats *k); /* loads only (what seed 003 models) */
uint64_t wc_kstats_l1_misses(const wc_kstats *k);       /* MISS + SECTOR_MISS */
uint64_t wc_kstats_l1_fails(const wc_kstats *k);

void wc_stats_write_text(const wc_stats *st, FILE *f);
void wc_stats_write_json(const wc_stats *st, FILE *f);
void wc_stats_write_csv(const wc_stats *st, FILE *f);
/* The timeline as CSV rows "workload,cycle,sm,key,value". */
void wc_stats_write_timeline_csv(const wc_stats *st, FILE *f, bool header);
/* CSV rows of one run; `header` writes the column names first. */
void wc_stats_write_csv_run(const wc_stats *st, FILE *f, bool header);

#endif
