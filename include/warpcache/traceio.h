/*
 * traceio.h - reading and writing instruction traces.
 *
 * Three formats (docs/traces.md describes them and the choices made):
 *   - Accel-Sim / NVBit SASS traces: a folder with kernelslist.g and
 *     kernel-N.traceg[.xz|.gz|.zst], or one .traceg file.  Read and write.
 *   - .trc per-thread traces of seed 003 (Ocelot style): NAME_00.trc,
 *     NAME_01.trc, ... one per kernel launch.  Read and write.
 *   - .wct, warpcache's native binary format: the fastest way to feed the
 *     simulator.  Read and write.
 *
 * Every reader is a wc_source (trace.h): streamed block by block, so memory
 * stays bounded by the open blocks (the .trc reader, whose format is
 * unordered, holds one kernel's accesses, 16 bytes each).
 */
#ifndef WARPCACHE_TRACEIO_H
#define WARPCACHE_TRACEIO_H

#include "warpcache/trace.h"

typedef enum wc_trace_format {
    WC_TRACE_AUTO = 0, /* detect from the name and the first bytes */
    WC_TRACE_ACCELSIM,
    WC_TRACE_TRC,
    WC_TRACE_WCT
} wc_trace_format;

const char *wc_trace_format_name(wc_trace_format f);
/* "wct", "trc", "accelsim" -> format; WC_TRACE_AUTO when unknown. */
wc_trace_format wc_trace_format_parse(const char *name);

/*
 * Kernel selection.  A kernel is kept when it passes both tests:
 *   ids:  NULL/"" = all, else a list of launch ids and ranges: "1,3,5-7".
 *   name: NULL/"" = all, else a glob ('*', '?') matched against the whole
 *         kernel name when it contains a wildcard, a substring otherwise.
 */
typedef struct wc_kernel_filter {
    const char *ids;
    const char *name;
} wc_kernel_filter;

/* Checks the filter's syntax (so a bad id list is reported once, up front). */
int wc_kernel_filter_check(const wc_kernel_filter *f, wc_err *err);
bool wc_kernel_filter_match(const wc_kernel_filter *f, const wc_kernel *k);
/* Wraps src so that only matching kernels are produced (takes ownership of src). */
wc_source *wc_source_filter(wc_source *src, const wc_kernel_filter *f, wc_err *err);

/*
 * Opens a trace.  `path` may be: a folder (holding kernelslist.g, or one
 * *_00.trc series), a kernelslist.g, a .traceg[.xz|.gz|.zst], a .trc file
 * (NAME_00.trc starts a series; any other .trc is read alone), or a .wct
 * file.  `filter` may be NULL.
 */
wc_source *wc_trace_open(const char *path, wc_trace_format fmt, const wc_kernel_filter *filter,
                         wc_err *err);
/* Parses one in-memory trace (fuzzers, tests): for Accel-Sim the text of one
 * kernel-N.traceg (possibly compressed), for .trc one kernel file, for .wct a
 * whole file.  `data` must outlive the source. */
wc_source *wc_trace_open_mem(const void *data, size_t len, wc_trace_format fmt, wc_err *err);

/* ---- writers: each drains `src` (every kernel, every block in order) ---- */

typedef struct wc_wct_options {
    int codec; /* 0 none, 1 zlib, 2 zstd; -1 = best available (default) */
} wc_wct_options;

/* One .wct file.  opts may be NULL. */
int wc_trace_write_wct(wc_source *src, const char *path, const wc_wct_options *opts, wc_err *err);
/* PREFIX_00.trc, PREFIX_01.trc, ...; `prefix` may also be given as
 * "PREFIX.trc" or "PREFIX_00.trc".  Global loads/stores/atomics, local
 * loads/stores are written (shared memory is not: the seed's model ignores it). */
int wc_trace_write_trc(wc_source *src, const char *prefix, wc_err *err);
/* DIR/kernelslist.g + DIR/kernel-N.traceg (tracer version 4 text, no lineinfo). */
int wc_trace_write_accelsim(wc_source *src, const char *dir, wc_err *err);
/* Dispatches on fmt (WC_TRACE_AUTO: from the output name's extension). */
int wc_trace_write(wc_source *src, const char *out, wc_trace_format fmt, wc_err *err);

/* ---- information ---------------------------------------------------- */

typedef struct wc_trace_kernel_info {
    wc_kernel k;
    uint64_t warp_insts;
    uint64_t by_op[WC_OP__COUNT];
    uint64_t mem_insts;     /* memory instructions (any space) */
    uint64_t lane_accesses; /* active lanes of memory instructions */
    uint64_t unique_lines;  /* distinct 128 B lines touched (global + local) */
} wc_trace_kernel_info;

typedef struct wc_trace_info {
    uint32_t nkernels;
    wc_trace_kernel_info *kernels; /* malloc'd, nkernels entries */
    uint64_t warp_insts;
    uint64_t by_op[WC_OP__COUNT];
    uint64_t mem_insts;
    uint64_t unique_lines;    /* over the whole trace */
    uint64_t footprint_bytes; /* unique_lines * 128 */
} wc_trace_info;

/* Drains src and summarises it.  Free with wc_trace_info_free. */
int wc_trace_info_compute(wc_source *src, wc_trace_info *info, wc_err *err);
void wc_trace_info_free(wc_trace_info *info);

#endif
