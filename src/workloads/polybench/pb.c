/*
 * pb.c - the affine kernel-program interpreter of pb.h: builder, per-warp
 * instruction generator, and the launch sequencer that turns a program
 * (kernels + host loop phases) into a wc_gen_program.
 *
 * Hot path: pb_next() is called once per warp instruction; it evaluates the
 * op's guard (a few affine evaluations, O(1) lane ranges) and fills a
 * stride-mode instruction.  Per-warp state is wc_gen_warp.state (op index+1)
 * and v[0..3] (L1, L2, gx0, gy).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/polybench/pb.h"

/* ---- evaluation -------------------------------------------------------- */

typedef struct pb_env {
    int64_t gx0, gy, l1, l2, p;
} pb_env;

static inline int64_t aff_lane0(const pb_aff *a, const pb_env *e)
{
    return a->c0 + a->gx * e->gx0 + a->gy * e->gy + a->l1 * e->l1 + a->l2 * e->l2 + a->p * e->p;
}

static inline int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static inline int64_t ceil_div(int64_t a, int64_t b) /* b > 0 */
{
    return -floor_div(-a, b);
}

/* Lanes l in [a, b) as a mask. */
static inline uint32_t lane_range(int64_t a, int64_t b)
{
    if (a < 0) a = 0;
    if (b > WC_WARP_SIZE) b = WC_WARP_SIZE;
    if (a >= b) return 0;
    uint32_t hi = b >= 32 ? 0xffffffffu : ((1u << b) - 1u);
    return hi & ~((1u << a) - 1u);
}

/* Lanes l with lo <= A + s*l < hi (value A at lane 0, slope s per lane). */
static uint32_t cons_mask(const pb_constraint *c, const pb_env *e)
{
    int64_t a = aff_lane0(&c->e, e), s = c->e.gx;
    if (s == 0) return (a >= c->lo && a < c->hi) ? 0xffffffffu : 0;
    if (s == 1) return lane_range(c->lo - a, c->hi - a);
    if (s > 0) return lane_range(ceil_div(c->lo - a, s), ceil_div(c->hi - a, s));
    /* s < 0: lo <= a + s*l < hi  <=>  -hi < -a + |s|*l <= -lo */
    s = -s;
    return lane_range(ceil_div(1 - c->hi + a, s), ceil_div(1 - c->lo + a, s));
}

static inline uint32_t guard_mask(const pb_kdesc *k, uint16_t guard, const pb_env *e)
{
    uint32_t m = 0xffffffffu;
    while (guard && m) {
        unsigned b = (unsigned)__builtin_ctz(guard);
        guard &= (uint16_t)(guard - 1);
        m &= cons_mask(&k->cons[b], e);
    }
    return m;
}

/* Per-warp setup: coordinates of lane 0 and the loop-invariant guard masks. */
static void pb_warp_init(const wc_gen_kernel *gk, const pb_launch *la, wc_gen_warp *w)
{
    uint32_t bdx = gk->k.block.x, t0 = w->warp * WC_WARP_SIZE;
    w->v[2] = (int64_t)w->bid.x * bdx + t0 % bdx;
    w->v[3] = (int64_t)w->bid.y * gk->k.block.y + t0 / bdx;
    pb_env e = {w->v[2], w->v[3], 0, 0, la->p};
    for (unsigned g = 0; g < la->k->nsgroup; g++) {
        uint64_t m = guard_mask(la->k, la->k->sgroup[g], &e);
        uint64_t slot = (uint64_t)w->v[4 + g / 2];
        unsigned sh = 32 * (g & 1);
        slot = (slot & ~(0xffffffffull << sh)) | (m << sh);
        w->v[4 + g / 2] = (int64_t)slot;
    }
}

static inline uint32_t op_mask(const pb_kdesc *k, const pb_op *op, const wc_gen_warp *w,
                               const pb_env *e)
{
    uint32_t m = 0xffffffffu;
    if (op->sg != PB_NO_SG) m = (uint32_t)((uint64_t)w->v[4 + op->sg / 2] >> (32 * (op->sg & 1)));
    return op->dyn ? m & guard_mask(k, op->dyn, e) : m;
}

static int pb_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const pb_launch *la = gk->arg;
    const pb_kdesc *k = la->k;
    if (w->state == 0) {
        pb_warp_init(gk, la, w);
        w->state = 1;
    }
    pb_env e = {w->v[2], w->v[3], w->v[0], w->v[1], la->p};
    for (;;) {
        uint32_t i = w->state - 1;
        if (i >= k->nops) return 0;
        const pb_op *op = &k->ops[i];
        switch (op->kind) {
        case PB_LOOP: {
            int64_t *ctr = &w->v[op->level - 1];
            *ctr = op->lo;
            if (op->level == 1)
                e.l1 = op->lo;
            else
                e.l2 = op->lo;
            bool enter = op->lo < op->hi && (op_mask(k, op, w, &e) & w->live);
            w->state = enter ? i + 2 : (uint32_t)op->match + 2;
            continue;
        }
        case PB_END: {
            const pb_op *lp = &k->ops[op->match];
            int64_t v = ++w->v[op->level - 1];
            if (op->level == 1)
                e.l1 = v;
            else
                e.l2 = v;
            bool again = v < lp->hi && (op_mask(k, lp, w, &e) & w->live);
            w->state = again ? (uint32_t)op->match + 2 : i + 2;
            continue;
        }
        default: break;
        }
        uint32_t m = op_mask(k, op, w, &e);
        w->state = i + 2;
        if (!(m & w->live)) continue; /* the warp branches around it */
        uint64_t pc = k->pc_base + (uint64_t)i * 16;
        switch (op->kind) {
        case PB_LD:
        case PB_ST: {
            int64_t e0 = aff_lane0(&op->idx, &e);
            uint64_t base = la->prog->base[op->arr] + (uint64_t)(e0 * PB_ELEM);
            wc_gen_mem(o, pc, op->kind == PB_LD ? WC_OP_LDG : WC_OP_STG, m, op->reg, op->areg,
                       PB_ELEM, base, op->idx.gx * PB_ELEM);
            return 1;
        }
        default:
            wc_gen_alu(o, pc, m, op->reg, op->areg, op->s1);
            if (op->s2 != WC_REG_NONE) o->src[o->nsrc++] = op->s2;
            if (op->kind == PB_SFU) o->op = WC_OP_SFU;
            return 1;
        }
    }
}

/* ---- building ---------------------------------------------------------- */

pb_prog *pb_prog_new(int rmw, wc_err *err)
{
    pb_prog *pg = calloc(1, sizeof *pg);
    if (!pg) {
        wc_errf(err, "polybench: out of memory");
        return NULL;
    }
    pg->next_base = PB_BASE0;
    pg->rmw = rmw;
    pg->unroll = 1;
    return pg;
}

void pb_prog_free(pb_prog *pg)
{
    free(pg);
}

unsigned pb_array(pb_prog *pg, uint64_t elems)
{
    if (pg->narr == PB_MAX_ARR) {
        pg->bad = true;
        return 0;
    }
    if (elems > PB_MAX_ELEMS) pg->too_big = true;
    unsigned a = pg->narr++;
    pg->base[a] = pg->next_base;
    uint64_t end = pg->next_base + elems * PB_ELEM;
    pg->next_base = (end + PB_ALIGN - 1) / PB_ALIGN * PB_ALIGN;
    return a;
}

unsigned pb_kernel(pb_prog *pg, const char *name, wc_dim3 grid, wc_dim3 block)
{
    if (pg->nk == PB_MAX_KERNELS || pg->depth != 0 || block.x % WC_WARP_SIZE != 0) {
        pg->bad = true;
        pg->cur = &pg->k[0];
        return 0;
    }
    unsigned id = pg->nk++;
    pb_kdesc *k = &pg->k[id];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->grid = grid;
    k->block = block;
    k->pc_base = 0x10000ull * (id + 1);
    pg->cur = k;
    pg->guard = 0;
    return id;
}

uint16_t pb_cons(pb_prog *pg, pb_aff e, int64_t lo, int64_t hi)
{
    pb_kdesc *k = pg->cur;
    if (!k || k->ncons == PB_MAX_CONS) {
        pg->bad = true;
        return 0;
    }
    k->cons[k->ncons] = (pb_constraint){e, lo, hi};
    return (uint16_t)(1u << k->ncons++);
}

static pb_op *add_op(pb_prog *pg, unsigned kind)
{
    pb_kdesc *k = pg->cur;
    if (!k || k->nops == PB_MAX_OPS) {
        pg->bad = true;
        return NULL;
    }
    pb_op *op = &k->ops[k->nops++];
    memset(op, 0, sizeof *op);
    op->kind = (uint8_t)kind;
    op->guard = pg->guard;
    op->reg = op->areg = op->s1 = op->s2 = WC_REG_NONE;
    return op;
}

void pb_alu(pb_prog *pg, unsigned dst, unsigned s0, unsigned s1, unsigned s2)
{
    pb_op *op = add_op(pg, PB_ALU);
    if (!op) return;
    op->reg = (uint16_t)dst;
    op->areg = (uint16_t)s0;
    op->s1 = (uint16_t)s1;
    op->s2 = (uint16_t)s2;
}

void pb_sfu(pb_prog *pg, unsigned dst, unsigned s0)
{
    pb_op *op = add_op(pg, PB_SFU);
    if (!op) return;
    op->reg = (uint16_t)dst;
    op->areg = (uint16_t)s0;
}

static void add_mem(pb_prog *pg, unsigned kind, unsigned arr, pb_aff idx, unsigned reg)
{
    pb_op *op = add_op(pg, kind);
    if (!op) return;
    if (arr >= pg->narr) pg->bad = true;
    op->arr = (uint8_t)arr;
    op->idx = idx;
    op->reg = (uint16_t)reg;
    op->areg = R_ADDR;
}

void pb_ld(pb_prog *pg, unsigned arr, pb_aff idx, unsigned dst)
{
    add_mem(pg, PB_LD, arr, idx, dst);
}

void pb_st(pb_prog *pg, unsigned arr, pb_aff idx, unsigned src)
{
    add_mem(pg, PB_ST, arr, idx, src);
}

void pb_loop(pb_prog *pg, int64_t lo, int64_t hi)
{
    if (pg->depth == 2) {
        pg->bad = true;
        return;
    }
    pb_op *op = add_op(pg, PB_LOOP);
    if (!op) return;
    op->level = (uint8_t)(pg->depth + 1);
    op->lo = lo;
    op->hi = hi;
    pg->loop_stack[pg->depth++] = (int)pg->cur->nops - 1;
}

void pb_end(pb_prog *pg)
{
    if (pg->depth == 0) {
        pg->bad = true;
        return;
    }
    int start = pg->loop_stack[--pg->depth];
    pb_op *op = add_op(pg, PB_END);
    if (!op) return;
    op->level = (uint8_t)(pg->depth + 1);
    op->match = start;
    pg->cur->ops[start].match = (int32_t)pg->cur->nops - 1;
}

void pb_prologue(pb_prog *pg, bool two_d)
{
    uint16_t g = pg->guard;
    pg->guard = 0;
    pb_alu(pg, R_GX, WC_REG_NONE, WC_REG_NONE, WC_REG_NONE);
    if (two_d) pb_alu(pg, R_GY, WC_REG_NONE, WC_REG_NONE, WC_REG_NONE);
    pb_alu(pg, R_ADDR, R_GX, two_d ? R_GY : WC_REG_NONE, WC_REG_NONE);
    pb_alu(pg, WC_REG_NONE, R_GX, two_d ? R_GY : WC_REG_NONE, WC_REG_NONE);
    pg->guard = g;
}

void pb_loop_tail(pb_prog *pg)
{
    pb_alu(pg, R_ADDR, R_ADDR, WC_REG_NONE, WC_REG_NONE);
    pb_alu(pg, R_CNT, R_CNT, WC_REG_NONE, WC_REG_NONE);
}

void pb_acc_pre(pb_prog *pg, unsigned arr, pb_aff idx, unsigned reg, enum pb_init init)
{
    switch (init) {
    case PB_INIT_NONE:
        if (pg->rmw != 1) pb_ld(pg, arr, idx, reg);
        break;
    case PB_INIT_ZERO:
        pb_alu(pg, reg, WC_REG_NONE, WC_REG_NONE, WC_REG_NONE);
        if (pg->rmw >= 1) pb_st(pg, arr, idx, reg);
        break;
    case PB_INIT_SCALE:
        pb_ld(pg, arr, idx, reg);
        pb_alu(pg, reg, reg, WC_REG_NONE, WC_REG_NONE);
        if (pg->rmw >= 1) pb_st(pg, arr, idx, reg);
        break;
    }
}

void pb_acc_load(pb_prog *pg, unsigned arr, pb_aff idx, unsigned reg)
{
    if (pg->rmw == 1) pb_ld(pg, arr, idx, reg);
}

void pb_acc_store(pb_prog *pg, unsigned arr, pb_aff idx, unsigned reg)
{
    if (pg->rmw >= 1) pb_st(pg, arr, idx, reg);
}

void pb_acc_post(pb_prog *pg, unsigned arr, pb_aff idx, unsigned reg)
{
    if (pg->rmw == 0) pb_st(pg, arr, idx, reg);
}

void pb_phase_add(pb_prog *pg, unsigned kernel, bool p_from_rep, int64_t p0, uint64_t count)
{
    if (pg->nphase == PB_MAX_PHASES || kernel >= pg->nk) {
        pg->bad = true;
        return;
    }
    pg->phase[pg->nphase++] = (pb_phase){kernel, p_from_rep, p0, count};
    pg->per_rep += count;
}

/* ---- launch sequencing ------------------------------------------------- */

/* Launch number `raw` of the unfiltered host sequence: false past the end. */
static bool raw_launch(const pb_prog *pg, uint64_t raw, unsigned *kernel, int64_t *p)
{
    if (pg->per_rep == 0 || raw / pg->per_rep >= pg->reps) return false;
    uint64_t rep = raw / pg->per_rep, r = raw % pg->per_rep;
    for (unsigned i = 0; i < pg->nphase; i++) {
        const pb_phase *ph = &pg->phase[i];
        if (r < ph->count) {
            *kernel = ph->kernel;
            *p = ph->p_from_rep ? (int64_t)rep : ph->p0 + (int64_t)r;
            return true;
        }
        r -= ph->count;
    }
    return false;
}

static wc_dim3 launch_grid(const pb_kdesc *k, int64_t p)
{
    wc_dim3 g = k->grid;
    int64_t left = k->shrink_n - (p + 1);
    if (k->shrink_x) g.x = left > 0 ? pb_ceil_div((uint64_t)left, k->block.x) : 0;
    if (k->shrink_y) g.y = left > 0 ? pb_ceil_div((uint64_t)left, k->block.y) : 0;
    return g;
}

/* Finds the next launch with a non-empty grid at or after pg->next_raw. */
static bool next_nonempty(pb_prog *pg, unsigned *kernel, int64_t *p, wc_dim3 *grid)
{
    for (;;) {
        if (!raw_launch(pg, pg->next_raw, kernel, p)) return false;
        pg->next_raw++;
        *grid = launch_grid(&pg->k[*kernel], *p);
        if (wc_dim3_count(*grid) > 0) return true;
    }
}

static int pb_kernel_cb(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    pb_prog *pg = ctx;
    unsigned kern = 0;
    int64_t p = 0;
    wc_dim3 grid = {0, 0, 0};
    if (idx != pg->next_idx) { /* not sequential: replay from the start */
        pg->next_raw = 0;
        pg->next_idx = 0;
        while (pg->next_idx < idx) {
            if (!next_nonempty(pg, &kern, &p, &grid)) return 0;
            pg->next_idx++;
        }
    }
    if (!next_nonempty(pg, &kern, &p, &grid)) return 0;
    pg->next_idx = idx + 1;
    pb_launch *la = &pg->slot[idx & 1];
    la->prog = pg;
    la->k = &pg->k[kern];
    la->p = p;
    memset(out, 0, sizeof *out);
    snprintf(out->k.name, sizeof out->k.name, "%s", la->k->name);
    out->k.grid = grid;
    out->k.block = la->k->block;
    out->arg = la;
    out->next = pb_next;
    return 1;
}

static void pb_destroy(void *ctx)
{
    pb_prog_free(ctx);
}

/* Splits every op's guard into a cached loop-invariant part and the bits
 * that depend on a loop counter. */
static void split_guards(pb_kdesc *k)
{
    uint16_t invariant = 0;
    for (unsigned c = 0; c < k->ncons; c++)
        if (k->cons[c].e.l1 == 0 && k->cons[c].e.l2 == 0) invariant |= (uint16_t)(1u << c);
    k->nsgroup = 0;
    for (unsigned i = 0; i < k->nops; i++) {
        pb_op *op = &k->ops[i];
        uint16_t sgb = op->guard & invariant;
        op->sg = PB_NO_SG;
        op->dyn = op->guard & (uint16_t)~invariant;
        if (!sgb) continue;
        unsigned g = 0;
        while (g < k->nsgroup && k->sgroup[g] != sgb) g++;
        if (g == k->nsgroup) {
            if (g == PB_MAX_SGROUPS) { /* no slot left: evaluate at every issue */
                op->dyn = op->guard;
                continue;
            }
            k->sgroup[k->nsgroup++] = sgb;
        }
        op->sg = (uint8_t)g;
    }
}

wc_source *pb_finish(pb_prog *pg, uint64_t reps, wc_err *err)
{
    if (pg->too_big) {
        pb_prog_free(pg);
        wc_errf(err, "polybench: problem too large (an array exceeds 2^40 elements)");
        return NULL;
    }
    if (pg->bad || pg->depth != 0 || pg->nk == 0) {
        pb_prog_free(pg);
        wc_errf(err, "polybench: internal error building the kernel program");
        return NULL;
    }
    for (unsigned i = 0; i < pg->nk; i++) split_guards(&pg->k[i]);
    pg->reps = reps;
    pg->cur = NULL;
    wc_gen_program prog = {.ctx = pg, .kernel = pb_kernel_cb, .destroy = pb_destroy};
    return wc_gen_source_create(&prog, err);
}

/* ---- parameters -------------------------------------------------------- */

int pb_scale(wc_params *p, double *scale, wc_err *err)
{
    return wc_params_f64(p, "scale", 1.0, 1.0 / 4096, 64.0, scale, err);
}

int pb_dim(wc_params *p, const char *key, uint64_t def, double scale, uint64_t *out, wc_err *err)
{
    double d = floor((double)def * scale + 0.5);
    uint64_t scaled = d < 1 ? 1 : (uint64_t)d;
    return wc_params_u64(p, key, scaled, 1, 1u << 20, out, err);
}

int pb_rmw(wc_params *p, int *rmw, wc_err *err)
{
    uint64_t v;
    if (wc_params_u64(p, "rmw", 1, 0, 2, &v, err) < 0) return -1;
    *rmw = (int)v;
    return 0;
}

int pb_unroll(wc_params *p, unsigned *unroll, wc_err *err)
{
    uint64_t v;
    if (wc_params_u64(p, "unroll", 1, 1, PB_MAX_UNROLL, &v, err) < 0) return -1;
    *unroll = (unsigned)v;
    return 0;
}
