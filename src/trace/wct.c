/*
 * wct.c - warpcache's native binary trace format (.wct): writer and reader.
 *
 * Layout (all integers little-endian; docs/traces.md has the full table):
 *
 *   file    = "WCTRACE\0" u32 version(=1) u32 reserved, then chunks
 *   chunk   = u32 tag, u8 codec, u8[3] 0, u32 raw_len, u32 stored_len,
 *             u64 hash(stored bytes), stored bytes
 *   KERN    kernel record: name, id, grid, block, shmem, regs (varints)
 *   BLCK    one thread block: block id, warp count, per warp (instruction
 *           count, byte length), then each warp's instruction stream
 *   KEND    end of a kernel: number of blocks and instructions (a check)
 *   TEND    end of the trace: number of kernels (detects truncation)
 *
 * Blocks are written in increasing linear id order, so the reader streams:
 * open_block reads exactly one BLCK chunk (bounded memory: one block), and
 * skipping a kernel only reads chunk headers.  Each BLCK payload may be
 * compressed (zstd or zlib, per chunk) and is checked with a 64-bit
 * multiply-rotate hash of our own.
 *
 * Instruction encoding (per warp, deltas against that warp's previous
 * instruction): byte op|amode<<4|fullmask<<6|ext<<7; byte ndst|nsrc<<2;
 * [width, flags if ext]; zigzag varint pc delta; [varint mask unless full];
 * varint registers; STRIDE: zigzag base delta + zigzag stride; LIST: zigzag
 * delta of each active lane's address from the previous one.  Base deltas
 * are against the last base at the same PC slot ((pc >> 3) & 7).
 * Consecutive blocks are packed into one BLCK chunk of about 64 KiB.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace/formats.h"

#define WCT_MAGIC   "WCTRACE"
#define WCT_VERSION 1u
/* A chunk's decompressed length is bounded before anything is allocated.
 * The writer closes a BLCK chunk once it holds 64 KiB (WCT_GROUP_BYTES), so
 * a chunk is 64 KiB plus at most one thread block's record; a block of
 * 32 warps of long loops takes megabytes (micro/colcopy:h=1024,w=32768 is
 * one 28 MB block).  The cap leaves room for such blocks, and the writer
 * refuses a chunk above it, so every file it writes reads back.  It used to
 * be 1 GiB: a 33 KB file of zstd runs made every reader fill 1 GiB. */
#define WCT_MAX_CHUNK (64u << 20)
/* Neither codec can expand its input more than this (zlib: 258-byte matches
 * in 2 bits, 1032:1; zstd: a 3-byte RLE block header and 1 byte per 128 KiB
 * block, 32768:1): a larger claim cannot be true and is refused unread. */
#define WCT_ZLIB_MAX_RATIO 1032u
#define WCT_ZSTD_MAX_RATIO 32768u
#define TAG(a, b, c, d)                                                                            \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define TAG_KERN  TAG('K', 'E', 'R', 'N')
#define TAG_BLCK  TAG('B', 'L', 'C', 'K')
#define TAG_KEND  TAG('K', 'E', 'N', 'D')
#define TAG_TEND  TAG('T', 'E', 'N', 'D')
#define CHUNK_HDR 24

/* ---- checksum: 4-lane multiply-rotate hash, then an avalanche ----------- */

static const uint64_t H1 = 0x9E3779B185EBCA87ull, H2 = 0xC2B2AE3D27D4EB4Full,
                      H3 = 0x165667B19E3779F9ull;

static inline uint64_t rotl64(uint64_t x, unsigned r)
{
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v; /* little-endian hosts only (checked in the writer/reader) */
}

static uint64_t wct_hash(const uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t a = seed + H1, b = seed ^ H2, c = seed + H3, d = seed - H1;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        a = rotl64(a + load64(p + i) * H2, 31) * H1;
        b = rotl64(b + load64(p + i + 8) * H2, 31) * H1;
        c = rotl64(c + load64(p + i + 16) * H2, 31) * H1;
        d = rotl64(d + load64(p + i + 24) * H2, 31) * H1;
    }
    uint64_t h = rotl64(a, 1) + rotl64(b, 7) + rotl64(c, 12) + rotl64(d, 18) + (uint64_t)n;
    for (; i + 8 <= n; i += 8) h = rotl64(h ^ (rotl64(load64(p + i) * H2, 31) * H1), 27) * H1 + H3;
    for (; i < n; i++) h = rotl64(h ^ (p[i] * H3), 11) * H1;
    h ^= h >> 33;
    h *= H2;
    h ^= h >> 29;
    h *= H3;
    h ^= h >> 32;
    return h;
}

/* ---- varints ------------------------------------------------------------ */

typedef struct wbuf {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} wbuf;

static bool wbuf_reserve(wbuf *b, size_t extra)
{
    if (b->len + extra <= b->cap) return true;
    size_t cap = b->cap ? b->cap * 2 : 1 << 16;
    while (cap < b->len + extra) cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

static inline void put_u8(wbuf *b, uint8_t v)
{
    if (wbuf_reserve(b, 1)) b->p[b->len++] = v;
}

static inline void put_uv(wbuf *b, uint64_t v)
{
    if (!wbuf_reserve(b, 10)) return;
    while (v >= 0x80) {
        b->p[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->len++] = (uint8_t)v;
}

static inline void put_sv(wbuf *b, int64_t v)
{
    put_uv(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline void put_bytes(wbuf *b, const void *src, size_t n)
{
    if (wbuf_reserve(b, n)) {
        memcpy(b->p + b->len, src, n);
        b->len += n;
    }
}

/* Bounded readers: return false on overrun or an over-long varint. */
static bool get_uv_slow(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
    const uint8_t *p = *pp;
    uint64_t r = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (p >= end) return false;
        uint8_t c = *p++;
        r |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *v = r;
            *pp = p;
            return true;
        }
    }
    return false;
}

static inline bool get_uv(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
    const uint8_t *p = *pp;
    if (p < end && *p < 0x80) {
        *v = *p;
        *pp = p + 1;
        return true;
    }
    return get_uv_slow(pp, end, v);
}

static inline bool get_sv(const uint8_t **pp, const uint8_t *end, int64_t *v)
{
    uint64_t u;
    if (!get_uv(pp, end, &u)) return false;
    *v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return true;
}

/* ---- instruction codec -------------------------------------------------- */

/* Per-warp decoder state.  Address deltas are taken against the last base
 * seen at a PC with the same slot ((pc >> 3) & 7), so that a load and a store
 * alternating in a loop each delta against their own previous address. */
#define WCT_SLOTS 8
typedef struct wct_wstate {
    uint64_t pc;
    uint64_t base[WCT_SLOTS];
} wct_wstate;

static inline unsigned pc_slot(uint64_t pc)
{
    return (unsigned)(pc >> 3) & (WCT_SLOTS - 1);
}

static void encode_inst(wbuf *b, const wc_winst *in, wct_wstate *st)
{
    unsigned amode = wc_op_is_mem(in->op) ? in->amode : WC_ADDR_NONE;
    bool full = in->mask == 0xffffffffu;
    bool ext = in->width || in->flags;
    unsigned ndst = in->ndst <= WC_MAX_DST ? in->ndst : WC_MAX_DST;
    unsigned nsrc = in->nsrc <= WC_MAX_SRC ? in->nsrc : WC_MAX_SRC;
    if (!wbuf_reserve(b, 4)) return;
    b->p[b->len++] =
        (uint8_t)((in->op & 15) | amode << 4 | (unsigned)full << 6 | (unsigned)ext << 7);
    b->p[b->len++] = (uint8_t)(ndst | nsrc << 2);
    if (ext) {
        b->p[b->len++] = in->width;
        b->p[b->len++] = in->flags;
    }
    put_sv(b, (int64_t)(in->pc - st->pc));
    st->pc = in->pc;
    if (!full) put_uv(b, in->mask);
    for (unsigned i = 0; i < ndst; i++) put_uv(b, in->dst[i]);
    for (unsigned i = 0; i < nsrc; i++) put_uv(b, in->src[i]);
    uint64_t *base = &st->base[pc_slot(in->pc)];
    if (amode == WC_ADDR_STRIDE) {
        put_sv(b, (int64_t)(in->base - *base));
        put_sv(b, in->stride);
        *base = in->base;
    } else if (amode == WC_ADDR_LIST) {
        uint64_t prev = *base;
        for (uint32_t m = in->mask; m; m &= m - 1) {
            uint64_t a = in->addr[__builtin_ctz(m)];
            put_sv(b, (int64_t)(a - prev));
            prev = a;
        }
        if (in->mask) *base = in->addr[__builtin_ctz(in->mask)];
    }
}

/* Unchecked varint read for the fast path: the caller guarantees at least
 * WCT_VARINT_MAX readable bytes.  Accepts exactly what get_uv_slow accepts. */
#define WCT_VARINT_MAX 10
static inline __attribute__((always_inline)) bool get_uv_nb(const uint8_t **pp, uint64_t *v)
{
    const uint8_t *p = *pp;
    uint64_t r = *p & 0x7f;
    if (!(*p++ & 0x80)) {
        *v = r;
        *pp = p;
        return true;
    }
    for (unsigned shift = 7; shift < 64; shift += 7) {
        uint8_t c = *p++;
        r |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *v = r;
            *pp = p;
            return true;
        }
    }
    return false;
}

/* Longest possible encoding of one instruction: 4 header bytes, then at most
 * pc + mask + 8 registers + 2 stride fields or 32 lane addresses, each varint
 * at most WCT_VARINT_MAX bytes.  With this many bytes left, no read can overrun. */
#define WCT_INST_MAX_BYTES (4 + (2 + WC_MAX_DST + WC_MAX_SRC + WC_WARP_SIZE) * WCT_VARINT_MAX)

/* Varint readers for decode_inst_impl: bounds-checked or not (`checked` is a
 * compile-time constant in each instantiation). */
#define DEC_UV(p, end, v) ((checked) ? get_uv(&(p), (end), (v)) : get_uv_nb(&(p), (v)))
static inline __attribute__((always_inline)) bool dec_sv(const uint8_t **pp, const uint8_t *end,
                                                         int64_t *v, bool checked)
{
    uint64_t u;
    if (!(checked ? get_uv(pp, end, &u) : get_uv_nb(pp, &u))) return false;
    *v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return true;
}

/* Decodes one instruction into *o; false on malformed bytes.  Writes only the
 * fields the instruction uses: addr[] only for the active lanes of a LIST. */
static inline __attribute__((always_inline)) bool
decode_inst_impl(const uint8_t **pp, const uint8_t *end, wc_winst *o, wct_wstate *st, bool checked)
{
    const uint8_t *p = *pp;
    if (checked && end - p < 2) return false;
    unsigned b0 = p[0], b1 = p[1];
    p += 2;
    unsigned op = b0 & 15, amode = (b0 >> 4) & 3;
    unsigned ndst = b1 & 3, nsrc = (b1 >> 2) & 7;
    if (op >= WC_OP__COUNT || amode > WC_ADDR_LIST || ndst > WC_MAX_DST || nsrc > WC_MAX_SRC ||
        (b1 >> 5))
        return false;
    o->op = (uint8_t)op;
    o->amode = (uint8_t)amode;
    o->ndst = (uint8_t)ndst;
    o->nsrc = (uint8_t)nsrc;
    if (b0 & 0x80) {
        if (checked && end - p < 2) return false;
        o->width = p[0];
        o->flags = p[1];
        p += 2;
    } else {
        o->width = 0;
        o->flags = 0;
    }
    int64_t d;
    uint64_t u;
    if (!dec_sv(&p, end, &d, checked)) return false;
    st->pc += (uint64_t)d;
    o->pc = st->pc;
    if (b0 & 0x40) {
        o->mask = 0xffffffffu;
    } else {
        if (!DEC_UV(p, end, &u) || u > 0xffffffffu) return false;
        o->mask = (uint32_t)u;
    }
    for (unsigned i = 0; i < ndst; i++) {
        if (!DEC_UV(p, end, &u) || u > 0xffff) return false;
        o->dst[i] = (uint16_t)u;
    }
    for (unsigned i = 0; i < nsrc; i++) {
        if (!DEC_UV(p, end, &u) || u > 0xffff) return false;
        o->src[i] = (uint16_t)u;
    }
    o->base = 0;
    o->stride = 0;
    uint64_t *base = &st->base[pc_slot(o->pc)];
    if (amode == WC_ADDR_STRIDE) {
        if (!dec_sv(&p, end, &d, checked) || !dec_sv(&p, end, &o->stride, checked)) return false;
        *base += (uint64_t)d;
        o->base = *base;
    } else if (amode == WC_ADDR_LIST) {
        uint64_t prev = *base;
        for (uint32_t m = o->mask; m; m &= m - 1) {
            if (!dec_sv(&p, end, &d, checked)) return false;
            prev += (uint64_t)d;
            o->addr[__builtin_ctz(m)] = prev;
        }
        if (o->mask) *base = o->addr[__builtin_ctz(o->mask)];
    }
    *pp = p;
    return true;
}
#undef DEC_UV

/* `limit` is the end of the readable buffer (the chunk), `end` the end of this
 * warp's stream.  Far from `limit` no read can leave the buffer, so the bounds
 * checks are skipped and one check afterwards rejects an instruction that ran
 * past `end` - the same instructions the checked decoder rejects, since both
 * read the same bytes in the same order.  Near `limit`, every read is checked. */
static inline bool decode_inst(const uint8_t **pp, const uint8_t *end, const uint8_t *limit,
                               wc_winst *o, wct_wstate *st)
{
    if (limit - *pp >= WCT_INST_MAX_BYTES) {
        const uint8_t *p = *pp;
        if (!decode_inst_impl(&p, end, o, st, false) || p > end) return false;
        *pp = p;
        return true;
    }
    return decode_inst_impl(pp, end, o, st, true);
}

/* ---- chunk I/O ---------------------------------------------------------- */

static void le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t chunk_seed(uint32_t tag, unsigned codec, uint32_t raw)
{
    return ((uint64_t)tag << 32 | raw) ^ ((uint64_t)codec * H3);
}

static int write_chunk(FILE *f, wc_codec_ctx *cx, uint32_t tag, int codec, const uint8_t *data,
                       size_t n, const char *path, wc_err *err)
{
    if (n > WCT_MAX_CHUNK)
        return wc_errf(err,
                       "%s: a thread block encodes to %zu bytes, more than a .wct chunk may "
                       "hold (64 MiB, docs/traces.md); write --format accelsim instead",
                       path, n);
    void *packed = NULL;
    const uint8_t *stored = data;
    size_t stored_len = n;
    if (codec != WC_CODEC_NONE && n >= 64) {
        long c = wc_codec_compress(cx, codec, data, n, &packed, err);
        if (c < 0) return -1;
        if ((size_t)c < n) {
            stored = packed;
            stored_len = (size_t)c;
        } else {
            codec = WC_CODEC_NONE; /* incompressible: store raw */
        }
    } else {
        codec = WC_CODEC_NONE;
    }
    uint8_t h[CHUNK_HDR] = {0};
    le32(h, tag);
    h[4] = (uint8_t)codec;
    le32(h + 8, (uint32_t)n);
    le32(h + 12, (uint32_t)stored_len);
    uint64_t sum = wct_hash(stored, stored_len, chunk_seed(tag, (unsigned)codec, (uint32_t)n));
    le32(h + 16, (uint32_t)sum);
    le32(h + 20, (uint32_t)(sum >> 32));
    bool ok =
        fwrite(h, 1, CHUNK_HDR, f) == CHUNK_HDR && fwrite(stored, 1, stored_len, f) == stored_len;
    free(packed);
    return ok ? 0 : wc_errf(err, "%s: write error: %s", path, strerror(errno));
}

typedef struct wct_chunk {
    uint32_t tag, raw_len, stored_len;
    unsigned codec;
    uint64_t sum;
    long offset; /* file offset of the header, for messages */
} wct_chunk;

/* ---- reader ------------------------------------------------------------- */

typedef struct wct_warp {
    const uint8_t *p, *end;
    const uint8_t *limit; /* end of the chunk buffer holding the stream */
    uint64_t left;
    wct_wstate st;
} wct_warp;

/* One BLCK chunk's decompressed payload: several consecutive block records.
 * Shared by the blocks opened from it (refs), and by the source while it is
 * the current group. */
typedef struct wct_group wct_group;
struct wct_group {
    uint8_t *data;
    const uint8_t *next, *end; /* next unread block record */
    unsigned refs;
    wct_chunk ch;
};

typedef struct wct_block {
    wct_group *g;
    uint32_t nwarps;
    wct_warp w[];
} wct_block;

typedef struct wct_source {
    wc_source base;
    FILE *f;
    char name[512];
    wc_kernel cur;
    bool in_kernel; /* between KERN and KEND */
    bool ended;     /* TEND seen */
    uint32_t nkernels;
    /* The current kernel's blocks parsed and their instructions, for KEND;
     * k_skipped: some block chunk was skipped unread. */
    uint64_t k_blocks, k_insts;
    bool k_skipped;
    wct_group *grp;   /* group blocks are being taken from */
    wct_block *spare; /* a closed block kept for reuse, or NULL */
    wc_codec_ctx *cx;
} wct_source;

static void group_release(struct wct_group *g);

#define WCT_FAIL(s, ch, ...) wct_fail((s), (ch), err, __VA_ARGS__)

static int wct_fail(wct_source *s, const wct_chunk *ch, wc_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int wct_fail(wct_source *s, const wct_chunk *ch, wc_err *err, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (ch) return wc_errf(err, "%s:@%ld: %s", s->name, ch->offset, what);
    return wc_errf(err, "%s: %s", s->name, what);
}

/* Reads the next chunk header. 1 = ok, -1 = error (EOF is an error: TEND ends a file). */
static int read_chunk_header(wct_source *s, wct_chunk *ch, wc_err *err)
{
    uint8_t h[CHUNK_HDR];
    ch->offset = ftell(s->f);
    size_t got = fread(h, 1, CHUNK_HDR, s->f);
    if (got != CHUNK_HDR)
        return WCT_FAIL(s, ch, "truncated file (expected a chunk header, %s)",
                        got ? "got a partial one" : "found end of file");
    ch->tag = rd32(h);
    ch->codec = h[4];
    ch->raw_len = rd32(h + 8);
    ch->stored_len = rd32(h + 12);
    ch->sum = (uint64_t)rd32(h + 16) | (uint64_t)rd32(h + 20) << 32;
    if (ch->tag != TAG_KERN && ch->tag != TAG_BLCK && ch->tag != TAG_KEND && ch->tag != TAG_TEND)
        return WCT_FAIL(s, ch, "unknown chunk tag 0x%08x (corrupt file?)", ch->tag);
    if (h[5] || h[6] || h[7] || ch->codec > WC_CODEC_ZSTD ||
        (ch->codec == WC_CODEC_NONE && ch->raw_len != ch->stored_len))
        return WCT_FAIL(s, ch, "corrupt chunk header");
    if (ch->raw_len > WCT_MAX_CHUNK || ch->stored_len > WCT_MAX_CHUNK)
        return WCT_FAIL(s, ch,
                        "chunk of %u bytes (%u stored) is larger than a .wct chunk may be "
                        "(64 MiB, docs/traces.md)",
                        ch->raw_len, ch->stored_len);
    uint64_t ratio = ch->codec == WC_CODEC_ZLIB   ? WCT_ZLIB_MAX_RATIO
                     : ch->codec == WC_CODEC_ZSTD ? WCT_ZSTD_MAX_RATIO
                                                  : 1;
    if (ch->raw_len > ratio * ch->stored_len)
        return WCT_FAIL(s, ch,
                        "chunk claims %u bytes from %u stored: more than %s can expand "
                        "(%llu:1; corrupt file?)",
                        ch->raw_len, ch->stored_len, wc_codec_name((int)ch->codec),
                        (unsigned long long)ratio);
    return 1;
}

/* Reads `n` bytes into a new buffer, growing it as data actually arrives, so a
 * header that claims a huge chunk in a short file costs nothing. */
static uint8_t *read_exact(FILE *f, size_t n)
{
    size_t cap = n < (1u << 20) ? n : (1u << 20), got = 0;
    uint8_t *buf = malloc(cap ? cap : 1);
    while (buf && got < n) {
        if (got == cap) {
            cap = cap * 2 < n ? cap * 2 : n;
            uint8_t *p = realloc(buf, cap);
            if (!p) break;
            buf = p;
        }
        size_t r = fread(buf + got, 1, cap - got, f);
        if (!r) break;
        got += r;
    }
    if (got < n) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Reads, verifies and decompresses a chunk's payload into a new buffer. */
static uint8_t *read_payload(wct_source *s, const wct_chunk *ch, wc_err *err)
{
    uint8_t *stored = read_exact(s->f, ch->stored_len);
    if (!stored) {
        WCT_FAIL(s, ch, "truncated chunk");
        return NULL;
    }
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION /* fuzzers cannot forge hashes: skip it there */
    if (wct_hash(stored, ch->stored_len, chunk_seed(ch->tag, ch->codec, ch->raw_len)) != ch->sum) {
        WCT_FAIL(s, ch, "checksum mismatch (corrupt file)");
        free(stored);
        return NULL;
    }
#endif
    if (ch->codec == WC_CODEC_NONE) return stored;
    uint8_t *raw = malloc(ch->raw_len ? ch->raw_len : 1);
    if (!raw) {
        WCT_FAIL(s, ch, "out of memory");
    } else if (wc_codec_decompress(s->cx, (int)ch->codec, stored, ch->stored_len, raw, ch->raw_len,
                                   err) < 0) {
        wc_err inner = *err;
        WCT_FAIL(s, ch, "%s", inner.msg);
        free(raw);
        raw = NULL;
    }
    free(stored);
    return raw;
}

static int skip_payload(wct_source *s, const wct_chunk *ch, wc_err *err)
{
    if (fseek(s->f, ch->stored_len, SEEK_CUR) != 0) return WCT_FAIL(s, ch, "truncated chunk");
    return 0;
}

static bool get_u32(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
    uint64_t u;
    if (!get_uv(p, end, &u) || u > UINT32_MAX) return false;
    *v = (uint32_t)u;
    return true;
}

static int parse_kern(wct_source *s, const wct_chunk *ch, const uint8_t *p, const uint8_t *end,
                      wc_err *err)
{
    wc_kernel *k = &s->cur;
    memset(k, 0, sizeof *k);
    uint64_t n;
    if (!get_uv(&p, end, &n) || n >= sizeof k->name || n > (uint64_t)(end - p))
        return WCT_FAIL(s, ch, "corrupt kernel record (name)");
    memcpy(k->name, p, n);
    k->name[n] = 0;
    p += n;
    if (!get_u32(&p, end, &k->id) || !get_u32(&p, end, &k->grid.x) ||
        !get_u32(&p, end, &k->grid.y) || !get_u32(&p, end, &k->grid.z) ||
        !get_u32(&p, end, &k->block.x) || !get_u32(&p, end, &k->block.y) ||
        !get_u32(&p, end, &k->block.z) || !get_u32(&p, end, &k->shmem_bytes) ||
        !get_u32(&p, end, &k->regs_per_thread) || p != end)
        return WCT_FAIL(s, ch, "corrupt kernel record");
    if (wc_trace_shape_fault(k->grid, k->block) != WC_SHAPE_OK) /* products could wrap */
        return WCT_FAIL(s, ch,
                        "kernel record has an invalid grid (%u,%u,%u) or block (%u,%u,%u) "
                        "(docs/traces.md, Limits)",
                        k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z);
    return 0;
}

/* A kernel's end record: its checksum (like every chunk's), then its counts
 * against what was read.  Every block of the grid is written, so the block
 * count must be the grid's; the instruction count can be compared only when
 * every block was parsed (blocks of an unwanted or abandoned kernel are
 * skipped unread). */
static int check_kend(wct_source *s, const wct_chunk *ch, wc_err *err)
{
    uint8_t *pl = read_payload(s, ch, err);
    if (!pl) return -1;
    const uint8_t *p = pl, *end = pl + ch->raw_len;
    uint64_t nblocks, ninsts;
    bool ok = get_uv(&p, end, &nblocks) && get_uv(&p, end, &ninsts) && p == end;
    free(pl);
    if (!ok) return WCT_FAIL(s, ch, "corrupt kernel end record");
    if (nblocks != wc_dim3_count(s->cur.grid))
        return WCT_FAIL(s, ch, "kernel %u end record counts %llu blocks, its grid has %llu",
                        s->cur.id, (unsigned long long)nblocks,
                        (unsigned long long)wc_dim3_count(s->cur.grid));
    if (!s->k_skipped && s->k_blocks == nblocks && ninsts != s->k_insts)
        return WCT_FAIL(s, ch,
                        "kernel %u end record counts %llu instructions, its blocks hold %llu",
                        s->cur.id, (unsigned long long)ninsts, (unsigned long long)s->k_insts);
    return 0;
}

static int wct_next_kernel(wc_source *src, wc_kernel *k, wc_err *err)
{
    wct_source *s = (wct_source *)src;
    wct_chunk ch;
    group_release(s->grp); /* the rest of the previous kernel's group, if any */
    s->grp = NULL;
    if (s->ended) return 0;
    for (;;) {
        if (read_chunk_header(s, &ch, err) < 0) return -1;
        if (ch.tag == TAG_BLCK) {
            if (!s->in_kernel) return WCT_FAIL(s, &ch, "block outside a kernel");
            if (skip_payload(s, &ch, err) < 0) return -1;
            s->k_skipped = true;
            continue;
        }
        if (ch.tag == TAG_KEND) {
            if (!s->in_kernel) return WCT_FAIL(s, &ch, "kernel end outside a kernel");
            if (check_kend(s, &ch, err) < 0) return -1;
            s->in_kernel = false;
            continue;
        }
        if (s->in_kernel) return WCT_FAIL(s, &ch, "kernel %u has no end record", s->cur.id);
        uint8_t *pl = read_payload(s, &ch, err);
        if (!pl) return -1;
        int rc = 0;
        if (ch.tag == TAG_TEND) {
            const uint8_t *p = pl;
            uint32_t nk;
            if (!get_u32(&p, pl + ch.raw_len, &nk) || p != pl + ch.raw_len || nk != s->nkernels)
                rc = WCT_FAIL(s, &ch, "trace end record disagrees with the %u kernels read",
                              s->nkernels);
            else if (!nk)
                rc = WCT_FAIL(s, &ch, "the trace holds no kernel");
            s->ended = true;
        } else {
            rc = parse_kern(s, &ch, pl, pl + ch.raw_len, err);
            if (rc == 0) {
                s->in_kernel = true;
                s->nkernels++;
                s->k_blocks = s->k_insts = 0;
                s->k_skipped = false;
                *k = s->cur;
                rc = 1;
            }
        }
        free(pl);
        return rc;
    }
}

static void wct_close_block(wc_source *src, void *block);

static void group_release(wct_group *g)
{
    if (g && --g->refs == 0) {
        free(g->data);
        free(g);
    }
}

/* Parses the block record at g->next into a new wct_block (taking a ref on g). */
static int parse_block(wct_source *s, wct_group *g, wct_block **out, uint64_t *id_out, wc_err *err)
{
    const wct_chunk *ch = &g->ch;
    const uint8_t *p = g->next, *end = g->end;
    uint64_t id;
    uint32_t nwarps;
    if (!get_uv(&p, end, &id) || !get_u32(&p, end, &nwarps))
        return WCT_FAIL(s, ch, "corrupt block header");
    if (nwarps != wc_kernel_warps_per_block(&s->cur))
        return WCT_FAIL(s, ch, "block %llu has %u warps, the kernel's blocks have %u",
                        (unsigned long long)id, nwarps, wc_kernel_warps_per_block(&s->cur));
    /* Reuse the last closed block when it has the right shape (one block is
     * opened and closed per thread block: saves an allocation each). */
    size_t bytes = sizeof(wct_block) + nwarps * sizeof(wct_warp);
    wct_block *b = s->spare;
    if (b && b->nwarps == nwarps) {
        s->spare = NULL;
        memset(b, 0, bytes);
    } else {
        b = calloc(1, bytes);
    }
    if (!b) return WCT_FAIL(s, ch, "out of memory");
    uint64_t total = 0;
    for (uint32_t w = 0; w < nwarps; w++) {
        uint64_t nb;
        if (!get_uv(&p, end, &b->w[w].left) || !get_uv(&p, end, &nb) || nb > ch->raw_len) {
            free(b);
            return WCT_FAIL(s, ch, "corrupt warp table");
        }
        b->w[w].end = (const uint8_t *)(uintptr_t)nb; /* length for now */
        total += nb;
        s->k_insts += b->w[w].left;
    }
    if (total > (uint64_t)(end - p)) {
        free(b);
        return WCT_FAIL(s, ch, "warp streams overrun the chunk");
    }
    for (uint32_t w = 0; w < nwarps; w++) {
        size_t nb = (size_t)(uintptr_t)b->w[w].end;
        b->w[w].p = p;
        b->w[w].end = p + nb;
        b->w[w].limit = end;
        p += nb;
    }
    b->nwarps = nwarps;
    s->k_blocks++;
    b->g = g;
    g->refs++;
    g->next = p;
    *out = b;
    *id_out = id;
    return 0;
}

/* Makes s->cur a group with an unread block record, reading the next chunk if needed. */
static int ensure_group(wct_source *s, uint64_t block_id, wc_err *err)
{
    if (s->grp && s->grp->next < s->grp->end) return 0;
    group_release(s->grp);
    s->grp = NULL;
    wct_chunk ch;
    if (read_chunk_header(s, &ch, err) < 0) return -1;
    if (ch.tag != TAG_BLCK)
        return WCT_FAIL(s, &ch, "block %llu missing (kernel %u ends early)",
                        (unsigned long long)block_id, s->cur.id);
    wct_group *g = calloc(1, sizeof *g);
    if (!g) return WCT_FAIL(s, &ch, "out of memory");
    g->data = read_payload(s, &ch, err);
    if (!g->data) {
        free(g);
        return -1;
    }
    g->ch = ch;
    g->next = g->data;
    g->end = g->data + ch.raw_len;
    g->refs = 1;
    s->grp = g;
    return 0;
}

static int wct_open_block(wc_source *src, uint64_t block_id, void **out, wc_err *err)
{
    wct_source *s = (wct_source *)src;
    if (!s->in_kernel) return wc_errf(err, "%s: open_block outside a kernel", s->name);
    for (;;) {
        if (ensure_group(s, block_id, err) < 0) return -1;
        wct_block *b = NULL;
        uint64_t id = 0;
        if (parse_block(s, s->grp, &b, &id, err) < 0) return -1;
        if (id == block_id) {
            *out = b;
            return 1;
        }
        wct_close_block(src, b);
        if (id > block_id)
            return WCT_FAIL(s, &s->grp->ch, "expected block %llu, found block %llu",
                            (unsigned long long)block_id, (unsigned long long)id);
        /* id < block_id: a block the engine skips. */
    }
}

static int wct_next_inst(wc_source *src, void *block, uint32_t warp, wc_winst *out, wc_err *err)
{
    wct_block *b = block;
    if (warp >= b->nwarps) return wc_errf(err, "wct: warp %u out of range", warp);
    wct_warp *w = &b->w[warp];
    if (!w->left) return 0;
    if (!decode_inst(&w->p, w->end, w->limit, out, &w->st))
        return wc_errf(err, "%s: corrupt instruction stream (warp %u)", ((wct_source *)src)->name,
                       warp);
    w->left--;
    return 1;
}

static void wct_close_block(wc_source *src, void *block)
{
    wct_source *s = (wct_source *)src;
    wct_block *b = block;
    if (!b) return;
    group_release(b->g);
    b->g = NULL;
    free(s->spare);
    s->spare = b;
}

static void wct_destroy(wc_source *src)
{
    wct_source *s = (wct_source *)src;
    if (s->f) fclose(s->f);
    group_release(s->grp);
    free(s->spare);
    wc_codec_ctx_free(s->cx);
    free(s);
}

static const wc_source_ops wct_ops = {
    .name = "wct",
    .next_kernel = wct_next_kernel,
    .open_block = wct_open_block,
    .next_inst = wct_next_inst,
    .close_block = wct_close_block,
    .destroy = wct_destroy,
};

static bool little_endian_host(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

wc_source *wc_wct_open_file(FILE *f, const char *name, wc_err *err)
{
    wct_source *s = calloc(1, sizeof *s);
    if (!s) {
        fclose(f);
        wc_errf(err, "out of memory");
        return NULL;
    }
    s->base.ops = &wct_ops;
    s->f = f;
    s->cx = wc_codec_ctx_new();
    snprintf(s->name, sizeof s->name, "%s", name);
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    uint8_t h[16];
    if (!little_endian_host()) {
        wc_errf(err, "%s: .wct needs a little-endian host", name);
    } else if (fread(h, 1, 16, f) != 16 || memcmp(h, WCT_MAGIC, 8) != 0) {
        wc_errf(err, "%s: not a .wct file (bad magic)", name);
    } else if (rd32(h + 8) != WCT_VERSION) {
        wc_errf(err, "%s: .wct version %u is not supported (this build reads version %u)", name,
                rd32(h + 8), WCT_VERSION);
    } else if (rd32(h + 12) != 0) {
        /* Reserved for a later version's flags: a file that sets them means
         * something this reader does not know. */
        wc_errf(err,
                "%s: .wct header's reserved word is 0x%08x, not 0 (corrupt file, or a "
                "later version's)",
                name, rd32(h + 12));
    } else {
        return &s->base;
    }
    wct_destroy(&s->base);
    return NULL;
}

/* ---- writer ------------------------------------------------------------- */

#define WCT_GROUP_BYTES (1u << 16) /* blocks are packed into chunks of about this size */

typedef struct wct_writer {
    FILE *f;
    const char *path;
    int codec;
    wc_codec_ctx *cx;
    wbuf streams, chunk, meta;
    uint64_t *warp_n, *warp_bytes;
} wct_writer;

static int flush_blocks(wct_writer *wr, wc_err *err)
{
    if (!wr->chunk.len) return 0;
    int rc =
        write_chunk(wr->f, wr->cx, TAG_BLCK, wr->codec, wr->chunk.p, wr->chunk.len, wr->path, err);
    wr->chunk.len = 0;
    return rc;
}

/* Appends block `id` as a record to the current BLCK chunk. */
static int write_block(wct_writer *wr, wc_source *src, const wc_kernel *k, uint64_t id,
                       uint64_t *ninst, wc_err *err)
{
    uint32_t nwarps = wc_kernel_warps_per_block(k);
    void *blk;
    if (src->ops->open_block(src, id, &blk, err) < 0) return -1;
    wr->streams.len = 0;
    wc_winst in;
    int rc = 0;
    for (uint32_t w = 0; w < nwarps && rc >= 0; w++) {
        wct_wstate st;
        memset(&st, 0, sizeof st);
        size_t start = wr->streams.len;
        uint64_t n = 0;
        while ((rc = src->ops->next_inst(src, blk, w, &in, err)) > 0) {
            encode_inst(&wr->streams, &in, &st);
            n++;
        }
        wr->warp_n[w] = n;
        wr->warp_bytes[w] = wr->streams.len - start;
        *ninst += n;
    }
    src->ops->close_block(src, blk);
    if (rc < 0) return -1;
    wbuf *c = &wr->chunk;
    put_uv(c, id);
    put_uv(c, nwarps);
    for (uint32_t w = 0; w < nwarps; w++) {
        put_uv(c, wr->warp_n[w]);
        put_uv(c, wr->warp_bytes[w]);
    }
    put_bytes(c, wr->streams.p, wr->streams.len);
    if (c->oom || wr->streams.oom) return wc_errf(err, "%s: out of memory", wr->path);
    return c->len >= WCT_GROUP_BYTES ? flush_blocks(wr, err) : 0;
}

static int write_kernel(wct_writer *wr, wc_source *src, const wc_kernel *k, wc_err *err)
{
    wbuf *c = &wr->meta;
    c->len = 0;
    size_t nl = strnlen(k->name, sizeof k->name - 1);
    put_uv(c, nl);
    put_bytes(c, k->name, nl);
    const uint32_t f[] = {k->id,      k->grid.x,  k->grid.y,      k->grid.z,         k->block.x,
                          k->block.y, k->block.z, k->shmem_bytes, k->regs_per_thread};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) put_uv(c, f[i]);
    if (c->oom) return wc_errf(err, "out of memory");
    if (write_chunk(wr->f, wr->cx, TAG_KERN, WC_CODEC_NONE, c->p, c->len, wr->path, err) < 0)
        return -1;
    uint32_t nwarps = wc_kernel_warps_per_block(k);
    free(wr->warp_n);
    free(wr->warp_bytes);
    wr->warp_n = calloc(nwarps ? nwarps : 1, sizeof *wr->warp_n);
    wr->warp_bytes = calloc(nwarps ? nwarps : 1, sizeof *wr->warp_bytes);
    if (!wr->warp_n || !wr->warp_bytes) return wc_errf(err, "out of memory");
    uint64_t nblocks = wc_dim3_count(k->grid), ninst = 0;
    for (uint64_t id = 0; id < nblocks; id++)
        if (write_block(wr, src, k, id, &ninst, err) < 0) return -1;
    if (flush_blocks(wr, err) < 0) return -1;
    c->len = 0;
    put_uv(c, nblocks);
    put_uv(c, ninst);
    if (c->oom) return wc_errf(err, "out of memory");
    return write_chunk(wr->f, wr->cx, TAG_KEND, WC_CODEC_NONE, c->p, c->len, wr->path, err);
}

int wc_wct_write(wc_source *src, const char *path, int codec, wc_err *err)
{
    if (codec < 0)
        codec = wc_codec_available(WC_CODEC_ZSTD)   ? WC_CODEC_ZSTD
                : wc_codec_available(WC_CODEC_ZLIB) ? WC_CODEC_ZLIB
                                                    : WC_CODEC_NONE;
    if (!wc_codec_available(codec))
        return wc_errf(err, "%s: codec %s is not available in this build", path,
                       wc_codec_name(codec));
    if (!little_endian_host()) return wc_errf(err, "%s: .wct needs a little-endian host", path);
    wct_writer wr = {0};
    wr.path = path;
    wr.codec = codec;
    wr.cx = wc_codec_ctx_new();
    wr.f = fopen(path, "wb");
    if (!wr.f) {
        wc_codec_ctx_free(wr.cx);
        return wc_errf(err, "%s: cannot create: %s", path, strerror(errno));
    }
    setvbuf(wr.f, NULL, _IOFBF, 1 << 20);
    uint8_t h[16] = {0};
    memcpy(h, WCT_MAGIC, 8);
    le32(h + 8, WCT_VERSION);
    int rc = fwrite(h, 1, 16, wr.f) == 16 ? 0 : wc_errf(err, "%s: write error", path);
    wc_kernel k;
    uint32_t nk = 0;
    while (rc == 0 && (rc = src->ops->next_kernel(src, &k, err)) > 0) {
        nk++;
        rc = write_kernel(&wr, src, &k, err) < 0 ? -1 : 0;
    }
    if (rc == 0) {
        wr.meta.len = 0;
        put_uv(&wr.meta, nk);
        rc = write_chunk(wr.f, wr.cx, TAG_TEND, WC_CODEC_NONE, wr.meta.p, wr.meta.len, path, err);
    }
    if (fclose(wr.f) != 0 && rc == 0) rc = wc_errf(err, "%s: write error", path);
    free(wr.streams.p);
    free(wr.chunk.p);
    free(wr.meta.p);
    wc_codec_ctx_free(wr.cx);
    free(wr.warp_n);
    free(wr.warp_bytes);
    return rc < 0 ? -1 : 0;
}
