/*
 * addrdec.h - which L2 sub-partition serves an address, and the address
 * within that sub-partition that its L2 set index is taken from.
 *
 * This is GPGPU-Sim's address decoding (linear_to_raw_address_translation,
 * src/gpgpu-sim/addrdec.cc, the same in 3.2.2 and 4.2): a bit mask names
 * the DRAM chip (channel), bank, row and column bits of a physical address
 * (-gpgpu_mem_addr_mapping, or a built-in mask chosen by
 * -gpgpu_mem_address_mask); with "dramid@N" the channel is the address
 * above bit N modulo the channel count; the sub-partition within the channel
 * is the lowest bank bit(s); and the L2 indexes its sets with the address
 * with the channel and sub-partition bits taken out ("to reduce set
 * camping", l2_cache_config::set_index), so that strided accesses spread
 * over every set of a sub-partition.  -gpgpu_memory_partition_indexing then
 * optionally hashes the sub-partition (XOR, IPOLY, random).
 *
 * -partition_interleave N (a warpcache option, nonzero) replaces the mask by
 * a plain interleave: N consecutive bytes per sub-partition, taken in turn.
 *
 * memsys.c decodes every L2 access; docs/config.md documents the options.
 */
#ifndef WC_MEM_ADDRDEC_H
#define WC_MEM_ADDRDEC_H

#include <stdbool.h>
#include <stdint.h>

#include "warpcache/config.h"

enum { WC_AD_CHIP, WC_AD_BK, WC_AD_ROW, WC_AD_COL, WC_AD_BURST, WC_AD__N };

typedef struct wc_addrdec {
    uint64_t mask[WC_AD__N]; /* address bits of each field, after the chip bits are placed */
    int chip_s;              /* dramid@N: N; -1 when the mask names the chip bits (D) */
    uint32_t n_channel, n_sub, log2_channel, log2_sub;
    bool gap;          /* the channel count is not a power of two: modulo at chip_s */
    uint64_t sub_mask; /* the bank bits that pick the sub-partition in a channel */
    uint64_t strip;    /* bits taken out of the partition address (chip and sub bits) */
    uint32_t indexing; /* -gpgpu_memory_partition_indexing: 0 none, 1 XOR, 2 IPOLY, 4 random */
    uint64_t seed;     /* random indexing: the hash's key */
    uint32_t ipoly_n;  /* IPOLY: sub-partitions hashed over (16, 32 or 64) */
    /* The masks as runs of bits (lowest bit, width; width 0: no bits), and
     * whether they all are runs and no hash is set (every shipped map):
     * then wc_addrdec_map decodes inline with shifts. */
    bool fast;
    uint8_t chip_lo, chip_n, strip_lo, strip_n, sub_lo, sub_n;
} wc_addrdec;

/* Parses a -gpgpu_mem_addr_mapping value ("[dramid@N;]" then 64 bits of
 * D/B/R/C/S/0, '.', '|' and blanks ignored) into per-field masks; *chip_s
 * is N or -1.  Returns 0, or -1 with err set. */
int wc_addrdec_parse(const char *s, uint64_t mask[WC_AD__N], int *chip_s, wc_err *err);

/* Builds the decoder of cfg's memory system (channels, sub-partitions,
 * mapping, indexing).  Returns 0, or -1 with err set (naming the option). */
int wc_addrdec_init(wc_addrdec *d, const wc_config *cfg, wc_err *err);

/* The global sub-partition (0 .. channels x sub-partitions - 1) serving
 * addr; *part gets the address within it (the L2's set index input). */
uint32_t wc_addrdec_map_general(const wc_addrdec *d, uint64_t addr, uint64_t *part);

/* Bits [lo, lo + n) of v taken out, the bits above moved down (n 0: v). */
static inline uint64_t wc_addrdec_strip_run(uint64_t v, unsigned lo, unsigned n)
{
    uint64_t low = v & ((1ull << lo) - 1);
    return lo + n < 64 ? ((v >> (lo + n)) << lo) | low : low;
}

static inline uint32_t wc_addrdec_map(const wc_addrdec *d, uint64_t addr, uint64_t *part)
{
    if (!d->fast) return wc_addrdec_map_general(d, addr, part);
    uint64_t chip, rest;
    if (d->gap) { /* the address above chip_s, modulo / over the channels */
        uint64_t above = addr >> d->chip_s;
        chip = above % d->n_channel;
        rest = (above / d->n_channel << d->chip_s) | (addr & ((1ull << d->chip_s) - 1));
    } else {
        chip = (addr >> d->chip_lo) & ((1ull << d->chip_n) - 1);
        rest = addr;
    }
    *part = wc_addrdec_strip_run(rest, d->strip_lo, d->strip_n);
    uint32_t sub = (uint32_t)(rest >> d->sub_lo) & ((1u << d->sub_n) - 1);
    return (uint32_t)chip * d->n_sub + sub;
}

#endif
