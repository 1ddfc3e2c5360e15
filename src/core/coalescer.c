/*
 * coalescer.c - warp memory instruction -> line requests (see coalescer.h).
 *
 * For each active lane, in lane order, the byte range [addr, addr+width) is
 * split at segment boundaries; each piece joins the request of its segment
 * (created on first touch).  Chunk masks are relative to the enclosing L1
 * line whatever the granularity, so sectored caches and TSC see exactly
 * which chunks a request needs.
 */
#include "warpcache/coalescer.h"

/* Chunks of bytes [off, off+len) of the line (len >= 1, off + len <= line). */
static inline uint64_t chunk_range(unsigned off, unsigned len, unsigned chunk_log2)
{
    unsigned c0 = off >> chunk_log2, c1 = (off + len - 1) >> chunk_log2;
    /* 2 << 63 wraps to 0, so c1 = 63 gives all ones, as wanted. */
    return ((2ull << c1) - 1) & ~((1ull << c0) - 1);
}

static inline wc_mem_req *segment_request(wc_mem_req *out, unsigned *n, uint64_t seg, bool monotone,
                                          const wc_xfer *x)
{
    /* Strided lanes visit segments in order, so only the newest request can
     * match; arbitrary gathers look back through all of them. */
    if (monotone) {
        if (*n && out[*n - 1].addr == seg) return &out[*n - 1];
    } else {
        for (unsigned i = *n; i-- > 0;)
            if (out[i].addr == seg) return &out[i];
    }
    wc_mem_req *r = &out[(*n)++];
    r->addr = seg;
    r->chunks = 0;
    r->lanes = 0;
    r->line_log2 = x->line_log2;
    r->chunk_log2 = x->chunk_log2;
    return r;
}

/* Fast path: all 32 lanes active, lane l at base + l*width (a unit-stride
 * access, the common coalesced case): walk the contiguous byte range. */
static unsigned coalesce_contiguous(const wc_winst *in, unsigned width, const wc_xfer *x,
                                    wc_mem_req *out)
{
    unsigned n = 0;
    uint64_t a = in->base, end = in->base + (uint64_t)width * WC_WARP_SIZE;
    uint64_t gmask = ~(uint64_t)(x->granularity - 1);
    uint64_t lmask = (1ull << x->line_log2) - 1;
    if (end > a && ((end - 1) & gmask) == (a & gmask)) {
        /* One segment holds the whole range (4 B lanes from a 128 B boundary
         * at line granularity, micro/stream): the loop below would take one
         * step with stop = end, first lane 0 and last lane 31, without its
         * two divisions. */
        out->addr = a & gmask;
        out->line_log2 = x->line_log2;
        out->chunk_log2 = x->chunk_log2;
        out->lanes = ~0u;
        out->chunks = chunk_range((unsigned)(a & lmask), (unsigned)(end - a), x->chunk_log2);
        return 1;
    }
    while (a < end) {
        uint64_t seg = a & gmask;
        uint64_t seg_end = seg + x->granularity;
        uint64_t stop = end < seg_end ? end : seg_end;
        wc_mem_req *r = &out[n++];
        r->addr = seg;
        r->line_log2 = x->line_log2;
        r->chunk_log2 = x->chunk_log2;
        unsigned first = (unsigned)((a - in->base) / width);
        unsigned last = (unsigned)((stop - 1 - in->base) / width);
        r->lanes = (last >= 31 ? ~0u : ((2u << last) - 1)) & ~((1u << first) - 1);
        r->chunks = chunk_range((unsigned)(a & lmask), (unsigned)(stop - a), x->chunk_log2);
        a = stop;
    }
    return n;
}

/* Fast path: strided lanes whose every access is a naturally aligned power
 * of two within one chunk (a column walk, a struct field): each lane's
 * chunk is one shift, and only the newest request can share its segment.
 * The general loop below gives the same requests for them. */
static unsigned coalesce_strided(const wc_winst *in, const wc_xfer *x, wc_mem_req *out)
{
    unsigned n = 0;
    uint64_t gmask = ~(uint64_t)(x->granularity - 1);
    uint64_t lmask = (1ull << x->line_log2) - 1;
    unsigned clog = x->chunk_log2;
    uint64_t stride = (uint64_t)in->stride;
    wc_mem_req *r = NULL;
    for (uint32_t mask = in->mask; mask; mask &= mask - 1) {
        unsigned lane = (unsigned)__builtin_ctz(mask);
        uint64_t a = in->base + (uint64_t)lane * stride;
        uint64_t seg = a & gmask;
        if (!r || r->addr != seg) {
            r = &out[n++];
            r->addr = seg;
            r->chunks = 0;
            r->lanes = 0;
            r->line_log2 = x->line_log2;
            r->chunk_log2 = x->chunk_log2;
        }
        r->chunks |= 1ull << ((unsigned)(a & lmask) >> clog);
        r->lanes |= 1u << lane;
    }
    return n;
}

/* Fast path: strided lanes as for coalesce_strided, with a stride of at
 * least a segment (colcopy's column walk): lanes l < m have addresses at
 * least one segment apart, so every lane starts a request of its own and
 * no segment is compared.  The lanes are walked in order with a running
 * address (no multiply per lane). */
static unsigned coalesce_spread(const wc_winst *in, const wc_xfer *x, wc_mem_req *out)
{
    wc_mem_req *r = out;
    uint64_t gmask = ~(uint64_t)(x->granularity - 1);
    uint64_t lmask = (1ull << x->line_log2) - 1;
    unsigned clog = x->chunk_log2;
    uint64_t stride = (uint64_t)in->stride, a = in->base;
    uint32_t bit = 1;
    for (uint32_t mask = in->mask; mask; mask >>= 1, bit <<= 1, a += stride) {
        if (!(mask & 1)) continue;
        r->addr = a & gmask;
        r->chunks = 1ull << ((unsigned)(a & lmask) >> clog);
        r->lanes = bit;
        r->line_log2 = x->line_log2;
        r->chunk_log2 = x->chunk_log2;
        r++;
    }
    return (unsigned)(r - out);
}

/* Fast path: every lane reads the same naturally aligned word (stride 0, a
 * broadcast such as atax's x[j]): one request, one chunk, all the lanes -
 * what the strided loop builds one lane at a time. */
static unsigned coalesce_broadcast(const wc_winst *in, const wc_xfer *x, wc_mem_req *out)
{
    if (!in->mask) return 0;
    out->addr = in->base & ~(uint64_t)(x->granularity - 1);
    out->chunks = 1ull << ((unsigned)(in->base & ((1ull << x->line_log2) - 1)) >> x->chunk_log2);
    out->lanes = in->mask;
    out->line_log2 = x->line_log2;
    out->chunk_log2 = x->chunk_log2;
    return 1;
}

unsigned wc_coalesce(const wc_winst *in, const wc_xfer *x, wc_mem_req *out)
{
    unsigned n = 0;
    if (in->amode == WC_ADDR_STRIDE && in->mask == 0xffffffffu && in->width &&
        in->stride == (int64_t)in->width)
        return coalesce_contiguous(in, in->width, x, out);
    uint32_t mask = in->mask;
    unsigned width = in->width ? in->width : 4;
    uint64_t gmask = ~(uint64_t)(x->granularity - 1);
    uint64_t lmask = (1ull << x->line_log2) - 1;
    unsigned clog = x->chunk_log2;
    bool monotone = in->amode == WC_ADDR_STRIDE;
    /* A naturally aligned power-of-two access no wider than a chunk lies
     * within one chunk (so within one segment): its mask is one shift.
     * Others take the general split. */
    bool small_pow2 =
        width <= (1u << clog) && width <= x->granularity && (width & (width - 1)) == 0;
    if (monotone && small_pow2 && ((in->base | (uint64_t)in->stride) & (width - 1)) == 0) {
        /* every lane aligned */
        if (in->stride >= (int64_t)x->granularity) return coalesce_spread(in, x, out);
        if (in->stride == 0) return coalesce_broadcast(in, x, out);
        return coalesce_strided(in, x, out);
    }
    while (mask) {
        unsigned lane = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        uint64_t a = wc_winst_lane_addr(in, lane);
        if (small_pow2 && (a & (width - 1)) == 0) {
            wc_mem_req *r = segment_request(out, &n, a & gmask, monotone, x);
            r->chunks |= 1ull << ((unsigned)(a & lmask) >> clog);
            r->lanes |= 1u << lane;
            continue;
        }
        uint64_t end = a + width;
        while (a < end) {
            uint64_t seg = a & gmask;
            uint64_t seg_end = seg + x->granularity;
            unsigned len = (unsigned)((end < seg_end ? end : seg_end) - a);
            wc_mem_req *r = segment_request(out, &n, seg, monotone, x);
            r->chunks |= chunk_range((unsigned)(a & lmask), len, clog);
            r->lanes |= 1u << lane;
            a += len;
        }
    }
    return n;
}
