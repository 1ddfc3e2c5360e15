/*
 * formats.h - internal entry points of the trace format modules
 * (accelsim.c, trc.c, wct.c), used by traceio.c, which implements the public
 * traceio.h API on top of them, and shared small helpers.
 */
#ifndef WC_TRACE_FORMATS_H
#define WC_TRACE_FORMATS_H

#include <stdio.h>

#include "trace/compress.h"
#include "warpcache/traceio.h"

/* Accel-Sim: `path` is a kernelslist.g or one kernel-N.traceg[.xz|.gz|.zst]. */
wc_source *wc_accelsim_open(const char *path, wc_err *err);
/* One kernel's text from an already-open line reader (taken over). */
wc_source *wc_accelsim_open_lreader(wc_lreader *lr, wc_err *err);
int wc_accelsim_write(wc_source *src, const char *dir, wc_err *err);
/* Lowers the per-thread-block bounds on instructions and listed addresses
 * (tests; the defaults are the documented limits, never raised). */
void wc_accelsim_set_block_limits(wc_source *src, uint64_t max_insts, uint64_t max_addrs);

/* .trc: `path` is NAME_00.trc (a series) or any single .trc file. */
wc_source *wc_trc_open(const char *path, wc_err *err);
wc_source *wc_trc_open_lreader(wc_lreader *lr, wc_err *err);
/* Lowers the bound on one kernel's accesses (tests). */
void wc_trc_set_max_records(wc_source *src, uint64_t max_records);
int wc_trc_write(wc_source *src, const char *prefix, wc_err *err);

/* .wct: reads from `f` (taken over; closed by destroy). */
wc_source *wc_wct_open_file(FILE *f, const char *name, wc_err *err);
int wc_wct_write(wc_source *src, const char *path, int codec, wc_err *err);

/* Growable text buffer used by the text writers. */
typedef struct wc_strbuf {
    char *p;
    size_t len, cap;
} wc_strbuf;
int wc_strbuf_printf(wc_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void wc_strbuf_free(wc_strbuf *b);

/* Strict number parsing: the whole token must be a number that fits. */
bool wc_parse_u64(const char *s, int base, uint64_t *out);
bool wc_parse_i64(const char *s, int64_t *out);

/* Launch-shape limits every reader applies (docs/traces.md "Limits"): the
 * grid within CUDA's (x < 2^31, y and z < 2^16) and at most WC_TRACE_MAX_BLOCKS
 * blocks, a block of 1..WC_TRACE_MAX_TPB threads.  Each dimension is checked
 * before any product is formed, so no product can wrap. */
#define WC_TRACE_MAX_GRID_X  0x7fffffffu
#define WC_TRACE_MAX_GRID_YZ 65535u
#define WC_TRACE_MAX_BLOCKS  (1ull << 32) /* per kernel: no trace can hold more */
#define WC_TRACE_MAX_TPB     65536u

typedef enum wc_shape_fault {
    WC_SHAPE_OK = 0,
    WC_SHAPE_GRID_ZERO,
    WC_SHAPE_GRID_DIM,    /* a dimension beyond CUDA's limits */
    WC_SHAPE_GRID_BLOCKS, /* more than WC_TRACE_MAX_BLOCKS */
    WC_SHAPE_BLOCK        /* zero, or more than WC_TRACE_MAX_TPB threads */
} wc_shape_fault;

static inline wc_shape_fault wc_trace_shape_fault(wc_dim3 g, wc_dim3 b)
{
    if (!g.x || !g.y || !g.z) return WC_SHAPE_GRID_ZERO;
    if (g.x > WC_TRACE_MAX_GRID_X || g.y > WC_TRACE_MAX_GRID_YZ || g.z > WC_TRACE_MAX_GRID_YZ)
        return WC_SHAPE_GRID_DIM;
    if (wc_dim3_count(g) > WC_TRACE_MAX_BLOCKS) return WC_SHAPE_GRID_BLOCKS; /* < 2^63 */
    if (!b.x || !b.y || !b.z || b.x > WC_TRACE_MAX_TPB || b.y > WC_TRACE_MAX_TPB ||
        b.z > WC_TRACE_MAX_TPB || wc_dim3_count(b) > WC_TRACE_MAX_TPB) /* < 2^48 */
        return WC_SHAPE_BLOCK;
    return WC_SHAPE_OK;
}

/* Lane address helpers. */
static inline bool wc_mask_is_prefix(uint32_t mask)
{
    return (mask & (mask + 1u)) == 0; /* 0, or lanes 0..n-1 */
}

#endif
