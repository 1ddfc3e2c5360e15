/*
 * coalescer.h - turns one warp memory instruction into line requests.
 *
 * Active lanes' byte ranges are grouped by aligned segment (the L1 line, or
 * a smaller power of two: -coalesce_bytes).  Each request carries its chunk
 * mask relative to the enclosing L1 line (the L1's wc_xfer says the line and
 * chunk sizes) and the lanes it serves.  An access that
 * straddles a segment boundary touches both segments.  Requests come out in
 * order of first touching lane, as hardware issues them.
 */
#ifndef WARPCACHE_COALESCER_H
#define WARPCACHE_COALESCER_H

#include "warpcache/cache.h"
#include "warpcache/trace.h"

#define WC_MAX_REQS_PER_INST 64 /* 32 lanes, each straddling at most 2 segments */

/* Fills out[] with the requests of `in` cut by x (granularity <= line,
 * line / chunk <= 64 chunks).  Only addr, chunks, lanes, line_log2 and
 * chunk_log2 are set.  Returns the count. */
unsigned wc_coalesce(const wc_winst *in, const wc_xfer *x, wc_mem_req *out);

#endif
