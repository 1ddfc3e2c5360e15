/*
 * compress.c - see compress.h.  A wc_lreader is a FILE (a real file, or
 * fmemopen() over a caller's buffer) feeding an optional streaming
 * decompressor, feeding a line splitter.  All state lives in the reader.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/compress.h"

#ifdef WC_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef WC_HAVE_LZMA
#include <lzma.h>
#endif
#ifdef WC_HAVE_ZSTD
#include <zstd.h>
#endif

enum { KIND_PLAIN, KIND_GZIP, KIND_XZ, KIND_ZSTD };
#define IN_CAP  (1u << 16)
#define OUT_CAP (1u << 18)

struct wc_lreader {
    FILE *f;
    char name[512];
    int kind;
    bool in_eof, out_eof;
    unsigned char *in; /* compressed input buffer */
    size_t in_len, in_pos;
    char *buf; /* decompressed bytes not yet split into lines */
    size_t buf_len, buf_pos;
    char *line; /* current line (owned) */
    size_t line_cap;
    uint64_t lineno;
    uint64_t in_total;  /* bytes read from the file (compressed) */
    uint64_t out_total; /* bytes the decoder produced */
    uint64_t ratio_free;
    uint32_t ratio_max;
#ifdef WC_HAVE_ZLIB
    z_stream z;
    bool z_init;
#endif
#ifdef WC_HAVE_LZMA
    lzma_stream x;
    bool x_init;
#endif
#ifdef WC_HAVE_ZSTD
    ZSTD_DStream *zs;
    size_t zs_last; /* last hint: 0 when the last frame ended cleanly */
#endif
};

static int kind_from_magic(const unsigned char *m, size_t n)
{
    if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b) return KIND_GZIP;
    if (n >= 6 && !memcmp(m,
                          "\xfd"
                          "7zXZ\0",
                          6))
        return KIND_XZ;
    if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) return KIND_ZSTD;
    return KIND_PLAIN;
}

static const char *kind_lib(int kind)
{
    return kind == KIND_GZIP ? "gzip (zlib)" : kind == KIND_XZ ? "xz (liblzma)" : "zstd (libzstd)";
}

static int init_decoder(wc_lreader *r, wc_err *err)
{
    switch (r->kind) {
    case KIND_PLAIN: return 0;
#ifdef WC_HAVE_ZLIB
    case KIND_GZIP:
        memset(&r->z, 0, sizeof r->z);
        if (inflateInit2(&r->z, 15 + 32) != Z_OK)
            return wc_errf(err, "%s: cannot start gzip decoder", r->name);
        r->z_init = true;
        return 0;
#endif
#ifdef WC_HAVE_LZMA
    case KIND_XZ: {
        lzma_stream init = LZMA_STREAM_INIT;
        r->x = init;
        if (lzma_stream_decoder(&r->x, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
            return wc_errf(err, "%s: cannot start xz decoder", r->name);
        r->x_init = true;
        return 0;
    }
#endif
#ifdef WC_HAVE_ZSTD
    case KIND_ZSTD:
        r->zs = ZSTD_createDStream();
        r->zs_last = 1;
        if (!r->zs || ZSTD_isError(ZSTD_initDStream(r->zs)))
            return wc_errf(err, "%s: cannot start zstd decoder", r->name);
        return 0;
#endif
    default:
        return wc_errf(err,
                       "%s: file is %s-compressed but warpcache was built without %s "
                       "(install it: sh scripts/deps.sh, then rebuild)",
                       r->name, kind_lib(r->kind), kind_lib(r->kind));
    }
}

static wc_lreader *lreader_from_file(FILE *f, const char *name, wc_err *err)
{
    wc_lreader *r = calloc(1, sizeof *r);
    if (!r) {
        fclose(f);
        wc_errf(err, "%s: out of memory", name);
        return NULL;
    }
    r->f = f;
    snprintf(r->name, sizeof r->name, "%s", name);
    r->in = malloc(IN_CAP);
    r->buf = malloc(OUT_CAP);
    r->line_cap = 256;
    r->line = malloc(r->line_cap);
    if (!r->in || !r->buf || !r->line) {
        wc_lreader_close(r);
        wc_errf(err, "%s: out of memory", name);
        return NULL;
    }
    r->ratio_free = WC_LREADER_RATIO_FREE;
    r->ratio_max = WC_LREADER_RATIO_MAX;
    r->in_len = fread(r->in, 1, IN_CAP, f);
    r->in_total = r->in_len;
    if (ferror(f)) {
        wc_errf(err, "%s: read error: %s", name, strerror(errno));
        wc_lreader_close(r);
        return NULL;
    }
    r->in_eof = r->in_len < IN_CAP;
    r->kind = kind_from_magic(r->in, r->in_len);
    if (init_decoder(r, err) < 0) {
        wc_lreader_close(r);
        return NULL;
    }
    return r;
}

bool wc_trace_is_regular(const char *path, wc_err *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        wc_errf(err, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    if (S_ISREG(st.st_mode)) return true;
    /* A pipe would block, /dev/zero or /dev/urandom would never end. */
    wc_errf(err, "%s: not a regular file (a trace is a file, or a folder of them)", path);
    return false;
}

wc_lreader *wc_lreader_open(const char *path, wc_err *err)
{
    if (!wc_trace_is_regular(path, err)) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        wc_errf(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    return lreader_from_file(f, path, err);
}

wc_lreader *wc_lreader_open_mem(const char *name, const void *data, size_t len, wc_err *err)
{
    static const char empty[1] = {0};
    /* fmemopen rejects size 0 on some libcs: an empty input is one NUL-less byte range. */
    FILE *f = len ? fmemopen((void *)data, len, "rb") : fmemopen((void *)empty, 1, "rb");
    if (!f) {
        wc_errf(err, "%s: cannot open memory buffer", name);
        return NULL;
    }
    if (!len) fgetc(f); /* consume the placeholder byte */
    return lreader_from_file(f, name, err);
}

/* Refills the compressed input buffer when it is exhausted. */
static int refill_input(wc_lreader *r, wc_err *err)
{
    if (r->in_pos < r->in_len || r->in_eof) return 0;
    r->in_len = fread(r->in, 1, IN_CAP, r->f);
    r->in_pos = 0;
    r->in_total += r->in_len;
    if (ferror(r->f)) return wc_errf(err, "%s: read error", r->name);
    if (r->in_len < IN_CAP) r->in_eof = true;
    return 0;
}

/* Produces more decompressed bytes into buf[buf_len..]; sets out_eof at the end. */
static int decode(wc_lreader *r, wc_err *err)
{
    size_t room = OUT_CAP - r->buf_len;
    if (r->kind == KIND_PLAIN && r->in_pos >= r->in_len && !r->in_eof) {
        /* Plain text past the sniffed first block: read straight into the line
         * buffer, saving a copy. */
        size_t n = fread(r->buf + r->buf_len, 1, room, r->f);
        if (ferror(r->f)) return wc_errf(err, "%s: read error", r->name);
        if (n < room) r->in_eof = true;
        r->buf_len += n;
        return 0;
    }
    if (refill_input(r, err) < 0) return -1;
    if (r->kind == KIND_PLAIN) {
        size_t n = r->in_len - r->in_pos;
        if (n > room) n = room;
        memcpy(r->buf + r->buf_len, r->in + r->in_pos, n);
        r->in_pos += n;
        r->buf_len += n;
        if (!n && r->in_eof) r->out_eof = true;
        return 0;
    }
#ifdef WC_HAVE_ZLIB
    if (r->kind == KIND_GZIP) {
        r->z.next_in = r->in + r->in_pos;
        r->z.avail_in = (uInt)(r->in_len - r->in_pos);
        r->z.next_out = (unsigned char *)r->buf + r->buf_len;
        r->z.avail_out = (uInt)room;
        int rc = inflate(&r->z, Z_NO_FLUSH);
        size_t used = (r->in_len - r->in_pos) - r->z.avail_in;
        r->in_pos += used;
        r->buf_len += room - r->z.avail_out;
        if (rc == Z_STREAM_END) {
            /* Concatenated gzip members: restart if more input follows. */
            if (refill_input(r, err) < 0) return -1;
            if (r->in_pos < r->in_len) {
                if (inflateReset(&r->z) != Z_OK) return wc_errf(err, "%s: gzip reset", r->name);
            } else {
                r->out_eof = true;
            }
            return 0;
        }
        if (rc == Z_BUF_ERROR && r->in_eof && r->in_pos >= r->in_len)
            return wc_errf(err, "%s: truncated gzip data", r->name);
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return wc_errf(err, "%s: corrupt gzip data (%s)", r->name, r->z.msg ? r->z.msg : "?");
        if (!used && room == r->z.avail_out && r->in_eof && r->in_pos >= r->in_len)
            return wc_errf(err, "%s: truncated gzip data", r->name);
        return 0;
    }
#endif
#ifdef WC_HAVE_LZMA
    if (r->kind == KIND_XZ) {
        r->x.next_in = r->in + r->in_pos;
        r->x.avail_in = r->in_len - r->in_pos;
        r->x.next_out = (uint8_t *)r->buf + r->buf_len;
        r->x.avail_out = room;
        lzma_ret rc = lzma_code(&r->x, r->in_eof ? LZMA_FINISH : LZMA_RUN);
        r->in_pos = r->in_len - r->x.avail_in;
        r->buf_len += room - r->x.avail_out;
        if (rc == LZMA_STREAM_END) {
            r->out_eof = true;
            return 0;
        }
        if (rc == LZMA_BUF_ERROR) return wc_errf(err, "%s: truncated xz data", r->name);
        if (rc != LZMA_OK) return wc_errf(err, "%s: corrupt xz data (code %d)", r->name, (int)rc);
        return 0;
    }
#endif
#ifdef WC_HAVE_ZSTD
    if (r->kind == KIND_ZSTD) {
        ZSTD_inBuffer in = {r->in + r->in_pos, r->in_len - r->in_pos, 0};
        ZSTD_outBuffer out = {r->buf + r->buf_len, room, 0};
        size_t rc = ZSTD_decompressStream(r->zs, &out, &in);
        r->in_pos += in.pos;
        r->buf_len += out.pos;
        if (ZSTD_isError(rc))
            return wc_errf(err, "%s: corrupt zstd data (%s)", r->name, ZSTD_getErrorName(rc));
        if (in.pos || out.pos) {
            r->zs_last = rc;
        } else if (r->in_eof && r->in_pos >= r->in_len) {
            if (r->zs_last != 0) return wc_errf(err, "%s: truncated zstd data", r->name);
            r->out_eof = true;
        }
        return 0;
    }
#endif
    return wc_errf(err, "%s: no decoder", r->name);
}

/* decode(), then the expansion bound (compress.h): the bytes a decoder has
 * produced beyond ratio_free must stay within ratio_max times the compressed
 * bytes read.  Plain text is not counted: its memory and time are the file's
 * own size. */
static int produce(wc_lreader *r, wc_err *err)
{
    size_t before = r->buf_len;
    if (decode(r, err) < 0) return -1;
    if (r->kind == KIND_PLAIN) return 0;
    r->out_total += r->buf_len - before;
    if (r->out_total > r->ratio_free && r->out_total / r->ratio_max > r->in_total)
        return wc_errf(err,
                       "%s:%llu: %llu bytes decompressed from %llu: more than %u times the "
                       "compressed size beyond the first %llu MiB (a compression bomb?); a genuine "
                       "trace can be decompressed and read as plain text",
                       r->name, (unsigned long long)r->lineno + 1, (unsigned long long)r->out_total,
                       (unsigned long long)r->in_total, r->ratio_max,
                       (unsigned long long)(r->ratio_free >> 20));
    return 0;
}

void wc_lreader_set_ratio_limit(wc_lreader *r, uint64_t free_bytes, uint32_t max_ratio)
{
    r->ratio_free = free_bytes;
    r->ratio_max = max_ratio ? max_ratio : 1;
}

static int line_append(wc_lreader *r, size_t *len, const char *src, size_t n, wc_err *err)
{
    if (*len + n + 1 > WC_LINE_MAX)
        return wc_errf(err, "%s:%llu: line longer than %u bytes (not a text trace?)", r->name,
                       (unsigned long long)r->lineno + 1, WC_LINE_MAX);
    if (*len + n + 1 > r->line_cap) {
        size_t cap = r->line_cap * 2;
        while (cap < *len + n + 1) cap *= 2;
        char *p = realloc(r->line, cap);
        if (!p) return wc_errf(err, "%s: out of memory", r->name);
        r->line = p;
        r->line_cap = cap;
    }
    memcpy(r->line + *len, src, n);
    *len += n;
    return 0;
}

/* Strips a trailing "\r", terminates and returns the line at `p`. */
static inline int line_done(wc_lreader *r, char *p, size_t len, char **line, size_t *len_out)
{
    if (len && p[len - 1] == '\r') len--;
    p[len] = 0;
    r->lineno++;
    *line = p;
    if (len_out) *len_out = len;
    return 1;
}

int wc_lreader_next(wc_lreader *r, char **line, size_t *len_out, wc_err *err)
{
    size_t len = 0;
    bool any = false;
    for (;;) {
        if (r->buf_pos < r->buf_len) {
            char *start = r->buf + r->buf_pos;
            size_t avail = r->buf_len - r->buf_pos;
            char *nl = memchr(start, '\n', avail);
            if (nl && !any) {
                /* The whole line is in the buffer: hand it out in place (no copy).
                 * The buffer is only refilled once fully consumed, so the line stays
                 * valid until the next call.  OUT_CAP < WC_LINE_MAX: no length check. */
                size_t n = (size_t)(nl - start);
                r->buf_pos += n + 1;
                return line_done(r, start, n, line, len_out);
            }
            size_t n = nl ? (size_t)(nl - start) : avail;
            if (line_append(r, &len, start, n, err) < 0) return -1;
            any = true;
            r->buf_pos += n + (nl ? 1 : 0);
            if (nl) break;
            continue;
        }
        if (r->out_eof) {
            if (!any) return 0;
            break;
        }
        r->buf_len = r->buf_pos = 0;
        if (produce(r, err) < 0) return -1;
    }
    return line_done(r, r->line, len, line, len_out);
}

uint64_t wc_lreader_lineno(const wc_lreader *r)
{
    return r->lineno;
}

const char *wc_lreader_name(const wc_lreader *r)
{
    return r->name;
}

void wc_lreader_close(wc_lreader *r)
{
    if (!r) return;
#ifdef WC_HAVE_ZLIB
    if (r->z_init) inflateEnd(&r->z);
#endif
#ifdef WC_HAVE_LZMA
    if (r->x_init) lzma_end(&r->x);
#endif
#ifdef WC_HAVE_ZSTD
    if (r->zs) ZSTD_freeDStream(r->zs);
#endif
    if (r->f) fclose(r->f);
    free(r->in);
    free(r->buf);
    free(r->line);
    free(r);
}

/* ---- buffer codecs (.wct chunks) --------------------------------------- */

bool wc_codec_available(int codec)
{
    switch (codec) {
    case WC_CODEC_NONE: return true;
#ifdef WC_HAVE_ZLIB
    case WC_CODEC_ZLIB: return true;
#endif
#ifdef WC_HAVE_ZSTD
    case WC_CODEC_ZSTD: return true;
#endif
    default: return false;
    }
}

const char *wc_codec_name(int codec)
{
    return codec == WC_CODEC_NONE   ? "none"
           : codec == WC_CODEC_ZLIB ? "zlib"
           : codec == WC_CODEC_ZSTD ? "zstd"
                                    : "?";
}

struct wc_codec_ctx {
#ifdef WC_HAVE_ZSTD
    ZSTD_CCtx *cc;
    ZSTD_DCtx *dc;
#endif
    int unused;
};

wc_codec_ctx *wc_codec_ctx_new(void)
{
    return calloc(1, sizeof(wc_codec_ctx));
}

void wc_codec_ctx_free(wc_codec_ctx *c)
{
    if (!c) return;
#ifdef WC_HAVE_ZSTD
    ZSTD_freeCCtx(c->cc);
    ZSTD_freeDCtx(c->dc);
#endif
    free(c);
}

long wc_codec_compress(wc_codec_ctx *ctx, int codec, const void *src, size_t n, void **dst,
                       wc_err *err)
{
    *dst = NULL;
    (void)ctx;
#ifdef WC_HAVE_ZSTD
    if (codec == WC_CODEC_ZSTD) {
        size_t cap = ZSTD_compressBound(n);
        void *out = malloc(cap ? cap : 1);
        if (!out) return wc_errf(err, "out of memory");
        if (ctx && !ctx->cc) ctx->cc = ZSTD_createCCtx();
        size_t rc = ctx && ctx->cc ? ZSTD_compressCCtx(ctx->cc, out, cap, src, n, 1)
                                   : ZSTD_compress(out, cap, src, n, 1);
        if (ZSTD_isError(rc)) {
            free(out);
            return wc_errf(err, "zstd: %s", ZSTD_getErrorName(rc));
        }
        *dst = out;
        return (long)rc;
    }
#endif
#ifdef WC_HAVE_ZLIB
    if (codec == WC_CODEC_ZLIB) {
        uLongf cap = compressBound((uLong)n);
        void *out = malloc(cap ? cap : 1);
        if (!out) return wc_errf(err, "out of memory");
        if (compress2(out, &cap, src, (uLong)n, 1) != Z_OK) {
            free(out);
            return wc_errf(err, "zlib: compression failed");
        }
        *dst = out;
        return (long)cap;
    }
#endif
    (void)src;
    (void)n;
    return wc_errf(err, "codec %s is not available in this build", wc_codec_name(codec));
}

int wc_codec_decompress(wc_codec_ctx *ctx, int codec, const void *src, size_t n, void *dst,
                        size_t raw, wc_err *err)
{
    (void)ctx;
#ifdef WC_HAVE_ZSTD
    if (codec == WC_CODEC_ZSTD) {
        if (ctx && !ctx->dc) ctx->dc = ZSTD_createDCtx();
        size_t rc = ctx && ctx->dc ? ZSTD_decompressDCtx(ctx->dc, dst, raw, src, n)
                                   : ZSTD_decompress(dst, raw, src, n);
        if (ZSTD_isError(rc) || rc != raw) return wc_errf(err, "corrupt zstd chunk");
        return 0;
    }
#endif
#ifdef WC_HAVE_ZLIB
    if (codec == WC_CODEC_ZLIB) {
        uLongf out = (uLongf)raw;
        if (uncompress(dst, &out, src, (uLong)n) != Z_OK || out != raw)
            return wc_errf(err, "corrupt zlib chunk");
        return 0;
    }
#endif
    (void)src;
    (void)n;
    (void)dst;
    (void)raw;
    return wc_errf(err, "chunk compressed with %s, which this build lacks", wc_codec_name(codec));
}
