/*
 * test_addrdec.c - GPGPU-Sim's address decoding (src/mem/addrdec.c): the
 * sub-partition and partition address of hand-decoded addresses for the
 * GTX480 map (six channels: modulo), a power-of-two channel count (chip
 * bits inserted), the plain interleave, IPOLY and the option errors; and,
 * end to end, that the L2 indexes its sets with the partition address.
 */
#include <string.h>

#include "check.h"
#include "listsrc.h"
#include "mem/addrdec.h"
#include "tiny_config.h"
#include "tiny_gpu.h"
#include "warpcache/sim.h"

#define GTX480_MAP                                                                                 \
    "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"
#define QV100_MAP "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS"

static int decoder(wc_addrdec *d, unsigned n_mem, unsigned subs, const char *map, unsigned indexing,
                   unsigned interleave, wc_err *err)
{
    wc_config c;
    wc_config_defaults(&c);
    c.n_mem = n_mem;
    c.sub_per_channel = subs;
    snprintf(c.addr_mapping, sizeof c.addr_mapping, "%s", map);
    c.partition_indexing = indexing;
    c.partition_interleave = interleave;
    return wc_addrdec_init(d, &c, err);
}

static void expect(const wc_addrdec *d, uint64_t addr, uint32_t sub, uint64_t part)
{
    uint64_t p = ~0ull;
    uint32_t s = wc_addrdec_map(d, addr, &p);
    if (s != sub || p != part)
        fprintf(stderr, "  addr 0x%llx: sub %u part 0x%llx, expected %u 0x%llx\n",
                (unsigned long long)addr, s, (unsigned long long)p, sub, (unsigned long long)part);
    CHECK_EQ(s, sub);
    CHECK_EQ(p, part);
}

/*
 * GTX480: 6 channels (not a power of two), 2 sub-partitions, dramid@8.
 * chip = (addr >> 8) % 6; rest = (addr >> 8) / 6 << 8 | addr[7:0]; the bank
 * bits of rest are 15,14,13,8, so the sub-partition bit is rest[8]; the
 * partition address is rest without bit 8.
 *   0x000: chip 0, rest 0      -> sub 0, part 0
 *   0x100: chip 1, rest 0      -> sub 2 (1 x 2 + 0), part 0
 *   0x600: chip 0, rest 0x100  -> sub 1, part 0
 *   0xC00: chip 0, rest 0x200  -> sub 0, part 0x100 (bit 9 moved to 8)
 *   0xC80: chip 0, rest 0x280  -> sub 0, part 0x180
 *  0x1800: chip 0, rest 0x400  -> sub 0, part 0x200
 *   0x5F0: chip 5, rest 0xF0   -> sub 10, part 0xF0
 * Sub-partition 0's lines 0x000, 0x080, 0xC00, 0xC80, 0x1800 have partition
 * addresses 0, 0x80, 0x100, 0x180, 0x200: L2 sets 0, 1, 2, 3, 4 in a row.
 */
static void test_gtx480(void)
{
    wc_addrdec d;
    wc_err err;
    CHECK_EQ(decoder(&d, 6, 2, GTX480_MAP, 0, 0, &err), 0);
    CHECK(d.gap);
    CHECK_EQ(d.sub_mask, 0x100);
    expect(&d, 0x000, 0, 0);
    expect(&d, 0x100, 2, 0);
    expect(&d, 0x600, 1, 0);
    expect(&d, 0xC00, 0, 0x100);
    expect(&d, 0xC80, 0, 0x180);
    expect(&d, 0x1800, 0, 0x200);
    expect(&d, 0x5F0, 10, 0xF0);
    /* the seeds' 6 partitions of one sub-partition: rest is the part */
    CHECK_EQ(decoder(&d, 6, 1, GTX480_MAP, 0, 0, &err), 0);
    expect(&d, 0x600, 0, 0x100);
    expect(&d, 0x5F0, 5, 0xF0);
}

/*
 * 4 channels (a power of two) with the same map: the 2 chip bits are
 * inserted at bit 8, so the bank bits 8,13,14,15 move to 10,15,16,17 and the
 * sub-partition bit is bit 10; the partition address drops bits 8,9,10.
 *   0x100: chip 1, bit 10 = 0 -> sub 2, part 0
 *   0x400: chip 0, bit 10 = 1 -> sub 1, part 0
 *   0x800: chip 0, bit 10 = 0 -> sub 0, part 0x800 >> 3 = 0x100
 *   0x9C0: chip 1 (bits 9..8 = 01), bit 10 = 0 -> sub 2, part 0x100 | 0xC0
 */
static void test_pow2_channels(void)
{
    wc_addrdec d;
    wc_err err;
    CHECK_EQ(decoder(&d, 4, 2, GTX480_MAP, 0, 0, &err), 0);
    CHECK(!d.gap);
    CHECK_EQ(d.mask[WC_AD_CHIP], 0x300);
    CHECK_EQ(d.mask[WC_AD_BK], 0x38400);
    expect(&d, 0x100, 2, 0);
    expect(&d, 0x400, 1, 0);
    expect(&d, 0x800, 0, 0x100);
    expect(&d, 0x9C0, 2, 0x1C0);
    /* 1 = XOR: chip ^= (addr >> (8 + 2 + 1)) & 3; 0x800 has high bits 1:
     * chip 0 ^ 1 = 1, bit 10 = 0 -> sub 2 */
    CHECK_EQ(decoder(&d, 4, 2, GTX480_MAP, 1, 0, &err), 0);
    expect(&d, 0x800, 2, 0x100);
}

/*
 * Bits taken out of the partition address that are not one run (every
 * shipped map has one run, decoded inline by shifts; this takes the general
 * loop):
 * 4 channels, bank bits 15..12 and column bits 11..8 below them.  The 2 chip
 * bits go in at bit 8, so the bank bits move to 17..14 and the sub-partition
 * bit is 14; the partition address drops bits 8, 9 and 14.
 *   0x4000: chip 0, sub 1 -> 1, bit 14 dropped: part 0
 *   0x4380: chip 3, sub 1 -> 7, part 0x80
 *   0x8000: chip 0, sub 0 -> 0, bit 15 moves down 3: part 0x1000
 *   0x1C00: bits 12..10 move down 2: part 0x700
 */
static void test_split_strip(void)
{
    wc_addrdec d;
    wc_err err;
    CHECK_EQ(decoder(&d, 4, 2,
                     "dramid@8;00000000.00000000.00000000.00000000.00000000.RRRRRRRR.BBBBCCCC."
                     "CCSSSSSS",
                     0, 0, &err),
             0);
    CHECK_EQ(d.strip, 0x4300);
    CHECK(!d.fast); /* not one run */
    expect(&d, 0x4000, 1, 0);
    expect(&d, 0x4380, 7, 0x80);
    expect(&d, 0x8000, 0, 0x1000);
    expect(&d, 0x1C00, 0, 0x700);
    /* GTX480's map on 4 channels: chip bits 9..8, sub bit 10, one run */
    CHECK_EQ(decoder(&d, 4, 2, GTX480_MAP, 0, 0, &err), 0);
    CHECK(d.fast && d.chip_lo == 8 && d.chip_n == 2 && d.strip_lo == 8 && d.strip_n == 3 &&
          d.sub_lo == 10 && d.sub_n == 1);
    /* on 6 channels (modulo) too; IPOLY and XOR take the general path */
    CHECK_EQ(decoder(&d, 6, 2, GTX480_MAP, 0, 0, &err), 0);
    CHECK(d.fast);
    CHECK_EQ(decoder(&d, 4, 2, GTX480_MAP, 1, 0, &err), 0);
    CHECK(!d.fast);
}

/*
 * -partition_interleave 256 over 6 sub-partitions: (addr >> 8) % 6, and the
 * partition address keeps the turn number: 0x600 is turn 1 of sub 0.
 */
static void test_interleave(void)
{
    wc_addrdec d;
    wc_err err;
    CHECK_EQ(decoder(&d, 3, 2, "", 0, 256, &err), 0);
    expect(&d, 0x000, 0, 0);
    expect(&d, 0x500, 5, 0);
    expect(&d, 0x600, 0, 0x100);
    expect(&d, 0x6C0, 0, 0x1C0);
}

/*
 * IPOLY (QV100: 32 channels x 2 = 64 sub-partitions): the QV100 map's bank
 * bits 14,13,12,8 move up by the 5 chip bits to 19,18,17,13, so the sub bit
 * is 13 and the hash input is addr >> (8 + 5 + 1).  For addr = 1 << 14 the
 * chip and sub bits are 0 and the higher bits are 1: GPGPU-Sim's 64-way
 * equations put a[0] in new_index[0] and new_index[1] only: sub 3.  For
 * 1 << 15 (a[1]): new_index[1] and [2]: sub 6.
 */
static void test_ipoly(void)
{
    wc_addrdec d;
    wc_err err;
    CHECK_EQ(decoder(&d, 32, 2, QV100_MAP, 2, 0, &err), 0);
    CHECK_EQ(d.ipoly_n, 64);
    CHECK_EQ(d.sub_mask, 1ull << 13);
    uint64_t part;
    CHECK_EQ(wc_addrdec_map(&d, 1ull << 14, &part), 3);
    CHECK_EQ(wc_addrdec_map(&d, 1ull << 15, &part), 6);
    /* random (4): deterministic, in range, and spread over every sub */
    CHECK_EQ(decoder(&d, 6, 2, GTX480_MAP, 4, 0, &err), 0);
    unsigned seen[12] = {0};
    for (uint64_t a = 0; a < 12 * 128 * 64; a += 128) {
        uint32_t s = wc_addrdec_map(&d, a, &part);
        CHECK(s < 12);
        if (s < 12) seen[s]++;
        CHECK_EQ(wc_addrdec_map(&d, a, &part), s);
    }
    for (unsigned s = 0; s < 12; s++) CHECK(seen[s] > 0);
}

static void test_errors(void)
{
    wc_addrdec d;
    wc_err err;
    uint64_t mask[WC_AD__N];
    int cs;
    CHECK(wc_addrdec_parse("dramid@8;0000", mask, &cs, &err) < 0);
    CHECK(strstr(err.msg, "needs 64") != NULL);
    CHECK(
        wc_addrdec_parse("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB."
                         "CCSSSSSX",
                         mask, &cs, &err) < 0);
    CHECK(strstr(err.msg, "'X'") != NULL);
    CHECK(wc_addrdec_parse("dramid@x;0", mask, &cs, &err) < 0);
    /* D bits need a power-of-two channel count */
    CHECK(decoder(&d, 6, 1,
                  "00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCDDD.CCSSSSSS", 0, 0,
                  &err) < 0);
    CHECK(strstr(err.msg, "power-of-two") != NULL);
    /* 3 sub-partitions per channel cannot come from bank bits */
    CHECK(decoder(&d, 6, 3, GTX480_MAP, 0, 0, &err) < 0);
    /* IPOLY over 4 x 1 sub-partitions does not exist */
    CHECK(decoder(&d, 3, 1, GTX480_MAP, 2, 0, &err) < 0);
    CHECK(strstr(err.msg, "IPOLY") != NULL);
    /* the option checker rejects a bad map with its reason */
    wc_config c;
    wc_config_defaults(&c);
    CHECK(wc_config_set(&c, "gpgpu_mem_addr_mapping", "dramid@8;RRRR", "t", &err) < 0);
    CHECK(strstr(err.msg, "gpgpu_mem_addr_mapping") != NULL);
    c.addr_mapping[0] = '\0'; /* the built-in maps apply */
    CHECK(wc_config_set(&c, "gpgpu_mem_address_mask", "7", "t", &err) == 0);
    CHECK(wc_config_validate(&c, &err) < 0);
    CHECK(strstr(err.msg, "gpgpu_mem_address_mask") != NULL);
}

/*
 * End to end: one warp loads 20 lines 24576 B apart (96 x 256 B: all in
 * channel 0 of 6), L1 bypassed, then the same 20 again.  Their partition
 * addresses are k x 4096 (24576 k / 6), L2 sets (32 k) mod 64 = 0 or 32:
 * 10 lines in each of two 16-way sets, so the second pass hits 20 times.
 * Indexed with the raw address the sets would be (192 k) mod 64 = 0: 20
 * lines in one 16-way LRU set, and the second pass would miss every time.
 */
static void test_l2_partition_sets(void)
{
    wc_config c;
    tiny_config(&c);
    c.l1_skip = true;
    list_source *l = ls_create(1, 32);
    for (unsigned pass = 0; pass < 2; pass++)
        for (uint64_t k = 0; k < 20; k++) ls_load(l, 0, 0x1000000 + k * 24576, 1);
    wc_stats st;
    CHECK_EQ(tiny_simulate(&c, &l->base, &st), 0);
    CHECK_EQ(st.total.l2.accesses, 40);
    CHECK_EQ(st.total.l2.hits, 20);
    wc_stats_free(&st);
}

int main(void)
{
    RUN(test_gtx480);
    RUN(test_pow2_channels);
    RUN(test_split_strip);
    RUN(test_interleave);
    RUN(test_ipoly);
    RUN(test_errors);
    RUN(test_l2_partition_sets);
    return check_summary("addrdec");
}
