/*
 * jsonscan.c - a small strict JSON reader for the files warpcache writes
 * itself (sweep results): it checks that a text is exactly one JSON value
 * and reports every scalar with its dotted path ("totals.cycles",
 * "params.l1_assoc"), strings unescaped.  Arrays are accepted and their
 * elements reported under the array's path.  No allocation; nesting is
 * bounded.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonscan.h"

#define MAX_DEPTH 16

typedef struct scan {
    const char *p, *end;
    wc_json_scalar_fn fn;
    void *ctx;
    char path[512];
    int depth;
} scan;

static void ws(scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\n'))
        s->p++;
}

/* Reads a string into out (truncated to n-1 bytes, escapes decoded). */
static int string(scan *s, char *out, size_t n)
{
    size_t len = 0;
    if (s->p >= s->end || *s->p != '"') return -1;
    s->p++;
    while (s->p < s->end && *s->p != '"') {
        char c = *s->p++;
        if ((unsigned char)c < 0x20) return -1;
        if (c == '\\') {
            if (s->p >= s->end) return -1;
            char e = *s->p++;
            switch (e) {
            case '"':
            case '\\':
            case '/': c = e; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u': {
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    if (s->p >= s->end || !isxdigit((unsigned char)*s->p)) return -1;
                    char h = *s->p++;
                    v = v * 16 +
                        (unsigned)(isdigit((unsigned char)h) ? h - '0' : (h | 32) - 'a' + 10);
                }
                c = v < 0x80 ? (char)v : '?'; /* our writers escape control characters only */
                break;
            }
            default: return -1;
            }
        }
        if (len + 1 < n) out[len++] = c;
    }
    if (s->p >= s->end) return -1;
    s->p++;
    if (n) out[len] = 0;
    return 0;
}

static int value(scan *s);

static int literal(scan *s, char *out, size_t n)
{
    const char *b = s->p;
    if (s->p < s->end && (*s->p == '-' || isdigit((unsigned char)*s->p))) {
        char *endp;
        char tmp[64];
        size_t len = 0;
        while (s->p < s->end && strchr("+-0123456789.eE", *s->p) && len + 1 < sizeof tmp)
            tmp[len++] = *s->p++;
        tmp[len] = 0;
        (void)strtod(tmp, &endp);
        if (*endp || len == 0) return -1;
    } else {
        static const char *const words[] = {"true", "false", "null"};
        size_t i;
        for (i = 0; i < 3; i++) {
            size_t wl = strlen(words[i]);
            if ((size_t)(s->end - s->p) >= wl && memcmp(s->p, words[i], wl) == 0) {
                s->p += wl;
                break;
            }
        }
        if (i == 3) return -1;
    }
    snprintf(out, n, "%.*s", (int)(s->p - b), b);
    return 0;
}

static int members(scan *s, bool object)
{
    char close = object ? '}' : ']';
    size_t base = strlen(s->path);
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
        return 0;
    }
    for (;;) {
        ws(s);
        if (object) {
            char key[128];
            if (string(s, key, sizeof key) < 0) return -1;
            snprintf(s->path + base, sizeof s->path - base, "%s%s", base ? "." : "", key);
            ws(s);
            if (s->p >= s->end || *s->p != ':') return -1;
            s->p++;
        }
        if (value(s) < 0) return -1;
        s->path[base] = 0;
        ws(s);
        if (s->p < s->end && *s->p == ',') {
            s->p++;
            continue;
        }
        if (s->p < s->end && *s->p == close) {
            s->p++;
            return 0;
        }
        return -1;
    }
}

static int value(scan *s)
{
    ws(s);
    if (s->p >= s->end) return -1;
    if (*s->p == '{' || *s->p == '[') {
        if (++s->depth > MAX_DEPTH) return -1;
        int rc = members(s, *s->p == '{');
        s->depth--;
        return rc;
    }
    char text[4096];
    bool is_string = *s->p == '"';
    if ((is_string ? string(s, text, sizeof text) : literal(s, text, sizeof text)) < 0) return -1;
    if (s->fn) s->fn(s->ctx, s->path, text, is_string);
    return 0;
}

int wc_json_scan(const char *text, size_t len, wc_json_scalar_fn fn, void *ctx)
{
    scan s = {text, text + len, fn, ctx, "", 0};
    if (value(&s) < 0) return -1;
    ws(&s);
    return s.p == s.end ? 0 : -1;
}
