/*
 * test_trace_util.h - helpers shared by the trace tests (test_accelsim.c,
 * test_trc.c, test_wct.c, test_trace_corpus.c): temp folders, fixture files,
 * draining a source into a flat list of instructions, field-by-field
 * instruction comparison, and the check that a bad fixture is refused with a
 * given message.
 */
#ifndef WC_TESTS_TRACE_UTIL_H
#define WC_TESTS_TRACE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "warpcache/traceio.h"
#include "warpcache/workloads.h"

typedef struct tinst {
    uint32_t kernel; /* 0-based position in the source */
    uint64_t block;
    uint32_t warp;
    wc_winst in;
} tinst;

typedef struct tlist {
    tinst *v;
    size_t n, cap;
    wc_kernel k[16];
    uint32_t nk;
} tlist;

/* Drains src (blocks in order, warps one after the other).  Returns -1 and
 * leaves the message in err on error. */
static inline int tlist_drain(wc_source *src, tlist *l, wc_err *err)
{
    memset(l, 0, sizeof *l);
    wc_kernel k;
    int rc;
    while ((rc = src->ops->next_kernel(src, &k, err)) > 0) {
        if (l->nk < 16) l->k[l->nk] = k;
        uint32_t ki = l->nk++;
        uint32_t nw = wc_kernel_warps_per_block(&k);
        for (uint64_t b = 0; b < wc_dim3_count(k.grid); b++) {
            void *blk;
            if (src->ops->open_block(src, b, &blk, err) < 0) return -1;
            for (uint32_t w = 0; w < nw; w++) {
                for (;;) {
                    if (l->n == l->cap) {
                        l->cap = l->cap ? l->cap * 2 : 1024;
                        l->v = realloc(l->v, l->cap * sizeof *l->v);
                    }
                    tinst *t = &l->v[l->n];
                    memset(t, 0, sizeof *t);
                    int r = src->ops->next_inst(src, blk, w, &t->in, err);
                    if (r < 0) {
                        src->ops->close_block(src, blk);
                        return -1;
                    }
                    if (r == 0) break;
                    t->kernel = ki;
                    t->block = b;
                    t->warp = w;
                    l->n++;
                }
            }
            src->ops->close_block(src, blk);
        }
    }
    return rc;
}

static inline void tlist_free(tlist *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* Every field the engine uses; addresses compared on active lanes only
 * (inactive lanes of a list are undefined by trace.h). */
static inline bool winst_same(const wc_winst *a, const wc_winst *b)
{
    if (a->pc != b->pc || a->mask != b->mask || a->op != b->op || a->width != b->width ||
        a->flags != b->flags || a->amode != b->amode || a->ndst != b->ndst || a->nsrc != b->nsrc)
        return false;
    for (unsigned i = 0; i < a->ndst; i++)
        if (a->dst[i] != b->dst[i]) return false;
    for (unsigned i = 0; i < a->nsrc; i++)
        if (a->src[i] != b->src[i]) return false;
    if (a->amode == WC_ADDR_STRIDE && (a->base != b->base || a->stride != b->stride)) return false;
    if (a->amode != WC_ADDR_NONE)
        for (uint32_t m = a->mask; m; m &= m - 1)
            if (wc_winst_lane_addr(a, (unsigned)__builtin_ctz(m)) !=
                wc_winst_lane_addr(b, (unsigned)__builtin_ctz(m)))
                return false;
    return true;
}

static inline bool tlist_same(const tlist *a, const tlist *b)
{
    if (a->n != b->n || a->nk != b->nk) {
        fprintf(stderr, "lists differ in size: %zu/%u vs %zu/%u\n", a->n, a->nk, b->n, b->nk);
        return false;
    }
    for (size_t i = 0; i < a->n; i++) {
        const tinst *x = &a->v[i], *y = &b->v[i];
        if (x->kernel != y->kernel || x->block != y->block || x->warp != y->warp ||
            !winst_same(&x->in, &y->in)) {
            fprintf(stderr, "instruction %zu differs (kernel %u block %llu warp %u pc %llx)\n", i,
                    x->kernel, (unsigned long long)x->block, x->warp, (unsigned long long)x->in.pc);
            return false;
        }
    }
    for (uint32_t i = 0; i < a->nk && i < 16; i++) {
        const wc_kernel *p = &a->k[i], *q = &b->k[i];
        if (strcmp(p->name, q->name) || p->id != q->id || p->grid.x != q->grid.x ||
            p->grid.y != q->grid.y || p->grid.z != q->grid.z || p->block.x != q->block.x ||
            p->block.y != q->block.y || p->block.z != q->block.z ||
            p->shmem_bytes != q->shmem_bytes || p->regs_per_thread != q->regs_per_thread) {
            fprintf(stderr, "kernel %u header differs\n", i);
            return false;
        }
    }
    return true;
}

/* A fresh temp folder, removed by tmpdir_remove. */
static inline void tmpdir_make(char *buf, size_t cap)
{
    snprintf(buf, cap, "/tmp/wc_trace_test_XXXXXX");
    if (!mkdtemp(buf)) buf[0] = 0;
}

static inline void tmpdir_remove(const char *dir)
{
    char cmd[512];
    if (!dir[0] || strncmp(dir, "/tmp/wc_trace_test_", 19)) return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

static inline void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

#ifdef WC_HAVE_ZSTD
#include <zstd.h>
/* A compression bomb for the text readers: `head` (a valid trace start) as
 * one zstd frame, then `frames` frames of 8 lines of 1 MiB comment each
 * ("#aaa...", which the readers skip), so that the file is about 400 bytes
 * per 8 MiB of text (20000:1).  malloc'd; *len its size; NULL on failure. */
static inline unsigned char *zstd_comment_bomb(const char *head, unsigned frames, size_t *len)
{
    const size_t line = (1u << 20) - 1, n = 8 * line; /* WC_LINE_MAX counts the newline */
    char *text = malloc(n);
    size_t hlen = strlen(head);
    unsigned char *frame = malloc(ZSTD_compressBound(n)), *out = NULL;
    if (!text || !frame) goto done;
    for (size_t i = 0; i < 8; i++) {
        memset(text + i * line, 'a', line - 1);
        text[i * line] = '#';
        text[i * line + line - 1] = '\n';
    }
    size_t flen = ZSTD_compress(frame, ZSTD_compressBound(n), text, n, 1);
    size_t h = 0;
    out = ZSTD_isError(flen) ? NULL : malloc(ZSTD_compressBound(hlen) + (size_t)frames * flen);
    if (out) h = ZSTD_compress(out, ZSTD_compressBound(hlen), head, hlen, 1);
    if (!out || ZSTD_isError(h)) {
        free(out);
        out = NULL;
        goto done;
    }
    for (unsigned i = 0; i < frames; i++) memcpy(out + h + (size_t)i * flen, frame, flen);
    *len = h + (size_t)frames * flen;
done:
    free(text);
    free(frame);
    return out;
}
#endif

/* Opens an in-memory text trace. */
static inline wc_source *open_text(const char *text, wc_trace_format fmt, wc_err *err)
{
    return wc_trace_open_mem(text, strlen(text), fmt, err);
}

/* Checks that opening and reading the in-memory trace `text` of format fmt
 * fails with a message containing `what` (the reader may refuse at open or
 * while reading). */
static inline void expect_trace_error(const char *text, wc_trace_format fmt, const char *what)
{
    wc_err err = {{0}};
    wc_source *src = open_text(text, fmt, &err);
    int rc = -1;
    if (src) {
        tlist l;
        rc = tlist_drain(src, &l, &err);
        tlist_free(&l);
        wc_source_destroy(src);
    }
    CHECK_EQ(rc, -1);
    if (!strstr(err.msg, what)) fprintf(stderr, "message '%s' lacks '%s'\n", err.msg, what);
    CHECK(strstr(err.msg, what) != NULL);
}

#endif
