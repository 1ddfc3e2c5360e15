/*
 * test_rng.c - the shared random helpers (src/util/rng.h): splitmix64 against
 * its published reference outputs, and the per-SM seed every L1 that draws
 * random numbers uses (wc_rng_sm_seed), computed by hand.
 */
#include "check.h"
#include "util/rng.h"

/* splitmix64 from state 0 (Vigna's reference splitmix64.c): the first three
 * outputs are 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F. */
static void test_splitmix64_reference(void)
{
    uint64_t s = 0;
    CHECK(wc_splitmix64(&s) == 0xE220A8397B1DCDAFull);
    CHECK(wc_splitmix64(&s) == 0x6E789E6AA1B965F4ull);
    CHECK(wc_splitmix64(&s) == 0x06C45D188009454Full);
    CHECK(s == 3 * 0x9e3779b97f4a7c15ull); /* the state advances by the increment */
}

/* seed ^ (sm + 1) x 0x9e3779b97f4a7c15 (mod 2^64):
 *   seed 1, SM 0: 0x9e3779b97f4a7c15 ^ 1           = 0x9e3779b97f4a7c14
 *   seed 1, SM 1: 0x3c6ef372fe94f82a ^ 1 (2x, carry out dropped) = 0x3c6ef372fe94f82b
 *   seed 0, SM 2: 3 x 0x9e3779b97f4a7c15           = 0xdaa66d2c7ddf743f */
static void test_sm_seed(void)
{
    CHECK(wc_rng_sm_seed(1, 0) == 0x9e3779b97f4a7c14ull);
    CHECK(wc_rng_sm_seed(1, 1) == 0x3c6ef372fe94f82bull);
    CHECK(wc_rng_sm_seed(0, 2) == 0xdaa66d2c7ddf743full);
    /* 64 SMs, one run seed: 64 different streams */
    for (int a = 0; a < 64; a++)
        for (int b = a + 1; b < 64; b++) CHECK(wc_rng_sm_seed(7, a) != wc_rng_sm_seed(7, b));
}

int main(void)
{
    RUN(test_splitmix64_reference);
    RUN(test_sm_seed);
    return check_summary("rng");
}
