/*
 * test_coalescer.c - warp instruction -> line requests, with every expected
 * request, chunk mask and lane mask worked out by hand.  Byte-exact masks
 * are checked with 2-byte chunks (64 per 128 B line): pairs() folds a
 * hand-derived 128-bit byte mask into them (a chunk is touched when either
 * of its bytes is).
 */
#include "check.h"
#include "warpcache/coalescer.h"

/* Transfer geometries: 128 B lines in 32 B chunks at line and sector
 * granularity; the same lines in 2 B chunks (byte-level checks). */
static const wc_xfer X128 = {128, 7, 5}, X32 = {32, 7, 5}, XB = {128, 7, 1};

static uint64_t pairs(uint64_t lo, uint64_t hi)
{
    uint64_t c = 0;
    for (unsigned i = 0; i < 64; i++) {
        uint64_t w = i < 32 ? lo : hi;
        unsigned b = (i % 32) * 2;
        if ((w >> b) & 3) c |= 1ull << i;
    }
    return c;
}

/* Request k's chunks with 2 B chunks. */
static uint64_t fine(const wc_winst *in, unsigned k)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    unsigned n = wc_coalesce(in, &XB, r);
    return k < n ? r[k].chunks : 0;
}

static wc_winst stride_inst(uint64_t base, int64_t stride, unsigned width, uint32_t mask)
{
    wc_winst in;
    wc_winst_clear(&in);
    in.op = WC_OP_LDG;
    in.amode = WC_ADDR_STRIDE;
    in.base = base;
    in.stride = stride;
    in.width = (uint8_t)width;
    in.mask = mask;
    return in;
}

/* 32 lanes x 4 B from an aligned base: one 128 B request, all sectors. */
static void test_fully_coalesced(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    wc_winst in = stride_inst(0x1000, 4, 4, 0xffffffffu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 1);
    CHECK_EQ(r[0].addr, 0x1000);
    CHECK_EQ(r[0].chunks, 0xf);
    CHECK_EQ(r[0].lanes, 0xffffffffu);
    CHECK_EQ(fine(&in, 0), pairs(~0ull, ~0ull));
    /* At sector granularity the same access is 4 requests of one sector each. */
    CHECK_EQ(wc_coalesce(&in, &X32, r), 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(r[i].addr, 0x1000 + 32 * i);
        CHECK_EQ(r[i].chunks, 1u << i);
        CHECK_EQ(r[i].lanes, 0xffu << (8 * i));
    }
}

/* Strided, aligned, some lanes off (the strided fast path):
 * 8 B lanes 40 B apart from 0x1000, lanes 0, 1, 3, 4, 31 active.
 *   lane 0: 0x1000 (chunk 0), lane 1: 0x1028 (chunk 1), lane 3: 0x1078
 *   (chunk 3): line 0x1000, chunks 0xb, lanes 0xb;
 *   lane 4: 0x10a0 (line 0x1080, byte 0x20: chunk 1), lanes 0x10;
 *   lane 31: 0x1000 + 31 x 40 = 0x14d8 (line 0x1480, byte 0x58: chunk 2).
 * Going down (-40 B from 0x14d8, lanes 0 and 31): 0x14d8 then 0x1000, two
 * requests in lane order. */
static void test_strided_aligned(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    wc_winst in = stride_inst(0x1000, 40, 8, 0x8000001bu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 3);
    CHECK_EQ(r[0].addr, 0x1000);
    CHECK_EQ(r[0].chunks, 0xb);
    CHECK_EQ(r[0].lanes, 0xb);
    CHECK_EQ(r[1].addr, 0x1080);
    CHECK_EQ(r[1].chunks, 0x2);
    CHECK_EQ(r[1].lanes, 0x10);
    CHECK_EQ(r[2].addr, 0x1480);
    CHECK_EQ(r[2].chunks, 0x4);
    CHECK_EQ(r[2].lanes, 0x80000000u);
    in = stride_inst(0x14d8, -40, 8, 0x80000001u);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 2);
    CHECK_EQ(r[0].addr, 0x1480);
    CHECK_EQ(r[0].chunks, 0x4);
    CHECK_EQ(r[0].lanes, 0x1);
    CHECK_EQ(r[1].addr, 0x1000);
    CHECK_EQ(r[1].chunks, 0x1);
    CHECK_EQ(r[1].lanes, 0x80000000u);
}

/* The same lanes' addresses as an address list: the gather path, the
 * reference the strided fast paths are compared with. */
static wc_winst gather_of(uint64_t base, int64_t stride, unsigned width, uint32_t mask)
{
    wc_winst g;
    wc_winst_clear(&g);
    g.op = WC_OP_LDG;
    g.width = (uint8_t)width;
    g.amode = WC_ADDR_LIST;
    g.mask = mask;
    for (unsigned l = 0; l < 32; l++) g.addr[l] = base + l * (uint64_t)stride;
    return g;
}

/* The first n requests of r and rg are the same, field by field. */
static void same_requests(const wc_mem_req *r, const wc_mem_req *rg, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        CHECK_EQ(r[i].addr, rg[i].addr);
        CHECK_EQ(r[i].chunks, rg[i].chunks);
        CHECK_EQ(r[i].lanes, rg[i].lanes);
        CHECK_EQ(r[i].line_log2, rg[i].line_log2);
        CHECK_EQ(r[i].chunk_log2, rg[i].chunk_log2);
    }
}

/* Misaligned by 4 B: lanes 0..30 in line 0x1000 (bytes 4..127), lane 31 in
 * 0x1080 (bytes 0..3). */
static void test_misaligned(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    wc_winst in = stride_inst(0x1004, 4, 4, 0xffffffffu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 2);
    CHECK_EQ(r[0].addr, 0x1000);
    CHECK_EQ(r[0].lanes, 0x7fffffffu);
    CHECK_EQ(r[0].chunks, 0xf);
    CHECK_EQ(fine(&in, 0), pairs(~0xfull, ~0ull));
    CHECK_EQ(r[1].addr, 0x1080);
    CHECK_EQ(r[1].lanes, 0x80000000u);
    CHECK_EQ(r[1].chunks, 0x1);
    CHECK_EQ(fine(&in, 1), pairs(0xfull, 0));
}

/* 8 B per lane, 32 lanes = 256 B: two lines; 16 B per lane: four lines. */
static void test_wide_accesses(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    wc_winst in = stride_inst(0x2000, 8, 8, 0xffffffffu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 2);
    CHECK_EQ(r[0].lanes, 0x0000ffffu);
    CHECK_EQ(r[1].lanes, 0xffff0000u);
    in = stride_inst(0x2000, 16, 16, 0xffffffffu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 4);
    CHECK_EQ(r[3].addr, 0x2180);
    CHECK_EQ(r[3].lanes, 0xff000000u);
}

/* 1 and 2 B widths: 32 lanes x 1 B = 32 B, a single sector. */
static void test_narrow_accesses(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    wc_winst in = stride_inst(0x3040, 1, 1, 0xffffffffu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 1);
    CHECK_EQ(r[0].chunks, 0x4); /* bytes 64..95 of the line */
    CHECK_EQ(fine(&in, 0), pairs(0, 0xffffffffull));
    in = stride_inst(0x3000, 2, 2, 0xffffffffu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 1);
    CHECK_EQ(r[0].chunks, 0x3);
    CHECK_EQ(fine(&in, 0), pairs(~0ull, 0));
}

/* A 16 B access straddling a line boundary touches both lines. */
static void test_straddle(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    wc_winst in = stride_inst(0x4078, 0, 16, 0x1u); /* bytes 0x4078..0x4087 */
    CHECK_EQ(wc_coalesce(&in, &X128, r), 2);
    CHECK_EQ(r[0].addr, 0x4000);
    CHECK_EQ(r[0].chunks, 0x8);
    CHECK_EQ(fine(&in, 0), pairs(0, 0xff00000000000000ull));
    CHECK_EQ(r[1].addr, 0x4080);
    CHECK_EQ(r[1].chunks, 0x1);
    CHECK_EQ(fine(&in, 1), pairs(0xffull, 0));
    CHECK_EQ(r[0].lanes, 1);
    CHECK_EQ(r[1].lanes, 1);
    /* At sector granularity: sector 3 of line 0x4000 and sector 0 of 0x4080. */
    CHECK_EQ(wc_coalesce(&in, &X32, r), 2);
    CHECK_EQ(r[0].addr, 0x4060);
    CHECK_EQ(r[1].addr, 0x4080);
}

/* Partial masks: only active lanes count. Lanes 0 and 31 of a 4 B stride. */
static void test_partial_mask(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    wc_winst in = stride_inst(0x5000, 4, 4, 0x80000001u);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 1);
    CHECK_EQ(r[0].chunks, 0x9); /* byte 0 (sector 0) and byte 124 (sector 3) */
    CHECK_EQ(r[0].lanes, 0x80000001u);
    in.mask = 0;
    CHECK_EQ(wc_coalesce(&in, &X128, r), 0);
}

/* Uncoalesced: stride 128 B puts every lane in its own line, in lane order;
 * a list-mode gather with repeats merges lanes per line. */
static void test_uncoalesced_and_gather(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    wc_winst in = stride_inst(0x10000, 128, 4, 0xffffffffu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 32);
    CHECK_EQ(r[5].addr, 0x10000 + 5 * 128);
    CHECK_EQ(r[5].lanes, 1u << 5);
    wc_winst g;
    wc_winst_clear(&g);
    g.op = WC_OP_LDG;
    g.width = 4;
    g.amode = WC_ADDR_LIST;
    g.mask = 0xf;
    g.addr[0] = 0x9000;
    g.addr[1] = 0x8004;
    g.addr[2] = 0x9010;
    g.addr[3] = 0x8000;
    CHECK_EQ(wc_coalesce(&g, &X128, r), 2);
    CHECK_EQ(r[0].addr, 0x9000); /* first touched by lane 0 */
    CHECK_EQ(r[0].lanes, 0x5);
    CHECK_EQ(r[1].addr, 0x8000);
    CHECK_EQ(r[1].lanes, 0xa);
    CHECK_EQ(fine(&g, 1), pairs(0xffull, 0));
    /* Negative stride: lane 31 lowest. */
    in = stride_inst(0x20000 + 31 * 4, -4, 4, 0xffffffffu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 1);
    CHECK_EQ(r[0].addr, 0x20000);
}

/* Strides of at least a segment: every lane has a request of its own (the
 * coalescer's spread path), in lane order. */
static void test_spread(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    /* 128 B segments, stride 128, 8 B at byte 8 of each line: chunk 0. */
    wc_winst in = stride_inst(0x2008, 128, 8, 0x80000012u);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 3);
    CHECK_EQ(r[0].addr, 0x2080);
    CHECK_EQ(r[1].addr, 0x2200);
    CHECK_EQ(r[2].addr, 0x2f80);
    CHECK_EQ(r[0].lanes, 0x2);
    CHECK_EQ(r[1].lanes, 0x10);
    CHECK_EQ(r[2].lanes, 0x80000000u);
    for (int i = 0; i < 3; i++) CHECK_EQ(r[i].chunks, 0x1);
    /* 32 B segments, stride exactly 32 from byte 16: segments 0x3000,
     * 0x3020, 0x3040, chunks 0, 1, 2 of the 128 B line. */
    in = stride_inst(0x3010, 32, 4, 0x7);
    CHECK_EQ(wc_coalesce(&in, &X32, r), 3);
    for (unsigned i = 0; i < 3; i++) {
        CHECK_EQ(r[i].addr, 0x3000 + 32 * i);
        CHECK_EQ(r[i].chunks, 1ull << i);
        CHECK_EQ(r[i].lanes, 1u << i);
        CHECK_EQ(r[i].line_log2, 7);
        CHECK_EQ(r[i].chunk_log2, 5);
    }
    /* Stride 96 at 32 B segments: 0x3010 and 0x3070, chunks 0 and 3. */
    in = stride_inst(0x3010, 96, 4, 0x3);
    CHECK_EQ(wc_coalesce(&in, &X32, r), 2);
    CHECK_EQ(r[1].addr, 0x3060);
    CHECK_EQ(r[1].chunks, 0x8);
    /* Just under a segment (stride 16 at 32 B): lanes pair up. */
    in = stride_inst(0x3000, 16, 4, 0xf);
    CHECK_EQ(wc_coalesce(&in, &X32, r), 2);
    CHECK_EQ(r[0].lanes, 0x3);
    CHECK_EQ(r[1].lanes, 0xc);
    /* Against the gather path (the same addresses as a list, whose lookup
     * through all requests is independent of the stride) on random ones,
     * broadcasts among them. */
    uint64_t v = 12345;
    const wc_xfer *xs[] = {&X128, &X32, &XB};
    for (int t = 0; t < 3000; t++) {
        v = v * 6364136223846793005ull + 1442695040888963407ull;
        const wc_xfer *x = xs[(v >> 20) % 3];
        unsigned width = 1u << ((v >> 24) % 4);
        if (width > (1u << x->chunk_log2)) width = 1u << x->chunk_log2;
        int64_t stride = (int64_t)x->granularity * (int64_t)(1 + (v >> 28) % 5) +
                         (int64_t)width * (int64_t)((v >> 33) % 3);
        if ((v >> 50) % 4 == 0) stride = 0; /* a broadcast (coalesce_broadcast) */
        uint32_t mask = (uint32_t)(v >> 32) | (uint32_t)(v >> 7);
        in = stride_inst(((v >> 40) & 0xffff) * width, stride, width, mask);
        wc_winst g = gather_of(in.base, stride, width, mask);
        wc_mem_req rg[WC_MAX_REQS_PER_INST];
        unsigned n = wc_coalesce(&in, x, r);
        CHECK_EQ(n, stride ? (unsigned)wc_popcount32(mask) : mask != 0);
        CHECK_EQ(wc_coalesce(&g, x, rg), n);
        same_requests(r, rg, n);
    }
}

/* All 32 lanes, stride = width (the contiguous path, whose range may fit
 * one segment), against the gather path on random bases and widths: the
 * same requests, in the same order. */
static void test_contiguous(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST], rg[WC_MAX_REQS_PER_INST];
    const wc_xfer *xs[] = {&X128, &X32, &XB};
    uint64_t v = 777;
    unsigned one = 0;
    for (int t = 0; t < 3000; t++) {
        v = v * 6364136223846793005ull + 1442695040888963407ull;
        const wc_xfer *x = xs[(v >> 20) % 3];
        unsigned width = 1u << ((v >> 24) % 5); /* 1..16 B */
        uint64_t base = ((v >> 30) & 0xffff) * ((v >> 50) % 2 ? width : 1);
        if ((v >> 52) % 3 == 0) base &= ~(uint64_t)127; /* segment-aligned: often one segment */
        wc_winst in = stride_inst(base, width, width, 0xffffffffu);
        wc_winst g = gather_of(base, (int64_t)width, width, 0xffffffffu);
        unsigned n = wc_coalesce(&in, x, r);
        CHECK_EQ(wc_coalesce(&g, x, rg), n);
        one += n == 1;
        same_requests(r, rg, n);
    }
    CHECK(one > 100); /* the one-segment case was met */
    /* 2 B lanes from byte 0x40 of a 128 B line: bytes 0x40..0x7f, chunks
     * 2 and 3 at 32 B chunks, one request with every lane. */
    wc_winst in = stride_inst(0x5040, 2, 2, 0xffffffffu);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 1);
    CHECK_EQ(r[0].addr, 0x5000);
    CHECK_EQ(r[0].chunks, 0xc);
    CHECK_EQ(r[0].lanes, 0xffffffffu);
}

/* Stride 0: every lane reads the same word, one request of one chunk
 * with all the active lanes. */
static void test_broadcast(void)
{
    wc_mem_req r[WC_MAX_REQS_PER_INST];
    wc_winst in = stride_inst(0x4008, 0, 4, 0x0f0f00f0u);
    CHECK_EQ(wc_coalesce(&in, &X128, r), 1);
    CHECK_EQ(r[0].addr, 0x4000);
    CHECK_EQ(r[0].chunks, 0x1);
    CHECK_EQ(r[0].lanes, 0x0f0f00f0u);
    CHECK_EQ(r[0].line_log2, 7);
    CHECK_EQ(r[0].chunk_log2, 5);
    in = stride_inst(0x4068, 0, 8, 0xffffffffu); /* byte 0x68 of line 0x4000: chunk 3 */
    CHECK_EQ(wc_coalesce(&in, &X32, r), 1);
    CHECK_EQ(r[0].addr, 0x4060);
    CHECK_EQ(r[0].chunks, 0x8);
    CHECK_EQ(r[0].lanes, 0xffffffffu);
    in = stride_inst(0x4068, 0, 8, 0);
    CHECK_EQ(wc_coalesce(&in, &X32, r), 0);
}

/* The bit-count helpers the hot paths use, against a bit-by-bit count. */
static void test_bit_counts(void)
{
    for (unsigned s = 0; s < 16; s++) {
        unsigned n = 0;
        for (unsigned b = 0; b < 4; b++) n += (s >> b) & 1;
        CHECK_EQ(wc_sector_count((uint8_t)s), n);
    }
    uint32_t v = 0x12345678u;
    for (int i = 0; i < 1000; i++) {
        unsigned n = 0;
        for (unsigned b = 0; b < 32; b++) n += (v >> b) & 1;
        CHECK_EQ(wc_popcount32(v), n);
        v = v * 1664525u + 1013904223u;
    }
    CHECK_EQ(wc_popcount32(0xffffffffu), 32);
}

int main(void)
{
    RUN(test_bit_counts);
    RUN(test_fully_coalesced);
    RUN(test_strided_aligned);
    RUN(test_misaligned);
    RUN(test_wide_accesses);
    RUN(test_narrow_accesses);
    RUN(test_straddle);
    RUN(test_partial_mask);
    RUN(test_uncoalesced_and_gather);
    RUN(test_spread);
    RUN(test_contiguous);
    RUN(test_broadcast);
    return check_summary("coalescer");
}
