/*
 * coalescer.c - warp memory instruction -> line requests (see coalescer.h).
 *
 * For each active lane, in lane order, the byte range [addr, addr+width) is
 * split at segment boundaries; each piece joins the request of its segment
 * (created on first touch).  Byte and sector masks are relative to the
 * enclosing 128 B line whatever the granularity, so sectored caches and TSC
 * can see exactly which 32 B chunks a request needs.
 */
#include "warpcache/coalescer.h"

static inline void set_bytes(wc_mem_req *r, unsigned off, unsigned len)
{
    /* off + len <= 128 and len <= 16, so the range spans at most two words. */
    unsigned w = off >> 6, b = off & 63;
    if (b + len <= 64) {
        uint64_t m = (len == 64) ? ~0ull : (((1ull << len) - 1) << b);
        r->bytemask[w] |= m;
    } else {
        unsigned lo = 64 - b;
        r->bytemask[w] |= ~0ull << b;
        r->bytemask[w + 1] |= (1ull << (len - lo)) - 1;
    }
    unsigned s0 = off >> 5, s1 = (off + len - 1) >> 5;
    for (unsigned s = s0; s <= s1; s++) r->sectors |= (uint8_t)(1u << s);
}

static inline wc_mem_req *segment_request(wc_mem_req *out, unsigned *n, uint64_t seg)
{
    /* Most warps touch few segments and touch them in order: look back first. */
    for (unsigned i = *n; i-- > 0;)
        if (out[i].addr == seg) return &out[i];
    wc_mem_req *r = &out[(*n)++];
    r->addr = seg;
    r->bytemask[0] = r->bytemask[1] = 0;
    r->sectors = 0;
    r->lanes = 0;
    return r;
}

/* Fast path: all 32 lanes active, lane l at base + l*width (a unit-stride
 * access, the common coalesced case): walk the contiguous byte range. */
static unsigned coalesce_contiguous(const wc_winst *in, unsigned width, unsigned granularity,
                                    wc_mem_req *out)
{
    unsigned n = 0;
    uint64_t a = in->base, end = in->base + (uint64_t)width * WC_WARP_SIZE;
    uint64_t gmask = ~(uint64_t)(granularity - 1);
    while (a < end) {
        uint64_t seg = a & gmask;
        uint64_t seg_end = seg + granularity;
        uint64_t stop = end < seg_end ? end : seg_end;
        wc_mem_req *r = &out[n++];
        r->addr = seg;
        r->bytemask[0] = r->bytemask[1] = 0;
        r->sectors = 0;
        unsigned first = (unsigned)((a - in->base) / width);
        unsigned last = (unsigned)((stop - 1 - in->base) / width);
        r->lanes = (last >= 31 ? ~0u : ((2u << last) - 1)) & ~((1u << first) - 1);
        unsigned off = (unsigned)(a & 127), len = (unsigned)(stop - a);
        while (len) {
            unsigned chunk = len > 16 ? 16 : len;
            set_bytes(r, off, chunk);
            off += chunk;
            len -= chunk;
        }
        a = stop;
    }
    return n;
}

unsigned wc_coalesce(const wc_winst *in, unsigned granularity, wc_mem_req *out)
{
    unsigned n = 0;
    if (in->amode == WC_ADDR_STRIDE && in->mask == 0xffffffffu && in->width &&
        in->stride == (int64_t)in->width)
        return coalesce_contiguous(in, in->width, granularity, out);
    uint32_t mask = in->mask;
    unsigned width = in->width ? in->width : 4;
    uint64_t gmask = ~(uint64_t)(granularity - 1);
    while (mask) {
        unsigned lane = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        uint64_t a = wc_winst_lane_addr(in, lane);
        uint64_t end = a + width;
        while (a < end) {
            uint64_t seg = a & gmask;
            uint64_t seg_end = seg + granularity;
            unsigned len = (unsigned)((end < seg_end ? end : seg_end) - a);
            wc_mem_req *r = segment_request(out, &n, seg);
            set_bytes(r, (unsigned)(a & 127), len);
            r->lanes |= 1u << lane;
            a += len;
        }
    }
    return n;
}
