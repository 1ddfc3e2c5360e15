/*
 * cmd_merge.c - `warpcache merge OUT SHARD...`: joins the results files of
 * `sweep --shard I/N` runs (or of any sweeps of the same grid) into the one
 * file the serial sweep writes.
 *
 * Every sweep line carries its sweep's identity, its point index and key,
 * and a line's bytes do not depend on where it was simulated, so the merged
 * file is the input lines in point order, byte for byte.  What merge refuses
 * (exit 2, naming the file and line): a file that is not a regular file, a
 * line that is not a sweep line, a line without the sweep identity (an older
 * warpcache's), lines of two sweeps (their identities differ), a torn last
 * line (an interrupted shard: resume it first), a point given twice, one key
 * at two indices or two keys at one index, and missing points.  The total is not in the lines, so
 * points missing after the last one found are only caught with --points N; `sweep --resume` on the
 * merged file with the sweep's own options is the complete check (it runs nothing when nothing is
 * missing).  OUT is written whole or not at all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/results.h"

static const char merge_help[] =
    "usage: warpcache merge OUT SHARD... [--points N] [-q]\n"
    "\n"
    "Joins the results files of 'warpcache sweep --shard I/N' runs into OUT, in point\n"
    "order: the same bytes as the serial sweep's results file.\n"
    "\n"
    "%s"
    "\n"
    "Exit status: 0 ok, 2 bad input (a missing, duplicate or mismatched point; lines of\n"
    "different sweeps; a line that is not a sweep result; a SHARD that is not a regular\n"
    "file), 1 internal failure.\n";

typedef struct mline {
    size_t point;
    char *key;
    const char *text; /* into the file's buffer, with its newline */
    size_t len;
    size_t file, lineno;
} mline;

typedef struct merge {
    const char *out;
    const char **files;
    size_t nfiles;
    char **bufs;
    mline *lines;
    size_t n, cap;
    size_t points; /* --points; 0 = not given */
    bool quiet;
    /* the sweep of the first line read, and where that line is */
    char id[WC_SWEEP_ID_LEN + 1];
    size_t id_file, id_line;
} merge;

enum { O_POINTS = 1, O_QUIET };
static const wc_opt merge_table[] = {
    {O_POINTS, 0, "points", "N",
     "the sweep's number of points (printed by every shard); without it,\n"
     "points missing after the last one found cannot be detected",
     0},
    {O_QUIET, 'q', "quiet", NULL, "no summary on stderr", 0},
    {0},
};
static const wc_opt *const merge_tables[] = {merge_table, NULL};

/* --points N. */
static int parse_points(merge *m, const char *v)
{
    char *end = NULL;
    errno = 0;
    unsigned long long p = strtoull(v, &end, 10);
    if (errno || end == v || *end || *v == '-' || p == 0 || p > 1000000) {
        wc_cli_error("option --points: '%s' is not a point count from 1 to 1000000", v);
        return -1;
    }
    m->points = (size_t)p;
    return 0;
}

/* Out of memory is the program's failure, not the input's: exit 1. */
static int oom(void)
{
    wc_cli_error("out of memory");
    return -2;
}

static int parse(merge *m, int argc, char **argv)
{
    m->files = calloc((size_t)argc, sizeof *m->files);
    if (!m->files) return oom();
    wc_opts p;
    wc_opts_init(&p, "merge", merge_tables, argc, argv);
    for (int id; (id = wc_opts_next(&p)) != WC_OPT_DONE;) {
        switch (id) {
        case WC_OPT_HELP: wc_opts_print_help(merge_help, merge_tables); exit(0);
        case WC_OPT_BAD: return -1;
        case O_QUIET: m->quiet = true; break;
        case O_POINTS:
            if (parse_points(m, p.value) < 0) return -1;
            break;
        case WC_OPT_ARG:
            if (!m->out)
                m->out = p.value;
            else
                m->files[m->nfiles++] = p.value;
            break;
        }
    }
    if (!m->out || m->nfiles == 0) {
        wc_cli_error("merge: give OUT and at least one SHARD file (warpcache merge --help)");
        return -1;
    }
    return 0;
}

/* Reads one shard file's lines into m->lines. */
static int read_shard(merge *m, size_t fi)
{
    const char *path = m->files[fi];
    size_t len = 0;
    char *buf = wc_results_read(path, &len, NULL);
    if (!buf) return -1;
    m->bufs[fi] = buf;
    size_t lineno = 0;
    for (size_t at = 0; at < len;) {
        char *nl = memchr(buf + at, '\n', len - at);
        lineno++;
        if (!nl) {
            wc_cli_error("%s:%zu: incomplete last line (an interrupted shard: finish it with "
                         "'warpcache sweep ... --shard I/N --resume' first)",
                         path, lineno);
            return -1;
        }
        size_t ll = (size_t)(nl - (buf + at)) + 1;
        wc_results_head s;
        if (wc_results_scan_head(buf + at, ll - 1, &s) < 0 || !s.has_point) {
            wc_cli_error("%s:%zu: not a sweep result line (JSON object with schema_version, "
                         "sweep_id, point and key)",
                         path, lineno);
            return -1;
        }
        if (!s.has_sweep_id) {
            wc_cli_error("%s:%zu: a line without sweep_id, written by an older warpcache: "
                         "whether the shards belong to one sweep cannot be checked; run the "
                         "shards again",
                         path, lineno);
            return -1;
        }
        if (!m->id[0]) {
            memcpy(m->id, s.sweep_id, sizeof m->id);
            m->id_file = fi;
            m->id_line = lineno;
        } else if (strcmp(m->id, s.sweep_id) != 0) {
            wc_cli_error("%s:%zu: a point of sweep %s, but %s:%zu is of sweep %s: results of "
                         "different sweeps (another grid, inputs, configuration or warpcache "
                         "version)",
                         path, lineno, s.sweep_id, m->files[m->id_file], m->id_line, m->id);
            return -1;
        }
        if (m->n == m->cap) {
            m->cap = m->cap ? 2 * m->cap : 1024;
            mline *r = realloc(m->lines, m->cap * sizeof *r);
            if (!r) return oom();
            m->lines = r;
        }
        mline *l = &m->lines[m->n];
        if (!(l->key = strdup(s.key))) return oom();
        l->point = (size_t)s.point;
        l->text = buf + at;
        l->len = ll;
        l->file = fi;
        l->lineno = lineno;
        m->n++;
        at += ll;
    }
    return 0;
}

static int by_point(const void *a, const void *b)
{
    const mline *x = a, *y = b;
    if (x->point != y->point) return x->point < y->point ? -1 : 1;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

static int by_key(const void *a, const void *b)
{
    const mline *const *x = a, *const *y = b;
    int c = strcmp((*x)->key, (*y)->key);
    return c ? c : by_point(*x, *y);
}

/* Sorted by point: every index from 0 on exactly once, each key at one
 * index only. */
static int check(const merge *m)
{
    for (size_t i = 1; i < m->n; i++) {
        const mline *a = &m->lines[i - 1], *b = &m->lines[i];
        if (a->point != b->point) continue;
        if (strcmp(a->key, b->key) == 0)
            wc_cli_error("%s:%zu: point %zu appears twice (also %s:%zu): overlapping shards, or "
                         "one file given twice",
                         m->files[b->file], b->lineno, b->point, m->files[a->file], a->lineno);
        else
            wc_cli_error("%s:%zu: point %zu is '%s' here but '%s' in %s:%zu: slices of "
                         "different sweeps",
                         m->files[b->file], b->lineno, b->point, b->key, a->key, m->files[a->file],
                         a->lineno);
        return -1;
    }
    const mline **k = malloc((m->n ? m->n : 1) * sizeof *k);
    if (!k) return oom();
    for (size_t i = 0; i < m->n; i++) k[i] = &m->lines[i];
    qsort(k, m->n, sizeof *k, by_key);
    for (size_t i = 1; i < m->n; i++)
        if (strcmp(k[i - 1]->key, k[i]->key) == 0) {
            wc_cli_error("%s:%zu: '%s' is point %zu here but point %zu in %s:%zu: slices of "
                         "different sweeps",
                         m->files[k[i]->file], k[i]->lineno, k[i]->key, k[i]->point,
                         k[i - 1]->point, m->files[k[i - 1]->file], k[i - 1]->lineno);
            free(k);
            return -1;
        }
    free(k);
    size_t total = m->points ? m->points : (m->n ? m->lines[m->n - 1].point + 1 : 0);
    if (m->n && m->lines[m->n - 1].point >= total) {
        const mline *l = &m->lines[m->n - 1];
        wc_cli_error("%s:%zu: point %zu, but --points is %zu", m->files[l->file], l->lineno,
                     l->point, total);
        return -1;
    }
    if (m->n == total) return 0;
    /* name the first few missing points: enough to find the shard */
    char list[256] = "";
    size_t missing = total - m->n, shown = 0, used = 0;
    for (size_t p = 0, i = 0; p < total && shown < 8; p++) {
        if (i < m->n && m->lines[i].point == p) {
            i++;
            continue;
        }
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%zu", shown ? ", " : "", p);
        shown++;
    }
    wc_cli_error("merge: %zu of %zu points missing: %s%s (rerun the shard that holds them with "
                 "--resume)",
                 missing, total, list, missing > shown ? ", ..." : "");
    return -1;
}

static int write_out(const merge *m)
{
    wc_out out;
    if (wc_out_open(&out, m->out) < 0) return WC_EXIT_USAGE;
    for (size_t i = 0; i < m->n; i++) fwrite(m->lines[i].text, 1, m->lines[i].len, out.f);
    return wc_out_commit(&out) < 0 ? WC_EXIT_FAIL : WC_EXIT_OK;
}

int wc_cmd_merge(int argc, char **argv)
{
    merge m;
    memset(&m, 0, sizeof m);
    int rc = WC_EXIT_USAGE, r = 0;
    if ((r = parse(&m, argc, argv)) < 0) goto out;
    static const char *const opt[1] = {"OUT"};
    const char *outs[1] = {m.out};
    for (size_t i = 0; i < m.nfiles; i++)
        if (wc_out_check_not_input(m.files[i], outs, opt, 1) < 0) goto out;
    if (!(m.bufs = calloc(m.nfiles, sizeof *m.bufs))) {
        r = oom();
        goto out;
    }
    for (size_t i = 0; i < m.nfiles; i++)
        if ((r = read_shard(&m, i)) < 0) goto out;
    qsort(m.lines, m.n, sizeof *m.lines, by_point);
    if ((r = check(&m)) < 0) goto out;
    rc = write_out(&m);
    if (rc == WC_EXIT_OK && !m.quiet)
        fprintf(stderr, "warpcache: merge: %zu points from %zu files into %s\n", m.n, m.nfiles,
                m.out);
out:
    if (r == -2) rc = WC_EXIT_FAIL;
    for (size_t i = 0; i < m.n; i++) free(m.lines[i].key);
    for (size_t i = 0; m.bufs && i < m.nfiles; i++) free(m.bufs[i]);
    free(m.bufs);
    free(m.lines);
    free(m.files);
    return rc;
}
