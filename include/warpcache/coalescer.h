/*
 * coalescer.h - turns one warp memory instruction into line requests.
 *
 * Active lanes' byte ranges are grouped by aligned segment (128 B lines, or
 * 32 B sectors when the granularity is 32).  Each request carries its 32 B
 * sector mask, its byte mask and the lanes it serves.  An access that
 * straddles a segment boundary touches both segments.  Requests come out in
 * order of first touching lane, as hardware issues them.
 */
#ifndef WARPCACHE_COALESCER_H
#define WARPCACHE_COALESCER_H

#include "warpcache/cache.h"
#include "warpcache/trace.h"

#define WC_MAX_REQS_PER_INST 64 /* 32 lanes, each straddling at most 2 segments */

/* Fills out[] with the requests of `in` at `granularity` bytes (32 or 128).
 * Only addr, bytemask, sectors and lanes are set.  Returns the count. */
unsigned wc_coalesce(const wc_winst *in, unsigned granularity, wc_mem_req *out);

#endif
