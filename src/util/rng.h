/*
 * rng.h - the deterministic random generator every seeded choice uses
 * (splitmix64 to seed, or to draw where a plug-in wants it directly;
 * xorshift64* to draw), and the per-SM seed.  State is a plain uint64_t owned by
 * whoever needs randomness, so runs with the same seed produce the same bytes.
 */
#ifndef WC_UTIL_RNG_H
#define WC_UTIL_RNG_H

#include <stdint.h>

static inline uint64_t wc_splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The seed of SM `sm`'s own random choices (an L1's replacement, TSC's
 * placement) from the run's seed: every SM draws a different stream, and the
 * same one in every run with that seed.  The SM number is mixed in by
 * multiplying sm + 1 with splitmix64's increment (odd: distinct SMs give
 * distinct seeds). */
static inline uint64_t wc_rng_sm_seed(uint64_t run_seed, int sm)
{
    return run_seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(sm + 1));
}

static inline uint64_t wc_rng_seed(uint64_t seed)
{
    uint64_t s = seed;
    uint64_t v = wc_splitmix64(&s);
    return v ? v : 1;
}

static inline uint64_t wc_rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* Uniform in [0, n). */
static inline uint64_t wc_rng_below(uint64_t *s, uint64_t n)
{
    return n ? wc_rng_next(s) % n : 0;
}

/* Uniform in [0, 1). */
static inline double wc_rng_unit(uint64_t *s)
{
    return (double)(wc_rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
