/*
 * traceio.c - the public trace API of traceio.h: format detection, opening
 * by path or from memory, kernel filters, writer dispatch and trace
 * summaries.  The formats themselves live in accelsim.c, trc.c and wct.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "trace/formats.h"

const char *wc_trace_format_name(wc_trace_format f)
{
    switch (f) {
    case WC_TRACE_ACCELSIM: return "accelsim";
    case WC_TRACE_TRC: return "trc";
    case WC_TRACE_WCT: return "wct";
    default: return "auto";
    }
}

wc_trace_format wc_trace_format_parse(const char *name)
{
    if (!strcmp(name, "accelsim")) return WC_TRACE_ACCELSIM;
    if (!strcmp(name, "trc")) return WC_TRACE_TRC;
    if (!strcmp(name, "wct")) return WC_TRACE_WCT;
    return WC_TRACE_AUTO;
}

/* ---- kernel filter ------------------------------------------------------ */

/* Walks "1,3,5-7"; returns false on bad syntax; *hit when id is listed. */
static bool ids_scan(const char *s, uint32_t id, bool *hit)
{
    *hit = false;
    while (*s) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9') return false;
        unsigned long long a = strtoull(s, &end, 10), b = a;
        if (errno || a > UINT32_MAX) return false;
        s = end;
        if (*s == '-') {
            s++;
            if (*s < '0' || *s > '9') return false;
            b = strtoull(s, &end, 10);
            if (errno || b > UINT32_MAX || b < a) return false;
            s = end;
        }
        if (id >= a && id <= b) *hit = true;
        if (*s == ',') {
            s++;
            if (!*s) return false;
        } else if (*s) {
            return false;
        }
    }
    return true;
}

static bool glob_match(const char *p, const char *s)
{
    const char *star = NULL, *retry = NULL;
    while (*s) {
        if (*p == '*') {
            star = ++p;
            retry = s;
        } else if (*p == '?' || *p == *s) {
            p++;
            s++;
        } else if (star) {
            p = star;
            s = ++retry;
        } else {
            return false;
        }
    }
    while (*p == '*') p++;
    return !*p;
}

int wc_kernel_filter_check(const wc_kernel_filter *f, wc_err *err)
{
    bool hit;
    if (f && f->ids && *f->ids && !ids_scan(f->ids, 0, &hit))
        return wc_errf(err, "kernel id list '%s': expected ids and ranges like 1,3,5-7", f->ids);
    return 0;
}

bool wc_kernel_filter_match(const wc_kernel_filter *f, const wc_kernel *k)
{
    if (!f) return true;
    bool hit;
    if (f->ids && *f->ids && (!ids_scan(f->ids, k->id, &hit) || !hit)) return false;
    if (f->name && *f->name) {
        if (strpbrk(f->name, "*?")) return glob_match(f->name, k->name);
        return strstr(k->name, f->name) != NULL;
    }
    return true;
}

typedef struct filter_source {
    wc_source base;
    wc_source *inner;
    char ids[256], name[256];
    wc_kernel_filter f;
    uint64_t seen, kept;     /* kernels read and kept so far */
    uint32_t min_id, max_id; /* ids of the kernels read, for the message */
} filter_source;

static int flt_next_kernel(wc_source *src, wc_kernel *k, wc_err *err)
{
    filter_source *s = (filter_source *)src;
    int rc;
    while ((rc = s->inner->ops->next_kernel(s->inner, k, err)) > 0) {
        if (!s->seen++ || k->id < s->min_id) s->min_id = k->id;
        if (k->id > s->max_id) s->max_id = k->id;
        if (wc_kernel_filter_match(&s->f, k)) {
            s->kept++;
            return 1;
        }
    }
    /* A selection that keeps nothing is a mistake, not an empty result. */
    if (rc == 0 && !s->kept) {
        char what[600];
        snprintf(what, sizeof what, "%s%s%s%s%s%s", s->ids[0] ? " ids '" : "", s->ids,
                 s->ids[0] ? "'" : "", s->name[0] ? " name '" : "", s->name, s->name[0] ? "'" : "");
        return wc_errf(err,
                       "kernel selection%s: matches none of the trace's %llu kernels (ids %u to "
                       "%u)",
                       what, (unsigned long long)s->seen, s->min_id, s->max_id);
    }
    return rc;
}

static int flt_open_block(wc_source *src, uint64_t id, void **b, wc_err *err)
{
    filter_source *s = (filter_source *)src;
    return s->inner->ops->open_block(s->inner, id, b, err);
}

static int flt_next_inst(wc_source *src, void *b, uint32_t w, wc_winst *o, wc_err *err)
{
    filter_source *s = (filter_source *)src;
    return s->inner->ops->next_inst(s->inner, b, w, o, err);
}

static void flt_close_block(wc_source *src, void *b)
{
    filter_source *s = (filter_source *)src;
    s->inner->ops->close_block(s->inner, b);
}

static void flt_destroy(wc_source *src)
{
    filter_source *s = (filter_source *)src;
    wc_source_destroy(s->inner);
    free(s);
}

static const wc_source_ops flt_ops = {
    .name = "filter",
    .next_kernel = flt_next_kernel,
    .open_block = flt_open_block,
    .next_inst = flt_next_inst,
    .close_block = flt_close_block,
    .destroy = flt_destroy,
};

wc_source *wc_source_filter(wc_source *src, const wc_kernel_filter *f, wc_err *err)
{
    if (!src) return NULL;
    if (!f || ((!f->ids || !*f->ids) && (!f->name || !*f->name))) return src;
    filter_source *s = calloc(1, sizeof *s);
    if (!s || wc_kernel_filter_check(f, err) < 0 || (f->ids && strlen(f->ids) >= sizeof s->ids) ||
        (f->name && strlen(f->name) >= sizeof s->name)) {
        if (s && !err->msg[0]) wc_errf(err, "kernel filter too long");
        if (!s) wc_errf(err, "out of memory");
        free(s);
        wc_source_destroy(src);
        return NULL;
    }
    s->base.ops = &flt_ops;
    s->inner = src;
    snprintf(s->ids, sizeof s->ids, "%s", f->ids ? f->ids : "");
    snprintf(s->name, sizeof s->name, "%s", f->name ? f->name : "");
    s->f.ids = s->ids;
    s->f.name = s->name;
    return &s->base;
}

/* ---- opening ------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* First line of a (possibly compressed) text file, for sniffing. */
static wc_trace_format sniff_text(const char *path)
{
    wc_err e;
    wc_lreader *lr = wc_lreader_open(path, &e);
    if (!lr) return WC_TRACE_AUTO;
    char *line;
    wc_trace_format f = WC_TRACE_AUTO;
    for (int i = 0; i < 8 && wc_lreader_next(lr, &line, NULL, &e) > 0; i++) {
        while (*line == ' ') line++;
        if (!*line) continue;
        if (!strncmp(line, "blocksize:", 10))
            f = WC_TRACE_TRC;
        else if (line[0] == '-' || !strncmp(line, "Memcpy", 6) || !strncmp(line, "kernel-", 7))
            f = WC_TRACE_ACCELSIM;
        break;
    }
    wc_lreader_close(lr);
    return f;
}

static wc_trace_format detect(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) {
        char m[8] = {0};
        size_t n = fread(m, 1, 8, f);
        fclose(f);
        if (n == 8 && !memcmp(m, "WCTRACE", 8)) return WC_TRACE_WCT;
    }
    if (ends_with(path, ".wct")) return WC_TRACE_WCT;
    if (ends_with(path, ".trc")) return WC_TRACE_TRC;
    if (strstr(path, ".traceg") || ends_with(path, "kernelslist.g")) return WC_TRACE_ACCELSIM;
    return sniff_text(path);
}

/* A folder: kernelslist.g inside, or exactly one NAME_00.trc series. */
static int resolve_dir(const char *dir, char *out, size_t cap, wc_trace_format *fmt, wc_err *err)
{
    snprintf(out, cap, "%s/kernelslist.g", dir);
    if (exists(out)) {
        *fmt = WC_TRACE_ACCELSIM;
        return 0;
    }
    /* Exactly one NAME_00.trc series in the folder. */
    DIR *d = opendir(dir);
    int found = 0;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!ends_with(e->d_name, "_00.trc")) continue;
            if (!found++) snprintf(out, cap, "%s/%s", dir, e->d_name);
        }
        closedir(d);
    }
    if (found == 1) {
        *fmt = WC_TRACE_TRC;
        return 0;
    }
    if (found > 1)
        return wc_errf(err, "%s: folder holds %d .trc series; name one NAME_00.trc", dir, found);
    return wc_errf(err, "%s: folder holds neither kernelslist.g nor a NAME_00.trc series", dir);
}

wc_source *wc_trace_open(const char *path, wc_trace_format fmt, const wc_kernel_filter *filter,
                         wc_err *err)
{
    char resolved[4200];
    if (wc_kernel_filter_check(filter, err) < 0) return NULL;
    if (is_dir(path)) {
        wc_trace_format df = WC_TRACE_AUTO;
        if (resolve_dir(path, resolved, sizeof resolved, &df, err) < 0) return NULL;
        if (fmt == WC_TRACE_AUTO) fmt = df;
        path = resolved;
    } else if (!exists(path)) {
        wc_errf(err, "%s: no such file or folder", path);
        return NULL;
    } else if (!wc_trace_is_regular(path, err)) {
        return NULL;
    }
    if (fmt == WC_TRACE_AUTO) fmt = detect(path);
    wc_source *src = NULL;
    switch (fmt) {
    case WC_TRACE_ACCELSIM: src = wc_accelsim_open(path, err); break;
    case WC_TRACE_TRC: src = wc_trc_open(path, err); break;
    case WC_TRACE_WCT: {
        FILE *f = fopen(path, "rb");
        if (!f) {
            wc_errf(err, "%s: cannot open: %s", path, strerror(errno));
            return NULL;
        }
        src = wc_wct_open_file(f, path, err);
        break;
    }
    default:
        wc_errf(err,
                "%s: unknown trace format (expected kernelslist.g, .traceg[.xz|.gz|.zst], .trc "
                "or .wct)",
                path);
        return NULL;
    }
    return wc_source_filter(src, filter, err);
}

wc_source *wc_trace_open_mem(const void *data, size_t len, wc_trace_format fmt, wc_err *err)
{
    if (fmt == WC_TRACE_AUTO) {
        if (len >= 8 && !memcmp(data, "WCTRACE", 8))
            fmt = WC_TRACE_WCT;
        else if (len >= 10 && !memcmp(data, "blocksize:", 10))
            fmt = WC_TRACE_TRC;
        else
            fmt = WC_TRACE_ACCELSIM;
    }
    if (fmt == WC_TRACE_WCT) {
        if (!len) {
            wc_errf(err, "<memory>: empty input (not a .wct file)");
            return NULL;
        }
        FILE *f = fmemopen((void *)data, len, "rb");
        if (!f) {
            wc_errf(err, "<memory>: cannot open buffer");
            return NULL;
        }
        return wc_wct_open_file(f, "<memory>", err);
    }
    wc_lreader *lr = wc_lreader_open_mem("<memory>", data, len, err);
    if (!lr) return NULL;
    return fmt == WC_TRACE_TRC ? wc_trc_open_lreader(lr, err) : wc_accelsim_open_lreader(lr, err);
}

/* ---- writers ------------------------------------------------------------ */

int wc_trace_write_wct(wc_source *src, const char *path, const wc_wct_options *opts, wc_err *err)
{
    return wc_wct_write(src, path, opts ? opts->codec : -1, err);
}

int wc_trace_write_trc(wc_source *src, const char *prefix, wc_err *err)
{
    return wc_trc_write(src, prefix, err);
}

int wc_trace_write_accelsim(wc_source *src, const char *dir, wc_err *err)
{
    return wc_accelsim_write(src, dir, err);
}

int wc_trace_write(wc_source *src, const char *out, wc_trace_format fmt, wc_err *err)
{
    if (fmt == WC_TRACE_AUTO)
        fmt = ends_with(out, ".wct")   ? WC_TRACE_WCT
              : ends_with(out, ".trc") ? WC_TRACE_TRC
                                       : WC_TRACE_ACCELSIM;
    switch (fmt) {
    case WC_TRACE_WCT: return wc_trace_write_wct(src, out, NULL, err);
    case WC_TRACE_TRC: return wc_trace_write_trc(src, out, err);
    default: return wc_trace_write_accelsim(src, out, err);
    }
}

/* ---- information -------------------------------------------------------- */

/* Open-addressing set of 128 B line numbers (value+1 stored; 0 = empty). */
typedef struct line_set {
    uint64_t *slot;
    size_t cap, n;
} line_set;

static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static int set_add(line_set *s, uint64_t line)
{
    if ((s->n + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        uint64_t *slot = calloc(cap, sizeof *slot);
        if (!slot) return -1;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slot[i]) continue;
            size_t j = mix64(s->slot[i]) & (cap - 1);
            while (slot[j]) j = (j + 1) & (cap - 1);
            slot[j] = s->slot[i];
        }
        free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    uint64_t key = line + 1;
    size_t j = mix64(key) & (s->cap - 1);
    while (s->slot[j]) {
        if (s->slot[j] == key) return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->slot[j] = key;
    s->n++;
    return 0;
}

static int add_lines(line_set *a, line_set *b, const wc_winst *in)
{
    unsigned width = in->width ? in->width : 1;
    for (uint32_t m = in->mask; m; m &= m - 1) {
        uint64_t addr = wc_winst_lane_addr(in, (unsigned)__builtin_ctz(m));
        uint64_t first = addr >> 7, last = (addr + width - 1) >> 7;
        if (last < first) last = first; /* wrapped at the top of the address space */
        for (uint64_t l = first; l <= last; l++)
            if (set_add(a, l) < 0 || set_add(b, l) < 0) return -1;
    }
    return 0;
}

int wc_trace_info_compute(wc_source *src, wc_trace_info *info, wc_err *err)
{
    memset(info, 0, sizeof *info);
    line_set all = {0}, kset = {0};
    wc_kernel k;
    wc_winst in;
    int rc;
    while ((rc = src->ops->next_kernel(src, &k, err)) > 0) {
        wc_trace_kernel_info *p = realloc(info->kernels, (info->nkernels + 1) * sizeof *p);
        if (!p) {
            rc = wc_errf(err, "out of memory");
            break;
        }
        info->kernels = p;
        wc_trace_kernel_info *ki = &info->kernels[info->nkernels++];
        memset(ki, 0, sizeof *ki);
        ki->k = k;
        free(kset.slot);
        memset(&kset, 0, sizeof kset);
        uint64_t nblocks = wc_dim3_count(k.grid);
        uint32_t nwarps = wc_kernel_warps_per_block(&k);
        for (uint64_t id = 0; id < nblocks && rc > 0; id++) {
            void *blk;
            if (src->ops->open_block(src, id, &blk, err) < 0) {
                rc = -1;
                break;
            }
            for (uint32_t w = 0; w < nwarps && rc > 0; w++) {
                int r;
                while ((r = src->ops->next_inst(src, blk, w, &in, err)) > 0) {
                    ki->warp_insts++;
                    if (in.op < WC_OP__COUNT) ki->by_op[in.op]++;
                    if (!wc_op_is_mem(in.op)) continue;
                    ki->mem_insts++;
                    ki->lane_accesses += wc_popcount32(in.mask);
                    if (wc_op_is_gmem(in.op) && add_lines(&all, &kset, &in) < 0) {
                        r = wc_errf(err, "out of memory");
                        break;
                    }
                }
                if (r < 0) rc = -1;
            }
            src->ops->close_block(src, blk);
        }
        ki->unique_lines = kset.n;
        info->warp_insts += ki->warp_insts;
        info->mem_insts += ki->mem_insts;
        for (int o = 0; o < WC_OP__COUNT; o++) info->by_op[o] += ki->by_op[o];
        if (rc < 0) break;
    }
    info->unique_lines = all.n;
    info->footprint_bytes = all.n * 128;
    free(all.slot);
    free(kset.slot);
    if (rc < 0) {
        wc_trace_info_free(info);
        return -1;
    }
    return 0;
}

void wc_trace_info_free(wc_trace_info *info)
{
    free(info->kernels);
    info->kernels = NULL;
    info->nkernels = 0;
}
