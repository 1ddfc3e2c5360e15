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

/* Bits [lo, hi) of a 64-bit word (0 <= lo <= hi <= 64). */
static inline uint64_t bit_range(unsigned lo, unsigned hi)
{
    if (lo >= hi) return 0;
    uint64_t upto = hi == 64 ? ~0ull : (1ull << hi) - 1;
    return upto & ~((1ull << lo) - 1);
}

/* Marks bytes [off, off+len) of the 128 B line (off + len <= 128). */
static inline void set_bytes(wc_mem_req *r, unsigned off, unsigned len)
{
    unsigned end = off + len;
    r->bytemask[0] |= bit_range(off < 64 ? off : 64, end < 64 ? end : 64);
    r->bytemask[1] |= bit_range(off > 64 ? off - 64 : 0, end > 64 ? end - 64 : 0);
    unsigned s0 = off >> 5, s1 = (end - 1) >> 5;
    r->sectors |= (uint8_t)(((2u << s1) - 1) & ~((1u << s0) - 1));
}

static inline wc_mem_req *segment_request(wc_mem_req *out, unsigned *n, uint64_t seg, bool monotone)
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
        set_bytes(r, (unsigned)(a & 127), (unsigned)(stop - a));
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
    bool monotone = in->amode == WC_ADDR_STRIDE;
    /* A naturally aligned access of 1..16 bytes lies within one 32 B sector
     * (so within one segment and one 64-bit word of the byte mask): it is one
     * piece whose masks are a shift away.  Others take the general split. */
    bool small_pow2 = width <= 16 && width <= granularity && (width & (width - 1)) == 0;
    uint64_t wbits = (1ull << width) - 1; /* used only when small_pow2 */
    while (mask) {
        unsigned lane = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        uint64_t a = wc_winst_lane_addr(in, lane);
        if (small_pow2 && (a & (width - 1)) == 0) {
            wc_mem_req *r = segment_request(out, &n, a & gmask, monotone);
            unsigned off = (unsigned)(a & 127);
            r->bytemask[off >> 6] |= wbits << (off & 63);
            r->sectors |= (uint8_t)(1u << (off >> 5));
            r->lanes |= 1u << lane;
            continue;
        }
        uint64_t end = a + width;
        while (a < end) {
            uint64_t seg = a & gmask;
            uint64_t seg_end = seg + granularity;
            unsigned len = (unsigned)((end < seg_end ? end : seg_end) - a);
            wc_mem_req *r = segment_request(out, &n, seg, monotone);
            set_bytes(r, (unsigned)(a & 127), len);
            r->lanes |= 1u << lane;
            a += len;
        }
    }
    return n;
}
