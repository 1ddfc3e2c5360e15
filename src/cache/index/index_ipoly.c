/*
 * index_ipoly.c - the IPOLY / PRIC set index (GPGPU-Sim sif 'P'): seed 002
 * (../shared/papers/002_549a998632bcde66.txt, "Pseudo Random Interleaved
 * Cache (PRIC)", Figure 7), after Rau's polynomial-modulus mapping.
 *
 * The line address L = addr >> log2(line) is read as a polynomial over GF(2)
 * (bit k = coefficient of x^k) and the set is L(x) mod P(x), with P an
 * irreducible polynomial of degree m = log2(S).  Reduction is linear over
 * GF(2), so the set is the XOR of (x^k mod P) over the set bits k of L: we
 * precompute, per byte position b and byte value v, the XOR of x^(8b+j) mod P
 * over the set bits j of v.  The hot path is then 8 table lookups and XORs.
 */
#include "cache/index_impl.h"

/* Standard irreducible (primitive) polynomials, with the x^m term, by degree.
 * Degree 5 is seed 002's Poly(37) = x^5 + x^2 + 1. */
static const uint32_t default_polys[] = {
    0,       /* degree 0: one set, nothing to reduce */
    0x3,     /* x + 1 */
    0x7,     /* x^2 + x + 1 */
    0xb,     /* x^3 + x + 1 */
    0x13,    /* x^4 + x + 1 */
    0x25,    /* x^5 + x^2 + 1 (37) */
    0x43,    /* x^6 + x + 1 */
    0x83,    /* x^7 + x + 1 */
    0x11d,   /* x^8 + x^4 + x^3 + x^2 + 1 */
    0x211,   /* x^9 + x^4 + 1 */
    0x409,   /* x^10 + x^3 + 1 */
    0x805,   /* x^11 + x^2 + 1 */
    0x1053,  /* x^12 + x^6 + x^4 + x + 1 */
    0x201b,  /* x^13 + x^4 + x^3 + x + 1 */
    0x4443,  /* x^14 + x^10 + x^6 + x + 1 */
    0x8003,  /* x^15 + x + 1 */
    0x1100b, /* x^16 + x^12 + x^3 + x + 1 */
};

uint32_t wc_ipoly_default(uint32_t nsets)
{
    if (!wc_is_pow2(nsets)) return 0;
    unsigned m = wc_log2(nsets);
    return m < sizeof default_polys / sizeof default_polys[0] ? default_polys[m] : 0;
}

static unsigned poly_degree(uint64_t p)
{
    return wc_log2(p); /* p != 0 */
}

/* a(x) mod p(x) over GF(2), by long division (p != 0). */
static uint64_t poly_mod(uint64_t a, uint64_t p)
{
    unsigned dp = poly_degree(p);
    while (a && poly_degree(a) >= dp) a ^= p << (poly_degree(a) - dp);
    return a;
}

/* Trial division by every polynomial of degree 1 .. deg(p)/2. */
static bool poly_irreducible(uint32_t p)
{
    unsigned d = poly_degree(p);
    if (d == 0) return false;
    for (uint64_t q = 2; poly_degree(q) <= d / 2; q++)
        if (poly_mod(p, q) == 0) return false;
    return true;
}

static uint32_t ipoly_set(const wc_index *ix, uint64_t addr)
{
    uint64_t l = addr >> ix->line_log2;
    return ix->table[0][l & 255] ^ ix->table[1][(l >> 8) & 255] ^ ix->table[2][(l >> 16) & 255] ^
           ix->table[3][(l >> 24) & 255] ^ ix->table[4][(l >> 32) & 255] ^
           ix->table[5][(l >> 40) & 255] ^ ix->table[6][(l >> 48) & 255] ^ ix->table[7][l >> 56];
}

static uint32_t one_set(const wc_index *ix, uint64_t addr)
{
    return 0;
}

static void ipoly_fill_tables(wc_index *ix)
{
    for (unsigned b = 0; b < 8; b++) {
        uint32_t bit[8]; /* x^(8b+j) mod P */
        for (unsigned j = 0; j < 8; j++) {
            /* x^k mod P for k up to 63: reduce step by step to stay in 64 bits. */
            uint64_t r = 1;
            for (unsigned k = 0; k < 8 * b + j; k++) r = poly_mod(r << 1, ix->poly);
            bit[j] = (uint32_t)r;
        }
        for (unsigned v = 0; v < 256; v++) {
            uint32_t acc = 0;
            for (unsigned j = 0; j < 8; j++)
                if (v >> j & 1) acc ^= bit[j];
            ix->table[b][v] = acc;
        }
    }
}

static int wc_index_ipoly_init(wc_index *ix, uint32_t nsets, uint32_t line_bytes, uint32_t poly,
                               wc_err *err)
{
    if (wc_index_check_pow2_sets("ipoly", nsets, err) < 0) return -1;
    if (wc_index_base_init(ix, "ipoly", nsets, line_bytes, err) < 0) return -1;
    unsigned m = wc_log2(nsets);
    if (m == 0) { /* one set: every polynomial of degree 0 maps everything to 0 */
        if (poly > 1)
            return wc_errf(err, "ipoly set index: polynomial %u has degree %u, 1 set needs 0", poly,
                           poly_degree(poly));
        ix->fn = one_set;
        return 0;
    }
    if (poly == 0) {
        poly = wc_ipoly_default(nsets);
        if (poly == 0)
            return wc_errf(err, "ipoly set index: no default polynomial for %u sets; give one",
                           nsets);
    }
    if (poly_degree(poly) != m)
        return wc_errf(err, "ipoly set index: polynomial %u has degree %u, %u sets need degree %u",
                       poly, poly_degree(poly), nsets, m);
    if (!poly_irreducible(poly))
        return wc_errf(err, "ipoly set index: polynomial %u is reducible over GF(2)", poly);
    ix->poly = poly;
    ipoly_fill_tables(ix);
    ix->fn = ipoly_set;
    return 0;
}

const wc_index_desc wc_index_ipoly = {"ipoly", 'P', wc_index_ipoly_init};
WC_PLUGIN(index, wc_index_ipoly, 30);
