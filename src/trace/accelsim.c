/*
 * accelsim.c - reader and writer for Accel-Sim / NVBit SASS traces
 * (kernelslist.g + kernel-N.traceg[.xz|.gz|.zst]), as specified in
 * ../shared/specs/formats.md section 1 and docs/traces.md.
 *
 * Reading is streamed: next_kernel parses one kernel file's header; each
 * open_block parses exactly one "#BEGIN_TB ... #END_TB" section into a
 * compact per-block array (as_inst records plus an address pool for
 * per-lane lists), freed by close_block.  Sections must appear in increasing
 * linear block id order (x fastest); a block absent from the file is an
 * empty block (no instructions); a section that goes backwards is an error.
 *
 * Address modes: 0 = one address per active lane; 1 = base + stride over
 * the *rank* of each active lane; 2 = base then k-1 deltas.  warpcache's
 * WC_ADDR_STRIDE is lane-index based, so mode 1 stays a stride only when the
 * mask makes rank and lane index the same (mask contiguous from lane 0, or
 * stride 0); otherwise it is expanded to a per-lane list.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/formats.h"

#define AS_MAX_REGS_LISTED 64 /* dest_num / src_num above this are garbage */
/* One thread block is held whole while it runs (docs/traces.md, "Limits"):
 * at most this many instructions (56 bytes each parsed: 896 MiB) and listed
 * per-lane addresses (8 bytes each: 512 MiB).  The largest block of the
 * built-in workloads, micro/colcopy:h=1024,w=32768, has 2.1 M instructions;
 * a .wct chunk (64 MiB) holds fewer than 13.5 M.  Without a bound, a
 * compressed section of repeated lines grew one block until memory ran out. */
#define AS_MAX_BLOCK_INSTS (1ull << 24)
#define AS_MAX_BLOCK_ADDRS (1ull << 26)
#define AS_WINDOW          (1ull << 24) /* generic LD/ST: shared/local windows, 16 MiB */
/* The EXIT the writer appends to a warp whose lanes did not all exit (Accel-Sim
 * retires a warp only on EXIT).  Accel-Sim classifies by the first token
 * (EXIT); the modifier tells our reader to drop it again, so a converted
 * workload reads back exactly. */
#define AS_APPENDED_EXIT "EXIT.WCEND"
/* Accel-Sim's trace parser (trace_parser.h) holds at most 1 destination and
 * 4 source registers per instruction, and reads a mode-1 stride as an int. */
#define AS_WRITE_MAX_DST 1
#define AS_WRITE_MAX_SRC 4

/* ---- small shared helpers (declared in formats.h) ---------------------- */

bool wc_parse_u64(const char *s, int base, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') return false;
    if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (!*s) return false;
    uint64_t v = 0;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return false;
        if (v > (UINT64_MAX - d) / (uint64_t)base) return false;
        v = v * (uint64_t)base + d;
    }
    *out = v;
    return true;
}

bool wc_parse_i64(const char *s, int64_t *out)
{
    bool neg = false;
    uint64_t v;
    if (!s) return false;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    if (!wc_parse_u64(s, 10, &v)) return false;
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX) return false;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

int wc_strbuf_printf(wc_strbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) return -1;
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return 0;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap - b->len <= (size_t)n) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) return -1;
        b->p = p;
        b->cap = cap;
    }
}

void wc_strbuf_free(wc_strbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* ---- reader state ------------------------------------------------------- */

typedef struct as_inst {
    uint64_t pc, base;
    int64_t stride;
    uint32_t mask, addr_off; /* addr_off: first address in the block's pool (LIST) */
    uint8_t op, width, flags, amode, ndst, nsrc;
    uint16_t dst[WC_MAX_DST], src[WC_MAX_SRC];
} as_inst;

typedef struct as_warp {
    uint32_t first, count, next;
} as_warp;

typedef struct as_block {
    uint32_t nwarps;
    as_warp *w;
    as_inst *insts;
    size_t ninst, cap_inst;
    uint64_t *addrs;
    size_t naddr, cap_addr;
} as_block;

typedef struct as_kfile {
    char *path;
    uint64_t line; /* line in kernelslist.g */
} as_kfile;

typedef struct as_source {
    wc_source base;
    char list_name[512]; /* kernelslist.g, for messages ("" for single files) */
    as_kfile *kfiles;
    size_t nkfiles, next_kfile;
    uint64_t memcpys;
    wc_lreader *lr;     /* current kernel file */
    wc_lreader *mem_lr; /* single in-memory kernel, not yet started */
    bool mem_done;
    wc_kernel cur;
    bool have_kernel;
    int version; /* tracer version, 0 = not stated */
    bool lineinfo;
    uint64_t shmem_base, local_base;
    char *peek; /* a line read but not consumed (points into lr's buffer) */
    bool have_pending;
    uint64_t pending_id, pending_line;
    bool have_last;
    uint64_t last_id;
    uint64_t nsections; /* thread block sections seen in this kernel file */
    uint64_t grid_line; /* where '-grid dim' is, for messages */
    bool in_body_eof;
    uint64_t max_insts, max_addrs; /* per thread block: AS_MAX_BLOCK_* */
} as_source;

static const char *lr_name(const as_source *s)
{
    return s->lr ? wc_lreader_name(s->lr) : "?";
}

static unsigned long long lr_line(const as_source *s)
{
    return s->lr ? (unsigned long long)wc_lreader_lineno(s->lr) : 0;
}

/* Next non-blank line (honouring a pushed-back one).  1 / 0 at EOF / -1. */
static int next_line(as_source *s, char **line, wc_err *err)
{
    if (s->peek) {
        *line = s->peek;
        s->peek = NULL;
        return 1;
    }
    for (;;) {
        char *l;
        size_t n;
        int rc = wc_lreader_next(s->lr, &l, &n, err);
        if (rc <= 0) return rc;
        char *e = l + n;
        while (e > l && (e[-1] == ' ' || e[-1] == '\t')) *--e = 0;
        while (*l == ' ' || *l == '\t') l++;
        if (*l) {
            *line = l;
            return 1;
        }
    }
}

/* "key = value" -> value (after the '='), or NULL. */
static char *value_after(char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) != 0) return NULL;
    char *p = line + n;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '=') return NULL;
    p++;
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* "(X,Y,Z)" or "X,Y,Z" */
static bool parse_dim3(const char *v, wc_dim3 *d)
{
    char buf[128];
    size_t n = strlen(v);
    if (n >= sizeof buf) return false;
    memcpy(buf, v, n + 1);
    char *p = buf;
    if (*p == '(') {
        p++;
        char *e = strchr(p, ')');
        if (!e || e[1]) return false;
        *e = 0;
    }
    uint64_t c[3];
    for (int i = 0; i < 3; i++) {
        char *comma = i < 2 ? strchr(p, ',') : NULL;
        if (i < 2 && !comma) return false;
        if (comma) *comma = 0;
        while (*p == ' ') p++;
        size_t m = strlen(p);
        while (m && p[m - 1] == ' ') p[--m] = 0;
        if (!wc_parse_u64(p, 10, &c[i]) || c[i] > UINT32_MAX) return false;
        p = comma ? comma + 1 : p;
    }
    d->x = (uint32_t)c[0];
    d->y = (uint32_t)c[1];
    d->z = (uint32_t)c[2];
    return true;
}

static int header_field(as_source *s, char *line, wc_err *err)
{
    char *v;
    uint64_t u;
#define BAD(what)                                                                                  \
    wc_errf(err, "%s:%llu: expected %s, found '%s'", lr_name(s), lr_line(s), what, line)
    if ((v = value_after(line, "-kernel name"))) {
        snprintf(s->cur.name, sizeof s->cur.name, "%s", v);
    } else if ((v = value_after(line, "-kernel id"))) {
        if (!wc_parse_u64(v, 10, &u) || u > UINT32_MAX) return BAD("-kernel id = <integer>");
        s->cur.id = (uint32_t)u;
    } else if ((v = value_after(line, "-grid dim"))) {
        if (!parse_dim3(v, &s->cur.grid)) return BAD("-grid dim = (X,Y,Z)");
        s->grid_line = lr_line(s);
    } else if ((v = value_after(line, "-block dim"))) {
        if (!parse_dim3(v, &s->cur.block)) return BAD("-block dim = (X,Y,Z)");
    } else if ((v = value_after(line, "-shmem base_addr"))) {
        if (!wc_parse_u64(v, 16, &s->shmem_base)) return BAD("-shmem base_addr = 0x<hex>");
    } else if ((v = value_after(line, "-local mem base_addr"))) {
        if (!wc_parse_u64(v, 16, &s->local_base)) return BAD("-local mem base_addr = 0x<hex>");
    } else if ((v = value_after(line, "-shmem"))) {
        if (!wc_parse_u64(v, 10, &u) || u > UINT32_MAX) return BAD("-shmem = <bytes>");
        s->cur.shmem_bytes = (uint32_t)u;
    } else if ((v = value_after(line, "-nregs"))) {
        if (!wc_parse_u64(v, 10, &u) || u > 65535) return BAD("-nregs = <registers>");
        s->cur.regs_per_thread = (uint32_t)u;
    } else if ((v = value_after(line, "-accelsim tracer version"))) {
        if (!wc_parse_u64(v, 10, &u) || u < 3 || u > 6)
            return wc_errf(
                err,
                "%s:%llu: accelsim tracer version '%s' is not supported (versions 3 to 6 "
                "are; 1.2-style traces that prefix every line with 'tb_x tb_y tb_z "
                "warpid' must be re-traced with a newer tracer)",
                lr_name(s), lr_line(s), v);
        s->version = (int)u;
    } else if ((v = value_after(line, "-enable lineinfo"))) {
        if (!wc_parse_u64(v, 10, &u) || u > 1) return BAD("-enable lineinfo = 0|1");
        s->lineinfo = u == 1;
    }
    /* Other fields (binary version, stream id, nvbit version, ...) are informational. */
    return 0;
#undef BAD
}

/* Launch-shape limits (formats.h, docs/traces.md "Limits"). */
static int check_shape(as_source *s, wc_err *err)
{
    const wc_dim3 g = s->cur.grid;
    unsigned long long gl = (unsigned long long)s->grid_line;
    switch (wc_trace_shape_fault(g, s->cur.block)) {
    case WC_SHAPE_GRID_ZERO:
        return wc_errf(err, "%s: missing or zero '-grid dim' in the kernel header", lr_name(s));
    case WC_SHAPE_GRID_DIM:
        return wc_errf(err,
                       "%s:%llu: '-grid dim = (%u,%u,%u)' is beyond CUDA's limits (x up to "
                       "2^31-1, y and z up to 65535)",
                       lr_name(s), gl, g.x, g.y, g.z);
    case WC_SHAPE_GRID_BLOCKS:
        return wc_errf(err,
                       "%s:%llu: '-grid dim = (%u,%u,%u)' means %llu thread blocks; more than "
                       "2^32 cannot be meant (the trace would hold hundreds of gigabytes)",
                       lr_name(s), gl, g.x, g.y, g.z, (unsigned long long)wc_dim3_count(g));
    case WC_SHAPE_BLOCK:
        return wc_errf(err,
                       "%s: missing or invalid '-block dim' in the kernel header (1 to 65536 "
                       "threads)",
                       lr_name(s));
    case WC_SHAPE_OK: break;
    }
    if (!s->cur.name[0]) snprintf(s->cur.name, sizeof s->cur.name, "kernel_%u", s->cur.id);
    return 0;
}

/* Parses a kernel file's header up to the first '#' line. */
static int read_header(as_source *s, uint32_t seq, wc_err *err)
{
    memset(&s->cur, 0, sizeof s->cur);
    s->cur.id = seq;
    s->version = 0;
    s->lineinfo = false;
    s->shmem_base = s->local_base = 0;
    s->peek = NULL;
    s->have_pending = s->have_last = false;
    s->nsections = 0;
    s->grid_line = 0;
    s->in_body_eof = false;
    char *line;
    bool saw_any = false;
    for (;;) {
        int rc = next_line(s, &line, err);
        if (rc < 0) return -1;
        if (rc == 0) {
            if (!saw_any) return wc_errf(err, "%s: empty kernel trace", lr_name(s));
            break;
        }
        if (line[0] == '#') {
            if (strncmp(line, "#BEGIN_TB", 9) == 0) s->peek = line;
            break;
        }
        if (line[0] != '-')
            return wc_errf(err, "%s:%llu: expected a '-name = value' header line, found '%.80s'",
                           lr_name(s), lr_line(s), line);
        saw_any = true;
        if (header_field(s, line, err) < 0) return -1;
    }
    if (!saw_any) return wc_errf(err, "%s: missing kernel header", lr_name(s));
    return check_shape(s, err);
}

static int as_next_kernel(wc_source *src, wc_kernel *k, wc_err *err)
{
    as_source *s = (as_source *)src;
    wc_lreader_close(s->lr);
    s->lr = NULL;
    s->have_kernel = false;
    uint32_t seq;
    if (s->mem_lr || s->mem_done) {
        if (s->mem_done) return 0;
        s->lr = s->mem_lr;
        s->mem_lr = NULL;
        s->mem_done = true;
        seq = 1;
    } else {
        if (s->next_kfile >= s->nkfiles) return 0;
        const as_kfile *kf = &s->kfiles[s->next_kfile++];
        s->lr = wc_lreader_open(kf->path, err);
        if (!s->lr) {
            if (s->list_name[0]) {
                wc_err inner = *err;
                return wc_errf(err, "%s:%llu: kernel file: %s", s->list_name,
                               (unsigned long long)kf->line, inner.msg);
            }
            return -1;
        }
        seq = (uint32_t)s->next_kfile;
    }
    if (read_header(s, seq, err) < 0) return -1;
    s->have_kernel = true;
    *k = s->cur;
    return 1;
}

/* ---- instruction lines -------------------------------------------------- */

static char *next_tok(char **p)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) {
        *p = s;
        return NULL;
    }
    char *t = s;
    while (*s && *s != ' ' && *s != '\t') s++;
    if (*s) *s++ = 0;
    *p = s;
    return t;
}

/* ---- fused token scanners (the hot path) ---------------------------------
 * Each skips blanks, reads one token and converts it in the same pass,
 * accepting exactly what next_tok + wc_parse_u64 / wc_parse_i64 / parse_reg
 * accept.  The token is NUL-terminated in place (as next_tok does) so that
 * error messages can quote it.  Returns 1 = ok, 0 = no token (end of line),
 * -1 = malformed token (*tok still points at it). */

/* Hex digit value + 1; 0 for anything that is not a hex digit. */
static const uint8_t hex1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
    ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static inline bool is_blank_or_end(char c)
{
    return c == ' ' || c == '\t' || c == 0;
}

/* Ends the token whose scan stopped at `e` (not necessarily its end). */
static inline int tok_finish(char **pp, char *e, int rc)
{
    while (!is_blank_or_end(*e)) e++;
    if (*e) *e++ = 0;
    *pp = e;
    return rc;
}

/* Ends a token already scanned to its end `e` (a blank or the NUL). */
static inline int tok_done(char **pp, char *e)
{
    if (*e) *e++ = 0;
    *pp = e;
    return 1;
}

/* Digits of base 16 or 10 at *ep, checking each for overflow; false on no
 * digit or overflow.  *ep is left on the first non-digit. */
static bool scan_digits_checked(char **ep, unsigned base, uint64_t *out)
{
    char *e = *ep, *first = e;
    uint64_t v = 0;
    unsigned d;
    while ((d = base == 16 ? hex1[(unsigned char)*e] : ((unsigned)(unsigned char)*e - '0' + 1))) {
        if (base == 10 && d > 10) break;
        d--;
        if (v > (UINT64_MAX - d) / base) return false;
        v = v * base + d;
        e++;
    }
    *ep = e;
    *out = v;
    return e != first;
}

/* As scan_digits_checked.  The first 16 hex / 19 decimal digits cannot
 * overflow 64 bits, so the loop does not check; a longer run of digits (rare)
 * is scanned again with the checks: the same answers, without a division per
 * digit. */
static inline __attribute__((always_inline)) bool scan_digits(char **ep, unsigned base,
                                                              uint64_t *out)
{
    char *e = *ep, *first = e;
    uint64_t v = 0;
    unsigned d;
    if (base == 16) {
        while ((d = hex1[(unsigned char)*e]) != 0) {
            v = v << 4 | (d - 1);
            e++;
        }
        if (e - first > 16) return scan_digits_checked(ep, base, out);
    } else {
        while ((d = (unsigned)(unsigned char)*e - '0') < 10) {
            v = v * 10 + d;
            e++;
        }
        if (e - first > 19) return scan_digits_checked(ep, base, out);
    }
    *ep = e;
    *out = v;
    return e != first;
}

/* Unsigned number token; base 16 takes an optional 0x.  *len = token length. */
static inline __attribute__((always_inline)) int
tok_u64_base(char **pp, unsigned base, uint64_t *out, char **tok, size_t *len)
{
    char *t = *pp;
    while (*t == ' ' || *t == '\t') t++;
    *tok = t;
    if (!*t) {
        *pp = t;
        return 0;
    }
    char *e = t;
    if (base == 16 && e[0] == '0' && (e[1] == 'x' || e[1] == 'X')) e += 2;
    if (!scan_digits(&e, base, out) || !is_blank_or_end(*e)) return tok_finish(pp, e, -1);
    *len = (size_t)(e - t);
    return tok_done(pp, e);
}

/* The two bases as their own functions, each with its base known. */
static int tok_hex(char **pp, uint64_t *out, char **tok, size_t *len)
{
    return tok_u64_base(pp, 16, out, tok, len);
}

static int tok_dec(char **pp, uint64_t *out, char **tok, size_t *len)
{
    return tok_u64_base(pp, 10, out, tok, len);
}

static inline int tok_u64(char **pp, unsigned base, uint64_t *out, char **tok, size_t *len)
{
    return base == 16 ? tok_hex(pp, out, tok, len) : tok_dec(pp, out, tok, len);
}

/* Signed decimal token (optional + or -), as wc_parse_i64. */
static inline int tok_i64(char **pp, int64_t *out, char **tok)
{
    char *t = *pp;
    while (*t == ' ' || *t == '\t') t++;
    *tok = t;
    if (!*t) {
        *pp = t;
        return 0;
    }
    char *e = t;
    bool neg = false;
    uint64_t v;
    if (*e == '-' || *e == '+') neg = *e++ == '-';
    if (!scan_digits(&e, 10, &v) || !is_blank_or_end(*e) ||
        (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX))
        return tok_finish(pp, e, -1);
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return tok_done(pp, e);
}

/* Register token, as parse_reg. */
static inline int tok_reg(char **pp, uint16_t *r, char **tok)
{
    char *t = *pp;
    while (*t == ' ' || *t == '\t') t++;
    *tok = t;
    *r = WC_REG_NONE;
    if (!*t) {
        *pp = t;
        return 0;
    }
    char *e = t;
    if (*e != 'R') return tok_finish(pp, e, 1); /* UR, P, UP, ...: not modelled */
    e++;
    uint64_t v;
    if (!scan_digits(&e, 10, &v) || !is_blank_or_end(*e) || v >= WC_REG_NONE)
        return tok_finish(pp, e, -1);
    if (v != 255) *r = (uint16_t)v;
    return tok_done(pp, e);
}

enum {
    CLS_ALU,
    CLS_SFU,
    CLS_LDG,
    CLS_STG,
    CLS_LDL,
    CLS_STL,
    CLS_LDS,
    CLS_STS,
    CLS_ATOM,
    CLS_BAR,
    CLS_EXIT,
    CLS_LD,
    CLS_ST
};

/* The opcode's name (before the first '.') packed little-endian into an
 * integer, so that classify_opcode compares whole names in one step. */
#define OPK(a, b, c, d)                                                                            \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* Class of the opcode whose name is the n bytes at `opcode` (n = strcspn(opcode, ".")).
 * The names and classes: LDG STG LDGSTS TEX TLD TLD4 -> LDG-like, ATOM ATOMG RED
 * -> ATOM, LDL, STL, LDS LDSM ATOMS -> LDS, STS, LD, ST, BAR, EXIT, MUFU -> SFU;
 * anything else is ALU. */
static int classify_opcode(const char *opcode, size_t n)
{
    const unsigned char *o = (const unsigned char *)opcode;
    switch (n) {
    case 2:
        switch (OPK(o[0], o[1], 0, 0)) {
        case OPK('L', 'D', 0, 0): return CLS_LD;
        case OPK('S', 'T', 0, 0): return CLS_ST;
        default: return CLS_ALU;
        }
    case 3:
        switch (OPK(o[0], o[1], o[2], 0)) {
        case OPK('L', 'D', 'G', 0):
        case OPK('T', 'E', 'X', 0):
        case OPK('T', 'L', 'D', 0): return CLS_LDG;
        case OPK('S', 'T', 'G', 0): return CLS_STG;
        case OPK('R', 'E', 'D', 0): return CLS_ATOM;
        case OPK('L', 'D', 'L', 0): return CLS_LDL;
        case OPK('S', 'T', 'L', 0): return CLS_STL;
        case OPK('L', 'D', 'S', 0): return CLS_LDS;
        case OPK('S', 'T', 'S', 0): return CLS_STS;
        case OPK('B', 'A', 'R', 0): return CLS_BAR;
        default: return CLS_ALU;
        }
    case 4:
        switch (OPK(o[0], o[1], o[2], o[3])) {
        case OPK('T', 'L', 'D', '4'): return CLS_LDG;
        case OPK('A', 'T', 'O', 'M'): return CLS_ATOM;
        case OPK('L', 'D', 'S', 'M'): return CLS_LDS;
        case OPK('E', 'X', 'I', 'T'): return CLS_EXIT;
        case OPK('M', 'U', 'F', 'U'): return CLS_SFU;
        default: return CLS_ALU;
        }
    case 5:
        if (!memcmp(opcode, "ATOMG", 5)) return CLS_ATOM;
        if (!memcmp(opcode, "ATOMS", 5)) return CLS_LDS;
        return CLS_ALU;
    case 6: return memcmp(opcode, "LDGSTS", 6) ? CLS_ALU : CLS_LDG;
    default: return CLS_ALU;
    }
}
#undef OPK

/* Opcode modifiers that matter, as bits (see opcode_mods). */
enum {
    MOD_128 = 1u << 0,
    MOD_64 = 1u << 1,
    MOD_32 = 1u << 2,
    MOD_16 = 1u << 3, /* U16 or S16 */
    MOD_8 = 1u << 4,  /* U8 or S8 */
    MOD_STRONG = 1u << 5,
    MOD_GPU = 1u << 6
};

static unsigned mod_bit(const char *m, size_t n)
{
    switch (n) {
    case 2:
        if (m[0] == '6' && m[1] == '4') return MOD_64;
        if (m[0] == '3' && m[1] == '2') return MOD_32;
        if ((m[0] == 'U' || m[0] == 'S') && m[1] == '8') return MOD_8;
        return 0;
    case 3:
        if (!memcmp(m, "128", 3)) return MOD_128;
        if (!memcmp(m, "GPU", 3)) return MOD_GPU;
        if ((m[0] == 'U' || m[0] == 'S') && m[1] == '1' && m[2] == '6') return MOD_16;
        return 0;
    case 6: return memcmp(m, "STRONG", 6) ? 0 : MOD_STRONG;
    default: return 0;
    }
}

/* One pass over the ".MOD.MOD..." of "NAME.MOD.MOD..." (`dot` is the first '.'
 * or the name's end): the same answers as has_mod for each modifier (a
 * modifier is a whole dot-separated field after the name). */
static unsigned opcode_mods(const char *dot)
{
    unsigned bits = 0;
    const char *p = *dot ? dot : NULL;
    while (p) {
        const char *m = p + 1, *e = m;
        while (*e && *e != '.') e++;
        bits |= mod_bit(m, (size_t)(e - m));
        p = *e ? e : NULL;
    }
    return bits;
}

static unsigned width_from_mods(unsigned mods)
{
    if (mods & MOD_128) return 16;
    if (mods & MOD_64) return 8;
    if (mods & MOD_32) return 4;
    if (mods & MOD_16) return 2;
    if (mods & MOD_8) return 1;
    return 0;
}

static int push_addr(as_block *b, uint64_t a)
{
    if (b->naddr == b->cap_addr) {
        size_t cap = b->cap_addr ? b->cap_addr * 2 : 256;
        uint64_t *p = realloc(b->addrs, cap * sizeof *p);
        if (!p) return -1;
        b->addrs = p;
        b->cap_addr = cap;
    }
    b->addrs[b->naddr++] = a;
    return 0;
}

/* Parses one instruction line into *in (addresses appended to b's pool).
 * 1 = an instruction, 0 = a line that is not one (AS_APPENDED_EXIT). */
static int parse_inst(as_source *s, as_block *b, char *line, as_inst *in, wc_err *err)
{
    char *p = line, *t;
    uint64_t u;
    int64_t d;
    size_t tlen = 0;
    int rc;
    const char *file = lr_name(s);
    unsigned long long ln = lr_line(s);
    memset(in, 0, sizeof *in);
#define NEED(what)                                                                                 \
    do {                                                                                           \
        if (!(t = next_tok(&p)))                                                                   \
            return wc_errf(err, "%s:%llu: expected %s, found end of line", file, ln, what);        \
    } while (0)
#define END_OF_LINE(what) wc_errf(err, "%s:%llu: expected %s, found end of line", file, ln, what)
#define BAD(what)         wc_errf(err, "%s:%llu: expected %s, found '%.40s'", file, ln, what, t)
    /* NUM / SNUM / REG: one token of that kind into `var`, with NEED's and BAD's messages. */
#define NUM(base, var, what, bad)                                                                  \
    do {                                                                                           \
        if ((rc = tok_u64(&p, base, &(var), &t, &tlen)) <= 0)                                      \
            return rc == 0 ? END_OF_LINE(what) : BAD(bad);                                         \
    } while (0)
#define SNUM(var, what, bad)                                                                       \
    do {                                                                                           \
        if ((rc = tok_i64(&p, &(var), &t)) <= 0) return rc == 0 ? END_OF_LINE(what) : BAD(bad);    \
    } while (0)
    if (s->lineinfo) NUM(10, u, "line number", "decimal line number (-enable lineinfo = 1)");
    NUM(16, in->pc, "PC", "hex PC");
    if ((rc = tok_u64(&p, 16, &u, &t, &tlen)) == 0) return END_OF_LINE("active mask");
    if (rc < 0 || tlen != 8)
        return wc_errf(err,
                       "%s:%llu: expected an 8-hex-digit active mask, found '%.40s' (1.2-style "
                       "lines 'tb_x tb_y tb_z warpid PC mask ...' are not supported)",
                       file, ln, t);
    in->mask = (uint32_t)u;
    uint64_t nd;
    NUM(10, nd, "dest_num", "dest_num (0..64)");
    if (nd > AS_MAX_REGS_LISTED) return BAD("dest_num (0..64)");
    for (uint64_t i = 0; i < nd; i++) {
        uint16_t r;
        if ((rc = tok_reg(&p, &r, &t)) <= 0)
            return rc == 0 ? END_OF_LINE("destination register") : BAD("register R<n>");
        if (r != WC_REG_NONE && in->ndst < WC_MAX_DST) in->dst[in->ndst++] = r;
    }
    NEED("opcode");
    const char *opcode = t, *opdot = t;
    while (*opdot && *opdot != '.') opdot++;
    uint64_t ns;
    NUM(10, ns, "src_num", "src_num (0..64)");
    if (ns > AS_MAX_REGS_LISTED) return BAD("src_num (0..64)");
    for (uint64_t i = 0; i < ns; i++) {
        uint16_t r;
        if ((rc = tok_reg(&p, &r, &t)) <= 0)
            return rc == 0 ? END_OF_LINE("source register") : BAD("register R<n>");
        if (r != WC_REG_NONE && in->nsrc < WC_MAX_SRC) in->src[in->nsrc++] = r;
    }
    uint64_t mem_width;
    NUM(10, mem_width, "mem_width", "mem_width (bytes)");
    if (mem_width > 4096) return BAD("mem_width (bytes)");
    int cls = classify_opcode(opcode, (size_t)(opdot - opcode));
    unsigned active = wc_popcount32(in->mask);
    bool has_addrs = false;
    if (mem_width > 0) {
        uint64_t mode;
        NUM(10, mode, "address mode (0, 1 or 2)", "address mode 0, 1 or 2");
        if (mode > 2) return BAD("address mode 0, 1 or 2");
        uint32_t first_off = (uint32_t)b->naddr; /* naddr <= max_addrs < 2^32 */
        if (b->naddr + active > s->max_addrs)
            return wc_errf(err,
                           "%s:%llu: the thread block lists more than %llu addresses (a limit "
                           "of warpcache's, docs/traces.md)",
                           file, ln, (unsigned long long)s->max_addrs);
        if (mode == 0) {
            for (unsigned k = 0; k < active; k++) {
                NUM(16, u, "one 0x address per active lane", "0x<hex> address");
                if (t[0] != '0' || t[1] != 'x') return BAD("0x<hex> address");
                if (push_addr(b, u) < 0) return wc_errf(err, "%s: out of memory", file);
            }
            in->amode = WC_ADDR_LIST;
        } else {
            /* The base is optional only when no lane is active. */
            bool have_base = false;
            if (active || (*p && strncmp(p + strspn(p, " \t"), "0x", 2) == 0)) {
                NUM(16, in->base, "0x base address", "0x<hex> base address");
                if (t[0] != '0' || t[1] != 'x') return BAD("0x<hex> base address");
                have_base = true;
            }
            if (mode == 1) {
                if (have_base) SNUM(in->stride, "stride", "signed decimal stride");
                if (wc_mask_is_prefix(in->mask) || in->stride == 0) {
                    in->amode = WC_ADDR_STRIDE;
                } else {
                    /* Rank-based stride over a gapped mask: expand to a list. */
                    for (unsigned k = 0; k < active; k++)
                        if (push_addr(b, in->base + (uint64_t)in->stride * k) < 0)
                            return wc_errf(err, "%s: out of memory", file);
                    in->amode = WC_ADDR_LIST;
                    in->base = 0;
                    in->stride = 0;
                }
            } else {
                uint64_t a = in->base;
                if (active && push_addr(b, a) < 0) return wc_errf(err, "%s: out of memory", file);
                for (unsigned k = 1; k < active; k++) {
                    SNUM(d, "one delta per active lane after the first (mode 2)",
                         "signed decimal address delta");
                    a += (uint64_t)d;
                    if (push_addr(b, a) < 0) return wc_errf(err, "%s: out of memory", file);
                }
                in->amode = WC_ADDR_LIST;
                in->base = 0;
            }
        }
        in->addr_off = first_off;
        has_addrs = true;
    }
    /* Trailing immediate (v4 late 2023, v5); version 6 may add more fields. */
    if ((t = next_tok(&p))) {
        int64_t imm;
        if (s->version != 6 && !strncmp(t, "0x", 2))
            return wc_errf(err, "%s:%llu: more addresses than active lanes (mask %08x has %u)",
                           file, ln, in->mask, active);
        if (s->version != 6 && !wc_parse_i64(t, &imm))
            return BAD("end of line or a decimal immediate");
        if (s->version != 6 && next_tok(&p))
            return wc_errf(err,
                           "%s:%llu: unexpected tokens after the immediate (more addresses "
                           "than active lanes?)",
                           file, ln);
    }
    /* Operation class. */
    unsigned mods = opcode_mods(opdot);
    unsigned width = width_from_mods(mods);
    if (!width)
        width = (mem_width == 1 || mem_width == 2 || mem_width == 4 || mem_width == 8 ||
                 mem_width == 16)
                    ? (unsigned)mem_width
                    : 4;
    switch (cls) {
    case CLS_SFU: in->op = WC_OP_SFU; break;
    case CLS_BAR: in->op = WC_OP_BAR; break;
    case CLS_EXIT:
        /* The EXIT our writer adds so Accel-Sim can end the warp is not part
         * of the program: counted in 'insts =' but not returned. */
        if (!strcmp(opcode, AS_APPENDED_EXIT)) {
            if (has_addrs) b->naddr = in->addr_off;
            return 0;
        }
        in->op = WC_OP_EXIT;
        break;
    case CLS_LDG: in->op = WC_OP_LDG; break;
    case CLS_STG: in->op = WC_OP_STG; break;
    case CLS_LDL: in->op = WC_OP_LDL; break;
    case CLS_STL: in->op = WC_OP_STL; break;
    case CLS_LDS: in->op = WC_OP_LDS; break;
    case CLS_STS: in->op = WC_OP_STS; break;
    case CLS_ATOM: in->op = WC_OP_ATOM; break;
    case CLS_LD:
    case CLS_ST: {
        uint64_t a0 =
            in->amode == WC_ADDR_STRIDE
                ? in->base + (uint64_t)in->stride * (uint64_t)__builtin_ctz(in->mask | 1u << 31)
                : (active && in->amode == WC_ADDR_LIST ? b->addrs[in->addr_off] : 0);
        bool shared = s->shmem_base && a0 >= s->shmem_base && a0 - s->shmem_base < AS_WINDOW;
        bool local = s->local_base && a0 >= s->local_base && a0 - s->local_base < AS_WINDOW;
        if (cls == CLS_LD)
            in->op = shared ? WC_OP_LDS : local ? WC_OP_LDL : WC_OP_LDG;
        else
            in->op = shared ? WC_OP_STS : local ? WC_OP_STL : WC_OP_STG;
        break;
    }
    default: in->op = WC_OP_ALU; break;
    }
    if (!wc_op_is_mem(in->op) || !has_addrs) {
        /* A memory opcode without addresses has nothing to access; addresses on an
         * opcode we do not model as memory (LDC, ...) are dropped. */
        if (wc_op_is_mem(in->op)) in->op = WC_OP_ALU;
        b->naddr = has_addrs ? in->addr_off : b->naddr;
        in->amode = WC_ADDR_NONE;
        in->base = 0;
        in->stride = 0;
        in->width = 0;
        return 1;
    }
    in->width = (uint8_t)width;
    if (in->op == WC_OP_ATOM) in->flags |= WC_INST_NO_L1_ALLOC;
    if (wc_op_is_load(in->op) && (mods & MOD_STRONG) && (mods & MOD_GPU))
        in->flags |= WC_INST_NO_L1_ALLOC;
    return 1;
#undef NEED
#undef END_OF_LINE
#undef BAD
#undef NUM
#undef SNUM
}

/* ---- thread-block sections --------------------------------------------- */

static void block_free(as_block *b)
{
    if (!b) return;
    free(b->w);
    free(b->insts);
    free(b->addrs);
    free(b);
}

static as_block *block_new(uint32_t nwarps)
{
    as_block *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->nwarps = nwarps;
    b->w = calloc(nwarps ? nwarps : 1, sizeof *b->w);
    if (!b->w) {
        free(b);
        return NULL;
    }
    return b;
}

/* Reads "#BEGIN_TB" and the "thread block = x,y,z" line of the next section.
 * 1 = pending_id set, 0 = no more sections. */
static int read_section_start(as_source *s, wc_err *err)
{
    char *line, *v;
    int rc = next_line(s, &line, err);
    if (rc <= 0) return rc;
    while (line[0] == '#' && strncmp(line, "#BEGIN_TB", 9) != 0) {
        /* comments between sections */
        if ((rc = next_line(s, &line, err)) <= 0) return rc;
    }
    if (strncmp(line, "#BEGIN_TB", 9) != 0)
        return wc_errf(err, "%s:%llu: expected #BEGIN_TB, found '%.80s'", lr_name(s), lr_line(s),
                       line);
    for (;;) {
        rc = next_line(s, &line, err);
        if (rc < 0) return -1;
        if (rc == 0)
            return wc_errf(err, "%s:%llu: truncated: expected 'thread block = x,y,z'", lr_name(s),
                           lr_line(s));
        if (!strncmp(line, "cluster", 7)) continue; /* version 6 cluster lines */
        break;
    }
    wc_dim3 c;
    if (!(v = value_after(line, "thread block")) || !parse_dim3(v, &c))
        return wc_errf(err, "%s:%llu: expected 'thread block = x,y,z', found '%.80s'", lr_name(s),
                       lr_line(s), line);
    const wc_dim3 g = s->cur.grid;
    if (c.x >= g.x || c.y >= g.y || c.z >= g.z)
        return wc_errf(err, "%s:%llu: thread block (%u,%u,%u) is outside the grid (%u,%u,%u)",
                       lr_name(s), lr_line(s), c.x, c.y, c.z, g.x, g.y, g.z);
    uint64_t id = c.x + (uint64_t)g.x * (c.y + (uint64_t)g.y * c.z);
    if (s->have_last && id <= s->last_id)
        return wc_errf(err,
                       "%s:%llu: thread block (%u,%u,%u) comes after block %llu: sections must be "
                       "in increasing linear block id order (x fastest)",
                       lr_name(s), lr_line(s), c.x, c.y, c.z, (unsigned long long)s->last_id);
    s->have_last = true;
    s->last_id = id;
    s->nsections++;
    s->have_pending = true;
    s->pending_id = id;
    s->pending_line = lr_line(s);
    return 1;
}

/* Reads the body of the pending section (after "thread block") into b
 * (b may be NULL to skip the section). */
static int read_section_body(as_source *s, as_block *b, uint32_t nwarps, wc_err *err)
{
    char *line, *v;
    uint64_t u, claimed = 0;
    s->have_pending = false;
    for (;;) {
        int rc = next_line(s, &line, err);
        if (rc < 0) return -1;
        if (rc == 0)
            return wc_errf(err, "%s:%llu: truncated thread block (expected #END_TB)", lr_name(s),
                           lr_line(s));
        if (!strncmp(line, "#END_TB", 7)) return 0;
        if (!strncmp(line, "cluster", 7)) continue;
        if (!(v = value_after(line, "warp")) || !wc_parse_u64(v, 10, &u))
            return wc_errf(err, "%s:%llu: expected 'warp = <n>' or #END_TB, found '%.80s'",
                           lr_name(s), lr_line(s), line);
        if (u >= nwarps)
            return wc_errf(err, "%s:%llu: warp %llu out of range (the block has %u warps)",
                           lr_name(s), lr_line(s), (unsigned long long)u, nwarps);
        uint32_t w = (uint32_t)u;
        if ((rc = next_line(s, &line, err)) < 0) return -1;
        if (rc == 0 || !(v = value_after(line, "insts")) || !wc_parse_u64(v, 10, &u) ||
            u > UINT32_MAX)
            return wc_errf(err, "%s:%llu: expected 'insts = <n>' after 'warp = %u'", lr_name(s),
                           lr_line(s), w);
        uint64_t n = u;
        /* The claims bound the block before its lines are read (a claim
         * must match the lines that follow). */
        if (n > s->max_insts - claimed)
            return wc_errf(err,
                           "%s:%llu: 'insts = %llu' makes the thread block more than %llu "
                           "instructions (a limit of warpcache's, docs/traces.md)",
                           lr_name(s), lr_line(s), (unsigned long long)n,
                           (unsigned long long)s->max_insts);
        claimed += n;
        if (b && b->w[w].count)
            return wc_errf(err, "%s:%llu: warp %u listed twice in one thread block", lr_name(s),
                           lr_line(s), w);
        if (b) b->w[w].first = (uint32_t)b->ninst;
        for (uint64_t i = 0; i < n; i++) {
            if ((rc = next_line(s, &line, err)) < 0) return -1;
            if (rc == 0 || line[0] == '#' || (line[0] == 'w' && !strncmp(line, "warp", 4)))
                return wc_errf(err,
                               "%s:%llu: expected instruction %llu of %llu of warp %u, found %s",
                               lr_name(s), lr_line(s), (unsigned long long)i + 1,
                               (unsigned long long)n, w, rc == 0 ? "end of file" : line);
            if (!b) continue;
            if (b->ninst == b->cap_inst) {
                size_t cap = b->cap_inst ? b->cap_inst * 2 : 256; /* ninst <= max_insts */
                as_inst *p = realloc(b->insts, cap * sizeof *p);
                if (!p) return wc_errf(err, "%s: out of memory", lr_name(s));
                b->insts = p;
                b->cap_inst = cap;
            }
            int kept = parse_inst(s, b, line, &b->insts[b->ninst], err);
            if (kept < 0) return -1;
            b->ninst += (size_t)kept;
        }
        if (b) b->w[w].count = (uint32_t)(b->ninst - b->w[w].first);
    }
}

static int as_open_block(wc_source *src, uint64_t block_id, void **out, wc_err *err)
{
    as_source *s = (as_source *)src;
    if (!s->have_kernel) return wc_errf(err, "accelsim: open_block without a kernel");
    uint32_t nwarps = wc_kernel_warps_per_block(&s->cur);
    as_block *b = block_new(nwarps);
    if (!b) return wc_errf(err, "%s: out of memory", lr_name(s));
    for (;;) {
        if (!s->have_pending) {
            int rc = s->in_body_eof ? 0 : read_section_start(s, err);
            if (rc < 0) goto fail;
            if (rc == 0) {
                /* Blocks are asked for in increasing order, so the file ended
                 * before this one: a truncated trace, not empty blocks. */
                s->in_body_eof = true;
                wc_dim3 g = s->cur.grid;
                wc_errf(err,
                        "%s: the trace ends after %llu thread block section%s, but '-grid dim = "
                        "(%u,%u,%u)' has %llu blocks (truncated file?)",
                        lr_name(s), (unsigned long long)s->nsections, s->nsections == 1 ? "" : "s",
                        g.x, g.y, g.z, (unsigned long long)wc_dim3_count(g));
                goto fail;
            }
        }
        if (s->pending_id > block_id) break; /* block absent from the trace: empty */
        if (s->pending_id == block_id) {
            if (read_section_body(s, b, nwarps, err) < 0) goto fail;
            /* Look at the next section now, so that out-of-order files fail loudly. */
            int rc = read_section_start(s, err);
            if (rc < 0) goto fail;
            if (rc == 0) s->in_body_eof = true;
            break;
        }
        /* A section the engine did not ask for: skip it. */
        if (read_section_body(s, NULL, nwarps, err) < 0) goto fail;
    }
    *out = b;
    return 1;
fail:
    block_free(b);
    return -1;
}

static int as_next_inst(wc_source *src, void *block, uint32_t warp, wc_winst *out, wc_err *err)
{
    as_block *b = block;
    if (warp >= b->nwarps) return wc_errf(err, "accelsim: warp %u out of range", warp);
    as_warp *w = &b->w[warp];
    if (w->next >= w->count) return 0;
    const as_inst *in = &b->insts[w->first + w->next++];
    out->pc = in->pc;
    out->mask = in->mask;
    out->op = in->op;
    out->width = in->width;
    out->flags = in->flags;
    out->amode = in->amode;
    out->ndst = in->ndst;
    out->nsrc = in->nsrc;
    memcpy(out->dst, in->dst, sizeof out->dst);
    memcpy(out->src, in->src, sizeof out->src);
    out->base = in->base;
    out->stride = in->stride;
    if (in->amode == WC_ADDR_LIST && in->mask) {
        const uint64_t *a = b->addrs + in->addr_off;
        for (uint32_t m = in->mask; m; m &= m - 1) out->addr[__builtin_ctz(m)] = *a++;
    }
    return 1;
}

static void as_close_block(wc_source *src, void *block)
{
    block_free(block);
}

static void as_destroy(wc_source *src)
{
    as_source *s = (as_source *)src;
    wc_lreader_close(s->lr);
    wc_lreader_close(s->mem_lr);
    for (size_t i = 0; i < s->nkfiles; i++) free(s->kfiles[i].path);
    free(s->kfiles);
    free(s);
}

static const wc_source_ops as_ops = {
    .name = "accelsim",
    .next_kernel = as_next_kernel,
    .open_block = as_open_block,
    .next_inst = as_next_inst,
    .close_block = as_close_block,
    .destroy = as_destroy,
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static bool is_kernel_file_name(const char *s)
{
    return ends_with(s, ".traceg") || ends_with(s, ".traceg.xz") || ends_with(s, ".traceg.gz") ||
           ends_with(s, ".traceg.zst");
}

static int add_kfile(as_source *s, const char *dir, const char *name, uint64_t line, wc_err *err)
{
    as_kfile *p = realloc(s->kfiles, (s->nkfiles + 1) * sizeof *p);
    if (!p) return wc_errf(err, "out of memory");
    s->kfiles = p;
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path) return wc_errf(err, "out of memory");
    if (name[0] == '/' || !dir[0])
        snprintf(path, n, "%s", name);
    else
        snprintf(path, n, "%s/%s", dir, name);
    s->kfiles[s->nkfiles].path = path;
    s->kfiles[s->nkfiles].line = line;
    s->nkfiles++;
    return 0;
}

static int read_kernelslist(as_source *s, const char *path, wc_err *err)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        dir[0] = 0;
    wc_lreader *lr = wc_lreader_open(path, err);
    if (!lr) return -1;
    char *line;
    int rc;
    while ((rc = wc_lreader_next(lr, &line, NULL, err)) > 0) {
        while (*line == ' ' || *line == '\t') line++;
        size_t n = strlen(line);
        while (n && (line[n - 1] == ' ' || line[n - 1] == '\t')) line[--n] = 0;
        if (!*line || *line == '#') continue;
        if (!strncmp(line, "Memcpy", 6)) {
            s->memcpys++;
        } else if (is_kernel_file_name(line)) {
            if (add_kfile(s, dir, line, wc_lreader_lineno(lr), err) < 0) rc = -1;
        } else {
            /* Garbage (or an unprocessed tracer list naming kernel-N.trace)
             * must not read as a trace with fewer kernels. */
            rc = wc_errf(err,
                         "%s:%llu: expected 'Memcpy...' or a kernel-N.traceg[.xz|.gz|.zst] file "
                         "name, found '%.80s'%s",
                         path, (unsigned long long)wc_lreader_lineno(lr), line,
                         ends_with(line, ".trace")
                             ? " (raw tracer output: run Accel-Sim's post-traces-processing first)"
                             : "");
        }
        if (rc < 0) break;
    }
    wc_lreader_close(lr);
    if (rc < 0) return -1;
    if (!s->nkfiles)
        return wc_errf(err, "%s: lists no kernel file (%llu Memcpy line%s): a trace needs a kernel",
                       path, (unsigned long long)s->memcpys, s->memcpys == 1 ? "" : "s");
    return 0;
}

wc_source *wc_accelsim_open(const char *path, wc_err *err)
{
    as_source *s = calloc(1, sizeof *s);
    if (!s) {
        wc_errf(err, "out of memory");
        return NULL;
    }
    s->base.ops = &as_ops;
    s->max_insts = AS_MAX_BLOCK_INSTS;
    s->max_addrs = AS_MAX_BLOCK_ADDRS;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int rc;
    if (is_kernel_file_name(base) || ends_with(base, ".trace")) {
        rc = add_kfile(s, "", path, 0, err);
    } else {
        snprintf(s->list_name, sizeof s->list_name, "%s", path);
        rc = read_kernelslist(s, path, err);
    }
    if (rc < 0) {
        as_destroy(&s->base);
        return NULL;
    }
    return &s->base;
}

wc_source *wc_accelsim_open_lreader(wc_lreader *lr, wc_err *err)
{
    as_source *s = calloc(1, sizeof *s);
    if (!s) {
        wc_lreader_close(lr);
        wc_errf(err, "out of memory");
        return NULL;
    }
    s->base.ops = &as_ops;
    s->max_insts = AS_MAX_BLOCK_INSTS;
    s->max_addrs = AS_MAX_BLOCK_ADDRS;
    s->mem_lr = lr;
    return &s->base;
}

void wc_accelsim_set_block_limits(wc_source *src, uint64_t max_insts, uint64_t max_addrs)
{
    as_source *s = (as_source *)src;
    s->max_insts = max_insts < AS_MAX_BLOCK_INSTS ? max_insts : AS_MAX_BLOCK_INSTS;
    s->max_addrs = max_addrs < AS_MAX_BLOCK_ADDRS ? max_addrs : AS_MAX_BLOCK_ADDRS;
}

/* ---- writer ------------------------------------------------------------- */

static const char *width_suffix(unsigned width)
{
    switch (width) {
    case 1: return ".U8";
    case 2: return ".U16";
    case 8: return ".64";
    case 16: return ".128";
    default: return "";
    }
}

static void opcode_for(const wc_winst *in, char *buf, size_t n)
{
    const char *w = width_suffix(in->width);
    bool strong = (in->flags & WC_INST_NO_L1_ALLOC) != 0;
    switch (in->op) {
    case WC_OP_SFU: snprintf(buf, n, "MUFU.RCP"); break;
    case WC_OP_LDG: snprintf(buf, n, "LDG.E%s%s", w, strong ? ".STRONG.GPU" : ""); break;
    case WC_OP_STG: snprintf(buf, n, "STG.E%s", w); break;
    case WC_OP_LDL: snprintf(buf, n, "LDL%s%s", w, strong ? ".STRONG.GPU" : ""); break;
    case WC_OP_STL: snprintf(buf, n, "STL%s", w); break;
    case WC_OP_LDS: snprintf(buf, n, "LDS%s", w); break;
    case WC_OP_STS: snprintf(buf, n, "STS%s", w); break;
    case WC_OP_ATOM: snprintf(buf, n, "ATOMG.E.ADD%s", w); break;
    case WC_OP_BAR: snprintf(buf, n, "BAR.SYNC"); break;
    case WC_OP_EXIT: snprintf(buf, n, "EXIT"); break;
    default: snprintf(buf, n, "IADD"); break;
    }
}

/* One instruction line in the form Accel-Sim's parser reads (see the
 * AS_WRITE_* limits): registers beyond its arrays are left out, mode 1 only
 * where its decompressor gives the same addresses (active lanes contiguous
 * from lane 0, or none: it fills the first run of active lanes only) and the
 * stride fits its int; everything else as mode 2 deltas. */
static int write_inst(wc_strbuf *sb, const wc_winst *in)
{
    char opcode[64];
    opcode_for(in, opcode, sizeof opcode);
    unsigned ndst = in->ndst < AS_WRITE_MAX_DST ? in->ndst : AS_WRITE_MAX_DST;
    unsigned nsrc = in->nsrc < AS_WRITE_MAX_SRC ? in->nsrc : AS_WRITE_MAX_SRC;
    int rc = wc_strbuf_printf(sb, "%04llx %08x %u", (unsigned long long)in->pc, in->mask, ndst);
    for (unsigned i = 0; i < ndst; i++) rc |= wc_strbuf_printf(sb, " R%u", in->dst[i]);
    rc |= wc_strbuf_printf(sb, " %s %u", opcode, nsrc);
    for (unsigned i = 0; i < nsrc; i++) rc |= wc_strbuf_printf(sb, " R%u", in->src[i]);
    if (!wc_op_is_mem(in->op) || in->amode == WC_ADDR_NONE)
        return rc | wc_strbuf_printf(sb, " 0 \n");
    unsigned width = in->width ? in->width : 4;
    if (in->amode == WC_ADDR_STRIDE && wc_mask_is_prefix(in->mask) && in->stride >= INT32_MIN &&
        in->stride <= INT32_MAX)
        return rc | wc_strbuf_printf(sb, " %u 1 0x%llx %lld \n", width,
                                     (unsigned long long)in->base, (long long)in->stride);
    /* Per-lane list as base + deltas (mode 2); no address when no lane is active. */
    rc |= wc_strbuf_printf(sb, " %u %d", width, in->mask ? 2 : 0);
    uint64_t prev = 0;
    bool first = true;
    for (uint32_t m = in->mask; m; m &= m - 1) {
        uint64_t a = wc_winst_lane_addr(in, (unsigned)__builtin_ctz(m));
        if (first)
            rc |= wc_strbuf_printf(sb, " 0x%llx", (unsigned long long)a);
        else
            rc |= wc_strbuf_printf(sb, " %lld", (long long)(int64_t)(a - prev));
        prev = a;
        first = false;
    }
    return rc | wc_strbuf_printf(sb, " \n");
}

/* Lanes of warp w that hold a thread (the last warp of a block may be partial). */
static uint32_t live_lanes(const wc_kernel *k, uint32_t w)
{
    uint32_t tpb = wc_kernel_threads_per_block(k), first = w * WC_WARP_SIZE;
    uint32_t n = tpb - first < WC_WARP_SIZE ? tpb - first : WC_WARP_SIZE;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* Writes one warp's instructions into sb; *n = lines written.  Accel-Sim
 * retires a warp only when EXIT has covered all its threads (and asserts
 * when a warp has no instruction), so lanes the source never exited get an
 * appended AS_APPENDED_EXIT. */
static int write_warp(wc_source *src, void *blk, const wc_kernel *k, uint32_t w, wc_strbuf *sb,
                      uint64_t *n, const char *path, wc_err *err)
{
    wc_winst in;
    uint32_t exited = 0;
    uint64_t pc = 0;
    int rc;
    *n = 0;
    while ((rc = src->ops->next_inst(src, blk, w, &in, err)) > 0) {
        if (write_inst(sb, &in) < 0) return wc_errf(err, "%s: out of memory", path);
        if (in.op == WC_OP_EXIT) exited |= in.mask;
        pc = in.pc + 16;
        (*n)++;
    }
    if (rc < 0) return -1;
    uint32_t rest = live_lanes(k, w) & ~exited;
    if (rest) {
        if (wc_strbuf_printf(sb, "%04llx %08x 0 %s 0 0 \n", (unsigned long long)pc, rest,
                             AS_APPENDED_EXIT) < 0)
            return wc_errf(err, "%s: out of memory", path);
        (*n)++;
    }
    return 0;
}

static int write_kernel_file(wc_source *src, const wc_kernel *k, const char *path, wc_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f) return wc_errf(err, "%s: cannot create: %s", path, strerror(errno));
    fprintf(f,
            "-kernel name = %s\n-kernel id = %u\n-grid dim = (%u,%u,%u)\n-block dim = (%u,%u,%u)\n"
            "-shmem = %u\n-nregs = %u\n-binary version = 70\n-cuda stream id = 0\n"
            "-shmem base_addr = 0x0000000000000000\n-local mem base_addr = 0x0000000000000000\n"
            "-nvbit version = warpcache\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
            "mem_width [adrrescompress?] [mem_addresses] [immediate]\n\n",
            k->name, k->id, k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z,
            k->shmem_bytes, k->regs_per_thread);
    uint64_t nblocks = wc_dim3_count(k->grid);
    uint32_t nwarps = wc_kernel_warps_per_block(k);
    wc_strbuf sb = {0};
    int ret = 0;
    for (uint64_t id = 0; id < nblocks && ret == 0; id++) {
        void *blk;
        if (src->ops->open_block(src, id, &blk, err) < 0) {
            ret = -1;
            break;
        }
        wc_dim3 c = wc_dim3_unlinear(k->grid, id);
        fprintf(f, "#BEGIN_TB\n\nthread block = %u,%u,%u\n\n", c.x, c.y, c.z);
        for (uint32_t w = 0; w < nwarps && ret == 0; w++) {
            uint64_t n = 0;
            sb.len = 0;
            if (write_warp(src, blk, k, w, &sb, &n, path, err) < 0) {
                ret = -1;
                break;
            }
            fprintf(f, "warp = %u\ninsts = %llu\n", w, (unsigned long long)n);
            if (sb.len) fwrite(sb.p, 1, sb.len, f);
            fputc('\n', f);
        }
        src->ops->close_block(src, blk);
        fprintf(f, "#END_TB\n\n");
    }
    wc_strbuf_free(&sb);
    if (fclose(f) != 0 && ret == 0) ret = wc_errf(err, "%s: write error", path);
    return ret;
}

int wc_accelsim_write(wc_source *src, const char *dir, wc_err *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return wc_errf(err, "%s: cannot create directory: %s", dir, strerror(errno));
    char path[4200];
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *list = fopen(path, "w");
    if (!list) return wc_errf(err, "%s: cannot create: %s", path, strerror(errno));
    wc_kernel k;
    int rc;
    uint32_t n = 0;
    while ((rc = src->ops->next_kernel(src, &k, err)) > 0) {
        n++;
        fprintf(list, "kernel-%u.traceg\n", n);
        snprintf(path, sizeof path, "%s/kernel-%u.traceg", dir, n);
        if (write_kernel_file(src, &k, path, err) < 0) {
            rc = -1;
            break;
        }
    }
    if (fclose(list) != 0 && rc == 0) rc = wc_errf(err, "%s/kernelslist.g: write error", dir);
    return rc < 0 ? -1 : 0;
}
