/*
 * plot_labels.c - short category labels for bar charts (plot_labels.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot_labels.h"

/* A name split into its workload part and its trailing " [kernel]". */
typedef struct name_parts {
    const char *base;
    size_t base_len;
    const char *kernel; /* NULL: none */
    size_t kernel_len;
} name_parts;

static name_parts split_name(const char *s)
{
    size_t len = strlen(s);
    name_parts p = {s, len, NULL, 0};
    const char *open = strstr(s, " [");
    for (const char *o = open; o; o = strstr(o + 1, " [")) open = o; /* the last one */
    if (open && len >= 2 && s[len - 1] == ']' && open + 2 < s + len - 1) {
        p.base_len = (size_t)(open - s);
        p.kernel = open + 2;
        p.kernel_len = (size_t)(s + len - 1 - p.kernel);
    }
    return p;
}

static bool is_separator(char c)
{
    return c == '/' || c == ':' || c == ',' || c == '=' || c == ' ';
}

static size_t utf8_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += (s[i] & 0xC0) != 0x80;
    return c;
}

/* The length of the prefix every base shares, ending just after a
 * separator, shorter than every base. */
static size_t common_prefix(const name_parts *p, size_t n)
{
    size_t len = p[0].base_len;
    for (size_t i = 1; i < n; i++) {
        size_t k = 0;
        while (k < len && k < p[i].base_len && p[i].base[k] == p[0].base[k]) k++;
        len = k;
    }
    for (size_t i = 0; i < n; i++) {
        if (!p[i].base_len) return 0;
        if (len >= p[i].base_len) len = p[i].base_len - 1; /* leave one character at least */
    }
    while (len > 0 && !is_separator(p[0].base[len - 1])) len--;
    return len;
}

/* The length of the suffix every base shares after pre characters,
 * starting at a separator, leaving at least one character. */
static size_t common_suffix(const name_parts *p, size_t n, size_t pre)
{
    size_t len = p[0].base_len - pre;
    for (size_t i = 1; i < n; i++) {
        size_t k = 0, a = p[0].base_len, b = p[i].base_len;
        while (k < len && k < b - pre && p[i].base[b - 1 - k] == p[0].base[a - 1 - k]) k++;
        len = k;
    }
    for (size_t i = 0; i < n; i++) {
        if (p[i].base_len <= pre) return 0;
        if (len >= p[i].base_len - pre) len = p[i].base_len - pre - 1;
    }
    while (len > 0 && !is_separator(p[0].base[p[0].base_len - len])) len--;
    return len;
}

static bool same_bases(const name_parts *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!p[i].kernel || p[i].base_len != p[0].base_len ||
            memcmp(p[i].base, p[0].base, p[0].base_len) != 0)
            return false;
    return true;
}

/* "base [kernel]", "base" or "kernel" (base_len 0), malloc'd. */
static char *join(const char *base, size_t base_len, const name_parts *p)
{
    size_t n = base_len + p->kernel_len + 4;
    char *s = malloc(n);
    if (!s) return NULL;
    if (p->kernel && base_len)
        snprintf(s, n, "%.*s [%.*s]", (int)base_len, base, (int)p->kernel_len, p->kernel);
    else if (p->kernel)
        snprintf(s, n, "%.*s", (int)p->kernel_len, p->kernel);
    else
        snprintf(s, n, "%.*s", (int)base_len, base);
    return s;
}

/* Labels without the shared parts; *longest: the most characters of one. */
static int strip_shared(const name_parts *p, size_t n, char **out, size_t *longest)
{
    bool kernels_only = n > 1 && same_bases(p, n);
    size_t pre = n > 1 && !kernels_only ? common_prefix(p, n) : 0;
    size_t suf = n > 1 && !kernels_only ? common_suffix(p, n, pre) : 0;
    *longest = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = kernels_only ? 0 : p[i].base_len - pre - suf;
        if (!(out[i] = join(p[i].base + pre, len, &p[i]))) return -1;
        size_t c = utf8_chars(out[i], strlen(out[i]));
        if (c > *longest) *longest = c;
    }
    return 0;
}

/* The number of name i's workload part: 1 + the number of different
 * workload parts before its first occurrence (one workload, one number). */
static size_t workload_number(const name_parts *p, size_t i)
{
    size_t first = i;
    for (size_t j = 0; j < i; j++)
        if (p[j].base_len == p[i].base_len && memcmp(p[j].base, p[i].base, p[i].base_len) == 0) {
            first = j;
            break;
        }
    size_t num = 1;
    for (size_t j = 0; j < first; j++) {
        bool seen = false;
        for (size_t k = 0; k < j && !seen; k++)
            seen =
                p[k].base_len == p[j].base_len && memcmp(p[k].base, p[j].base, p[j].base_len) == 0;
        num += !seen;
    }
    return num;
}

/* Labels with the workload part numbered "1", "2", ... and the kernel, if
 * any, kept whole: it tells the kernels of one workload apart. */
static int number(const name_parts *p, size_t n, char **out)
{
    for (size_t i = 0; i < n; i++) {
        char num[24];
        int len = snprintf(num, sizeof num, "%zu", workload_number(p, i));
        free(out[i]);
        if (!(out[i] = join(num, (size_t)len, &p[i]))) return -1;
    }
    return 0;
}

void wc_plot_labels_free(char **labels, size_t n)
{
    for (size_t i = 0; labels && i < n; i++) free(labels[i]);
    free(labels);
}

char **wc_plot_labels_shorten(const char *const *full, size_t n, size_t max)
{
    name_parts *p = malloc((n ? n : 1) * sizeof *p);
    char **out = calloc(n ? n : 1, sizeof *out);
    size_t longest;
    if (!p || !out) goto fail;
    for (size_t i = 0; i < n; i++) p[i] = split_name(full[i] ? full[i] : "");
    if (strip_shared(p, n, out, &longest) < 0) goto fail;
    if (longest > max && number(p, n, out) < 0) goto fail;
    free(p);
    return out;
fail:
    free(p);
    wc_plot_labels_free(out, n);
    return NULL;
}

/* The length of s without a trailing " [kernel]" that t ends with too. */
static size_t without_shared_kernel(const char *s, const char *t)
{
    name_parts a = split_name(s), b = split_name(t);
    if (a.kernel && b.kernel && a.base_len && a.kernel_len == b.kernel_len &&
        memcmp(a.kernel, b.kernel, a.kernel_len) == 0)
        return a.base_len;
    return strlen(s);
}

size_t wc_plot_labels_key(const char *const *shown, const char *const *full, size_t n, char **keys,
                          char **names)
{
    size_t nk = 0;
    for (size_t i = 0; i < n; i++) {
        size_t ls = without_shared_kernel(shown[i], full[i]);
        size_t lf =
            ls == strlen(shown[i]) ? strlen(full[i]) : without_shared_kernel(full[i], shown[i]);
        bool seen = false;
        for (size_t k = 0; k < nk && !seen; k++)
            seen = strlen(keys[k]) == ls && strncmp(keys[k], shown[i], ls) == 0 &&
                   strlen(names[k]) == lf && strncmp(names[k], full[i], lf) == 0;
        if (seen) continue;
        keys[nk] = strndup(shown[i], ls), names[nk] = strndup(full[i], lf);
        if (!keys[nk] || !names[nk]) {
            for (size_t k = 0; k <= nk; k++) free(keys[k]), free(names[k]);
            return 0;
        }
        nk++;
    }
    return nk;
}
