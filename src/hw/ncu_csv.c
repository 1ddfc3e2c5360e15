/*
 * ncu_csv.c - reads Nsight Compute CSV exports into per-launch hardware
 * counters (ncu_csv.h), for `warpcache validate --hw`.
 *
 * ncu writes two CSV shapes, both read here:
 *
 *   details page (the default of `ncu --csv --metrics ...`): one row per
 *   launch and metric, with columns "ID", "Kernel Name", ..., "Metric Name",
 *   "Metric Unit", "Metric Value";
 *   raw page (`--page raw`): one row per launch, one column per metric, and a
 *   second header row of units whose "ID" is empty.
 *
 * Whatever the profiled program printed, and ncu's "==PROF==" lines, come
 * before the header, which is the first row whose first field is "ID".
 * Values may carry thousands separators in ncu's grouping ("1,048,576"; any
 * other comma is an error, not dropped), "n/a" for a metric
 * the GPU cannot collect (treated as absent), and, with ncu's default
 * --print-units auto, a scaled unit ("Kcycle", "Msector"), which is undone.
 * Fields are RFC 4180: quoted or not, "" inside quotes is one quote; a field
 * does not span lines.  Anything else is an error with file and line.
 */
#include "hw/ncu_csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FIELD_L1, FIELD_L2, FIELD_CYCLES, FIELD_SHMEM };

/* Recognised metrics; a higher rank is more specific and wins. */
static const struct metric {
    const char *name;
    int field;
    unsigned char rank;
    const char *unit; /* base unit; "%" is never scaled */
} metrics[] = {
    {"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", FIELD_L1, 2, "%"},
    {"l1tex__t_sector_hit_rate.pct", FIELD_L1, 1, "%"},
    {"lts__t_sectors_srcunit_tex_op_read.sum", FIELD_L2, 2, "sector"},
    {"lts__t_sectors_op_read.sum", FIELD_L2, 1, "sector"},
    {"gpc__cycles_elapsed.max", FIELD_CYCLES, 2, "cycle"},
    {"sm__cycles_elapsed.max", FIELD_CYCLES, 1, "cycle"},
    {"launch__shared_mem_config_size", FIELD_SHMEM, 1, "byte"},
};

const char wc_ncu_metrics_help[] =
    "  L1 hit rate:       l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct (global loads)\n"
    "                     or l1tex__t_sector_hit_rate.pct\n"
    "  L2 read sectors:   lts__t_sectors_srcunit_tex_op_read.sum or lts__t_sectors_op_read.sum\n"
    "  cycles:            gpc__cycles_elapsed.max or sm__cycles_elapsed.max\n"
    "  shared-memory carveout (shown, not compared): launch__shared_mem_config_size\n";

static const struct metric *find_metric(const char *name)
{
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
        if (strcmp(metrics[i].name, name) == 0) return &metrics[i];
    return NULL;
}

/* ---- CSV rows ------------------------------------------------------------ */

typedef struct row {
    char *buf;     /* unescaped fields, each NUL-terminated */
    size_t *off;   /* field i starts at buf + off[i] */
    size_t n, cap; /* fields */
    size_t buf_cap;
} row;

static int row_push(row *r, size_t at)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 32;
        size_t *p = realloc(r->off, cap * sizeof *p);
        if (!p) return -1;
        r->off = p;
        r->cap = cap;
    }
    r->off[r->n++] = at;
    return 0;
}

static const char *field(const row *r, size_t i)
{
    return i < r->n ? r->buf + r->off[i] : "";
}

/* Splits line[0..len) into r's fields.  -1: out of memory, -2: a quote
 * that is not closed or text after a closing quote. */
static int split_row(const char *line, size_t len, row *r)
{
    if (len + 1 > r->buf_cap) {
        char *b = realloc(r->buf, len + 1);
        if (!b) return -1;
        r->buf = b;
        r->buf_cap = len + 1;
    }
    r->n = 0;
    size_t i = 0, o = 0;
    for (;;) {
        if (row_push(r, o) < 0) return -1;
        if (i < len && line[i] == '"') {
            for (i++;; i++) {
                if (i >= len) return -2;
                if (line[i] == '"') {
                    if (i + 1 < len && line[i + 1] == '"') {
                        r->buf[o++] = '"';
                        i++;
                    } else {
                        i++;
                        break;
                    }
                } else {
                    r->buf[o++] = line[i];
                }
            }
            if (i < len && line[i] != ',') return -2;
        } else {
            while (i < len && line[i] != ',') {
                if (line[i] == '"') return -2;
                r->buf[o++] = line[i++];
            }
        }
        r->buf[o++] = '\0';
        if (i >= len) return 0;
        i++; /* the comma */
    }
}

/* ---- values ------------------------------------------------------------- */

/* Scale of a unit relative to the metric's base unit ("Kcycle" -> 1e3), or
 * 0 when the unit is not the base unit with an SI prefix.  An empty unit
 * (a file without a unit column) is the base unit. */
static double unit_scale(const char *unit, const char *base)
{
    if (!*unit || strcmp(unit, base) == 0) return 1;
    if (strcmp(base, "%") == 0) return 0;
    static const struct {
        char c;
        double f;
    } prefix[] = {{'K', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}};
    for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
        if (unit[0] == prefix[i].c && strcmp(unit + 1, base) == 0) return prefix[i].f;
    return 0;
}

/* Whether the integer part of `text` (up to '.', 'e' or the end) that holds
 * commas groups its digits the way Nsight Compute prints them: 1 to 3
 * digits, then groups of exactly 3 ("1,234,567").  Any other use of a comma
 * ("1,2,3,4", "12,34", ",123", "1,234.5,6") is not a thousands separator
 * and must not be dropped: "1,2,3,4" would silently become 1234. */
static bool commas_group_thousands(const char *text)
{
    const char *p = text;
    size_t lead = 0;
    while (isdigit((unsigned char)*p)) p++, lead++;
    if (lead < 1 || lead > 3) return false;
    while (*p == ',') {
        p++;
        for (int i = 0; i < 3; i++, p++)
            if (!isdigit((unsigned char)*p)) return false;
    }
    return !isdigit((unsigned char)*p) && !strchr(p, ',');
}

/* Parses a value with optional thousands separators; 1 ok, 0 "n/a" or
 * empty (absent), -1 not a number. */
static int parse_value(const char *text, double *out)
{
    if (!*text || strcmp(text, "n/a") == 0 || strcmp(text, "N/A") == 0) return 0;
    if (strchr(text, ',') && !commas_group_thousands(text)) return -1;
    char clean[128];
    size_t o = 0;
    for (const char *p = text; *p; p++) {
        if (*p == ',') continue;
        if (o + 1 >= sizeof clean) return -1;
        clean[o++] = *p;
    }
    clean[o] = '\0';
    char *end;
    double v = strtod(clean, &end);
    if (end == clean || *end || !isfinite(v) || v < 0) return -1;
    *out = v;
    return 1;
}

/* ---- kernels ------------------------------------------------------------ */

/* "void ns::f<int>(float *, int)" -> "f": the text before the argument list
 * and template arguments, without a return type or namespaces. */
static void base_name(const char *full, char *out, size_t cap)
{
    size_t end = strcspn(full, "(<");
    while (end > 0 && full[end - 1] == ' ') end--;
    size_t start = end;
    while (start > 0 && full[start - 1] != ' ' && full[start - 1] != ':') start--;
    size_t n = end - start;
    if (n >= cap) n = cap - 1;
    memcpy(out, full + start, n);
    out[n] = '\0';
}

typedef struct parser {
    const char *file;
    wc_hw_set *set;
    wc_err *err;
} parser;

/* The launch with ncu ID `id` (created on first sight, in file order). */
static wc_hw_kernel *launch(parser *p, const char *id, const char *name, unsigned line)
{
    wc_hw_set *s = p->set;
    for (size_t i = s->n; i-- > 0;)
        if (strcmp(s->k[i].id, id) == 0) return &s->k[i];
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        wc_hw_kernel *k = realloc(s->k, cap * sizeof *k);
        if (!k) return NULL;
        s->k = k;
        s->cap = cap;
    }
    wc_hw_kernel *k = &s->k[s->n++];
    memset(k, 0, sizeof *k);
    base_name(name, k->name, sizeof k->name);
    snprintf(k->id, sizeof k->id, "%s", id);
    k->line = line;
    k->l1_hit_pct = k->l2_read_sectors = k->cycles = k->shmem_config_bytes = NAN;
    return k;
}

/* Records metric m = text (unit `unit`) for launch k. */
static int record(parser *p, wc_hw_kernel *k, const struct metric *m, const char *text,
                  const char *unit, unsigned line)
{
    double v;
    int r = parse_value(text, &v);
    if (r < 0)
        return wc_errf(p->err, "%s:%u: metric %s: value '%s' is not a non-negative number", p->file,
                       line, m->name, text);
    if (r == 0) return 0;
    double scale = unit_scale(unit, m->unit);
    if (scale == 0)
        return wc_errf(p->err,
                       "%s:%u: metric %s: unit '%s' not understood (expected %s; export with "
                       "ncu --print-units base)",
                       p->file, line, m->name, unit, m->unit);
    v *= scale;
    if (m->field == FIELD_L1 && v > 100)
        return wc_errf(p->err, "%s:%u: metric %s: %g is not a percentage", p->file, line, m->name,
                       v);
    if (m->field == FIELD_SHMEM) { /* one metric, no precedence */
        k->shmem_config_bytes = v;
        return 0;
    }
    double *dst = m->field == FIELD_L1   ? &k->l1_hit_pct
                  : m->field == FIELD_L2 ? &k->l2_read_sectors
                                         : &k->cycles;
    unsigned char *rank = m->field == FIELD_L1   ? &k->l1_rank
                          : m->field == FIELD_L2 ? &k->l2_rank
                                                 : &k->cycles_rank;
    const char **name = m->field == FIELD_L1   ? &k->l1_metric
                        : m->field == FIELD_L2 ? &k->l2_metric
                                               : &k->cycles_metric;
    if (m->rank > *rank) {
        *dst = v;
        *rank = m->rank;
        *name = m->name;
    }
    return 0;
}

static long column(const row *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(field(r, i), name) == 0) return (long)i;
    return -1;
}

int wc_ncu_parse(const char *text, size_t len, const char *file, wc_hw_set *out, wc_err *err)
{
    memset(out, 0, sizeof *out);
    parser p = {file, out, err};
    row r = {0}, units = {0};
    int rc = -1;
    bool have_header = false, long_form = false, have_units = false;
    long c_id = 0, c_name = -1, c_mname = -1, c_munit = -1, c_mval = -1;
    const struct metric **wide = NULL; /* per column: its metric (raw page) */
    size_t n_cols = 0, n_values = 0;
    unsigned line = 0;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len, l = end - pos;
        const char *s = text + pos;
        pos = nl ? end + 1 : len;
        line++;
        if (l && s[l - 1] == '\r') l--;
        if (memchr(s, '\0', l)) {
            wc_errf(err, "%s:%u: a NUL byte: not a CSV text file", file, line);
            goto out;
        }
        if (!have_header) {
            /* before the header: the program's own output, ==PROF== lines */
            bool quoted = l >= 4 && memcmp(s, "\"ID\"", 4) == 0;
            bool plain = l >= 3 && memcmp(s, "ID,", 3) == 0;
            if (!quoted && !plain) continue;
        }
        if (l == 0) continue;
        int sr = split_row(s, l, &r);
        if (sr == -1) goto oom;
        if (sr == -2) {
            wc_errf(err, "%s:%u: malformed CSV: an unclosed quote or text after a closing quote",
                    file, line);
            goto out;
        }
        if (!have_header) {
            if (strcmp(field(&r, 0), "ID") != 0) continue;
            have_header = true;
            c_name = column(&r, "Kernel Name");
            c_mname = column(&r, "Metric Name");
            c_munit = column(&r, "Metric Unit");
            c_mval = column(&r, "Metric Value");
            if (c_name < 0) {
                wc_errf(err, "%s:%u: the header has no \"Kernel Name\" column", file, line);
                goto out;
            }
            long_form = c_mname >= 0 && c_mval >= 0;
            n_cols = r.n;
            if (!long_form) {
                wide = calloc(n_cols, sizeof *wide);
                if (!wide) goto oom;
                for (size_t i = 0; i < n_cols; i++) wide[i] = find_metric(field(&r, i));
            }
            continue;
        }
        if (r.n != n_cols) {
            wc_errf(err, "%s:%u: %zu fields, the header has %zu", file, line, r.n, n_cols);
            goto out;
        }
        const char *id = field(&r, (size_t)c_id);
        if (!*id) {
            /* the raw page's units row */
            if (long_form || have_units) {
                wc_errf(err, "%s:%u: a row without a launch ID", file, line);
                goto out;
            }
            row tmp = units;
            units = r;
            r = tmp;
            have_units = true;
            continue;
        }
        wc_hw_kernel *k = NULL;
        if (long_form) {
            const struct metric *m = find_metric(field(&r, (size_t)c_mname));
            if (!m) continue; /* other metrics and sections are not read */
            if (!(k = launch(&p, id, field(&r, (size_t)c_name), line))) goto oom;
            const char *unit = c_munit >= 0 ? field(&r, (size_t)c_munit) : "";
            if (record(&p, k, m, field(&r, (size_t)c_mval), unit, line) < 0) goto out;
            n_values++;
        } else {
            if (!(k = launch(&p, id, field(&r, (size_t)c_name), line))) goto oom;
            for (size_t i = 0; i < n_cols; i++) {
                if (!wide[i]) continue;
                const char *unit = have_units ? field(&units, i) : "";
                if (record(&p, k, wide[i], field(&r, i), unit, line) < 0) goto out;
                n_values++;
            }
        }
    }
    if (!have_header) {
        wc_errf(err, "%s: no Nsight Compute CSV header (a row starting with \"ID\") found", file);
        goto out;
    }
    if (n_values == 0) {
        wc_errf(err, "%s: none of the metrics validate reads is in the file; collect\n%s", file,
                wc_ncu_metrics_help);
        goto out;
    }
    rc = 0;
    goto out;
oom:
    wc_errf(err, "%s: out of memory", file);
out:
    free(r.buf);
    free(r.off);
    free(units.buf);
    free(units.off);
    free(wide);
    return rc;
}

int wc_ncu_read(const char *path, wc_hw_set *out, wc_err *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) return wc_errf(err, "%s: cannot open: %s", path, strerror(errno));
    enum { LIMIT = 64 << 20 };
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int rc = -1;
    if (!buf) {
        wc_errf(err, "%s: out of memory", path);
        goto out;
    }
    for (;;) {
        if (n == cap) {
            if (cap >= LIMIT) {
                wc_errf(err, "%s: larger than 64 MiB; export only the kernels to validate", path);
                goto out;
            }
            char *b = realloc(buf, cap * 2);
            if (!b) {
                wc_errf(err, "%s: out of memory", path);
                goto out;
            }
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        wc_errf(err, "%s: read error", path);
        goto out;
    }
    rc = wc_ncu_parse(buf, n, path, out, err);
out:
    free(buf);
    fclose(f);
    return rc;
}

void wc_hw_set_free(wc_hw_set *s)
{
    free(s->k);
    memset(s, 0, sizeof *s);
}
