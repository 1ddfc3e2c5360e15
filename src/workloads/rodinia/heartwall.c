/*
 * heartwall.c - Rodinia heartwall (CUDA), seed 001's "HT": tracks 51 points
 * (20 endocardial, 31 epicardial) of a mouse heart across ultrasound frames;
 * one kernel<<<51, 256>>> per frame, one block per point.  Facts from
 * Rodinia 3.1's public CUDA source (kernel.cu, main.cu); default command line
 * `heartwall test.avi 20`.
 *
 * Geometry: template side IN = 2*tsize+1, search window IN2 = 2*ssize+1,
 * correlation CV = IN + IN2 - 1, padded window PAD = IN2 + 2*IN.  The frame
 * (609 x 590, column-major: element (r, c) at c*609 + r) is one array; every
 * point owns its scratch arrays (block bx's copy at bx * size).  The 51
 * initial point locations are the source's hard-coded endo/epi tables.
 *
 * Frame 0 (template extraction): each thread ei < IN*IN loads the frame at
 * the point (row = ei % IN, col = ei / IN, offsets -tsize-1; the source
 * writes the 25 of its tSize literally) and stores T[ei].  Later frames run the source's phases in
 * order, each a loop ei = tx, tx+256, ... over its elements, with a barrier after it:
 *  - gather the IN2 x IN2 search window from the frame into in2;
 *  - load the template rotated by 180 degrees (into shared memory);
 *  - the full 2-D convolution conv (CV x CV): output (ic, jc) sums over the
 *    overlapping window, one shared-memory template read and one global
 *    in2[IN2*(jb-1) + ib-1] read per term; a warp loops over the union of its
 *    lanes' windows, each lane active inside its own;
 *  - local sums of in2 and of in2^2 by cumulative sums: pad (PAD x PAD),
 *    column cumsum (one thread per column), two row selections (CV x PAD),
 *    difference, row cumsum (one thread per row), two column selections
 *    (CV x CV), difference;
 *  - the template's sums of values and squares; the normalisation passes
 *    over CV x CV (denominator, numerator, correlation).
 * Arrays: 0 frame, 1 T, 2 in2, 3 conv, 4 pad, 5 sel, 6 sub_cumh,
 * 7 sub_cumh_sel, 8 sub2, 9 in2_sqr, 10 sqr_sub2, 11 in_sqr, 12 tMask.
 *
 * Exact: the element counts, loop structure and index expressions of the
 * phases listed, for the given geometry.  Approximated: the default geometry
 * is scaled down (tsize 12, ssize 20, 3 frames) from the original (25, 40,
 * 20 frames: 110.5 M warp instructions per tracked frame) so a run takes
 * seconds; the selection offsets are those of main.cu's geometry, derived
 * rather than read; points stay at their initial locations (the original
 * moves each by at most maxMove = 10 pixels a frame); the final phases
 * (mask convolution, maximum search, template update) are one pass over
 * tMask and one over the correlation plus a template update; ALU work is
 * counted, not compiled.
 *
 * shared=0 (seed 004's "unshared" /U, 004_0fcfedff3b0ef5ba.txt section 4,
 * Table 3): the two shared-memory arrays become per-point global arrays:
 * the rotated template (array 13, IN x IN; its phase stores there, and each
 * convolution term loads its template element rot[(ja-1)*IN + ia-1] from it
 * instead of from shared memory) and the maximum search's scratch (array
 * 14, CV x CV, stored at the element).  Everything else is unchanged.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define HW_THREADS 256
#define HW_POINTS  51
#define HW_FROWS   609
#define HW_FCOLS   590
#define HW_MAXPH   40
#define HW_SHARED  0xff /* a phase storing to shared memory */
#define HW_ROT_U   13   /* /U: the rotated template in global memory */
#define HW_MAX_U   14   /* /U: the maximum search's scratch in global memory */

static const uint16_t hw_row[HW_POINTS] = {
    369, 400, 429, 452, 476, 486, 479, 458, 433, 404, 374, 346, 318, 294, 277, 269, 275,
    287, 311, 339, 390, 419, 448, 474, 501, 519, 535, 542, 543, 538, 528, 511, 491, 466,
    438, 406, 376, 347, 318, 291, 275, 259, 256, 252, 252, 257, 266, 283, 305, 331, 360,
};
static const uint16_t hw_col[HW_POINTS] = {
    408, 406, 397, 383, 354, 322, 294, 270, 250, 237, 235, 241, 254, 273, 300, 328, 356,
    383, 401, 411, 457, 454, 446, 431, 411, 388, 361, 331, 301, 273, 243, 218, 196, 178,
    166, 157, 155, 165, 177, 197, 218, 248, 276, 304, 333, 361, 391, 415, 434, 448, 455,
};

/* Where a phase's load of element ei (row = ei % rows, col = ei / rows) reads. */
typedef enum { REF_NONE, REF_IDENT, REF_SUB, REF_FRAME, REF_ROT } hw_refkind;

typedef struct hw_ref {
    uint8_t kind, array;
    int32_t roff, coff;   /* REF_SUB/REF_FRAME: source (row+roff, col+coff) */
    uint32_t src_rows;    /* REF_SUB: source rows (leading dimension) */
    uint32_t src_cols;    /* REF_SUB: source columns (with src_rows, the guard) */
    uint32_t array_elems; /* per-point size of the source array */
} hw_ref;

typedef enum { PH_ELEM, PH_COLSUM, PH_ROWSUM, PH_CONV } hw_phkind;

typedef struct hw_phase {
    uint8_t kind, st_array;
    uint32_t rows, cols; /* ELEM: elements rows*cols; sums: the array's shape */
    uint32_t st_elems;   /* per-point size of the stored array */
    hw_ref ld[2];
    uint8_t alu;
} hw_phase;

typedef struct hw_ctx {
    uint64_t tsize, ssize, frames;
    uint32_t in, in2, cv, pad;
    hw_phase first[4], track[HW_MAXPH];
    uint32_t nfirst, ntrack;
    bool unshared; /* shared=0: heartwall/U */
} hw_ctx;

typedef struct hw_launch {
    const hw_ctx *c;
    const hw_phase *ph;
    uint32_t nph;
} hw_launch;

/* ---- addresses --------------------------------------------------------- */

static uint64_t hw_elem_addr(unsigned array, uint64_t bx, uint64_t elems, int64_t idx)
{
    return WC_GEN_REGION(array) + (bx * elems + (uint64_t)idx) * 4;
}

/* Address of ref r for element ei of point bx, or 0 when guarded off. */
static uint64_t hw_ref_addr(const hw_ctx *c, const hw_ref *r, uint64_t bx, uint32_t rows,
                            int64_t ei)
{
    int64_t row = ei % rows, col = ei / rows;
    switch (r->kind) {
    case REF_IDENT: return hw_elem_addr(r->array, bx, r->array_elems, ei);
    case REF_SUB: {
        int64_t sr = row + r->roff, sc = col + r->coff;
        if (sr < 0 || sc < 0 || sr >= (int64_t)r->src_rows || sc >= (int64_t)r->src_cols) return 0;
        return hw_elem_addr(r->array, bx, r->array_elems, sc * r->src_rows + sr);
    }
    case REF_FRAME: {
        int64_t fr = hw_row[bx] + r->roff + row, fc = hw_col[bx] + r->coff + col;
        return WC_GEN_REGION(0) + (uint64_t)(fc * HW_FROWS + fr) * 4;
    }
    case REF_ROT:
        return hw_elem_addr(r->array, bx, r->array_elems,
                            (int64_t)(c->in - 1 - col) * c->in + (c->in - 1 - row));
    default: return 0;
    }
}

/* Lanes of warp w handling element ei = k*256 + tid with ei < n. */
static uint32_t hw_mask(const wc_gen_warp *w, int64_t k, uint64_t n)
{
    return wc_gen_mask_below((uint64_t)k * HW_THREADS + (uint64_t)w->warp * WC_WARP_SIZE, n);
}

static int64_t hw_ei(const wc_gen_warp *w, int64_t k, unsigned l)
{
    return k * HW_THREADS + (int64_t)w->warp * WC_WARP_SIZE + l;
}

/* ELEM load/store: per-lane addresses, guarded lanes dropped. */
static uint32_t hw_elem_mem(wc_winst *o, const hw_ctx *c, const hw_phase *p, const hw_ref *r,
                            wc_opclass op, const wc_gen_warp *w, int64_t k)
{
    uint32_t mask = hw_mask(w, k, (uint64_t)p->rows * p->cols), got = 0;
    uint64_t addr[WC_WARP_SIZE];
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if (mask >> l & 1u) {
            addr[l] = hw_ref_addr(c, r, w->bid.x, p->rows, hw_ei(w, k, l));
            if (addr[l]) got |= 1u << l;
        }
    if (o && got) {
        wc_gen_mem_list(o, 0x10 + 8 * (uint64_t)(op == WC_OP_STG), op, got, 4, 1, 4);
        for (unsigned l = 0; l < WC_WARP_SIZE; l++)
            if (got >> l & 1u) o->addr[l] = addr[l];
    }
    return got;
}

/* ---- the convolution --------------------------------------------------- */

/* Output ei = (i-1) + (j-1)*CV (1-based i, j) sums the terms
 * ja1 <= ja <= ja2, ia1 <= ia <= ia2 with ja1 = max(1, j+1-IN2),
 * ja2 = min(IN, j), likewise ia from i.  Each lane runs its own loops, so
 * at outer trip tj and inner trip ti a lane is active when tj < its ja count
 * and ti < its ia count, at ja = ja1 + tj, ia = ia1 + ti: the warp issues
 * max(ja counts) outer trips, each of max(ia counts over the lanes still in
 * the outer loop) inner trips. */
static int64_t hw_lo(const hw_ctx *c, int64_t x)
{
    return x + 1 > c->in2 ? x + 1 - c->in2 : 1;
}

static int64_t hw_hi(const hw_ctx *c, int64_t x)
{
    return x > c->in ? c->in : x;
}

/* Calls f for each live lane of chunk k with its 1-based (i, j). */
#define HW_LANES(c, w, k, mask, l, i, j)                                                           \
    for (int64_t ei_ = hw_ei(w, k, 0), i = ei_ % (c)->cv + 1, j = ei_ / (c)->cv + 1, l = 0;        \
         l < WC_WARP_SIZE; l++, i = i == (int64_t)(c)->cv ? (j++, 1) : i + 1)                      \
        if (mask >> l & 1u)

/* Outer trips of chunk k (tj < 0), or inner trips at outer trip tj. */
static int64_t hw_trips(const hw_ctx *c, const wc_gen_warp *w, int64_t k, int64_t tj)
{
    uint32_t mask = hw_mask(w, k, (uint64_t)c->cv * c->cv);
    int64_t most = 0;
    HW_LANES(c, w, k, mask, l, i, j)
    {
        int64_t nj = hw_hi(c, j) - hw_lo(c, j) + 1, ni = hw_hi(c, i) - hw_lo(c, i) + 1;
        int64_t n = tj < 0 ? nj : tj < nj ? ni : 0;
        most = n > most ? n : most;
    }
    return most;
}

/* Lanes active at trips (tj, ti) of chunk k, and their in2 addresses
 * in2[IN2*(jb-1) + ib-1] with ib = i+1-ia, jb = j+1-ja (or, rot set, their
 * /U template addresses rot[IN*(ja-1) + ia-1]). */
static uint32_t hw_term(const hw_ctx *c, const wc_gen_warp *w, int64_t k, int64_t tj, int64_t ti,
                        uint64_t *addr, bool rot)
{
    uint32_t mask = hw_mask(w, k, (uint64_t)c->cv * c->cv), got = 0;
    uint64_t e2 = (uint64_t)c->in2 * c->in2;
    HW_LANES(c, w, k, mask, l, i, j)
    {
        int64_t ja = hw_lo(c, j) + tj, ia = hw_lo(c, i) + ti;
        if (ja > hw_hi(c, j) || ia > hw_hi(c, i)) continue;
        got |= 1u << l;
        if (addr && rot)
            addr[l] = hw_elem_addr(HW_ROT_U, w->bid.x, (uint64_t)c->in * c->in,
                                   (int64_t)c->in * (ja - 1) + (ia - 1));
        else if (addr)
            addr[l] = hw_elem_addr(2, w->bid.x, e2, (int64_t)c->in2 * (j - ja) + (i - ia));
    }
    return got;
}

static void hw_term_load(wc_winst *o, const hw_ctx *c, const wc_gen_warp *w, int64_t k, int64_t tj,
                         int64_t ti, bool rot)
{
    uint64_t addr[WC_WARP_SIZE];
    uint32_t m = hw_term(c, w, k, tj, ti, addr, rot);
    wc_gen_mem_list(o, rot ? 0x4c : 0x40, WC_OP_LDG, m, rot ? 4 : 5, 1, 4);
    for (unsigned l = 0; l < WC_WARP_SIZE; l++)
        if (m >> l & 1u) o->addr[l] = addr[l];
}

/* ---- the kernel -------------------------------------------------------- */

/* Each phase function is a resumable body over w->state and v[1..7]; the
 * dispatcher keeps the phase number in v[0]. */
static int hw_elem(const hw_ctx *c, const hw_phase *p, wc_gen_warp *w, wc_winst *o)
{
    uint64_t n = (uint64_t)p->rows * p->cols;
    hw_ref st = {.kind = REF_IDENT, .array = p->st_array, .array_elems = p->st_elems};
    WC_CO_BEGIN(w);
    for (w->v[1] = 0; w->v[1] * HW_THREADS < (int64_t)n; w->v[1]++) {
        if (!hw_mask(w, w->v[1], n)) continue;
        if (p->ld[0].kind && hw_elem_mem(NULL, c, p, &p->ld[0], WC_OP_LDG, w, w->v[1]))
            WC_CO_EMIT(w, hw_elem_mem(o, c, p, &p->ld[0], WC_OP_LDG, w, w->v[1]));
        if (p->ld[1].kind && hw_elem_mem(NULL, c, p, &p->ld[1], WC_OP_LDG, w, w->v[1]))
            WC_CO_EMIT(w, hw_elem_mem(o, c, p, &p->ld[1], WC_OP_LDG, w, w->v[1]));
        for (w->v[2] = 0; w->v[2] < p->alu; w->v[2]++)
            WC_CO_EMIT(w, wc_gen_alu(o, 0x20, hw_mask(w, w->v[1], n), 4, 4, 5));
        if (p->st_array == HW_SHARED)
            WC_CO_EMIT(
                w, wc_gen_mem(o, 0x28, WC_OP_STS, hw_mask(w, w->v[1], n), 4, WC_REG_NONE, 4, 0, 4));
        else
            WC_CO_EMIT(w, hw_elem_mem(o, c, p, &st, WC_OP_STG, w, w->v[1]));
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x30));
    WC_CO_END(w);
}

/* Cumulative sums.  COLSUM: thread = column, walks the rows (lanes `rows`
 * elements apart); ROWSUM: thread = row, walks the columns (lanes adjacent). */
static int hw_sums(const hw_ctx *c, const hw_phase *p, wc_gen_warp *w, wc_winst *o)
{
    bool col = p->kind == PH_COLSUM;
    uint64_t threads = col ? p->cols : p->rows, steps = col ? p->rows : p->cols;
    int64_t lane_step = col ? (int64_t)p->rows : 1, iter_step = col ? 1 : (int64_t)p->rows;
    uint32_t m = hw_mask(w, w->v[1], threads);
    uint64_t a = hw_elem_addr(p->st_array, w->bid.x, p->st_elems,
                              hw_ei(w, w->v[1], 0) * lane_step + w->v[2] * iter_step);
    WC_CO_BEGIN(w);
    for (w->v[1] = 0; w->v[1] * HW_THREADS < (int64_t)threads; w->v[1]++) {
        if (!hw_mask(w, w->v[1], threads)) continue;
        for (w->v[2] = 0; w->v[2] < (int64_t)steps; w->v[2]++) {
            m = hw_mask(w, w->v[1], threads);
            a = hw_elem_addr(p->st_array, w->bid.x, p->st_elems,
                             hw_ei(w, w->v[1], 0) * lane_step + w->v[2] * iter_step);
            WC_CO_EMIT(w, wc_gen_mem(o, 0x38, WC_OP_LDG, m, 4, 1, 4, a, lane_step * 4));
            WC_CO_EMIT(w, wc_gen_alu(o, 0x3c, m, 5, 4, 5));
            WC_CO_EMIT(w, wc_gen_mem(o, 0x40, WC_OP_STG, m, 5, 1, 4, a, lane_step * 4));
        }
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x48));
    WC_CO_END(w);
}

/* v[1] chunk, v[3] outer trip, v[2] inner trip, v[4]/v[5] their counts,
 * v[6] the current term's lanes. */
static int hw_conv(const hw_ctx *c, const hw_phase *p, wc_gen_warp *w, wc_winst *o)
{
    uint64_t ncv = (uint64_t)c->cv * c->cv;
    WC_CO_BEGIN(w);
    for (w->v[1] = 0; w->v[1] * HW_THREADS < (int64_t)ncv; w->v[1]++) {
        if (!hw_mask(w, w->v[1], ncv)) continue;
        w->v[4] = hw_trips(c, w, w->v[1], -1);
        for (w->v[3] = 0; w->v[3] < w->v[4]; w->v[3]++) {
            w->v[5] = hw_trips(c, w, w->v[1], w->v[3]);
            for (w->v[2] = 0; w->v[2] < w->v[5]; w->v[2]++) {
                w->v[6] = hw_term(c, w, w->v[1], w->v[3], w->v[2], NULL, false);
                if (c->unshared)
                    WC_CO_EMIT(w, hw_term_load(o, c, w, w->v[1], w->v[3], w->v[2], true));
                else
                    WC_CO_EMIT(w, wc_gen_mem(o, 0x50, WC_OP_LDS, (uint32_t)w->v[6], 4, WC_REG_NONE,
                                             4, 0, 4));
                WC_CO_EMIT(w, hw_term_load(o, c, w, w->v[1], w->v[3], w->v[2], false));
                WC_CO_EMIT(w, wc_gen_alu(o, 0x58, (uint32_t)w->v[6], 6, 4, 5));
            }
        }
        WC_CO_EMIT(w, wc_gen_mem(o, 0x60, WC_OP_STG, hw_mask(w, w->v[1], ncv), 6, 1, 4,
                                 hw_elem_addr(3, w->bid.x, ncv, hw_ei(w, w->v[1], 0)), 4));
    }
    WC_CO_EMIT(w, wc_gen_bar(o, 0x68));
    WC_CO_END(w);
}

static int hw_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const hw_launch *a = gk->arg;
    while (w->v[0] < (int64_t)a->nph) {
        const hw_phase *p = &a->ph[w->v[0]];
        int r = p->kind == PH_ELEM   ? hw_elem(a->c, p, w, o)
                : p->kind == PH_CONV ? hw_conv(a->c, p, w, o)
                                     : hw_sums(a->c, p, w, o);
        if (r) return 1;
        w->v[0]++;
        w->state = 0;
    }
    return 0;
}

/* ---- the phase tables -------------------------------------------------- */

static hw_ref ref_ident(unsigned array, uint32_t elems)
{
    return (hw_ref){.kind = REF_IDENT, .array = (uint8_t)array, .array_elems = elems};
}

/* Source element (row + roff, col + coff) of a src_rows x src_cols array,
 * guarded to the source's extent (the padding phases). */
static hw_ref ref_sub(unsigned array, uint32_t src_rows, uint32_t src_cols, int32_t roff,
                      int32_t coff, uint32_t elems)
{
    return (hw_ref){.kind = REF_SUB,
                    .array = (uint8_t)array,
                    .roff = roff,
                    .coff = coff,
                    .src_rows = src_rows,
                    .src_cols = src_cols,
                    .array_elems = elems};
}

static void add(hw_phase *ph, uint32_t *n, hw_phase p)
{
    if (*n < HW_MAXPH) ph[(*n)++] = p;
}

static hw_phase elem(uint32_t rows, uint32_t cols, hw_ref l0, hw_ref l1, unsigned st,
                     uint32_t st_elems, unsigned alu)
{
    return (hw_phase){.kind = PH_ELEM,
                      .rows = rows,
                      .cols = cols,
                      .ld = {l0, l1},
                      .st_array = (uint8_t)st,
                      .st_elems = st_elems,
                      .alu = (uint8_t)alu};
}

static hw_phase sums(hw_phkind k, uint32_t rows, uint32_t cols, unsigned array)
{
    return (hw_phase){.kind = (uint8_t)k,
                      .rows = rows,
                      .cols = cols,
                      .st_array = (uint8_t)array,
                      .st_elems = rows * cols};
}

/* Local sums of `src` (in2 or in2_sqr, IN2 x IN2) into `dst` (CV x CV). */
static void local_sums(hw_ctx *c, unsigned src, unsigned dst)
{
    uint32_t in = c->in, in2 = c->in2, cv = c->cv, pad = c->pad, n = c->ntrack;
    hw_phase *t = c->track;
    hw_ref none = {0};
    add(t, &n,
        elem(pad, pad, ref_sub(src, in2, in2, -(int32_t)in, -(int32_t)in, in2 * in2), none, 4,
             pad * pad, 0));
    add(t, &n, sums(PH_COLSUM, pad, pad, 4));
    add(t, &n,
        elem(cv, pad, ref_sub(4, pad, pad, (int32_t)in, 0, pad * pad), none, 5, cv * pad, 0));
    add(t, &n, elem(cv, pad, ref_sub(4, pad, pad, 0, 0, pad * pad), none, 6, cv * pad, 0));
    add(t, &n, elem(cv, pad, ref_ident(5, cv * pad), ref_ident(6, cv * pad), 6, cv * pad, 1));
    add(t, &n, sums(PH_ROWSUM, cv, pad, 6));
    add(t, &n, elem(cv, cv, ref_sub(6, cv, pad, 0, (int32_t)in, cv * pad), none, 7, cv * cv, 0));
    add(t, &n, elem(cv, cv, ref_sub(6, cv, pad, 0, 0, cv * pad), none, dst, cv * cv, 0));
    add(t, &n, elem(cv, cv, ref_ident(7, cv * cv), ref_ident(dst, cv * cv), dst, cv * cv, 1));
    c->ntrack = n;
}

static void hw_tables(hw_ctx *c)
{
    uint32_t in = c->in, in2 = c->in2, cv = c->cv, e1 = in * in, e2 = in2 * in2, ec = cv * cv;
    int32_t t = (int32_t)c->tsize, s = (int32_t)c->ssize;
    hw_ref none = {0};
    hw_ref frame_t = {.kind = REF_FRAME, .roff = -t - 1, .coff = -t - 1};
    hw_ref frame_s = {.kind = REF_FRAME, .roff = -s - 1, .coff = -s - 1};
    hw_ref rot = {.kind = REF_ROT, .array = 1, .array_elems = e1};
    /* frame 0: extract the template */
    c->nfirst = 0;
    add(c->first, &c->nfirst, elem(in, in, frame_t, none, 1, e1, 0));
    /* later frames */
    c->ntrack = 0;
    add(c->track, &c->ntrack, elem(in2, in2, frame_s, none, 2, e2, 0));
    if (c->unshared)
        add(c->track, &c->ntrack, elem(in, in, rot, none, HW_ROT_U, e1, 0));
    else
        add(c->track, &c->ntrack, elem(in, in, rot, none, HW_SHARED, 0, 0));
    add(c->track, &c->ntrack, (hw_phase){.kind = PH_CONV, .st_array = 3});
    local_sums(c, 2, 8);
    add(c->track, &c->ntrack, elem(in2, in2, ref_ident(2, e2), none, 9, e2, 1));
    local_sums(c, 9, 10);
    add(c->track, &c->ntrack,
        elem(cv, cv, ref_ident(8, ec), ref_ident(10, ec), 10, ec, 4)); /* sqrt(sqr - sum^2/n) */
    add(c->track, &c->ntrack, elem(in, in, ref_ident(1, e1), none, 11, e1, 1)); /* in_sqr */
    add(c->track, &c->ntrack, sums(PH_COLSUM, in, in, 1));  /* template column sums */
    add(c->track, &c->ntrack, sums(PH_ROWSUM, in, in, 11)); /* squares, row sums */
    add(c->track, &c->ntrack, elem(cv, cv, ref_ident(10, ec), none, 10, ec, 1)); /* *= denomT */
    add(c->track, &c->ntrack, elem(cv, cv, ref_ident(3, ec), ref_ident(8, ec), 3, ec, 3));
    add(c->track, &c->ntrack, elem(cv, cv, ref_ident(3, ec), ref_ident(10, ec), 10, ec, 2));
    add(c->track, &c->ntrack, elem(cv, cv, none, none, 12, ec, 1)); /* tMask */
    if (c->unshared)
        add(c->track, &c->ntrack, elem(cv, cv, ref_ident(10, ec), none, HW_MAX_U, ec, 2));
    else
        add(c->track, &c->ntrack, elem(cv, cv, ref_ident(10, ec), none, HW_SHARED, 0, 2)); /* max */
    add(c->track, &c->ntrack, elem(in, in, frame_t, ref_ident(1, e1), 1, e1, 2)); /* update T */
}

typedef struct hw_prog {
    hw_ctx c;
    hw_launch l;
} hw_prog;

static int hw_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    hw_prog *h = ctx;
    hw_launch *l = &h->l;
    const hw_ctx *c = &h->c;
    if (idx >= c->frames) return 0;
    l->ph = idx == 0 ? c->first : c->track;
    l->nph = idx == 0 ? c->nfirst : c->ntrack;
    out->arg = l;
    snprintf(out->k.name, sizeof out->k.name, "kernel");
    out->k.grid = (wc_dim3){HW_POINTS, 1, 1};
    out->k.block = (wc_dim3){HW_THREADS, 1, 1};
    out->k.shmem_bytes = c->unshared ? 0 : (c->in * c->in + 2 * 51 + 2 * 131 + 4) * 4;
    out->k.regs_per_thread = 32;
    out->next = hw_next;
    return 1;
}

static wc_source *open_heartwall(wc_params *p, uint64_t seed, wc_err *err)
{
    hw_prog *h = calloc(1, sizeof *h);
    if (!h) {
        wc_errf(err, "heartwall: out of memory");
        return NULL;
    }
    hw_ctx *c = &h->c;
    uint64_t shared = 1;
    /* Points lie at least 155 pixels from the frame's edges: the template and
     * the search window (tsize + ssize + 1 around a point) must stay inside. */
    if (wc_params_u64(p, "tsize", 12, 1, 60, &c->tsize, err) < 0 ||
        wc_params_u64(p, "ssize", 20, 1, 60, &c->ssize, err) < 0 ||
        wc_params_u64(p, "frames", 3, 1, 10000, &c->frames, err) < 0 ||
        wc_params_u64(p, "shared", 1, 0, 1, &shared, err) < 0) {
        free(h);
        return NULL;
    }
    c->unshared = shared == 0;
    c->in = (uint32_t)(2 * c->tsize + 1);
    c->in2 = (uint32_t)(2 * c->ssize + 1);
    c->cv = c->in + c->in2 - 1;
    c->pad = c->in2 + 2 * c->in;
    hw_tables(c);
    h->l.c = c;
    wc_gen_program prog = {.ctx = h, .kernel = hw_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_heartwall = {
    .name = "rodinia/heartwall",
    .suite = "rodinia",
    .kernels = "kernel<<<51,256>>> x frames",
    .size = "tsize=12 ssize=20 frames=3 (original: 25, 40, 20)",
    .classes = "001:CF",
    .help = "Rodinia heartwall (seed 001 HT); tsize (template half-side), ssize (search "
            "half-side), frames (frame 0 extracts the templates), shared (0: seed 004's unshared "
            "/U, the rotated template and the maximum scratch in global memory)",
    .open = open_heartwall,
};
WC_PLUGIN(workload, wc_wl_rodinia_heartwall, 450);
