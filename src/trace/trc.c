/*
 * trc.c - reader and writer for the per-thread ".trc" traces of seed 003
 * (paper 003_ffafd1cb931cbd21.txt, section 4.1 and Figure 4: an Ocelot-based
 * tracer records, per access, the thread id, read/write, address and size;
 * the lines are unordered except within one thread).  Format: formats.md
 * section 2.
 *
 * Reading turns the per-thread lists back into warp instructions the way the
 * seed's model does: threads are grouped into blocks of `blocksize` threads
 * (gid = linear_block_id * threads_per_block + thread_in_block) and into
 * warps of 32 consecutive threads; warp instruction k is the k-th access of
 * each of the warp's threads (threads with fewer accesses are inactive).
 * When the lanes' k-th accesses differ in direction or size, they are issued
 * as consecutive instructions, one per (direction, size) group, so every
 * thread's own order is kept.  The file has no grid shape and no kernel name:
 * the grid is 1-D with max(gid) / threads_per_block + 1 blocks and the name
 * is the file's NAME part.  We assume the block id in gid is the linear id in
 * warpcache's order (x fastest); for 1-D grids this is also the reference
 * tracer's x-major numbering.
 *
 * Because lines are unordered, a kernel's accesses are loaded whole (16
 * bytes per access) and grouped by gid, keeping each thread's file order.
 * Dense gids (the usual case) get one counter per thread and a 4-byte
 * order[] entry per access from a counting sort (none when the file is
 * already in gid order); sparse ones (a few huge gids) are moved by a
 * two-pass radix sort (16 more bytes per access while sorting).  An open
 * block needs one offset per thread.  Lines are parsed by hand (SWAR digit
 * runs): the generic tokenizers were most of the reading time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/formats.h"

#define TRC_MAX_SIZE 255
/* Shape limits (formats.h, docs/traces.md "Limits"): the inferred grid is
 * 1-D, so CUDA's gridDim.x limit applies; a grid above TRC_EMPTY_BLOCKS_FREE
 * blocks must not be mostly empty. */
#define TRC_MAX_TPB           WC_TRACE_MAX_TPB
#define TRC_MAX_BLOCKS        ((uint64_t)WC_TRACE_MAX_GRID_X)
#define TRC_EMPTY_BLOCKS_FREE (1u << 20)
/* A kernel's accesses are held whole (16 bytes each, 4 more for the order):
 * at most this many, 2.5 GiB (docs/traces.md, "Limits").  The largest kernel
 * of the built-in workloads written as .trc (rodinia/bfs) has about 10 M;
 * micro/stream:n=33554432 has 67 M.  It was 2^32 (80 GiB), which a small
 * compressed file of repeated lines could claim. */
#define TRC_MAX_RECORDS (1ull << 27)

typedef struct trc_rec {
    uint64_t addr;
    uint32_t gid;
    uint16_t size;
    uint8_t dir;
} trc_rec;

typedef struct trc_warp {
    uint32_t k;      /* access index being issued */
    uint32_t done;   /* lanes already issued for index k */
    uint32_t maxcnt; /* most accesses of any lane */
} trc_warp;

typedef struct trc_block {
    const trc_rec *rec;    /* records: the block's i-th in gid order is */
    const uint32_t *order; /* rec[order[i]], or rec[i] when order is NULL */
    uint32_t tpb, nwarps;
    uint32_t *off; /* tpb + 1 offsets into rec */
    trc_warp w[];
} trc_block;

typedef struct trc_source {
    wc_source base;
    char prefix[4096]; /* series: PREFIX_NN.trc */
    char name[256];
    bool series;
    unsigned next_index;
    bool done;
    wc_lreader *mem_lr;
    wc_kernel cur;
    bool have_kernel;
    trc_rec *recs;
    uint32_t *order; /* recs in gid order: recs[order[i]]; NULL: recs is in gid order */
    size_t nrec;
    /* Dense gids: gid_start[g] = index (in gid order) of thread g's first
     * record, for g = 0 .. maxgid + 1 (the last one is nrec). */
    uint32_t *gid_start;
    uint32_t maxgid;
    /* Sparse gids (gid_start NULL): blocks that have accesses (a huge gid
     * costs nothing): ids and first record, npresent + 1 entries in first[]. */
    uint64_t *present_id, *present_first;
    uint64_t npresent, nblocks;
    uint64_t max_records; /* TRC_MAX_RECORDS, or lower in tests */
} trc_source;

static void free_kernel(trc_source *s)
{
    free(s->recs);
    free(s->order);
    free(s->gid_start);
    s->order = NULL;
    s->gid_start = NULL;
    free(s->present_id);
    free(s->present_first);
    s->recs = NULL;
    s->present_id = s->present_first = NULL;
    s->npresent = 0;
    s->nrec = 0;
    s->nblocks = 0;
}

/* Stable LSD radix sort on gid, two 16-bit digits (for sparse gids, where a
 * counter per thread would cost more than the records). */
static int radix_sort_by_gid(trc_rec **recs, size_t n)
{
    trc_rec *tmp = malloc(n ? n * sizeof *tmp : 1);
    uint32_t *cnt = malloc(65537 * sizeof *cnt);
    if (!tmp || !cnt) {
        free(tmp);
        free(cnt);
        return -1;
    }
    trc_rec *a = *recs, *b = tmp;
    for (int pass = 0; pass < 2; pass++) {
        unsigned shift = pass * 16;
        memset(cnt, 0, 65537 * sizeof *cnt);
        for (size_t i = 0; i < n; i++) cnt[((a[i].gid >> shift) & 0xffff) + 1]++;
        for (unsigned d = 0; d < 65536; d++) cnt[d + 1] += cnt[d];
        for (size_t i = 0; i < n; i++) b[cnt[(a[i].gid >> shift) & 0xffff]++] = a[i];
        trc_rec *t = a;
        a = b;
        b = t;
    }
    free(b); /* after two passes the sorted data is back in a (the original buffer) */
    free(cnt);
    *recs = a;
    return 0;
}

/* Dense gids: a stable counting sort on gid that moves no records.  One
 * counter per thread id gives gid_start[]; unless the file is already in gid
 * order, order[] then lists the record indices thread by thread, each
 * thread's in file order (4 bytes per record instead of a 16-byte copy: the
 * fresh pages of a copy cost more than the indirection saves).  gid_start[]
 * also replaces any search when a block is opened. */
static int index_dense(trc_source *s, bool sorted)
{
    size_t n = s->nrec;
    uint32_t *c = calloc((size_t)s->maxgid + 3, sizeof *c);
    uint32_t *ord = sorted ? NULL : malloc(n * sizeof *ord);
    if (!c || (!sorted && !ord)) {
        free(c);
        free(ord);
        return -1;
    }
    const trc_rec *a = s->recs;
    /* Count thread g at c[g + 1] (sorted) or c[g + 2] (to be scattered). */
    unsigned shift = sorted ? 1 : 2;
    for (size_t i = 0; i < n; i++) c[a[i].gid + shift]++;
    for (uint64_t g = 1; g < (uint64_t)s->maxgid + 3; g++) c[g] += c[g - 1]; /* n < 2^32 */
    if (!sorted) {
        /* c[g + 1] is thread g's next slot; once it has them all it is where
         * thread g + 1 starts, so afterwards c[g] = start of g for every g. */
        for (size_t i = 0; i < n; i++) ord[c[a[i].gid + 1]++] = (uint32_t)i;
    }
    s->gid_start = c;
    s->order = ord;
    return 0;
}

/* Sparse gids: records moved into gid order (stable), then the list of
 * blocks that have any. */
static int index_sparse(trc_source *s, bool sorted, uint32_t tpb)
{
    if (!sorted && radix_sort_by_gid(&s->recs, s->nrec) < 0) return -1;
    s->present_id = malloc((s->nrec + 1) * sizeof *s->present_id);
    s->present_first = malloc((s->nrec + 1) * sizeof *s->present_first);
    if (!s->present_id || !s->present_first) return -1;
    uint64_t block_end = 0; /* first gid past the current block (divide only on a new block) */
    for (size_t i = 0; i < s->nrec; i++) {
        uint32_t gid = s->recs[i].gid;
        if (gid < block_end) continue;
        uint64_t b = gid / tpb;
        block_end = (b + 1) * tpb;
        s->present_id[s->npresent] = b;
        s->present_first[s->npresent++] = i;
    }
    s->present_first[s->npresent] = s->nrec;
    return 0;
}

/* The i-th record in gid order. */
static inline const trc_rec *sorted_rec(const trc_rec *rec, const uint32_t *order, size_t i)
{
    return order ? &rec[order[i]] : &rec[i];
}

/* Digits [p, end) with an overflow check (only fields over 19 digits need
 * one: leading zeros, or a value near or past 2^64). */
static bool parse_long_field(const char *p, const char *end, uint64_t *out)
{
    uint64_t v = 0;
    for (; p < end; p++)
        if (__builtin_mul_overflow(v, 10u, &v) ||
            __builtin_add_overflow(v, (unsigned)(*p - '0'), &v))
            return false;
    *out = v;
    return true;
}

/* Number of leading decimal digits among the 8 bytes of w (first byte in
 * the low bits), and their value.  SWAR: a byte is a digit when its high
 * nibble is 3 and adding 6 keeps it there; a carry out of a non-digit byte
 * can only spoil the flags of bytes after it, which are not counted. */
static inline unsigned swar_digits(uint64_t w, uint64_t *val)
{
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t nondigit =
        ((w & 0xf0 * ones) ^ 0x30 * ones) | (((w + 0x06 * ones) & 0xf0 * ones) ^ 0x30 * ones);
    unsigned k = nondigit ? (unsigned)__builtin_ctzll(nondigit) / 8 : 8;
    if (!k) return 0;
    /* Keep the k digits as the low-order end of an 8-digit number (zeros in front). */
    uint64_t d = (w - 0x30 * ones) << (64 - 8 * k);
    d = d * 10 + (d >> 8); /* pairs */
    d = (((d & 0x000000ff000000ffull) * (100 + (1000000ull << 32))) +
         (((d >> 16) & 0x000000ff000000ffull) * (1 + (10000ull << 32)))) >>
        32;
    *val = d;
    return k;
}

/* One unsigned decimal field of an access line: digits only (no sign), ended
 * by a space, tab or the end of the line, without overflowing 64 bits.  On
 * success *pp is left on the next field (separators skipped).  Hand-rolled
 * because generic parsers (strtok + strtoull) were most of the reading time;
 * it accepts exactly what strtok(" \t") + wc_parse_u64(base 10) accepted. */
static inline __attribute__((always_inline)) bool parse_field(const char **pp, const char *end,
                                                              uint64_t *out)
{
    const char *p = *pp, *start = p;
    uint64_t v = 0;
    if (end - p >= 8) { /* 8 bytes readable: take up to 8 digits at once */
        uint64_t w;
        memcpy(&w, p, 8);
        unsigned k = swar_digits(w, &v);
        if (!k) return false;
        p += k;
    } else if ((unsigned)((unsigned char)*p - '0') > 9) {
        return false;
    }
    for (unsigned d; (d = (unsigned char)*p - '0') <= 9; p++)
        v = v * 10 + d; /* wraps harmlessly past 19 digits; checked below */
    if (p - start > 19 && !parse_long_field(start, p, &v)) return false;
    if (*p != ' ' && *p != '\t' && *p != 0) return false;
    while (*p == ' ' || *p == '\t') p++;
    *pp = p;
    *out = v;
    return true;
}

/* "blocksize: BX BY BZ": three strict decimal fields (no sign: sscanf's %llu
 * took "-1" as 2^64-1, whose product wrapped to 1), each and their product
 * 1..65536, so the product cannot overflow and is never 0. */
static int parse_blocksize(wc_lreader *lr, char *line, wc_dim3 *d, wc_err *err)
{
    uint64_t v[3], prod = 1;
    bool ok = strncmp(line, "blocksize:", 10) == 0;
    const char *p = ok ? line + 10 : line; /* the line may be shorter than the key */
    const char *end = p + strlen(p);
    while (ok && (*p == ' ' || *p == '\t')) p++;
    for (int i = 0; ok && i < 3; i++) {
        ok = parse_field(&p, end, &v[i]) && v[i] >= 1 && v[i] <= TRC_MAX_TPB;
        if (ok) prod *= v[i]; /* each <= 2^16: no overflow */
    }
    if (!ok || *p || prod > TRC_MAX_TPB)
        return wc_errf(
            err, "%s:%llu: expected 'blocksize: BX BY BZ' (1 to 65536 threads), found '%.60s'",
            wc_lreader_name(lr), (unsigned long long)wc_lreader_lineno(lr), line);
    d->x = (uint32_t)v[0];
    d->y = (uint32_t)v[1];
    d->z = (uint32_t)v[2];
    return 0;
}

/* [line, end) is the line from its first non-blank character; *end is 0. */
static int parse_access(wc_lreader *lr, const char *line, const char *end, trc_rec *r, wc_err *err)
{
    const char *p = line;
    uint64_t gid, dir, addr, size;
    if (!parse_field(&p, end, &gid) || !parse_field(&p, end, &dir) ||
        !parse_field(&p, end, &addr) || !parse_field(&p, end, &size) || *p)
        return wc_errf(err, "%s:%llu: expected '<gid> <dir> <address> <size>' (4 decimal numbers)",
                       wc_lreader_name(lr), (unsigned long long)wc_lreader_lineno(lr));
    if (dir > 1 || size == 0 || size > TRC_MAX_SIZE || gid >= (1ull << 32) - 1)
        return wc_errf(
            err, "%s:%llu: out of range: dir must be 0 or 1, size 1..%d, gid below 2^32-1",
            wc_lreader_name(lr), (unsigned long long)wc_lreader_lineno(lr), TRC_MAX_SIZE);
    r->gid = (uint32_t)gid;
    r->dir = (uint8_t)dir;
    r->addr = addr;
    r->size = (uint16_t)size;
    return 0;
}

/* Loads one kernel file completely. */
static int load_kernel(trc_source *s, wc_lreader *lr, wc_err *err)
{
    free_kernel(s);
    char *line;
    int rc;
    size_t cap = 0;
    bool have_bs = false;
    wc_dim3 bs = {0, 0, 0};
    uint32_t maxgid = 0;
    uint64_t maxgid_line = 0; /* where the highest gid is, for messages */
    bool sorted = true;       /* gids non-decreasing so far */
    size_t len;
    while ((rc = wc_lreader_next(lr, &line, &len, err)) > 0) {
        const char *end = line + len;
        while (*line == ' ' || *line == '\t') line++;
        if (!*line || *line == '#') continue;
        if (!have_bs) {
            if (parse_blocksize(lr, line, &bs, err) < 0) return -1;
            have_bs = true;
            continue;
        }
        if (s->nrec == cap) {
            if (cap >= s->max_records)
                return wc_errf(err,
                               "%s:%llu: more than %llu accesses in one kernel (a limit of "
                               "warpcache's, docs/traces.md)",
                               wc_lreader_name(lr), (unsigned long long)wc_lreader_lineno(lr),
                               (unsigned long long)s->max_records);
            cap = cap ? cap * 2 : 4096;
            if (cap > s->max_records) cap = s->max_records;
            trc_rec *p = realloc(s->recs, cap * sizeof *p);
            if (!p) return wc_errf(err, "%s: out of memory", wc_lreader_name(lr));
            s->recs = p;
        }
        if (parse_access(lr, line, end, &s->recs[s->nrec], err) < 0) return -1;
        uint32_t gid = s->recs[s->nrec].gid;
        if (gid >= maxgid) {
            maxgid = gid;
            maxgid_line = wc_lreader_lineno(lr);
        } else
            sorted = false;
        s->nrec++;
    }
    if (rc < 0) return -1;
    if (!have_bs)
        return wc_errf(err, "%s: empty file (expected 'blocksize: BX BY BZ')", wc_lreader_name(lr));
    uint32_t tpb = (uint32_t)wc_dim3_count(bs); /* 1..65536 (parse_blocksize) */
    s->nblocks = s->nrec ? maxgid / tpb + 1 : 1;
    s->maxgid = maxgid;
    if (s->nblocks > TRC_MAX_BLOCKS)
        return wc_errf(err,
                       "%s:%llu: gid %u with %u threads per block implies a 1-D grid of %llu "
                       "blocks, more than CUDA allows (2^31-1)",
                       wc_lreader_name(lr), (unsigned long long)maxgid_line, maxgid, tpb,
                       (unsigned long long)s->nblocks);
    /* Dense when a counter per thread costs at most a few per record. */
    bool dense = (uint64_t)maxgid + 1 <= 4 * (uint64_t)s->nrec + 65536;
    if ((dense ? index_dense(s, sorted) : index_sparse(s, sorted, tpb)) < 0)
        return wc_errf(err, "out of memory");
    /* Dense gids bound the grid by the file's size; sparse ones do not: one
     * huge gid would mean billions of empty blocks (hours of simulated
     * nothing), which no tracer writes.  Refuse a grid that is mostly empty. */
    if (!dense && s->nblocks > TRC_EMPTY_BLOCKS_FREE && s->nblocks / 16 > s->npresent)
        return wc_errf(err,
                       "%s:%llu: gid %u implies %llu blocks of which only %llu have an access; "
                       "refusing a grid more than 15/16 empty beyond %u blocks",
                       wc_lreader_name(lr), (unsigned long long)maxgid_line, maxgid,
                       (unsigned long long)s->nblocks, (unsigned long long)s->npresent,
                       TRC_EMPTY_BLOCKS_FREE);
    memset(&s->cur, 0, sizeof s->cur);
    s->cur.block = bs;
    s->cur.grid = (wc_dim3){(uint32_t)s->nblocks, 1, 1};
    s->cur.id = s->next_index;
    snprintf(s->cur.name, sizeof s->cur.name, "%s", s->name);
    return 0;
}

static int trc_next_kernel(wc_source *src, wc_kernel *k, wc_err *err)
{
    trc_source *s = (trc_source *)src;
    s->have_kernel = false;
    free_kernel(s);
    if (s->done) return 0;
    wc_lreader *lr;
    if (s->mem_lr) {
        lr = s->mem_lr;
        s->mem_lr = NULL;
        s->done = true;
    } else {
        char path[4200];
        if (s->series)
            snprintf(path, sizeof path, "%s_%02u.trc", s->prefix, s->next_index);
        else
            snprintf(path, sizeof path, "%s", s->prefix);
        lr = wc_lreader_open(path, err);
        if (!lr) {
            if (s->series && s->next_index > 0 && errno == ENOENT) return 0; /* end of series */
            return -1;
        }
        if (!s->series) s->done = true;
    }
    s->next_index++;
    int rc = load_kernel(s, lr, err);
    wc_lreader_close(lr);
    if (rc < 0) return -1;
    s->have_kernel = true;
    *k = s->cur;
    return 1;
}

/* Per-thread offsets of a block from gid_start[] (dense gids). */
static void block_offsets_dense(const trc_source *s, trc_block *b, uint64_t gid0)
{
    const uint32_t *start = s->gid_start;
    uint32_t base = start[gid0]; /* gid0 <= maxgid: the block exists */
    if (s->order)
        b->order = s->order + base;
    else if (s->recs) /* NULL when the kernel has no accesses */
        b->rec = s->recs + base;
    for (uint32_t t = 0; t <= b->tpb; t++) {
        uint64_t g = gid0 + t;
        b->off[t] = start[g <= (uint64_t)s->maxgid + 1 ? g : (uint64_t)s->maxgid + 1] - base;
    }
}

/* Per-thread offsets of a block by binary search among the blocks that have
 * accesses, then a scan of its records (sparse gids: records in gid order). */
static void block_offsets_sparse(const trc_source *s, trc_block *b, uint64_t block_id,
                                 uint64_t gid0)
{
    uint64_t lo = 0, hi = s->npresent;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->present_id[mid] < block_id)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t n = 0;
    if (lo < s->npresent && s->present_id[lo] == block_id) {
        b->rec = s->recs + s->present_first[lo];
        n = s->present_first[lo + 1] - s->present_first[lo];
    }
    size_t i = 0;
    for (uint32_t t = 0; t <= b->tpb; t++) {
        while (i < n && b->rec[i].gid - gid0 < t) i++;
        b->off[t] = (uint32_t)i;
    }
}

static int trc_open_block(wc_source *src, uint64_t block_id, void **out, wc_err *err)
{
    trc_source *s = (trc_source *)src;
    if (!s->have_kernel || block_id >= s->nblocks)
        return wc_errf(err, "trc: block %llu out of range", (unsigned long long)block_id);
    uint32_t tpb = wc_kernel_threads_per_block(&s->cur);
    uint32_t nwarps = wc_kernel_warps_per_block(&s->cur);
    trc_block *b = calloc(1, sizeof *b + nwarps * sizeof(trc_warp));
    uint32_t *off = malloc((tpb + 1) * sizeof *off);
    if (!b || !off) {
        free(b);
        free(off);
        return wc_errf(err, "trc: out of memory");
    }
    b->tpb = tpb;
    b->nwarps = nwarps;
    b->off = off;
    b->rec = s->recs;
    b->order = NULL;
    uint64_t gid0 = block_id * tpb;
    if (s->gid_start)
        block_offsets_dense(s, b, gid0);
    else
        block_offsets_sparse(s, b, block_id, gid0);
    for (uint32_t t = 0; t < tpb; t++) {
        trc_warp *w = &b->w[t / WC_WARP_SIZE];
        if (off[t + 1] - off[t] > w->maxcnt) w->maxcnt = off[t + 1] - off[t];
    }
    *out = b;
    return 1;
}

static int trc_next_inst(wc_source *src, void *block, uint32_t warp, wc_winst *out, wc_err *err)
{
    trc_block *b = block;
    if (warp >= b->nwarps) return wc_errf(err, "trc: warp %u out of range", warp);
    trc_warp *w = &b->w[warp];
    uint32_t t0 = warp * WC_WARP_SIZE;
    uint32_t lanes = b->tpb - t0 < WC_WARP_SIZE ? b->tpb - t0 : WC_WARP_SIZE;
    for (;;) {
        if (w->k >= w->maxcnt) return 0;
        uint32_t cand = 0;
        for (uint32_t l = 0; l < lanes; l++)
            if (b->off[t0 + l + 1] - b->off[t0 + l] > w->k) cand |= 1u << l;
        cand &= ~w->done;
        if (!cand) {
            w->k++;
            w->done = 0;
            continue;
        }
        const trc_rec *first =
            sorted_rec(b->rec, b->order, b->off[t0 + __builtin_ctz(cand)] + w->k);
        uint32_t mask = 0;
        for (uint32_t m = cand; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            const trc_rec *r = sorted_rec(b->rec, b->order, b->off[t0 + l] + w->k);
            if (r->dir == first->dir && r->size == first->size) {
                mask |= 1u << l;
                out->addr[l] = r->addr;
            }
        }
        w->done |= mask;
        wc_winst_clear(out);
        out->pc = (uint64_t)w->k * 8;
        out->mask = mask;
        out->op = first->dir ? WC_OP_STG : WC_OP_LDG;
        out->width = (uint8_t)first->size;
        /* Lane-index arithmetic progressions become WC_ADDR_STRIDE (cheaper downstream). */
        unsigned f = (unsigned)__builtin_ctz(mask);
        uint32_t rest = mask & (mask - 1);
        int64_t stride = 0;
        bool is_stride = true;
        if (rest) {
            unsigned g = (unsigned)__builtin_ctz(rest);
            int64_t diff = (int64_t)(out->addr[g] - out->addr[f]);
            if (diff % (int64_t)(g - f))
                is_stride = false;
            else
                stride = diff / (int64_t)(g - f);
            for (uint32_t m = rest; m && is_stride; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                if (out->addr[l] != out->addr[f] + (uint64_t)stride * (l - f)) is_stride = false;
            }
        }
        if (is_stride) {
            out->amode = WC_ADDR_STRIDE;
            out->stride = stride;
            out->base = out->addr[f] - (uint64_t)stride * f;
        } else {
            out->amode = WC_ADDR_LIST;
        }
        return 1;
    }
}

static void trc_close_block(wc_source *src, void *block)
{
    trc_block *b = block;
    if (b) free(b->off);
    free(b);
}

static void trc_destroy(wc_source *src)
{
    trc_source *s = (trc_source *)src;
    free_kernel(s);
    wc_lreader_close(s->mem_lr);
    free(s);
}

static const wc_source_ops trc_ops = {
    .name = "trc",
    .next_kernel = trc_next_kernel,
    .open_block = trc_open_block,
    .next_inst = trc_next_inst,
    .close_block = trc_close_block,
    .destroy = trc_destroy,
};

/* "dir/NAME_07.trc" -> prefix "dir/NAME", index 7. */
static bool split_series(const char *path, char *prefix, size_t cap, unsigned *index)
{
    size_t n = strlen(path);
    if (n < 7 || strcmp(path + n - 4, ".trc")) return false;
    size_t d = n - 4;
    while (d > 0 && path[d - 1] >= '0' && path[d - 1] <= '9') d--;
    if (d == n - 4 || n - 4 - d > 6 || d == 0 || path[d - 1] != '_') return false;
    *index = (unsigned)strtoul(path + d, NULL, 10);
    if (d - 1 >= cap) return false;
    memcpy(prefix, path, d - 1);
    prefix[d - 1] = 0;
    return true;
}

wc_source *wc_trc_open(const char *path, wc_err *err)
{
    trc_source *s = calloc(1, sizeof *s);
    if (!s) {
        wc_errf(err, "out of memory");
        return NULL;
    }
    s->base.ops = &trc_ops;
    s->max_records = TRC_MAX_RECORDS;
    if (split_series(path, s->prefix, sizeof s->prefix, &s->next_index)) {
        s->series = true;
    } else {
        snprintf(s->prefix, sizeof s->prefix, "%s", path);
    }
    const char *base = strrchr(s->prefix, '/');
    snprintf(s->name, sizeof s->name, "%.255s", base ? base + 1 : s->prefix);
    size_t n = strlen(s->name);
    if (!s->series && n > 4 && !strcmp(s->name + n - 4, ".trc")) s->name[n - 4] = 0;
    return &s->base;
}

wc_source *wc_trc_open_lreader(wc_lreader *lr, wc_err *err)
{
    trc_source *s = calloc(1, sizeof *s);
    if (!s) {
        wc_lreader_close(lr);
        wc_errf(err, "out of memory");
        return NULL;
    }
    s->base.ops = &trc_ops;
    s->max_records = TRC_MAX_RECORDS;
    s->mem_lr = lr;
    snprintf(s->name, sizeof s->name, "trc");
    return &s->base;
}

void wc_trc_set_max_records(wc_source *src, uint64_t max_records)
{
    trc_source *s = (trc_source *)src;
    s->max_records = max_records < TRC_MAX_RECORDS ? max_records : TRC_MAX_RECORDS;
}

/* ---- writer ------------------------------------------------------------- */

static int write_trc_kernel(wc_source *src, const wc_kernel *k, const char *path, wc_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f) return wc_errf(err, "%s: cannot create: %s", path, strerror(errno));
    setvbuf(f, NULL, _IOFBF, 1 << 16);
    fprintf(f, "blocksize: %u %u %u\n", k->block.x, k->block.y, k->block.z);
    uint64_t nblocks = wc_dim3_count(k->grid);
    uint32_t tpb = wc_kernel_threads_per_block(k), nwarps = wc_kernel_warps_per_block(k);
    int ret = 0;
    wc_winst in;
    for (uint64_t id = 0; id < nblocks && !ret; id++) {
        void *blk;
        if (src->ops->open_block(src, id, &blk, err) < 0) {
            ret = -1;
            break;
        }
        for (uint32_t w = 0; w < nwarps && !ret; w++) {
            int rc;
            while ((rc = src->ops->next_inst(src, blk, w, &in, err)) > 0) {
                if (!wc_op_is_gmem(in.op)) continue;
                int dir = wc_op_is_store(in.op) || in.op == WC_OP_ATOM;
                for (uint32_t m = in.mask; m; m &= m - 1) {
                    unsigned l = (unsigned)__builtin_ctz(m);
                    uint32_t t = w * WC_WARP_SIZE + l;
                    if (t >= tpb) continue;
                    fprintf(f, "%llu %d %llu %u\n", (unsigned long long)(id * tpb + t), dir,
                            (unsigned long long)wc_winst_lane_addr(&in, l),
                            in.width ? in.width : 4);
                }
            }
            if (rc < 0) ret = -1;
        }
        src->ops->close_block(src, blk);
    }
    if (fclose(f) != 0 && !ret) ret = wc_errf(err, "%s: write error", path);
    return ret;
}

int wc_trc_write(wc_source *src, const char *prefix_in, wc_err *err)
{
    char prefix[4096];
    unsigned idx;
    size_t n = strlen(prefix_in);
    if (n >= sizeof prefix) return wc_errf(err, "%s: path too long", prefix_in);
    if (!split_series(prefix_in, prefix, sizeof prefix, &idx)) {
        memcpy(prefix, prefix_in, n + 1);
        if (n > 4 && !strcmp(prefix + n - 4, ".trc")) prefix[n - 4] = 0;
    }
    wc_kernel k;
    int rc;
    unsigned i = 0;
    while ((rc = src->ops->next_kernel(src, &k, err)) > 0) {
        char path[4200];
        snprintf(path, sizeof path, "%s_%02u.trc", prefix, i++);
        if (write_trc_kernel(src, &k, path, err) < 0) return -1;
    }
    return rc < 0 ? -1 : 0;
}
