/*
 * geom.c - GPGPU-Sim cache geometry strings <-> wc_cache_geom.
 *
 *   <ct>:<nsets>:<line>:<assoc>,<rp>:<wp>:<ap>:<wap>:<sif>,<mshr>:<entries>:<merge>,
 *   <missq>[:<fifo>[,<port>]]
 *
 * (shared/specs/formats.md section 3).  The string is split into its five
 * comma groups and their colon fields, so every error can name the field,
 * its value and what is allowed.  Two older spellings that GPGPU-Sim 3.x
 * configuration files use are accepted too: no cache-type field (a normal
 * cache) and no set-index letter (linear).  Formatting always writes the
 * full modern form, and only the optional trailing fields that were given.
 */
#include <stdio.h>
#include <string.h>

#include "config/config_internal.h"
#include "warpcache/cache.h"

/* Upper bounds that keep sizes far from overflow and allocations sane. */
#define GEOM_MAX_SETS  (1u << 20)
#define GEOM_MAX_LINE  4096u
#define GEOM_MAX_ASSOC 65536u
#define GEOM_MAX_QUEUE 65536u
#define GEOM_MAX_BYTES (1ull << 30)

typedef struct span {
    const char *s;
    size_t len;
} span;

/* Splits [s, s+len) at `sep` into at most `max` spans; returns the number of
 * pieces found (max + 1 means "too many"). */
static int split(span whole, char sep, span *out, int max)
{
    int n = 0;
    const char *p = whole.s, *end = whole.s + whole.len;
    for (;;) {
        const char *q = memchr(p, sep, (size_t)(end - p));
        if (n == max) return max + 1;
        out[n].s = p;
        out[n].len = q ? (size_t)(q - p) : (size_t)(end - p);
        n++;
        if (!q) return n;
        p = q + 1;
    }
}

static int parse_letter(span f, const char *what, char *out, wc_err *err)
{
    if (f.len != 1)
        return wc_errf(err, "%s \"%.*s\" must be a single letter", what, (int)f.len, f.s);
    *out = f.s[0];
    return 0;
}

static int parse_u32(span f, const char *what, uint32_t *out, wc_err *err)
{
    char buf[32];
    if (f.len >= sizeof buf)
        return wc_errf(err, "%s \"%.*s\" is too long for a number", what, (int)f.len, f.s);
    memcpy(buf, f.s, f.len);
    buf[f.len] = '\0';
    uint64_t v;
    const char *why = wc_cfg_parse_u64(buf, UINT32_MAX, &v);
    if (why) return wc_errf(err, "%s \"%s\" %s", what, buf, why);
    *out = (uint32_t)v;
    return 0;
}

/* Group 1: [ct:]nsets:line:assoc */
static int parse_shape(span grp, wc_cache_geom *g, wc_err *err)
{
    span f[4];
    int n = split(grp, ':', f, 4);
    if (n < 3 || n > 4)
        return wc_errf(err, "first group \"%.*s\" must be <type>:<sets>:<line bytes>:<ways>",
                       (int)grp.len, grp.s);
    int i = 0;
    g->type = 'N';
    if (n == 4 && parse_letter(f[i++], "cache type", &g->type, err) < 0) return -1;
    if (parse_u32(f[i++], "sets", &g->nsets, err) < 0) return -1;
    if (parse_u32(f[i++], "line size", &g->line_bytes, err) < 0) return -1;
    return parse_u32(f[i], "associativity", &g->assoc, err);
}

/* Group 2: rp:wp:ap:wap[:sif] */
static int parse_policies(span grp, wc_cache_geom *g, wc_err *err)
{
    span f[5];
    int n = split(grp, ':', f, 5);
    if (n < 4 || n > 5)
        return wc_errf(err,
                       "second group \"%.*s\" must be <replacement>:<write>:<allocate>:"
                       "<write-allocate>:<set index>",
                       (int)grp.len, grp.s);
    g->set_index = 'L';
    if (parse_letter(f[0], "replacement policy", &g->repl, err) < 0 ||
        parse_letter(f[1], "write policy", &g->write_policy, err) < 0 ||
        parse_letter(f[2], "allocation policy", &g->alloc_policy, err) < 0 ||
        parse_letter(f[3], "write-allocate policy", &g->write_alloc, err) < 0)
        return -1;
    if (n == 5 && parse_letter(f[4], "set index function", &g->set_index, err) < 0) return -1;
    return 0;
}

/* Group 3: mshr:entries:merge */
static int parse_mshr(span grp, wc_cache_geom *g, wc_err *err)
{
    span f[3];
    if (split(grp, ':', f, 3) != 3)
        return wc_errf(err, "third group \"%.*s\" must be <MSHR type>:<entries>:<max merge>",
                       (int)grp.len, grp.s);
    if (parse_letter(f[0], "MSHR type", &g->mshr_type, err) < 0 ||
        parse_u32(f[1], "MSHR entries", &g->mshr_entries, err) < 0 ||
        parse_u32(f[2], "MSHR max merge", &g->mshr_max_merge, err) < 0)
        return -1;
    return 0;
}

/* Group 4: missq[:fifo] */
static int parse_queues(span grp, wc_cache_geom *g, wc_err *err)
{
    span f[2];
    int n = split(grp, ':', f, 2);
    if (n > 2)
        return wc_errf(err, "fourth group \"%.*s\" must be <miss queue>[:<result fifo>]",
                       (int)grp.len, grp.s);
    if (parse_u32(f[0], "miss queue", &g->miss_queue, err) < 0) return -1;
    if (n == 2 && parse_u32(f[1], "result fifo", &g->result_fifo, err) < 0) return -1;
    return n;
}

/* Splits the five groups and parses their fields (syntax only). */
static int parse_groups(span whole, wc_cache_geom *g, wc_err *err)
{
    span grp[5];
    int ngroups = split(whole, ',', grp, 5);
    if (ngroups < 4 || ngroups > 5)
        return wc_errf(err,
                       "has %s than the 4 or 5 comma-separated groups of "
                       "<type>:<sets>:<line>:<ways>,<rp>:<wp>:<ap>:<wap>:<sif>,"
                       "<mshr>:<entries>:<merge>,<miss queue>[:<fifo>[,<port>]]",
                       ngroups < 4 ? "fewer" : "more");
    if (parse_shape(grp[0], g, err) < 0 || parse_policies(grp[1], g, err) < 0 ||
        parse_mshr(grp[2], g, err) < 0)
        return -1;
    int nq = parse_queues(grp[3], g, err);
    if (nq < 0) return -1;
    if (ngroups == 5 && nq != 2)
        return wc_errf(err,
                       "data port width \"%.*s\" needs the result fifo field before it "
                       "(<miss queue>:<fifo>,<port>)",
                       (int)grp[4].len, grp[4].s);
    if (ngroups == 5) return parse_u32(grp[4], "data port width", &g->data_port_width, err);
    return 0;
}

int wc_cache_geom_parse(const char *text, wc_cache_geom *out, wc_err *err)
{
    if (!text) return wc_errf(err, "cache geometry missing");
    span whole = {text, strlen(text)};
    while (whole.len && (whole.s[0] == ' ' || whole.s[0] == '\t')) whole.s++, whole.len--;
    while (whole.len && (whole.s[whole.len - 1] == ' ' || whole.s[whole.len - 1] == '\t'))
        whole.len--;
    if (whole.len == 4 && memcmp(whole.s, "none", 4) == 0)
        return wc_errf(err, "cache geometry \"none\" (no cache) is not modelled");

    wc_cache_geom g;
    memset(&g, 0, sizeof g);
    wc_err why;
    if (parse_groups(whole, &g, &why) < 0 || wc_cache_geom_check(&g, &why) < 0)
        return wc_errf(err, "cache geometry \"%.*s\": %s", (int)whole.len, whole.s, why.msg);
    memcpy(out, &g, sizeof g);
    return 0;
}

void wc_cache_geom_format(const wc_cache_geom *g, char *buf, size_t n)
{
    int len =
        snprintf(buf, n, "%c:%u:%u:%u,%c:%c:%c:%c:%c,%c:%u:%u,%u", g->type, g->nsets, g->line_bytes,
                 g->assoc, g->repl, g->write_policy, g->alloc_policy, g->write_alloc, g->set_index,
                 g->mshr_type, g->mshr_entries, g->mshr_max_merge, g->miss_queue);
    if (len < 0 || (size_t)len >= n) return;
    if (g->data_port_width)
        snprintf(buf + len, n - (size_t)len, ":%u,%u", g->result_fifo, g->data_port_width);
    else if (g->result_fifo)
        snprintf(buf + len, n - (size_t)len, ":%u", g->result_fifo);
}

/* ---- value checks ---------------------------------------------------- */

/* Is `c` one of `allowed`?  (A NUL letter never is.) */
static bool letter_in(char c, const char *allowed)
{
    return c && strchr(allowed, c);
}

static int check_letters(const wc_cache_geom *g, wc_err *err)
{
    if (!letter_in(g->type, "NS"))
        return wc_errf(err, "cache type '%c' is not allowed (N normal, S sectored)", g->type);
    char rp[2] = {g->repl, 0};
    if (!g->repl || !wc_repl_find(rp)) {
        /* The letters come from the policy registry (src/cache/repl.c). */
        char known[128] = "";
        size_t n, len = 0;
        const wc_repl_ops *const *all = wc_repl_list(&n);
        for (size_t i = 0; i < n && len + 32 < sizeof known; i++)
            if (all[i]->letter)
                len += (size_t)snprintf(known + len, sizeof known - len, "%s%c %s", len ? ", " : "",
                                        all[i]->letter, all[i]->name);
        return wc_errf(err, "replacement policy '%c' is not allowed (%s)", g->repl ? g->repl : '?',
                       known);
    }
    if (!letter_in(g->write_policy, "RBTEL"))
        return wc_errf(err,
                       "write policy '%c' is not allowed (R read-only, B write-back, "
                       "T write-through, E write-evict, L local write-back/global write-evict)",
                       g->write_policy);
    if (!letter_in(g->alloc_policy, "mfs"))
        return wc_errf(err,
                       "allocation policy '%c' is not allowed (m on miss, f on fill, "
                       "s streaming)",
                       g->alloc_policy);
    if (!letter_in(g->write_alloc, "NWFL"))
        return wc_errf(err,
                       "write-allocate policy '%c' is not allowed (N none, W write-allocate, "
                       "F fetch-on-write, L lazy fetch-on-read)",
                       g->write_alloc);
    if (!letter_in(g->set_index, "LHPX"))
        return wc_errf(err,
                       "set index function '%c' is not allowed (L linear, H Fermi hash, "
                       "P IPOLY, X xor)",
                       g->set_index);
    if (!letter_in(g->mshr_type, "AST"))
        return wc_errf(err,
                       "MSHR type '%c' is not allowed (A associative, S sectored, "
                       "T texture fifo)",
                       g->mshr_type);
    return 0;
}

static int check_sizes(const wc_cache_geom *g, wc_err *err)
{
    if (!wc_is_pow2(g->nsets) || g->nsets > GEOM_MAX_SETS)
        return wc_errf(err, "sets = %u: must be a power of two from 1 to %u", g->nsets,
                       GEOM_MAX_SETS);
    if (!wc_is_pow2(g->line_bytes) || g->line_bytes < 32 || g->line_bytes > GEOM_MAX_LINE)
        return wc_errf(err, "line size = %u: must be a power of two from 32 to %u bytes",
                       g->line_bytes, GEOM_MAX_LINE);
    if (g->type == 'S' && g->line_bytes > 512)
        return wc_errf(err,
                       "line size = %u: a sectored cache (type S) holds at most 16 sectors "
                       "of 32 B (lines up to 512 bytes)",
                       g->line_bytes);
    if (g->assoc < 1 || g->assoc > GEOM_MAX_ASSOC)
        return wc_errf(err, "associativity = %u: must be from 1 to %u", g->assoc, GEOM_MAX_ASSOC);
    uint64_t bytes = (uint64_t)g->nsets * g->line_bytes * g->assoc;
    if (bytes > GEOM_MAX_BYTES)
        return wc_errf(err, "capacity %u x %u x %u = %llu bytes exceeds 1 GiB", g->nsets,
                       g->line_bytes, g->assoc, (unsigned long long)bytes);
    if (g->set_index == 'H' && g->nsets != 32 && g->nsets != 64)
        return wc_errf(err, "set index function 'H' (Fermi hash) needs 32 or 64 sets, not %u",
                       g->nsets);
    return 0;
}

static int check_queue(uint32_t v, uint32_t min, const char *what, wc_err *err)
{
    if (v < min || v > GEOM_MAX_QUEUE)
        return wc_errf(err, "%s = %u: must be from %u to %u", what, v, min, GEOM_MAX_QUEUE);
    return 0;
}

int wc_cache_geom_check(const wc_cache_geom *g, wc_err *err)
{
    if (check_letters(g, err) < 0 || check_sizes(g, err) < 0) return -1;
    if (check_queue(g->mshr_entries, 1, "MSHR entries", err) < 0 ||
        check_queue(g->mshr_max_merge, 1, "MSHR max merge", err) < 0 ||
        check_queue(g->miss_queue, 1, "miss queue", err) < 0 ||
        check_queue(g->result_fifo, 0, "result fifo", err) < 0 ||
        check_queue(g->data_port_width, 0, "data port width", err) < 0)
        return -1;
    if (g->mshr_type == 'T' && g->result_fifo == 0)
        return wc_errf(err, "MSHR type 'T' (texture fifo) needs a result fifo size "
                            "(<miss queue>:<fifo>)");
    return 0;
}
