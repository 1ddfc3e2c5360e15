/*
 * myocyte.c - Rodinia myocyte (CUDA, mode 0), seed 001's "MYC": a cardiac
 * myocyte ODE model (91 equations) integrated by an embedded Fehlberg 7(8)
 * solver on the host, whose every right-hand-side evaluation is one
 * kernel<<<2, 32>>>.  Facts from Rodinia 3.1's public CUDA source.
 *
 * Launches: for each of xmax time steps (default command line: 100), the
 * solver makes `attempts` step attempts (data-dependent in the original, 1..12;
 * fixed here), each evaluating the model 13 times = 13 launches.
 *
 * Each launch runs sequential code in one thread per block (lane 0 of warp 0;
 * the other 31 threads and warps idle), so every memory instruction has one
 * active lane: block 0 (ECC module): params[15], then initvalu[k] for k in
 * 0..39 except 21 (39 loads), about 76 transcendental calls and 376 arithmetic
 * operations, then the 60 finavalu accesses in the source's order: 46 stores
 * and 14 loads of rates just written (the buffering sums).  Block 1 (three CaM modules, valu
 * offsets 46, 61, 76, params offsets 0, 5, 10, com offsets 0, 1, 2): per module initvalu[35 + m],
 * params[po+1..4], params[16], params[17], initvalu[vo + 0..14], 10 transcendental calls and about
 * 120 arithmetic operations, stores finavalu[vo + 0..14], then finavalu[com_offset] (the source
 * writes the CaM/fin communication value there).  Arrays (floats): 0 initvalu (91), 1 finavalu
 * (91), 2 params (18).
 *
 * Each value a module reads goes to its own register (the source's local
 * variables), so its loads are independent of each other; the arithmetic
 * reads them in turn.
 *
 * Approximated: ALU/SFU counts are counts of operators and calls in the
 * source, spread evenly between loads and stores; the host-side fin module and
 * the solver's step-size control are not simulated.  alu=K makes every
 * operator K instructions (the calls stay one SFU instruction each): the
 * compiled kernel runs far more than one instruction per operator (exp, pow
 * and log are library routines, mostly in double precision since the
 * source's literals are doubles); seed 001's Table 1 counts about 20 times
 * our instructions for the default run.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/gen.h"

#define MYC_ECC_SFU 76 /* one after every 5th ALU: 376 / 5 rounded up */
#define MYC_ECC_ALU 376
#define MYC_CAM_SFU 10
#define MYC_CAM_ALU 120

/* The ECC module's finavalu accesses (0-based index), in source order: 46
 * stores, and 14 loads (LD) where the module sums rates it has just written. */
#define LD(i) (0x80 | (i))
static const uint8_t ecc_fina[] = {
    0,      1,      2,  11,     12, 7,      8,      39,     9,      10,     3,      4,
    5,      6,      42, 44,     43, 45,     13,     14,     15,     16,     17,     18,
    19,     20,     21, 22,     23, 24,     LD(18), LD(19), LD(20), LD(21), LD(22), LD(23),
    LD(24), 25,     26, 27,     28, LD(25), LD(27), LD(26), LD(28), 29,     30,     LD(29),
    31,     LD(16), 32, LD(17), 33, 34,     35,     36,     37,     38,     40,     41,
};

typedef struct myc_ctx {
    uint64_t xmax, attempts;
    uint64_t alu; /* compiled instructions per arithmetic operator of the source */
} myc_ctx;

/* Destination register of a module's load number k: each value the source
 * reads goes to its own variable, so the loads do not wait for each other
 * (one register for all would serialise them in the scoreboard), and
 * arithmetic step i reads value i mod the module's count. */
static unsigned myc_ldreg(int64_t k)
{
    return 8 + (unsigned)k;
}

static void one_lane(wc_winst *o, uint64_t pc, wc_opclass op, unsigned reg, uint64_t array,
                     uint64_t index)
{
    wc_gen_mem(o, pc, op, 1u, reg, 1, 4, WC_GEN_REGION(array) + index * 4, 4);
}

static void sfu(wc_winst *o, uint64_t pc)
{
    wc_gen_alu(o, pc, 1u, 3, 2, WC_REG_NONE);
    o->op = WC_OP_SFU;
}

/* Block 0: the ECC module. */
static int myc_ecc(const myc_ctx *c, wc_gen_warp *w, wc_winst *o)
{
    WC_CO_BEGIN(w);
    WC_CO_EMIT(w, one_lane(o, 0x10, WC_OP_LDG, myc_ldreg(40), 2, 15));
    for (w->v[0] = 0; w->v[0] < 40; w->v[0]++) {
        if (w->v[0] == 21) continue; /* offset_22 is never read */
        WC_CO_EMIT(w, one_lane(o, 0x18, WC_OP_LDG, myc_ldreg(w->v[0]), 0, (uint64_t)w->v[0]));
    }
    for (w->v[0] = 0; w->v[0] < MYC_ECC_ALU * (int64_t)c->alu; w->v[0]++) {
        WC_CO_EMIT(w, wc_gen_alu(o, 0x20, 1u, 3, myc_ldreg(w->v[0] % 41), 3));
        if (w->v[0] % (5 * (int64_t)c->alu) == 0) WC_CO_EMIT(w, sfu(o, 0x28));
    }
    for (w->v[0] = 0; w->v[0] < (int64_t)sizeof ecc_fina; w->v[0]++) {
        uint8_t e = ecc_fina[w->v[0]];
        WC_CO_EMIT(w, one_lane(o, 0x30, e & 0x80 ? WC_OP_LDG : WC_OP_STG, 3, 1, e & 0x7f));
    }
    WC_CO_END(w);
}

/* Block 1: three CaM modules in sequence (v[1] = module). */
static int myc_cam(const myc_ctx *c, wc_gen_warp *w, wc_winst *o)
{
    static const uint64_t valu_off[3] = {46, 61, 76}, par_off[3] = {0, 5, 10};
    WC_CO_BEGIN(w);
    for (w->v[1] = 0; w->v[1] < 3; w->v[1]++) {
        WC_CO_EMIT(w, one_lane(o, 0x40, WC_OP_LDG, myc_ldreg(0), 0, 35 + (uint64_t)w->v[1]));
        for (w->v[0] = 1; w->v[0] <= 4; w->v[0]++)
            WC_CO_EMIT(w, one_lane(o, 0x48, WC_OP_LDG, myc_ldreg(w->v[0]), 2,
                                   par_off[w->v[1]] + (uint64_t)w->v[0]));
        WC_CO_EMIT(w, one_lane(o, 0x50, WC_OP_LDG, myc_ldreg(5), 2, 16));
        WC_CO_EMIT(w, one_lane(o, 0x58, WC_OP_LDG, myc_ldreg(6), 2, 17));
        for (w->v[0] = 0; w->v[0] < 15; w->v[0]++)
            WC_CO_EMIT(w, one_lane(o, 0x60, WC_OP_LDG, myc_ldreg(7 + w->v[0]), 0,
                                   valu_off[w->v[1]] + (uint64_t)w->v[0]));
        for (w->v[0] = 0; w->v[0] < MYC_CAM_ALU * (int64_t)c->alu; w->v[0]++) {
            WC_CO_EMIT(w, wc_gen_alu(o, 0x68, 1u, 3, myc_ldreg(w->v[0] % 22), 3));
            if (w->v[0] % (12 * (int64_t)c->alu) == 12 * (int64_t)c->alu - 1)
                WC_CO_EMIT(w, sfu(o, 0x70));
        }
        for (w->v[0] = 0; w->v[0] < 15; w->v[0]++)
            WC_CO_EMIT(w,
                       one_lane(o, 0x78, WC_OP_STG, 3, 1, valu_off[w->v[1]] + (uint64_t)w->v[0]));
        WC_CO_EMIT(w, one_lane(o, 0x80, WC_OP_STG, 3, 1, (uint64_t)w->v[1]));
    }
    WC_CO_END(w);
}

static int myc_next(const wc_gen_kernel *gk, wc_gen_warp *w, wc_winst *o)
{
    return w->bid.x == 0 ? myc_ecc(gk->arg, w, o) : myc_cam(gk->arg, w, o);
}

static int myc_kernel(void *ctx, uint32_t idx, wc_gen_kernel *out, wc_err *err)
{
    myc_ctx *c = ctx;
    if (idx >= c->xmax * c->attempts * 13) return 0;
    out->arg = c;
    snprintf(out->k.name, sizeof out->k.name, "kernel");
    out->k.block = (wc_dim3){32, 1, 1};
    out->k.grid = (wc_dim3){2, 1, 1};
    out->k.regs_per_thread = 63;
    out->next = myc_next;
    return 1;
}

static wc_source *open_myocyte(wc_params *p, uint64_t seed, wc_err *err)
{
    myc_ctx c;
    if (wc_params_u64(p, "xmax", 100, 1, 100000, &c.xmax, err) < 0 ||
        wc_params_u64(p, "attempts", 1, 1, 12, &c.attempts, err) < 0 ||
        wc_params_u64(p, "alu", 1, 1, 1000, &c.alu, err) < 0)
        return NULL;
    myc_ctx *h = malloc(sizeof *h);
    if (!h) {
        wc_errf(err, "myocyte: out of memory");
        return NULL;
    }
    *h = c;
    wc_gen_program prog = {.ctx = h, .kernel = myc_kernel, .destroy = free};
    return wc_gen_source_create(&prog, err);
}

const wc_workload wc_wl_rodinia_myocyte = {
    .name = "rodinia/myocyte",
    .suite = "rodinia",
    .kernels = "kernel<<<2,32>>> x 13 x attempts x xmax",
    .size = "xmax=100 attempts=1",
    .classes = "001:CI",
    .help = "Rodinia myocyte, mode 0 (seed 001 MYC); xmax (simulated ms = solver steps), "
            "attempts (step attempts per step, 1..12), alu (instructions per source operator)",
    .open = open_myocyte,
};
WC_PLUGIN(workload, wc_wl_rodinia_myocyte, 460);
