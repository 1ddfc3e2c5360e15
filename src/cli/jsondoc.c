/*
 * jsondoc.c - a strict recursive-descent JSON parser building a tree of
 * wc_jv (jsondoc.h).  Strict as RFC 8259 (no trailing commas, comments or
 * bare words), nesting bounded so a hostile file cannot exhaust the stack;
 * \u escapes are decoded to UTF-8 (surrogate pairs included).  Errors name
 * the line and what was expected.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsondoc.h"

#define MAX_DEPTH 64

typedef struct parser {
    const char *p;
    int line;
    wc_jv_err *err;
} parser;

static int fail(parser *ps, const char *what)
{
    if (ps->err->msg[0]) return -1; /* the first error is the one to report */
    ps->err->line = ps->line;
    snprintf(ps->err->msg, sizeof ps->err->msg, "%s", what);
    return -1;
}

static void ws(parser *ps)
{
    for (;; ps->p++) {
        if (*ps->p == '\n')
            ps->line++;
        else if (*ps->p != ' ' && *ps->p != '\t' && *ps->p != '\r')
            return;
    }
}

/* A growing byte buffer for strings. */
typedef struct buf {
    char *s;
    size_t n, cap;
} buf;

static int put(buf *b, char c)
{
    if (b->n + 1 >= b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 32;
        char *s = realloc(b->s, cap);
        if (!s) return -1;
        b->s = s, b->cap = cap;
    }
    b->s[b->n++] = c;
    b->s[b->n] = 0;
    return 0;
}

static int put_utf8(buf *b, uint32_t cp)
{
    if (cp < 0x80) return put(b, (char)cp);
    if (cp < 0x800) return put(b, (char)(0xC0 | cp >> 6)) | put(b, (char)(0x80 | (cp & 0x3F)));
    if (cp < 0x10000)
        return put(b, (char)(0xE0 | cp >> 12)) | put(b, (char)(0x80 | ((cp >> 6) & 0x3F))) |
               put(b, (char)(0x80 | (cp & 0x3F)));
    return put(b, (char)(0xF0 | cp >> 18)) | put(b, (char)(0x80 | ((cp >> 12) & 0x3F))) |
           put(b, (char)(0x80 | ((cp >> 6) & 0x3F))) | put(b, (char)(0x80 | (cp & 0x3F)));
}

static int hex4(parser *ps, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char h = *ps->p;
        int d = h >= '0' && h <= '9'                 ? h - '0'
                : (h | 32) >= 'a' && (h | 32) <= 'f' ? (h | 32) - 'a' + 10
                                                     : -1;
        if (d < 0) return fail(ps, "bad \\u escape in a string");
        v = v * 16 + (uint32_t)d;
        ps->p++;
    }
    *out = v;
    return 0;
}

static int escape(parser *ps, buf *b)
{
    char e = *ps->p++;
    const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
    const char *hit = e ? strchr(from, e) : NULL;
    if (hit) return put(b, to[hit - from]);
    if (e != 'u') return fail(ps, "bad escape in a string");
    uint32_t cp;
    if (hex4(ps, &cp) < 0) return -1;
    if (cp >= 0xD800 && cp < 0xDC00) { /* a surrogate pair */
        uint32_t lo;
        if (ps->p[0] != '\\' || ps->p[1] != 'u') return fail(ps, "unpaired surrogate in a string");
        ps->p += 2;
        if (hex4(ps, &lo) < 0) return -1;
        if (lo < 0xDC00 || lo > 0xDFFF) return fail(ps, "unpaired surrogate in a string");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return fail(ps, "unpaired surrogate in a string");
    }
    if (cp == 0) return fail(ps, "\\u0000 in a string");
    return put_utf8(b, cp);
}

static int string(parser *ps, char **out)
{
    buf b = {0};
    ps->p++; /* the opening quote */
    if (put(&b, 0) < 0) goto oom;
    b.n = 0;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c == 0) {
            free(b.s);
            return fail(ps, "unterminated string");
        }
        if (c < 0x20) {
            free(b.s);
            return fail(ps, "control character in a string");
        }
        ps->p++;
        int rc = c == '\\' ? escape(ps, &b) : put(&b, (char)c);
        if (rc < 0) {
            free(b.s);
            return ps->err->msg[0] ? -1 : fail(ps, "out of memory");
        }
    }
    ps->p++;
    *out = b.s;
    return 0;
oom:
    free(b.s);
    return fail(ps, "out of memory");
}

static int number(parser *ps, wc_jv *v)
{
    const char *s = ps->p;
    if (*s == '-') s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9') s++;
    else
        return fail(ps, "expected a value");
    if (*s == '.') {
        if (!(*++s >= '0' && *s <= '9')) return fail(ps, "bad number");
        while (*s >= '0' && *s <= '9') s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!(*s >= '0' && *s <= '9')) return fail(ps, "bad number");
        while (*s >= '0' && *s <= '9') s++;
    }
    v->type = WC_JV_NUM;
    v->num = strtod(ps->p, NULL);
    ps->p = s;
    return 0;
}

static int value(parser *ps, wc_jv *v, int depth);

static int add_kid(parser *ps, wc_jv *v, size_t *cap, wc_jv **slot)
{
    if (v->n == *cap) {
        size_t c = *cap ? *cap * 2 : 4;
        wc_jv *k = realloc(v->kids, c * sizeof *k);
        if (!k) return fail(ps, "out of memory");
        v->kids = k, *cap = c;
    }
    *slot = &v->kids[v->n++];
    memset(*slot, 0, sizeof **slot);
    return 0;
}

static int container(parser *ps, wc_jv *v, int depth)
{
    bool obj = *ps->p == '{';
    char close = obj ? '}' : ']';
    size_t cap = 0;
    v->type = obj ? WC_JV_OBJ : WC_JV_ARR;
    if (depth >= MAX_DEPTH) return fail(ps, "nested too deeply");
    ps->p++;
    ws(ps);
    if (*ps->p == close) {
        ps->p++;
        return 0;
    }
    for (;;) {
        wc_jv *k;
        char *key = NULL;
        ws(ps);
        if (obj) {
            if (*ps->p != '"') return fail(ps, "expected a member name in quotes");
            if (string(ps, &key) < 0) return -1;
            ws(ps);
            if (*ps->p != ':') {
                free(key);
                return fail(ps, "expected ':' after a member name");
            }
            ps->p++;
        }
        if (add_kid(ps, v, &cap, &k) < 0) {
            free(key);
            return -1;
        }
        k->key = key;
        if (value(ps, k, depth + 1) < 0) return -1;
        ws(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == close) {
            ps->p++;
            return 0;
        }
        return fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int value(parser *ps, wc_jv *v, int depth)
{
    ws(ps);
    v->line = ps->line;
    switch (*ps->p) {
    case '{':
    case '[': return container(ps, v, depth);
    case '"': v->type = WC_JV_STR; return string(ps, &v->str);
    case 't':
    case 'f':
    case 'n': {
        static const char *const words[] = {"true", "false", "null"};
        for (int i = 0; i < 3; i++)
            if (strncmp(ps->p, words[i], strlen(words[i])) == 0) {
                ps->p += strlen(words[i]);
                v->type = i == 2 ? WC_JV_NULL : WC_JV_BOOL;
                v->num = i == 0;
                return 0;
            }
        return fail(ps, "expected a value");
    }
    case 0: return fail(ps, "unexpected end of file");
    default: return number(ps, v);
    }
}

static void free_kids(wc_jv *v)
{
    for (size_t i = 0; i < v->n; i++) free_kids(&v->kids[i]);
    free(v->kids);
    free(v->str);
    free(v->key);
}

void wc_jv_free(wc_jv *v)
{
    if (!v) return;
    free_kids(v);
    free(v);
}

wc_jv *wc_jv_parse(const char **text, int *line, wc_jv_err *err)
{
    wc_jv *v = calloc(1, sizeof *v);
    parser ps = {*text, *line, err};
    err->msg[0] = 0;
    if (!v) {
        fail(&ps, "out of memory");
        return NULL;
    }
    if (value(&ps, v, 0) < 0) {
        wc_jv_free(v);
        return NULL;
    }
    ws(&ps);
    *text = ps.p, *line = ps.line;
    return v;
}

const wc_jv *wc_jv_get(const wc_jv *v, const char *key)
{
    if (!v || v->type != WC_JV_OBJ) return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->kids[i].key, key) == 0) return &v->kids[i];
    return NULL;
}

double wc_jv_num(const wc_jv *v)
{
    return v && v->type == WC_JV_NUM ? v->num : NAN;
}

const char *wc_jv_str(const wc_jv *v)
{
    return v && v->type == WC_JV_STR ? v->str : NULL;
}
