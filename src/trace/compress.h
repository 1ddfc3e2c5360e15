/*
 * compress.h - byte and line readers over plain, gzip, xz and zstd inputs.
 *
 * The text trace readers (Accel-Sim, .trc) pull lines through wc_lreader,
 * which detects the compression from the file's first bytes (magic numbers,
 * not the name) and decompresses with zlib / liblzma / libzstd when the build
 * found them (WC_HAVE_ZLIB / WC_HAVE_LZMA / WC_HAVE_ZSTD).  Without the
 * library, opening such a file is a clear error.  Memory is bounded: one
 * decompression buffer plus the longest line (capped at WC_LINE_MAX).
 * Expansion is bounded too: past the first WC_LREADER_RATIO_FREE bytes, a
 * compressed file may produce at most WC_LREADER_RATIO_MAX bytes per byte
 * read (docs/traces.md, "Limits"), so a small file cannot stand for
 * gigabytes of trace for the readers to hold and simulate.
 *
 * The same module offers one-shot buffer codecs for the native .wct format's
 * per-chunk compression.
 */
#ifndef WC_TRACE_COMPRESS_H
#define WC_TRACE_COMPRESS_H

#include <stdio.h>

#include "warpcache/common.h"

#define WC_LINE_MAX (1u << 20) /* longest accepted text line */
/* The expansion bound.  Gzip cannot exceed 1032:1; the most regular trace
 * measured (warpcache's own micro/colcopy:h=1024,w=32768 as Accel-Sim text,
 * 89 MB) compresses 2275:1 with zstd -19 --long, 364:1 with xz -9, and a real
 * NVBit trace about 77:1; a zstd file of runs reaches 32768:1. */
#define WC_LREADER_RATIO_FREE (1ull << 30)
#define WC_LREADER_RATIO_MAX  8192u

typedef struct wc_lreader wc_lreader;

/* Whether path is a regular file; false with the reason in err (a pipe, a
 * device, a folder where a file is meant).  Every trace reader opens its
 * files only after this check. */
bool wc_trace_is_regular(const char *path, wc_err *err);
/* Opens a file by path ("-" is not special); refuses a non-regular file. */
wc_lreader *wc_lreader_open(const char *path, wc_err *err);
/* Reads from a caller-owned memory buffer (fuzzers, tests); `name` is used in messages. */
wc_lreader *wc_lreader_open_mem(const char *name, const void *data, size_t len, wc_err *err);
/* Next line without its "\n" / "\r\n", NUL-terminated and writable until the
 * next call.  1 = line, 0 = end of input, -1 = error. */
int wc_lreader_next(wc_lreader *r, char **line, size_t *len, wc_err *err);
/* 1-based number of the line last returned. */
uint64_t wc_lreader_lineno(const wc_lreader *r);
const char *wc_lreader_name(const wc_lreader *r);
/* Replaces the expansion bound's defaults (tests use smaller ones). */
void wc_lreader_set_ratio_limit(wc_lreader *r, uint64_t free_bytes, uint32_t max_ratio);
void wc_lreader_close(wc_lreader *r);

/* Buffer codecs for .wct chunks. */
enum wc_codec { WC_CODEC_NONE = 0, WC_CODEC_ZLIB = 1, WC_CODEC_ZSTD = 2 };
bool wc_codec_available(int codec);
const char *wc_codec_name(int codec);
/* Reusable codec state (zstd contexts are costly to create per chunk). */
typedef struct wc_codec_ctx wc_codec_ctx;
wc_codec_ctx *wc_codec_ctx_new(void);
void wc_codec_ctx_free(wc_codec_ctx *c);
/* Compresses src into a malloc'd *dst; returns its size or -1.  ctx may be NULL. */
long wc_codec_compress(wc_codec_ctx *ctx, int codec, const void *src, size_t n, void **dst,
                       wc_err *err);
/* Decompresses exactly `raw` bytes into dst (capacity raw); -1 on any mismatch. */
int wc_codec_decompress(wc_codec_ctx *ctx, int codec, const void *src, size_t n, void *dst,
                        size_t raw, wc_err *err);

#endif
