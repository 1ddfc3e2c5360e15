/*
 * test_index.c - set-index functions against hand-computed values, the
 * IPOLY matrix against seed 002's printed XOR equations (Figure 7 of
 * ../shared/papers/002_549a998632bcde66.txt), IPOLY against a direct
 * polynomial long division, and the registry.
 */
#include "check.h"
#include "util/rng.h"
#include "warpcache/cache.h"

static wc_index ix; /* 8 KiB: keep it off the stack */

static uint32_t set_of(char letter, uint32_t nsets, uint32_t line, uint64_t addr)
{
    wc_err err;
    if (wc_index_init(&ix, letter, nsets, line, 0, &err) < 0) {
        fprintf(stderr, "init %c: %s\n", letter, err.msg);
        return UINT32_MAX;
    }
    return wc_index_set(&ix, addr);
}

static void test_linear(void)
{
    /* 0x12345680 >> 7 = 0x2468AD; low 5 bits = 0b01101 = 13. */
    CHECK_EQ(set_of('L', 32, 128, 0x12345680), 13);
    CHECK_EQ(set_of('L', 32, 128, 0x12345680 + 127), 13); /* same line */
    CHECK_EQ(set_of('L', 32, 128, 0x12345680 + 128), 14);
    CHECK_EQ(set_of('L', 64, 32, 0x40), 2);
    CHECK_EQ(set_of('L', 1, 128, 0xdeadbeef), 0);
}

static void test_xor(void)
{
    /* L = 0x2468AD: low field 13, next field (L >> 5) & 31 = 0x12345 & 31 = 5. */
    CHECK_EQ(set_of('X', 32, 128, 0x12345680), 13 ^ 5);
    /* Lines 0 and 32 conflict in a linear 32-set index, not under xor. */
    CHECK_EQ(set_of('X', 32, 128, 0), 0);
    CHECK_EQ(set_of('X', 32, 128, 32 * 128), 1);
    CHECK_EQ(set_of('X', 4, 64, (uint64_t)0xB << 6), 3 ^ 2); /* L = 0b1011 */
}

static void test_fermi(void)
{
    CHECK_EQ(set_of('H', 32, 128, 0), 0);
    CHECK_EQ(set_of('H', 32, 128, 0x80), 1);      /* addr7 -> bit 0 */
    CHECK_EQ(set_of('H', 32, 128, 0xF80), 31);    /* addr[11:7] all set */
    CHECK_EQ(set_of('H', 32, 128, 1u << 13), 1);  /* addr13 -> bit 0 */
    CHECK_EQ(set_of('H', 32, 128, 1u << 14), 2);  /* addr14 -> bit 1 */
    CHECK_EQ(set_of('H', 32, 128, 1u << 15), 4);  /* addr15 -> bit 2 */
    CHECK_EQ(set_of('H', 32, 128, 1u << 17), 8);  /* addr17 -> bit 3 */
    CHECK_EQ(set_of('H', 32, 128, 1u << 19), 16); /* addr19 -> bit 4 */
    CHECK_EQ(set_of('H', 32, 128, 1u << 16), 0);  /* 16, 18 unused */
    CHECK_EQ(set_of('H', 32, 128, 1u << 18), 0);
    CHECK_EQ(set_of('H', 32, 128, 0x2080), 0);  /* addr7 ^ addr13 */
    CHECK_EQ(set_of('H', 32, 128, 0x1000), 0);  /* addr12 unused at 32 sets */
    CHECK_EQ(set_of('H', 64, 128, 0x1000), 32); /* ... is bit 5 at 64 */
    CHECK_EQ(set_of('H', 64, 128, 0x1000 | 1u << 19 | 0x100), 32 | (16 ^ 2));
    wc_err err;
    CHECK(wc_index_init(&ix, 'H', 16, 128, 0, &err) < 0);
    CHECK(strstr(err.msg, "16") != NULL);
    CHECK(wc_index_init(&ix, 'H', 128, 128, 0, &err) < 0);
}

static void test_pow2_errors(void)
{
    wc_err err;
    const char letters[] = {'L', 'X', 'P'};
    for (int i = 0; i < 3; i++) {
        err.msg[0] = 0;
        CHECK(wc_index_init(&ix, letters[i], 48, 128, 0, &err) < 0);
        CHECK(strstr(err.msg, "48") != NULL);
        CHECK(wc_index_init(&ix, letters[i], 0, 128, 0, &err) < 0);
        CHECK(wc_index_init(&ix, letters[i], 32, 100, 0, &err) < 0);
    }
    CHECK(wc_index_init(&ix, 'Q', 32, 128, 0, &err) < 0);
}

/* Seed 002 Figure 7 (32 sets, 128 B lines, 32-bit addresses, Poly(37)). */
static const int eq_i0[] = {25, 24, 23, 22, 21, 18, 17, 15, 12, 7};
static const int eq_i3[] = {23, 22, 21, 20, 19, 16, 15, 13, 10};
static const int eq_i4[] = {24, 23, 22, 21, 20, 17, 16, 14, 11};

static bool in_eq(const int *eq, size_t n, int bit)
{
    for (size_t i = 0; i < n; i++)
        if (eq[i] == bit) return true;
    return false;
}

static void test_ipoly_seed002_equations(void)
{
    wc_err err;
    CHECK_EQ(wc_ipoly_default(32), 37);
    CHECK(wc_index_init(&ix, 'P', 32, 128, 0, &err) == 0);
    CHECK_EQ(ix.poly, 37);
    /* The printed equations cover address bits 7..25: compare the matrix
     * column of every such bit with the equations' membership. */
    for (int bit = 7; bit <= 25; bit++) {
        uint32_t s = wc_index_set(&ix, (uint64_t)1 << bit);
        CHECK_EQ(s & 1, in_eq(eq_i0, 10, bit));
        CHECK_EQ(s >> 3 & 1, in_eq(eq_i3, 9, bit));
        CHECK_EQ(s >> 4 & 1, in_eq(eq_i4, 9, bit));
    }
    /* And the equations themselves on random addresses below bit 26. */
    uint64_t rng = wc_rng_seed(2);
    for (int t = 0; t < 1000; t++) {
        uint64_t a = wc_rng_next(&rng) & ((1u << 26) - 1);
        uint32_t s = wc_index_set(&ix, a), i0 = 0, i3 = 0, i4 = 0;
        for (int k = 0; k < 10; k++) i0 ^= (uint32_t)(a >> eq_i0[k]) & 1;
        for (int k = 0; k < 9; k++) i3 ^= (uint32_t)(a >> eq_i3[k]) & 1;
        for (int k = 0; k < 9; k++) i4 ^= (uint32_t)(a >> eq_i4[k]) & 1;
        CHECK_EQ(s & 1, i0);
        CHECK_EQ(s >> 3 & 1, i3);
        CHECK_EQ(s >> 4 & 1, i4);
    }
}

/* Second method: shift-and-subtract long division of the whole line address. */
static uint32_t poly_mod_direct(uint64_t a, uint32_t p)
{
    int dp = 31 - __builtin_clz(p);
    for (int k = 63; k >= dp; k--)
        if (a >> k & 1) a ^= (uint64_t)p << (k - dp);
    return (uint32_t)a;
}

static void test_ipoly_vs_division(void)
{
    uint64_t rng = wc_rng_seed(7);
    wc_err err;
    for (uint32_t nsets = 2; nsets <= 4096; nsets *= 2) {
        for (uint32_t line = 32; line <= 128; line *= 2) {
            CHECK(wc_index_init(&ix, 'P', nsets, line, 0, &err) == 0);
            unsigned sh = (unsigned)__builtin_ctz(line);
            for (int t = 0; t < 2000; t++) {
                uint64_t a = wc_rng_next(&rng);
                uint32_t s = wc_index_set(&ix, a);
                if (s != poly_mod_direct(a >> sh, ix.poly)) {
                    CHECK_EQ(s, poly_mod_direct(a >> sh, ix.poly));
                    break;
                }
                if (s >= nsets) {
                    CHECK(s < nsets);
                    break;
                }
            }
        }
    }
    /* A user polynomial: x^5 + x^3 + 1 = 41 (one of seed 002's six). */
    CHECK(wc_index_init(&ix, 'P', 32, 128, 41, &err) == 0);
    CHECK_EQ(wc_index_set(&ix, 0x12345680), poly_mod_direct(0x2468AD, 41));
}

/* Multiplicative order of x modulo p (p of degree m). */
static uint32_t order_of_x(uint32_t p)
{
    int m = 31 - __builtin_clz(p);
    uint32_t r = poly_mod_direct(2, p), n = 1;
    while (r != 1 && n < (1u << 20)) {
        r <<= 1;
        if (r >> m & 1) r ^= p;
        n++;
    }
    return n;
}

static void test_ipoly_defaults_and_errors(void)
{
    /* Every default is primitive (x has order 2^m - 1), hence irreducible -
     * checked independently of the library's trial division. */
    for (unsigned m = 1; m <= 16; m++) {
        uint32_t p = wc_ipoly_default(1u << m);
        CHECK_EQ(31 - __builtin_clz(p), m);
        CHECK_EQ(order_of_x(p), (1u << m) - 1);
    }
    CHECK_EQ(wc_ipoly_default(48), 0);
    wc_err err;
    CHECK(wc_index_init(&ix, 'P', 32, 128, 19, &err) < 0); /* degree 4 */
    CHECK(strstr(err.msg, "degree") != NULL);
    CHECK(wc_index_init(&ix, 'P', 32, 128, 33, &err) < 0); /* x^5+1 = (x+1)(x^4+..+1) */
    CHECK(strstr(err.msg, "reducible") != NULL);
    CHECK(wc_index_init(&ix, 'P', 32, 128, 0x3F, &err) < 0); /* (x+1) divides: even weight */
    CHECK(wc_index_init(&ix, 'P', 1, 128, 0, &err) == 0);
    CHECK_EQ(wc_index_set(&ix, 0x12345680), 0);
}

/* PRIC's point (seed 002 Fig. 5b): a stride of S lines, which puts every
 * access in one set under linear indexing, spreads over all S sets. */
static void test_ipoly_spreads_set_strides(void)
{
    wc_err err;
    CHECK(wc_index_init(&ix, 'P', 32, 128, 0, &err) == 0);
    uint32_t seen = 0;
    for (uint64_t j = 0; j < 32; j++) seen |= 1u << wc_index_set(&ix, j * 32 * 128);
    CHECK_EQ(seen, 0xFFFFFFFFu);
}

static void test_registry(void)
{
    size_t n = 0;
    const wc_index_desc *const *all = wc_index_list(&n);
    CHECK_EQ(n, 4);
    CHECK(all != NULL);
    CHECK_STR(wc_index_find("H")->name, "fermi");
    CHECK_STR(wc_index_find("p")->name, "ipoly");
    CHECK_STR(wc_index_find("xor")->name, "xor");
    CHECK_EQ(wc_index_find("LINEAR")->letter, 'L');
    CHECK(wc_index_find("nope") == NULL);
    CHECK(wc_index_find("") == NULL);
    CHECK(wc_index_find(NULL) == NULL);
}

int main(void)
{
    RUN(test_linear);
    RUN(test_xor);
    RUN(test_fermi);
    RUN(test_pow2_errors);
    RUN(test_ipoly_seed002_equations);
    RUN(test_ipoly_vs_division);
    RUN(test_ipoly_defaults_and_errors);
    RUN(test_ipoly_spreads_set_strides);
    RUN(test_registry);
    return check_summary("index");
}
