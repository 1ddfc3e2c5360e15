/*
 * pb.h - affine kernel programs: the small interpreter the PolyBench/GPU
 * generators (and the seed micro-benchmarks built on them) are written in.
 *
 * Every global access of a PolyBench/GPU kernel is an affine function of the
 * thread's global coordinates (gx = blockIdx.x*blockDim.x + threadIdx.x,
 * gy = blockIdx.y*blockDim.y + threadIdx.y), of at most two loop counters
 * (L1 outer, L2 inner) and of one per-launch host parameter P (the host loop
 * variable: k, t, i1, r ...).  Every guard is a conjunction of affine range
 * tests lo <= f < hi.  Since blockDim.x is a multiple of 32 in all these
 * kernels, lane l of a warp has gx = gx0 + l and the warp's gy is uniform, so
 *   - an access is a stride-mode warp instruction (stride = 4 * coefficient of
 *     gx), and
 *   - a guard selects a contiguous range of lanes, computed in O(1).
 * A kernel is therefore described by a short op list (loads, stores, ALU,
 * LOOP/END) plus a constraint table, and interpreted per warp from O(1)
 * state: the op index and the two loop counters (wc_gen_warp.v[0..1]), with
 * gx0 and gy cached in v[2], v[3] and the masks of the loop-invariant guards
 * in v[4..7].  Nothing is materialised.
 *
 * SIMT semantics: an instruction whose active mask (live lanes AND its guard)
 * is empty is not issued (the warp branches around it); a loop runs while
 * its counter is below `hi` and its guard still has an active lane, so loops
 * whose trip count differs per lane (correlation's j2 = j1+1 .. M) run to the
 * longest lane with the finished lanes masked off.
 *
 * Register conventions (see docs/workloads-polybench.md): r1..r9 loaded
 * values and temporaries, r10/r11 accumulators, r20 gx, r21 gy, r22 address,
 * r23 loop counter.  Elements are 4-byte floats.
 */
#ifndef WC_WORKLOADS_POLYBENCH_PB_H
#define WC_WORKLOADS_POLYBENCH_PB_H

#include "workloads/gen.h"

#define PB_MAX_OPS     72
#define PB_MAX_CONS    12
#define PB_MAX_ARR     12
#define PB_MAX_KERNELS 8
#define PB_MAX_PHASES  8
#define PB_MAX_SGROUPS 8 /* cached guard masks per warp (v[4..7]) */
#define PB_NO_SG       0xff
#define PB_ELEM        4               /* bytes per element (float) */
#define PB_BASE0       0x10000000ull   /* first array's base address */
#define PB_ALIGN       4096ull         /* arrays start on 4 KiB boundaries */
#define PB_INF         (INT64_MAX / 4) /* "no bound" for constraints */
#define PB_MAX_ELEMS   (1ull << 40)    /* largest array: keeps index arithmetic exact */

/* Register numbers shared by all kernels. */
enum { R_GX = 20, R_GY = 21, R_ADDR = 22, R_CNT = 23, R_ACC = 10, R_ACC2 = 11 };

/* Element index c0 + gx*GX + gy*GY + l1*L1 + l2*L2 + p*P. */
typedef struct pb_aff {
    int64_t c0, gx, gy, l1, l2, p;
} pb_aff;
#define AFF(...) ((pb_aff){__VA_ARGS__})

typedef struct pb_cons {
    pb_aff e;
    int64_t lo, hi; /* lo <= e < hi */
} pb_constraint;

enum pb_kind { PB_ALU, PB_SFU, PB_LD, PB_ST, PB_LOOP, PB_END };

typedef struct pb_op {
    uint8_t kind, arr, level;
    uint16_t guard; /* bitmask over the kernel's constraints */
    uint8_t sg;     /* index of the guard's loop-invariant part in sgroup, or PB_NO_SG */
    uint16_t dyn;   /* guard bits re-evaluated at every issue */
    uint16_t reg, areg, s1, s2; /* mem: data reg, address reg; ALU: dst, src0, src1, src2 */
    int32_t match;              /* LOOP <-> END */
    pb_aff idx;                 /* mem: element index */
    int64_t lo, hi;             /* LOOP: counter runs lo .. hi-1 */
} pb_op;

typedef struct pb_kdesc {
    char name[48];
    wc_dim3 grid, block;
    /* lu: grid.x/y = ceil((shrink_n - (P+1)) / block.x/y) per launch */
    bool shrink_x, shrink_y;
    int64_t shrink_n;
    uint64_t pc_base;
    unsigned nops, ncons;
    /* Distinct loop-invariant guard sets: their masks depend only on the
     * warp and P, so each warp evaluates them once (cached in v[4..7]). */
    unsigned nsgroup;
    uint16_t sgroup[PB_MAX_SGROUPS];
    pb_op ops[PB_MAX_OPS];
    pb_constraint cons[PB_MAX_CONS];
} pb_kdesc;

/* A run of launches of one kernel: P = rep (host loop index) when
 * p_from_rep, else p0, p0+1, ... for `count` launches. */
typedef struct pb_phase {
    unsigned kernel;
    bool p_from_rep;
    int64_t p0;
    uint64_t count;
} pb_phase;

typedef struct pb_prog pb_prog;

typedef struct pb_launch {
    const pb_prog *prog;
    const pb_kdesc *k;
    int64_t p;
} pb_launch;

struct pb_prog {
    unsigned narr;
    uint64_t base[PB_MAX_ARR];
    uint64_t next_base;
    unsigned nk;
    pb_kdesc k[PB_MAX_KERNELS];
    unsigned nphase;
    pb_phase phase[PB_MAX_PHASES];
    uint64_t reps, per_rep;
    /* launch cursor (launches with an empty grid are skipped) */
    uint64_t next_raw;
    uint32_t next_idx;
    pb_launch slot[2];
    /* builder state */
    pb_kdesc *cur;
    uint16_t guard;
    int loop_stack[2];
    unsigned depth;
    int rmw;         /* accumulator policy, see pb_acc_* */
    unsigned unroll; /* unroll=K of the kernels that support it (1: not unrolled) */
    bool bad;        /* a table overflowed or loops are unbalanced */
    bool too_big;    /* an array is larger than PB_MAX_ELEMS */
};

/* ---- building ---------------------------------------------------------- */

pb_prog *pb_prog_new(int rmw, wc_err *err);
void pb_prog_free(pb_prog *pg);
/* Allocates an array of `elems` floats; returns its index (base in pg->base). */
unsigned pb_array(pb_prog *pg, uint64_t elems);
/* Starts a kernel; the previous one must be complete. Returns its index. */
unsigned pb_kernel(pb_prog *pg, const char *name, wc_dim3 grid, wc_dim3 block);
/* Adds constraint lo <= e < hi to the current kernel; returns its guard bit. */
uint16_t pb_cons(pb_prog *pg, pb_aff e, int64_t lo, int64_t hi);
/* Ops added from now on carry this guard. */
static inline void pb_guard(pb_prog *pg, uint16_t bits)
{
    pg->guard = bits;
}
void pb_alu(pb_prog *pg, unsigned dst, unsigned s0, unsigned s1, unsigned s2);
void pb_sfu(pb_prog *pg, unsigned dst, unsigned s0);
void pb_ld(pb_prog *pg, unsigned arr, pb_aff idx, unsigned dst);
void pb_st(pb_prog *pg, unsigned arr, pb_aff idx, unsigned src);
void pb_loop(pb_prog *pg, int64_t lo, int64_t hi);
void pb_end(pb_prog *pg);
/* Thread-index prologue (unguarded): gx, [gy], address, guard compare. */
void pb_prologue(pb_prog *pg, bool two_d);
/* Per-iteration loop overhead: address increment, counter + branch. */
void pb_loop_tail(pb_prog *pg);

/*
 * Accumulators `X[e] += ...` in a loop, by pg->rmw:
 *   rmw=1 (default, source level): load and store X[e] every iteration;
 *   rmw=0: X[e] kept in a register: loaded once before the loop (if its old
 *          value is used), stored once after;
 *   rmw=2: loaded once before the loop, stored every iteration.
 * `init`: how the source sets X[e] before the loop.
 */
enum pb_init {
    PB_INIT_NONE, /* no initialisation: the old value is accumulated into */
    PB_INIT_ZERO, /* X[e] = 0 */
    PB_INIT_SCALE /* X[e] *= beta */
};
void pb_acc_pre(pb_prog *pg, unsigned arr, pb_aff idx, unsigned reg, enum pb_init init);
void pb_acc_load(pb_prog *pg, unsigned arr, pb_aff idx, unsigned reg);
void pb_acc_store(pb_prog *pg, unsigned arr, pb_aff idx, unsigned reg);
void pb_acc_post(pb_prog *pg, unsigned arr, pb_aff idx, unsigned reg);

void pb_phase_add(pb_prog *pg, unsigned kernel, bool p_from_rep, int64_t p0, uint64_t count);
/* Validates, wraps the program into a source (takes ownership of pg). */
wc_source *pb_finish(pb_prog *pg, uint64_t reps, wc_err *err);

/* ---- shared parameter handling ----------------------------------------- */

/* Reads `key` (a problem dimension): default def*scale, at least 1. */
int pb_dim(wc_params *p, const char *key, uint64_t def, double scale, uint64_t *out, wc_err *err);
int pb_scale(wc_params *p, double *scale, wc_err *err);
int pb_rmw(wc_params *p, int *rmw, wc_err *err);
/* unroll=K (1..PB_MAX_UNROLL, default 1): how many iterations of the inner
 * loop nvcc's unrolled code does per trip (atax, bicg, mvt, gesummv). */
#define PB_MAX_UNROLL 4
int pb_unroll(wc_params *p, unsigned *unroll, wc_err *err);
/* Register of copy u of temporary t (1..3) in an unrolled body: t itself for
 * copy 0, r24.. for the others (free in the register conventions). */
static inline unsigned pb_ureg(unsigned t, unsigned u)
{
    return u == 0 ? t : 24 + (u - 1) * 3 + (t - 1);
}
/* Index `a` for copy u of a loop unrolled k times (counter c runs over trips:
 * l1 = c*k + u + base). */
static inline pb_aff pb_aff_unroll(pb_aff a, int64_t k, int64_t add)
{
    a.c0 += a.l1 * add;
    a.l1 *= k;
    return a;
}

static inline uint32_t pb_ceil_div(uint64_t a, uint64_t b)
{
    return (uint32_t)((a + b - 1) / b);
}

/* ---- kernels shared with the seed micro-benchmarks --------------------- */

/* atax: kernel_1 (row sweep, column access across lanes) and/or kernel_2. */
int pb_build_atax(pb_prog *pg, uint64_t nx, uint64_t ny, bool k1, bool k2);
/* syrk with `iters` iterations of the k loop (iters <= m). */
int pb_build_syrk(pb_prog *pg, uint64_t n, uint64_t m, uint64_t iters);

#endif
