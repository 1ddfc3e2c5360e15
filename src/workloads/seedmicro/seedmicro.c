/*
 * seedmicro.c - the micro-benchmarks of the seed papers, as built-in
 * workloads ("seed/..."):
 *
 *   seed/assoc          003_ffafd1cb931cbd21.txt, section 5.1, Figure 5: one
 *                       block of 128 threads; stage 1 fills 16 KB with
 *                       mem[tid + i*128], i < 32 (one 128 B line per warp
 *                       load); stage 2 thread 0 loads mem[sv]; stage 3
 *                       repeats stage 1 timing each load (clock, load, use,
 *                       store time[tid + i*128]).  Sweeping sv shows which
 *                       lines share a set with mem[sv]: the set-index hash.
 *   seed/assoc_stride   section 5.1, Figure 7's verification kernel: one warp,
 *                       two identical loops of n coalesced 128 B loads at
 *                       byte offsets i*stride; 50 % miss rate when the n
 *                       lines fit their sets, 100 % when they do not.
 *   seed/mshr           section 5.2, Figure 8: `warps` warps, lane 0 of each
 *                       issues `loads` independent loads
 *                       mem[32*(tid + i*warps*32)] (4 KB apart, each its own
 *                       line), then uses them; the completion time steps up
 *                       every time the per-warp / per-SM MSHR limit is passed.
 *   seed/atax_col       004_0fcfedff3b0ef5ba.txt, section 2.2, Figure 2: atax's
 *                       kernel_1 with NX = NY = 2048: each warp loads a
 *                       32-element column of A (rows 8 KB apart, all in one
 *                       set of a 16 KB 4-way cache): intra-warp contention.
 *                       both=1 adds kernel_2 (row access, orthogonal).
 *   seed/srad_preload   004, Figure 3: SRAD's shared-memory preload, 16x16
 *                       blocks, temp[ty][tx] = J[N*16*by + 16*bx + N*ty + tx];
 *                       the 16 rows of a block map to the same set.
 *   seed/syrk_conflict  002_549a998632bcde66.txt, section 4.3, Figure 6: SYRK's
 *                       a[j*M + k] across the 32 lanes of a warp, rows of K
 *                       lines (M = 32*K floats): K a multiple of the set count
 *                       puts all 32 lanes in one set (1-way conflict degree).
 *
 * The affine ones are built with the PolyBench interpreter (polybench/pb.h);
 * mshr and srad_preload (lane-0-only and 16-wide lane layouts) are small
 * hand-written state machines in the style of micro/micro.c.
 */
#include <stdio.h>
#include <string.h>

#include "workloads/polybench/pb.h"

/* ---- seed/assoc (003, Figure 5) ------------------------------------------ */

static wc_source *open_assoc(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t threads, loads, sv;
    if (wc_params_u64(p, "threads", 128, 32, 1024, &threads, err) < 0 ||
        wc_params_u64(p, "loads", 32, 1, 4096, &loads, err) < 0)
        return NULL;
    if (threads % 32) {
        wc_errf(err, "workload seed/assoc: threads=%llu is not a multiple of 32",
                (unsigned long long)threads);
        return NULL;
    }
    if (wc_params_u64(p, "sv", threads * loads, 0, 1ull << 32, &sv, err) < 0) return NULL;
    pb_prog *pg = pb_prog_new(1, err);
    if (!pg) return NULL;
    int64_t T = (int64_t)threads;
    uint64_t fill = threads * loads;
    unsigned mem = pb_array(pg, sv + 1 > fill ? sv + 1 : fill), time = pb_array(pg, fill);
    pb_aff at = AFF(.gx = 1, .l1 = T);
    unsigned k = pb_kernel(pg, "mb1", (wc_dim3){1, 1, 1}, (wc_dim3){(uint32_t)threads, 1, 1});
    pb_prologue(pg, false);
    /* stage 1: temp = mem[tid + i*T] */
    pb_loop(pg, 0, (int64_t)loads);
    pb_ld(pg, mem, at, 1);
    pb_loop_tail(pg);
    pb_end(pg);
    /* stage 2: if (tid == 0) temp = mem[sv] */
    pb_guard(pg, pb_cons(pg, AFF(.gx = 1), 0, 1));
    pb_ld(pg, mem, AFF(.c0 = (int64_t)sv), 2);
    pb_guard(pg, 0);
    /* stage 3: start = clock(); temp = mem[tid + i*T]; time[tid + i*T] = clock() - start */
    pb_loop(pg, 0, (int64_t)loads);
    pb_alu(pg, 5, WC_REG_NONE, WC_REG_NONE, WC_REG_NONE);
    pb_ld(pg, mem, at, 1);
    pb_alu(pg, 6, 1, 5, WC_REG_NONE);
    pb_st(pg, time, at, 6);
    pb_loop_tail(pg);
    pb_end(pg);
    pb_phase_add(pg, k, false, 0, 1);
    return pb_finish(pg, 1, err);
}

/* ---- seed/assoc_stride (003, section 5.1 verification) ------------------- */

static wc_source *open_assoc_stride(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t stride, n;
    if (wc_params_u64(p, "stride", 4096, 128, 1ull << 30, &stride, err) < 0 ||
        wc_params_u64(p, "n", 8, 1, 4096, &n, err) < 0)
        return NULL;
    if (stride % 128) {
        wc_errf(err, "workload seed/assoc_stride: stride=%llu bytes is not a multiple of 128",
                (unsigned long long)stride);
        return NULL;
    }
    pb_prog *pg = pb_prog_new(1, err);
    if (!pg) return NULL;
    unsigned mem = pb_array(pg, n * stride / 4);
    pb_aff at = AFF(.gx = 1, .l1 = (int64_t)(stride / 4));
    unsigned k = pb_kernel(pg, "stride_loops", (wc_dim3){1, 1, 1}, (wc_dim3){32, 1, 1});
    pb_prologue(pg, false);
    for (int pass = 0; pass < 2; pass++) {
        pb_loop(pg, 0, (int64_t)n);
        pb_ld(pg, mem, at, 1);
        pb_loop_tail(pg);
        pb_end(pg);
    }
    pb_phase_add(pg, k, false, 0, 1);
    return pb_finish(pg, 1, err);
}

/* ---- seed/mshr (003, Figure 8) ------------------------------------------- */

typedef struct mshr_arg {
    uint64_t warps, loads, mem, time;
} mshr_arg;

/*
 * States: 0 the tid%32 test (all lanes); 1 start clock; 2..L+1 the loads;
 * L+2..2L+1 uses of the loaded values; 2L+2 stop clock; 2L+3 store time[w].
 */
static int mshr_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const mshr_arg *a = gk->arg;
    uint64_t L = a->loads, s = w->state++;
    if (s == 0) {
        wc_gen_alu(o, 0x08, 0xffffffffu, WC_REG_NONE, 20, WC_REG_NONE);
    } else if (s == 1) {
        wc_gen_alu(o, 0x10, 1u, 1, WC_REG_NONE, WC_REG_NONE);
    } else if (s < 2 + L) {
        uint64_t i = s - 2;
        /* mem[32*(tid + i*W*32)] with tid = 32*warp: byte 4096*(warp + i*W) */
        uint64_t addr = a->mem + 4096 * (w->warp + i * a->warps);
        wc_gen_mem(o, 0x20 + 16 * i, WC_OP_LDG, 1u, (unsigned)(32 + i), 20, 4, addr, 4);
    } else if (s < 2 + 2 * L) {
        uint64_t i = s - 2 - L;
        wc_gen_alu(o, 0x20 + 16 * (L + i), 1u, 2, 2, (unsigned)(32 + i));
    } else if (s == 2 + 2 * L) {
        wc_gen_alu(o, 0x20 + 32 * L, 1u, 3, 1, 2);
    } else if (s == 3 + 2 * L) {
        wc_gen_mem(o, 0x30 + 32 * L, WC_OP_STG, 1u, 3, 20, 4, a->time + 4 * w->warp, 4);
    } else {
        return 0;
    }
    return 1;
}

static wc_source *open_mshr(wc_params *p, uint64_t seed, wc_err *err)
{
    mshr_arg a;
    if (wc_params_u64(p, "warps", 1, 1, 32, &a.warps, err) < 0 ||
        wc_params_u64(p, "loads", 8, 1, 64, &a.loads, err) < 0)
        return NULL;
    a.mem = PB_BASE0;
    uint64_t mem_bytes = 4096 * a.warps * a.loads;
    a.time = PB_BASE0 + (mem_bytes + PB_ALIGN - 1) / PB_ALIGN * PB_ALIGN;
    wc_gen_kernel gk;
    memset(&gk, 0, sizeof gk);
    snprintf(gk.k.name, sizeof gk.k.name, "mb2");
    gk.k.block = (wc_dim3){(uint32_t)(32 * a.warps), 1, 1};
    gk.k.grid = (wc_dim3){1, 1, 1};
    gk.next = mshr_next;
    return wc_gen_single(&gk, &a, sizeof a, err);
}

/* ---- seed/atax_col (004, Figure 2) --------------------------------------- */

static wc_source *open_atax_col(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t n, both;
    int rmw;
    if (wc_params_u64(p, "n", 2048, 1, 1u << 20, &n, err) < 0 ||
        wc_params_u64(p, "both", 0, 0, 1, &both, err) < 0 || pb_rmw(p, &rmw, err) < 0)
        return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    pb_build_atax(pg, n, n, true, both != 0);
    return pb_finish(pg, 1, err);
}

/* ---- seed/srad_preload (004, Figure 3) ----------------------------------- */

typedef struct srad_arg {
    uint64_t n, J, out, store;
} srad_arg;

/* Element index of J for lane l of warp w in a 16x16 block. */
static inline uint64_t srad_index(const srad_arg *a, const wc_gen_warp *w, unsigned l)
{
    uint64_t tx = l & 15, ty = 2 * w->warp + (l >> 4);
    return a->n * 16 * w->bid.y + 16 * w->bid.x + a->n * ty + tx;
}

/* States: 0 index ALU; 1 LDG J; 2 STS temp[ty][tx]; 3 barrier; 4 LDS; 5 ALU;
 * 6 (store=1) STG out[index]. */
static int srad_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    const srad_arg *a = gk->arg;
    uint64_t shared = 128ull * w->warp; /* &temp[2*warp][0] in shared memory */
    switch (w->state++) {
    case 0: wc_gen_alu(o, 0x08, 0xffffffffu, 20, WC_REG_NONE, WC_REG_NONE); return 1;
    case 1:
        wc_gen_mem_list(o, 0x10, WC_OP_LDG, 0xffffffffu, 1, 20, 4);
        for (unsigned l = 0; l < WC_WARP_SIZE; l++) o->addr[l] = a->J + 4 * srad_index(a, w, l);
        return 1;
    case 2: wc_gen_mem(o, 0x18, WC_OP_STS, 0xffffffffu, 1, 20, 4, shared, 4); return 1;
    case 3: wc_gen_bar(o, 0x20); return 1;
    case 4: wc_gen_mem(o, 0x28, WC_OP_LDS, 0xffffffffu, 2, 20, 4, shared, 4); return 1;
    case 5: wc_gen_alu(o, 0x30, 0xffffffffu, 3, 2, 1); return 1;
    case 6:
        if (!a->store) return 0;
        wc_gen_mem_list(o, 0x38, WC_OP_STG, 0xffffffffu, 3, 20, 4);
        for (unsigned l = 0; l < WC_WARP_SIZE; l++) o->addr[l] = a->out + 4 * srad_index(a, w, l);
        return 1;
    default: return 0;
    }
}

static wc_source *open_srad_preload(wc_params *p, uint64_t seed, wc_err *err)
{
    srad_arg a;
    if (wc_params_u64(p, "n", 2048, 16, 1u << 16, &a.n, err) < 0 ||
        wc_params_u64(p, "store", 0, 0, 1, &a.store, err) < 0)
        return NULL;
    if (a.n % 16) {
        wc_errf(err, "workload seed/srad_preload: n=%llu is not a multiple of 16",
                (unsigned long long)a.n);
        return NULL;
    }
    uint64_t bytes = a.n * a.n * 4;
    a.J = PB_BASE0;
    a.out = PB_BASE0 + (bytes + PB_ALIGN - 1) / PB_ALIGN * PB_ALIGN;
    wc_gen_kernel gk;
    memset(&gk, 0, sizeof gk);
    snprintf(gk.k.name, sizeof gk.k.name, "srad_preload");
    gk.k.block = (wc_dim3){16, 16, 1};
    gk.k.grid = (wc_dim3){(uint32_t)(a.n / 16), (uint32_t)(a.n / 16), 1};
    gk.k.shmem_bytes = 16 * 16 * 4;
    gk.next = srad_next;
    return wc_gen_single(&gk, &a, sizeof a, err);
}

/* ---- seed/syrk_conflict (002, Figure 6) ---------------------------------- */

static wc_source *open_syrk_conflict(wc_params *p, uint64_t seed, wc_err *err)
{
    uint64_t n, klines, iters;
    int rmw;
    if (wc_params_u64(p, "n", 256, 1, 1u << 16, &n, err) < 0 ||
        wc_params_u64(p, "k", 32, 1, 1u << 12, &klines, err) < 0 || pb_rmw(p, &rmw, err) < 0)
        return NULL;
    uint64_t m = 32 * klines; /* row = K lines of 128 B = 32*K floats */
    if (wc_params_u64(p, "iters", m, 1, m, &iters, err) < 0) return NULL;
    pb_prog *pg = pb_prog_new(rmw, err);
    if (!pg) return NULL;
    pb_build_syrk(pg, n, m, iters);
    return pb_finish(pg, 1, err);
}

/* ---- registry entries ---------------------------------------------------- */

const wc_workload wc_wl_seed_assoc = {
    .name = "seed/assoc",
    .suite = "seed",
    .kernels = "mb1",
    .size = "threads=128 loads=32 sv=4096",
    .classes = "003:figure5",
    .help = "seed 003 associativity probe: fill, thread 0 loads mem[sv], timed refill; "
            "threads, loads, sv (element index)",
    .open = open_assoc,
};
WC_PLUGIN(workload, wc_wl_seed_assoc, 240);

const wc_workload wc_wl_seed_assoc_stride = {
    .name = "seed/assoc_stride",
    .suite = "seed",
    .kernels = "stride_loops",
    .size = "stride=4096 n=8",
    .classes = "003:figure7",
    .help = "seed 003 set-index verification: one warp, two loops of n 128 B loads "
            "stride bytes apart",
    .open = open_assoc_stride,
};
WC_PLUGIN(workload, wc_wl_seed_assoc_stride, 250);

const wc_workload wc_wl_seed_mshr = {
    .name = "seed/mshr",
    .suite = "seed",
    .kernels = "mb2",
    .size = "warps=1 loads=8",
    .classes = "003:figure8",
    .help = "seed 003 MSHR probe: lane 0 of each of `warps` warps issues `loads` independent "
            "loads to distinct lines",
    .open = open_mshr,
};
WC_PLUGIN(workload, wc_wl_seed_mshr, 260);

const wc_workload wc_wl_seed_atax_col = {
    .name = "seed/atax_col",
    .suite = "seed",
    .kernels = "atax_kernel1 [atax_kernel2]",
    .size = "n=2048",
    .classes = "004:figure2 004:IW",
    .help = "seed 004 atax column access (kernel_1, n x n); both=1 adds kernel_2; rmw=0|1|2",
    .open = open_atax_col,
};
WC_PLUGIN(workload, wc_wl_seed_atax_col, 270);

const wc_workload wc_wl_seed_srad_preload = {
    .name = "seed/srad_preload",
    .suite = "seed",
    .kernels = "srad_preload",
    .size = "n=2048",
    .classes = "004:figure3",
    .help = "seed 004 SRAD shared-memory preload, 16x16 blocks over an n x n image; "
            "store=1 also writes out[index]",
    .open = open_srad_preload,
};
WC_PLUGIN(workload, wc_wl_seed_srad_preload, 280);

const wc_workload wc_wl_seed_syrk_conflict = {
    .name = "seed/syrk_conflict",
    .suite = "seed",
    .kernels = "syrk_kernel",
    .size = "n=256 k=32",
    .classes = "002:figure6 002:conflict",
    .help = "seed 002 SYRK 1-way conflict: rows of k 128 B lines (m = 32k); n, iters "
            "(k-loop length, default m); rmw=0|1|2",
    .open = open_syrk_conflict,
};
WC_PLUGIN(workload, wc_wl_seed_syrk_conflict, 290);
