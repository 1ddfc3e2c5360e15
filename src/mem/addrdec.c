/*
 * addrdec.c - GPGPU-Sim's address decoding: sub-partition and partition
 * address of a physical address (see addrdec.h for what and why).
 *
 * Facts taken from GPGPU-Sim's src/gpgpu-sim/addrdec.cc and hashing.cc
 * (4.2.0, 667834cf; the decoding is the same in 3.2.2): the built-in masks
 * of -gpgpu_mem_address_mask, the placement of the chip bits at dramid@N
 * (modulo when the channel count is not a power of two), the sub-partition
 * = chip x subs + the lowest bank bit(s), the partition address = the
 * address without the chip and sub-partition bits, and the IPOLY equations
 * of the partition hash.  One deliberate difference: GPGPU-Sim's random
 * partition indexing (4) draws each 128 B chunk's sub-partition from
 * rand() and remembers it in a table; warpcache hashes the chunk address
 * with the run's seed instead (the same uniform spread, no table, and
 * independent of the order of accesses).
 */
#include "mem/addrdec.h"

#include <string.h>

/* ---- bit helpers ---------------------------------------------------------- */

/* The bits of v under mask, packed to the low end (GPGPU-Sim's packbits). */
static uint64_t pack_bits(uint64_t mask, uint64_t v)
{
    uint64_t r = 0;
    unsigned pos = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned b = (unsigned)__builtin_ctzll(m);
        r |= ((v >> b) & 1) << pos++;
    }
    return r;
}

/* v with the bits under mask taken out and the bits above moved down. */
static uint64_t strip_bits(uint64_t mask, uint64_t v)
{
    while (mask) {
        unsigned b = 63u - (unsigned)__builtin_clzll(mask); /* highest first */
        uint64_t low = b ? v & ((1ull << b) - 1) : 0;
        v = b < 63 ? ((v >> (b + 1)) << b) | low : low;
        mask &= ~(1ull << b);
    }
    return v;
}

/* A mask's bits as (lowest bit, width): true when they are one run or none
 * (width 0, which the shifts of wc_addrdec_map turn into "no bits"). */
static bool bit_run(uint64_t mask, uint8_t *lo, uint8_t *n)
{
    *lo = *n = 0;
    if (!mask) return true;
    unsigned b = (unsigned)__builtin_ctzll(mask);
    uint64_t run = mask >> b;
    if (run & (run + 1)) return false; /* a gap in the bits */
    *lo = (uint8_t)b;
    *n = (uint8_t)wc_popcount64(mask);
    return true;
}

/* Whether wc_addrdec_map may decode with shifts (its inline path): the
 * channel taken modulo or from one run of bits, the stripped bits and the
 * sub-partition bits one run each, no partition hash. */
static void set_fast(wc_addrdec *d)
{
    bool chip = d->gap || bit_run(d->mask[WC_AD_CHIP], &d->chip_lo, &d->chip_n);
    bool strip = bit_run(d->strip, &d->strip_lo, &d->strip_n);
    bool sub = bit_run(d->sub_mask, &d->sub_lo, &d->sub_n);
    d->fast = chip && strip && sub && (d->indexing == 0 || d->indexing == 3);
}

static unsigned parity64(uint64_t v)
{
    v ^= v >> 32;
    v ^= v >> 16;
    v ^= v >> 8;
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return (unsigned)(v & 1);
}

/* GPGPU-Sim's ipoly_hash_function: bit k of the new index is bit k of
 * `index` XOR the parity of the higher address bits under ipoly[k]
 * (IPOLY(5), (37) and (67) for 16, 32 and 64 sub-partitions). */
static const uint64_t ipoly16[4] = {0xf59, 0x11eb, 0x3d6, 0x7ac};
static const uint64_t ipoly32[5] = {0x3e69, 0x7cd2, 0x47cd, 0xf9a, 0x1f34};
static const uint64_t ipoly64[6] = {0x79461, 0xbca3, 0x17946, 0x2f28c, 0x5e518, 0x3ca30};

static uint32_t ipoly_hash(uint64_t high, uint32_t index, uint32_t n)
{
    const uint64_t *eq = n == 16 ? ipoly16 : n == 32 ? ipoly32 : ipoly64;
    unsigned bits = wc_log2(n);
    uint32_t r = 0;
    for (unsigned k = 0; k < bits; k++) r |= (((index >> k) & 1) ^ parity64(high & eq[k])) << k;
    return r;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- the mapping string ------------------------------------------------- */

int wc_addrdec_parse(const char *s, uint64_t mask[WC_AD__N], int *chip_s, wc_err *err)
{
    memset(mask, 0, WC_AD__N * sizeof mask[0]);
    *chip_s = -1;
    const char *map = s;
    if (strncmp(s, "dramid@", 7) == 0) {
        const char *p = s + 7;
        unsigned n = 0, digits = 0;
        while (*p >= '0' && *p <= '9' && digits < 3) n = n * 10 + (unsigned)(*p++ - '0'), digits++;
        if (!digits || *p != ';' || n > 63)
            return wc_errf(err,
                           "\"%s\": expected dramid@N; with N a bit position 0..63 before "
                           "the bit map",
                           s);
        *chip_s = (int)n;
        map = p + 1;
    } else if (strchr(s, ';')) {
        return wc_errf(err, "\"%s\": text before ';' must be dramid@N", s);
    }
    int ofs = 63;
    for (const char *c = map; *c; c++) {
        int field;
        switch (*c) {
        case 'D':
        case 'd': field = WC_AD_CHIP; break;
        case 'B':
        case 'b': field = WC_AD_BK; break;
        case 'R':
        case 'r': field = WC_AD_ROW; break;
        case 'C':
        case 'c': field = WC_AD_COL; break;
        case 'S':
        case 's': field = WC_AD_BURST; break;
        case '0': field = -1; break;
        case '.':
        case '|':
        case ' ': continue;
        default:
            return wc_errf(err,
                           "'%c' (position %d) is not a bit of the map: use D, B, R, C, S "
                           "or 0 (with '.', '|' or blanks between groups)",
                           *c, (int)(c - s) + 1);
        }
        if (ofs < 0) return wc_errf(err, "\"%s\": the bit map has more than 64 bits", s);
        if (field == WC_AD_CHIP && *chip_s >= 0)
            return wc_errf(err, "\"%s\": D bits and dramid@N both name the channel bits", s);
        if (field == WC_AD_BURST) mask[WC_AD_COL] |= 1ull << ofs; /* a burst bit is a column bit */
        if (field >= 0) mask[field] |= 1ull << ofs;
        ofs--;
    }
    if (ofs != -1) return wc_errf(err, "\"%s\": the bit map has %d bits; it needs 64", s, 63 - ofs);
    return 0;
}

/* ---- building the decoder ------------------------------------------------ */

/* GPGPU-Sim's built-in masks, chosen by -gpgpu_mem_address_mask when no
 * -gpgpu_mem_addr_mapping is given: ADDR_CHIP_S, bank, row, column. */
typedef struct builtin_mask {
    uint32_t mode;
    int chip_s;
    uint64_t bk, row, col;
} builtin_mask;

static const builtin_mask builtin[] = {
    {0, 10, 0x300, 0x7FFE000, 0x1CFF},  {1, 13, 0x1800, 0x7FFE000, 0x7FF},
    {2, 11, 0x1800, 0x7FFE000, 0x7FF},  {3, 11, 0x1800, 0xFFFE000, 0x7FF},
    {5, 5, 0x1800, 0x7FFE000, 0x7FF},   {6, 6, 0x1800, 0x7FFE000, 0x7FF},
    {14, 14, 0x1800, 0x7FFE000, 0x7FF}, {15, 15, 0x1800, 0x7FFE000, 0x7FF},
    {16, 16, 0x1800, 0x7FFE000, 0x7FF}, {100, 1, 0x3, 0x7FFE000, 0x1FFC},
    {103, 3, 0x3, 0x7FFE000, 0x1FFC},   {106, 6, 0x1800, 0x7FFE000, 0x7FF},
    {160, 6, 0x300, 0x7FFE000, 0x1CFF},
};

static int builtin_masks(uint32_t mode, uint64_t mask[WC_AD__N], int *chip_s, wc_err *err)
{
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (builtin[i].mode == mode) {
            memset(mask, 0, WC_AD__N * sizeof mask[0]);
            mask[WC_AD_BK] = builtin[i].bk;
            mask[WC_AD_ROW] = builtin[i].row;
            mask[WC_AD_COL] = builtin[i].col;
            *chip_s = builtin[i].chip_s;
            return 0;
        }
    return wc_errf(err,
                   "option -gpgpu_mem_address_mask: %u is not one of GPGPU-Sim's masks "
                   "(0, 1, 2, 3, 5, 6, 14, 15, 16, 100, 103, 106, 160); give the bits with "
                   "-gpgpu_mem_addr_mapping instead",
                   mode);
}

/* With dramid@N and a power-of-two channel count, the chip bits are
 * inserted at bit N and the other fields' bits above N move up. */
static void place_chip_bits(wc_addrdec *d, unsigned nchipbits)
{
    uint64_t low = (1ull << d->chip_s) - 1;
    for (int f = WC_AD_BK; f <= WC_AD_COL; f++)
        d->mask[f] = ((d->mask[f] & ~low) << nchipbits) | (d->mask[f] & low);
    d->mask[WC_AD_CHIP] = ((1ull << nchipbits) - 1) << d->chip_s;
}

/* The sub-partition bits: the lowest log2(subs) bank bits. */
static int find_sub_bits(wc_addrdec *d, wc_err *err)
{
    d->sub_mask = 0;
    uint64_t bk = d->mask[WC_AD_BK];
    for (unsigned i = 0; i < d->log2_sub; i++) {
        if (!bk)
            return wc_errf(err,
                           "option -gpgpu_n_sub_partition_per_mchannel: %u sub-partitions "
                           "need %u bank bits in the address map (-gpgpu_mem_addr_mapping)",
                           d->n_sub, d->log2_sub);
        uint64_t b = bk & -bk;
        d->sub_mask |= b;
        bk &= bk - 1;
    }
    return 0;
}

static int init_interleave(wc_addrdec *d, const wc_config *cfg)
{
    /* N bytes per sub-partition in turn: GPGPU-Sim's decoding with the
     * "channel" at bit log2(N), one sub-partition per channel, and every
     * sub-partition counted as a channel. */
    d->chip_s = (int)wc_log2(cfg->partition_interleave);
    d->n_channel = cfg->n_mem * cfg->sub_per_channel;
    d->n_sub = 1;
    d->log2_sub = 0;
    d->log2_channel = wc_log2(d->n_channel);
    d->gap = !wc_is_pow2(d->n_channel);
    if (!d->gap) place_chip_bits(d, d->log2_channel);
    d->strip = d->mask[WC_AD_CHIP];
    return 0;
}

int wc_addrdec_init(wc_addrdec *d, const wc_config *cfg, wc_err *err)
{
    memset(d, 0, sizeof *d);
    d->indexing = cfg->partition_indexing;
    d->seed = cfg->seed;
    if (cfg->partition_interleave) {
        if (d->indexing)
            return wc_errf(err,
                           "option -gpgpu_memory_partition_indexing: %u needs GPGPU-Sim's "
                           "address map; -partition_interleave replaces it (set it to 0)",
                           d->indexing);
        init_interleave(d, cfg);
        set_fast(d);
        return 0;
    }
    d->n_channel = cfg->n_mem;
    d->n_sub = cfg->sub_per_channel;
    if (!wc_is_pow2(d->n_sub))
        return wc_errf(err,
                       "option -gpgpu_n_sub_partition_per_mchannel: %u is not a power of two "
                       "(GPGPU-Sim's address map takes the sub-partition from bank bits)",
                       d->n_sub);
    d->log2_sub = wc_log2(d->n_sub);
    d->log2_channel = wc_log2(d->n_channel);
    d->gap = !wc_is_pow2(d->n_channel);
    if (cfg->addr_mapping[0]) {
        wc_err why;
        if (wc_addrdec_parse(cfg->addr_mapping, d->mask, &d->chip_s, &why) < 0)
            return wc_errf(err, "option -gpgpu_mem_addr_mapping: %s", why.msg);
    } else if (builtin_masks(cfg->addr_mask_mode, d->mask, &d->chip_s, err) < 0) {
        return -1;
    }
    if (d->chip_s < 0) {
        if (d->gap)
            return wc_errf(err,
                           "option -gpgpu_mem_addr_mapping: D bits need a power-of-two "
                           "channel count (-gpgpu_n_mem %u); use dramid@N instead",
                           d->n_channel);
        if (wc_popcount64(d->mask[WC_AD_CHIP]) != d->log2_channel)
            return wc_errf(err,
                           "option -gpgpu_mem_addr_mapping: %u D bits for %u channels "
                           "(-gpgpu_n_mem) instead of %u",
                           wc_popcount64(d->mask[WC_AD_CHIP]), d->n_channel, d->log2_channel);
        if (d->indexing)
            return wc_errf(err,
                           "option -gpgpu_memory_partition_indexing: %u needs dramid@N in "
                           "-gpgpu_mem_addr_mapping",
                           d->indexing);
    } else if (!d->gap) {
        place_chip_bits(d, d->log2_channel);
    }
    if (find_sub_bits(d, err) < 0) return -1;
    d->strip = (d->gap ? 0 : d->mask[WC_AD_CHIP]) | d->sub_mask;
    switch (d->indexing) {
    case 0:
    case 3: /* GPGPU-Sim's "custom" indexing does nothing */
    case 4: break;
    case 1:
        if (d->gap)
            return wc_errf(err,
                           "option -gpgpu_memory_partition_indexing: 1 (XOR) needs a "
                           "power-of-two channel count (-gpgpu_n_mem %u)",
                           d->n_channel);
        break;
    case 2: {
        uint64_t p2 = d->gap ? 2ull << d->log2_channel : d->n_channel;
        d->ipoly_n = (uint32_t)(p2 * d->n_sub);
        if (d->ipoly_n != 16 && d->ipoly_n != 32 && d->ipoly_n != 64)
            return wc_errf(err,
                           "option -gpgpu_memory_partition_indexing: 2 (IPOLY) hashes over "
                           "16, 32 or 64 sub-partitions, not %u (-gpgpu_n_mem rounded up to "
                           "a power of two x -gpgpu_n_sub_partition_per_mchannel)",
                           d->ipoly_n);
        break;
    }
    default:
        return wc_errf(err,
                       "option -gpgpu_memory_partition_indexing: %u is not 0 (none), 1 (XOR), "
                       "2 (IPOLY), 3 (custom: none) or 4 (random)",
                       d->indexing);
    }
    set_fast(d);
    return 0;
}

/* ---- decoding ------------------------------------------------------------- */

uint32_t wc_addrdec_map_general(const wc_addrdec *d, uint64_t addr, uint64_t *part)
{
    uint64_t chip, rest, high;
    if (d->gap) { /* the address above chip_s, modulo / over the channels */
        uint64_t above = addr >> d->chip_s;
        chip = above % d->n_channel;
        high = above / d->n_channel;
        rest = (high << d->chip_s) | (addr & ((1ull << d->chip_s) - 1));
    } else {
        chip = pack_bits(d->mask[WC_AD_CHIP], addr);
        rest = addr;
        high = d->chip_s >= 0 ? addr >> (d->chip_s + d->log2_channel + d->log2_sub) : 0;
    }
    *part = d->strip ? strip_bits(d->strip, rest) : rest;
    uint32_t sub = d->sub_mask ? (uint32_t)pack_bits(d->sub_mask, rest) : 0;
    switch (d->indexing) {
    case 1: chip ^= high & (d->n_channel - 1); break;
    case 2: {
        uint32_t s = ipoly_hash(high, (uint32_t)chip * d->n_sub + sub, d->ipoly_n);
        return d->gap ? s % (d->n_channel * d->n_sub) : s;
    }
    case 4: {
        uint64_t chunk = addr >> (d->chip_s - (int)d->log2_sub);
        return (uint32_t)(mix64(chunk ^ d->seed) % ((uint64_t)d->n_channel * d->n_sub));
    }
    default: break;
    }
    return (uint32_t)chip * d->n_sub + sub;
}
