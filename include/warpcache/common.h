/*
 * common.h - types every part of warpcache shares: errors as values, 3-D
 * dimensions, and a few bit helpers.
 *
 * Errors: a function that can fail on user input takes a `wc_err *` and
 * returns a negative value after filling it with "file:line: reason".  Only
 * src/cli/ turns an error into an exit status (2 for bad input).
 */
#ifndef WARPCACHE_COMMON_H
#define WARPCACHE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WC_VERSION "0.1.0"

/* Error text, always "where: what" so the user can find the problem. */
typedef struct wc_err {
    char msg[1024];
} wc_err;

/* Formats an error message; returns -1 so callers can `return wc_errf(...)`. */
int wc_errf(wc_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A CUDA dim3. */
typedef struct wc_dim3 {
    uint32_t x, y, z;
} wc_dim3;

static inline uint64_t wc_dim3_count(wc_dim3 d)
{
    return (uint64_t)d.x * d.y * d.z;
}

/* Linear id (x fastest) -> coordinates. */
static inline wc_dim3 wc_dim3_unlinear(wc_dim3 shape, uint64_t id)
{
    wc_dim3 r;
    r.x = (uint32_t)(id % shape.x);
    r.y = (uint32_t)((id / shape.x) % shape.y);
    r.z = (uint32_t)(id / ((uint64_t)shape.x * shape.y));
    return r;
}

static inline bool wc_is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static inline unsigned wc_log2(uint64_t v)
{
    return v ? 63u - (unsigned)__builtin_clzll(v) : 0;
}

/* Bit counts without a libgcc call (x86-64 baseline has no popcnt). */
static inline unsigned wc_popcount32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

static inline unsigned wc_popcount64(uint64_t v)
{
    return wc_popcount32((uint32_t)v) + wc_popcount32((uint32_t)(v >> 32));
}

/* Bits set in a 4-bit 32 B-sector mask. */
static inline unsigned wc_sector_count(uint8_t sectors)
{
    return (0x4332322132212110ull >> ((sectors & 15) * 4)) & 15;
}

#define WC_NEVER UINT64_MAX /* a time that never comes */

#endif
